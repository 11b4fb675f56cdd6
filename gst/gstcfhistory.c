/* The history of a stateful filter: see gstcfhistory.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfhistory.h"
#include "gstcfslots.h"
#include "cf_runtime.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cuda_filter_debug

static void
buffer_free (GstCfHistory * h, void *data)
{
  if (h->on_gpu)
    cf_device_free (data);
  else
    g_free (data);
}

static CfStatus
buffer_alloc (GstCfHistory * h, void **data, size_t *stride, gsize row_bytes,
    gint rows)
{
  if (h->on_gpu)
    return cf_device_alloc_2d (data, stride, row_bytes, rows);
  *stride = row_bytes;
  *data = g_try_malloc ((gsize) row_bytes * rows);
  return *data ? CF_OK : CF_ERROR_OUT_OF_MEMORY;
}

void
gst_cf_history_free (GstCudaFilterPrivate * priv)
{
  GstCfHistory *h = &priv->history;

  for (guint k = 0; k < 2; k++)
    for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++)
      buffer_free (h, h->plane[k][p]);
  buffer_free (h, h->map);
  if (h->on_gpu)
    cf_event_destroy (h->done);
  memset (h, 0, sizeof (*h));
}

CfStatus
gst_cf_history_alloc (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstCfHistory *h = &priv->history;
  const CfPlane *luma = &priv->planes[0].src;
  CfStatus st = CF_OK;

  gst_cf_history_free (priv);
  if (!GST_CUDA_FILTER_GET_CLASS (self)->stateful)
    return CF_OK;
  h->on_gpu = priv->use_gpu;
  for (guint k = 0; k < 2; k++)
    for (guint p = 0; p < priv->n_planes && st == CF_OK; p++)
      st = buffer_alloc (h, &h->plane[k][p], &h->stride[k][p],
          priv->row_bytes[p], priv->rows[p]);
  /* only a frame of several planes, or of packed luma and chroma, has
   * chroma to steer */
  if (st == CF_OK && (priv->n_planes > 1
          || priv->packing.kind != GST_CF_PACKED_NONE))
    st = buffer_alloc (h, &h->map, &h->map_stride, luma->width, luma->height);
  if (st == CF_OK && h->on_gpu)
    st = cf_event_create (&h->done);
  return st;
}

void
gst_cf_history_restart (GstCudaFilterPrivate * priv)
{
  priv->history.valid = FALSE;
}

static CfStatus
copy_plane (gboolean on_gpu, void *dst, size_t dst_stride, const void *src,
    size_t src_stride, gsize row_bytes, gint rows, CfStream stream)
{
  if (on_gpu)
    return cf_copy_2d_async (dst, dst_stride, src, src_stride, row_bytes,
        rows, stream);
  for (gint y = 0; y < rows; y++)
    memcpy ((guint8 *) dst + y * dst_stride,
        (const guint8 *) src + y * src_stride, row_bytes);
  return CF_OK;
}

/* Plane @p of history frame @k, as @like (the input plane) is. */
static CfPlane
history_plane (const GstCfHistory * h, guint k, guint p, const CfPlane * like)
{
  CfPlane pl = *like;

  pl.data = h->plane[k][p];
  pl.stride = h->stride[k][p];
  return pl;
}

CfStatus
gst_cf_history_filter (GstCudaFilter * self, Slot * slot,
    GstCudaFilterPlane * planes, const CfExec * exec)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstCfHistory *h = &priv->history;
  gboolean gap = GST_BUFFER_FLAG_IS_SET (slot->inbuf, GST_BUFFER_FLAG_GAP);
  gboolean restart = !h->valid || gap
      || GST_BUFFER_FLAG_IS_SET (slot->inbuf, GST_BUFFER_FLAG_DISCONT);
  guint k = 1 - h->last;
  CfStatus st = CF_OK;

  if (restart)
    GST_DEBUG_OBJECT (self, "history restarts at %" GST_TIME_FORMAT "%s",
        GST_TIME_ARGS (GST_BUFFER_PTS (slot->inbuf)), gap ? " (gap)" : "");
  /* the previous frame's work, copy out included, is done before this
   * frame writes the history frame it read */
  if (h->on_gpu)
    st = cf_stream_wait_event (exec->stream, h->done);
  h->frames = restart ? 0 : h->frames + 1;
  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++) {
    GstCudaFilterPlane *pl = &planes[p];

    pl->dst = history_plane (h, k, p, &pl->dst);
    if (restart) {
      st = copy_plane (h->on_gpu, pl->dst.data, pl->dst.stride, pl->src.data,
          pl->src.stride, priv->row_bytes[p], priv->rows[p], exec->stream);
      continue;
    }
    pl->prev = history_plane (h, h->last, p, &pl->src);
    pl->history_frame = h->frames;
    if (h->map) {
      pl->map = priv->planes[0].src;
      pl->map.data = h->map;
      pl->map.stride = h->map_stride;
      pl->map.channels = 1;
      pl->map.depth = 8;
      pl->map.max = 0;
    }
    st = gst_cf_slot_filter_plane (self, slot, pl, &planes[0],
        &slot->region_scratch, exec);
  }
  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++)
    st = copy_plane (h->on_gpu, GST_VIDEO_FRAME_PLANE_DATA (&slot->out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&slot->out, p), h->plane[k][p],
        h->stride[k][p], priv->row_bytes[p], priv->rows[p], exec->stream);
  if (h->on_gpu && st == CF_OK)
    st = cf_event_record (h->done, exec->stream);
  /* a failed frame leaves the history to restart */
  h->last = k;
  h->valid = st == CF_OK && !gap;
  return st;
}
