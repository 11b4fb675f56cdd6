/* cudatemporaldenoise: its own suite, on the harness's helpers
 * (element_util.h). The shared single-frame cases of element_harness.c do
 * not apply to a recursive filter (a first frame passes through
 * unfiltered), so their equivalents run here on sequences: the reference
 * frame by frame at odd sizes in both modes and borders, every template
 * format, padded strides, EOS with frames in flight, the history restarting
 * at DISCONT, GAP, flush, caps change and passthrough, live property
 * changes, property ranges; then a static noisy input converging toward
 * its mean, a cut passing through without a trace, and with a GPU the
 * CUDA backend against the CPU one, on fixed and on random cases. */
#include "element_util.h"
#include "temporal.h"

#include <math.h>

/* A standard normal deviate (Box-Muller). */
static gdouble
normal (GRand * rand)
{
  return sqrt (-2.0 * log (1.0 - g_rand_double (rand))) *
      cos (2.0 * G_PI * g_rand_double (rand));
}

#define ELEMENT "cudatemporaldenoise"

typedef struct
{
  CfTemporalMode mode;
  gdouble strength, noise, spatial;
} Props;

/* Channel and chroma masks of plane @p, as the base class derives them. */
static void
plane_masks (const GstVideoFormatInfo * finfo, guint p, guint * colour,
    guint * chroma)
{
  guint bytes = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8 ? 2 : 1;

  *colour = *chroma = 0;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    guint bit = 1u << (offset % bytes ? offset : offset / bytes);

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p || c == GST_VIDEO_COMP_A)
      continue;
    *colour |= bit;
    if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && c != GST_VIDEO_COMP_Y)
      *chroma |= bit;
  }
}

/* The parameters of frame @frame (since the history restarted) for a
 * plane of @colour channels, @chroma of them chroma, subsampled by 2^@ws x
 * 2^@hs; @steered: one of several planes (or packed luma and chroma) that
 * share a map, written by luma and read by chroma. */
static CfTemporalParams
plane_params (const Props * props, guint frame, CfBorder border,
    guint colour, guint chroma, guint ws, guint hs, gboolean steered)
{
  CfTemporalParams t = { 0 };
  guint luma = colour & ~chroma;

  t.frame = frame;
  t.mode = props->mode;
  t.strength = props->strength;
  t.noise = props->noise;
  t.border = border;
  t.channel_mask = colour;
  t.motion_mask = luma ? luma : colour;
  if (steered) {
    t.map_use = luma ? CF_TEMPORAL_MAP_WRITE : CF_TEMPORAL_MAP_READ;
    t.map_w_sub = ws;
    t.map_h_sub = hs;
  }
  if (props->spatial > 0) {
    t.spatial.sigma_x = CF_TEMPORAL_SPATIAL_SIGMA / (1 << ws);
    t.spatial.sigma_y = CF_TEMPORAL_SPATIAL_SIGMA / (1 << hs);
    t.spatial.radius_x = cf_bilateral_default_radius (t.spatial.sigma_x);
    t.spatial.radius_y = cf_bilateral_default_radius (t.spatial.sigma_y);
    t.spatial.sigma_range = props->spatial;
    t.spatial.mode = CF_BILATERAL_EXACT;
    t.spatial.distance = CF_BILATERAL_JOINT;
    t.spatial.border = border;
    t.spatial.channel_mask = colour;
  }
  return t;
}

static gboolean
packed_422 (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_YUY2 || format == GST_VIDEO_FORMAT_UYVY
      || format == GST_VIDEO_FORMAT_YVYU || format == GST_VIDEO_FORMAT_v210;
}

/* A byte map of @w x @h pixels. */
static CfPlane
map_new (gint w, gint h)
{
  CfPlane map = { NULL, (gsize) w, w, h, 1, 8, 0 };

  map.data = g_malloc (map.stride * h);
  return map;
}

/* The reference on a packed 4:2:2 frame, luma then chroma steered by
 * luma's map, on the planes the element filters: an 8-bit frame's luma as
 * a plane of 2-byte pixels (Y and a chroma byte) and its chroma as one of
 * 4-byte pairs (Y, U, Y, V in the format's order), each with its own
 * channels filtered; v210's samples as a luma plane and an interleaved
 * chroma plane of half the width (cf_packed_unpack). */
