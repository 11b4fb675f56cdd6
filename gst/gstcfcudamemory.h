/* CUDA memory, zero copy (internal to the base class): which caps and
 * buffers are CUDA memory, whether a device is there to offer it; the
 * memory path (gstcfmempath.h) that maps a CUDA buffer of the element's own
 * context as device planes. */
#ifndef __GST_CF_CUDA_MEMORY_H__
#define __GST_CF_CUDA_MEMORY_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

/* Caps with the memory:CUDAMemory feature. */
gboolean gst_cf_is_cuda_caps (GstCaps * caps);

/* A CUDA driver and at least one device (checked once per process). */
gboolean gst_cf_cuda_device_present (void);

/* Every memory of @buf is CUDA memory (and it has one). */
gboolean gst_cf_is_cuda_buffer (GstBuffer * buf);

G_END_DECLS

#endif /* __GST_CF_CUDA_MEMORY_H__ */
