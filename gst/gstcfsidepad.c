/* The side pad: see gstcfsidepad.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfsidepad.h"
#include "gstcfprivate.h"
#include "gstcfallocation.h"

#include <gst/cuda/gstcudautils.h>

#define GST_CAT_DEFAULT gst_cuda_filter_debug

/* A queued side buffer and its running time [start, end). */
typedef struct
{
  GstBuffer *buf;
  GstVideoInfo info;
  GstClockTime start, end;
} Entry;

struct _GstCfSidePad
{
  GstCudaFilter *self;          /* not a reference: the pad's element */
  GstPad *pad;                  /* NULL until requested */

  GMutex lock;
  GCond cond;
  /* under lock */
  GQueue queue;                 /* of Entry, later than current */
  Entry *current;               /* the side frame of the last main time */
  GstVideoInfo info;            /* the side pad's caps */
  gboolean has_caps;
  GstSegment segment;
  gboolean eos;                 /* the side stream ended */
  gboolean flushing;            /* the side pad flushes */
  gboolean main_flushing;       /* the main sink pad flushes */
  gboolean main_eos;            /* the main stream ended */
  gboolean running;             /* FALSE from PAUSED to READY on */
};

static void
entry_free (Entry * e)
{
  if (!e)
    return;
  gst_buffer_unref (e->buf);
  g_free (e);
}

/* Under the lock. */
static void
clear_queue (GstCfSidePad * side)
{
  Entry *e;

  while ((e = g_queue_pop_head (&side->queue)))
    entry_free (e);
  entry_free (side->current);
  side->current = NULL;
}

GstCfSidePad *
gst_cf_side_pad_new (GstCudaFilter * self)
{
  GstCfSidePad *side = g_new0 (GstCfSidePad, 1);

  side->self = self;
  g_mutex_init (&side->lock);
  g_cond_init (&side->cond);
  g_queue_init (&side->queue);
  gst_segment_init (&side->segment, GST_FORMAT_TIME);
  return side;
}

void
gst_cf_side_pad_free (GstCfSidePad * side)
{
  clear_queue (side);
  g_mutex_clear (&side->lock);
  g_cond_clear (&side->cond);
  g_free (side);
}

/* The side pad's own frames: newer ones replace current while they are not
 * later than @rt (all of them when either time is unknown). Under the
 * lock. */
static void
advance (GstCfSidePad * side, GstClockTime rt)
{
  Entry *e;

  while ((e = g_queue_peek_head (&side->queue))) {
    if (GST_CLOCK_TIME_IS_VALID (rt) && GST_CLOCK_TIME_IS_VALID (e->start)
        && e->start > rt)
      break;
    entry_free (side->current);
    side->current = g_queue_pop_head (&side->queue);
  }
}

/* Whether the side frame of @rt is known for good. Under the lock. */
static gboolean
decided (GstCfSidePad * side, GstClockTime rt, gboolean wait)
{
  const Entry *c = side->current;

  if (!wait || side->eos || !side->pad || !gst_pad_is_linked (side->pad)
      || !g_queue_is_empty (&side->queue))
    return TRUE;
  return c && (!GST_CLOCK_TIME_IS_VALID (rt)
      || !GST_CLOCK_TIME_IS_VALID (c->start)
      || (GST_CLOCK_TIME_IS_VALID (c->end) && c->end > rt));
}

GstFlowReturn
gst_cf_side_pad_pick (GstCfSidePad * side, GstClockTime rt, gboolean wait,
    const GstVideoInfo * main, GstBuffer ** buf, GstVideoInfo * info)
{
  const Entry *e;

  *buf = NULL;
  g_mutex_lock (&side->lock);
  advance (side, rt);
  while (!side->main_flushing && side->running && !decided (side, rt, wait)) {
    GST_LOG_OBJECT (side->self, "waiting for the side frame of %"
        GST_TIME_FORMAT, GST_TIME_ARGS (rt));
    g_cond_wait (&side->cond, &side->lock);
    advance (side, rt);
  }
  if (side->main_flushing || !side->running) {
    g_mutex_unlock (&side->lock);
    return GST_FLOW_FLUSHING;
  }
  /* a frame earlier than every side frame takes the first */
  e = side->current ? side->current : g_queue_peek_head (&side->queue);
  if (e) {
    *buf = gst_buffer_ref (e->buf);
    *info = e->info;
  }
  g_mutex_unlock (&side->lock);

  if (*buf && (info->width != main->width || info->height != main->height)) {
    GST_ELEMENT_ERROR (side->self, CORE, NEGOTIATION,
        ("The %s stream is %dx%d but the video is %dx%d: they must be the "
            "same size.", GST_PAD_NAME (side->pad), info->width,
            info->height, main->width, main->height), (NULL));
    gst_clear_buffer (buf);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  GST_LOG_OBJECT (side->self, "frame at %" GST_TIME_FORMAT ": side frame "
      "%" GST_PTR_FORMAT, GST_TIME_ARGS (rt), *buf);
  return GST_FLOW_OK;
}

void
gst_cf_side_pad_main_time (GstCfSidePad * side, GstClockTime rt)
{
  g_mutex_lock (&side->lock);
  advance (side, rt);
  g_cond_broadcast (&side->cond);
  g_mutex_unlock (&side->lock);
}

void
gst_cf_side_pad_main_event (GstCfSidePad * side, GstEvent * event)
{
  g_mutex_lock (&side->lock);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      side->main_flushing = TRUE;
      break;
    case GST_EVENT_FLUSH_STOP:
      side->main_flushing = FALSE;
      side->main_eos = FALSE;
      break;
    case GST_EVENT_EOS:
      side->main_eos = TRUE;
      break;
    default:
      break;
  }
  g_cond_broadcast (&side->cond);
  g_mutex_unlock (&side->lock);
}

