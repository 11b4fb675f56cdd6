/* cudabilateral: its entry in the element-test harness (the shared cases:
 * element_harness.h), and what is its own: colour distance and chroma
 * scaling. CUDA frames equal the CPU's within 1 LSB (exact mode) or nearly
 * so (separable: see tests/kernel_bilateral.c). */
#include "element_harness.h"
#include "element_side.h"
#include "bilateral.h"

#define ELEMENT "cudabilateral"

/* The reference of a plane, as the element maps its properties:
 * sigma-space and radius (ceil (2 sigma) when 0) divided by the
 * subsampling, the radius rounded up; the plane's colour channels. */
typedef struct
{
  gdouble sigma_space, sigma_range;
  gint radius;
  CfBilateralMode mode;
  CfBilateralDistance distance;
} BilateralRef;

static CfStatus
reference (const CfPlane * src, const CfPlane * dst, const CfRefPlane * plane,
    gconstpointer params)
{
  const BilateralRef *b = params;
  CfBilateralParams p = { 0 };

  cf_ref_axis (b->sigma_space, b->radius, plane->w_sub,
      cf_bilateral_default_radius, &p.sigma_x, &p.radius_x);
  cf_ref_axis (b->sigma_space, b->radius, plane->h_sub,
      cf_bilateral_default_radius, &p.sigma_y, &p.radius_y);
  p.sigma_range = b->sigma_range;
  p.mode = b->mode;
  p.distance = b->distance;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return cf_bilateral_ref (src, dst, &p);
}

/* With a guide: its first plane, read at each plane pixel's co-sited luma
 * pixel. */
typedef struct
{
  BilateralRef b;
  CfPlane guide;
} GuidedRef;

static CfStatus
guided_reference (const CfPlane * src, const CfPlane * dst,
    const CfRefPlane * plane, gconstpointer params)
{
  const GuidedRef *g = params;
  CfBilateralParams p = { 0 };

  cf_ref_axis (g->b.sigma_space, g->b.radius, plane->w_sub,
      cf_bilateral_default_radius, &p.sigma_x, &p.radius_x);
  cf_ref_axis (g->b.sigma_space, g->b.radius, plane->h_sub,
      cf_bilateral_default_radius, &p.sigma_y, &p.radius_y);
  p.sigma_range = g->b.sigma_range;
  p.mode = g->b.mode;
  p.distance = g->b.distance;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  p.guide = g->guide;
  p.guide_x_shift = plane->w_sub;
  p.guide_y_shift = plane->h_sub;
  return cf_bilateral_ref (src, dst, &p);
}

static const CfRefCase ref_cases[] = {
  {"sigma-space=0.8 sigma-range=0.05",
      &(BilateralRef) {0.8, 0.05, 0, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT}},
  {"sigma-space=3 sigma-range=0.2",
      &(BilateralRef) {3.0, 0.2, 0, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT}},
  {"sigma-space=2 sigma-range=0.1 radius=5 mode=separable",
        &(BilateralRef) {2.0, 0.1, 5, CF_BILATERAL_SEPARABLE,
          CF_BILATERAL_JOINT}},
  {NULL}
};

static const CfPropertyCase properties[] = {
  {"sigma-space", 0.0, 64.0, "4.5"},
  {"sigma-range", 0.0, 1.0, "0.25"},
  {"radius", 0, CF_BILATERAL_MAX_RADIUS, "9"},
  {"mode", 0, 0, "separable"},
  {"color-distance", 0, 0, "per-channel"},
  {"border-mode", 0, 0, "mirror"},
  {"guide-wait", 0, 0, "false", "true"},
  {NULL}
};

/* Exact (1 LSB) and separable (4), the colour distance alternating. */
static gchar *
cuda_props (guint format, guint size, guint k, gint * max_diff)
{
  *max_diff = k ? 4 : 1;
  return k > 1 ? NULL : g_strdup_printf ("sigma-space=2 sigma-range=0.1 "
      "mode=%s color-distance=%s", k ? "separable" : "exact",
      (format + size) & 1 ? "joint" : "per-channel");
}

/* Either mode, either colour distance, spatial sigmas of 0.5 to 6 with
 * their own radius or the default one, range sigmas of 0.02 to 0.5. */
