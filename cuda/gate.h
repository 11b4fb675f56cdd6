/* cudafilters: the value gate (seed 004's "shadow areas"): after a filter
 * has written dst, every pixel whose gate value lies outside [min, max]
 * gets its input back, untouched, so the filter acts only where the signal
 * asks for it.
 *
 * The gate value of a pixel is read from a gate plane: the mean of the
 * channels in `mask` (luma for YUV, the colour channels for RGB) of the
 * gate plane's pixel (x << x_shift, y << y_shift), which is the plane's own
 * pixel for luma and packed formats and the co-sited luma pixel of a
 * subsampled chroma plane. A mean of n channels is inside when
 * n min <= sum <= n max: exact, no rounding. */
#ifndef CF_GATE_H
#define CF_GATE_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CfGate {
  CfPlane plane;                /* where gate values are read (its data may
                                 * be the src plane's own) */
  unsigned mask;                /* the channels averaged, at least one */
  int x_shift, y_shift;         /* a pixel's gate pixel: (x << xs, y << ys) */
  unsigned min, max;            /* inside: min <= mean <= max, sample units */
} CfGate;

/* Whether the gate lets every value of a plane whose full scale is
 * @full_scale through (min 0, max at least the full scale). */
int cf_gate_is_open (const CfGate * gate, unsigned full_scale);

/* Where the gate is closed, dst gets src's pixel (every channel); dst is
 * left as it is elsewhere. src, dst and the gate plane must not overlap
 * dst. On the GPU it returns once the work is queued on exec->stream. */
CfStatus cf_gate_select (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGate * gate);

/* The plain-C references. */
CfStatus cf_copy_outside_ref (const CfPlane * src, const CfPlane * dst,
    int x, int y, int w, int h);
CfStatus cf_gate_select_ref (const CfPlane * src, const CfPlane * dst,
    const CfGate * gate);

/* For a region of interest: copies every pixel of src outside the
 * rectangle (x, y, w, h) (within the plane) into dst, in one launch on the
 * GPU. */
CfStatus cf_copy_outside (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, int x, int y, int w, int h);

/* Checks the gate against the planes it serves: its plane covers every
 * gate pixel of a src-sized plane, the mask names its channels. */
CfStatus cf_gate_check (const CfPlane * src, const CfPlane * dst,
    const CfGate * gate);

#ifdef __cplusplus
}
#endif
#endif /* CF_GATE_H */
