/* Packed 4:2:2 formats: see gstcfpacked.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfpacked.h"
#include "cf_runtime.h"
#include "v210.h"

#include <string.h>

#define ROW_ALIGN 256

gboolean
gst_cf_packed_describe (const GstVideoInfo * info, GstCfPacking * packing,
    GstCudaFilterPlane * pl, gsize * row_bytes, gint * rows)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  /* an alternate buffer is one field */
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_FIELD_HEIGHT (info);

  memset (packing, 0, sizeof (*packing));
  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YVYU:
      packing->kind = GST_CF_PACKED_8BIT;
      packing->y_channel = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, 0);
      packing->uv_mask = 1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, 1) |
          1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, 2);
      *row_bytes = (gsize) (w + 1) / 2 * 4;
      break;
    case GST_VIDEO_FORMAT_v210:
      packing->kind = GST_CF_PACKED_V210;
      *row_bytes = cf_v210_row_bytes (w);
      break;
    default:
      return FALSE;
  }
  packing->width = w;
  packing->height = h;
  memset (pl, 0, sizeof (*pl));
  pl->src.width = pl->dst.width = w;
  pl->src.height = pl->dst.height = h;
  pl->src.channels = pl->dst.channels = 1;
  pl->src.depth = pl->dst.depth = 8;
  *rows = h;
  return TRUE;
}

