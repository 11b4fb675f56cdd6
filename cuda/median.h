/* cudafilters: median filter, exact or separable ("smoother"). */
#ifndef CF_MEDIAN_H
#define CF_MEDIAN_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest window radius: windows up to 121 x 121, as seed 001's smoother. */
#define CF_MEDIAN_MAX_RADIUS 60
#define CF_MEDIAN_MAX_ITERATIONS 16
/* The largest radius of the register-only kernel (15 x 15). */
#define CF_MEDIAN_REGISTERS_MAX_RADIUS 7
/* The radii of the rank-bitmap kernel (11 x 11 to 31 x 31). */
#define CF_MEDIAN_RANKS_MIN_RADIUS 5
#define CF_MEDIAN_RANKS_MAX_RADIUS 15
/* The strip kernel's windows: short radius 0..2 (1, 3 or 5 pixels) and a
 * longer one, up to 15 (1x31, 3x31) or, for 5-pixel windows, 11 (5x23). */
#define CF_MEDIAN_STRIP_MAX_SHORT_RADIUS 2
#define CF_MEDIAN_STRIP_MAX_LONG_RADIUS 15
#define CF_MEDIAN_STRIP_MAX_LONG_RADIUS_5 11

typedef enum {
  CF_MEDIAN_EXACT = 0,          /* the median of the whole window */
  CF_MEDIAN_SEPARABLE = 1       /* median of the column medians (approximate) */
} CfMedianMode;

/* Which GPU kernel computes an exact median. AUTO picks by window; the
 * others exist so that tests and benchmarks can run every kernel on every
 * window it supports. The reference ignores it. */
typedef enum {
  CF_MEDIAN_KERNEL_AUTO = 0,
  CF_MEDIAN_KERNEL_REGISTERS,   /* forgetful selection, square windows up to
                                 * CF_MEDIAN_REGISTERS_MAX_RADIUS */
  CF_MEDIAN_KERNEL_HISTOGRAM,   /* sliding histogram, any window */
  CF_MEDIAN_KERNEL_RANKS,       /* tile ranks and a sliding bitmap, square
                                 * windows of radius
                                 * CF_MEDIAN_RANKS_MIN_RADIUS..MAX_RADIUS */
  CF_MEDIAN_KERNEL_STRIP        /* forgetful selection shared along the long
                                 * side, thin windows (CF_MEDIAN_STRIP_*) */
} CfMedianKernel;

typedef struct {
  int radius_x;                 /* window (2 rx + 1) x (2 ry + 1), 0..MAX */
  int radius_y;
  CfMedianMode mode;
  int iterations;               /* 1..CF_MEDIAN_MAX_ITERATIONS */
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
  CfMedianKernel kernel;
  /* NULL, or the value gate the caller applies afterwards (gate.h): the
   * register and histogram kernels' last iteration then skips blocks whose pixels are
   * all gated out and leaves dst unwritten there. The reference ignores
   * it. */
  const struct CfGate *gate;
} CfMedianParams;

/* Device scratch bytes that cf_median needs for a plane like @plane (for
 * iterations > 1, the separable mode and the rank kernel's tiles); 0 when
 * it needs none. */
size_t cf_median_scratch_size (const CfPlane * plane,
    const CfMedianParams * params);

/* Median-filters src into dst (which must not alias). On the GPU it returns
 * once the work is queued on exec->stream; scratch memory comes from
 * exec->scratch, grown when needed. */
CfStatus cf_median (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfMedianParams * params);

/* The plain-C reference: sorts every window. */
CfStatus cf_median_ref (const CfPlane * src, const CfPlane * dst,
    const CfMedianParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_MEDIAN_H */
