/* Element tests for cudagaussianblur, on the CPU backend everywhere and, where
 * a GPU is present, the CUDA backend against the CPU one. */
#include "element_util.h"
#include "gaussian.h"

#define ELEMENT "cudagaussianblur"

/* The expected output of a one-plane frame, from the reference. */
static GstBuffer *
expected_gray (GstBuffer * in, GstVideoFormat format, gint w, gint h,
    gdouble sigma, CfBorder border)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;
  gint r = cf_gaussian_default_radius (sigma);
  CfGaussianParams p = { fabs (sigma), fabs (sigma), r, r, sigma < 0,
    border, 1
  };

  gst_video_info_set_format (&info, format, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  CfPlane src = cf_frame_plane (&fin, 0), dst = cf_frame_plane (&fout, 0);
  fail_unless (cf_gaussian_blur_ref (&src, &dst, &p) == CF_OK);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

GST_START_TEST (test_matches_reference_at_odd_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 9}, {64, 65} };
  static const gdouble sigmas[] = { 0.7, 3.0, -1.5 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint g = 0; g < G_N_ELEMENTS (sigmas); g++)
      for (guint d = 0; d < 2; d++) {
        gint w = sizes[s][0], h = sizes[s][1];
        GstVideoFormat f = d ? GST_VIDEO_FORMAT_GRAY16_LE :
            GST_VIDEO_FORMAT_GRAY8;
        gchar *launch = g_strdup_printf (ELEMENT " backend=cpu sigma=%g "
            "border-mode=%s", sigmas[g], g == 1 ? "mirror" : "clamp");
        GstBuffer *in = cf_random_frame (f, w, h, 0, s * 10 + g);
        GstBuffer *out = cf_run_one (launch, gst_video_format_to_string (f), w,
            h, in);
        GstBuffer *exp = expected_gray (in, f, w, h, sigmas[g],
            g == 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);

        fail_unless_equals_int (cf_frames_max_diff (out, exp, f, w, h), 0);
        gst_buffer_unref (in);
        gst_buffer_unref (out);
        gst_buffer_unref (exp);
        g_free (launch);
      }
}

GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GParamSpec *sigma = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "sigma");
  GParamSpec *radius = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "radius");
  GValue v = G_VALUE_INIT;

  fail_unless (sigma && radius);
  fail_unless (sigma->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (sigma->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (sigma)->minimum, -40.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (sigma)->maximum, 40.0);
  fail_unless_equals_int (G_PARAM_SPEC_INT (radius)->maximum,
      CF_GAUSSIAN_MAX_RADIUS);
  /* An out-of-range value is clamped by the spec, never stored as is. */
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 1000.0);
  fail_unless (g_param_value_validate (sigma, &v));
  fail_unless_equals_float (g_value_get_double (&v), 40.0);
  g_value_unset (&v);

  g_object_set (e, "sigma", -2.5, "radius", 9, NULL);
  gdouble s;
  gint r;
  g_object_get (e, "sigma", &s, "radius", &r, NULL);
  fail_unless_equals_float (s, -2.5);
  fail_unless_equals_int (r, 9);
  gst_object_unref (e);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error; with
 * one, its frames equal the CPU reference's within 1 LSB. */
GST_START_TEST (test_cuda_backend)
{
  if (!cf_have_gpu ())
    return;                     /* element_common.c checks the error */

  static const gchar *formats[] = { "RGBA", "NV12", "I420", "GRAY16_LE",
    "GRAY8", "AYUV", "Y444_16LE", "BGR"
  };
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 9}, {640, 361} };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      fail_unless (cf_cuda_vs_cpu (ELEMENT, s % 2 ? "sigma=2.5" :
              "sigma=-1.5 border-mode=mirror", formats[i], sizes[s][0],
              sizes[s][1], s == 3 ? 40 : 0, i) <= 1,
          "%s %dx%d: CUDA and CPU differ by more than 1", formats[i],
          sizes[s][0], sizes[s][1]);
}

GST_END_TEST;

static Suite *
cudagaussianblur_suite (void)
{
  Suite *s = suite_create (ELEMENT);
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_matches_reference_at_odd_sizes);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_cuda_backend);
  return s;
}

GST_CHECK_MAIN (cudagaussianblur);