static void
random_props (GRand * r, GstVideoFormat format, GString * s, gint * max_diff)
{
  gboolean separable = g_rand_int_range (r, 0, 3) == 0;

  *max_diff = separable ? 4 : 1;
  g_string_append_printf (s, "sigma-space=%.3f sigma-range=%.3f radius=%d "
      "mode=%s color-distance=%s", g_rand_double_range (r, 0.5, 6.0),
      g_rand_double_range (r, 0.02, 0.5),
      g_rand_boolean (r) ? 0 : g_rand_int_range (r, 1, 13),
      separable ? "separable" : "exact",
      g_rand_boolean (r) ? "joint" : "per-channel");
}

static const CfElementTest entry = {
  .name = ELEMENT,
  .props = "sigma-space=2 sigma-range=0.2",
  .identity = {"sigma-space=0", "sigma-range=0 radius=7"},
  .live_from = "sigma-range=0.2",
  .live_to = "sigma-space=3.5 sigma-range=0.4 mode=separable",
  .live_identity = "sigma-range=0",
  .reference = reference,
  .ref_cases = ref_cases,
  .ref_formats = (const gchar *[]) {"GRAY8", "GRAY16_LE",
      "I420_10LE", "P010_10LE", "YUY2", "UYVY", "YVYU", "v210", NULL},
  .ref_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {4097, 3}, {40, 41}, {0}},
  .properties = properties,
  .cuda_props = cuda_props,
  .random_props = random_props,
};

static gchar *
props_line (const BilateralRef * b)
{
  return g_strdup_printf ("sigma-space=%g sigma-range=%g radius=%d mode=%s "
      "color-distance=%s", b->sigma_space, b->sigma_range, b->radius,
      b->mode == CF_BILATERAL_SEPARABLE ? "separable" : "exact",
      b->distance == CF_BILATERAL_JOINT ? "joint" : "per-channel");
}

static void
check (GstVideoFormat format, const BilateralRef * b, guint32 seed)
{
  gchar *props = props_line (b);

  cf_check_reference (ELEMENT, props, format, 23, 11, CF_BORDER_CLAMP,
      reference, b, seed);
  g_free (props);
}

static const BilateralRef defaults = { 2.0, 0.1, 0, CF_BILATERAL_EXACT,
  CF_BILATERAL_JOINT
};

/* The colour distance reaches the filter, and the two differ on colour;
 * alpha is no colour channel, wherever it is. */
GST_START_TEST (test_color_distance)
{
  BilateralRef joint = defaults, per_channel = defaults;
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 23, 11, 0, 5);
  GstBuffer *a, *b;
  gchar *props, *launch;

  joint.sigma_range = per_channel.sigma_range = 0.3;
  per_channel.distance = CF_BILATERAL_PER_CHANNEL;
  check (GST_VIDEO_FORMAT_RGBA, &joint, 5);
  check (GST_VIDEO_FORMAT_RGBA, &per_channel, 5);
  check (GST_VIDEO_FORMAT_ARGB, &joint, 6);
  check (GST_VIDEO_FORMAT_AYUV, &per_channel, 7);

  props = props_line (&joint);
  launch = g_strdup_printf (ELEMENT " %s backend=cpu", props);
  a = cf_run_one (launch, "RGBA", 23, 11, in);
  g_free (props);
  g_free (launch);
  props = props_line (&per_channel);
  launch = g_strdup_printf (ELEMENT " %s backend=cpu", props);
  b = cf_run_one (launch, "RGBA", 23, 11, in);
  g_free (props);
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
  BilateralRef b = defaults;

  b.sigma_space = 3.0;
  b.sigma_range = 0.25;
  check (GST_VIDEO_FORMAT_I420, &b, 1);
  check (GST_VIDEO_FORMAT_Y42B, &b, 2);
  b.radius = 5;
  b.mode = CF_BILATERAL_SEPARABLE;
  check (GST_VIDEO_FORMAT_NV12, &b, 3);
  check (GST_VIDEO_FORMAT_Y444_16LE, &b, 4);
}

GST_END_TEST;

/* sigma-range is a fraction of the format's full scale: 10-bit luma in the
 * low bits (I420_10LE) and the same in the high bits (P010_10LE) filter
 * alike, within the rounding of the 10-bit result (32 in 16 bits). */
