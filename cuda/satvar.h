/* cudafilters: box blur whose radius changes from pixel to pixel (seed
 * 002: once a summed-area table exists a box of any size costs the same),
 * cudasatblur's focus shapes (tilt-shift, vignette), alpha radius map and
 * radius map of a second stream.
 *
 * Each pixel has a strength s in [0, 1] and its box radii are
 * s radius_x and s radius_y. Integer radii give the fixed box's output
 * exactly (cf_satblur's, rounded half up in integers); a fractional radius
 * blends the boxes of the radii around it (bilinearly in x and y: up to
 * four boxes), so a smooth ramp of radii gives a smooth result, not bands.
 * The blend runs in float with the same operations in the same order on
 * both paths, so the GPU and the reference agree bit for bit. Outside the
 * plane samples follow CfBorder, as cf_satblur's. Each pass rounds to the
 * sample type and the next blurs that, with the same radii. */
#ifndef CF_SATVAR_H
#define CF_SATVAR_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest radius: the summed-area table is the plane grown by it. */
#define CF_SATVAR_MAX_RADIUS 1024

typedef enum {
  CF_SATVAR_CONSTANT = 0,       /* s = 1 everywhere */
  CF_SATVAR_BAND = 1,           /* 0 in a band, growing away from it */
  CF_SATVAR_ELLIPSE = 2,        /* 0 in an ellipse, growing outside it */
  CF_SATVAR_ALPHA = 3,          /* s = alpha / full scale */
  CF_SATVAR_MAP = 4             /* s = map sample / map's full scale */
} CfSatVarSource;

typedef struct {
  double radius_x;              /* radii at s = 1, pixels of this plane, */
  double radius_y;              /* 0..CF_SATVAR_MAX_RADIUS */
  int passes;                   /* 1..3 */
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
  CfSatVarSource source;
  /* Shapes, in frame pixels: plane pixel (x, y) lies at (x << x_shift,
   * y << y_shift) (a subsampled plane's co-sited luma pixel). */
  int x_shift, y_shift;
  double cx, cy;                /* the shape's centre */
  double half_w, half_h;        /* the ellipse's semi-axes; a band is
                                 * 2 half_h thick (half_w unused) */
  double cos_a, sin_a;          /* its rotation (band: 0 = horizontal) */
  double ramp;                  /* distance from the shape over which s
                                 * grows from 0 to 1; 0: a hard edge */
  int alpha_channel;            /* CF_SATVAR_ALPHA: src's channel read */
  /* CF_SATVAR_MAP: one channel of 8 or 16 bits, on the GPU in device
   * memory; plane pixel (x, y) reads map (x << x_shift, y << y_shift), so
   * it covers at least those of every pixel of the plane. */
  CfPlane map;
} CfSatVarParams;

/* Blurs src into dst (which must not alias). On the GPU it returns once the
 * work is queued on exec->stream; it needs exec->scratch. */
CfStatus cf_satvar (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * params);

/* The plain-C reference: each box summed sample by sample. */
CfStatus cf_satvar_ref (const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * params);

CfStatus cf_satvar_check (const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_SATVAR_H */
