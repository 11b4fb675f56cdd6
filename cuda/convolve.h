/* cudafilters: general 2-D convolution with a user kernel, full or
 * separable, a divisor, an offset and an optional absolute value. */
#ifndef CF_CONVOLVE_H
#define CF_CONVOLVE_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel sides are odd, 1..CF_CONVOLVE_MAX_SIDE. */
#define CF_CONVOLVE_MAX_SIDE 31
#define CF_CONVOLVE_MAX_TAPS (CF_CONVOLVE_MAX_SIDE * CF_CONVOLVE_MAX_SIDE)

/* Taps are applied as a correlation, as OpenCV's filter2D does: tap
 * (kx, ky) multiplies the sample at (x + kx - width / 2, y + ky - height /
 * 2), so taps[0] multiplies the top-left neighbour. Per filtered sample:
 *   out = round (clamp (|sum (tap * in) / divisor + offset|))
 * with the absolute value only when `absolute` is set. */
typedef struct {
  int width;                    /* taps per row, odd */
  int height;                   /* rows, odd */
  int separable;                /* nonzero: row (width) and col (height) */
  float taps[CF_CONVOLVE_MAX_TAPS];     /* !separable: row-major */
  float row[CF_CONVOLVE_MAX_SIDE];      /* separable: taps (kx) of every row */
  float col[CF_CONVOLVE_MAX_SIDE];      /* separable: weight (ky) of each row */
  double divisor;               /* 0: the sum of the taps (1 if that is 0) */
  double offset;                /* added after dividing, in full scale (0..1) */
  int absolute;                 /* nonzero: store |result| (edge maps) */
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
} CfConvolveParams;

/* What both the kernels and the reference run: the divisor folded into
 * the taps, the offset in sample units, and a full kernel of rank 1 split
 * into a row and a column (cf_convolve_plan decides). */
typedef struct {
  int width, height;
  int separable;
  float taps[CF_CONVOLVE_MAX_TAPS];     /* !separable, divided */
  float row[CF_CONVOLVE_MAX_SIDE];      /* separable */
  float col[CF_CONVOLVE_MAX_SIDE];      /* separable, divided */
  float offset;                 /* sample units */
  int absolute;
  double divisor;               /* what the taps were divided by */
} CfConvolvePlan;

/* CF_ERROR_INVALID for even or out-of-range sides. `full_scale`: the
 * plane's largest sample (cf_plane_max), the unit of the offset. */
CfStatus cf_convolve_plan (const CfConvolveParams * params,
    unsigned full_scale, CfConvolvePlan * plan);

/* Whether params leave every sample as it is (a lone centre tap equal to
 * the divisor, no offset). */
int cf_convolve_is_identity (const CfConvolveParams * params);

/* Filters src into dst (which must not alias). On the GPU it returns once
 * the work is queued on exec->stream. */
CfStatus cf_convolve (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfConvolveParams * params);

/* The plain-C reference, in double on the plan's taps. */
CfStatus cf_convolve_ref (const CfPlane * src, const CfPlane * dst,
    const CfConvolveParams * params);

#ifdef __cplusplus
}
#endif
#endif /* CF_CONVOLVE_H */
