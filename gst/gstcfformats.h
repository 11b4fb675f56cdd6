/* The video formats the cudafilters elements take and how a frame of each
 * is handed to filter_plane: its planes, their channels, depth and
 * subsampling. Shared by the files of the base class; not for elements. */
#ifndef __GST_CF_FORMATS_H__
#define __GST_CF_FORMATS_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS
/* Deep formats (all in GStreamer 1.22) are 16-bit samples whose full
 * scale is the format's: see gst_cf_formats_describe_plane (). The packed
 * 4:2:2 ones (YUY2, UYVY, YVYU, v210) are filtered through gstcfpacked.h. */
#define CF_PLANE_FORMATS "GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, ARGB, " \
  "ABGR, xRGB, xBGR, RGB, BGR, AYUV, I420, YV12, NV12, NV21, Y42B, Y444, " \
  "Y444_16LE, P010_10LE, P012_LE, P016_LE, I420_10LE, I422_10LE, Y444_10LE"
#define CF_FORMATS "{ " CF_PLANE_FORMATS ", YUY2, UYVY, YVYU, v210 }"
/* The planar ones alone (a side pad's default). */
#define CF_PLANAR_FORMATS "{ " CF_PLANE_FORMATS " }"
/* The formats above that GStreamer 1.22's CUDA allocator can lay out: it
 * asserts on the others (GRAY8, GRAY16_LE, xRGB, xBGR, AYUV, P012_LE,
 * Y444_10LE). */
#define CF_CUDA_FORMATS "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, " \
  "I420, YV12, NV12, NV21, Y42B, Y444, Y444_16LE, P010_10LE, P016_LE, " \
  "I420_10LE, I422_10LE }"
/* Describes plane @p of @info: its channels, depth, subsampling and which
 * channels are colour and which are chroma; @row_bytes and @rows are what
 * a copy of the plane moves. A deep format's samples are 16 bits whatever
 * its precision; CfPlane.max is its full scale where that is less than
 * 65535 (1023 for the LSB-aligned _10LE planar formats, 0xffc0 and 0xfff0
 * for the MSB-aligned P010 and P012), so range parameters mean the same
 * fraction of full scale and results stay in the format's range. */
void gst_cf_formats_describe_plane (const GstVideoInfo * info, guint p,
    GstCudaFilterPlane * pl, gsize * row_bytes, gint * rows);

/* Whether @frame (mapped with its caps' info) holds two interleaved fields:
 * interlace-mode=interleaved, or mixed with the buffer flagged interlaced.
 * An alternate buffer holds one field, a progressive one none. */
gboolean gst_cf_formats_has_fields (const GstVideoFrame * frame);

/* What filter_plane gets of @plane (its src and dst set for @frame's
 * plane): the plane itself, or where @frame has two fields each field on
 * its own, so that no filter mixes two moments in time: every other row
 * (twice the stride, half the height rounded up for the first, down for
 * the second field, alike for subsampled chroma). Writes @views and
 * returns how many: 1 or 2 (a one-row plane has one). */
guint gst_cf_formats_plane_views (const GstCudaFilterPlane * plane,
    const GstVideoFrame * frame, GstCudaFilterPlane views[2]);

G_END_DECLS
#endif /* __GST_CF_FORMATS_H__ */
