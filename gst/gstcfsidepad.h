/* The side pad (internal to the base class): a request sink pad for a
 * second input stream of the frame's size (cudasatblur's radius map,
 * cudabilateral's guide), paired with the main frames by running time as
 * GstAggregator pairs its sink pads. design.md, "Two inputs: the side
 * pad", says what happens at EOS, flushes, caps and latency.
 *
 * The side pad's chain function queues its buffers (at most
 * GST_CF_SIDE_AHEAD later than the main stream; it blocks beyond that);
 * the main streaming thread trims the queue to each frame's running time
 * and picks the side frame of a frame, waiting on a GCond where the frame
 * asks to. Flushes and the state change to READY wake every wait. */
#ifndef __GST_CF_SIDE_PAD_H__
#define __GST_CF_SIDE_PAD_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS
/* Side buffers queued later than the main stream before the side pad's
 * chain blocks. */
#define GST_CF_SIDE_AHEAD 3
typedef struct _GstCfSidePad GstCfSidePad;

GstCfSidePad *gst_cf_side_pad_new (GstCudaFilter * self);
void gst_cf_side_pad_free (GstCfSidePad * side);

/* GstElement's request_new_pad / release_pad: one side pad at most. */
GstPad *gst_cf_side_pad_request (GstCfSidePad * side, GstPadTemplate * templ);
void gst_cf_side_pad_release (GstCfSidePad * side, GstPad * pad);

/* The main sink pad's FLUSH_START (wakes a wait, frames get none),
 * FLUSH_STOP and EOS (the side pad then returns GST_FLOW_EOS). */
void gst_cf_side_pad_main_event (GstCfSidePad * side, GstEvent * event);

/* Every main buffer, passthrough included: side frames older than the
 * newest one at or before @running_time go. */
void gst_cf_side_pad_main_time (GstCfSidePad * side, GstClockTime running_time);

/* FALSE before the element's pads deactivate (PAUSED to READY): every
 * wait returns, the queue goes; TRUE again at READY to PAUSED. */
void gst_cf_side_pad_set_running (GstCfSidePad * side, gboolean running);

/* The side frame of the main frame at @running_time of @main's size:
 * *buf (a reference, NULL when there is none) and its *info. @wait waits
 * for the one whose time covers the frame. GST_FLOW_FLUSHING while
 * flushing or stopping; GST_FLOW_NOT_NEGOTIATED (posted) for a side frame
 * of another size. */
GstFlowReturn gst_cf_side_pad_pick (GstCfSidePad * side,
    GstClockTime running_time, gboolean wait, const GstVideoInfo * main,
    GstBuffer ** buf, GstVideoInfo * info);

/* Combines the side stream's upstream latency into the main stream's
 * answer @query (live if either is, the larger minimum, the smaller
 * maximum). */
void gst_cf_side_pad_add_latency (GstCfSidePad * side, GstQuery * query);

G_END_DECLS
#endif /* __GST_CF_SIDE_PAD_H__ */