static void
reference_packed (GstVideoFrame * fin, GstVideoFrame * fprev,
    GstVideoFrame * fout, guint frame, const Props * props, CfBorder border)
{
  const GstVideoFormatInfo *finfo = fin->info.finfo;
  gint w = GST_VIDEO_FRAME_WIDTH (fin), h = GST_VIDEO_FRAME_HEIGHT (fin);
  CfPlane src[2], pv[2], dst[2];
  CfPlane map = map_new (w, h);
  guint colour[2], chroma[2];
  gboolean v210 = GST_VIDEO_FRAME_FORMAT (fin) == GST_VIDEO_FORMAT_v210;

  if (v210) {
    fail_unless (cf_packed_unpack (fin, src));
    fail_unless (cf_packed_unpack (fprev, pv));
    fail_unless (cf_packed_unpack (fin, dst));
    colour[0] = 1;
    colour[1] = 3;
  } else {
    for (guint p = 0; p < 2; p++) {
      CfPlane view = { NULL, 0, p ? (w + 1) / 2 : w, h, p ? 4 : 2, 8, 0 };

      src[p] = pv[p] = dst[p] = view;
      src[p].data = GST_VIDEO_FRAME_PLANE_DATA (fin, 0);
      src[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (fin, 0);
      pv[p].data = GST_VIDEO_FRAME_PLANE_DATA (fprev, 0);
      pv[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (fprev, 0);
      dst[p].data = GST_VIDEO_FRAME_PLANE_DATA (fout, 0);
      dst[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (fout, 0);
    }
    colour[0] = 1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_Y);
    colour[1] = 1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_U)
        | 1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_V);
  }
  chroma[0] = 0;
  chroma[1] = colour[1];
  for (guint p = 0; p < 2; p++) {
    CfTemporalParams t = plane_params (props, frame, border, colour[p],
        chroma[p], p, 0, TRUE);

    /* an 8-bit frame's chroma from luma's output, whose Y it copies */
    if (p && !v210) {
      src[1].data = g_memdup2 (dst[0].data, dst[0].stride * h);
      src[1].stride = dst[0].stride;
    }
    fail_unless_equals_int (cf_temporal_ref (&src[p], &pv[p], &dst[p], &map,
            &t), CF_OK);
  }
  if (v210) {
    cf_packed_pack (dst, fout);
    cf_packed_free (src);
    cf_packed_free (pv);
    cf_packed_free (dst);
  } else {
    g_free (src[1].data);
  }
  g_free (map.data);
}

/* What the element makes of @in, frame @frame since the history
 * restarted, after @prev (its previous output; NULL: the history restarts
 * and @in passes through), plane by plane in order, chroma steered by
 * plane 0's map. */
