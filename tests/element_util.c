#include "element_util.h"
#include "cf_runtime.h"

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

GArray *
cf_template_formats (const gchar * element)
{
  GstElementFactory *f = gst_element_factory_find (element);
  GArray *formats = g_array_new (FALSE, FALSE, sizeof (GstVideoFormat));
  const GList *l;

  fail_unless (f != NULL);
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps;
    const GValue *list;

    /* the frames' formats, not a side pad's (radius_sink, guide_sink) */
    if (t->direction != GST_PAD_SINK || t->presence != GST_PAD_ALWAYS)
      continue;
    caps = gst_static_caps_get (&t->static_caps);
    list = gst_structure_get_value (gst_caps_get_structure (caps, 0), "format");
    for (guint i = 0; i < gst_value_list_get_size (list); i++) {
      GstVideoFormat fmt = gst_video_format_from_string (g_value_get_string
          (gst_value_list_get_value (list, i)));
      g_array_append_val (formats, fmt);
    }
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  return formats;
}

GstHarness *
cf_harness_new (const gchar * launch, const gchar * format, gint width,
    gint height)
{
  GstHarness *h = gst_harness_new_parse (launch);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);

  gst_harness_set_caps_str (h, caps, caps);
  g_free (caps);
  return h;
}

/* The bits a deep format's 16-bit samples may set (0xffff for 16-bit
 * formats, 0x03ff for I420_10LE, 0xffc0 for P010_10LE); 0 for 8-bit ones. */
static guint16
deep_sample_mask (const GstVideoFormatInfo * finfo)
{
  guint bits = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);

  /* v210's words are no 16-bit samples: every bit random */
  if (bits <= 8 || GST_VIDEO_FORMAT_INFO_FORMAT (finfo) ==
      GST_VIDEO_FORMAT_v210)
    return 0;
  return ((1u << bits) - 1) << GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0);
}

GstBuffer *
cf_random_frame (GstVideoFormat format, gint width, gint height, guint pad,
    guint32 seed)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize offset = 0;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  if (pad) {
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
      gint rows = 0;
      for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info) && !rows; c++)
        if (GST_VIDEO_INFO_COMP_PLANE (&info, c) == p)
          rows = GST_VIDEO_INFO_COMP_HEIGHT (&info, c);
      info.stride[p] += pad;
      info.offset[p] = offset;
      offset += (gsize) info.stride[p] * rows;
    }
    info.size = offset;
  }
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  /* deep formats: samples within the format's range */
  if (deep_sample_mask (info.finfo))
    for (gsize i = 0; i + 1 < map.size; i += 2)
      GST_WRITE_UINT16_LE (map.data + i, GST_READ_UINT16_LE (map.data + i) &
          deep_sample_mask (info.finfo));
  gst_buffer_unmap (buf, &map);
  if (pad)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format,
        width, height, GST_VIDEO_INFO_N_PLANES (&info), info.offset,
        info.stride);
  g_rand_free (rand);
  return buf;
}

CfPlane
cf_frame_plane (GstVideoFrame * frame, guint p)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  CfPlane plane = { 0 };
  gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8 ? 16 : 8;

  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
      continue;
    plane.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    plane.stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    plane.width = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
    plane.height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
    plane.depth = depth;
    if (deep_sample_mask (finfo) != 0xffff)
      plane.max = deep_sample_mask (finfo);
    plane.channels = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) / (depth / 8);
    break;
  }
  return plane;
}

static guint
sample_at (const CfPlane * p, gint x, gint y, gint c)
{
  const guint8 *row = (const guint8 *) p->data + (gsize) y * p->stride;
  if (p->depth > 8)
    return ((const guint16 *) row)[x * p->channels + c];
  return row[x * p->channels + c];
}

static void
map_frame (GstVideoFrame * frame, GstBuffer * buf, GstVideoFormat format,
    gint width, gint height)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  fail_unless (gst_video_frame_map (frame, &info, buf, GST_MAP_READ));
}

static gboolean
is_packed_8bit (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_YUY2 || format == GST_VIDEO_FORMAT_UYVY
      || format == GST_VIDEO_FORMAT_YVYU;
}

