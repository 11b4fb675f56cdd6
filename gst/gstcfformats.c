/* Formats: see gstcfformats.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfformats.h"

#include <string.h>

/* The largest sample value of @finfo's components where it is less than
 * the container's, else 0 (CfPlane.max). */
static guint
gst_cf_formats_full_scale (const GstVideoFormatInfo * finfo)
{
  guint bits = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  guint container = bits > 8 ? 16 : 8;

  if (bits >= container)
    return 0;
  return ((1u << bits) - 1) << GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0);
}

/* The sample of a pixel that holds component @c: its byte offset over the
 * @bps bytes of a sample. GStreamer 1.22 gives P010_10LE, P012_LE and
 * P016_LE's V an offset of 1 (a sample count: it is at byte 2), so an offset
 * that is not a whole number of samples is taken as a sample count. */
static guint
gst_cf_formats_channel (const GstVideoFormatInfo * finfo, guint c, guint bps)
{
  guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

  return offset % bps ? offset : offset / bps;
}

void
gst_cf_formats_describe_plane (const GstVideoInfo * info, guint p,
    GstCudaFilterPlane * pl, gsize * row_bytes, gint * rows)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8 ? 16 : 8;
  gint bps = depth / 8;
  gint first = -1;

  memset (pl, 0, sizeof (*pl));
  pl->index = p;
  pl->alpha_channel = -1;
  pl->frame_width = GST_VIDEO_INFO_WIDTH (info);
  pl->frame_height = GST_VIDEO_INFO_HEIGHT (info);
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    guint bit;
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
      continue;
    if (first < 0)
      first = c;
    bit = 1u << gst_cf_formats_channel (finfo, c, bps);
    if (c == GST_VIDEO_COMP_A) {
      pl->alpha_channel = gst_cf_formats_channel (finfo, c, bps);
      continue;
    }
    pl->channel_mask |= bit;
    if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && c != GST_VIDEO_COMP_Y)
      pl->chroma_mask |= bit;
  }
  g_assert (first >= 0);
  pl->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, first);
  pl->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, first);
  pl->src.depth = pl->dst.depth = depth;
  pl->src.max = pl->dst.max = gst_cf_formats_full_scale (finfo);
  pl->src.channels = pl->dst.channels =
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, first) / bps;
  pl->src.width = pl->dst.width = GST_VIDEO_INFO_COMP_WIDTH (info, first);
  pl->src.height = pl->dst.height = GST_VIDEO_INFO_COMP_HEIGHT (info, first);
  *row_bytes = (gsize) pl->src.width * pl->src.channels * bps;
  *rows = pl->src.height;
}

gboolean
gst_cf_formats_has_fields (const GstVideoFrame * frame)
{
  switch (GST_VIDEO_INFO_INTERLACE_MODE (&frame->info)) {
    case GST_VIDEO_INTERLACE_MODE_INTERLEAVED:
      return TRUE;
    case GST_VIDEO_INTERLACE_MODE_MIXED:
      return frame->buffer && GST_BUFFER_FLAG_IS_SET (frame->buffer,
          GST_VIDEO_BUFFER_FLAG_INTERLACED);
    default:
      return FALSE;
  }
}

/* Field @f (0: rows 0, 2, 4...; 1: rows 1, 3...) of @plane. */
static void
field_of (CfPlane * plane, guint f)
{
  plane->data = (guint8 *) plane->data + f * plane->stride;
  plane->height = (plane->height + 1 - f) / 2;
  plane->stride *= 2;
}

guint
gst_cf_formats_plane_views (const GstCudaFilterPlane * plane,
    const GstVideoFrame * frame, GstCudaFilterPlane views[2])
{
  views[0] = *plane;
  if (plane->src.height < 2 || !gst_cf_formats_has_fields (frame))
    return 1;
  for (guint f = 0; f < 2; f++) {
    views[f] = *plane;
    field_of (&views[f].src, f);
    field_of (&views[f].dst, f);
    if (plane->prev.data)
      field_of (&views[f].prev, f);
    if (plane->map.data)
      field_of (&views[f].map, f);
    if (plane->side.data)
      field_of (&views[f].side, f);
  }
  return 2;
}