static GstBuffer *
reference (GstBuffer * in, GstBuffer * prev, guint frame,
    GstVideoFormat format, gint w, gint h, const Props * props, CfBorder border)
{
  GstVideoInfo info;
  GstVideoFrame fin, fprev, fout;
  GstBuffer *out;
  guint n;
  CfPlane map = { 0 };

  gst_video_info_set_format (&info, format, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  cf_frame_copy (&fout, &fin);
  n = GST_VIDEO_INFO_N_PLANES (&info);
  if (!prev) {
    gst_video_frame_unmap (&fin);
    gst_video_frame_unmap (&fout);
    return out;
  }
  fail_unless (gst_video_frame_map (&fprev, &info, prev, GST_MAP_READ));
  if (packed_422 (format)) {
    reference_packed (&fin, &fprev, &fout, frame, props, border);
    n = 0;
  } else if (n > 1) {
    map = map_new (w, h);
  }
  for (guint p = 0; p < n; p++) {
    CfPlane src = cf_frame_plane (&fin, p), dst = cf_frame_plane (&fout, p);
    CfPlane pv = cf_frame_plane (&fprev, p);
    guint colour, chroma, c = 0;
    CfTemporalParams t;

    while (GST_VIDEO_FORMAT_INFO_PLANE (info.finfo, c) != p)
      c++;
    plane_masks (info.finfo, p, &colour, &chroma);
    t = plane_params (props, frame, border, colour, chroma,
        GST_VIDEO_FORMAT_INFO_W_SUB (info.finfo, c),
        GST_VIDEO_FORMAT_INFO_H_SUB (info.finfo, c), n > 1);
    fail_unless_equals_int (cf_temporal_ref (&src, &pv, &dst, &map, &t), CF_OK);
  }
  g_free (map.data);
  gst_video_frame_unmap (&fprev);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

/* Noise of about 1/25 of full scale on @pl, and a block of new random
 * samples that moves with @k. */
static void
add_change (CfPlane * pl, guint k, GRand * rand)
{
  gint max = (gint) cf_plane_max (pl), amp = max / 25 + 1;
  gint bx = (gint) (k * pl->width) / 5, by = (gint) (k * pl->height) / 7;

  for (gint y = 0; y < pl->height; y++)
    for (gint i = 0; i < pl->width * pl->channels; i++) {
      guint8 *row = (guint8 *) pl->data + y * pl->stride;
      gint x = i / pl->channels;
      gint v = pl->depth > 8 ? ((guint16 *) row)[i] : row[i];

      v += g_rand_int_range (rand, -amp, amp + 1);
      if (x >= bx && x < bx + pl->width / 2 && y >= by
          && y < by + pl->height / 2)
        v = g_rand_int_range (rand, 0, max + 1);
      v = CLAMP (v, 0, max) & max;
      if (pl->depth > 8)
        ((guint16 *) row)[i] = v;
      else
        row[i] = v;
    }
}

/* Frame @k of a test sequence: @base with noise and a moving block of new
 * samples (add_change), so that the recursion and the motion test both
 * run; a packed 4:2:2 frame's samples through cf_packed_unpack. */
static GstBuffer *
sequence_frame (GstBuffer * base, GstVideoFormat format, gint w, gint h,
    guint k)
{
  GstBuffer *out = gst_buffer_copy_deep (base);
  GRand *rand = g_rand_new_with_seed (k * 7919 + 1);
  GstVideoInfo info;
  GstVideoFrame f;
  CfPlane packed[2];

  gst_video_info_set_format (&info, format, w, h);
  /* base may carry a GstVideoMeta (padded rows): map through it */
  fail_unless (gst_video_frame_map (&f, &info, out, GST_MAP_READWRITE));
  if (cf_packed_unpack (&f, packed)) {
    for (guint p = 0; p < 2; p++)
      add_change (&packed[p], k, rand);
    cf_packed_pack (packed, &f);
    cf_packed_free (packed);
  } else {
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
      CfPlane pl = cf_frame_plane (&f, p);

      add_change (&pl, k, rand);
    }
  }
  gst_video_frame_unmap (&f);
  g_rand_free (rand);
  return out;
}

/* Runs @frames frames of the sequence of @base through "@launch" and
 * checks each output against the reference (exactly) or, with @other,
 * against the outputs of "@other" (within @tol); returns the largest
 * difference. */
static gint
run_sequence (const gchar * launch, const gchar * other, const Props * props,
    GstVideoFormat format, gint w, gint h, guint pad, guint frames,
    CfBorder border, gint tol)
{
  const gchar *name = gst_video_format_to_string (format);
  GstHarness *a = cf_harness_new (launch, name, w, h);
  GstHarness *b = other ? cf_harness_new (other, name, w, h) : NULL;
  GstBuffer *base = cf_random_frame (format, w, h, pad, w * 31 + h);
  GstBuffer *prev = NULL;
  gint worst = 0;

  for (guint k = 0; k < frames; k++) {
    GstBuffer *in = sequence_frame (base, format, w, h, k);
    GstBuffer *out = gst_harness_push_and_pull (a, gst_buffer_ref (in));
    GstBuffer *want = b ? gst_harness_push_and_pull (b, gst_buffer_ref (in))
        : reference (in, prev, k, format, w, h, props, border);
    gint d = cf_frames_max_diff (out, want, format, w, h);

    fail_unless (d <= tol, "%s %s %dx%d (pad %u) frame %u: off by %d (at "
        "most %d)", launch, name, w, h, pad, k, d, tol);
    worst = MAX (worst, d);
    gst_clear_buffer (&prev);
    prev = b ? gst_buffer_ref (out) : gst_buffer_ref (want);
    gst_buffer_unref (want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_clear_buffer (&prev);
  gst_buffer_unref (base);
  gst_harness_teardown (a);
  if (b)
    gst_harness_teardown (b);
  return worst;
}

static const struct
{
  const gchar *props;
  Props p;
} cases[] = {
  {"strength=0.8 noise-level=8 spatial=0", {CF_TEMPORAL_ADAPTIVE, 0.8, 8, 0}},
  {"strength=0.6 spatial=0.12", {CF_TEMPORAL_ADAPTIVE, 0.6, 0, 0.12}},
  {"mode=persistence strength=0.7", {CF_TEMPORAL_PERSISTENCE, 0.7, 0, 0.1}},
};

GST_START_TEST (test_reference_sequences)
{
  static const gchar *formats[] = { "GRAY8", "GRAY16_LE", "I420", "NV12",
    "RGBA", "AYUV", "P010_10LE", "I422_10LE", "Y444_16LE", "BGR", "YUY2",
    "UYVY", "YVYU", "v210"
  };
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {33, 17} };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
        CfBorder border = (c + f + s) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP;
        gchar *launch = g_strdup_printf (ELEMENT " %s border-mode=%s "
            "backend=cpu", cases[c].props, border ? "mirror" : "clamp");

        run_sequence (launch, NULL, &cases[c].p,
            gst_video_format_from_string (formats[f]), sizes[s][0],
            sizes[s][1], 0, 4, border, 0);
        g_free (launch);
      }
}

GST_END_TEST;

/* The second frame of two is filtered (random frames: all motion, so the
 * bilateral pass), alpha untouched. */
GST_START_TEST (test_every_template_format)
{
  GArray *formats = cf_template_formats (ELEMENT);

  fail_unless (formats->len >= 30);
  for (guint i = 0; i < formats->len; i++) {
    GstVideoFormat f = g_array_index (formats, GstVideoFormat, i);
    const gchar *name = gst_video_format_to_string (f);
    GstHarness *h = cf_harness_new (ELEMENT " spatial=0.3 backend=cpu", name,
        33, 17);
    GstBuffer *start = cf_random_frame (f, 33, 17, 0, i);
    GstBuffer *in = cf_random_frame (f, 33, 17, 0, i + 100);
    GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (start));

    fail_unless_equals_int (cf_frames_max_diff (start, out, f, 33, 17), 0);
    gst_buffer_unref (out);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (cf_frames_max_diff (in, out, f, 33, 17) > 0,
        "%s: random data unchanged", name);
    fail_unless (cf_frames_alpha_equal (in, out, f, 33, 17),
        "%s: alpha changed", name);
    gst_buffer_unref (start);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  g_array_unref (formats);
}

GST_END_TEST;

static const Props padded_props = { CF_TEMPORAL_ADAPTIVE, 0.7, 0, 0.1 };
static const Props order_props = { CF_TEMPORAL_ADAPTIVE, 0.8, 8, 0 };
static const Props live_props = { CF_TEMPORAL_PERSISTENCE, 0.5, 4, 0 };

/* Padded rows (GstVideoMeta) give the reference's frames. */
GST_START_TEST (test_padded_strides)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_YUY2,
    GST_VIDEO_FORMAT_v210
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    run_sequence (ELEMENT " strength=0.7 spatial=0.1 backend=cpu", NULL,
        &padded_props, formats[i], 31, 13, 24, 4, CF_BORDER_CLAMP, 0);
}

