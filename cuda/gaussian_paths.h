/* The Gaussian's paths (cf_gaussian_blur picks one), shared by their
 * kernels and plain-C twins: the separable engine (separable.cu), the
 * wide direct one (gaussian_wide.cu), the multi-rate one
 * (gaussian_multirate.cu, its twin gaussian_multirate.c), the one-pass
 * tile kernel (gaussian_tile.cu) and the register 3x3 kernel
 * (gaussian_small.cu).
 *
 * The multi-rate path, per axis: a narrow Gaussian a (sigma s1 = 0.35
 * sigma, taps -reach..reach, summing to 1) samples the border-extended
 * line every k pixels, D(j) = sum_u a(u) f(j k + u); each output is a
 * short combination of those samples, out(q k + p) = sum_m h_p(m)
 * D(q + first + m), with weights h_p per phase p = x mod k fitted (least
 * squares, in double) so that the effective kernel sum_m h_p(m) a(t + (first
 * + m) k - p) matches the truncated Gaussian cf_gaussian_weights (sigma,
 * radius), and scaled to sum to 1 (flat areas stay exact). k is about
 * sigma / 2.3, so a pixel costs about 2 reach / k + taps (about 6 + 22)
 * operations per axis at any sigma; what remains of the fit, mostly
 * where the truncated kernel jumps to 0 at the radius, is the path's
 * error (docs/cudagaussianblur.md). */
#ifndef CF_GAUSSIAN_PATHS_H
#define CF_GAUSSIAN_PATHS_H

#include "gaussian.h"
#include "cf_border.h"

#ifndef __CUDACC__
#include <math.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define CF_GM_MAX_FACTOR 48    /* k at sigma 100: 43 */
#define CF_GM_MAX_REACH 128     /* reach at sigma 100: 123 */
#define CF_GM_MAX_TAPS 32       /* taps at radius 15 with k = 1: 31 */

/* One axis's plan. k = 1 (a small sigma) is the direct filter on that
 * axis: a = 1, h_0 = the truncated kernel. */
typedef struct {
  int factor;                   /* k */
  int reach;                    /* a's taps: -reach..reach */
  int taps;                     /* h's taps per phase */
  int first;                    /* output q k + p reads D (q + first ..) */
  double residual;              /* max over phases of sum_t |kernel - w| */
  float analysis[CF_GM_MAX_REACH + 1];  /* a (|u|) */
  float synthesis[CF_GM_MAX_FACTOR][CF_GM_MAX_TAPS];    /* h_p (m) */
} CfGaussMultirate;

/* The plan for cf_gaussian_weights (sigma, radius); 0 if the path cannot
 * take it (more than CF_GM_MAX_TAPS taps: a radius far from 3 sigma). */
int cf_gm_plan (double sigma, int radius, CfGaussMultirate * plan);

/* Below this radius (on both axes) the direct path is faster (measured
 * on an H100, docs/cudagaussianblur.md); above this residual the fit is
 * not exact enough (a radius far below 3 sigma). */
#define CF_GM_MIN_RADIUS 16
#define CF_GM_MIN_RADIUS_MULTI 16     /* 2 or more filtered channels */
#define CF_GM_MAX_RESIDUAL 3e-3

/* Grid samples of an axis of n pixels: D (first) .. D ((n - 1) / k +
 * first + taps - 1). */
CF_HD int
cf_gm_grid (const CfGaussMultirate * g, int n)
{
  return (n - 1) / g->factor + g->taps;
}

/* The unsharp-mask step both paths end with (threshold in sample units). */
CF_HD float
cf_gaussian_finish (float in, float blur, float amount, float threshold)
{
  float d = in - blur;
  if (amount == 0.0f)
    return blur;
  return (d < threshold && -d < threshold) ? in : in + amount * d;
}

/* The checks every path makes. */
CfStatus cf_gaussian_check (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);

/* The multi-rate path in plain C: the kernels' stages in the same float
 * arithmetic (summation orders differ). */
CfStatus cf_gm_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);

/* The multi-rate path on the GPU (exec on the GPU, parameters checked,
 * cf_gaussian_uses_multirate true). */
CfStatus cf_gm_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* exec->scratch grown to `bytes` (the wide and multi-rate paths'
 * intermediates). */
CfStatus cf_gaussian_scratch (const CfExec * exec, size_t bytes, void **data);

/* Radius 1 (on both axes) in one pass without shared memory, for planes
 * whose rows start on 4-sample boundaries (the kernel takes radius 2 too,
 * but the tile kernel was faster there on an H100). */
#define CF_GAUSSIAN_SMALL_MAX_RADIUS 1
CfStatus cf_gaussian_small (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* The one-pass tile kernel (gaussian_tile.cu), for radii up to this on
 * both axes. */
#define CF_GAUSSIAN_TILE_MAX_RADIUS 8
CfStatus cf_gaussian_tile (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* The direct path for radii whose halos the separable engine cannot hold
 * in shared memory (cf_separable_fits): rows then columns through
 * exec->scratch. */
CfStatus cf_gaussian_wide (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_GAUSSIAN_PATHS_H */
