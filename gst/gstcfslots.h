/* Frames in flight (internal to the base class): the slots' device planes
 * and streams, and the queue of frames whose work is queued on the GPU (or
 * done on the CPU) and that leave, oldest first, once it is done. */
#ifndef __GST_CF_SLOTS_H__
#define __GST_CF_SLOTS_H__

#include "gstcfprivate.h"

G_BEGIN_DECLS

/* Device planes of one slot: frees them, or makes those of the sides
 * (@in, @out) in host memory that are not made yet. */
void gst_cf_device_frame_free (DeviceFrame * dev);
CfStatus gst_cf_device_frame_alloc (GstCudaFilterPrivate * priv,
    DeviceFrame * dev, gboolean in, gboolean out);

/* Every slot's planes, scratch and stream go (with the context pushed);
 * one stream per slot is made at start, never per frame. */
void gst_cf_slots_free (GstCudaFilterPrivate * priv);
CfStatus gst_cf_slots_create_streams (GstCudaFilterPrivate * priv);

/* Posts STREAM/FAILED for @st and returns GST_FLOW_ERROR. */
GstFlowReturn gst_cf_filter_error (GstCudaFilter * self, CfStatus st);

/* The queue: push starts a frame (takes @inbuf), pop takes the oldest
 * out once its work is done, wait waits for all (with the context pushed),
 * discard drops them (flush, stop), drain sends them downstream. */
GstFlowReturn gst_cf_queue_push (GstCudaFilter * self, GstBuffer * inbuf);
CfStatus gst_cf_queue_pop (GstCudaFilter * self, GstBuffer ** outbuf);
CfStatus gst_cf_queue_wait (GstCudaFilter * self);
void gst_cf_queue_discard (GstCudaFilter * self);
GstFlowReturn gst_cf_queue_drain (GstCudaFilter * self);

G_END_DECLS

#endif /* __GST_CF_SLOTS_H__ */