GST_END_TEST;

/* Sets properties of the harness's element while it plays. */
static void
set (GstHarness * h, const gchar * first, ...)
{
  GstElement *e = gst_harness_find_element (h, ELEMENT);
  va_list args;

  va_start (args, first);
  g_object_set_valist (G_OBJECT (e), first, args);
  va_end (args);
  gst_object_unref (e);
}

static GstBuffer *
push_pull (GstHarness * h, GstBuffer * in, GstBufferFlags flags)
{
  GstBuffer *b = gst_buffer_copy (in);

  GST_BUFFER_FLAG_SET (b, flags);
  return gst_harness_push_and_pull (h, b);
}

/* Whether @out is @in unchanged (a restart). */
static gboolean
passes (GstBuffer * in, GstBuffer * out)
{
  gboolean same = cf_frames_max_diff (in, out, GST_VIDEO_FORMAT_I420, 32,
      32) == 0;

  gst_buffer_unref (out);
  return same;
}

/* The first frame, and the first after DISCONT, GAP (and the frame after
 * it), flush, a new segment, a caps change and passthrough pass through;
 * others are filtered. */
GST_START_TEST (test_history_restarts)
{
  GstHarness *h = cf_harness_new (ELEMENT " strength=0.8 noise-level=10 "
      "backend=cpu frames-in-flight=2", "I420", 32, 32);
  GstBuffer *a = cf_random_frame (GST_VIDEO_FORMAT_I420, 32, 32, 0, 1);
  GstBuffer *b = sequence_frame (a, GST_VIDEO_FORMAT_I420, 32, 32, 0);
  GstSegment segment;

  fail_unless (passes (a, push_pull (h, a, 0)));
  fail_if (passes (b, push_pull (h, b, 0)));
  fail_unless (passes (b, push_pull (h, b, GST_BUFFER_FLAG_DISCONT)));
  fail_if (passes (a, push_pull (h, a, 0)));
  fail_unless (passes (b, push_pull (h, b, GST_BUFFER_FLAG_GAP)));
  fail_unless (passes (a, push_pull (h, a, 0)));
  fail_if (passes (b, push_pull (h, b, 0)));

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless (passes (a, push_pull (h, a, 0)));
  fail_if (passes (b, push_pull (h, b, 0)));

  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless (passes (a, push_pull (h, a, 0)));
  fail_if (passes (b, push_pull (h, b, 0)));

  gst_harness_set_caps_str (h,
      "video/x-raw,format=I420,width=32,height=32,framerate=25/1",
      "video/x-raw,format=I420,width=32,height=32,framerate=25/1");
  fail_unless (passes (a, push_pull (h, a, 0)));
  fail_if (passes (b, push_pull (h, b, 0)));

  /* identity settings: passthrough; leaving it restarts */
  set (h, "strength", 0.0, "spatial", 0.0, NULL);
  fail_unless (passes (a, push_pull (h, a, 0)));
  set (h, "strength", 0.8, NULL);
  fail_unless (passes (b, push_pull (h, b, 0)));
  fail_if (passes (a, push_pull (h, a, 0)));

  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames in flight: EOS lets every frame out, in order, each filtered
 * against the one before (the reference on the CPU). */
GST_START_TEST (test_frames_in_flight_keep_order)
{
  run_sequence (ELEMENT " strength=0.8 noise-level=8 spatial=0 backend=cpu "
      "frames-in-flight=4", NULL, &order_props, GST_VIDEO_FORMAT_NV12, 64, 48,
      0, 12, CF_BORDER_CLAMP, 0);
}

GST_END_TEST;

GST_START_TEST (test_eos_keeps_every_frame)
{
  GstHarness *h = cf_harness_new (ELEMENT " backend=cpu frames-in-flight=3",
      "NV12", 64, 48);
  gboolean saw_eos = FALSE;
  GstEvent *ev;

  for (guint i = 0; i < 10; i++)
    fail_unless_equals_int (gst_harness_push (h,
            cf_random_frame (GST_VIDEO_FORMAT_NV12, 64, 48, 0, i)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 10);
  while ((ev = gst_harness_try_pull_event (h))) {
    saw_eos |= GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (saw_eos);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A change while PLAYING applies from the next frame: persistence's
 * output is the fixed blend of the frame and the last output. */
GST_START_TEST (test_live_property_change)
{
  GstHarness *h = cf_harness_new (ELEMENT " strength=0.8 noise-level=4 "
      "spatial=0 backend=cpu", "GRAY8", 16, 8);
  GstBuffer *a = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0, 5);
  GstBuffer *b = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0, 6);
  GstBuffer *out, *want;

  gst_buffer_unref (gst_harness_push_and_pull (h, gst_buffer_ref (a)));
  /* random frames: all motion, so adaptive mode takes b as it is */
  out = gst_harness_push_and_pull (h, gst_buffer_ref (b));
  fail_unless_equals_int (cf_frames_max_diff (out, b, GST_VIDEO_FORMAT_GRAY8,
          16, 8), 0);
  gst_buffer_unref (out);
  set (h, "mode", CF_TEMPORAL_PERSISTENCE, "strength", 0.5, NULL);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (a));
  want = reference (a, b, 2, GST_VIDEO_FORMAT_GRAY8, 16, 8, &live_props,
      CF_BORDER_CLAMP);
  fail_unless_equals_int (cf_frames_max_diff (out, want,
          GST_VIDEO_FORMAT_GRAY8, 16, 8), 0);
  fail_unless (cf_frames_max_diff (out, a, GST_VIDEO_FORMAT_GRAY8, 16, 8) > 0);
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  static const struct
  {
    const gchar *name;
    gdouble min, max, def;
  } doubles[] = {
    {"strength", 0, 1, 0.8}, {"noise-level", 0, 65535, 0},
    {"spatial", 0, 1, 0.1},
  };
  gdouble v;
  gint mode;

  fail_unless (e != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++) {
    GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        doubles[i].name);
    GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (spec);

    fail_unless (spec->flags & GST_PARAM_CONTROLLABLE);
    fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING);
    fail_unless_equals_float (d->minimum, doubles[i].min);
    fail_unless_equals_float (d->maximum, doubles[i].max);
    fail_unless_equals_float (d->default_value, doubles[i].def);
    g_object_set (e, doubles[i].name, 0.25, NULL);
    g_object_get (e, doubles[i].name, &v, NULL);
    fail_unless_equals_float (v, 0.25);
  }
  gst_util_set_object_arg (G_OBJECT (e), "mode", "persistence");
  g_object_get (e, "mode", &mode, NULL);
  fail_unless_equals_int (mode, CF_TEMPORAL_PERSISTENCE);
  gst_object_unref (e);
}

