/**
 * @file
 * tridi — batched tridiagonal solvers for CPUs and NVIDIA GPUs.
 *
 * The whole public C API.  A solve has three steps, after FFTW:
 *
 *   1. describe the problem (tridi_desc): element type, an N-d layout with
 *      per-operand strides, and the axis the systems run along;
 *   2. make a plan (tridi_plan_create): validates everything once, picks the
 *      algorithm and owns any workspace;
 *   3. execute the plan on arrays (tridi_execute), as often as needed.
 *
 * Each system s of the batch is
 *
 *     a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i],   i = 0 .. n-1,
 *
 * where n is the extent of the solve axis.  a[0] and c[n-1] are not part of
 * the matrix: their values, NaN included, are never used.  On the CPU and
 * REF backends no memory outside the span of the elements that are used
 * (from the lowest to the highest address of a[1..n-1] over all systems, of
 * c[0..n-2], and of b, d) is ever read, so a[0] and c[n-1] need not be
 * valid memory where they lie outside that span (a kernel may read one that
 * lies inside it, and ignore it).  LAPACK's n-1-long sub- and
 * super-diagonals dl, du are thus described without a copy as a = dl - 1
 * (the address one element before dl) and c = du, with the strides of the
 * n-long arrays (docs/migrating.md).  On the CUDA backend the kernels may
 * read a[0] and c[n-1]: there they must be readable device memory, as in
 * cuSPARSE's storage (m-long dl, du).
 * a, b, c and d are const and never modified; x may be the same array as d
 * with the same strides (in-place solve) or a separate array that overlaps
 * no element that is read (a[0] and c[n-1] do not count).  Nothing outside
 * the described elements of x is ever written.
 *
 * Every function returns a tridi_status; none prints, aborts or exits.  After
 * a failed call, tridi_last_error() gives a sentence saying which argument was
 * wrong and why (per thread).
 */
#ifndef TRIDI_H
#define TRIDI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the functions of the public API: the only symbols libtridi.so
 *  exports (the library is compiled with hidden visibility). */
#if defined(TRIDI_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define TRIDI_API __attribute__((visibility("default")))
#else
#define TRIDI_API
#endif

/** The version of this header (tridi_version() gives the library's):
 *  major, minor, patch. */
#define TRIDI_VERSION_MAJOR 0
#define TRIDI_VERSION_MINOR 1 /**< minor version of this header */
#define TRIDI_VERSION_PATCH 0 /**< patch version of this header */

/** Largest number of dimensions of a layout. */
#define TRIDI_MAX_RANK 8

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

/** Result of every tridi function. Values are stable across releases. */
typedef enum tridi_status {
  TRIDI_SUCCESS = 0,
  TRIDI_ERR_NULL_POINTER = 1,   /**< a required pointer argument is NULL */
  TRIDI_ERR_INVALID_DTYPE = 2,  /**< unknown element type */
  TRIDI_ERR_INVALID_RANK = 3,   /**< rank outside 1..TRIDI_MAX_RANK */
  TRIDI_ERR_INVALID_SHAPE = 4,  /**< negative extent, or element count overflows int64 */
  TRIDI_ERR_INVALID_AXIS = 5,   /**< solve axis outside 0..rank-1 */
  TRIDI_ERR_INVALID_STRIDE = 6, /**< strides of x map two elements to one address, or an
                                     offset overflows int64 */
  TRIDI_ERR_INVALID_OPERAND = 7, /**< operand index outside tridi_operand */
  TRIDI_ERR_INVALID_OPTION = 8,  /**< bad field in tridi_options (backend, algorithm,
                                      threads, SIMD level, pivot, struct_size, or
                                      a forced algorithm against the pivot mode) */
  TRIDI_ERR_OVERLAP = 9,         /**< x overlaps an input other than as an exact in-place
                                      alias of d */
  TRIDI_ERR_MISALIGNED = 10,     /**< an array pointer is not a multiple of the element size */
  TRIDI_ERR_NOT_SUPPORTED = 11,  /**< valid request that this build, backend or algorithm
                                      cannot carry out (e.g. complex types, a kind not yet
                                      implemented, an algorithm that does not apply) */
  TRIDI_ERR_BACKEND_UNAVAILABLE = 12, /**< backend not compiled in, or no usable device */
  TRIDI_ERR_ALLOC = 13,          /**< memory allocation failed at plan time */
  TRIDI_ERR_WORKSPACE = 14,      /**< caller workspace NULL, too small or misaligned */
  TRIDI_ERR_ZERO_PIVOT = 15,     /**< a system met an exactly zero pivot (see info) */
  TRIDI_ERR_NONFINITE = 16,      /**< a system has a NaN/Inf input or produced one (see info) */
  TRIDI_ERR_DEVICE = 17,         /**< a CUDA runtime call or kernel launch failed */
  TRIDI_ERR_INTERNAL = 18,       /**< a bug in tridi: please report it */
  TRIDI_ERR_INACCURATE = 19      /**< some systems may be inaccurate (their info is
                                      TRIDI_INFO_INACCURATE): element growth without
                                      pivoting, or a failed accuracy check */
} tridi_status;

/** The info code (see tridi_execute) of a system that was solved, its x
 *  written and finite, but not to the accuracy the algorithm promises:
 *  element growth without pivoting was detected, or the solution failed an
 *  accuracy check (RD and CR+RD: see tridi_alg).  Distinct from the row
 *  codes +-k of every system shorter than INT32_MAX rows. */
#define TRIDI_INFO_INACCURATE INT32_MAX

/** Short human-readable message for a status ("invalid stride", ...).
 *  Never NULL; unknown values give "unknown status". */
TRIDI_API const char *tridi_status_string(tridi_status status);

/** The enumerator name of a status ("TRIDI_ERR_INVALID_STRIDE").
 *  Never NULL; unknown values give "TRIDI_UNKNOWN_STATUS". */
TRIDI_API const char *tridi_status_name(tridi_status status);

