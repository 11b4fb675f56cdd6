/* Element tests for cudabilateral, on the CPU backend everywhere and, where
 * a GPU is present, the CUDA backend against the CPU one. */
#include "element_util.h"
#include "bilateral.h"

#define ELEMENT "cudabilateral"

typedef struct
{
  gdouble sigma_space, sigma_range;
  gint radius;
  CfBilateralMode mode;
  CfBilateralDistance distance;
  CfBorder border;
} Props;

static gchar *
props_line (const Props * p)
{
  return g_strdup_printf ("sigma-space=%g sigma-range=%g radius=%d mode=%s "
      "color-distance=%s border-mode=%s", p->sigma_space, p->sigma_range,
      p->radius, p->mode == CF_BILATERAL_SEPARABLE ? "separable" : "exact",
      p->distance == CF_BILATERAL_JOINT ? "joint" : "per-channel",
      p->border == CF_BORDER_MIRROR ? "mirror" : "clamp");
}

static gchar *
launch_line (const Props * p, const gchar * backend)
{
  gchar *props = props_line (p);
  gchar *line = g_strdup_printf (ELEMENT " %s backend=%s", props, backend);

  g_free (props);
  return line;
}

/* An axis of a plane subsampled by 2^sub, written out independently of the
 * element: sigma / 2^sub, and the radius rounded up (or ceil (2 sigma)). */
static void
axis (const Props * p, guint sub, gdouble * sigma, gint * radius)
{
  *sigma = p->sigma_space / (1 << sub);
  *radius = p->radius > 0 ? (p->radius + (1 << sub) - 1) / (1 << sub) :
      cf_bilateral_default_radius (*sigma);
}

/* The expected frame, plane by plane from the reference; `mask` is the
 * colour channels of a multi-channel plane (one-channel planes: 1). */
static GstBuffer *
expected (GstBuffer * in, GstVideoFormat format, gint w, gint h,
    const Props * props, guint mask)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);

  gst_video_info_set_format (&info, format, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    CfPlane src = cf_frame_plane (&fin, p), dst = cf_frame_plane (&fout, p);
    guint comp = 0;
    CfBilateralParams bp = { 0 };

    while (GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp) != p)
      comp++;
    axis (props, GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp), &bp.sigma_x,
        &bp.radius_x);
    axis (props, GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp), &bp.sigma_y,
        &bp.radius_y);
    bp.sigma_range = props->sigma_range;
    bp.mode = props->mode;
    bp.distance = props->distance;
    bp.border = props->border;
    bp.channel_mask = src.channels == 1 ? 1 : mask;
    fail_unless (cf_bilateral_ref (&src, &dst, &bp) == CF_OK);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

/* Runs the element with props on a random frame and checks it against the
 * reference, exactly (the CPU backend is the reference). */
static void
check_against_reference (GstVideoFormat f, gint w, gint h, const Props * p,
    guint mask, guint seed)
{
  gchar *launch = launch_line (p, "cpu");
  GstBuffer *in = cf_random_frame (f, w, h, 0, seed);
  GstBuffer *out =
      cf_run_one (launch, gst_video_format_to_string (f), w, h, in);
  GstBuffer *exp = expected (in, f, w, h, p, mask);

  fail_unless_equals_int (cf_frames_max_diff (out, exp, f, w, h), 0);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_buffer_unref (exp);
  g_free (launch);
}

static const Props defaults = { 2.0, 0.1, 0, CF_BILATERAL_EXACT,
  CF_BILATERAL_JOINT, CF_BORDER_CLAMP
};

GST_START_TEST (test_matches_reference_at_odd_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 3}, {40, 41} };
  static const Props props[] = {
    {0.8, 0.05, 0, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT, CF_BORDER_CLAMP},
    {3.0, 0.2, 0, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT, CF_BORDER_MIRROR},
    {2.0, 0.1, 5, CF_BILATERAL_SEPARABLE, CF_BILATERAL_JOINT,
        CF_BORDER_CLAMP},
  };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint g = 0; g < G_N_ELEMENTS (props); g++)
      for (guint d = 0; d < 2; d++)
        check_against_reference (d ? GST_VIDEO_FORMAT_GRAY16_LE :
            GST_VIDEO_FORMAT_GRAY8, sizes[s][0], sizes[s][1], &props[g], 1,
            s * 10 + g);
}

GST_END_TEST;

/* The colour distance reaches the filter, and the two differ on colour. */
GST_START_TEST (test_color_distance)
{
  Props joint = defaults, per_channel = defaults;
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 23, 11, 0, 5);
  GstBuffer *a, *b;
  gchar *launch;

  joint.sigma_range = per_channel.sigma_range = 0.3;
  per_channel.distance = CF_BILATERAL_PER_CHANNEL;
  check_against_reference (GST_VIDEO_FORMAT_RGBA, 23, 11, &joint, 0x7, 5);
  check_against_reference (GST_VIDEO_FORMAT_RGBA, 23, 11, &per_channel, 0x7, 5);
  check_against_reference (GST_VIDEO_FORMAT_ARGB, 23, 11, &joint, 0xE, 6);
  check_against_reference (GST_VIDEO_FORMAT_AYUV, 23, 11, &per_channel, 0xE, 7);

  launch = launch_line (&joint, "cpu");
  a = cf_run_one (launch, "RGBA", 23, 11, in);
  g_free (launch);
  launch = launch_line (&per_channel, "cpu");
  b = cf_run_one (launch, "RGBA", 23, 11, in);
  g_free (launch);
  fail_unless (cf_frames_max_diff (a, b, GST_VIDEO_FORMAT_RGBA, 23, 11) > 0);
  gst_buffer_unref (in);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
}

