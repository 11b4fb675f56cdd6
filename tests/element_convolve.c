/* cudaconvolve: its entry in the element-test harness (the shared cases:
 * element_harness.h), and what is its own: presets fill the kernel and the
 * rest, kernel arrays are read and refused as they should be, separable
 * and full kernels agree, luma-only follows the preset. */
#include "element_harness.h"
#include "convolve.h"

#define ELEMENT "cudaconvolve"

/* The reference of a plane: a full kernel (taps, w x h) or, with row and
 * col, a separable one; with luma_only, planes after the first (the
 * chroma of the planar reference formats) are left as they came. */
typedef struct
{
  gint w, h;
  const gfloat *taps, *row, *col;
  gdouble divisor, offset;
  gboolean absolute, luma_only;
} ConvolveRef;

static CfStatus
reference (const CfPlane * src, const CfPlane * dst, const CfRefPlane * plane,
    gconstpointer params)
{
  const ConvolveRef *r = params;
  static CfConvolveParams p;

  if (r->luma_only && plane->index > 0)
    return CF_OK;
  memset (&p, 0, sizeof p);
  p.width = r->w;
  p.height = r->h;
  p.separable = r->row != NULL;
  if (r->row) {
    memcpy (p.row, r->row, sizeof (gfloat) * r->w);
    memcpy (p.col, r->col, sizeof (gfloat) * r->h);
  } else {
    memcpy (p.taps, r->taps, sizeof (gfloat) * r->w * r->h);
  }
  p.divisor = r->divisor;
  p.offset = r->offset;
  p.absolute = r->absolute;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return cf_convolve_ref (src, dst, &p);
}

static const gfloat binomial[] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
static const gfloat sharpen[] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
static const gfloat sobel_x[] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };
static const gfloat emboss[] = { 2, 0, 0, 0, -1, 0, 0, 0, -1 };
static const gfloat rect[] = { 1, -2, 3, 0, 1, 2, 5, -1, 0, 4, 1, 1, 2, 0, -3 };
static const gfloat row5[] = { 1, 2, 3, 2, 1 }, col3[] = { 1, 0, -1 };

#define RECT "kernel-width=5 kernel=<1,-2,3,0,1,2,5,-1,0,4,1,1,2,0,-3>"

static const CfRefCase ref_cases[] = {
  {"kernel=<1,2,1,2,4,2,1,2,1>", &(ConvolveRef) {3, 3, binomial}},
  {"preset=sharpen", &(ConvolveRef) {3, 3, sharpen,.luma_only = TRUE}},
  {"preset=sobel-x", &(ConvolveRef) {3, 3, sobel_x,.absolute = TRUE,
          .luma_only = TRUE}},
  {"preset=emboss", &(ConvolveRef) {3, 3, emboss,.offset = 0.5}},
  {RECT " divisor=7 offset=0.1", &(ConvolveRef) {5, 3, rect,.divisor = 7,
          .offset = 0.1}},
  {"kernel-x=<1,2,3,2,1> kernel-y=<1,0,-1> absolute=true",
      &(ConvolveRef) {5, 3, NULL, row5, col3,.absolute = TRUE}},
  {NULL}
};

/* The array properties (kernel, kernel-x, kernel-y) read back in the
 * tests below: GStreamer 1.22 writes into the text of a typed array it
 * reads, "<(float)1>", so a table of string constants cannot hold one. */
static const CfPropertyCase properties[] = {
  {"kernel-width", 0, CF_CONVOLVE_MAX_SIDE, "5", "0"},
  {"divisor", -1e9, 1e9, "9", "0"},
  {"offset", -1, 1, "0.25", "0"},
  {"preset", 0, 0, "emboss", "none"},
  {"preset", 0, 0, "edge", NULL, "laplacian"},
  {"absolute", 0, 0, "true", "false"},
  {"luma-only", 0, 0, "false", "false"},
  {NULL}
};