/** Detail of the last failing tridi call made by the calling thread: which
 *  argument was wrong and why, e.g. "tridi_desc_create: shape[2] = -1 is
 *  negative".  Empty string when the last call succeeded.  The text lives in
 *  thread-local storage and stays valid until the next tridi call in this
 *  thread. Never NULL. */
TRIDI_API const char *tridi_last_error(void);

/* ------------------------------------------------------------------------ */
/* Types, operands, kinds                                                   */
/* ------------------------------------------------------------------------ */

/** Element type of all five operands. */
typedef enum tridi_dtype {
  TRIDI_F32 = 1, /**< float */
  TRIDI_F64 = 2, /**< double */
  TRIDI_C32 = 3, /**< float complex: the FFT (tridi_fft_plan_create); the solvers
                      give TRIDI_ERR_NOT_SUPPORTED for now */
  TRIDI_C64 = 4  /**< double complex: the FFT; the solvers give
                      TRIDI_ERR_NOT_SUPPORTED for now */
} tridi_dtype;

/** Size in bytes of one element of a dtype, 0 for an unknown dtype. */
TRIDI_API size_t tridi_dtype_size(tridi_dtype dtype);

/** The five operands of a solve, used to index per-operand strides. */
typedef enum tridi_operand {
  TRIDI_OP_A = 0, /**< sub-diagonal a (row 0 unused) */
  TRIDI_OP_B = 1, /**< diagonal b */
  TRIDI_OP_C = 2, /**< super-diagonal c (row n-1 unused) */
  TRIDI_OP_D = 3, /**< right-hand side d */
  TRIDI_OP_X = 4  /**< solution x (may alias d: in place) */
} tridi_operand;
/** Number of operands (tridi_operand values 0 .. TRIDI_NUM_OPERANDS - 1). */
#define TRIDI_NUM_OPERANDS 5

/** Problem kind.  TRIDI_KIND_SCALAR (tridi_desc_create) and
 *  TRIDI_KIND_VARIABLE (tridi_desc_create_variable) are implemented; the
 *  others are reserved so that later releases extend the descriptor without
 *  breaking existing code. */
typedef enum tridi_kind {
  TRIDI_KIND_SCALAR = 0,      /**< independent scalar systems of one length (default) */
  TRIDI_KIND_BLOCK = 1,       /**< block-tridiagonal (reserved) */
  TRIDI_KIND_VARIABLE = 2,    /**< systems of different lengths (tridi_desc_create_variable) */
  TRIDI_KIND_TOEPLITZ = 3,    /**< constant diagonals (reserved) */
  TRIDI_KIND_DISTRIBUTED = 4  /**< axis split over MPI ranks (reserved) */
} tridi_kind;

/** Storage of a variable-size batch (TRIDI_KIND_VARIABLE).  All five
 *  operands use the same storage; x may be d itself (in place). */
typedef enum tridi_var_layout {
  /** Systems one after another: row i of system s is element off_s + i,
   *  with off_s = n_0 + ... + n_{s-1} (CSR-like).  Each operand holds
   *  n_0 + ... + n_{B-1} elements. */
  TRIDI_VAR_PACKED = 0,
  /** Padded interleaved (cuThomasVBatch's layout): row i of system s is
   *  element i*ld + s, i < n_s <= rows.  Rows i >= n_s of a system are
   *  padding: never read, never written. */
  TRIDI_VAR_INTERLEAVED = 1
} tridi_var_layout;

/* ------------------------------------------------------------------------ */
/* Problem descriptor                                                       */
/* ------------------------------------------------------------------------ */

/** Opaque problem descriptor: element type, N-d shape, per-operand strides,
 *  solve axis and kind.  Copied into the plan, so it may be destroyed (or
 *  changed and reused) once plans are made from it. */
typedef struct tridi_desc_s *tridi_desc;

/**
 * Create a descriptor for systems along `axis` of an array of `rank`
 * dimensions with extents `shape[0..rank-1]` (row-major: the last dimension
 * varies fastest in the default strides).
 *
 * The system length is n = shape[axis]; the batch is every index of the
 * other dimensions.  All five operands start with packed row-major strides
 * (stride[rank-1] = 1, stride[k] = stride[k+1] * shape[k+1]); change them with
 * tridi_desc_set_strides().  Extents may be 0 (an empty problem: execute
 * succeeds and touches nothing).
 *
 * @param[out] desc   new descriptor (set to NULL on failure)
 * @param dtype       element type
 * @param rank        1 .. TRIDI_MAX_RANK
 * @param shape       rank extents, each >= 0, product <= INT64_MAX
 * @param axis        0 .. rank-1, the dimension the systems run along
 * @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER (desc or shape),
 *         TRIDI_ERR_INVALID_DTYPE, TRIDI_ERR_NOT_SUPPORTED (complex dtypes),
 *         TRIDI_ERR_INVALID_RANK, TRIDI_ERR_INVALID_SHAPE,
 *         TRIDI_ERR_INVALID_AXIS, TRIDI_ERR_ALLOC.
 */
TRIDI_API tridi_status tridi_desc_create(tridi_desc *desc, tridi_dtype dtype, int rank,
                                         const int64_t *shape, int axis);

/**
 * Set the strides, in elements (not bytes), of one operand: element
 * (i_0, ..., i_{rank-1}) of operand `op` is at base[sum_k i_k * strides[k]].
 *
 * Any int64 value is accepted here, negative ones included.  A stride of 0 on
 * a coefficient or on d broadcasts it along that dimension (one matrix for
 * many right-hand sides, a constant diagonal, ...).  The strides of x must map
 * distinct elements to distinct addresses; that, and int64 overflow of the
 * largest offset, is checked by tridi_plan_create (TRIDI_ERR_INVALID_STRIDE).
 * The stride of a dimension of extent 0 or 1 is never used: any value,
 * INT64_MIN included, is accepted there.
 *
 * @param desc     descriptor
 * @param op       TRIDI_OP_A .. TRIDI_OP_X
 * @param strides  rank strides
 * @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER, TRIDI_ERR_INVALID_OPERAND.
 */
