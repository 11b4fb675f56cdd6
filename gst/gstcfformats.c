/* Formats: see gstcfformats.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfformats.h"

#include <string.h>

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
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    guint bit;
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
      continue;
    if (first < 0)
      first = c;
    bit = 1u << (GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) / bps);
    if (c == GST_VIDEO_COMP_A)
      continue;
    pl->channel_mask |= bit;
    if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && c != GST_VIDEO_COMP_Y)
      pl->chroma_mask |= bit;
  }
  g_assert (first >= 0);
  pl->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, first);
  pl->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, first);
  pl->src.depth = pl->dst.depth = depth;
  pl->src.channels = pl->dst.channels =
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, first) / bps;
  pl->src.width = pl->dst.width = GST_VIDEO_INFO_COMP_WIDTH (info, first);
  pl->src.height = pl->dst.height = GST_VIDEO_INFO_COMP_HEIGHT (info, first);
  *row_bytes = (gsize) pl->src.width * pl->src.channels * bps;
  *rows = pl->src.height;
}
