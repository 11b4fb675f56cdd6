/* The video formats the cudafilters elements take and how a frame of each
 * is handed to filter_plane: its planes, their channels, depth and
 * subsampling. Shared by the files of the base class; not for elements. */
#ifndef __GST_CF_FORMATS_H__
#define __GST_CF_FORMATS_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS
#define CF_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, " \
  "xRGB, xBGR, RGB, BGR, AYUV, I420, YV12, NV12, NV21, Y42B, Y444, Y444_16LE }"
/* The formats above that GStreamer 1.22's CUDA allocator can lay out: it
 * asserts on the others (GRAY8, GRAY16_LE, xRGB, xBGR, AYUV). */
#define CF_CUDA_FORMATS "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, " \
  "I420, YV12, NV12, NV21, Y42B, Y444, Y444_16LE }"
/* Describes plane @p of @info: its channels, depth, subsampling and which
 * channels are colour and which are chroma; @row_bytes and @rows are what
 * a copy of the plane moves. */
void gst_cf_formats_describe_plane (const GstVideoInfo * info, guint p,
    GstCudaFilterPlane * pl, gsize * row_bytes, gint * rows);

G_END_DECLS
#endif /* __GST_CF_FORMATS_H__ */
