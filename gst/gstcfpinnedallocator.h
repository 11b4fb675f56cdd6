/* An allocator of page-locked (pinned) host memory, so that frames move
 * between host and GPU by DMA, asynchronously, at full bus speed. Memory is
 * allocated in the allocator's CUDA context; buffer pools reuse it, so no
 * frame allocates. */
#ifndef __GST_CF_PINNED_ALLOCATOR_H__
#define __GST_CF_PINNED_ALLOCATOR_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define GST_CF_PINNED_MEMORY_TYPE "CfPinnedMemory"

#define GST_TYPE_CF_PINNED_ALLOCATOR (gst_cf_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCfPinnedAllocator, gst_cf_pinned_allocator, GST,
    CF_PINNED_ALLOCATOR, GstAllocator);

GstAllocator *gst_cf_pinned_allocator_new (GstCudaContext * context);

gboolean gst_is_cf_pinned_memory (GstMemory * mem);

G_END_DECLS

#endif /* __GST_CF_PINNED_ALLOCATOR_H__ */
