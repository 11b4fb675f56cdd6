/* Element tests for cudamedian, on the CPU backend everywhere and, where a
 * GPU is present, the CUDA backend against the CPU one (bit for bit). */
#include "element_util.h"
#include "median.h"

#define ELEMENT "cudamedian"

/* Plane p of `in` median-filtered by the reference with a square window of
 * the given radius, in a new buffer holding the whole frame (the other
 * planes copied). Every channel of the plane is filtered. */
static GstBuffer *
expected_plane (GstBuffer * in, GstVideoFormat format, gint w, gint h,
    guint p, gint radius, CfMedianMode mode, gint iterations, CfBorder border)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;

  gst_video_info_set_format (&info, format, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&fout, &fin));
  CfPlane src = cf_frame_plane (&fin, p), dst = cf_frame_plane (&fout, p);
  CfMedianParams params = { radius, radius, mode, iterations, border,
    CF_ALL_CHANNELS (src.channels), CF_MEDIAN_KERNEL_AUTO
  };
  fail_unless (cf_median_ref (&src, &dst, &params) == CF_OK);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

/* Whether plane p of a and b holds the same samples. */
static gboolean
planes_equal (GstBuffer * a, GstBuffer * b, GstVideoFormat format, gint w,
    gint h, guint p)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;
  gboolean equal = TRUE;

  gst_video_info_set_format (&info, format, w, h);
  fail_unless (gst_video_frame_map (&fa, &info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &info, b, GST_MAP_READ));
  CfPlane pa = cf_frame_plane (&fa, p), pb = cf_frame_plane (&fb, p);
  gsize row = (gsize) pa.width * pa.channels * (pa.depth / 8);
  for (gint y = 0; y < pa.height && equal; y++)
    equal = memcmp ((guint8 *) pa.data + y * pa.stride,
        (guint8 *) pb.data + y * pb.stride, row) == 0;
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return equal;
}

GST_START_TEST (test_matches_reference_at_odd_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {301, 9}, {40, 41} };
  static const struct
  {
    const gchar *props;
    gint radius, iterations;
    CfMedianMode mode;
    CfBorder border;
  } cases[] = {
    {"size=3", 1, 1, CF_MEDIAN_EXACT, CF_BORDER_CLAMP},
    {"size=4 border-mode=mirror", 2, 1, CF_MEDIAN_EXACT, CF_BORDER_MIRROR},
    {"size=13", 6, 1, CF_MEDIAN_EXACT, CF_BORDER_CLAMP},
    {"size=3 iterations=2", 1, 2, CF_MEDIAN_EXACT, CF_BORDER_CLAMP},
    {"size=9 mode=separable border-mode=mirror", 4, 1, CF_MEDIAN_SEPARABLE,
        CF_BORDER_MIRROR},
  };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      for (guint d = 0; d < 2; d++) {
        gint w = sizes[s][0], h = sizes[s][1];
        GstVideoFormat f = d ? GST_VIDEO_FORMAT_GRAY16_LE :
            GST_VIDEO_FORMAT_GRAY8;
        gchar *launch = g_strdup_printf (ELEMENT " backend=cpu %s",
            cases[c].props);
        GstBuffer *in = cf_random_frame (f, w, h, 0, s * 10 + c);
        GstBuffer *out = cf_run_one (launch, gst_video_format_to_string (f), w,
            h, in);
        GstBuffer *exp = expected_plane (in, f, w, h, 0, cases[c].radius,
            cases[c].mode, cases[c].iterations, cases[c].border);

        fail_unless_equals_int (cf_frames_max_diff (out, exp, f, w, h), 0);
        gst_buffer_unref (in);
        gst_buffer_unref (out);
        gst_buffer_unref (exp);
        g_free (launch);
      }
}

GST_END_TEST;

/* Chroma planes use the radius divided by their subsampling, rounded up:
 * size 5 (radius 2) filters I420 chroma with 3x3 windows. */
GST_START_TEST (test_chroma_window_scaled)
{
  GstVideoFormat f = GST_VIDEO_FORMAT_I420;
  GstBuffer *in = cf_random_frame (f, 38, 26, 0, 5);
  GstBuffer *out =
      cf_run_one (ELEMENT " size=5 backend=cpu", "I420", 38, 26, in);
  GstBuffer *luma = expected_plane (in, f, 38, 26, 0, 2, CF_MEDIAN_EXACT, 1,
      CF_BORDER_CLAMP);
  GstBuffer *u = expected_plane (in, f, 38, 26, 1, 1, CF_MEDIAN_EXACT, 1,
      CF_BORDER_CLAMP);
  GstBuffer *v = expected_plane (in, f, 38, 26, 2, 1, CF_MEDIAN_EXACT, 1,
      CF_BORDER_CLAMP);

  fail_unless (planes_equal (out, luma, f, 38, 26, 0));
  fail_unless (planes_equal (out, u, f, 38, 26, 1));
  fail_unless (planes_equal (out, v, f, 38, 26, 2));
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_buffer_unref (luma);
  gst_buffer_unref (u);
  gst_buffer_unref (v);
}

GST_END_TEST;

