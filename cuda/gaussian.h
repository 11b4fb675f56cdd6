/* cudafilters: separable Gaussian blur, and unsharp-mask sharpening. */
#ifndef CF_GAUSSIAN_H
#define CF_GAUSSIAN_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CF_GAUSSIAN_MAX_RADIUS 127

typedef struct {
  double sigma_x;               /* > 0, pixels of this plane */
  double sigma_y;
  int radius_x;                 /* 0..CF_GAUSSIAN_MAX_RADIUS; 0: no blur on x */
  int radius_y;
  int sharpen;                  /* nonzero: out = 2 * in - blur (unsharp mask) */
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
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

/* The plain-C reference: rows then columns, in double. */
CfStatus cf_gaussian_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_GAUSSIAN_H */
