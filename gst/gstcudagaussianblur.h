#ifndef __GST_CUDA_GAUSSIAN_BLUR_H__
#define __GST_CUDA_GAUSSIAN_BLUR_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_GAUSSIAN_BLUR (gst_cuda_gaussian_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaGaussianBlur, gst_cuda_gaussian_blur, GST,
    CUDA_GAUSSIAN_BLUR, GstCudaFilter);

GST_ELEMENT_REGISTER_DECLARE (cudagaussianblur);

G_END_DECLS

#endif /* __GST_CUDA_GAUSSIAN_BLUR_H__ */
