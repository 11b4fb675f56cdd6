/* cudamedian: its entry in the element-test harness (the shared cases:
 * element_harness.h; its property entries check that even sizes round up),
 * and what is its own: chroma windows, luma-only. CUDA frames equal the
 * CPU's bit for bit. */
#include "element_harness.h"
#include "median.h"

#define ELEMENT "cudamedian"

/* The reference of a plane: a square window of `radius` when it is set,
 * else as the element maps `size` (or `width` x `height` where width is
 * set): size / 2 divided by the subsampling, rounded up. Only plane `plane`
 * when `one_plane` (the others copied). */
typedef struct
{
  gint size, iterations;
  CfMedianMode mode;
  gint radius;
  gboolean one_plane;
  guint plane;
  gint width, height;
} MedianRef;

static CfStatus
reference (const CfPlane * src, const CfPlane * dst, const CfRefPlane * plane,
    gconstpointer params)
{
  const MedianRef *m = params;
  CfMedianParams p = { m->radius, m->radius, m->mode, m->iterations,
    plane->border, CF_ALL_CHANNELS (src->channels), CF_MEDIAN_KERNEL_AUTO
  };

  if (m->one_plane && plane->index != m->plane)
    return CF_OK;
  if (!m->radius) {
    p.radius_x = cf_ref_radius ((m->width ? m->width : m->size) / 2,
        plane->w_sub);
    p.radius_y = cf_ref_radius ((m->width ? m->height : m->size) / 2,
        plane->h_sub);
  }
  return cf_median_ref (src, dst, &p);
}

static const CfRefCase ref_cases[] = {
  {"size=3", &(MedianRef) {3, 1, CF_MEDIAN_EXACT}},
  {"size=4", &(MedianRef) {5, 1, CF_MEDIAN_EXACT}},
  {"size=13", &(MedianRef) {13, 1, CF_MEDIAN_EXACT}},
  {"size=3 iterations=2", &(MedianRef) {3, 2, CF_MEDIAN_EXACT}},
  {"size=9 mode=separable", &(MedianRef) {9, 1, CF_MEDIAN_SEPARABLE}},
  /* non-square windows, width x height (even sizes round up) */
#define SHAPE(w, h) &(MedianRef) {.iterations = 1, .width = (w), .height = (h)}
  {"width=1 height=3", SHAPE (1, 3)},
  {"width=3 height=1", SHAPE (3, 1)},
  {"width=3 height=9", SHAPE (3, 9)},
  {"width=9 height=3", SHAPE (9, 3)},
  {"width=3 height=23", SHAPE (3, 23)},
  {"width=5 height=14", SHAPE (5, 15)},
  {"width=1 height=31", SHAPE (1, 31)},
  {"size=7 height=3 mode=separable", &(MedianRef) {.iterations = 1,
          .mode = CF_MEDIAN_SEPARABLE,.width = 7,.height = 3}},
#undef SHAPE
  {NULL}
};

/* Even sizes round up to the next odd one. */
static const CfPropertyCase properties[] = {
  {"size", 1, 121, "4", "3", "5"},
  {"size", 1, 121, "120", NULL, "121"},
  {"width", 1, 121, "4", "3", "5"},
  {"height", 1, 121, "8", "3", "9"},
  {"iterations", 1, CF_MEDIAN_MAX_ITERATIONS, "3"},
  {"mode", 0, 0, "separable", "exact"},
  {"luma-only", 0, 0, "true", "false"},
  {NULL}
};

/* Every variant on every format and size, bit for bit. */
static gchar *
cuda_props (guint format, guint size, guint k, gint * max_diff)
{
  static const gchar *props[] = { "size=5", "size=3 iterations=2",
    "size=21", "size=15 mode=separable luma-only=true border-mode=mirror",
    "width=3 height=23", "width=1 height=31 border-mode=mirror",
    "width=9 height=3 iterations=2", "width=5 height=15"
  };

  *max_diff = 0;
  return k < G_N_ELEMENTS (props) ? g_strdup (props[k]) : NULL;
}

/* Square and rectangular windows up to 31, either mode, iterations,
 * chroma filtered or copied. */
