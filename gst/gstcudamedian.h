#ifndef __GST_CUDA_MEDIAN_H__
#define __GST_CUDA_MEDIAN_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_MEDIAN (gst_cuda_median_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaMedian, gst_cuda_median, GST, CUDA_MEDIAN,
    GstCudaFilter);

GST_ELEMENT_REGISTER_DECLARE (cudamedian);

G_END_DECLS

#endif /* __GST_CUDA_MEDIAN_H__ */
