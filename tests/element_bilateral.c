/* cudabilateral: its entry in the element-test harness (the shared cases:
 * element_harness.h), and what is its own: colour distance and chroma
 * scaling. CUDA frames equal the CPU's within 1 LSB (exact mode) or nearly
 * so (separable: see tests/kernel_bilateral.c). */
#include "element_harness.h"
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

static Suite *
cudabilateral_suite (void)
{
  return cf_element_suite (&entry, CF_OWN_TEST (test_color_distance),
      CF_OWN_TEST (test_chroma_scaling), CF_OWN_TEST (test_deep_full_scale),
      NULL);
}

GST_CHECK_MAIN (cudabilateral);
