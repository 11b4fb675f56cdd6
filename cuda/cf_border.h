/* Border handling shared by the kernels and the references: maps any
 * coordinate, however far outside [0, n), to a sample inside it. */
#ifndef CF_BORDER_H
#define CF_BORDER_H

#include "cf_types.h"

#ifdef __CUDACC__
#define CF_HD __host__ __device__ __forceinline__
#else
#define CF_HD static inline
#endif

CF_HD int
cf_clamp_index (int i, int n)
{
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

/* Reflect-101 (cb|abc|ba), periodic with period 2n-2 so that any radius,
 * even one larger than the plane, lands inside it. */
CF_HD int
cf_mirror_index (int i, int n)
{
  if (n == 1)
    return 0;
  if (i >= 0 && i < n)
    return i;
  int period = 2 * n - 2;
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}

CF_HD int
cf_border_index (int i, int n, CfBorder border)
{
  return border == CF_BORDER_MIRROR ? cf_mirror_index (i, n) :
      cf_clamp_index (i, n);
}

#endif /* CF_BORDER_H */