GST_START_TEST (test_luma_only)
{
  /* Planar, semi-planar and packed YUV: the chroma stays as it came. */
  static const gchar *formats[] = { "I420", "NV12", "Y444" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstVideoFormat f = gst_video_format_from_string (formats[i]);
    GstBuffer *in = cf_random_frame (f, 30, 22, 0, i);
    GstBuffer *out = cf_run_one (ELEMENT " size=3 luma-only=true backend=cpu",
        formats[i], 30, 22, in);
    GstBuffer *all = cf_run_one (ELEMENT " size=3 backend=cpu", formats[i], 30,
        22, in);
    GstBuffer *luma = expected_plane (in, f, 30, 22, 0, 1, CF_MEDIAN_EXACT, 1,
        CF_BORDER_CLAMP);
    GstVideoInfo info;

    gst_video_info_set_format (&info, f, 30, 22);
    fail_unless (planes_equal (out, luma, f, 30, 22, 0), "%s luma", formats[i]);
    for (guint p = 1; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
      fail_unless (planes_equal (out, in, f, 30, 22, p), "%s plane %u copied",
          formats[i], p);
      fail_if (planes_equal (all, in, f, 30, 22, p), "%s plane %u filtered",
          formats[i], p);
    }
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_buffer_unref (all);
    gst_buffer_unref (luma);
  }

  /* Packed AYUV: Y filtered, U and V and alpha copied. */
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_AYUV, 20, 10, 0, 9);
  GstBuffer *out = cf_run_one (ELEMENT " size=3 luma-only=true backend=cpu",
      "AYUV", 20, 10, in);
  GstMapInfo mi, mo;
  gboolean luma_changed = FALSE;
  fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
  for (gsize i = 0; i < mi.size; i += 4) {
    fail_unless (mi.data[i] == mo.data[i] && mi.data[i + 2] == mo.data[i + 2]
        && mi.data[i + 3] == mo.data[i + 3], "AYUV chroma or alpha changed");
    luma_changed |= mi.data[i + 1] != mo.data[i + 1];
  }
  fail_unless (luma_changed);
  gst_buffer_unmap (in, &mi);
  gst_buffer_unmap (out, &mo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GParamSpec *size = g_object_class_find_property (klass, "size");
  GParamSpec *iterations = g_object_class_find_property (klass, "iterations");
  GParamSpec *mode = g_object_class_find_property (klass, "mode");
  GParamSpec *luma = g_object_class_find_property (klass, "luma-only");
  gint s, it;
  gboolean l;

  fail_unless (size && iterations && mode && luma);
  fail_unless (size->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (size->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless_equals_int (G_PARAM_SPEC_INT (size)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (size)->maximum, 121);
  fail_unless_equals_int (G_PARAM_SPEC_INT (size)->default_value, 3);
  fail_unless_equals_int (G_PARAM_SPEC_INT (iterations)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (iterations)->maximum,
      CF_MEDIAN_MAX_ITERATIONS);
  fail_if (G_PARAM_SPEC_BOOLEAN (luma)->default_value);

  /* Even sizes round up to the next odd one. */
  g_object_set (e, "size", 4, NULL);
  g_object_get (e, "size", &s, NULL);
  fail_unless_equals_int (s, 5);
  g_object_set (e, "size", 120, NULL);
  g_object_get (e, "size", &s, NULL);
  fail_unless_equals_int (s, 121);

  gst_util_set_object_arg (G_OBJECT (e), "mode", "separable");
  g_object_set (e, "iterations", 3, "luma-only", TRUE, NULL);
  g_object_get (e, "iterations", &it, "luma-only", &l, NULL);
  fail_unless_equals_int (it, 3);
  fail_unless (l);
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (mode));
  g_object_get_property (G_OBJECT (e), "mode", &v);
  fail_unless_equals_int (g_value_get_enum (&v), CF_MEDIAN_SEPARABLE);
  g_value_unset (&v);
  gst_object_unref (e);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error; with
 * one, its frames equal the CPU reference's exactly. */
GST_START_TEST (test_cuda_backend)
{
  if (!cf_have_gpu ())
    return;                     /* element_common.c checks the error */

  static const gchar *formats[] = { "GRAY16_LE", "RGBA", "NV12", "I420",
    "GRAY8", "AYUV", "Y444_16LE", "BGR"
  };
  static const gchar *props[] = { "size=5", "size=3 iterations=2",
    "size=21", "size=15 mode=separable luma-only=true border-mode=mirror"
  };
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {160, 97} };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    for (guint k = 0; k < G_N_ELEMENTS (props); k++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        fail_unless_equals_int (cf_cuda_vs_cpu (ELEMENT, props[k],
                formats[i], sizes[s][0], sizes[s][1], s == 2 ? 40 : 0, i), 0);
}

GST_END_TEST;

static Suite *
cudamedian_suite (void)
{
  Suite *s = suite_create (ELEMENT);
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_matches_reference_at_odd_sizes);
  tcase_add_test (tc, test_chroma_window_scaled);
  tcase_add_test (tc, test_luma_only);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_cuda_backend);
  return s;
}

GST_CHECK_MAIN (cudamedian);
