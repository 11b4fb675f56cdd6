/* cudafilters: motion-adaptive temporal noise reduction, and persistence.
 *
 * A recursive filter: each output is a blend of the current frame (src)
 * with the previous output (prev),
 *
 *   out = f (s prev + (1 - s) src) + (1 - f) S
 *
 * with s the strength (how much a still pixel leans on the past), S the
 * spatial pass of src (the bilateral filter, or src itself when it is off)
 * and f in [0, 1] how still the pixel is. In adaptive mode f comes from
 * the mean squared difference between src and prev over the 5 x 5
 * neighbourhood and the motion channels, and from their mean, against
 * the noise level sigma (n differences d):
 *
 *   z = sqrt (sum d^2 / n) / sigma,   zm = |sum d| / (sqrt (n) sigma)
 *   f = min (ramp (z, T0, T1), ramp (zm, M0, M1)),
 *   ramp (z, a, b) = clamp ((b - z) / (b - a), 0, 1)
 *
 * so a difference the noise explains keeps the full recursion and one it
 * cannot takes the spatial pass alone: nothing ghosts. The squared
 * measure sees texture that changes with a mean of 0, the mean sees
 * smooth content that shifts by less than sigma per pixel (its noise is
 * sigma / 5 over 25 pixels). The output is floor (out + dither)
 * (temporal_math.h says why). f is quantised to a byte (f8 / 255), which
 * the planes of a frame share: plane 0 (luma) writes it to a map, chroma
 * planes read the smallest f8 under their footprint, so chroma follows
 * luma. In
 * persistence mode f = 1 everywhere (a fixed recursive weight, as
 * ultrasound consoles do) and there is no spatial pass.
 *
 * sigma = 0 asks for an estimate from src (Immerkaer, "Fast noise variance
 * estimation", 1996: the mean absolute response to the Laplacian-difference
 * mask [1 -2 1; -2 4 -2; 1 -2 1] times sqrt (pi / 2) / 6, over the interior
 * samples of the motion channels), made per frame on the device.
 */
#ifndef CF_TEMPORAL_H
#define CF_TEMPORAL_H

#include "cf_types.h"
#include "bilateral.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The motion window: (2 R + 1)^2 pixels. The mean of its 25 squared
 * differences of pure noise stays under 1.4^2 sigma^2 but for about 1
 * pixel in 300 (chi-square, 25 degrees of freedom, with prev's residual
 * noise); 2.2 sigma is motion. */
#define CF_TEMPORAL_R 2
#define CF_TEMPORAL_T0 1.4f
#define CF_TEMPORAL_T1 2.2f
/* zm is |N (0, 1)| for pure noise: over 2.7 for 1 pixel in 140, over 3.7
 * for 1 in 4600. */
#define CF_TEMPORAL_M0 2.7f
#define CF_TEMPORAL_M1 3.7f
/* The smallest noise level used, in sample units, so that z stays finite
 * on a noiseless picture. */
#define CF_TEMPORAL_MIN_SIGMA 0.5f

/* The spatial pass's sigma-space in pixels (radius 2: a 13-tap disc), as
 * the element uses it: on moving pixels a small window keeps the edges that
 * move sharp (docs/cudatemporaldenoise.md). */
#define CF_TEMPORAL_SPATIAL_SIGMA 1.0

typedef enum {
  CF_TEMPORAL_ADAPTIVE = 0,
  CF_TEMPORAL_PERSISTENCE = 1
} CfTemporalMode;

typedef enum {
  CF_TEMPORAL_MAP_NONE = 0,     /* measure, keep to this plane */
  CF_TEMPORAL_MAP_WRITE = 1,    /* measure, and write f8 to the map */
  CF_TEMPORAL_MAP_READ = 2      /* take f8 from the map (no measure) */
} CfTemporalMapUse;

typedef struct {
  CfTemporalMode mode;
  double strength;              /* 0..1: s */
  double noise;                 /* sigma in sample units; 0: estimate */
  /* the spatial pass (adaptive mode only): the bilateral's parameters,
   * exact mode, used where spatial.sigma_range > 0 */
  CfBilateralParams spatial;
  CfBorder border;              /* of the 3 x 3 motion window */
  unsigned channel_mask;        /* channels filtered; the others are copied */
  unsigned motion_mask;         /* channels measured (within channel_mask) */
  CfTemporalMapUse map_use;
  int map_w_sub, map_h_sub;     /* READ: log2 of this plane's subsampling */
  /* the frame's number since the history restarted (1: the first one
   * filtered): the rounding dither's seed, so that it changes from frame
   * to frame the same way on every backend */
  unsigned frame;
} CfTemporalParams;

/* Checks planes and parameters (both paths call it). @map: 8-bit, one
 * channel, the size of plane 0 (READ: this plane's size shifted by the
 * subsampling covers it); unused with MAP_NONE. */
CfStatus cf_temporal_check (const CfPlane * src, const CfPlane * prev,
    const CfPlane * dst, const CfPlane * map, const CfTemporalParams * p);

/* Filters src against prev into dst (dst must alias neither). On the GPU
 * it returns once the work is queued on exec->stream: the noise estimate
 * (sigma 0), the bilateral of src into exec->scratch (spatial pass) and
 * one blending kernel. */
CfStatus cf_temporal (const CfExec * exec, const CfPlane * src,
    const CfPlane * prev, const CfPlane * dst, const CfPlane * map,
    const CfTemporalParams * params);

/* The plain-C reference, in the same float arithmetic. */
CfStatus cf_temporal_ref (const CfPlane * src, const CfPlane * prev,
    const CfPlane * dst, const CfPlane * map, const CfTemporalParams * params);

/* Immerkaer's sum (sum of |mask response| over interior samples of the
 * motion channels) and how many samples it covers; sigma from them, in
 * float, the same on both paths. */
void cf_temporal_noise_sum_ref (const CfPlane * src, unsigned motion_mask,
    unsigned long long *sum, unsigned long long *count);
#ifdef __CUDACC__
__host__ __device__
#endif
static inline float
cf_temporal_sigma_from_sum (unsigned long long sum, unsigned long long count)
{
  /* sqrt (pi / 2) / 6 */
  float s = count ? 0.2088856f * ((float) sum / (float) count) : 0.0f;
  return s > CF_TEMPORAL_MIN_SIGMA ? s : CF_TEMPORAL_MIN_SIGMA;
}

#ifdef __cplusplus
}
#endif
#endif /* CF_TEMPORAL_H */
