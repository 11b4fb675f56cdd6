/* cudasatblur: its entry in the element-test harness (the shared cases:
 * element_harness.h), and what is its own: constant frames, one radius at
 * 0, the sigma of stacked boxes. CUDA frames equal the CPU's bit for bit. */
#include "element_harness.h"
#include "element_side.h"
#include "satblur.h"
#include "satvar.h"

#include <math.h>

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
  {"focus", 0, 0, "ellipse", "none"},
  {"focus-x", 0, 1, "0.25", "0.5"},
  {"focus-y", 0, 1, "0.75", "0.5"},
  {"focus-width", 0, 4, "0.5", "0.5"},
  {"focus-height", 0, 4, "0.3", "0.2"},
  {"focus-angle", -360, 360, "45", "0"},
  {"focus-ramp", 0, 32767, "12.5", "100"},
  {"radius-map", 0, 0, "alpha", "none"},
  {"radius-map", 0, 0, "stream"},
  {"radius-wait", 0, 0, "false", "true"},
  {"border-mode", 0, 0, "mirror"},
  {NULL}
};

static const gchar *const formats[] = { "RGBA", "NV12", "I420", "GRAY16_LE",
  "GRAY8", "AYUV", "Y444_16LE", "BGR", "P010_10LE", "I420_10LE", "Y444_10LE",
  "RGBx", "YUY2", "UYVY", "v210", NULL
};

/* Radii from 0 to past the frame, passes and borders varying with the
 * format and size; then a tilt-shift band, a vignette ellipse and the
 * alpha map (a constant radius where the format has no alpha), with
 * fractional radii: bit for bit. */
static gchar *
cuda_props (guint format, guint size, guint k, gint * max_diff)
{
  static const gchar *const variable[] = {
    "focus=band focus-y=0.4 focus-height=0.2 focus-angle=20 focus-ramp=30",
    "focus=ellipse focus-x=0.3 focus-width=0.5 focus-height=0.6 "
        "focus-angle=-35 focus-ramp=12.5",
    "radius-map=alpha",
  };
  gint rx = size == 1 ? 20 : 5 + 30 * (gint) size, ry = 3 * (gint) format;

  *max_diff = 0;
  /* the per-pixel reference is slow at 640x361 with these radii */
  if (k > G_N_ELEMENTS (variable) || (k > 0 && size == 3))
    return NULL;
  return g_strdup_printf ("radius-x=%d radius-y=%d passes=%d "
      "border-mode=%s %s", MIN (rx, 700), ry, 1 + (format + size) % 3,
      (format + size) % 2 ? "mirror" : "clamp", k ? variable[k - 1] : "");
}

/* Radii of 0 to 40 (sometimes to 300) on either axis, 1 to 3 passes, a
 * fixed radius, a focus band or ellipse, or the alpha radius map. */
