/* The Gaussian's paths (cf_gaussian_blur picks one), shared by their
 * kernels and plain-C twins: the separable engine (separable.cu), the
 * wide direct one (gaussian_wide.cu), the window path (gaussian_window.cu,
 * its twin gaussian_window.c), the multi-rate one (gaussian_multirate.cu,
 * its twin gaussian_multirate.c), the one-pass tile kernel
 * (gaussian_tile.cu), the register 3x3 kernel (gaussian_small.cu) and the
 * vector small-mask kernel shared with cudaconvolve (small_mask.cu,
 * small_mask.h).
 *
 * The window path: the truncated kernel w[-r..r] is fitted (least squares,
 * in double) by a box plus 3 or 4 cosines, w[n] ~ a0 + sum_k a_k
 * cos (omega_k n) on |n| <= r, omega_k = pi k / P. Each cosine's window sum
 * C_k(x) = sum_{|n| <= r} f(x + n) e^(i omega_k n) slides by one sample in
 * O(1). It is kept as D_k = C_k e^(-i omega_k / 2), whose step takes the
 * samples entering (fin = f(x + r + 1)) and leaving (fout = f(x - r)) as
 * their difference and sum: D_k(x + 1) = e^(-i omega_k) (D_k(x) +
 * (fin - fout) cos phi_k + i (fin + fout) sin phi_k), phi_k = omega_k
 * (r + 1/2), and Re C_k = Re (D_k e^(i omega_k / 2)). A step costs the same
 * at any radius, and since every sample entering the window is read through
 * the border mode, clamp and mirror are exact.
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

#define CF_GW_TERMS 4           /* the most cosines a plan has */

typedef struct {
  int radius;
  int terms;                    /* cosines used (the others' weights are 0) */
  float a0;                     /* weight of the box sum */
  float cr[CF_GW_TERMS], sn[CF_GW_TERMS];       /* cos, sin omega_k */
  float c[CF_GW_TERMS], s[CF_GW_TERMS]; /* cos, sin phi_k */
  float al[CF_GW_TERMS], be[CF_GW_TERMS];       /* a_k cos, -a_k sin omega_k / 2 */
  double residual;              /* sum over |n| <= r of |w[n] - fit| */
} CfGaussWindow;

/* The fit of cf_gaussian_weights (sigma, radius) for samples of `depth`
 * bits: 3 cosines on 8 bits where they fit within CF_GW_MAX_RESIDUAL (a
 * step moves by at most 0.26 LSB per axis), else 4; radius 0: the
 * identity. */
void cf_gw_plan (double sigma, int radius, int depth, CfGaussWindow * plan);

/* Multiplies the plan's output (a0, al, be) by `scale`. */
void cf_gw_scale_output (CfGaussWindow * plan, float scale);

/* Below this radius the direct path (the separable engine) is faster
 * (measured on an H100 against the window path's 16-bit-intermediate
 * kernel, 4K: GRAY8 r 15 direct 0.072 / window 0.091 ms, r 20 0.127 /
 * 0.096; RGBA r 15 0.342 / 0.383, r 20 0.491 / 0.395;
 * docs/cudagaussianblur.md); above this residual the fit is not
 * exact enough (a radius far above 3 sigma). */
#define CF_GW_MIN_RADIUS 16
#define CF_GW_MIN_RADIUS_MULTI 16     /* 2 or more filtered channels */
#define CF_GW_MAX_RESIDUAL 1e-3

/* Steps of a line per segment. The kernel cuts every line into segments,
 * each started by sliding 2 r + 1 samples into an empty window, which
 * bounds float drift; the C twin cuts alike. The warm-up is the only part
 * of the work that grows with the radius, but the kernel is bound by each
 * thread's chain of steps, not by the work: on an H100 (4K, r 6 to 300)
 * segments of 128 were faster than of 256 (or 2 r + 1) and of 512 at
 * every radius (docs/cudagaussianblur.md). */
#define CF_GW_SEGMENT 128

/* The sums of one line's window. */
typedef struct {
  float box, re[CF_GW_TERMS], im[CF_GW_TERMS];
} CfGwState;

/* Slides the window one sample: fin enters, fout leaves. The kernel and
 * the C twin share it and its fused multiply-adds are explicit, so the two
 * compute the same floats. */
CF_HD void
cf_gw_step (CfGwState * st, const CfGaussWindow * g, int terms, float fin,
    float fout)
{
  const float d = fin - fout, p = fin + fout;
  st->box += d;
  for (int k = 0; k < terms; k++) {
    const float ure = fmaf (d, g->c[k], st->re[k]);
    const float uim = fmaf (p, g->s[k], st->im[k]);
    st->re[k] = fmaf (g->cr[k], ure, g->sn[k] * uim);
    st->im[k] = fmaf (g->cr[k], uim, -(g->sn[k] * ure));
  }
}

/* The window's value at its current position. */
CF_HD float
cf_gw_value (const CfGwState * st, const CfGaussWindow * g, int terms)
{
  float v = g->a0 * st->box;
  for (int k = 0; k < terms; k++)
    v = fmaf (g->be[k], st->im[k], fmaf (g->al[k], st->re[k], v));
  return v;
}

