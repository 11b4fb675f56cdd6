/* Element tests for cudasatblur, on the CPU backend everywhere and, where a
 * GPU is present, the CUDA backend against the CPU one (bit for bit). */
#include "element_util.h"
#include "satblur.h"

#define ELEMENT "cudasatblur"

/* The expected output of a frame whose planes hold colour samples only
 * (GRAY, I420, NV12, Y444...), from the reference, radii scaled by each
 * plane's subsampling as the element does. */
static GstBuffer *
expected (GstBuffer * in, GstVideoFormat format, gint w, gint h, gint rx,
    gint ry, gint passes, CfBorder border)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;

  gst_video_info_set_format (&info, format, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    CfPlane src = cf_frame_plane (&fin, p), dst = cf_frame_plane (&fout, p);
    guint ws = 0, hs = 0;
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info); c++)
      if (GST_VIDEO_INFO_COMP_PLANE (&info, c) == p) {
        ws = GST_VIDEO_FORMAT_INFO_W_SUB (info.finfo, c);
        hs = GST_VIDEO_FORMAT_INFO_H_SUB (info.finfo, c);
      }
    CfSatBlurParams prm = { (rx + (1 << ws) - 1) >> ws,
      (ry + (1 << hs) - 1) >> hs, passes, border,
      CF_ALL_CHANNELS (src.channels)
    };
    fail_unless (cf_satblur_ref (&src, &dst, &prm) == CF_OK);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

static gchar *
props_line (gint rx, gint ry, gint passes, CfBorder border)
{
  return g_strdup_printf ("radius-x=%d radius-y=%d passes=%d border-mode=%s",
      rx, ry, passes, border == CF_BORDER_MIRROR ? "mirror" : "clamp");
}

static gchar *
launch_line (const gchar * backend, gint rx, gint ry, gint passes,
    CfBorder border)
{
  gchar *props = props_line (rx, ry, passes, border);
  gchar *line = g_strdup_printf (ELEMENT " %s backend=%s", props, backend);

  g_free (props);
  return line;
}

GST_START_TEST (test_matches_reference_at_odd_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 9}, {64, 65} };
  /* -1: larger than the frame */
  static const gint radii[][2] = { {1, 0}, {2, 3}, {-1, 5}, {-1, -1} };
  static const gchar *formats[] = { "GRAY8", "GRAY16_LE", "I420", "NV12" };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
        gint w = sizes[s][0], h = sizes[s][1], big = 2 * MAX (w, h) + 1;
        gint rx = radii[r][0] < 0 ? big : radii[r][0];
        gint ry = radii[r][1] < 0 ? big : radii[r][1];
        gint passes = 1 + (s + r + f) % 3;
        CfBorder border = (s + f) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP;
        GstVideoFormat fmt = gst_video_format_from_string (formats[f]);
        gchar *launch = launch_line ("cpu", rx, ry, passes, border);
        GstBuffer *in = cf_random_frame (fmt, w, h, 0, s * 100 + r * 10 + f);
        GstBuffer *out = cf_run_one (launch, formats[f], w, h, in);
        GstBuffer *exp = expected (in, fmt, w, h, rx, ry, passes, border);

        fail_unless_equals_int (cf_frames_max_diff (out, exp, fmt, w, h), 0);
        gst_buffer_unref (in);
        gst_buffer_unref (out);
        gst_buffer_unref (exp);
        g_free (launch);
      }
}

GST_END_TEST;

/* Independent of the reference: a box mean of a constant is that constant,
 * whatever the radius, border or passes. */
