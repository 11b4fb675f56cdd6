/* The arithmetic of the temporal filter that the kernel and the reference
 * share, in float with every rounding explicit (no fused multiply-add on
 * the GPU), so that both take the same f8 from the same differences and
 * blend the same samples to the same output. */
#ifndef CF_TEMPORAL_MATH_H
#define CF_TEMPORAL_MATH_H

#include "temporal.h"
#include "cf_border.h"

#include <math.h>

#ifdef __CUDA_ARCH__
#define CF_TMUL(a, b) __fmul_rn (a, b)
#define CF_TADD(a, b) __fadd_rn (a, b)
#define CF_TSQRT(a) __fsqrt_rn (a)
#else
#define CF_TMUL(a, b) ((a) * (b))
#define CF_TADD(a, b) ((a) + (b))
#define CF_TSQRT(a) sqrtf (a)
#endif

CF_HD float
cf_temporal_ramp (float z, float t0, float t1)
{
  float f = (t1 - z) / (t1 - t0);

  return f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
}

/* f8 (0..255, how still) from the @n differences between src and prev
 * over the window: their sum @sum and the sum of their squares @ssd,
 * against @sigma. */
CF_HD int
cf_temporal_f8 (long long sum, unsigned long long ssd, int n, float sigma)
{
  float z = CF_TSQRT ((float) ssd / (float) n) / sigma;
  float zm = fabsf ((float) sum) / CF_TMUL (CF_TSQRT ((float) n), sigma);
  float f = cf_temporal_ramp (z, CF_TEMPORAL_T0, CF_TEMPORAL_T1);
  float fm = cf_temporal_ramp (zm, CF_TEMPORAL_M0, CF_TEMPORAL_M1);

  f = fm < f ? fm : f;
  return (int) CF_TADD (CF_TMUL (f, 255.0f), 0.5f);
}

/* The output sample before rounding: f (s p + (1 - s) c) + (1 - f) sp,
 * each product and sum rounded on its own: a fused multiply-add would move
 * v by an ulp, which at 16 bits (an ulp of 2^-8 near full scale) flips the
 * rounding of about one sample in 256, and the recursion carries such a
 * step on. */
CF_HD float
cf_temporal_blend (float f, float s, float c, float p, float sp)
{
  const float held = CF_TADD (CF_TMUL (s, p), CF_TMUL (1.0f - s, c));

  return CF_TADD (CF_TMUL (f, held), CF_TMUL (1.0f - f, sp));
}

/* A dither in [0, 1) from where the sample is, its input and the frame's
 * number (CfTemporalParams.frame): the output is floor (v + dither),
 * unbiased, because a recursive filter that rounds to nearest sticks
 * wherever it lands within 0.5 / (1 - s) of the true mean (5 levels at
 * s = 0.9), which at low noise costs more than the dither's own noise.
 * Not from the previous output: then two recursions whose previous
 * outputs differ by d (a step of the spatial pass, another GPU's exp)
 * round s d apart plus the same dither, so they stay within d, where a
 * dither of its own each would let d grow by a level a frame toward
 * 1 / (1 - s). A hash (murmur3's finaliser), the same on both paths. */
CF_HD float
cf_temporal_dither (unsigned x, unsigned y, unsigned c, unsigned cur,
    unsigned frame)
{
  unsigned h = (x * 0x9E3779B1u) ^ ((y + 0x7F4A7C15u) * 0x85EBCA77u) ^
      ((c + 1u) * 0xC2B2AE3Du) ^ (cur * 0x27D4EB2Fu) ^
      (frame * 0x165667B1u);

  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return (float) (h >> 8) * (1.0f / 16777216.0f);
}

/* floor (v + d) within 0..@max. */
CF_HD unsigned
cf_temporal_quantise (float v, float d, float max)
{
  float r = floorf (CF_TADD (v, d));

  return (unsigned) (r < 0.0f ? 0.0f : (r > max ? max : r));
}

#endif /* CF_TEMPORAL_MATH_H */
