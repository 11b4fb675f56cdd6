/* cudafilters: edge-preserving bilateral filter, exact or separable.
 *
 * out(p) = sum_q ws(p - q) wr(I(p) - I(q)) I(q) / sum_q ws(p - q) wr(I(p) - I(q))
 *
 * over q in an elliptic window of radii (radius_x, radius_y) around p, with
 * ws a Gaussian of the distance (sigma_x, sigma_y in pixels) and wr a
 * Gaussian of the sample difference (sigma_range, a fraction of full scale,
 * so one value means the same for 8 and 16 bits). The centre always weighs
 * 1, so the sum of weights is never 0.
 *
 * Joint (cross) bilateral: with a guide plane, wr takes the guide's
 * samples G instead of I (wr (G(p) - G(q))), so edges of the guide (a
 * depth map, the colour frame of a depth camera) steer the smoothing of
 * the frame; sigma_range is then a fraction of the guide's full scale.
 * With the guide equal to src the exact filter is the plain one.
 */
#ifndef CF_BILATERAL_H
#define CF_BILATERAL_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest radius on either axis: an exact window of 32 has ~3200 taps,
 * 40x the default (radius 4); separable mode keeps it cheap. */
#define CF_BILATERAL_MAX_RADIUS 32

typedef enum {
  CF_BILATERAL_EXACT = 0,       /* the full 2-D window */
  CF_BILATERAL_SEPARABLE = 1    /* a horizontal then a vertical 1-D pass */
} CfBilateralMode;

typedef enum {
  /* Each filtered channel has its own range weight (seed 000). */
  CF_BILATERAL_PER_CHANNEL = 0,
  /* One range weight per pixel from the Euclidean distance over the
   * filtered channels, as OpenCV's bilateralFilter. */
  CF_BILATERAL_JOINT = 1
} CfBilateralDistance;

typedef struct {
  double sigma_x;               /* > 0 where radius_x > 0; pixels of the plane */
  double sigma_y;
  int radius_x;                 /* 0..CF_BILATERAL_MAX_RADIUS */
  int radius_y;
  double sigma_range;           /* > 0, fraction of full scale (cf_plane_max) */
  CfBilateralMode mode;
  CfBilateralDistance distance;
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
  /* NULL, or the value gate (gate.h), which cf_bilateral applies itself:
   * dst is what cf_gate_select after the ungated filter gives (every
   * gated-out pixel is src's, bit for bit) and the caller runs no gate
   * pass. The exact kernel without a guide filters only the pixels in
   * range (each block lists its own) and writes the others from src in
   * the same launch; every other path (separable, guided, the reference,
   * a device whose shared memory cannot hold the gated kernel's tile) runs
   * the gate pass itself after the filter (the exact kernel there skipping
   * the blocks whose pixels are all gated out). cf_bilateral_ref ignores
   * it. */
  const struct CfGate *gate;
  /* The guide (data NULL: none, the range weights are src's): 8 or 16
   * bits, on the GPU in device memory. Plane pixel (x, y) reads guide
   * pixel (x << guide_x_shift, y << guide_y_shift). A guide of as many
   * channels as src guides each filtered channel by its own (per-channel
   * distance) or all together (joint); otherwise its channel 0 gives one
   * weight for every channel. Both separable passes read the guide. */
  CfPlane guide;
  int guide_x_shift, guide_y_shift;     /* 0..2 */
} CfBilateralParams;

/* ceil (2 sigma), 1..CF_BILATERAL_MAX_RADIUS: the radius when none is given
 * (the spatial weight at the window's edge is exp (-2) = 0.14). */
int cf_bilateral_default_radius (double sigma);

/* The weights as the kernels and the reference both use them, in float so
 * that both start from the same numbers:
 *   log2 ws (dx, dy) = lx[|dx|] + ly[|dy|]            (a float addition)
 *   log2 wr (d)      = nk * d * d, d in sample units  (nk < 0)
 * For the joint distance d * d is the sum over the filtered channels. */
typedef struct {
  float lx[CF_BILATERAL_MAX_RADIUS + 1];
  float ly[CF_BILATERAL_MAX_RADIUS + 1];
  float nk;
} CfBilateralWeights;

/* @full_scale: the plane's cf_plane_max (the guide's, with one), which
 * sigma_range is a fraction of. */
void cf_bilateral_weights (const CfBilateralParams * params,
    unsigned full_scale, CfBilateralWeights * w);

/* Whether (dx, dy) is inside the window: the ellipse of radii (rx, ry),
 * boundary included (a disc for rx == ry, as OpenCV's). */
static inline int
cf_bilateral_in_window (int dx, int dy, int rx, int ry)
{
  return dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry
      && dx >= -rx && dx <= rx && dy >= -ry && dy <= ry;
}

/* Checks the planes and the parameters (both paths call it). */
CfStatus cf_bilateral_check (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * params);

/* Filters src into dst (which must not alias). On the GPU it returns once
 * the work is queued on exec->stream: one kernel; separable mode on a GPU
 * with too little shared memory per block for its one-kernel form (large
 * radii on 64 KB Turing) runs two through a plane of exec->scratch. */
CfStatus cf_bilateral (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfBilateralParams * params);

/* The plain-C reference, in double from the same float weights. */
CfStatus cf_bilateral_ref (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_BILATERAL_H */
