/* The register path for 3x3 and 5x5 masks (see convolve_small.cu):
 * cf_convolve's small kernels and cf_gaussian_blur's radii 1 and 2. */
#ifndef CF_CONVOLVE_SMALL_CUH
#define CF_CONVOLVE_SMALL_CUH

#include "convolve.h"
#include "gaussian.h"
#include <cuda_runtime.h>

/* Whether the register path takes this plan on these planes: a 3x3 or
 * 5x5 kernel, full or separable, on rows that start on its vector
 * boundary (16 bytes; 8 for a 5x5 kernel on 8-bit samples). */
bool cf_convolve_small_fits (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan);

CfStatus cf_convolve_small (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream);

/* The same for a Gaussian of radii up to 2 (a separable 3x3 or 5x5 mask),
 * blur or unsharp mask; parameters already checked. */
bool cf_convolve_small_gaussian_fits (const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params);

CfStatus cf_convolve_small_gaussian (const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * params,
    cudaStream_t stream);

#endif /* CF_CONVOLVE_SMALL_CUH */
