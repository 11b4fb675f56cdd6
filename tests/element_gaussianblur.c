/* cudagaussianblur: its entry in the element-test harness (the shared
 * cases: element_harness.h). It has no tests of its own. */
#include "element_harness.h"
#include "gaussian.h"

/* The reference of a plane, as the element maps its properties: |sigma|
 * and the radius (ceil (3 sigma) when 0) divided by the subsampling, the
 * radius rounded up; a negative sigma sharpens. */
typedef struct
{
  gdouble sigma;
  gint radius;
} GaussianRef;

static CfStatus
reference (const CfPlane * src, const CfPlane * dst, const CfRefPlane * plane,
    gconstpointer params)
{
  const GaussianRef *g = params;
  CfGaussianParams p = { 0 };

  cf_ref_axis (fabs (g->sigma), g->radius, plane->w_sub,
      cf_gaussian_default_radius, &p.sigma_x, &p.radius_x);
  cf_ref_axis (fabs (g->sigma), g->radius, plane->h_sub,
      cf_gaussian_default_radius, &p.sigma_y, &p.radius_y);
  p.sharpen = g->sigma < 0;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return cf_gaussian_blur_ref (src, dst, &p);
}

static const CfRefCase ref_cases[] = {
  {"sigma=0.7", &(GaussianRef) {0.7, 0}},
  {"sigma=3", &(GaussianRef) {3.0, 0}},
  {"sigma=-1.5", &(GaussianRef) {-1.5, 0}},
  {NULL}
};

static const CfPropertyCase properties[] = {
  {"sigma", -40.0, 40.0, "-2.5"},
  {"radius", 0, CF_GAUSSIAN_MAX_RADIUS, "9"},
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
};

static Suite *
cudagaussianblur_suite (void)
{
  return cf_element_suite (&entry, NULL);
}

GST_CHECK_MAIN (cudagaussianblur);
