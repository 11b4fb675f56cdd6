/* The vector kernel for 3x3 and 5x5 masks (small_mask.cuh), as the
 * Gaussian (radii up to 2) and cudaconvolve (full 3x3 and 5x5 kernels)
 * call it. */
#ifndef CF_SMALL_MASK_H
#define CF_SMALL_MASK_H

#include "convolve.h"
#include "gaussian.h"
#include <cuda_runtime.h>

/* Whether the kernel takes these planes at this radius (the larger of the
 * two axes'): where it was the faster kernel (small_mask.cu says which),
 * with rows starting on its vector boundaries (8 bytes for 8-bit samples,
 * 16 for 16-bit). */
bool cf_small_mask_fits (const CfPlane * src, const CfPlane * dst,
    int radius);

/* The Gaussian (and its unsharp mask) on planes cf_small_mask_fits takes
 * (parameters checked). */
CfStatus cf_small_mask_gaussian (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params, cudaStream_t stream);

/* A 3x3 or 5x5 plan (full, or separable multiplied out) on planes
 * cf_small_mask_fits takes. */
CfStatus cf_small_mask_convolve (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream);

#endif /* CF_SMALL_MASK_H */
