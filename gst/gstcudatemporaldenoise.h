#ifndef __GST_CUDA_TEMPORAL_DENOISE_H__
#define __GST_CUDA_TEMPORAL_DENOISE_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_TEMPORAL_DENOISE (gst_cuda_temporal_denoise_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTemporalDenoise, gst_cuda_temporal_denoise, GST,
    CUDA_TEMPORAL_DENOISE, GstCudaFilter);

#define GST_TYPE_CUDA_TEMPORAL_DENOISE_MODE \
    (gst_cuda_temporal_denoise_mode_get_type ())
GType gst_cuda_temporal_denoise_mode_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudatemporaldenoise);

G_END_DECLS

#endif /* __GST_CUDA_TEMPORAL_DENOISE_H__ */