gsize
cf_frame_row_bytes (GstVideoFrame * frame, guint p)
{
  CfPlane pl = cf_frame_plane (frame, p);
  gsize w = GST_VIDEO_FRAME_WIDTH (frame);

  if (GST_VIDEO_FRAME_FORMAT (frame) == GST_VIDEO_FORMAT_v210)
    return (w + 5) / 6 * 16;
  /* an odd width's last pair too, its U and V and a Y no pixel has */
  if (is_packed_8bit (GST_VIDEO_FRAME_FORMAT (frame)))
    return (w + 1) / 2 * 4;
  return (gsize) pl.width * pl.channels * (pl.depth / 8);
}

void
cf_frame_copy (GstVideoFrame * dst, GstVideoFrame * src)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (src); p++) {
    CfPlane d = cf_frame_plane (dst, p), s = cf_frame_plane (src, p);

    for (gint y = 0; y < s.height; y++)
      memcpy ((guint8 *) d.data + y * d.stride,
          (const guint8 *) s.data + y * s.stride, cf_frame_row_bytes (src, p));
  }
}

/* YUY2, UYVY, YVYU: every byte of a row's pairs. */
static gint
bytes_max_diff (GstVideoFrame * fa, GstVideoFrame * fb)
{
  gint max = 0;

  for (gint y = 0; y < GST_VIDEO_FRAME_HEIGHT (fa); y++)
    for (gsize i = 0; i < cf_frame_row_bytes (fa, 0); i++)
      max = MAX (max, ABS ((gint) ((guint8 *)
                  GST_VIDEO_FRAME_PLANE_DATA (fa, 0))[y *
                  GST_VIDEO_FRAME_PLANE_STRIDE (fa, 0) + i] - (gint) ((guint8 *)
                  GST_VIDEO_FRAME_PLANE_DATA (fb, 0))[y *
                  GST_VIDEO_FRAME_PLANE_STRIDE (fb, 0) + i]));
  return max;
}

/* v210: each 10-bit field of every word of a row's groups. */
static gint
v210_max_diff (GstVideoFrame * fa, GstVideoFrame * fb)
{
  gsize words = cf_frame_row_bytes (fa, 0) / 4;
  gint max = 0;

  for (gint y = 0; y < GST_VIDEO_FRAME_HEIGHT (fa); y++)
    for (gsize i = 0; i < words; i++) {
      guint32 wa = GST_READ_UINT32_LE ((guint8 *)
          GST_VIDEO_FRAME_PLANE_DATA (fa, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (fa, 0) + 4 * i);
      guint32 wb = GST_READ_UINT32_LE ((guint8 *)
          GST_VIDEO_FRAME_PLANE_DATA (fb, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (fb, 0) + 4 * i);

      if ((wa ^ wb) >> 30)
        max = 1024;
      for (guint f = 0; f < 3; f++)
        max = MAX (max, ABS ((gint) (wa >> 10 * f & 0x3ff) -
                (gint) (wb >> 10 * f & 0x3ff)));
    }
  return max;
}

gint
cf_frames_max_diff (GstBuffer * a, GstBuffer * b, GstVideoFormat format,
    gint width, gint height)
{
  GstVideoFrame fa, fb;
  gint max = 0;

  map_frame (&fa, a, format, width, height);
  map_frame (&fb, b, format, width, height);
  if (format == GST_VIDEO_FORMAT_v210)
    max = v210_max_diff (&fa, &fb);
  else if (is_packed_8bit (format))
    max = bytes_max_diff (&fa, &fb);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    CfPlane pa = cf_frame_plane (&fa, p), pb = cf_frame_plane (&fb, p);
    for (gint y = 0; y < pa.height; y++)
      for (gint x = 0; x < pa.width; x++)
        for (gint c = 0; c < pa.channels; c++)
          max = MAX (max, ABS ((gint) sample_at (&pa, x, y, c) -
                  (gint) sample_at (&pb, x, y, c)));
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return max;
}

gboolean
cf_frames_alpha_equal (GstBuffer * a, GstBuffer * b, GstVideoFormat format,
    gint width, gint height)
{
  GstVideoFrame fa, fb;
  gboolean equal = TRUE;
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);

  if (!GST_VIDEO_FORMAT_INFO_HAS_ALPHA (finfo))
    return TRUE;
  map_frame (&fa, a, format, width, height);
  map_frame (&fb, b, format, width, height);
  for (gint y = 0; y < height && equal; y++)
    for (gint x = 0; x < width && equal; x++) {
      const guint8 *ra = GST_VIDEO_FRAME_COMP_DATA (&fa, GST_VIDEO_COMP_A);
      const guint8 *rb = GST_VIDEO_FRAME_COMP_DATA (&fb, GST_VIDEO_COMP_A);
      gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, GST_VIDEO_COMP_A);
      ra += y * GST_VIDEO_FRAME_COMP_STRIDE (&fa, GST_VIDEO_COMP_A) + x * ps;
      rb += y * GST_VIDEO_FRAME_COMP_STRIDE (&fb, GST_VIDEO_COMP_A) + x * ps;
      equal = *ra == *rb;
    }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return equal;
}