GST_START_TEST (test_deep_full_scale)
{
  const gchar *launch = ELEMENT " sigma-space=2 sigma-range=0.1 backend=cpu";
  GstBuffer *low = cf_random_frame (GST_VIDEO_FORMAT_I420_10LE, 23, 11, 0, 9);
  GstBuffer *high = cf_random_frame (GST_VIDEO_FORMAT_P010_10LE, 23, 11, 0, 9);
  GstBuffer *low_out, *high_out;
  GstVideoInfo li, hi;
  GstVideoFrame lf, hf;
  gint diff = 0;

  gst_video_info_set_format (&li, GST_VIDEO_FORMAT_I420_10LE, 23, 11);
  gst_video_info_set_format (&hi, GST_VIDEO_FORMAT_P010_10LE, 23, 11);
  fail_unless (gst_video_frame_map (&lf, &li, low, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&hf, &hi, high, GST_MAP_WRITE));
  for (gint y = 0; y < 11; y++)
    for (gint x = 0; x < 23; x++)
      ((guint16 *) ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&hf, 0) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&hf, 0)))[x] =
          ((const guint16 *) ((const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&lf,
                  0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&lf, 0)))[x] << 6;
  gst_video_frame_unmap (&lf);
  gst_video_frame_unmap (&hf);

  low_out = cf_run_one (launch, "I420_10LE", 23, 11, low);
  high_out = cf_run_one (launch, "P010_10LE", 23, 11, high);
  fail_unless (gst_video_frame_map (&lf, &li, low_out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&hf, &hi, high_out, GST_MAP_READ));
  for (gint y = 0; y < 11; y++)
    for (gint x = 0; x < 23; x++) {
      gint l = ((const guint16 *) ((const guint8 *)
              GST_VIDEO_FRAME_PLANE_DATA (&lf, 0) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&lf, 0)))[x];
      gint h = ((const guint16 *) ((const guint8 *)
              GST_VIDEO_FRAME_PLANE_DATA (&hf, 0) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&hf, 0)))[x];
      fail_unless (h <= 0xffc0, "P010 sample 0x%x out of range", h);
      diff = MAX (diff, ABS (h - (l << 6)));
    }
  fail_unless (diff <= 32, "P010 luma %d from I420_10LE's x 64", diff);
  gst_video_frame_unmap (&lf);
  gst_video_frame_unmap (&hf);
  gst_buffer_unref (low);
  gst_buffer_unref (high);
  gst_buffer_unref (low_out);
  gst_buffer_unref (high_out);
}

GST_END_TEST;

/* The guide_sink pad: the shared two-input checks (element_side.h). */
#define GUIDE_PROPS "sigma-space=1.5 sigma-range=0.1 backend=cpu"

static GstBuffer *
guided_expected (GstBuffer * in, GstBuffer * side, const gchar * format,
    const gchar * side_format, gint w, gint h, CfBilateralDistance distance)
{
  GuidedRef ref = { {1.5, 0.1, 0, CF_BILATERAL_EXACT, distance} };
  GstVideoFormat f = gst_video_format_from_string (format);
  GstVideoInfo info;
  GstVideoFrame guide;
  GstBuffer *out;

  if (!side)
    return cf_reference_frame (in, f, w, h, CF_BORDER_CLAMP, reference, &ref.b);
  gst_video_info_set_format (&info, gst_video_format_from_string
      (side_format), w, h);
  fail_unless (gst_video_frame_map (&guide, &info, side, GST_MAP_READ));
  ref.guide = cf_frame_plane (&guide, 0);
  out = cf_reference_frame (in, f, w, h, CF_BORDER_CLAMP, guided_reference,
      &ref);
  gst_video_frame_unmap (&guide);
  return out;
}

static GstBuffer *
i420_expected (GstBuffer * in, GstBuffer * side)
{
  return guided_expected (in, side, "I420", "GRAY8", 37, 23,
      CF_BILATERAL_JOINT);
}

static GstBuffer *
rgba_expected (GstBuffer * in, GstBuffer * side)
{
  return guided_expected (in, side, "RGBA", "RGBA", 29, 16,
      CF_BILATERAL_PER_CHANNEL);
}