void
gst_cf_side_pad_set_running (GstCfSidePad * side, gboolean running)
{
  g_mutex_lock (&side->lock);
  side->running = running;
  if (!running) {
    clear_queue (side);
    side->eos = side->main_eos = FALSE;
  }
  g_cond_broadcast (&side->cond);
  g_mutex_unlock (&side->lock);
}

/* The side pad's chain: its buffer is queued with its running time, at
 * most GST_CF_SIDE_AHEAD later than the main stream. */
static GstFlowReturn
side_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  GstCfSidePad *side = gst_pad_get_element_private (pad);
  GstFlowReturn ret = GST_FLOW_OK;
  Entry *e;

  g_mutex_lock (&side->lock);
  while (side->running && !side->flushing && !side->main_eos
      && side->has_caps && side->queue.length >= GST_CF_SIDE_AHEAD)
    g_cond_wait (&side->cond, &side->lock);
  if (!side->running || side->flushing)
    ret = GST_FLOW_FLUSHING;
  else if (side->main_eos)
    ret = GST_FLOW_EOS;
  else if (!side->has_caps)
    ret = GST_FLOW_NOT_NEGOTIATED;
  if (ret != GST_FLOW_OK) {
    g_mutex_unlock (&side->lock);
    gst_buffer_unref (buf);
    return ret;
  }
  e = g_new0 (Entry, 1);
  e->buf = buf;
  e->info = side->info;
  e->start = gst_segment_to_running_time (&side->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));
  e->end = GST_CLOCK_TIME_IS_VALID (e->start)
      && GST_BUFFER_DURATION_IS_VALID (buf) ? e->start +
      GST_BUFFER_DURATION (buf) : GST_CLOCK_TIME_NONE;
  g_queue_push_tail (&side->queue, e);
  g_cond_broadcast (&side->cond);
  g_mutex_unlock (&side->lock);
  return GST_FLOW_OK;
}

/* Caps of the main frame's size, when it is known; FALSE (posted)
 * otherwise. */
static gboolean
side_caps (GstCfSidePad * side, GstCaps * caps)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (side->self);
  GstVideoInfo info;
  gint width = 0, height = 0;

  if (!gst_video_info_from_caps (&info, caps)) {
    GST_ELEMENT_ERROR (side->self, CORE, NEGOTIATION,
        ("Cannot read the %s stream's caps.", GST_PAD_NAME (side->pad)),
        ("%" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  GST_OBJECT_LOCK (side->self);
  if (filter->negotiated) {
    width = filter->in_info.width;
    height = filter->in_info.height;
  }
  GST_OBJECT_UNLOCK (side->self);
  if (width && (info.width != width || info.height != height)) {
    GST_ELEMENT_ERROR (side->self, CORE, NEGOTIATION,
        ("The %s stream is %dx%d but the video is %dx%d: they must be the "
            "same size.", GST_PAD_NAME (side->pad), info.width, info.height,
            width, height), ("%" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  g_mutex_lock (&side->lock);
  side->info = info;
  side->has_caps = TRUE;
  g_mutex_unlock (&side->lock);
  return TRUE;
}

/* The side stream's events stay here: none goes downstream. */
static gboolean
side_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstCfSidePad *side = gst_pad_get_element_private (pad);
  gboolean ret = TRUE;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;

    gst_event_parse_caps (event, &caps);
    ret = side_caps (side, caps);
    gst_event_unref (event);
    return ret;
  }
  g_mutex_lock (&side->lock);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_SEGMENT:
      gst_event_copy_segment (event, &side->segment);
      if (side->segment.format != GST_FORMAT_TIME) {
        GST_ELEMENT_ERROR (side->self, STREAM, FAILED,
            ("The %s stream's segment is not in time.", GST_PAD_NAME (pad)),
            (NULL));
        ret = FALSE;
      }
      break;
    case GST_EVENT_EOS:
      side->eos = TRUE;
      break;
    case GST_EVENT_FLUSH_START:
      side->flushing = TRUE;
      break;
    case GST_EVENT_FLUSH_STOP:
      side->flushing = FALSE;
      side->eos = FALSE;
      clear_queue (side);
      gst_segment_init (&side->segment, GST_FORMAT_TIME);
      break;
    default:
      break;
  }
  g_cond_broadcast (&side->cond);
  g_mutex_unlock (&side->lock);
  gst_event_unref (event);
  return ret;
}

/* The template's caps, of the main frame's size once it is known. */
static GstCaps *
side_template_caps (GstCfSidePad * side, GstPad * pad)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (side->self);
  GstCaps *caps = gst_pad_get_pad_template_caps (pad);

  GST_OBJECT_LOCK (side->self);
  if (filter->negotiated) {
    caps = gst_caps_make_writable (caps);
    gst_caps_set_simple (caps, "width", G_TYPE_INT, filter->in_info.width,
        "height", G_TYPE_INT, filter->in_info.height, NULL);
  }
  GST_OBJECT_UNLOCK (side->self);
  return caps;
}

static gboolean
side_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  GstCfSidePad *side = gst_pad_get_element_private (pad);
  GstCudaFilterPrivate *priv = PRIV (side->self);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CAPS:{
      GstCaps *filter, *caps = side_template_caps (side, pad);

      gst_query_parse_caps (query, &filter);
      if (filter) {
        GstCaps *both = gst_caps_intersect_full (filter, caps,
            GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref (caps);
        caps = both;
      }
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
      return TRUE;
    }
    case GST_QUERY_ACCEPT_CAPS:{
      GstCaps *caps, *templ = gst_pad_get_pad_template_caps (pad);

      gst_query_parse_accept_caps (query, &caps);
      gst_query_set_accept_caps_result (query,
          gst_caps_is_subset (caps, templ));
      gst_caps_unref (templ);
      return TRUE;
    }
      /* as the main sink pad's: pinned memory, or a cudafilters element's
       * device memory read in place */
    case GST_QUERY_ALLOCATION:
      return priv->use_gpu && gst_cf_propose_allocation (side->self, query);
    case GST_QUERY_CONTEXT:
      return gst_cuda_handle_context_query (GST_ELEMENT (side->self), query,
          priv->context);
    default:
      return FALSE;
  }
}

