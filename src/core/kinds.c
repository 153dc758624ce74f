/* The kinds table: one row per implemented problem kind.  Adding a kind is
 * one line here and the kind's own files. */
#include "kinds.h"

static const tridi_kind_ops *const kinds[] = {
    &tridi_kind_scalar,
    &tridi_kind_variable,
};

const tridi_kind_ops *tridi_kind_get(tridi_kind kind) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i)
    if (kinds[i]->kind == kind) return kinds[i];
  return NULL;
}

int tridi_num_solvers(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) n += kinds[i]->num_solvers;
  return n;
}

tridi_status tridi_get_solver(int index, tridi_solver_desc *desc) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_get_solver: desc is NULL");
  if (desc->struct_size < sizeof *desc)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_get_solver: desc->struct_size = %zu; set it to "
                           "sizeof(tridi_solver_desc)",
                           desc->struct_size);
  int k = index;
  for (size_t i = 0; k >= 0 && i < sizeof kinds / sizeof kinds[0]; ++i) {
    if (k < kinds[i]->num_solvers) {
      const tridi_solver *s = &kinds[i]->solvers[k];
      desc->name = s->name;
      desc->kind = kinds[i]->kind;
      desc->backend = s->backend;
      desc->alg = s->alg;
      desc->auto_rank = s->auto_rank;
      return TRIDI_SUCCESS;
    }
    k -= kinds[i]->num_solvers;
  }
  return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_get_solver: index = %d is outside 0..%d",
                         index, tridi_num_solvers() - 1);
}
