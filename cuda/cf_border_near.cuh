/* Border indices for kernels that unroll many loads (CUDA only). */
#ifndef CF_BORDER_NEAR_CUH
#define CF_BORDER_NEAR_CUH

#include "cf_border.h"

/* cf_border_index for kernels that unroll many loads: the range check
 * inline, the arithmetic for an index outside [0, n) out of line. Inlined
 * at every load of an unrolled loop, that arithmetic (rarely run: only at
 * the plane's edges) made kernels larger and cost them registers. */
inline __device__ __noinline__ int
cf_border_index_far (int i, int n, CfBorder border)
{
  return cf_border_index (i, n, border);
}

__device__ __forceinline__ int
cf_border_index_near (int i, int n, CfBorder border)
{
  return (unsigned) i < (unsigned) n ? i : cf_border_index_far (i, n,
      border);
}

#endif /* CF_BORDER_NEAR_CUH */