GST_END_TEST;

/* A still picture with Gaussian noise (sigma 10) settles toward its mean:
 * the noise left after 40 frames is under 0.4 of the input's (the
 * recursion alone leaves sqrt ((1 - s) / (1 + s)) = 0.23; the pixels that
 * noise makes look moving, about 1 in 100 a frame, restart and carry
 * their noise for a few frames), with the level given and estimated. */
GST_START_TEST (test_static_noise_converges)
{
  static const gchar *levels[] = { "noise-level=10", "noise-level=0" };

  for (guint l = 0; l < G_N_ELEMENTS (levels); l++) {
    gchar *launch = g_strdup_printf (ELEMENT " strength=0.9 spatial=0 %s "
        "backend=cpu", levels[l]);
    GstHarness *h = cf_harness_new (launch, "GRAY8", 64, 48);
    GRand *rand = g_rand_new_with_seed (9);
    gdouble in_var = 0, out_var = 0;

    for (guint k = 0; k < 40; k++) {
      GstBuffer *in = gst_buffer_new_allocate (NULL, 64 * 48, NULL);
      GstBuffer *out;
      GstMapInfo mi, mo;

      gst_buffer_map (in, &mi, GST_MAP_WRITE);
      for (guint i = 0; i < mi.size; i++)
        mi.data[i] = CLAMP (lround (128 + 10 * normal (rand)), 0, 255);
      if (k == 39)
        for (guint i = 0; i < mi.size; i++)
          in_var += (mi.data[i] - 128.0) * (mi.data[i] - 128.0) / mi.size;
      gst_buffer_unmap (in, &mi);
      out = gst_harness_push_and_pull (h, in);
      if (k == 39) {
        gst_buffer_map (out, &mo, GST_MAP_READ);
        for (guint i = 0; i < mo.size; i++)
          out_var += (mo.data[i] - 128.0) * (mo.data[i] - 128.0) / mo.size;
        gst_buffer_unmap (out, &mo);
      }
      gst_buffer_unref (out);
    }
    g_print ("%s: noise %.2f -> %.2f\n", levels[l], sqrt (in_var),
        sqrt (out_var));
    fail_unless (sqrt (out_var) < 0.4 * sqrt (in_var), "%s: noise %.2f -> "
        "%.2f", levels[l], sqrt (in_var), sqrt (out_var));
    g_rand_free (rand);
    gst_harness_teardown (h);
    g_free (launch);
  }
}

