/* Allocation on the GPU (internal to the base class): pinned pools for
 * system memory, CUDA pools for CUDA memory, sized for the frames in
 * flight. The base class falls back to GstBaseTransform's on the CPU. */
#ifndef __GST_CF_ALLOCATION_H__
#define __GST_CF_ALLOCATION_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

/* Answers upstream's allocation query: a pool of its caps' memory. */
gboolean gst_cf_propose_allocation (GstCudaFilter * self, GstQuery * query);

/* The output pool: downstream's when it is a CUDA pool of our context,
 * else our own. */
gboolean gst_cf_decide_allocation (GstCudaFilter * self, GstQuery * query);

G_END_DECLS

#endif /* __GST_CF_ALLOCATION_H__ */
