/* The queue of frames in flight (internal to the base class): frames leave
 * in the order they came, each as soon as its work is done. With one frame
 * in flight the streaming thread sends it right after queueing it; with
 * more, a thread of the element's own (the output thread) waits for the
 * oldest frame's work and sends it downstream while the streaming thread
 * queues the next ones, so no frame waits for later frames to arrive. */
#ifndef __GST_CF_QUEUE_H__
#define __GST_CF_QUEUE_H__

#include "gstcfprivate.h"

G_BEGIN_DECLS
/* start (): empty, and the output thread running where there is one;
 * stop (): the frames in flight dropped, the thread gone. */
void gst_cf_queue_start (GstCudaFilter * self);
void gst_cf_queue_stop (GstCudaFilter * self);

/* Queues @inbuf (taken), waiting for a free slot. Without the output
 * thread *outbuf is the filtered frame for the caller to send; with it,
 * NULL, and the return is downstream's answer to a frame sent since the
 * last call where it was not GST_FLOW_OK (each answer told once; while
 * flushing, FLUSHING and the frame dropped). */
GstFlowReturn gst_cf_queue_push (GstCudaFilter * self, GstBuffer * inbuf,
    GstBuffer ** outbuf);

/* Returns once every frame in flight has been sent (before an event that
 * must follow them), with downstream's answer to the last. */
GstFlowReturn gst_cf_queue_drain (GstCudaFilter * self);

/* Flushing: from flush_start on, frames in flight are dropped, not sent;
 * flush_stop returns once none is left. */
void gst_cf_queue_flush_start (GstCudaFilter * self);
void gst_cf_queue_flush_stop (GstCudaFilter * self);

G_END_DECLS
#endif /* __GST_CF_QUEUE_H__ */