GST_END_TEST;

/* A cut (a completely different picture) after 20 frames of a still scene
 * leaves no trace of it: adaptive mode takes the new frame as it is. */
GST_START_TEST (test_cut_passes_through)
{
  GstHarness *h = cf_harness_new (ELEMENT " strength=0.9 noise-level=6 "
      "spatial=0 backend=cpu", "I420", 48, 32);
  GstBuffer *a = cf_random_frame (GST_VIDEO_FORMAT_I420, 48, 32, 0, 11);
  GstBuffer *b = cf_random_frame (GST_VIDEO_FORMAT_I420, 48, 32, 0, 12);
  GstBuffer *out;

  for (guint k = 0; k < 20; k++)
    gst_buffer_unref (gst_harness_push_and_pull (h, sequence_frame (a,
                GST_VIDEO_FORMAT_I420, 48, 32, 0)));
  out = gst_harness_push_and_pull (h, gst_buffer_ref (b));
  fail_unless_equals_int (cf_frames_max_diff (out, b, GST_VIDEO_FORMAT_I420,
          48, 32), 0);
  gst_buffer_unref (out);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_cuda_backend_without_gpu_is_an_error)
{
  GstElement *e;

  if (cf_have_gpu ())
    return;
  e = gst_parse_launch ("videotestsrc num-buffers=1 ! " ELEMENT
      " backend=cuda ! fakesink", NULL);
  fail_unless (e != NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* How far backend=cuda may stray from backend=cpu over a short sequence,
 * each recursion on its own: nowhere, but where the spatial pass (adaptive
 * mode with a range sigma) is blended in, its bilateral filter may round a
 * step apart, which the recursion carries on and may steer a later frame's
 * motion test by: 2 over 5 frames at strengths up to 0.8. */
static gint
cuda_tolerance (CfTemporalMode mode, gdouble spatial)
{
  return mode == CF_TEMPORAL_ADAPTIVE && spatial > 0.0 ? 2 : 0;
}

/* With a device: backend=cuda against backend=cpu over sequences, one and
 * three frames in flight (cuda_tolerance). */
GST_START_TEST (test_cuda_backend)
{
  static const gchar *formats[] = { "RGBA", "NV12", "I420", "GRAY16_LE",
    "GRAY8", "AYUV", "Y444_16LE", "BGR", "P010_10LE", "I420_10LE",
    "Y444_10LE", "YUY2", "UYVY", "v210"
  };
  static const gint sizes[][2] = { {7, 3}, {640, 361} };

  if (!cf_have_gpu ())
    return;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
        guint fif = (c + f + s) % 2 ? 3 : 1;
        gchar *gpu = g_strdup_printf (ELEMENT " %s backend=cuda "
            "frames-in-flight=%u", cases[c].props, fif);
        gchar *cpu = g_strdup_printf (ELEMENT " %s backend=cpu",
            cases[c].props);
        gint d = run_sequence (gpu, cpu, NULL,
            gst_video_format_from_string (formats[f]), sizes[s][0],
            sizes[s][1], s == 1 ? 40 : 0, 5, CF_BORDER_CLAMP,
            cuda_tolerance (cases[c].p.mode, cases[c].p.spatial));

        g_print ("cuda vs cpu: %s %s %dx%d: max diff %d\n", cases[c].props,
            formats[f], sizes[s][0], sizes[s][1], d);
        g_free (gpu);
        g_free (cpu);
      }
}

GST_END_TEST;

/* With a device: random cases, backend=cuda against backend=cpu over
 * sequences (each recursion on its own, as above): a random template
 * format, size and row padding, random settings of both modes and the
 * base class's (border, frames in flight, a region or a gate). The set is
 * the same every run; CF_RANDOM_SEED and CF_RANDOM_CASES pick others. */
GST_START_TEST (test_cuda_random_sequences)
{
  guint32 seed = cf_env_uint ("CF_RANDOM_SEED", 1);
  guint cases = cf_env_uint ("CF_RANDOM_CASES", 24);
  GArray *formats;
  GRand *r;

  if (!cf_have_gpu ())
    return;
  formats = cf_template_formats (ELEMENT);
  r = g_rand_new_with_seed (seed);
  for (guint c = 0; c < cases; c++) {
    GstVideoFormat f = g_array_index (formats, GstVideoFormat,
        g_rand_int_range (r, 0, formats->len));
    const GstVideoFormatInfo *finfo = gst_video_format_get_info (f);
    gdouble full = (1u << GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0)) - 1;
    guint pad = g_rand_boolean (r) ? 40 : 0;
    GString *props = g_string_new (NULL);
    CfTemporalMode mode;
    gdouble strength, noise, spatial;
    gchar *gpu, *cpu;
    gint w, h, d, tol;

    cf_random_size (r, &w, &h);
    mode = g_rand_boolean (r) ? CF_TEMPORAL_ADAPTIVE : CF_TEMPORAL_PERSISTENCE;
    spatial = g_rand_boolean (r) ? 0.0 : g_rand_double_range (r, 0.02, 0.4);
    tol = cuda_tolerance (mode, spatial);
    /* where the runs may stray, strengths up to 0.8 (cuda_tolerance) */
    strength = g_rand_double_range (r, 0.0, tol ? 0.8 : 1.0);
    noise = g_rand_boolean (r) ? 0.0 : g_rand_double_range (r, 0.5, full / 8);
    g_string_append_printf (props, "mode=%s strength=%.3f noise-level=%.2f "
        "spatial=%.3f", mode == CF_TEMPORAL_ADAPTIVE ? "adaptive" :
        "persistence", strength, noise, spatial);
    cf_random_base_props (props, r, f, w, h);
    gpu = g_strdup_printf (ELEMENT " %s backend=cuda", props->str);
    cpu = g_strdup_printf (ELEMENT " %s backend=cpu", props->str);
    if (cf_test_format_wanted (gst_video_format_to_string (f))) {
      d = run_sequence (gpu, cpu, NULL, f, w, h, pad, 5, CF_BORDER_CLAMP, tol);
      g_print ("random %u: %s %dx%d (pad %u): %s: max diff %d\n", c,
          gst_video_format_to_string (f), w, h, pad, props->str, d);
    }
    g_free (gpu);
    g_free (cpu);
    g_string_free (props, TRUE);
  }
  g_rand_free (r);
  g_array_unref (formats);
}