/* The intermediate between the passes is 16-bit: v (already scaled to
 * 0..65535) rounded to nearest and clamped, through the float's low bits
 * (2^23 + v: the kernel needs no float-to-int conversion). */
CF_HD unsigned
cf_gw_quantize (float v)
{
  const float t = fminf (fmaxf (v + 8388608.0f, 8388608.0f), 8454143.0f);
#ifdef __CUDA_ARCH__
  return __float_as_uint (t) & 0xffffu;
#else
  return (unsigned) (t - 8388608.0f);
#endif
}

#define CF_GM_MAX_FACTOR 48    /* k at sigma 100: 43 */
#define CF_GM_MAX_REACH 128     /* reach at sigma 100: 123 */
#define CF_GM_MAX_TAPS 32       /* taps at radius 15 with k = 1: 31 */
/* a's taps a phase of the columns kernel, 2 reach / k + 1 (at most 13:
 * k >= 2 means s1 >= 0.8 k, so reach < 2.8 (k + 2) + 1) */
#define CF_GM_MAX_PHASE_TAPS 16

/* One axis's plan. k = 1 (a small sigma) is the direct filter on that
 * axis: a = 1, h_0 = the truncated kernel. */
typedef struct {
  int factor;                   /* k */
  int reach;                    /* a's taps: -reach..reach */
  int taps;                     /* h's taps per phase */
  int first;                    /* output q k + p reads D (q + first ..) */
  double residual;              /* max over phases of sum_t |kernel - w| */
  float analysis[CF_GM_MAX_REACH + 1];  /* a (|u|) */
  /* h_p (m), zeros from taps on: the kernels run an even count, 20-32 */
  float synthesis[CF_GM_MAX_FACTOR][CF_GM_MAX_TAPS];
} CfGaussMultirate;

/* The plan for cf_gaussian_weights (sigma, radius); 0 if the path cannot
 * take it (more than CF_GM_MAX_TAPS taps: a radius far from 3 sigma). */
int cf_gm_plan (double sigma, int radius, CfGaussMultirate * plan);

/* From this radius (on either axis) the multi-rate path runs instead of
 * the window or direct one (H100, 4K, docs/cudagaussianblur.md: at radius
 * 16 multi-rate GRAY8 0.070 ms against the window's 0.096 and the direct
 * 0.111, RGBA 0.208 against 0.385 and 0.381; at radius 15 the direct path
 * is faster, GRAY8 0.047); above this residual the fit is not exact enough
 * (a radius far below 3 sigma: the window path takes it). */
#define CF_GM_MIN_RADIUS 16

/* Up to this radius the separable engine's tensor-core passes run 8-bit
 * blurs of one channel faster than the multi-rate path (H200, 4K GRAY8:
 * radius 20 0.039 against 0.079 ms, 32 0.043 against 0.059; on NV12's
 * two-channel chroma plane they were slower, radius 30 at 1920x1080:
 * NV12 sigma 20 0.068 -> 0.083 ms; cf_gaussian_prefers_direct,
 * docs/cudagaussianblur.md). */
#define CF_GAUSSIAN_WIDE_MAX_RADIUS 32
#define CF_GM_MAX_RESIDUAL 3e-3

/* Grid samples of an axis of n pixels: D (first) .. D ((n - 1) / k +
 * first + taps - 1). */
CF_HD int
cf_gm_grid (const CfGaussMultirate * g, int n)
{
  return (n - 1) / g->factor + g->taps;
}

/* The unsharp-mask step every path ends with (threshold in sample units). */
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

/* The multi-rate path in plain C: the kernels' stages in the same float
 * arithmetic (summation orders differ). */
CfStatus cf_gm_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);

/* The multi-rate path on the GPU (exec on the GPU, parameters checked,
 * cf_gaussian_uses_multirate true). */
CfStatus cf_gm_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* exec->scratch grown to `bytes` (the wide, window and multi-rate paths'
 * intermediates). */
CfStatus cf_gaussian_scratch (const CfExec * exec, size_t bytes, void **data);

/* Radius 1 (on both axes) in one pass without shared memory, for planes
 * whose rows start on 4-sample boundaries (the kernel takes radius 2 too,
 * but the tile kernel was faster there on an H100). */
#define CF_GAUSSIAN_SMALL_MAX_RADIUS 1
CfStatus cf_gaussian_small (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* The one-pass tile kernel (gaussian_tile.cu), for radii up to this on
 * both axes, below CF_GAUSSIAN_ENGINE_MIN_RADIUS where the separable
 * engine's vector path takes the planes: from that radius the engine was
 * faster on GRAY8, GRAY16 and RGBA (H100, 4K: radii 4-8 by 10-22%; radius
 * 3 since the engine's tensor-core passes, GRAY16 0.041 -> 0.031 ms). */
#define CF_GAUSSIAN_TILE_MAX_RADIUS 8
#define CF_GAUSSIAN_ENGINE_MIN_RADIUS 3
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