TRIDI_API tridi_status tridi_desc_set_strides(tridi_desc desc, tridi_operand op,
                                              const int64_t *strides);

/** Set the same strides for all five operands (see tridi_desc_set_strides).
 *  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER. */
TRIDI_API tridi_status tridi_desc_set_all_strides(tridi_desc desc, const int64_t *strides);

/** Set the problem kind of a descriptor made by tridi_desc_create.  Only
 *  TRIDI_KIND_SCALAR is accepted: a variable-size batch is made by
 *  tridi_desc_create_variable (it needs its lengths).
 *  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER, TRIDI_ERR_NOT_SUPPORTED
 *  for any other kind. */
TRIDI_API tridi_status tridi_desc_set_kind(tridi_desc desc, tridi_kind kind);

/**
 * Create a descriptor for a batch of `num_systems` systems of different
 * lengths (TRIDI_KIND_VARIABLE): system s has lengths[s] rows and its own
 * entry s of the info array.  The lengths are copied (a plan is made per
 * structure: a neuron tree or a mesh rarely changes).
 *
 * @param[out] desc     new descriptor (set to NULL on failure)
 * @param dtype         element type (TRIDI_F32 or TRIDI_F64)
 * @param num_systems   B >= 0 (0: an empty problem)
 * @param lengths       B lengths, each >= 1 (host array, copied)
 * @param layout        TRIDI_VAR_PACKED or TRIDI_VAR_INTERLEAVED
 * @param rows          INTERLEAVED: the padded extent, every lengths[s] <= rows;
 *                      PACKED: must be 0
 * @param ld            INTERLEAVED: distance in elements between rows, >= B;
 *                      PACKED: must be 0
 * @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER (desc, or lengths when B > 0),
 *         TRIDI_ERR_INVALID_DTYPE, TRIDI_ERR_NOT_SUPPORTED (complex dtypes),
 *         TRIDI_ERR_INVALID_SHAPE (B < 0, a length < 1, a length above rows,
 *         or the element count overflows int64), TRIDI_ERR_INVALID_STRIDE
 *         (ld < B, or rows / ld given for PACKED), TRIDI_ERR_INVALID_OPTION
 *         (unknown layout), TRIDI_ERR_ALLOC.
 * tridi_desc_set_strides and tridi_desc_set_all_strides refuse such a
 * descriptor (TRIDI_ERR_NOT_SUPPORTED).
 */
TRIDI_API tridi_status tridi_desc_create_variable(tridi_desc *desc, tridi_dtype dtype,
                                                  int64_t num_systems, const int64_t *lengths,
                                                  tridi_var_layout layout, int64_t rows,
                                                  int64_t ld);

/** Number of independent systems (product of the non-axis extents; B for a
 *  variable-size batch).  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER. */
TRIDI_API tridi_status tridi_desc_num_systems(tridi_desc desc, int64_t *num_systems);

/** Free a descriptor.  NULL is accepted and ignored.
 *  @return TRIDI_SUCCESS. */
TRIDI_API tridi_status tridi_desc_destroy(tridi_desc desc);

/* ------------------------------------------------------------------------ */
/* Options                                                                  */
/* ------------------------------------------------------------------------ */

/** Where a plan runs. */
typedef enum tridi_backend {
  TRIDI_BACKEND_AUTO = 0, /**< CPU (CUDA is never chosen implicitly: pointers differ) */
  TRIDI_BACKEND_REF = 1,  /**< plain C reference solver, one thread */
  TRIDI_BACKEND_CPU = 2,  /**< OpenMP + SIMD */
  TRIDI_BACKEND_CUDA = 3  /**< NVIDIA GPU; operands are device pointers */
} tridi_backend;

/** Algorithm.  TRIDI_ALG_AUTO lets the planner choose from measurements;
 *  the others force a choice (TRIDI_ERR_NOT_SUPPORTED where it does not exist
 *  for the backend).  Values are stable.
 *
 *  Only TRIDI_ALG_LU_PARTIAL pivots; tridi_options.pivot says which of the
 *  two families a plan uses (see tridi_pivot).  The Thomas solvers of the
 *  CPU and REF backends detect element growth on every solve (see
 *  tridi_pivot), and so do the CUDA Thomas and Thomas-PCR kernels (the
 *  segmented and cluster long-system solves by a residual check of every
 *  row, docs/accuracy.md); CR,
 *  PCR and CR+PCR do not, nor do they check their result: a plan forces
 *  them only with tridi_options.assume_dominant = 1 (else
 *  TRIDI_ERR_INVALID_OPTION), and they are then for systems diagonally
 *  dominant by rows or columns (not every SPD system: PCR loses accuracy on
 *  SPD matrices whose rows are not dominant, docs/accuracy.md).  RD and
 *  CR+RD lose accuracy where RD's prefix products grow, i.e. on diagonally
 *  dominant matrices from n of a few (docs/accuracy.md), so every system
 *  they solve is checked afterwards on every backend: its backward error
 *  ||Ax - d||inf / (||A||inf ||x||inf +
 *  ||d||inf), computed in the element type, must be at most 4 n eps (eps =
 *  FLT_EPSILON or DBL_EPSILON, n the system length); otherwise its info is
 *  TRIDI_INFO_INACCURATE (x stays written) and, on CPU/REF, the status
 *  TRIDI_ERR_INACCURATE.  Overflow of the products is a NaN/Inf breakdown
 *  (info < 0) as for every algorithm. */
