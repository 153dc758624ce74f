/* The problem kinds' rows (kinds.c) and what their files share.  A kind is
 * one file here (normalise, overlap rules, its solver rows) plus its solver
 * files per backend; see docs/architecture.md, "How to add a kind". */
#ifndef TRIDI_KINDS_H
#define TRIDI_KINDS_H

#include "backends.h"

extern const tridi_kind_ops tridi_kind_scalar;   /* kinds/scalar.c */
extern const tridi_kind_ops tridi_kind_variable; /* kinds/variable.c */

#endif