/* Within float rounding: 1 LSB, 2 at 16 bits. */
static gchar *
cuda_props (guint format, guint size, guint k, gint * max_diff)
{
  static const gchar *props[] = { "preset=sharpen",
    RECT " border-mode=mirror", "preset=emboss luma-only=true",
    "kernel-x=<1,4,6,4,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1>"
        " kernel-y=<1,2,1>",
    "kernel-width=31 kernel=<0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
        "0,0,1>"
  };

  *max_diff = strstr (cf_cuda_test_formats[format], "16")
      || strstr (cf_cuda_test_formats[format], "10") ? 2 : 1;
  return k < G_N_ELEMENTS (props) ? g_strdup (props[k]) : NULL;
}

/* Random kernels: square or rectangular up to 31 taps a side, a
 * separable pair, or a preset; a divisor and an offset or not, absolute,
 * chroma filtered or copied. Taps are small integers plus a fraction, most
 * of them positive, so that the result is not a cancellation of large
 * sums. */
static void
random_taps (GRand * r, GString * s, gint n)
{
  g_string_append_c (s, '<');
  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%.2f", i ? "," : "",
        g_rand_int_range (r, -2, 7) + 0.25 * g_rand_int_range (r, 0, 4));
  g_string_append_c (s, '>');
}

static void
random_props (GRand * r, GstVideoFormat format, GString * s, gint * max_diff)
{
  static const gchar *presets[] = { "sharpen", "laplacian", "edge", "sobel-x",
    "sobel-y", "emboss", "box"
  };
  gint w = 2 * g_rand_int_range (r, 0, 16) + 1;
  gint h = g_rand_boolean (r) ? w : 2 * g_rand_int_range (r, 0, 16) + 1;

  *max_diff = GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info (format),
      0) > 8 ? 2 : 1;
  switch (g_rand_int_range (r, 0, 4)) {
    case 0:
      g_string_append_printf (s, "preset=%s",
          presets[g_rand_int_range (r, 0, G_N_ELEMENTS (presets))]);
      break;
    case 1:
      g_string_append (s, "kernel-x=");
      random_taps (r, s, w);
      g_string_append (s, " kernel-y=");
      random_taps (r, s, h);
      break;
    default:
      g_string_append_printf (s, "kernel-width=%d kernel=", w);
      random_taps (r, s, w * h);
      break;
  }
  if (g_rand_boolean (r))
    g_string_append_printf (s, " divisor=%.2f offset=%.3f",
        g_rand_double_range (r, 1.0, 100.0),
        g_rand_double_range (r, -0.5, 0.5));
  g_string_append_printf (s, " absolute=%s luma-only=%s",
      g_rand_boolean (r) ? "true" : "false",
      g_rand_boolean (r) ? "true" : "false");
}

static const CfElementTest entry = {
  .name = ELEMENT,
  .props = "preset=sharpen luma-only=false",
  .identity = {"preset=none", "kernel=<0,0,0,0,1,0,0,0,0>",
      "kernel=<2> divisor=2"},
  .live_from = "preset=sharpen",
  .live_to = "kernel=<1,2,1,2,4,2,1,2,1>",
  .live_identity = "kernel=<1>",
  .reference = reference,
  .ref_cases = ref_cases,
  .ref_formats = (const gchar *[]) {"GRAY8", "GRAY16_LE", "I420_10LE",
      "P010_10LE", "YUY2", "UYVY", "YVYU", "v210", NULL},
  .ref_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {301, 9}, {40, 41}, {0}},
  .properties = properties,
  .cuda_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {160, 97}, {0}},
  .cuda_props = cuda_props,
  .random_props = random_props,
};

/* The floats of array property @name of @el. */
static GArray *
get_taps (GstElement * el, const gchar * name)
{
  GValue v = G_VALUE_INIT;
  GArray *a = g_array_new (FALSE, FALSE, sizeof (gfloat));

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (el), name, &v);
  for (guint i = 0; i < gst_value_array_get_size (&v); i++) {
    gfloat f = g_value_get_float (gst_value_array_get_value (&v, i));
    g_array_append_val (a, f);
  }
  g_value_unset (&v);
  return a;
}

