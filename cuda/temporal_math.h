/* The arithmetic of the temporal filter that the kernel and the reference
 * share, in float with every rounding explicit (no fused multiply-add on
 * the GPU), so that both take the same f8 from the same differences. */
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

/* f8 (0..255, how still): from the sum @ssd of @n squared differences
 * between src and prev, against @sigma. */
CF_HD int
cf_temporal_f8 (unsigned long long ssd, int n, float sigma)
{
  float z = CF_TSQRT ((float) ssd / (float) n) / sigma;
  float f = (CF_TEMPORAL_T1 - z) / (CF_TEMPORAL_T1 - CF_TEMPORAL_T0);

  f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
  return (int) CF_TADD (CF_TMUL (f, 255.0f), 0.5f);
}

/* The output sample before rounding: f (s p + (1 - s) c) + (1 - f) sp. */
CF_HD float
cf_temporal_blend (float f, float s, float c, float p, float sp)
{
  return f * (s * p + (1.0f - s) * c) + (1.0f - f) * sp;
}

#endif /* CF_TEMPORAL_MATH_H */