static void
random_props (GRand * r, GstVideoFormat format, GString * s, gint * max_diff)
{
  gint top = g_rand_int_range (r, 0, 6) ? 41 : 301;
  gint map;

  *max_diff = 0;
  g_string_append_printf (s, "radius-x=%d radius-y=%d passes=%d",
      g_rand_int_range (r, 0, top), g_rand_int_range (r, 0, top),
      g_rand_int_range (r, 1, 4));
  map = g_rand_int_range (r, 0, 4);
  if (map == 0 && GST_VIDEO_FORMAT_INFO_HAS_ALPHA (gst_video_format_get_info
          (format)))
    g_string_append (s, " radius-map=alpha");
  else if (map < 3)             /* a shape (also in place of alpha) */
    g_string_append_printf (s, " focus=%s focus-x=%.3f focus-y=%.3f "
        "focus-width=%.3f focus-height=%.3f focus-angle=%.1f "
        "focus-ramp=%.2f", g_rand_boolean (r) ? "band" : "ellipse",
        g_rand_double (r), g_rand_double (r),
        g_rand_double_range (r, 0.0, 1.5), g_rand_double_range (r, 0.0, 1.5),
        g_rand_double_range (r, -360.0, 360.0),
        g_rand_double_range (r, 0.0, 200.0));
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
  .random_props = random_props,
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

/* The per-pixel radius's reference: the shapes in frame pixels, as the
 * element maps its properties (radii of the plane, rounded up). */
typedef struct
{
  gint radius_x, radius_y, passes;
  CfSatVarSource source;
  gdouble x, y, width, height, angle, ramp;     /* as the properties */
  gint frame_width, frame_height, alpha_channel;
} SatVarRef;

static CfStatus
variable_reference (const CfPlane * src, const CfPlane * dst,
    const CfRefPlane * plane, gconstpointer params)
{
  const SatVarRef *r = params;
  gdouble a = r->angle * G_PI / 180.0;
  CfSatVarParams p = { cf_ref_radius (r->radius_x, plane->w_sub),
    cf_ref_radius (r->radius_y, plane->h_sub), r->passes, plane->border,
    plane->channel_mask, r->source, plane->w_sub, plane->h_sub,
    r->x * r->frame_width, r->y * r->frame_height,
    MAX (r->width * r->frame_width / 2, 1e-3),
    MAX (r->height * r->frame_height / 2, 1e-3), cos (a), sin (a), r->ramp,
    r->alpha_channel
  };

  return cf_satvar_ref (src, dst, &p);
}

/* Bands and ellipses on the CPU backend against the reference, in every
 * plane layout, at odd sizes, in both border modes; RGBA and AYUV with
 * their alpha as the map. */
GST_START_TEST (test_radius_per_pixel_reference)
{
  static const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "RGBA",
    "NV12", "I420", "Y444_16LE", NULL
  };
  static const CfSize sizes[] = { {1, 1}, {37, 23}, {64, 9} };

  for (guint f = 0; formats[f]; f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint b = 0; b < 2; b++) {
        gint w = sizes[s].width, h = sizes[s].height;
        SatVarRef band = { 6, 3, 2, CF_SATVAR_BAND, 0.5, 0.4, 0.5, 0.2, 15.0,
          9.0, w, h, -1
        };
        SatVarRef ellipse = { 9, 9, 1, CF_SATVAR_ELLIPSE, 0.4, 0.5, 0.5, 0.4,
          -30.0, 6.5, w, h, -1
        };
        GstVideoFormat format = gst_video_format_from_string (formats[f]);

        cf_check_reference (ELEMENT, "radius-x=6 radius-y=3 passes=2 "
            "focus=band focus-y=0.4 focus-height=0.2 focus-angle=15 "
            "focus-ramp=9", format, w, h, b, variable_reference, &band, s);
        cf_check_reference (ELEMENT, "radius-x=9 radius-y=9 focus=ellipse "
            "focus-x=0.4 focus-width=0.5 focus-height=0.4 focus-angle=-30 "
            "focus-ramp=6.5", format, w, h, b, variable_reference, &ellipse,
            s + 1);
      }
  for (guint b = 0; b < 2; b++) {
    SatVarRef rgba = { 7, 5, 1, CF_SATVAR_ALPHA, 0, 0, 0, 0, 0, 0, 37, 23, 3 };
    SatVarRef ayuv = { 4, 4, 3, CF_SATVAR_ALPHA, 0, 0, 0, 0, 0, 0, 37, 23, 0 };

    cf_check_reference (ELEMENT, "radius-x=7 radius-y=5 radius-map=alpha "
        "focus=band", GST_VIDEO_FORMAT_RGBA, 37, 23, b, variable_reference,
        &rgba, 5);
    cf_check_reference (ELEMENT, "radius-x=4 radius-y=4 passes=3 "
        "radius-map=alpha", GST_VIDEO_FORMAT_AYUV, 37, 23, b,
        variable_reference, &ayuv, 6);
  }
}

GST_END_TEST;

/* RGBA frames whose alpha is all @alpha. */
static GstBuffer *
with_alpha (guint8 alpha, guint32 seed)
{
  GstBuffer *buf = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 29, 17, 0, seed);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (gsize i = 3; i < map.size; i += 4)
    map.data[i] = alpha;
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* A constant alpha map of full scale is the fixed-radius blur exactly; a
 * map of 0 is the identity; a map of half scale gives the blend of the
 * radii around half the radius (not a fixed box). */
GST_START_TEST (test_alpha_map_limits)
{
  GstBuffer *full = with_alpha (255, 3), *zero = with_alpha (0, 4);
  GstBuffer *a = cf_run_one (ELEMENT " radius-x=5 radius-y=2 passes=2 "
      "radius-map=alpha backend=cpu", "RGBA", 29, 17, full);
  GstBuffer *b = cf_run_one (ELEMENT " radius-x=5 radius-y=2 passes=2 "
      "backend=cpu", "RGBA", 29, 17, full);
  GstBuffer *c = cf_run_one (ELEMENT " radius-x=5 radius-y=2 passes=2 "
      "radius-map=alpha backend=cpu", "RGBA", 29, 17, zero);

  fail_unless_equals_int (cf_frames_max_diff (a, b, GST_VIDEO_FORMAT_RGBA,
          29, 17), 0);
  fail_unless_equals_int (cf_frames_max_diff (c, zero, GST_VIDEO_FORMAT_RGBA,
          29, 17), 0);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_buffer_unref (c);
  gst_buffer_unref (full);
  gst_buffer_unref (zero);
}

GST_END_TEST;

/* A band with a hard edge: rows inside are the input, rows far outside the
 * fixed blur's. */