static void
assert_taps (GstElement * el, const gchar * name, const gfloat * taps, guint n)
{
  GArray *a = get_taps (el, name);

  fail_unless_equals_int (a->len, n);
  for (guint i = 0; i < n; i++)
    fail_unless_equals_float (g_array_index (a, gfloat, i), taps[i]);
  g_array_unref (a);
}

GST_START_TEST (test_preset_fills_kernel)
{
  GstElement *el = gst_element_factory_make (ELEMENT, NULL);
  gboolean absolute, luma_only;
  gdouble offset, divisor;
  gint preset;
  static const gfloat one = 1.0f;

  assert_taps (el, "kernel", &one, 1);
  gst_util_set_object_arg (G_OBJECT (el), "divisor", "3");
  gst_util_set_object_arg (G_OBJECT (el), "preset", "sobel-x");
  assert_taps (el, "kernel", sobel_x, 9);
  g_object_get (el, "absolute", &absolute, "luma-only", &luma_only,
      "divisor", &divisor, "offset", &offset, NULL);
  fail_unless (absolute && luma_only && divisor == 0.0 && offset == 0.0);
  gst_util_set_object_arg (G_OBJECT (el), "preset", "emboss");
  assert_taps (el, "kernel", emboss, 9);
  g_object_get (el, "absolute", &absolute, "luma-only", &luma_only,
      "offset", &offset, NULL);
  fail_unless (!absolute && !luma_only && offset == 0.5);
  /* a kernel of one's own is no preset any more */
  gst_util_set_object_arg (G_OBJECT (el), "kernel",
      "<1, 2, 1, 2, 4, 2, 1, 2, 1>");
  g_object_get (el, "preset", &preset, NULL);
  fail_unless_equals_int (preset, 0);
  assert_taps (el, "kernel", binomial, 9);
  gst_object_unref (el);
}

GST_END_TEST;

static void
set_empty (GstElement * el, const gchar * name)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_set_property (G_OBJECT (el), name, &v);
  g_value_unset (&v);
}

/* Even sides, empty arrays, counts that are not whole rows or a square,
 * and sides over 31 warn and keep the kernel. */
GST_START_TEST (test_bad_kernels_keep_the_old_one)
{
  GstElement *el = gst_element_factory_make (ELEMENT, NULL);
  GObject *o = G_OBJECT (el);
  GString *big = g_string_new ("<1");

  for (guint i = 1; i < 33 * 33; i++)
    g_string_append (big, ",1");
  g_string_append (big, ">");
  gst_util_set_object_arg (o, "kernel", "<1, 2, 1, 2, 4, 2, 1, 2, 1>");
  ASSERT_WARNING (gst_util_set_object_arg (o, "kernel", "<1, 2, 3, 4>"));
  ASSERT_WARNING (gst_util_set_object_arg (o, "kernel", "<1, 2, 3>"));
  ASSERT_WARNING (set_empty (el, "kernel"));
  ASSERT_WARNING (gst_util_set_object_arg (o, "kernel", big->str));
  gst_util_set_object_arg (o, "kernel-width", "4");
  ASSERT_WARNING (gst_util_set_object_arg (o, "kernel", "<1, 2, 3, 4>"));
  gst_util_set_object_arg (o, "kernel-width", "5");
  ASSERT_WARNING (gst_util_set_object_arg (o, "kernel", "<1, 2, 3, 4, 5, 6>"));
  assert_taps (el, "kernel", binomial, 9);
  ASSERT_WARNING (gst_util_set_object_arg (o, "kernel-x", "<1, 2>"));
  ASSERT_WARNING (set_empty (el, "kernel-y"));
  assert_taps (el, "kernel", binomial, 9);
  /* the warnings changed nothing: the kernel still filters */
  gst_util_set_object_arg (o, "kernel-width", "0");
  g_string_free (big, TRUE);
  gst_object_unref (el);
}

GST_END_TEST;

