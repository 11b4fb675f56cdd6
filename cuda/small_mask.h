/* The vector kernel for 3x3, 5x5 and 7x7 masks (small_mask.cuh), as the
 * Gaussian and cudaconvolve call it. */
#ifndef CF_SMALL_MASK_H
#define CF_SMALL_MASK_H

#include "convolve.h"
#include "gaussian.h"
#include <cuda_runtime.h>

/* Whether the kernel takes these planes for this blur or convolution:
 * radii 1 and 2 (the larger of the two axes', a square 3x3 or 5x5 kernel)
 * where it was the faster kernel (small_mask.cu says which), radius 3 (a
 * 7x7 kernel) with integer taps on 8-bit planes of 1, 2 or 4 channels (the
 * convolution's integer taps; the Gaussian runs the separable engine),
 * with rows starting on its vector boundaries (8 bytes for 8-bit
 * samples, 16 for 16-bit). */
bool cf_small_mask_gaussian_fits (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params);
bool cf_small_mask_convolve_fits (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params);

/* The Gaussian (and its unsharp mask) where cf_small_mask_gaussian_fits
 * (parameters checked). */
CfStatus cf_small_mask_gaussian (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * params, cudaStream_t stream);

/* A plan (full, or separable multiplied out) where
 * cf_small_mask_convolve_fits. */
CfStatus cf_small_mask_convolve (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream);

#endif /* CF_SMALL_MASK_H */
