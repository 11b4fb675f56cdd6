/* Hand-off memory: device memory that one cudafilters element writes and
 * the next one reads where it is, in system-memory caps, for every format.
 *
 * A GstMemory of this allocator is a block of device memory of the
 * allocator's CUDA context. Mapped with GST_MAP_CUDA it gives the device
 * pointer; mapped for the CPU it gives a page-locked host copy, downloaded
 * on demand, so an element that is not ours reads the right pixels (and
 * one that writes them has them uploaded before the next GST_MAP_CUDA).
 * The producer synchronises its stream before it pushes a buffer, so the
 * device data of a buffer that arrives is complete. */
#ifndef __GST_CF_DEVICE_MEMORY_H__
#define __GST_CF_DEVICE_MEMORY_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS
#define GST_CF_DEVICE_MEMORY_TYPE "CfDeviceMemory"
#define GST_TYPE_CF_DEVICE_ALLOCATOR (gst_cf_device_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCfDeviceAllocator, gst_cf_device_allocator, GST,
    CF_DEVICE_ALLOCATOR, GstAllocator);

/* NULL when the allocator's own stream cannot be made. */
GstAllocator *gst_cf_device_allocator_new (GstCudaContext * context);

/* @allocator is a hand-off allocator of @context (of any, when NULL). */
gboolean gst_cf_is_device_allocator (GstAllocator * allocator,
    GstCudaContext * context);

/* Every memory of @buf is hand-off memory of @context (of any, when NULL),
 * and it has one. */
gboolean gst_cf_is_device_buffer (GstBuffer * buf, GstCudaContext * context);

/* Copies made because a CPU map found the device newer (downloads) or a
 * GST_MAP_CUDA found the host newer (uploads), on @allocator's memory. */
void gst_cf_device_allocator_get_map_copies (GstAllocator * allocator,
    guint64 * downloads, guint64 * uploads);

G_END_DECLS
#endif /* __GST_CF_DEVICE_MEMORY_H__ */
