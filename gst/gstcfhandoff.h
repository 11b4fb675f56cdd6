/* The hand-off between two cudafilters elements (internal to the base
 * class): an element on the GPU offers its hand-off allocator upstream in
 * the ALLOCATION query, beside the pinned pool that other producers use;
 * an element that finds one of its own context in its downstream's query
 * writes its output into a pool of hand-off memory (gstcfdevicememory.h)
 * instead of downloading it, and the next element reads it where it is
 * (gst_cf_device_memory_path). Caps stay system memory: to any other
 * element the buffers are ordinary ones that map to host on demand. */
#ifndef __GST_CF_HANDOFF_H__
#define __GST_CF_HANDOFF_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS
/* Adds the element's hand-off allocator to upstream's allocation query,
 * after the allocator meant for every producer. */
void gst_cf_handoff_offer (GstCudaFilter * self, GstQuery * query);

/* Whether downstream's allocation query offers hand-off memory of the
 * element's context, and supports GstVideoMeta (the pool pads strides). */
gboolean gst_cf_handoff_offered (GstCudaFilter * self, GstQuery * query);

/* A pool of hand-off memory for @caps, strides padded for the kernels;
 * *size is a buffer's size. NULL if it cannot be configured. */
GstBufferPool *gst_cf_handoff_pool_new (GstCudaFilter * self, GstCaps * caps,
    guint min, guint max, guint * size);

G_END_DECLS
#endif /* __GST_CF_HANDOFF_H__ */
