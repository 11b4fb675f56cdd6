/* The Gaussian's paths (cf_gaussian_blur picks one), shared by their
 * kernels and plain-C twins: the separable engine (separable.cu), the
 * small-mask kernel (gaussian_small.cu), the wide direct one
 * (gaussian_wide.cu) and the window path (gaussian_window.cu, its twin
 * gaussian_window.c).
 *
 * The window path: the truncated kernel w[-r..r] is fitted (least squares,
 * in double) by a box plus CF_GW_TERMS cosines, w[n] ~ a0 + sum_k a_k cos (omega_k n) on
 * |n| <= r, omega_k = pi k / P. Each cosine's window sum
 * C_k(x) = sum_{|n| <= r} f(x + n) e^(i omega_k n) slides by one sample in
 * O(1): C_k(x + 1) = e^(-i omega_k) (C_k(x) + f(x + r + 1) e^(i omega_k (r + 1))
 * - f(x - r) e^(-i omega_k r)), so a line costs the same at any radius, and
 * since every sample entering the window is read through the border mode,
 * clamp and mirror are exact. A line is cut into segments of
 * cf_gw_segment (r) samples, each started by sliding 2 r + 1 samples into
 * an empty window; the kernel and the C twin cut and round alike. */
#ifndef CF_GAUSSIAN_PATHS_H
#define CF_GAUSSIAN_PATHS_H

#include "gaussian.h"
#include "cf_border.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CF_GW_TERMS 4

typedef struct {
  int radius;
  float a0;                     /* weight of the box sum */
  float a[CF_GW_TERMS];         /* weight of Re C_k */
  float rot_re[CF_GW_TERMS], rot_im[CF_GW_TERMS];       /* e^(-i omega) */
  float in_re[CF_GW_TERMS], in_im[CF_GW_TERMS]; /* e^(i omega (r + 1)) */
  float out_re[CF_GW_TERMS], out_im[CF_GW_TERMS];       /* e^(-i omega r) */
  double residual;              /* sum over |n| <= r of |w[n] - fit| */
} CfGaussWindow;

/* The fit of cf_gaussian_weights (sigma, radius); radius 0: the identity. */
void cf_gw_plan (double sigma, int radius, CfGaussWindow * plan);

/* Below this radius the direct path (the separable engine) is faster
 * (measured on an H200 with issue 27's engine, docs/cudagaussianblur.md:
 * gray planes level at radius 32-35, RGBA at 20); above this residual the
 * fit is not exact enough (a radius far above 3 sigma). */
#define CF_GW_MIN_RADIUS 33
#define CF_GW_MIN_RADIUS_MULTI 20     /* 2 or more filtered channels */
#define CF_GW_MAX_RESIDUAL 1e-3

/* Samples of a line per segment. */
CF_HD int
cf_gw_segment (int radius)
{
  int s = 2 * radius + 1;
  return s < 256 ? 256 : (s + 63) & ~63;
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

/* The window path in plain C. */
CfStatus cf_gw_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);

/* The window path on the GPU (exec on the GPU, parameters checked). */
CfStatus cf_gw_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* Radius 1 (on both axes) in one pass without shared memory, for planes
 * whose rows start on 4-sample boundaries (the kernel takes radius 2 too,
 * but the one-pass tile kernel the separable engine replaced was faster
 * there on an H100). */
#define CF_GAUSSIAN_SMALL_MAX_RADIUS 1
CfStatus cf_gaussian_small (const CfExec * exec, const CfPlane * src,
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