GST_END_TEST;

/* A region of interest: the history is the element's output, the input
 * outside the region; inside it the output is the filter of the frame
 * against that history (the reference with the element's own previous
 * output), frame after frame; on the CPU backend, and with a device on
 * the CUDA one too (without the spatial pass: exactly). */
GST_START_TEST (test_region_filters_against_its_output)
{
  static const gchar *formats[] = { "GRAY8", "NV12", "RGBA", "I420_10LE" };
  static const Props props = { CF_TEMPORAL_ADAPTIVE, 0.8, 6, 0 };
  const GstVideoRectangle r = { 10, 6, 17, 11 };
  const gint w = 41, h = 27;

  for (guint b = 0; b < (cf_have_gpu ()? 2 : 1); b++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
      GstVideoFormat format = gst_video_format_from_string (formats[i]);
      gchar *line = g_strdup_printf (ELEMENT " strength=0.8 noise-level=6 "
          "spatial=0 roi-x=%d roi-y=%d roi-width=%d roi-height=%d "
          "backend=%s", r.x, r.y, r.w, r.h, b ? "cuda" : "cpu");
      GstHarness *roi = cf_harness_new (line, formats[i], w, h);
      GstBuffer *base = cf_random_frame (format, w, h, 0, i + 7);
      GstBuffer *prev = NULL;

      for (guint k = 0; k < 5; k++) {
        GstBuffer *in = sequence_frame (base, format, w, h, k);
        GstBuffer *o = gst_harness_push_and_pull (roi, gst_buffer_ref (in));
        GstBuffer *want = reference (in, prev, k, format, w, h, &props,
            CF_BORDER_CLAMP);

        cf_check_rect (in, want, o, format, w, h, &r, line);
        gst_clear_buffer (&prev);
        prev = o;
        gst_buffer_unref (want);
        gst_buffer_unref (in);
      }
      gst_clear_buffer (&prev);
      gst_buffer_unref (base);
      gst_harness_teardown (roi);
      g_free (line);
    }
}

GST_END_TEST;

/* Copies field @f of @frame (@format, @w x @h) to @field, a frame of half
 * the height, or with @to_frame from @field back into @frame. */
