/* The register path of cf_convolve for small full kernels (see
 * convolve_small.cu). */
#ifndef CF_CONVOLVE_SMALL_CUH
#define CF_CONVOLVE_SMALL_CUH

#include "convolve.h"
#include <cuda_runtime.h>

/* Whether the register path takes this plan on these planes: a 3x3 or
 * 5x5 kernel (full, or separable and multiplied out) on word-aligned rows. */
bool cf_convolve_small_fits (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan);

CfStatus cf_convolve_small (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream);

#endif /* CF_CONVOLVE_SMALL_CUH */
