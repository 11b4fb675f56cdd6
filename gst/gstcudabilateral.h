#ifndef __GST_CUDA_BILATERAL_H__
#define __GST_CUDA_BILATERAL_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_BILATERAL (gst_cuda_bilateral_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaBilateral, gst_cuda_bilateral, GST,
    CUDA_BILATERAL, GstCudaFilter);

#define GST_TYPE_CUDA_BILATERAL_MODE (gst_cuda_bilateral_mode_get_type ())
GType gst_cuda_bilateral_mode_get_type (void);

#define GST_TYPE_CUDA_BILATERAL_COLOR_DISTANCE \
    (gst_cuda_bilateral_color_distance_get_type ())
GType gst_cuda_bilateral_color_distance_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudabilateral);

G_END_DECLS

#endif /* __GST_CUDA_BILATERAL_H__ */