typedef enum tridi_alg {
  TRIDI_ALG_AUTO = 0,
  TRIDI_ALG_THOMAS_REF = 1,       /**< scalar Thomas, one system at a time (reference) */
  TRIDI_ALG_THOMAS = 2,           /**< Thomas, SIMD lanes / threads across systems,
                                       local transposition where systems are contiguous */
  TRIDI_ALG_THOMAS_SHARED = 3,    /**< GPU: Thomas with shared-memory transposition */
  TRIDI_ALG_THOMAS_SHUFFLE = 4,   /**< GPU: Thomas with register-shuffle transposition */
  TRIDI_ALG_THOMAS_PCR = 5,       /**< Thomas-PCR hybrid (chunks per thread + PCR) */
  TRIDI_ALG_CR = 6,               /**< cyclic reduction */
  TRIDI_ALG_PCR = 7,              /**< parallel cyclic reduction */
  TRIDI_ALG_RD = 8,               /**< recursive doubling (accuracy-checked, see above) */
  TRIDI_ALG_CR_PCR = 9,           /**< CR + PCR hybrid */
  TRIDI_ALG_CR_RD = 10,           /**< CR + RD hybrid (accuracy-checked, see above) */
  TRIDI_ALG_LU_PARTIAL = 11       /**< LU with partial pivoting (LAPACK ?gtsv's row
                                       interchanges): the pivoting solver.  Forcing it
                                       means pivot = TRIDI_PIVOT_PARTIAL (tridi_pivot) */
} tridi_alg;

/** CPU SIMD code path. */
typedef enum tridi_simd {
  TRIDI_SIMD_AUTO = 0,     /**< best the CPU supports (runtime detection) */
  TRIDI_SIMD_PORTABLE = 1, /**< plain C11, any CPU */
  TRIDI_SIMD_AVX2 = 2,     /**< x86-64 AVX2 + FMA */
  TRIDI_SIMD_AVX512 = 3    /**< x86-64 AVX-512F */
} tridi_simd;

/** Pivoting, i.e. which systems a plan may solve accurately (docs/accuracy.md).
 *
 *  The fast solvers eliminate without pivoting.  That is backward stable for
 *  matrices that are diagonally dominant by rows or by columns or symmetric
 *  positive definite (element growth is bounded), and may be arbitrarily
 *  wrong for other matrices (a tiny first pivot gives errors of order 1).
 *  The Thomas solvers of the CPU and REF backends therefore measure the
 *  growth of every system as they eliminate, G = max_i N_i / max_i D_i with
 *  N_i = |a_i| + |a_i c'_{i-1}| + |u_i| + |c_i| (row i of |L||U|; u_i the
 *  pivot) and D_i = |a_i| + |b_i| + |c_i| (row i of |A|), and flag a system
 *  when G > 8, i.e. max N_i > 8 max D_i: its info is TRIDI_INFO_INACCURATE
 *  (x written) and the execute status TRIDI_ERR_INACCURATE.  An unflagged
 *  system has a backward error of at most about 16 eps; a strictly
 *  diagonally dominant (by rows or columns) or symmetric positive definite
 *  system (with cond * eps << 1) is never flagged.  A breakdown (zero pivot,
 *  NaN/Inf) keeps its own code.
 *
 *  The default is TRIDI_PIVOT_AUTO: no wrong answer is reported as success,
 *  and dominant systems cost nothing more than without pivoting. */
typedef enum tridi_pivot {
  /** Non-pivoting solve with growth detection; then every system whose info
   *  is not 0 (growth flagged, zero pivot, NaN/Inf) is solved again with the
   *  pivoting solver, and its info becomes that solver's (0, or k > 0 when A
   *  is exactly singular, or -k for NaN/Inf), provided the inputs are still
   *  there: x is not d.  In place (x == d) d is overwritten, so the systems
   *  keep the non-pivoting info, flag included.  Every backend; on CUDA the
   *  second pass is a kernel queued on the same stream after the solve that
   *  reads the device info array (no host synchronisation), and which
   *  systems it solves again depends on what the CUDA kernels flag
   *  (docs/accuracy.md). */
  TRIDI_PIVOT_AUTO = 0,
  /** Non-pivoting solvers only, growth flagged (the fastest; for systems
   *  known to be dominant, with assume_dominant = 1 nothing is flagged). */
  TRIDI_PIVOT_NONE = 1,
  /** The pivoting solver (TRIDI_ALG_LU_PARTIAL) for every system: LAPACK
   *  ?gtsv's partial pivoting, growth at most 2 (backward stable for any
   *  tridiagonal matrix).  A forced non-pivoting algorithm is refused. */
  TRIDI_PIVOT_PARTIAL = 2
} tridi_pivot;

/** Plan options.  Always initialise with tridi_options_init() and then set
 *  fields: struct_size lets later releases add fields without breaking
 *  binaries built against this header (a struct from an older header, down
 *  to the fields up to `flags`, gets the defaults of the fields it lacks). */
typedef struct tridi_options {
  size_t struct_size;     /**< sizeof(tridi_options), set by tridi_options_init */
  tridi_backend backend;  /**< default TRIDI_BACKEND_AUTO */
  tridi_alg alg;          /**< default TRIDI_ALG_AUTO */
  int num_threads;        /**< CPU threads; 0 (default) = omp_get_max_threads() */
  tridi_simd simd;        /**< CPU SIMD path; default TRIDI_SIMD_AUTO */
  int device;             /**< CUDA device ordinal; default 0 */
  unsigned int flags;     /**< reserved, must be 0 */
  tridi_pivot pivot;      /**< default TRIDI_PIVOT_AUTO (see tridi_pivot) */
  /** 0 (default), or 1: the caller declares every system diagonally
   *  dominant by rows or columns or symmetric positive definite.  Growth is
   *  then not flagged (never TRIDI_INFO_INACCURATE from a Thomas solver),
   *  and TRIDI_PIVOT_AUTO solves nothing again: no pivoting at all.  On
   *  CUDA it also selects kernels compiled without the detection: the
   *  fastest.  The RD / CR+RD accuracy check stays on.  Required to force
   *  TRIDI_ALG_CR, TRIDI_ALG_PCR or TRIDI_ALG_CR_PCR (see tridi_alg). */
  int assume_dominant;
} tridi_options;

/** Fill *opts with the defaults.  NULL is ignored. */
TRIDI_API void tridi_options_init(tridi_options *opts);

