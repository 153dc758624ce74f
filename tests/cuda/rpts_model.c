/* The host model of the partitioned pivoting solver (rpts_model.h); each
 * step mirrors src/cuda/pivot/rpts.cuh. */
#include "rpts_model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define RM_MAXM 64 /* the largest partition the model takes */

#define RM_T double
#define RM_ABS fabs
#define RM_EPS DBL_EPSILON
#define RM_F f64
#include "rpts_model_t.h"
#undef RM_T
#undef RM_ABS
#undef RM_EPS
#undef RM_F

#define RM_T float
#define RM_ABS fabsf
#define RM_EPS FLT_EPSILON
#define RM_F f32
#include "rpts_model_t.h"
