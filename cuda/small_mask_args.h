/* The arguments of the 3x3 and 5x5 kernels (small_mask.cuh,
 * gaussian_small.cu, convolve_small.cu), filled from the Gaussian's or
 * cudaconvolve's parameters in one place. Passed by value to the kernels. */
#ifndef CF_SMALL_MASK_ARGS_H
#define CF_SMALL_MASK_ARGS_H

#include "convolve.h"
#include "gaussian.h"

struct CfMaskArgs {
  float wx[3], wy[3];           /* Gaussian: half kernels w[0..2], zero-padded */
  float taps[25];               /* K x K, row-major (the Gaussian's: wy wx) */
  float offset;                 /* convolution: added to the sum */
  int absolute;                 /* convolution: |sum + offset| */
  float amount, threshold;      /* Gaussian: unsharp mask (cf_gaussian_finish) */
  float max;                    /* the plane's full scale */
  CfBorder border;
  unsigned mask;                /* channels filtered, the others copied */
};

/* The Gaussian's half kernels and unsharp mask, for radii up to 2. */
static inline CfMaskArgs
cf_mask_args_gaussian (const CfPlane * dst, const CfGaussianParams * p)
{
  CfMaskArgs a = { };
  a.wx[0] = a.wy[0] = 1.0f;
  if (p->radius_x > 0)
    cf_gaussian_weights (p->sigma_x, p->radius_x, a.wx);
  if (p->radius_y > 0)
    cf_gaussian_weights (p->sigma_y, p->radius_y, a.wy);
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  const int k = 2 * r + 1;
  for (int y = 0; y < k; y++)
    for (int x = 0; x < k; x++)
      a.taps[y * k + x] = a.wy[y < r ? r - y : y - r] *
          a.wx[x < r ? r - x : x - r];
  a.max = (float) cf_plane_max (dst);
  a.amount = (float) p->sharpen;
  a.threshold = (float) (p->threshold * a.max);
  a.border = p->border;
  a.mask = p->channel_mask;
  return a;
}

/* A 3x3 or 5x5 plan's taps (a separable one multiplied out). */
static inline CfMaskArgs
cf_mask_args_convolve (const CfPlane * dst, const CfConvolvePlan * plan,
    const CfConvolveParams * params)
{
  CfMaskArgs a = { };
  const int k = plan->width;
  for (int y = 0; y < k; y++)
    for (int x = 0; x < k; x++)
      a.taps[y * k + x] = plan->separable ? plan->row[x] * plan->col[y] :
          plan->taps[y * k + x];
  a.offset = plan->offset;
  a.absolute = plan->absolute;
  a.max = (float) cf_plane_max (dst);
  a.border = params->border;
  a.mask = params->channel_mask;
  return a;
}

#endif /* CF_SMALL_MASK_ARGS_H */
