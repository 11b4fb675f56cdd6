/* The history of a stateful filter (GstCudaFilterClass.stateful; internal
 * to the base class): the previous output of every plane, kept where the
 * filter runs (device memory on the GPU, host memory on the CPU), so that
 * nothing crosses PCIe for it. Two frames alternate: a frame's filter reads
 * the last output and writes the other, and the frame's output buffer is a
 * copy of what it wrote (the download itself, for host output). A byte map
 * of plane 0 lets one plane's measure steer the others of the same frame
 * (GstCudaFilterPlane.map). On the GPU an event orders the frames in
 * flight: a frame's filter waits for the previous frame's whole work, its
 * copy out included, while its upload still overlaps that work. */
#ifndef __GST_CF_HISTORY_H__
#define __GST_CF_HISTORY_H__

#include "gstcfprivate.h"

G_BEGIN_DECLS
/* For the current format (set_info), with the context pushed on the GPU;
 * frees what there was first. Nothing for a filter that keeps no history.
 * Leaves the history empty: the next frame restarts it. */
CfStatus gst_cf_history_alloc (GstCudaFilter * self);
/* With the context pushed where the history is on the GPU. */
void gst_cf_history_free (GstCudaFilterPrivate * priv);

/* The next frame passes through unfiltered and restarts the history
 * (flush, segment, caps, passthrough). */
void gst_cf_history_restart (GstCudaFilterPrivate * priv);

/* The frame of @slot, whose input planes are the src of @planes (device
 * planes on the GPU): filtered against the history (or, restarting,
 * copied), written to the history and copied to the slot's output
 * buffer; queued on @exec's stream on the GPU, done here on the CPU. */
CfStatus gst_cf_history_filter (GstCudaFilter * self, Slot * slot,
    GstCudaFilterPlane * planes, const CfExec * exec);

G_END_DECLS
#endif /* __GST_CF_HISTORY_H__ */
