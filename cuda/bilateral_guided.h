/* Internal to cf_bilateral (bilateral.cu): the joint (cross) bilateral
 * with a guide plane (CfBilateralParams.guide), bilateral_guided.cu. */
#ifndef CF_BILATERAL_GUIDED_H
#define CF_BILATERAL_GUIDED_H

#include "bilateral.h"

/* Queues the guided filter of src into dst on @stream: the exact window
 * in one launch, the separable one in two through @scratch. @w from the
 * guide's full scale. */
CfStatus cf_bilateral_guided (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p, const CfBilateralWeights * w,
    CfScratch * scratch, CfStream stream);

#endif /* CF_BILATERAL_GUIDED_H */
