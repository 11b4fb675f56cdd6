/* cudagaussianblur: its entry in the element-test harness (the shared
 * cases: element_harness.h), and sigma setting sigma-x and sigma-y. */
#include "element_harness.h"
#include "gaussian.h"

/* The reference of a plane, as the element maps its properties: each
 * axis's sigma and the radius (ceil (3 sigma) when 0) divided by the
 * subsampling, the radius rounded up, 0 where that sigma is 0; a negative
 * sigma sharpens by amount (1 when 0 here) above threshold. */
typedef struct
{
  gdouble sigma;
  gint radius;
  gdouble sigma_x, sigma_y;     /* 0 and 0: |sigma| */
  gdouble amount, threshold;
} GaussianRef;

static void
axis (gdouble sigma, gint radius, guint sub, double *sigma_out, int *radius_out)
{
  cf_ref_axis (sigma, radius, sub, cf_gaussian_default_radius, sigma_out,
      radius_out);
  if (sigma == 0.0)
    *radius_out = 0;
}

static CfStatus
reference (const CfPlane * src, const CfPlane * dst, const CfRefPlane * plane,
    gconstpointer params)
{
  const GaussianRef *g = params;
  CfGaussianParams p = { 0 };

  gboolean both = g->sigma_x == 0.0 && g->sigma_y == 0.0;

  axis (both ? fabs (g->sigma) : g->sigma_x, g->radius, plane->w_sub,
      &p.sigma_x, &p.radius_x);
  axis (both ? fabs (g->sigma) : g->sigma_y, g->radius, plane->h_sub,
      &p.sigma_y, &p.radius_y);
  p.sharpen = g->sigma < 0 ? (g->amount ? g->amount : 1.0) : 0.0;
  p.threshold = g->threshold;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return cf_gaussian_blur_ref (src, dst, &p);
}

static const CfRefCase ref_cases[] = {
  {"sigma=0.7", &(GaussianRef) {0.7, 0}},
  {"sigma=3", &(GaussianRef) {3.0, 0}},
  {"sigma=-1.5", &(GaussianRef) {-1.5, 0}},
  /* the window path (radius 24 and up) */
  {"sigma=8", &(GaussianRef) {8.0, 0}},
  {"sigma=1 sigma-x=9 sigma-y=0.6", &(GaussianRef) {1.0, 0, 9.0, 0.6}},
  {"sigma=1 sigma-y=0", &(GaussianRef) {1.0, 0, 1.0, 0.0}},
  {"sigma=-2 amount=0.6 threshold=0.03",
      &(GaussianRef) {-2.0, 0, 0, 0, 0.6, 0.03}},
  {NULL}
};

static const CfPropertyCase properties[] = {
  {"sigma", -100.0, 100.0, "-2.5", "1.2"},
  {"sigma-x", 0.0, 100.0, "7.5", "1.2"},
  {"sigma-y", 0.0, 100.0, "0.5", "1.2"},
  {"radius", 0, CF_GAUSSIAN_MAX_RADIUS, "9"},
  {"amount", 0.0, 10.0, "2.5", "1"},
  {"threshold", 0.0, 1.0, "0.25", "0"},
  {NULL}
};

/* Exact within 1 LSB: sizes of odd index blur, the others sharpen. */
static gchar *
cuda_props (guint format, guint size, guint k, gint * max_diff)
{
  *max_diff = 1;
  return k ? NULL : g_strdup (size % 2 ? "sigma=2.5" :
      "sigma=-1.5 border-mode=mirror");
}

/* Sigmas across every path (small masks to multi-rate), sometimes
 * anisotropic, with a radius of its own, or sharpening. */
static void
random_props (GRand * r, GstVideoFormat format, GString * s, gint * max_diff)
{
  static const gdouble sigmas[] = { 0.5, 0.8, 1.0, 1.5, 2.5, 4.0, 7.0, 12.0,
    25.0, 60.0
  };
  gdouble sigma = sigmas[g_rand_int_range (r, 0, G_N_ELEMENTS (sigmas))] *
      g_rand_double_range (r, 0.8, 1.25);

  *max_diff = 1;
  switch (g_rand_int_range (r, 0, 4)) {
    case 0:
      g_string_append_printf (s, "sigma-x=%.3f sigma-y=%.3f", sigma,
          g_rand_boolean (r) ? 0.0 : sigmas[g_rand_int_range (r, 0, 8)]);
      break;
    case 1:{
      /* as the launch line gives them */
      gdouble amount = round (g_rand_double_range (r, 0.0, 3.0) * 100) / 100;
      gdouble threshold = g_rand_boolean (r) ? 0.0 :
          round (g_rand_double_range (r, 0.0, 0.2) * 1000) / 1000;
      const GstVideoFormatInfo *info = gst_video_format_get_info (format);
      gint full = (1 << GST_VIDEO_FORMAT_INFO_DEPTH (info, 0)) - 1;

      g_string_append_printf (s, "sigma=%.3f amount=%.2f threshold=%.3f",
          -MIN (sigma, 8.0), amount, threshold);
      /* a sample whose detail lies at the threshold (within the blurs'
       * rounding) is sharpened on one side and left alone on the other:
       * it moves by amount x threshold, as in kernel_gaussian (amount 0
       * sharpens by 1) */
      if (threshold > 0.0)
        *max_diff += (gint) ceil ((amount > 0.0 ? amount : 1.0) * threshold *
            full);
      break;
    }
    case 2:
      g_string_append_printf (s, "sigma=%.3f radius=%d", sigma,
          g_rand_int_range (r, 1, (gint) (3.0 * sigma) + 2));
      break;
    default:
      g_string_append_printf (s, "sigma=%.3f", sigma);
      break;
  }
}

static const CfElementTest entry = {
  .name = "cudagaussianblur",
  .props = "sigma=2",
  .identity = {"sigma=0"},
  .live_from = "sigma=1",.live_to = "sigma=4",.live_identity = "sigma=0",
  .reference = reference,
  .ref_cases = ref_cases,
  .ref_formats = (const gchar *[]) {"GRAY8", "GRAY16_LE",
      "I420_10LE", "P010_10LE", "YUY2", "UYVY", "YVYU", "v210", NULL},
  .ref_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {4097, 9}, {64, 65}, {0}},
  .properties = properties,
  .cuda_props = cuda_props,
  .random_props = random_props,
};

GST_START_TEST (test_sigma_sets_both)
{
  GstElement *e = gst_element_factory_make ("cudagaussianblur", NULL);
  gdouble x, y;

  fail_unless (e != NULL);
  g_object_set (e, "sigma-x", 4.0, "sigma-y", 2.0, NULL);
  g_object_get (e, "sigma-x", &x, "sigma-y", &y, NULL);
  fail_unless (x == 4.0 && y == 2.0);
  g_object_set (e, "sigma", -3.0, NULL);
  g_object_get (e, "sigma-x", &x, "sigma-y", &y, NULL);
  fail_unless (x == 3.0 && y == 3.0, "sigma=-3 gave sigma-x %g sigma-y %g",
      x, y);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
cudagaussianblur_suite (void)
{
  return cf_element_suite (&entry, CF_OWN_TEST (test_sigma_sets_both), NULL);
}

GST_CHECK_MAIN (cudagaussianblur);
