/* The lane path of cf_convolve for wide full kernels (see
 * convolve_lanes.cu). */
#ifndef CF_CONVOLVE_LANES_CUH
#define CF_CONVOLVE_LANES_CUH

#include "convolve.h"
#include <cuda_runtime.h>

/* Whether the lane path is the faster one for this full (not separable)
 * plan on a plane of `channels` channels. */
bool cf_convolve_lanes_takes (int channels, const CfConvolvePlan * plan);

CfStatus cf_convolve_lanes (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream);

#endif /* CF_CONVOLVE_LANES_CUH */