GST_START_TEST (test_band_is_sharp_inside)
{
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 40, 40, 0, 8);
  GstBuffer *band = cf_run_one (ELEMENT " radius-x=3 radius-y=3 focus=band "
      "focus-y=0.5 focus-height=0.25 focus-ramp=0 backend=cpu", "GRAY8", 40,
      40, in);
  GstBuffer *fixed = cf_run_one (ELEMENT " radius-x=3 radius-y=3 "
      "backend=cpu", "GRAY8", 40, 40, in);
  GstMapInfo mi, mb, mf;

  fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
  fail_unless (gst_buffer_map (band, &mb, GST_MAP_READ));
  fail_unless (gst_buffer_map (fixed, &mf, GST_MAP_READ));
  /* the band: |y - 20| <= 5 */
  for (gint y = 0; y < 40; y++)
    for (gint x = 0; x < 40; x++) {
      guint8 want = ABS (y - 20) <= 5 ? mi.data[y * 40 + x] :
          mf.data[y * 40 + x];
      fail_unless_equals_int (mb.data[y * 40 + x], want);
    }
  gst_buffer_unmap (in, &mi);
  gst_buffer_unmap (band, &mb);
  gst_buffer_unmap (fixed, &mf);
  gst_buffer_unref (in);
  gst_buffer_unref (band);
  gst_buffer_unref (fixed);
}

GST_END_TEST;

/* Within a region of interest the focus shape stays where it is in the
 * frame: the region's pixels are the whole frame's, the rest the input. */