/* ------------------------------------------------------------------------ */
/* Plans                                                                    */
/* ------------------------------------------------------------------------ */

/** Opaque, immutable plan. */
typedef struct tridi_plan_s *tridi_plan;

/**
 * Validate a descriptor once, choose the backend and algorithm, and allocate
 * the plan's own workspace.
 *
 * @param[out] plan  new plan (NULL on failure)
 * @param desc       problem descriptor (copied; may be destroyed afterwards)
 * @param opts       options, or NULL for the defaults
 * @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER, TRIDI_ERR_INVALID_STRIDE,
 *         TRIDI_ERR_INVALID_OPTION, TRIDI_ERR_NOT_SUPPORTED,
 *         TRIDI_ERR_BACKEND_UNAVAILABLE, TRIDI_ERR_ALLOC, TRIDI_ERR_DEVICE.
 */
TRIDI_API tridi_status tridi_plan_create(tridi_plan *plan, tridi_desc desc,
                                         const tridi_options *opts);

/** Free a plan and its workspace.  NULL is accepted and ignored.
 *  The caller must not destroy a plan while an execute on it is running
 *  (on CUDA: still queued on a stream).  @return TRIDI_SUCCESS. */
TRIDI_API tridi_status tridi_plan_destroy(tridi_plan plan);

/**
 * Solve every system of the plan.
 *
 * Pointers are host pointers for CPU/REF plans and device pointers for CUDA
 * plans.  Each must be non-NULL and a multiple of the element size.  x may be
 * d itself (same pointer; the descriptor gave x and d the same strides) for an
 * in-place solve; otherwise x must not share memory with any input.
 *
 * @param plan    plan
 * @param a,b,c,d coefficient and right-hand-side arrays (read only)
 * @param x       solution array (written: exactly the described elements)
 * @param info    optional (may be NULL): one int32 per system, in row-major
 *                order of the non-axis dimensions.  0: solved.  k > 0: the
 *                pivot of row k (1-based) was exactly zero.  k < 0: row -k
 *                (1-based) has a NaN/Inf input or produced a NaN/Inf (not
 *                LAPACK's meaning: there info < 0 is an illegal argument;
 *                the LAPACK-compatible tridi_?gtsv below follow LAPACK).  The x
 *                of such a failed system is unspecified; other systems are
 *                not affected.  TRIDI_INFO_INACCURATE (INT32_MAX): solved and
 *                x written (finite), but not to the accuracy promised:
 *                element growth without pivoting was detected (see
 *                tridi_pivot; with TRIDI_PIVOT_AUTO out of place such a
 *                system is solved again with pivoting and gets that
 *                solver's info instead), or the system failed the accuracy
 *                check of RD / CR+RD (see tridi_alg).  For CUDA plans info is a device array written
 *                asynchronously; the GPU kernels' pivots differ from
 *                Thomas', an f64 pivot below the smallest normal
 *                number (2.2e-308) also counts as a breakdown there, and
 *                for overflow in the back substitution the code is
 *                negative but its row may differ from the CPU's
 *                (docs/cuda.md, "How breakdown is detected").  A CUDA call
 *                with info = NULL learns nothing of its systems, so the
 *                long-system kernels then skip their residual check
 *                (docs/accuracy.md); x is the same.
 * @param stream  CUDA plans: the cudaStream_t to enqueue on (NULL = the
 *                legacy default stream); execution is asynchronous.  CPU and
 *                REF plans: ignored (pass NULL); execution is synchronous.
 * @return TRIDI_SUCCESS; TRIDI_ERR_NULL_POINTER, TRIDI_ERR_MISALIGNED,
 *         TRIDI_ERR_OVERLAP (argument checks, in that order, nothing
 *         written); CPU/REF: TRIDI_ERR_ZERO_PIVOT, TRIDI_ERR_NONFINITE or
 *         TRIDI_ERR_INACCURATE, the kind of failure of the lowest-numbered
 *         system whose info is not 0 (all other systems are solved); CUDA:
 *         TRIDI_ERR_DEVICE on a launch failure (breakdown and inaccuracy are
 *         reported through info only: tridi_info_check gives their status).
 *
 * Thread safety: concurrent calls on one plan are safe; they take turns on
 * the plan's workspace.  Use tridi_execute_ws with per-thread workspaces to
 * run them truly in parallel.  CUDA plans whose workspace size is nonzero:
 * the plan's own workspace is shared by every stream, so executes of one plan
 * on several streams at once must use tridi_execute_ws with one workspace per
 * stream (the turn-taking covers the host call, not the queued kernels).
 */
TRIDI_API tridi_status tridi_execute(tridi_plan plan, const void *a, const void *b, const void *c,
                                     const void *d, void *x, int32_t *info, void *stream);

/** Bytes of workspace that tridi_execute_ws needs for this plan (host memory
 *  for CPU/REF plans, device memory for CUDA plans).  May be 0.  Plans with
 *  TRIDI_PIVOT_AUTO (and assume_dominant 0) include the second pass's part:
 *  4 bytes per system, then CPU/REF 3n elements per thread, CUDA at most
 *  16 MiB of scratch (none while n fits the pivoting kernel's tile).
 *  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER. */
TRIDI_API tridi_status tridi_plan_workspace_size(tridi_plan plan, size_t *bytes);

/** As tridi_execute, with caller-provided workspace of at least
 *  tridi_plan_workspace_size() bytes, aligned to 64 bytes (NULL allowed when
 *  the size is 0).  Calls with distinct workspaces run concurrently.
 *  @return as tridi_execute, plus TRIDI_ERR_WORKSPACE. */
TRIDI_API tridi_status tridi_execute_ws(tridi_plan plan, const void *a, const void *b,
                                        const void *c, const void *d, void *x, int32_t *info,
                                        void *stream, void *workspace, size_t workspace_bytes);