static void
copy_field_buffer (GstBuffer * frame, GstBuffer * field, GstVideoFormat format,
    gint w, gint h, guint f, gboolean to_frame)
{
  GstVideoInfo info, half;
  GstVideoFrame whole, part;

  gst_video_info_set_format (&info, format, w, h);
  gst_video_info_set_format (&half, format, w, h / 2);
  fail_unless (gst_video_frame_map (&whole, &info, frame,
          to_frame ? GST_MAP_WRITE : GST_MAP_READ));
  fail_unless (gst_video_frame_map (&part, &half, field,
          to_frame ? GST_MAP_READ : GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
    cf_copy_field (&whole, &part, p, f, !to_frame);
  gst_video_frame_unmap (&part);
  gst_video_frame_unmap (&whole);
}

/* Interleaved interlaced video: each field keeps a history of its own,
 * never mixed with the other's, so a sequence of frames gives, field by
 * field, what the sequence of that field's pictures gives through the
 * element with progressive caps (on the CPU backend, and with a device on
 * the CUDA one too). */
GST_START_TEST (test_fields_keep_their_own_history)
{
  static const gchar *formats[] = { "NV12", "GRAY16_LE", "YUY2", "v210" };
  const gint w = 38, h = 24;

  for (guint b = 0; b < (cf_have_gpu ()? 2 : 1); b++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
      GstVideoFormat format = gst_video_format_from_string (formats[i]);
      gchar *launch = g_strdup_printf (ELEMENT " strength=0.8 spatial=0.1 "
          "backend=%s", b ? "cuda" : "cpu");
      gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
          "height=%d,framerate=30/1,interlace-mode=interleaved", formats[i],
          w, h);
      GstHarness *whole = gst_harness_new_parse (launch);
      GstHarness *field[2];
      GstBuffer *base = cf_random_frame (format, w, h, 0, i + 1);
      GstVideoInfo half;

      gst_video_info_set_format (&half, format, w, h / 2);
      gst_harness_set_caps_str (whole, caps, caps);
      for (guint f = 0; f < 2; f++)
        field[f] = cf_harness_new (launch, formats[i], w, h / 2);
      for (guint k = 0; k < 5; k++) {
        GstBuffer *in = sequence_frame (base, format, w, h, k);
        GstBuffer *out = gst_harness_push_and_pull (whole, gst_buffer_ref (in));
        GstBuffer *want = gst_buffer_copy_deep (out);

        for (guint f = 0; f < 2; f++) {
          GstBuffer *fin = gst_buffer_new_allocate (NULL, half.size, NULL);
          GstBuffer *fout;

          copy_field_buffer (in, fin, format, w, h, f, FALSE);
          fout = gst_harness_push_and_pull (field[f], fin);
          copy_field_buffer (want, fout, format, w, h, f, TRUE);
          gst_buffer_unref (fout);
        }
        fail_unless_equals_int (cf_frames_max_diff (out, want, format, w, h),
            0);
        gst_buffer_unref (want);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      gst_buffer_unref (base);
      gst_harness_teardown (whole);
      for (guint f = 0; f < 2; f++)
        gst_harness_teardown (field[f]);
      g_free (caps);
      g_free (launch);
    }
}

GST_END_TEST;

/* With a device: in a chain, where frames come and go in device memory
 * (the hand-off), the history works as with host memory: the chain on
 * the GPU against the same chain on the CPU, one and three frames in
 * flight. */
GST_START_TEST (test_cuda_chain)
{
  static const gchar *formats[] = { "NV12", "GRAY16_LE", "RGBA" };

  if (!cf_have_gpu ())
    return;
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint fif = 1; fif <= 3; fif += 2) {
      gchar *chain[2];

      for (guint b = 0; b < 2; b++)
        chain[b] = g_strdup_printf ("cudamedian size=3 backend=%s "
            "frames-in-flight=%u ! " ELEMENT " noise-level=8 backend=%s "
            "frames-in-flight=%u ! cudagaussianblur sigma=1 backend=%s "
            "frames-in-flight=%u", b ? "cpu" : "cuda", fif,
            b ? "cpu" : "cuda", fif, b ? "cpu" : "cuda", fif);
      gint d = run_sequence (chain[0], chain[1], NULL,
          gst_video_format_from_string (formats[f]), 320, 181, 0, 8,
          CF_BORDER_CLAMP, 3);

      g_print ("cuda chain vs cpu: %s frames-in-flight=%u: max diff %d\n",
          formats[f], fif, d);
      g_free (chain[0]);
      g_free (chain[1]);
    }
}

GST_END_TEST;

static Suite *
cudatemporaldenoise_suite (void)
{
  Suite *s = suite_create (ELEMENT);
  TCase *tc = tcase_create (ELEMENT);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_reference_sequences);
  tcase_add_test (tc, test_every_template_format);
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_history_restarts);
  tcase_add_test (tc, test_frames_in_flight_keep_order);
  tcase_add_test (tc, test_eos_keeps_every_frame);
  tcase_add_test (tc, test_live_property_change);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_static_noise_converges);
  tcase_add_test (tc, test_cut_passes_through);
  tcase_add_test (tc, test_cuda_backend_without_gpu_is_an_error);
  tcase_add_test (tc, test_cuda_backend);
  tcase_add_test (tc, test_cuda_chain);
  tcase_add_test (tc, test_cuda_random_sequences);
  tcase_add_test (tc, test_fields_keep_their_own_history);
  tcase_add_test (tc, test_region_filters_against_its_output);
  return s;
}

GST_CHECK_MAIN (cudatemporaldenoise);
