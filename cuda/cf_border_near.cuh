/* Border indices in kernels (CUDA only): the pixel of a sample index, and
 * row indices for kernels that unroll many loads. */
#ifndef CF_BORDER_NEAR_CUH
#define CF_BORDER_NEAR_CUH

#include "cf_border.h"

/* a / b rounded toward minus infinity (b > 0): the pixel of sample a of
 * b-channel samples, negative left of the plane. */
__device__ __forceinline__ int
cf_floor_div (int a, int b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Sample s of a row of C-channel pixels, s past either end of the row
 * read through the border mode (the same channel of the border pixel). */
template < typename T > __device__ __forceinline__ T
cf_border_sample (const T * row, int s, int C, int width, CfBorder border)
{
  const int px = cf_floor_div (s, C);
  return row[cf_border_index (px, width, border) * C + s - px * C];
}

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