GST_START_TEST (test_constant_frame_stays_constant)
{
  static const gint radii[] = { 1, 6, 40 };

  for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
    for (gint b = 0; b < 2; b++) {
      gchar *launch = launch_line ("cpu", radii[r], radii[r] / 2 + 1, 3,
          b ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
      /* 20 samples of 16 bits: rows without padding. */
      GstBuffer *in = gst_buffer_new_allocate (NULL, 20 * 11 * 2, NULL);
      GstBuffer *out;
      GstMapInfo map;

      gst_buffer_memset (in, 0, 0xAB, 20 * 11 * 2);
      out = cf_run_one (launch, "GRAY16_LE", 20, 11, in);
      fail_unless_equals_int (gst_buffer_get_size (out), 20 * 11 * 2);
      fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
      for (gsize i = 0; i < map.size; i++)
        fail_unless_equals_int (map.data[i], 0xAB);
      gst_buffer_unmap (out, &map);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      g_free (launch);
    }
}

GST_END_TEST;

/* One axis at 0 still blurs the other (both at 0 pass buffers through:
 * element_common.c). */
GST_START_TEST (test_one_radius_zero_still_blurs)
{
  GstHarness *hrn = cf_harness_new (ELEMENT " radius-x=0 radius-y=1 passes=3 "
      "backend=cpu", "RGBA", 16, 8);
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 16, 8, 0, 1);
  GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));

  fail_unless (out != in);
  fail_unless (cf_frames_max_diff (in, out, GST_VIDEO_FORMAT_RGBA, 16, 8) > 0);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  const gchar *names[] = { "radius-x", "radius-y", "passes" };
  const gint max[] = { CF_SATBLUR_MAX_RADIUS, CF_SATBLUR_MAX_RADIUS, 3 };
  const gint min[] = { 0, 0, 1 };
  GValue v = G_VALUE_INIT;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    GParamSpec *spec = g_object_class_find_property (klass, names[i]);
    fail_unless (spec != NULL, "%s missing", names[i]);
    fail_unless (spec->flags & GST_PARAM_CONTROLLABLE);
    fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING);
    fail_unless_equals_int (G_PARAM_SPEC_INT (spec)->minimum, min[i]);
    fail_unless_equals_int (G_PARAM_SPEC_INT (spec)->maximum, max[i]);
    /* Out-of-range values are clamped by the spec, never stored as is. */
    g_value_init (&v, G_TYPE_INT);
    g_value_set_int (&v, 100000);
    fail_unless (g_param_value_validate (spec, &v));
    fail_unless_equals_int (g_value_get_int (&v), max[i]);
    g_value_unset (&v);
  }
  fail_unless (g_object_class_find_property (klass, "border-mode") != NULL);

  g_object_set (e, "radius-x", 500, "radius-y", 7, "passes", 3, NULL);
  gint rx, ry, passes;
  g_object_get (e, "radius-x", &rx, "radius-y", &ry, "passes", &passes, NULL);
  fail_unless_equals_int (rx, 500);
  fail_unless_equals_int (ry, 7);
  fail_unless_equals_int (passes, 3);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_sigma_of_passes)
{
  /* sigma^2 = passes ((2r+1)^2 - 1) / 12: r = 1, one pass: 8/12. */
  fail_unless (fabs (cf_satblur_sigma (1, 1) - sqrt (8.0 / 12.0)) < 1e-12);
  fail_unless (fabs (cf_satblur_sigma (2, 3) - sqrt (6.0)) < 1e-12);
  fail_unless (cf_satblur_sigma (0, 3) == 0.0);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error; with
 * one, its frames equal the CPU reference's exactly. */
GST_START_TEST (test_cuda_backend)
{
  if (!cf_have_gpu ())
    return;                     /* element_common.c checks the error */

  static const gchar *formats[] = { "RGBA", "NV12", "I420", "GRAY16_LE",
    "GRAY8", "AYUV", "Y444_16LE", "BGR", "RGBx"
  };
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 9}, {640, 361} };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gint w = sizes[s][0], h = sizes[s][1];
      gint rx = s == 1 ? 20 : 5 + 30 * (gint) s, ry = 3 * (gint) i;
      gint passes = 1 + (i + s) % 3;
      CfBorder border = (i + s) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP;
      gchar *props = props_line (rx, ry, passes, border);

      fail_unless_equals_int (cf_cuda_vs_cpu (ELEMENT, props, formats[i], w, h,
              s == 3 ? 40 : 0, i), 0);
      g_free (props);
    }
}

GST_END_TEST;

static Suite *
cudasatblur_suite (void)
{
  Suite *s = suite_create (ELEMENT);
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_matches_reference_at_odd_sizes);
  tcase_add_test (tc, test_constant_frame_stays_constant);
  tcase_add_test (tc, test_one_radius_zero_still_blurs);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_sigma_of_passes);
  tcase_add_test (tc, test_cuda_backend);
  return s;
}

GST_CHECK_MAIN (cudasatblur);