GST_END_TEST;

/* Subsampled chroma planes get sigma-space and radius divided by their
 * subsampling (I420: both axes, Y42B: horizontal only, NV12: joint UV). */
GST_START_TEST (test_chroma_scaling)
{
  Props p = defaults;

  p.sigma_space = 3.0;
  p.sigma_range = 0.25;
  check_against_reference (GST_VIDEO_FORMAT_I420, 37, 21, &p, 1, 1);
  check_against_reference (GST_VIDEO_FORMAT_Y42B, 37, 21, &p, 1, 2);
  p.radius = 5;
  p.mode = CF_BILATERAL_SEPARABLE;
  check_against_reference (GST_VIDEO_FORMAT_NV12, 37, 21, &p, 0x3, 3);
  check_against_reference (GST_VIDEO_FORMAT_Y444_16LE, 37, 21, &p, 1, 4);
}

GST_END_TEST;

static void
check_live_double (GParamSpec * spec, gdouble min, gdouble max)
{
  fail_unless (spec != NULL);
  fail_unless (spec->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (spec)->minimum, min);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (spec)->maximum, max);
}

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  static const gchar *live[] = { "sigma-space", "sigma-range", "radius",
    "mode", "color-distance", "border-mode"
  };
  GParamSpec *radius = g_object_class_find_property (klass, "radius");
  GValue v = G_VALUE_INIT;

  for (guint i = 0; i < G_N_ELEMENTS (live); i++) {
    GParamSpec *spec = g_object_class_find_property (klass, live[i]);
    fail_unless (spec != NULL, "no property %s", live[i]);
    fail_unless (spec->flags & GST_PARAM_CONTROLLABLE, "%s", live[i]);
    fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING, "%s", live[i]);
  }
  check_live_double (g_object_class_find_property (klass, "sigma-space"), 0.0,
      64.0);
  check_live_double (g_object_class_find_property (klass, "sigma-range"), 0.0,
      1.0);
  fail_unless_equals_int (G_PARAM_SPEC_INT (radius)->minimum, 0);
  fail_unless_equals_int (G_PARAM_SPEC_INT (radius)->maximum,
      CF_BILATERAL_MAX_RADIUS);

  /* An out-of-range value is clamped by the spec, never stored as is. */
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 2.0);
  fail_unless (g_param_value_validate (g_object_class_find_property (klass,
              "sigma-range"), &v));
  fail_unless_equals_float (g_value_get_double (&v), 1.0);
  g_value_unset (&v);

  gst_util_set_object_arg (G_OBJECT (e), "mode", "separable");
  gst_util_set_object_arg (G_OBJECT (e), "color-distance", "per-channel");
  g_object_set (e, "sigma-space", 4.5, "sigma-range", 0.25, "radius", 9, NULL);
  gdouble ss, sr;
  gint r, mode, distance;
  g_object_get (e, "sigma-space", &ss, "sigma-range", &sr, "radius", &r,
      "mode", &mode, "color-distance", &distance, NULL);
  fail_unless_equals_float (ss, 4.5);
  fail_unless_equals_float (sr, 0.25);
  fail_unless_equals_int (r, 9);
  fail_unless_equals_int (mode, CF_BILATERAL_SEPARABLE);
  fail_unless_equals_int (distance, CF_BILATERAL_PER_CHANNEL);
  gst_object_unref (e);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error; with
 * one, its frames equal the CPU reference's within 1 LSB (exact mode) or
 * nearly so (separable: see tests/kernel_bilateral.c). */
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
      for (guint m = 0; m < 2; m++) {
        gint w = sizes[s][0], h = sizes[s][1];
        Props p = defaults;
        p.mode = m;
        p.distance = (i + s) & 1;
        gchar *props = props_line (&p);

        fail_unless (cf_cuda_vs_cpu (ELEMENT, props, formats[i], w, h,
                s == 3 ? 40 : 0, i) <= (m ? 4 : 1),
            "%s %dx%d %s: CUDA and CPU differ too much", formats[i], w, h,
            m ? "separable" : "exact");
        g_free (props);
      }
}

GST_END_TEST;

static Suite *
cudabilateral_suite (void)
{
  Suite *s = suite_create (ELEMENT);
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_matches_reference_at_odd_sizes);
  tcase_add_test (tc, test_color_distance);
  tcase_add_test (tc, test_chroma_scaling);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_cuda_backend);
  return s;
}

GST_CHECK_MAIN (cudabilateral);
