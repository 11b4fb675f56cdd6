/* cudafilters: box blur of any radius from summed-area tables, 1 to 3
 * passes (3 passes approximate a Gaussian).
 *
 * Borders follow CfBorder exactly: the box always covers (2 rx + 1) x
 * (2 ry + 1) samples of the border-extended plane (clamp replicates the edge
 * sample, mirror reflects without repeating it, for any radius, even one
 * larger than the plane), so every output is that box's sum divided by the
 * same count, rounded half up. Each pass rounds to the sample type; the
 * next pass blurs that. The arithmetic is exact integers, so the GPU and
 * the reference agree bit for bit. */
#ifndef CF_SATBLUR_H
#define CF_SATBLUR_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Larger than any plane the plugin accepts, and small enough that a
 * column's window sum of 16-bit samples fits 32 bits. */
#define CF_SATBLUR_MAX_RADIUS 32767
#define CF_SATBLUR_MAX_PASSES 3

typedef struct {
  int radius_x;                 /* 0..CF_SATBLUR_MAX_RADIUS, pixels of this plane */
  int radius_y;
  int passes;                   /* 1..CF_SATBLUR_MAX_PASSES */
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
} CfSatBlurParams;

/* The standard deviation of `passes` stacked boxes of radius r:
 * sqrt (passes ((2 r + 1)^2 - 1) / 12). */
double cf_satblur_sigma (int radius, int passes);

/* Blurs src into dst (which must not alias). On the GPU it returns once the
 * work is queued on exec->stream; it needs exec->scratch (grown, never
 * shrunk, so a stream of same-size frames allocates once). */
CfStatus cf_satblur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatBlurParams * params);

/* The plain-C reference: running sums along rows, then along columns, of
 * border-mapped samples, in 64-bit integers. */
CfStatus cf_satblur_ref (const CfPlane * src, const CfPlane * dst,
    const CfSatBlurParams * params);

/* Checks the parameters both paths accept. */
CfStatus cf_satblur_check (const CfPlane * src, const CfPlane * dst,
    const CfSatBlurParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_SATBLUR_H */