GST_START_TEST (test_focus_in_a_region)
{
  const gchar *focus = ELEMENT " radius-x=6 radius-y=4 focus=ellipse "
      "focus-x=0.3 focus-y=0.6 focus-width=0.3 focus-height=0.4 "
      "focus-angle=25 focus-ramp=7 backend=cpu";
  gchar *part = g_strdup_printf ("%s roi-x=11 roi-y=5 roi-width=17 "
      "roi-height=13", focus);
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 48, 32, 0, 12);
  GstBuffer *full = cf_run_one (focus, "GRAY8", 48, 32, in);
  GstBuffer *out = cf_run_one (part, "GRAY8", 48, 32, in);
  GstMapInfo mi, mf, mo;

  fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
  fail_unless (gst_buffer_map (full, &mf, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
  for (gint y = 0; y < 32; y++)
    for (gint x = 0; x < 48; x++) {
      gboolean inside = x >= 11 && x < 28 && y >= 5 && y < 18;
      fail_unless_equals_int (mo.data[y * 48 + x], inside ?
          mf.data[y * 48 + x] : mi.data[y * 48 + x]);
    }
  gst_buffer_unmap (in, &mi);
  gst_buffer_unmap (full, &mf);
  gst_buffer_unmap (out, &mo);
  gst_buffer_unref (in);
  gst_buffer_unref (full);
  gst_buffer_unref (out);
  g_free (part);
}

GST_END_TEST;

/* radius-map=stream: the map stream's reference, plane by plane (a
 * subsampled plane reads the map at its co-sited luma pixel). */
typedef struct
{
  gint radius_x, radius_y, passes;
  CfPlane map;
} SatMapRef;

static CfStatus
map_reference (const CfPlane * src, const CfPlane * dst,
    const CfRefPlane * plane, gconstpointer params)
{
  const SatMapRef *r = params;
  CfSatVarParams p = { cf_ref_radius (r->radius_x, plane->w_sub),
    cf_ref_radius (r->radius_y, plane->h_sub), r->passes, plane->border,
    plane->channel_mask, CF_SATVAR_MAP, plane->w_sub, plane->h_sub
  };

  p.map = r->map;
  return cf_satvar_ref (src, dst, &p);
}

#define STREAM_PROPS "radius-x=4 radius-y=3 passes=2 radius-map=stream"

static GstBuffer *
stream_expected (GstBuffer * in, GstBuffer * side, const gchar * format,
    const gchar * side_format, gint w, gint h)
{
  SatBlurRef fixed = { 4, 3, 2 };
  SatMapRef ref = { 4, 3, 2 };
  GstVideoFormat f = gst_video_format_from_string (format);
  GstVideoInfo info;
  GstVideoFrame map;
  GstBuffer *out;

  if (!side)
    return cf_reference_frame (in, f, w, h, CF_BORDER_CLAMP, reference, &fixed);
  gst_video_info_set_format (&info, gst_video_format_from_string
      (side_format), w, h);
  fail_unless (gst_video_frame_map (&map, &info, side, GST_MAP_READ));
  ref.map = cf_frame_plane (&map, 0);
  out = cf_reference_frame (in, f, w, h, CF_BORDER_CLAMP, map_reference, &ref);
  gst_video_frame_unmap (&map);
  return out;
}

static GstBuffer *
i420_expected (GstBuffer * in, GstBuffer * side)
{
  return stream_expected (in, side, "I420", "GRAY8", 37, 23);
}

static GstBuffer *
rgba_expected (GstBuffer * in, GstBuffer * side)
{
  return stream_expected (in, side, "RGBA", "GRAY16_LE", 29, 16);
}

static const CfSideTest side_i420 = {
  ELEMENT " " STREAM_PROPS " backend=cpu", "radius-wait", "radius_sink",
  "I420", "GRAY8", 37, 23, i420_expected
};

static const CfSideTest side_rgba = {
  ELEMENT " " STREAM_PROPS " backend=cpu", "radius-wait", "radius_sink",
  "RGBA", "GRAY16_LE", 29, 16, rgba_expected
};

GST_START_TEST (test_radius_stream_pairing)
{
  cf_side_check_pairing (&side_i420);
  cf_side_check_pairing (&side_rgba);
}

GST_END_TEST;

GST_START_TEST (test_radius_stream_wait_and_flush)
{
  cf_side_check_wait_and_flush (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_radius_stream_eos)
{
  cf_side_check_eos (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_radius_stream_caps_refused)
{
  cf_side_check_caps_refused (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_radius_stream_without_map)
{
  cf_side_check_without_side (&side_i420);
}

GST_END_TEST;

/* A map stream of full scale is the fixed-radius blur exactly, one of 0
 * the identity (the input, bit for bit). */
GST_START_TEST (test_radius_stream_limits)
{
  static const CfSideTest t = {
    ELEMENT " " STREAM_PROPS " backend=cpu", "radius-wait", "radius_sink",
    "I420", "GRAY8", 37, 23, i420_expected
  };
  GstHarness *h = cf_harness_new (ELEMENT " radius-x=4 radius-y=3 passes=2 "
      "backend=cpu", "I420", 37, 23);
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_I420, 37, 23, 0, 60);
  GstBuffer *fixed = gst_harness_push_and_pull (h, gst_buffer_ref (in));

  for (guint v = 0; v < 2; v++) {
    GstElement *e = gst_parse_launch (t.launch, NULL);
    GstHarness *m = gst_harness_new_with_element (e, "sink", "src");
    GstHarness *s = gst_harness_new_with_element (e, "radius_sink", NULL);
    GstBuffer *map = gst_buffer_new_allocate (NULL, 40 * 23, NULL);
    GstBuffer *out;

    gst_harness_set_caps_str (m, "video/x-raw,format=I420,width=37,"
        "height=23,framerate=30/1", "video/x-raw,format=I420,width=37,"
        "height=23,framerate=30/1");
    gst_harness_set_src_caps_str (s, "video/x-raw,format=GRAY8,width=37,"
        "height=23,framerate=30/1");
    gst_buffer_memset (map, 0, v ? 255 : 0, 40 * 23);
    GST_BUFFER_PTS (map) = 0;
    GST_BUFFER_DURATION (map) = GST_SECOND;
    fail_unless_equals_int (gst_harness_push (s, map), GST_FLOW_OK);
    GST_BUFFER_PTS (in) = 0;
    out = gst_harness_push_and_pull (m, gst_buffer_ref (in));
    fail_unless_equals_int (cf_frames_max_diff (out, v ? fixed : in,
            GST_VIDEO_FORMAT_I420, 37, 23), 0);
    gst_buffer_unref (out);
    gst_harness_teardown (s);
    gst_harness_teardown (m);
    gst_object_unref (e);
  }
  gst_buffer_unref (fixed);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_radius_stream_latency)
{
  cf_side_check_latency (&side_i420);
}

GST_END_TEST;

GST_START_TEST (test_radius_stream_in_a_region)
{
  cf_side_check_region (&side_i420);
}

GST_END_TEST;

static Suite *
cudasatblur_suite (void)
{
  return cf_element_suite (&entry,
      CF_OWN_TEST (test_constant_frame_stays_constant),
      CF_OWN_TEST (test_one_radius_zero_still_blurs),
      CF_OWN_TEST (test_sigma_of_passes),
      CF_OWN_TEST (test_radius_per_pixel_reference),
      CF_OWN_TEST (test_alpha_map_limits),
      CF_OWN_TEST (test_band_is_sharp_inside),
      CF_OWN_TEST (test_focus_in_a_region),
      CF_OWN_TEST (test_radius_stream_pairing),
      CF_OWN_TEST (test_radius_stream_wait_and_flush),
      CF_OWN_TEST (test_radius_stream_eos),
      CF_OWN_TEST (test_radius_stream_caps_refused),
      CF_OWN_TEST (test_radius_stream_without_map),
      CF_OWN_TEST (test_radius_stream_limits),
      CF_OWN_TEST (test_radius_stream_latency),
      CF_OWN_TEST (test_radius_stream_in_a_region), NULL);
}

GST_CHECK_MAIN (cudasatblur);
