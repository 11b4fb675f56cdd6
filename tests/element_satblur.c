/* cudasatblur: its entry in the element-test harness (the shared cases:
 * element_harness.h), and what is its own: constant frames, one radius at
 * 0, the sigma of stacked boxes. CUDA frames equal the CPU's bit for bit. */
#include "element_harness.h"
#include "satblur.h"

#define ELEMENT "cudasatblur"

/* The reference of a plane, as the element maps its properties: the radii
 * divided by the subsampling, rounded up. */
typedef struct
{
  gint radius_x, radius_y, passes;
} SatBlurRef;

static CfStatus
reference (const CfPlane * src, const CfPlane * dst, const CfRefPlane * plane,
    gconstpointer params)
{
  const SatBlurRef *b = params;
  CfSatBlurParams p = { cf_ref_radius (b->radius_x, plane->w_sub),
    cf_ref_radius (b->radius_y, plane->h_sub), b->passes, plane->border,
    plane->channel_mask
  };

  return cf_satblur_ref (src, dst, &p);
}

/* Radii of 0 on one axis, small, and larger than every frame (9000), each
 * with 1, 2 and 3 passes. */
#define CASES(rx, ry) \
  {"radius-x=" #rx " radius-y=" #ry " passes=1", &(SatBlurRef) {rx, ry, 1}}, \
  {"radius-x=" #rx " radius-y=" #ry " passes=2", &(SatBlurRef) {rx, ry, 2}}, \
  {"radius-x=" #rx " radius-y=" #ry " passes=3", &(SatBlurRef) {rx, ry, 3}}
static const CfRefCase ref_cases[] = {
  CASES (1, 0), CASES (2, 3), CASES (9000, 5), CASES (9000, 9000), {NULL}
};

static const CfPropertyCase properties[] = {
  {"radius-x", 0, CF_SATBLUR_MAX_RADIUS, "500"},
  {"radius-y", 0, CF_SATBLUR_MAX_RADIUS, "7"},
  {"passes", 1, CF_SATBLUR_MAX_PASSES, "3"},
  {"border-mode", 0, 0, "mirror"},
  {NULL}
};

static const gchar *const formats[] = { "RGBA", "NV12", "I420", "GRAY16_LE",
  "GRAY8", "AYUV", "Y444_16LE", "BGR", "P010_10LE", "I420_10LE", "Y444_10LE",
  "RGBx", "YUY2", "UYVY", "v210", NULL
};

/* Radii from 0 to past the frame, passes and borders varying with the
 * format and size; bit for bit. */
static gchar *
cuda_props (guint format, guint size, guint k, gint * max_diff)
{
  gint rx = size == 1 ? 20 : 5 + 30 * (gint) size, ry = 3 * (gint) format;

  *max_diff = 0;
  return k ? NULL : g_strdup_printf ("radius-x=%d radius-y=%d passes=%d "
      "border-mode=%s", rx, ry, 1 + (format + size) % 3,
      (format + size) % 2 ? "mirror" : "clamp");
}

static const CfElementTest entry = {
  .name = ELEMENT,
  .props = "radius-x=3 radius-y=2",
  .identity = {"radius-x=0 radius-y=0 passes=3"},
  .live_from = "radius-x=1 radius-y=1",
  .live_to = "radius-x=9 passes=3 border-mode=mirror",
  .live_identity = "radius-x=0 radius-y=0",
  .reference = reference,
  .ref_cases = ref_cases,
  .ref_formats = (const gchar *[]) {"GRAY8", "GRAY16_LE", "I420", "NV12",
      "I420_10LE", "P010_10LE", "YUY2", "UYVY", "YVYU", "v210", NULL},
  .ref_sizes = (const CfSize[]) { {1, 1}, {7, 3}, {4097, 9}, {64, 65}, {0}},
  .properties = properties,
  .cuda_formats = formats,
  .cuda_props = cuda_props,
};

/* Independent of the reference: a box mean of a constant is that constant,
 * whatever the radius, border or passes. */
GST_START_TEST (test_constant_frame_stays_constant)
{
  static const gint radii[] = { 1, 6, 40 };

  for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
    for (gint b = 0; b < 2; b++) {
      gchar *launch = g_strdup_printf (ELEMENT " radius-x=%d radius-y=%d "
          "passes=3 border-mode=%s backend=cpu", radii[r], radii[r] / 2 + 1,
          b ? "mirror" : "clamp");
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
 * the harness's identity case). */
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

GST_START_TEST (test_sigma_of_passes)
{
  /* sigma^2 = passes ((2r+1)^2 - 1) / 12: r = 1, one pass: 8/12. */
  fail_unless (fabs (cf_satblur_sigma (1, 1) - sqrt (8.0 / 12.0)) < 1e-12);
  fail_unless (fabs (cf_satblur_sigma (2, 3) - sqrt (6.0)) < 1e-12);
  fail_unless (cf_satblur_sigma (0, 3) == 0.0);
}

GST_END_TEST;

static Suite *
cudasatblur_suite (void)
{
  return cf_element_suite (&entry,
      CF_OWN_TEST (test_constant_frame_stays_constant),
      CF_OWN_TEST (test_one_radius_zero_still_blurs),
      CF_OWN_TEST (test_sigma_of_passes), NULL);
}

GST_CHECK_MAIN (cudasatblur);