/** The status an execute's info array stands for: TRIDI_SUCCESS when every
 *  system's info is 0, else TRIDI_ERR_ZERO_PIVOT, TRIDI_ERR_NONFINITE or
 *  TRIDI_ERR_INACCURATE, the kind of failure of the lowest-numbered system
 *  whose info is not 0 (the rule of a CPU/REF tridi_execute's return, which
 *  this repeats).  For CUDA plans it is how a caller learns what an execute
 *  found: the execute returns before its kernels run, so its status says
 *  nothing of the systems.  There info is the device array given to the
 *  execute; the check runs on stream, after the work queued there, copies
 *  16 bytes back and waits for that stream (cudaStreamSynchronize; never the
 *  whole device).  So it cannot be captured in a CUDA graph: on a capturing
 *  stream it returns TRIDI_ERR_NOT_SUPPORTED, and the check belongs after the
 *  graph's launch.  CPU/REF plans: info is the host array, stream ignored.
 *  @param plan   the plan the execute ran
 *  @param info   its info array (plan->num_systems codes, as tridi_execute)
 *  @param stream CUDA plans: the stream of the execute (NULL = legacy default)
 *  @param first  optional (may be NULL): the lowest-numbered system whose info
 *                is not 0, or -1 when there is none (also on an error)
 *  @return the status above; TRIDI_ERR_NULL_POINTER (plan or info NULL);
 *          TRIDI_ERR_NOT_SUPPORTED (capturing stream); TRIDI_ERR_DEVICE
 *          (a CUDA call failed). */
TRIDI_API tridi_status tridi_info_check(tridi_plan plan, const int32_t *info, void *stream,
                                        int64_t *first);

/** What a plan chose.  Set struct_size to sizeof(tridi_plan_info) before
 *  the call; a smaller struct from an older header (down to the fields up to
 *  `kernel`) gets the fields that fit. */
typedef struct tridi_plan_info {
  size_t struct_size;     /**< set to sizeof(tridi_plan_info) before the call */
  tridi_backend backend;  /**< backend that runs it */
  tridi_alg alg;          /**< algorithm chosen */
  tridi_simd simd;        /**< CPU SIMD path (TRIDI_SIMD_AUTO for non-CPU plans) */
  int num_threads;        /**< CPU threads used */
  int64_t n;              /**< system length (variable-size batch: the longest) */
  int64_t num_systems;    /**< number of systems */
  const char *kernel;     /**< name of the kernel, e.g. "cpu_thomas_transpose_avx512_f64" */
  tridi_kind kind;        /**< problem kind */
  int64_t unknowns;       /**< total number of unknowns of all systems */
  /** How the planner chose: one line per solver row of the plan's kind and
   *  backend, "name: chosen (...)", "name: applies, rank r", "name: not
   *  applicable: reason", "name: explicit only".  Valid while the plan lives. */
  const char *selection;
  tridi_pivot pivot;      /**< pivoting the plan does: TRIDI_PIVOT_NONE, _PARTIAL or _AUTO
                               (forcing TRIDI_ALG_LU_PARTIAL gives _PARTIAL) */
  int assume_dominant;    /**< as in the options */
} tridi_plan_info;

/** Describe a plan.  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER,
 *  TRIDI_ERR_INVALID_OPTION (struct_size too small). */
TRIDI_API tridi_status tridi_plan_get_info(tridi_plan plan, tridi_plan_info *info);

/** One row of tridi's solver table (what tridi_get_solver describes). */
typedef struct tridi_solver_desc {
  size_t struct_size;     /**< set to sizeof(tridi_solver_desc) before the call */
  const char *name;       /**< e.g. "cpu_thomas" */
  tridi_kind kind;        /**< problem kind it solves */
  tridi_backend backend;  /**< backend it runs on */
  tridi_alg alg;          /**< algorithm it implements */
  int auto_rank;          /**< preference under TRIDI_ALG_AUTO (lower first); -1: only
                               when its algorithm is forced */
} tridi_solver_desc;

/** Number of solver rows compiled into this build (all kinds and backends). */
TRIDI_API int tridi_num_solvers(void);

/** Describe solver row `index` (0 .. tridi_num_solvers()-1).
 *  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER, TRIDI_ERR_INVALID_OPTION
 *  (index out of range, or struct_size too small). */
TRIDI_API tridi_status tridi_get_solver(int index, tridi_solver_desc *desc);

/* ------------------------------------------------------------------------ */
/* Library information                                                      */
/* ------------------------------------------------------------------------ */

/** Version numbers (any pointer may be NULL). */
TRIDI_API void tridi_version(int *major, int *minor, int *patch);

/** 1 if the backend is compiled in (for CUDA: and a device is visible), else 0. */
TRIDI_API int tridi_backend_available(tridi_backend backend);

/** SIMD level that TRIDI_SIMD_AUTO picks on this CPU. */
TRIDI_API tridi_simd tridi_cpu_simd_detect(void);

/** Names for printing; never NULL ("unknown" for bad values). */
TRIDI_API const char *tridi_backend_name(tridi_backend backend);
/** The name of an algorithm ("thomas", "cr_pcr", ...; tridi_alg_from_name
 *  reads it back); never NULL ("unknown" for bad values). */
TRIDI_API const char *tridi_alg_name(tridi_alg alg);
/** 1 for the algorithms a plan forces only with tridi_options.assume_dominant
 *  = 1 (CR, PCR and CR+PCR: they neither pivot nor check their result, see
 *  tridi_alg); 0 for every other value, valid or not. */
TRIDI_API int tridi_alg_requires_dominance(tridi_alg alg);
/** The name of a SIMD level ("avx512", ...); never NULL ("unknown" for bad values). */
TRIDI_API const char *tridi_simd_name(tridi_simd simd);
/** The name of a dtype ("f32", "f64"); never NULL ("unknown" for bad values). */
TRIDI_API const char *tridi_dtype_name(tridi_dtype dtype);
/** The name of a problem kind ("scalar", "variable", ...); never NULL ("unknown" for bad values). */
TRIDI_API const char *tridi_kind_name(tridi_kind kind);
/** The name of a pivoting mode ("auto", "none", "partial"; tridi_pivot_from_name
 *  reads it back); never NULL ("unknown" for bad values). */
