/* cudafilters: separable Gaussian blur, and unsharp-mask sharpening. */
#ifndef CF_GAUSSIAN_H
#define CF_GAUSSIAN_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 3 x the largest sigma the element takes (100). */
#define CF_GAUSSIAN_MAX_RADIUS 300

/* How the blur is computed. All give the same truncated Gaussian (within
 * the window and multi-rate paths' errors, docs/cudagaussianblur.md). */
typedef enum {
  CF_GAUSSIAN_AUTO = 0,         /* the fastest path exact enough: direct, the
                                 * window (cf_gaussian_uses_window) or the
                                 * multi-rate one (cf_gaussian_uses_multirate) */
  CF_GAUSSIAN_DIRECT,           /* 2 radius + 1 taps per axis */
  CF_GAUSSIAN_WINDOW,           /* sliding cosine sums: cost independent of radius */
  CF_GAUSSIAN_MULTIRATE         /* a grid every ~sigma / 2.3 pixels and back:
                                 * cost independent of sigma; direct where
                                 * the radius is far from 3 sigma */
} CfGaussianPath;

typedef struct {
  double sigma_x;               /* > 0, pixels of this plane */
  double sigma_y;
  int radius_x;                 /* 0..CF_GAUSSIAN_MAX_RADIUS; 0: no blur on x */
  int radius_y;
  /* Unsharp mask: 0 blurs; otherwise out = in + sharpen (in - blur) where
   * |in - blur| >= threshold, out = in elsewhere (1: 2 in - blur). */
  double sharpen;
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
  double threshold;             /* sharpen only: fraction of full scale, 0..1 */
  CfGaussianPath path;
} CfGaussianParams;

/* ceil (3 sigma), at least 1: the radius used when none is given. */
int cf_gaussian_default_radius (double sigma);

/* The normalised half kernel w[0..radius]: w[0] + 2 (w[1] + ... + w[radius])
 * = 1. Both the kernel and the reference use these same float weights. */
void cf_gaussian_weights (double sigma, int radius, float *w);

/* Blurs src into dst (which must not alias). On the GPU it returns once the
 * work is queued on exec->stream. */
CfStatus cf_gaussian_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* The plain-C reference of the path cf_gaussian_blur takes: the direct
 * one (rows then columns, in double), the window one (the kernel's float
 * arithmetic in the kernel's order) or the multi-rate one (the kernels'
 * stages in float). */
CfStatus cf_gaussian_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);

/* The direct truncated Gaussian in double, whatever params->path says: what
 * the window and multi-rate paths' accuracy is measured against. */
CfStatus cf_gaussian_blur_direct_ref (const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

/* Whether cf_gaussian_blur takes the window path for these parameters on
 * a plane of `channels` channels (the crossover depends on how many of
 * them params->channel_mask filters). */
int cf_gaussian_uses_window (const CfGaussianParams * params, int channels);

/* Whether cf_gaussian_blur takes the multi-rate path for these parameters
 * (it goes before the window path). */
int cf_gaussian_uses_multirate (const CfGaussianParams * params);

/* Whether a blur with these parameters (the path CF_GAUSSIAN_AUTO) of a
 * plane of `depth` bits and `channels` channels is the direct one even
 * above CF_GM_MIN_RADIUS: radii up to CF_GAUSSIAN_WIDE_MAX_RADIUS of an
 * 8-bit blur (no unsharp step) of one filtered channel, which the
 * separable engine runs on tensor cores on one-channel planes. The GPU
 * takes the direct path there where the plane and the device allow it
 * (cf_separable_wide_tensor_takes), the multi-rate or window path
 * elsewhere; the reference, the direct one. One filtered channel, not one
 * channel: the same luma is a one-channel plane or one channel of a
 * packed plane (YUY2's, as the elements split it), and the references of
 * both must agree. */
int cf_gaussian_prefers_direct (const CfGaussianParams * params, int depth,
    int channels);

#ifdef __cplusplus
}
#endif
#endif /* CF_GAUSSIAN_H */