static GstBuffer *
gray16_expected (GstBuffer * in, GstBuffer * side)
{
  return guided_expected (in, side, "GRAY16_LE", "GRAY8", 33, 18,
      CF_BILATERAL_JOINT);
}

static const CfSideTest side_i420 = {
  ELEMENT " " GUIDE_PROPS, "guide-wait", "guide_sink", "I420", "GRAY8", 37,
  23, i420_expected
};

GST_START_TEST (test_guide_pairing)
{
  static const CfSideTest rgba = {
    ELEMENT " " GUIDE_PROPS " color-distance=per-channel", "guide-wait",
    "guide_sink", "RGBA", "RGBA", 29, 16, rgba_expected
  };
  static const CfSideTest gray16 = {
    ELEMENT " " GUIDE_PROPS, "guide-wait", "guide_sink", "GRAY16_LE",
    "GRAY8", 33, 18, gray16_expected
  };

  cf_side_check_pairing (&side_i420);
  cf_side_check_pairing (&rgba);
  cf_side_check_pairing (&gray16);
}

GST_END_TEST;

GST_START_TEST (test_guide_wait_and_flush)
{
  cf_side_check_wait_and_flush (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_guide_eos)
{
  cf_side_check_eos (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_guide_caps_refused)
{
  cf_side_check_caps_refused (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_without_guide)
{
  cf_side_check_without_side (&side_i420);
}

GST_END_TEST;

/* A guide equal to the frame gives the plain filter exactly, in both
 * colour distances (single-plane formats). */
GST_START_TEST (test_guide_equal_to_frame)
{
  static const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "RGBA",
    "AYUV"
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint d = 0; d < 2; d++) {
      gchar *launch = g_strdup_printf (ELEMENT " sigma-space=2 "
          "sigma-range=0.15 color-distance=%s backend=cpu",
          d ? "per-channel" : "joint");
      gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=31,"
          "height=17,framerate=30/1", formats[f]);
      GstVideoFormat format = gst_video_format_from_string (formats[f]);
      GstBuffer *in = cf_random_frame (format, 31, 17, 0, 70 + f);
      GstBuffer *plain = cf_run_one (launch, formats[f], 31, 17, in);
      GstElement *e = gst_parse_launch (launch, NULL);
      GstHarness *m = gst_harness_new_with_element (e, "sink", "src");
      GstHarness *g = gst_harness_new_with_element (e, "guide_sink", NULL);
      GstBuffer *out;

      gst_harness_set_caps_str (m, caps, caps);
      gst_harness_set_src_caps_str (g, caps);
      GST_BUFFER_PTS (in) = 0;
      GST_BUFFER_DURATION (in) = GST_SECOND;
      fail_unless_equals_int (gst_harness_push (g, gst_buffer_ref (in)),
          GST_FLOW_OK);
      out = gst_harness_push_and_pull (m, gst_buffer_ref (in));
      fail_unless_equals_int (cf_frames_max_diff (out, plain, format, 31, 17),
          0);
      gst_buffer_unref (out);
      gst_harness_teardown (g);
      gst_harness_teardown (m);
      gst_object_unref (e);
      gst_buffer_unref (plain);
      gst_buffer_unref (in);
      g_free (caps);
      g_free (launch);
    }
}

GST_END_TEST;

GST_START_TEST (test_guide_latency)
{
  cf_side_check_latency (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_guide_in_a_region)
{
  cf_side_check_region (&side_i420);
}

GST_END_TEST;

static Suite *
cudabilateral_suite (void)
{
  return cf_element_suite (&entry, CF_OWN_TEST (test_color_distance),
      CF_OWN_TEST (test_chroma_scaling), CF_OWN_TEST (test_deep_full_scale),
      CF_OWN_TEST (test_guide_pairing), CF_OWN_TEST (test_guide_wait_and_flush),
      CF_OWN_TEST (test_guide_eos), CF_OWN_TEST (test_guide_caps_refused),
      CF_OWN_TEST (test_without_guide), CF_OWN_TEST (test_guide_equal_to_frame),
      CF_OWN_TEST (test_guide_latency), CF_OWN_TEST (test_guide_in_a_region),
      NULL);
}

GST_CHECK_MAIN (cudabilateral);