static gsize
aligned_row (gsize bytes)
{
  return (bytes + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
}

/* @bytes of temporary memory: @temp's on the GPU, new host memory (set in
 * *host, to free) on the CPU. */
static CfStatus
temporaries (CfScratch * temp, const CfExec * exec, gsize bytes,
    gpointer * mem, gpointer * host)
{
  CfStatus st = CF_OK;

  *host = NULL;
  if (exec->on_gpu) {
    st = cf_scratch_reserve (temp, bytes);
    *mem = temp->data;
  } else {
    *mem = *host = g_try_malloc (bytes);
    if (!*host)
      st = CF_ERROR_OUT_OF_MEMORY;
  }
  return st;
}

/* @pl as a plane of @width pixels of @channels samples of @depth bits. */
static void
shape (CfPlane * pl, gint width, gint channels, gint depth)
{
  pl->width = width;
  pl->channels = channels;
  pl->depth = depth;
  pl->max = depth > 8 ? 1023 : 0;
}

/* A plane of @view's, @channels samples of @depth bits a pixel (its
 * previous output, for a stateful filter, the same; the byte map of luma
 * pixels stays the view's). */
static GstCudaFilterPlane
part (const GstCudaFilterPlane * view, guint index, gint width, gint channels,
    gint depth, guint w_sub, guint mask, guint chroma_mask)
{
  GstCudaFilterPlane p = *view;

  p.index = index;
  p.w_sub = w_sub;
  p.h_sub = 0;
  p.channel_mask = mask;
  p.chroma_mask = chroma_mask;
  shape (&p.src, width, channels, depth);
  shape (&p.dst, width, channels, depth);
  if (p.prev.data)
    shape (&p.prev, width, channels, depth);
  return p;
}

/* Copies bytes @x and @x + 1 of each of @rows rows of @src into @dst. */
static CfStatus
copy_columns (const CfExec * exec, const CfPlane * dst, const CfPlane * src,
    gsize x, gint rows)
{
  guint8 *d = (guint8 *) dst->data + x;
  const guint8 *s = (const guint8 *) src->data + x;

  if (exec->on_gpu)
    return cf_copy_2d_async (d, dst->stride, s, src->stride, 2, rows,
        exec->stream);
  for (gint y = 0; y < rows; y++)
    memcpy (d + y * dst->stride, s + y * src->stride, 2);
  return CF_OK;
}

static CfStatus
filter_8bit (const GstCfPacking * pk, GstCudaFilter * self,
    const GstCudaFilterPlane * view, CfScratch * temp, const CfExec * exec,
    GstCfPartFilter filter, gpointer data)
{
  gint w = pk->width, pairs = (w + 1) / 2, h = view->src.height;
  gsize stride = aligned_row ((gsize) pairs * 4);
  GstCudaFilterPlane chroma = part (view, 1, pairs, 4, 8, 1, pk->uv_mask,
      pk->uv_mask);
  GstCudaFilterPlane luma = part (view, 0, w, 2, 8, 0, 1u << pk->y_channel,
      0);
  gpointer mem, host;
  CfStatus st = temporaries (temp, exec, stride * pk->height, &mem, &host);

  if (st != CF_OK)
    return st;
  /* luma first: a stateful filter's luma writes the map its chroma reads */
  luma.dst.data = chroma.src.data = mem;
  luma.dst.stride = chroma.src.stride = stride;
  st = filter (self, data, &luma, &luma, exec);
  /* an odd width's last pair: luma's plane ends halfway through it, before
   * a chroma byte and a Y that is no pixel's */
  if (st == CF_OK && w % 2)
    st = copy_columns (exec, &luma.dst, &view->src, 2 * w, h);
  if (st == CF_OK)
    st = filter (self, data, &chroma, &luma, exec);
  g_free (host);
  return st;
}

/* Luma and chroma planes of @luma_stride and @chroma_stride bytes a row,
 * one after the other from @mem. */
static void
set_planes (CfPlane * luma, CfPlane * chroma, gpointer mem, gsize luma_stride,
    gsize chroma_stride, gint rows)
{
  luma->data = mem;
  luma->stride = luma_stride;
  chroma->data = (guint8 *) mem + luma_stride * rows;
  chroma->stride = chroma_stride;
}

static CfStatus
filter_v210 (const GstCfPacking * pk, GstCudaFilter * self,
    const GstCudaFilterPlane * view, CfScratch * temp, const CfExec * exec,
    GstCfPartFilter filter, gpointer data)
{
  gint h = view->src.height, pairs = (pk->width + 1) / 2;
  CfV210 src = { view->src.data, view->src.stride, pk->width, h };
  CfV210 dst = { view->dst.data, view->dst.stride, pk->width, h };
  gsize ls = aligned_row ((gsize) pk->width * 2);
  gsize cs = aligned_row ((gsize) pairs * 4);
  gsize third = (ls + cs) * pk->height;
  GstCudaFilterPlane luma = part (view, 0, pk->width, 1, 16, 0, 1, 0);
  GstCudaFilterPlane chroma = part (view, 1, pairs, 2, 16, 1, 3, 3);
  gboolean stateful = view->prev.data != NULL;
  gpointer mem, host;
  CfStatus st = temporaries (temp, exec, (stateful ? 3 : 2) * third, &mem,
      &host);

  if (st != CF_OK)
    return st;
  /* unpacked planes in the first third, filtered ones in the second, a
   * stateful filter's previous output unpacked in the last */
  set_planes (&luma.src, &chroma.src, mem, ls, cs, pk->height);
  set_planes (&luma.dst, &chroma.dst, (guint8 *) mem + third, ls, cs,
      pk->height);
  st = cf_v210_unpack (exec, &src, &luma.src, &chroma.src);
  if (st == CF_OK && stateful) {
    CfV210 prev = { view->prev.data, view->prev.stride, pk->width, h };

    set_planes (&luma.prev, &chroma.prev, (guint8 *) mem + 2 * third, ls, cs,
        pk->height);
    st = cf_v210_unpack (exec, &prev, &luma.prev, &chroma.prev);
  }
  if (st == CF_OK)
    st = filter (self, data, &luma, &luma, exec);
  if (st == CF_OK)
    st = filter (self, data, &chroma, &luma, exec);
  if (st == CF_OK)
    st = cf_v210_pack (exec, &src, &luma.dst, &chroma.dst, &dst);
  g_free (host);
  return st;
}

CfStatus
gst_cf_packed_filter (const GstCfPacking * packing, GstCudaFilter * self,
    const GstCudaFilterPlane * view, CfScratch * temp, const CfExec * exec,
    GstCfPartFilter filter, gpointer data)
{
  if (packing->kind == GST_CF_PACKED_V210)
    return filter_v210 (packing, self, view, temp, exec, filter, data);
  return filter_8bit (packing, self, view, temp, exec, filter, data);
}
