/* The vector kernel for 3x3 and 5x5 masks (small_mask.cuh), as the
 * Gaussian (radii up to 2) and cudaconvolve (full 3x3 and 5x5 kernels)
 * call it. */
#ifndef CF_SMALL_MASK_H
#define CF_SMALL_MASK_H

#include "convolve.h"
#include "gaussian.h"
#include <cuda_runtime.h>

/* Radii on both axes the Gaussian takes here. */
#define CF_SMALL_MASK_MAX_RADIUS 2

/* Whether the kernel takes these planes: 1, 2 or 4 channels, rows starting
 * on its vector boundaries (8 bytes for 8-bit samples, 16 for 16-bit). */
bool cf_small_mask_fits (const CfPlane * src, const CfPlane * dst);

/* The Gaussian (and its unsharp mask) for radii up to
 * CF_SMALL_MASK_MAX_RADIUS, on aligned planes (parameters checked). */
CfStatus cf_small_mask_gaussian (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params, cudaStream_t stream);

/* A 3x3 or 5x5 plan (full, or separable multiplied out) on aligned
 * planes. */
CfStatus cf_small_mask_convolve (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream);

#endif /* CF_SMALL_MASK_H */