static void
random_props (GRand * r, GstVideoFormat format, GString * s, gint * max_diff)
{
  gint w = 2 * g_rand_int_range (r, 0, 16) + 1;
  gint h = g_rand_boolean (r) ? w : 2 * g_rand_int_range (r, 0, 16) + 1;

  *max_diff = 0;
  g_string_append_printf (s, "width=%d height=%d mode=%s iterations=%d "
      "luma-only=%s", w, h, g_rand_int_range (r, 0, 3) ? "exact" :
      "separable", MAX (w, h) > 15 ? 1 : g_rand_int_range (r, 1, 4),
      g_rand_boolean (r) ? "true" : "false");
}

static const CfElementTest entry = {
  .name = ELEMENT,
  .props = "size=5",
  .identity = {"size=1 iterations=3"},
  .live_from = "size=3",.live_to = "size=7 iterations=2",
  .live_identity = "size=1",
  .reference = reference,
  .ref_cases = ref_cases,
  .ref_formats = (const gchar *[]) {"GRAY8", "GRAY16_LE",
      "I420_10LE", "P010_10LE", "YUY2", "UYVY", "YVYU", "v210", NULL},
  .ref_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {301, 9}, {40, 41}, {0}},
  .properties = properties,
  .cuda_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {160, 97}, {0}},
  .cuda_props = cuda_props,
  .random_props = random_props,
};

/* Plane p of `in` filtered with a window of the given radius, the other
 * planes copied. */
static GstBuffer *
expected_plane (GstBuffer * in, GstVideoFormat format, gint w, gint h,
    guint p, gint radius)
{
  MedianRef m = { 0, 1, CF_MEDIAN_EXACT, radius, TRUE, p };

  return cf_reference_frame (in, format, w, h, CF_BORDER_CLAMP, reference, &m);
}

/* Chroma planes use the radius divided by their subsampling, rounded up:
 * size 5 (radius 2) filters I420 chroma with 3x3 windows. */
GST_START_TEST (test_chroma_window_scaled)
{
  GstVideoFormat f = GST_VIDEO_FORMAT_I420;
  GstBuffer *in = cf_random_frame (f, 38, 26, 0, 5);
  GstBuffer *out =
      cf_run_one (ELEMENT " size=5 backend=cpu", "I420", 38, 26, in);
  GstBuffer *luma = expected_plane (in, f, 38, 26, 0, 2);
  GstBuffer *u = expected_plane (in, f, 38, 26, 1, 1);
  GstBuffer *v = expected_plane (in, f, 38, 26, 2, 1);

  fail_unless (cf_planes_equal (out, luma, f, 38, 26, 0));
  fail_unless (cf_planes_equal (out, u, f, 38, 26, 1));
  fail_unless (cf_planes_equal (out, v, f, 38, 26, 2));
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
    GstBuffer *luma = expected_plane (in, f, 30, 22, 0, 1);
    GstVideoInfo info;

    gst_video_info_set_format (&info, f, 30, 22);
    fail_unless (cf_planes_equal (out, luma, f, 30, 22, 0), "%s luma",
        formats[i]);
    for (guint p = 1; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
      fail_unless (cf_planes_equal (out, in, f, 30, 22, p),
          "%s plane %u copied", formats[i], p);
      fail_if (cf_planes_equal (all, in, f, 30, 22, p), "%s plane %u filtered",
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

/* size sets width and height; each then changes on its own; an identity
 * needs both at 1. */
GST_START_TEST (test_size_sets_width_and_height)
{
  GstElement *el = gst_element_factory_make (ELEMENT, NULL);
  gint w, h;

  g_object_set (el, "width", 3, "height", 9, NULL);
  g_object_set (el, "size", 5, NULL);
  g_object_get (el, "width", &w, "height", &h, NULL);
  fail_unless (w == 5 && h == 5, "size=5 gave %dx%d", w, h);
  g_object_set (el, "height", 22, NULL);
  g_object_get (el, "width", &w, "height", &h, NULL);
  fail_unless (w == 5 && h == 23, "height=22 gave %dx%d", w, h);
  gst_object_unref (el);
}

GST_END_TEST;

static Suite *
cudamedian_suite (void)
{
  return cf_element_suite (&entry, CF_OWN_TEST (test_chroma_window_scaled),
      CF_OWN_TEST (test_luma_only),
      CF_OWN_TEST (test_size_sets_width_and_height), NULL);
}

GST_CHECK_MAIN (cudamedian);