gboolean
cf_test_format_wanted (const gchar * format)
{
  const gchar *only = g_getenv ("CF_TEST_FORMATS");
  gchar **names;
  gboolean wanted;

  if (!only)
    return TRUE;
  names = g_strsplit (only, ",", -1);
  wanted = g_strv_contains ((const gchar * const *) names, format);
  g_strfreev (names);
  return wanted;
}

gboolean
cf_have_gpu (void)
{
  return cf_device_count () > 0;
}

GstBuffer *
cf_run_one (const gchar * launch, const gchar * format, gint width,
    gint height, GstBuffer * in)
{
  GstHarness *hrn = cf_harness_new (launch, format, width, height);
  GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));

  fail_unless (out != NULL, "%s gave no %s frame", launch, format);
  gst_harness_teardown (hrn);
  return out;
}

GstBuffer *
cf_run_interlaced (const gchar * launch, const gchar * mode,
    const gchar * format, gint width, gint height, GstBuffer * in)
{
  gboolean alternate = g_str_equal (mode, "alternate");
  gchar *caps = g_strdup_printf ("video/x-raw%s,format=%s,width=%d,"
      "height=%d,framerate=30/1,interlace-mode=%s",
      alternate ? "(" GST_CAPS_FEATURE_FORMAT_INTERLACED ")" : "",
      format, width, height, mode);
  GstHarness *hrn = gst_harness_new_parse (launch);
  GstBuffer *out;

  gst_harness_set_caps_str (hrn, caps, caps);
  out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s gave no %s frame", launch, caps);
  gst_harness_teardown (hrn);
  g_free (caps);
  return out;
}

gint
cf_cuda_vs_cpu (const gchar * element, const gchar * props,
    const gchar * format, gint width, gint height, guint pad, guint32 seed)
{
  GstVideoFormat f = gst_video_format_from_string (format);
  GstBuffer *in = cf_random_frame (f, width, height, pad, seed);
  gchar *cpu_line = g_strdup_printf ("%s %s backend=cpu", element, props);
  gchar *gpu_line = g_strdup_printf ("%s %s backend=cuda", element, props);
  GstBuffer *cpu = cf_run_one (cpu_line, format, width, height, in);
  GstBuffer *gpu = cf_run_one (gpu_line, format, width, height, in);
  gint diff = cf_frames_max_diff (cpu, gpu, f, width, height);

  GST_INFO ("%s %s %dx%d: CUDA vs CPU max diff %d", gpu_line, format, width,
      height, diff);
  gst_buffer_unref (in);
  gst_buffer_unref (cpu);
  gst_buffer_unref (gpu);
  g_free (cpu_line);
  g_free (gpu_line);
  return diff;
}

void
cf_set_own_cuda_context (GstElement * bin, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (bin), name);
  GstCudaContext *cuda;
  GstContext *context;

  fail_unless (e != NULL && gst_cuda_load_library ());
  cuda = gst_cuda_context_new (0);
  fail_unless (cuda != NULL);
  context = gst_context_new_cuda_context (cuda);
  gst_element_set_context (e, context);
  gst_context_unref (context);
  gst_object_unref (cuda);
  gst_object_unref (e);
}
