/* The queue of frames in flight: see gstcfqueue.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfqueue.h"
#include "gstcfslots.h"

#define GST_CAT_DEFAULT gst_cuda_filter_debug

/* With the queue lock held. */
static gboolean
idle (GstCudaFilterPrivate * priv)
{
  return !priv->pending && !priv->output_busy;
}

/* Sends @buf, or drops it while flushing; keeps downstream's answer. */
static void
send_frame (GstCudaFilter * self, GstBuffer * buf, CfStatus st)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean drop;

  g_mutex_lock (&priv->queue_lock);
  drop = priv->discarding;
  g_mutex_unlock (&priv->queue_lock);
  if (drop)
    gst_clear_buffer (&buf);
  else if (st != CF_OK)
    ret = gst_cf_filter_error (self, st);
  else if (buf)
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buf);

  g_mutex_lock (&priv->queue_lock);
  if (ret != GST_FLOW_OK && !priv->discarding)
    priv->output_flow = ret;
  priv->output_busy = FALSE;
  g_cond_broadcast (&priv->queue_cond);
  g_mutex_unlock (&priv->queue_lock);
}

/* The output thread: the oldest frame, once its work is done, goes
 * downstream; then the next. */
static gpointer
output_loop (gpointer data)
{
  GstCudaFilter *self = data;
  GstCudaFilterPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->queue_lock);
  while (TRUE) {
    Slot *slot;
    GstBuffer *buf;
    CfStatus st;

    while (priv->output_running && !priv->pending)
      g_cond_wait (&priv->queue_cond, &priv->queue_lock);
    if (!priv->output_running)
      break;
    slot = &priv->slots[priv->head];
    priv->output_busy = TRUE;
    g_mutex_unlock (&priv->queue_lock);

    st = gst_cf_slot_finish (self, slot, &buf);

    g_mutex_lock (&priv->queue_lock);
    priv->head = (priv->head + 1) % priv->n_slots;
    priv->pending--;
    g_cond_broadcast (&priv->queue_cond);
    g_mutex_unlock (&priv->queue_lock);

    send_frame (self, buf, st);
    g_mutex_lock (&priv->queue_lock);
  }
  g_mutex_unlock (&priv->queue_lock);
  return NULL;
}

void
gst_cf_queue_start (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  priv->head = priv->pending = 0;
  priv->output_busy = priv->discarding = FALSE;
  priv->output_flow = GST_FLOW_OK;
  priv->output_running = priv->n_slots > 1;
  if (priv->output_running)
    priv->output_thread = g_thread_new ("cudafilter-out", output_loop, self);
}

void
gst_cf_queue_stop (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  /* Streaming has stopped: frames still in flight can only be dropped. */
  gst_cf_queue_flush_start (self);
  gst_cf_queue_flush_stop (self);
  if (!priv->output_thread)
    return;
  g_mutex_lock (&priv->queue_lock);
  priv->output_running = FALSE;
  g_cond_broadcast (&priv->queue_cond);
  g_mutex_unlock (&priv->queue_lock);
  g_thread_join (priv->output_thread);
  priv->output_thread = NULL;
}

/* Without the output thread, the frame's work is waited for here. */
static GstFlowReturn
filter_now (GstCudaFilter * self, GstBuffer * inbuf, GstBuffer ** outbuf)
{
  Slot *slot = &PRIV (self)->slots[0];
  GstFlowReturn ret = gst_cf_slot_start (self, slot, inbuf);
  CfStatus st;

  if (ret != GST_FLOW_OK && !slot->failed)
    return ret;
  st = gst_cf_slot_finish (self, slot, outbuf);
  if (ret == GST_FLOW_OK && st != CF_OK)
    ret = gst_cf_filter_error (self, st);
  return ret;
}

GstFlowReturn
gst_cf_queue_push (GstCudaFilter * self, GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret, told;
  Slot *slot;

  *outbuf = NULL;
  if (!priv->output_thread)
    return filter_now (self, inbuf, outbuf);

  g_mutex_lock (&priv->queue_lock);
  while (priv->pending == priv->n_slots && priv->output_flow == GST_FLOW_OK)
    g_cond_wait (&priv->queue_cond, &priv->queue_lock);
  told = priv->output_flow;
  /* downstream's answer to an earlier frame reaches upstream once, as a
   * push's would (a pad not linked now may be linked by the next frame);
   * flushing lasts until FLUSH_STOP, and a frame then would be dropped */
  if (told != GST_FLOW_FLUSHING)
    priv->output_flow = GST_FLOW_OK;
  slot = &priv->slots[(priv->head + priv->pending) % priv->n_slots];
  g_mutex_unlock (&priv->queue_lock);
  if (told == GST_FLOW_FLUSHING) {
    gst_buffer_unref (inbuf);
    return told;
  }

  /* the slot after the last in flight is the streaming thread's alone
   * until it counts as in flight */
  ret = gst_cf_slot_start (self, slot, inbuf);
  if (ret == GST_FLOW_OK || slot->failed) {
    g_mutex_lock (&priv->queue_lock);
    priv->pending++;
    g_cond_broadcast (&priv->queue_cond);
    g_mutex_unlock (&priv->queue_lock);
  }
  return ret != GST_FLOW_OK ? ret : told;
}

GstFlowReturn
gst_cf_queue_drain (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret;

  if (!priv->output_thread)
    return GST_FLOW_OK;
  g_mutex_lock (&priv->queue_lock);
  while (!idle (priv))
    g_cond_wait (&priv->queue_cond, &priv->queue_lock);
  ret = priv->output_flow;
  g_mutex_unlock (&priv->queue_lock);
  return ret;
}

void
gst_cf_queue_flush_start (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->queue_lock);
  priv->discarding = TRUE;
  g_mutex_unlock (&priv->queue_lock);
}

void
gst_cf_queue_flush_stop (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->queue_lock);
  if (priv->pending)
    GST_DEBUG_OBJECT (self, "dropping %u frames in flight", priv->pending);
  while (!idle (priv))
    g_cond_wait (&priv->queue_cond, &priv->queue_lock);
  priv->discarding = FALSE;
  priv->output_flow = GST_FLOW_OK;
  g_mutex_unlock (&priv->queue_lock);
}