/* kernel-width before kernel reads rows of that many taps. */
GST_START_TEST (test_rectangular_kernel)
{
  GstElement *el = gst_element_factory_make (ELEMENT, NULL);

  gst_util_set_object_arg (G_OBJECT (el), "kernel-width", "5");
  gst_util_set_object_arg (G_OBJECT (el), "kernel",
      "<1,-2,3,0,1,2,5,-1,0,4,1,1,2,0,-3>");
  assert_taps (el, "kernel", rect, 15);
  gst_object_unref (el);
}

GST_END_TEST;

/* kernel-x and kernel-y give the outer product's output; kernel reads it
 * back; kernel-x and kernel-y read empty once a full kernel is set. */
GST_START_TEST (test_separable_equals_full)
{
  static const gfloat full[] = { 1, 2, 1, 0, 0, 0, -1, -2, -1 };
  GstVideoFormat f = GST_VIDEO_FORMAT_GRAY8;
  GstBuffer *in = cf_random_frame (f, 45, 23, 0, 4);
  GstBuffer *a = cf_run_one (ELEMENT " kernel-x=<1,2,1> kernel-y=<1,0,-1> "
      "absolute=true backend=cpu", "GRAY8", 45, 23, in);
  GstBuffer *b = cf_run_one (ELEMENT " kernel=<1,2,1,0,0,0,-1,-2,-1> "
      "absolute=true backend=cpu", "GRAY8", 45, 23, in);
  GstElement *el = gst_element_factory_make (ELEMENT, NULL);

  fail_unless_equals_int (cf_frames_max_diff (a, b, f, 45, 23), 0);
  fail_unless (cf_frames_max_diff (a, in, f, 45, 23) > 0);
  gst_util_set_object_arg (G_OBJECT (el), "kernel-y", "<1, 0, -1>");
  gst_util_set_object_arg (G_OBJECT (el), "kernel-x", "<1, 2, 1>");
  assert_taps (el, "kernel", full, 9);
  assert_taps (el, "kernel-x", full, 3);
  gst_util_set_object_arg (G_OBJECT (el), "kernel", "<1, 2, 1, 0, 0, 0, -1, "
      "-2, -1>");
  assert_taps (el, "kernel-x", NULL, 0);
  assert_taps (el, "kernel-y", NULL, 0);
  gst_object_unref (el);
  gst_buffer_unref (in);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
}

GST_END_TEST;

/* sharpen and the edge presets leave YUV chroma alone, box and emboss
 * filter it; luma-only set after the preset wins. */
GST_START_TEST (test_luma_only_by_preset)
{
  static const struct
  {
    const gchar *props;
    gboolean chroma_kept;
  } cases[] = {
    {"preset=sharpen", TRUE}, {"preset=sobel-y", TRUE},
    {"preset=laplacian", TRUE}, {"preset=box", FALSE},
    {"preset=emboss", FALSE}, {"preset=sharpen luma-only=false", FALSE},
    {"preset=box luma-only=true", TRUE},
  };
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_NV12, 30, 22, 0, 6);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *launch = g_strdup_printf (ELEMENT " %s backend=cpu",
        cases[i].props);
    GstBuffer *out = cf_run_one (launch, "NV12", 30, 22, in);

    fail_if (cf_planes_equal (in, out, GST_VIDEO_FORMAT_NV12, 30, 22, 0),
        "%s: luma", launch);
    fail_unless (cf_planes_equal (in, out, GST_VIDEO_FORMAT_NV12, 30, 22,
            1) == cases[i].chroma_kept, "%s: chroma", launch);
    gst_buffer_unref (out);
    g_free (launch);
  }
  gst_buffer_unref (in);
}

GST_END_TEST;

static Suite *
cudaconvolve_suite (void)
{
  return cf_element_suite (&entry, CF_OWN_TEST (test_preset_fills_kernel),
      CF_OWN_TEST (test_bad_kernels_keep_the_old_one),
      CF_OWN_TEST (test_rectangular_kernel),
      CF_OWN_TEST (test_separable_equals_full),
      CF_OWN_TEST (test_luma_only_by_preset), NULL);
}

GST_CHECK_MAIN (cudaconvolve);
