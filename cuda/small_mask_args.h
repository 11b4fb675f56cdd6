/* The arguments of the small-mask kernels (small_mask.cuh: 3x3, 5x5, and
 * 7x7 with integer taps; gaussian_small.cu, convolve_small.cu: 3x3 and
 * 5x5), filled from the Gaussian's or cudaconvolve's parameters in one
 * place. Passed by value to the kernels. */
#ifndef CF_SMALL_MASK_ARGS_H
#define CF_SMALL_MASK_ARGS_H

#include "convolve.h"
#include "gaussian.h"

#include "cf_tap_words.h"

#include <math.h>

/* The largest mask: 7 x 7 (radius 3), integer taps only. */
#define CF_MASK_MAX_R 3
#define CF_MASK_MAX_K (2 * CF_MASK_MAX_R + 1)

struct CfMaskArgs {
  float wx[CF_MASK_MAX_R + 1], wy[CF_MASK_MAX_R + 1];  /* Gaussian: half
                                 * kernels w[0..R], zero-padded */
  float taps[CF_MASK_MAX_K * CF_MASK_MAX_K];    /* K x K, row-major (the
                                                 * Gaussian's: wy wx) */
  float offset;                 /* convolution: added to the sum */
  int absolute;                 /* convolution: |sum + offset| */
  float amount, threshold;      /* Gaussian: unsharp mask (cf_gaussian_finish) */
  float max;                    /* the plane's full scale */
  CfBorder border;
  unsigned mask;                /* channels filtered, the others copied */
  /* Integer taps for the vector kernel on 8-bit planes (0: none), which
   * sums them exactly by dot products on a stream of bytes a channel.
   * 8: convolution taps that are integers in -128..127 (presets, seed
   * 003's masks), the sum times `scale` (1 / divisor): tw[ky][a], the
   * taps of mask row ky for an output whose leftmost input lies at byte a
   * of a word, as that word's and the next ones' dp4a operands. 16: the
   * Gaussian's
   * weights times 2^CF_TAP_FIXED_BITS: tw2[ky][a][p], the taps on byte
   * pair p (bytes 2p, 2p + 1 from that word) as a dp2a operand. */
  int tap_bits;
  float scale;
  unsigned tw[CF_MASK_MAX_K][4][(3 + CF_MASK_MAX_K - 1) / 4 + 1];
  unsigned tw2[CF_MASK_MAX_K][4][(3 + CF_MASK_MAX_K - 1) / 2 + 1];
};

/* Fills a.tw from the K x K integer taps, row by row (cf_tap_words8). */
static inline void
cf_mask_tap_words (CfMaskArgs * a, const int *taps, int k)
{
  a->tap_bits = 8;
  for (int ky = 0; ky < k; ky++)
    cf_tap_words8 (taps + ky * k, k, &a->tw[ky][0][0],
        sizeof a->tw[0][0] / sizeof a->tw[0][0][0]);
}

/* Fills a.tw2 from the K x K float taps (nonnegative, summing to 1), row
 * by row (cf_tap_words16). Each weight is off by at most 2^-16, a result
 * by at most 49 * 2^-16 * 255 = 0.2 of an 8-bit level. */
static inline void
cf_mask_fixed_tap_words (CfMaskArgs * a, int k)
{
  a->tap_bits = 16;
  for (int ky = 0; ky < k; ky++)
    cf_tap_words16 (a->taps + ky * k, k, &a->tw2[ky][0][0],
        sizeof a->tw2[0][0] / sizeof a->tw2[0][0][0]);
}

/* The taps of a K x K kernel (K up to CF_MASK_MAX_K) as integers,
 * multiplied out where separable: whether all are integers in
 * -128..127. */
static inline int
cf_mask_integer_taps (const CfConvolveParams * p, int k, int *taps)
{
  for (int y = 0; y < k; y++)
    for (int x = 0; x < k; x++) {
      const double t = p->separable ? (double) p->row[x] * p->col[y] :
          p->taps[y * k + x];
      if (!cf_tap_is_byte (t))
        return 0;
      taps[y * k + x] = (int) t;
    }
  return 1;
}

/* Whether a convolution runs as integer taps (filled into taps): 8-bit
 * planes, every tap an integer in -128..127. cf_small_mask_convolve_fits
 * and cf_mask_args_convolve both ask here, so that a 7x7 the kernel
 * takes always has its integer taps. */
static inline int
cf_mask_convolve_integer (const CfPlane * dst, const CfConvolveParams * p,
    int k, int *taps)
{
  return dst->depth == 8 && cf_mask_integer_taps (p, k, taps);
}

/* Whether the Gaussian runs as fixed-point taps: 8-bit planes, no
 * unsharp step. */
static inline int
cf_mask_gaussian_fixed (const CfPlane * dst, const CfGaussianParams * p)
{
  return dst->depth == 8 && p->sharpen == 0.0;
}

/* The Gaussian's half kernels and unsharp mask, for radii up to
 * CF_MASK_MAX_R. */
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
  if (cf_mask_gaussian_fixed (dst, p))
    cf_mask_fixed_tap_words (&a, k);
  return a;
}

/* A plan's taps, 3x3 to 7x7 (a separable one multiplied out), and their
 * tap words where they are integers (cf_mask_convolve_integer). */
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
  int itaps[CF_MASK_MAX_K * CF_MASK_MAX_K];
  if (cf_mask_convolve_integer (dst, params, k, itaps)) {
    a.scale = (float) (1.0 / plan->divisor);
    cf_mask_tap_words (&a, itaps, k);
  }
  return a;
}

#endif /* CF_SMALL_MASK_ARGS_H */
