/* The accuracy check of the Gaussian's fast paths (the window and the
 * multi-rate one), shared by their unit tests: a path's plain-C twin (which
 * its kernels match within 1 LSB, kernel_gaussian.c) against the direct
 * truncated Gaussian, max abs error at most 1 LSB on 8 bits and 0.1% of
 * the range on 16. Prints every case's max error (the figures in
 * docs/cudagaussianblur.md). */
#ifndef CF_GAUSSIAN_ACCURACY_H
#define CF_GAUSSIAN_ACCURACY_H

#include "gaussian.h"

typedef enum {
  CF_FRAME_NOISE,
  CF_FRAME_BLOCKS,              /* full-scale squares: where truncation shows most */
  CF_FRAME_NATURAL
} CfTestFrame;

typedef struct {
  long passed, failed;
  int worst[2];                 /* the largest error on 8 and on 16 bits */
} CfAccuracy;

/* One case: a w x h plane of @kind, blurred by @path and by the direct
 * Gaussian (sigma sx, sy; the default radii), compared. */
void cf_gaussian_accuracy (CfAccuracy * acc, CfGaussianPath path, int w,
    int h, int channels, int depth, double sx, double sy, CfBorder border,
    CfTestFrame kind);

/* The sweep each path's test starts with: every sigma (isotropic), frame
 * kind and depth (8, 16) on one-channel planes of 523 x 517 and 700 x 331
 * in turn, clamp and mirror alternating. */
void cf_gaussian_accuracy_sweep (CfAccuracy * acc, CfGaussianPath path,
    const double *sigmas, size_t n_sigmas, const CfTestFrame * kinds,
    int n_kinds);

#endif /* CF_GAUSSIAN_ACCURACY_H */
