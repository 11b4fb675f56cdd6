#ifndef __GST_CUDA_SAT_BLUR_H__
#define __GST_CUDA_SAT_BLUR_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SAT_BLUR (gst_cuda_sat_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSatBlur, gst_cuda_sat_blur, GST, CUDA_SAT_BLUR,
    GstCudaFilter);

GST_ELEMENT_REGISTER_DECLARE (cudasatblur);

G_END_DECLS

#endif /* __GST_CUDA_SAT_BLUR_H__ */