TRIDI_API const char *tridi_pivot_name(tridi_pivot pivot);

/** The algorithm called `name` (as tridi_alg_name spells it, e.g. "thomas_pcr").
 *  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER, TRIDI_ERR_INVALID_OPTION
 *  (no such algorithm; *alg is left unchanged). */
TRIDI_API tridi_status tridi_alg_from_name(const char *name, tridi_alg *alg);

/** The pivoting mode called `name` ("auto", "none" or "partial").
 *  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER, TRIDI_ERR_INVALID_OPTION
 *  (no such mode; *pivot is left unchanged). */
TRIDI_API tridi_status tridi_pivot_from_name(const char *name, tridi_pivot *pivot);

/* ------------------------------------------------------------------------ */
/* Drop-in entry points: LAPACK ?gtsv                                       */
/* ------------------------------------------------------------------------ */

/**
 * LAPACK's dgtsv / sgtsv with the same arguments and storage (the scalars by
 * value): solve A X = B for one tridiagonal matrix A of order n and nrhs
 * right-hand sides, with Gaussian elimination and partial pivoting (the
 * pivots LAPACK chooses; TRIDI_PIVOT_PARTIAL).  From
 * `dgtsv_(&n, &nrhs, dl, d, du, b, &ldb, &info)` it is a rename:
 * `tridi_dgtsv(n, nrhs, dl, d, du, b, ldb, &info)` (docs/migrating.md).
 *
 * @param n      order of A, >= 0
 * @param nrhs   number of right-hand sides, >= 0
 * @param dl     the n-1 subdiagonal elements (may be NULL when n <= 1)
 * @param d      the n diagonal elements
 * @param du     the n-1 superdiagonal elements (may be NULL when n <= 1)
 * @param b      n x nrhs column-major, leading dimension ldb: B on entry,
 *               X on exit
 * @param ldb    >= max(1, n)
 * @param[out] info  LAPACK's convention: 0 solved; -i argument i is illegal
 *               (n < 0: -1, nrhs < 0: -2, ldb: -7; tridi also reports a NULL
 *               or misaligned dl, d, du, b as -3 .. -6, and b overlapping an
 *               input as -6); i > 0: U(i,i) is exactly zero, A is singular
 *               and X was not computed.  -1011 (MKL's code): tridi could not
 *               allocate its O(n) workspace (LAPACK needs none).
 * @return TRIDI_SUCCESS when info is 0 and X is finite; the argument error's
 *         status (TRIDI_ERR_INVALID_SHAPE, _INVALID_STRIDE, _NULL_POINTER,
 *         _MISALIGNED, _OVERLAP) when info < 0; TRIDI_ERR_ZERO_PIVOT when
 *         info > 0; TRIDI_ERR_NONFINITE when a NaN/Inf input or result
 *         made a column of X NaN (info stays 0 there, as LAPACK's would,
 *         and that column of b is filled with NaN); TRIDI_ERR_ALLOC;
 *         TRIDI_ERR_NULL_POINTER (info NULL, nothing written).
 *
 * Differences from LAPACK: dl, d and du are const and left unchanged (LAPACK
 * overwrites them with the factorization U and the multipliers: code that
 * reads those afterwards needs LAPACK's dgttrf); the elimination does
 * LAPACK's operations in LAPACK's order for nrhs = 1 (the reference
 * pivoting solver, src/ref/ref_pivot.c), and vectorised over the
 * right-hand sides for nrhs > 1 (LAPACK's pivots, rounding differs by an
 * FMA at most).  nrhs > 1 uses a cached plan (see tridi_gtsv_cache_clear).
 * Thread safe.
 */
TRIDI_API tridi_status tridi_dgtsv(int n, int nrhs, const double *dl, const double *d,
                                   const double *du, double *b, int ldb, int *info);
/** As tridi_dgtsv, in float. */
TRIDI_API tridi_status tridi_sgtsv(int n, int nrhs, const float *dl, const float *d,
                                   const float *du, float *b, int ldb, int *info);

/**
 * tridi_dgtsv over `batch` independent systems in LAPACK storage, one call:
 * system s has its subdiagonal at dl + s * stride_dl (n-1 elements), its
 * diagonal at d + s * stride_d (n), its superdiagonal at du + s * stride_du
 * (n-1) and its n x nrhs right-hand sides at b + s * stride_b (leading
 * dimension ldb), overwritten by X; info[s] is its LAPACK info.  The batch
 * is solved by the pivoting kernel across systems on every CPU thread, one
 * plan per distinct argument shape, cached (tridi_gtsv_cache_clear).
 * Systems packed one after the other: stride_dl = stride_du = n - 1,
 * stride_d = n, stride_b = ldb * nrhs.
 *
 * @param n, nrhs, ldb  as tridi_dgtsv
 * @param batch      number of systems, >= 0
 * @param dl, d, du  the first system's sub-, main and superdiagonal
 * @param b          the first system's right-hand sides, overwritten by X
 * @param stride_dl  >= n - 1 (any value when batch <= 1); likewise
 *                   stride_d >= n, stride_du >= n - 1, stride_b >= ldb * nrhs
 * @param stride_d, stride_du, stride_b  the distances, in elements, between
 *                   consecutive systems' d, du and b
 * @param[out] info  batch entries, LAPACK's convention per system; an
 *                   illegal argument i sets every entry to -i (positions:
 *                   n 1, nrhs 2, batch 3, dl 4, stride_dl 5, d 6, stride_d 7,
 *                   du 8, stride_du 9, b 10, ldb 11, stride_b 12)
 * @return as tridi_dgtsv, for the lowest-numbered failing system.
 */
TRIDI_API tridi_status tridi_dgtsv_batch(int n, int nrhs, int batch, const double *dl,
                                         int64_t stride_dl, const double *d, int64_t stride_d,
                                         const double *du, int64_t stride_du, double *b, int ldb,
                                         int64_t stride_b, int *info);
