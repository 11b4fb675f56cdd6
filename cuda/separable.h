/* The separable convolution engine on the GPU: a row kernel then a column
 * kernel, in one pass over the frame (separable.cu says how). cudaconvolve's
 * separable kernels (given so, or a full kernel of rank 1) and
 * cudagaussianblur's direct path both run it. */
#ifndef CF_SEPARABLE_H
#define CF_SEPARABLE_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest radius on either axis (the Gaussian's one-pass limit). */
#define CF_SEPARABLE_MAX_RADIUS 127

typedef struct {
  int rx, ry;                   /* radii: 2 rx + 1 taps a row, 2 ry + 1 a column */
  /* Taps as a correlation: row[kx] multiplies the sample kx - rx pixels
   * away on the row, col[ky] the one ky - ry rows away. */
  const float *row;
  const float *col;
  /* The result v of both passes is finished as
   *   v = cf_gaussian_finish (in, v, amount, threshold)   if amount != 0
   *   v = v + offset, then |v| if absolute,
   * then rounded and clamped to [0, the plane's full scale]. */
  float amount;                 /* unsharp mask; 0: none */
  float threshold;              /* sample units */
  float offset;                 /* sample units */
  int absolute;
  CfBorder border;
  unsigned channel_mask;        /* channels filtered; the others are copied */
  /* Nonzero: the row taps are weights in [0, 1] summing to 1 (the blur,
   * no unsharp step), which 8-bit planes may run in 15-bit fixed point
   * (within 0.12 of a level before rounding). */
  int fixed_rows;
} CfSeparable;

/* Whether the engine takes these radii on planes of `channels` channels on
 * the current device (the halos must fit shared memory). */
int cf_separable_fits (int rx, int ry, int channels);

/* Whether the engine runs these planes at radius r on its vector path
 * (radius 1 to 15, 1, 2 or 4 channels, rows aligned to 4 samples). */
int cf_separable_vector_takes (const CfPlane * src, const CfPlane * dst,
    int r);

/* Whether the engine runs a blur (CfSeparable.fixed_rows, no unsharp
 * step) of these planes whose larger radius is r, from 16 to 32, on
 * tensor cores: one-channel 8-bit planes, rows aligned to 4 samples,
 * compute capability 8 or later. */
int cf_separable_wide_tensor_takes (const CfPlane * src,
    const CfPlane * dst, int r);

/* Filters src into dst (planes checked, not aliasing), queued on `stream`
 * (a cudaStream_t). */
CfStatus cf_separable (const CfPlane * src, const CfPlane * dst,
    const CfSeparable * s, void *stream);

/* The passes this thread's cf_separable calls ran since the previous call
 * of this function (which clears them): CF_SEPARABLE_TENSOR where they ran
 * on tensor cores. For the tests, which assert the paths they mean to
 * cover. */
#define CF_SEPARABLE_TENSOR 1u
unsigned cf_separable_passes_run (void);

/* Whether the current device can run the passes on tensor cores (compute
 * capability 8 or later). */
int cf_separable_tensor_capable (void);

#ifdef __cplusplus
}
#endif
#endif /* CF_SEPARABLE_H */