GstPad *
gst_cf_side_pad_request (GstCfSidePad * side, GstPadTemplate * templ)
{
  GstElement *element = GST_ELEMENT (side->self);
  GstPad *pad;

  if (templ->direction != GST_PAD_SINK || side->pad)
    return NULL;
  pad = gst_pad_new_from_template (templ, templ->name_template);
  gst_pad_set_element_private (pad, side);
  gst_pad_set_chain_function (pad, GST_DEBUG_FUNCPTR (side_chain));
  gst_pad_set_event_function (pad, GST_DEBUG_FUNCPTR (side_event));
  gst_pad_set_query_function (pad, GST_DEBUG_FUNCPTR (side_query));
  g_mutex_lock (&side->lock);
  side->pad = pad;
  side->has_caps = FALSE;
  side->eos = side->flushing = FALSE;
  gst_segment_init (&side->segment, GST_FORMAT_TIME);
  g_mutex_unlock (&side->lock);
  if (GST_STATE (element) > GST_STATE_READY)
    gst_pad_set_active (pad, TRUE);
  gst_element_add_pad (element, pad);
  return pad;
}

void
gst_cf_side_pad_release (GstCfSidePad * side, GstPad * pad)
{
  g_mutex_lock (&side->lock);
  if (pad != side->pad) {
    g_mutex_unlock (&side->lock);
    return;
  }
  side->pad = NULL;
  clear_queue (side);
  g_cond_broadcast (&side->cond);
  g_mutex_unlock (&side->lock);
  gst_pad_set_active (pad, FALSE);
  gst_element_remove_pad (GST_ELEMENT (side->self), pad);
}

void
gst_cf_side_pad_add_latency (GstCfSidePad * side, GstQuery * query)
{
  GstClockTime min, max, side_min, side_max;
  gboolean live, side_live;
  GstQuery *q;
  GstPad *pad;

  g_mutex_lock (&side->lock);
  pad = side->pad ? gst_object_ref (side->pad) : NULL;
  g_mutex_unlock (&side->lock);
  if (!pad)
    return;
  q = gst_query_new_latency ();
  if (gst_pad_peer_query (pad, q)) {
    gst_query_parse_latency (query, &live, &min, &max);
    gst_query_parse_latency (q, &side_live, &side_min, &side_max);
    GST_DEBUG_OBJECT (side->self, "side stream latency: live %d, min %"
        GST_TIME_FORMAT ", max %" GST_TIME_FORMAT, side_live,
        GST_TIME_ARGS (side_min), GST_TIME_ARGS (side_max));
    if (side_live) {
      min = live ? MAX (min, side_min) : side_min;
      if (!live)
        max = side_max;
      else if (GST_CLOCK_TIME_IS_VALID (side_max))
        max = GST_CLOCK_TIME_IS_VALID (max) ? MIN (max, side_max) : side_max;
      live = TRUE;
    }
    gst_query_set_latency (query, live, min, max);
  }
  gst_query_unref (q);
  gst_object_unref (pad);
}