/** As tridi_dgtsv_batch, in float. */
TRIDI_API tridi_status tridi_sgtsv_batch(int n, int nrhs, int batch, const float *dl,
                                         int64_t stride_dl, const float *d, int64_t stride_d,
                                         const float *du, int64_t stride_du, float *b, int ldb,
                                         int64_t stride_b, int *info);

/* ------------------------------------------------------------------------ */
/* Drop-in entry points: cuSPARSE gtsv (GPU)                                */
/* ------------------------------------------------------------------------ */
/* These solve as the cuSPARSE calls do: without pivoting (TRIDI_PIVOT_NONE;
 * a zero pivot or NaN is not reported, as in cuSPARSE), except
 * gtsvInterleavedBatch's algo 1, which is LU with partial pivoting there and
 * tridi's pivoting solver (TRIDI_PIVOT_PARTIAL) here.  cusparse?gtsv2 (with
 * pivoting) has no counterpart yet, nor algo 2 (QR).  For other systems
 * that need pivoting use the native API with TRIDI_PIVOT_PARTIAL or AUTO. */

/**
 * cusparse?gtsv2StridedBatch's arguments without the handle and the buffer,
 * plus the stream: `batch_count` systems of order m, system s's sub-,
 * main and superdiagonal and right-hand side at dl, d, du, x + s *
 * batch_stride (device pointers, m elements each; dl[0] and du[m-1] are
 * ignored, as cuSPARSE documents), solved in place in x, asynchronously on
 * `stream` (a cudaStream_t; NULL: the legacy default stream), on the
 * current device.  No pivoting (as gtsv2StridedBatch): for diagonally
 * dominant or symmetric positive definite systems.  dl, d, du are not
 * modified.  A breakdown is not reported (as in cuSPARSE); the native API
 * (tridi_execute with an info array) reports it per system.
 *
 * The plan of each distinct (type, m, batch_count, batch_stride, device,
 * stream) is made on first use and cached (tridi_gtsv_cache_clear).
 *
 * @return TRIDI_SUCCESS (enqueued), TRIDI_ERR_INVALID_SHAPE (m or
 *         batch_count < 0), TRIDI_ERR_INVALID_STRIDE (batch_stride < m with
 *         batch_count > 1), TRIDI_ERR_NULL_POINTER, TRIDI_ERR_MISALIGNED,
 *         TRIDI_ERR_BACKEND_UNAVAILABLE (no CUDA device, or a build without
 *         CUDA), TRIDI_ERR_DEVICE, TRIDI_ERR_ALLOC.
 */
TRIDI_API tridi_status tridi_cuda_sgtsv_strided_batch(int m, const float *dl, const float *d,
                                                      const float *du, float *x, int batch_count,
                                                      int batch_stride, void *stream);
/** As tridi_cuda_sgtsv_strided_batch, in double. */
TRIDI_API tridi_status tridi_cuda_dgtsv_strided_batch(int m, const double *dl, const double *d,
                                                      const double *du, double *x, int batch_count,
                                                      int batch_stride, void *stream);

/**
 * cusparse?gtsvInterleavedBatch's arguments without the handle and the
 * buffer, plus the stream: element i of system s at index i * batch_count
 * + s of dl, d, du and x (device pointers, m * batch_count elements each;
 * row 0 of dl and row m-1 of du ignored), solved in place in x,
 * asynchronously, on the current device.  algo 0: no pivoting; 1: LU with
 * partial pivoting (tridi's GPU pivoting solver, as for any system that is
 * not diagonally dominant); cuSPARSE's 2 (QR) gives TRIDI_ERR_NOT_SUPPORTED,
 * any other value TRIDI_ERR_INVALID_OPTION.  Unlike cuSPARSE, dl, d and du
 * are not overwritten.  Statuses as tridi_cuda_sgtsv_strided_batch.
 */
TRIDI_API tridi_status tridi_cuda_sgtsv_interleaved_batch(int algo, int m, const float *dl,
                                                          const float *d, const float *du, float *x,
                                                          int batch_count, void *stream);
/** As tridi_cuda_sgtsv_interleaved_batch, in double. */
TRIDI_API tridi_status tridi_cuda_dgtsv_interleaved_batch(int algo, int m, const double *dl,
                                                          const double *d, const double *du,
                                                          double *x, int batch_count, void *stream);

/**
 * cusparse?gtsv2_nopivot's arguments without the handle and the buffer,
 * plus the stream: one matrix of order m (dl, d, du, m elements each, dl[0]
 * and du[m-1] ignored) and n right-hand sides, column-major in B with
 * leading dimension ldb >= max(1, m), solved in place, asynchronously, on
 * the current device, without pivoting.  Statuses as
 * tridi_cuda_sgtsv_strided_batch.
 */
TRIDI_API tridi_status tridi_cuda_sgtsv2_nopivot(int m, int n, const float *dl, const float *d,
                                                 const float *du, float *B, int ldb, void *stream);
/** As tridi_cuda_sgtsv2_nopivot, in double. */
TRIDI_API tridi_status tridi_cuda_dgtsv2_nopivot(int m, int n, const double *dl, const double *d,
                                                 const double *du, double *B, int ldb,
                                                 void *stream);

/** Destroy the plans the drop-in entry points cached (at most 16, the
 *  least recently used replaced first; each holds its workspace).  Plans in
 *  use by a running call are destroyed when it returns.  CUDA plans: waits
 *  for their device first.  Thread safe. */
TRIDI_API void tridi_gtsv_cache_clear(void);

/** Number of plans the drop-in entry points hold now (0 .. 16). */
TRIDI_API int tridi_gtsv_cache_size(void);

#ifdef __cplusplus
}
#endif

/* The FFT's part of the API (tridi_fft_*): its own header, always included. */
#include "tridi_fft.h"

#endif /* TRIDI_H */
