/* Two-input elements: see element_side.h. */
#include "element_side.h"

#include <string.h>

#define MS (GST_MSECOND)

/* One element, a harness on its main pads and one on its side pad. */
typedef struct
{
  GstElement *element;
  GstHarness *main, *side;
  GstBus *bus;
  const CfSideTest *t;
} Pair;

static gchar *
caps_of (const gchar * format, gint width, gint height)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
}

/* The pair for "t->launch @extra"; with @caps, both pads get their caps
 * (the main first). */
static Pair
pair_new (const CfSideTest * t, const gchar * extra, gboolean caps)
{
  gchar *launch = g_strdup_printf ("%s %s", t->launch, extra);
  Pair p = { 0 };

  p.t = t;
  p.element = gst_parse_launch (launch, NULL);
  fail_unless (p.element != NULL, "%s", launch);
  p.bus = gst_bus_new ();
  gst_element_set_bus (p.element, p.bus);
  p.main = gst_harness_new_with_element (p.element, "sink", "src");
  if (caps) {
    gchar *c = caps_of (t->format, t->width, t->height);
    gst_harness_set_caps_str (p.main, c, c);
    g_free (c);
  }
  p.side = gst_harness_new_with_element (p.element, t->pad, NULL);
  if (caps) {
    gchar *c = caps_of (t->side_format, t->width, t->height);
    gst_harness_set_src_caps_str (p.side, c);
    g_free (c);
  }
  g_free (launch);
  return p;
}

static void
pair_free (Pair * p)
{
  gst_harness_teardown (p->side);
  gst_harness_teardown (p->main);
  gst_element_set_bus (p->element, NULL);
  gst_object_unref (p->bus);
  gst_object_unref (p->element);
}

static GstBuffer *
timed (GstBuffer * buf, GstClockTime pts, GstClockTime duration)
{
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = duration;
  return buf;
}

static GstBuffer *
frame (const CfSideTest * t, guint32 seed, GstClockTime pts)
{
  return timed (cf_random_frame (gst_video_format_from_string (t->format),
          t->width, t->height, 0, seed), pts, 10 * MS);
}

static GstBuffer *
side_frame (const CfSideTest * t, guint32 seed, GstClockTime pts,
    GstClockTime duration)
{
  return timed (cf_random_frame (gst_video_format_from_string
          (t->side_format), t->width, t->height, 0, seed), pts, duration);
}

/* Pushes @in at its time and checks the output against @side's. */
static void
check_frame (Pair * p, GstBuffer * in, GstBuffer * side)
{
  GstVideoFormat format = gst_video_format_from_string (p->t->format);
  GstBuffer *want = p->t->expected (in, side);
  GstBuffer *out;
  gint diff;

  fail_unless_equals_int (gst_harness_push (p->main, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (p->main);
  fail_unless (out != NULL);
  diff = cf_frames_max_diff (out, want, format, p->t->width, p->t->height);
  fail_unless (diff == 0, "%s: frame at %" GST_TIME_FORMAT " differs by %d "
      "from its expected output with %s", p->t->launch,
      GST_TIME_ARGS (GST_BUFFER_PTS (in)), diff, side ? "its side frame" :
      "no side frame");
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  gst_buffer_unref (in);
}

void
cf_side_check_pairing (const CfSideTest * t)
{
  Pair p = pair_new (t, "", TRUE);
  GstBuffer *s0 = side_frame (t, 10, 0, 100 * MS);
  GstBuffer *s1 = side_frame (t, 11, 200 * MS, 100 * MS);
  GstBuffer *s2 = side_frame (t, 12, 300 * MS, GST_CLOCK_TIME_NONE);

  /* all queued first: at most GST_CF_SIDE_AHEAD ahead without blocking */
  fail_unless_equals_int (gst_harness_push (p.side, gst_buffer_ref (s0)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (p.side, gst_buffer_ref (s1)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (p.side, gst_buffer_ref (s2)),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (p.side, gst_event_new_eos ()));
  check_frame (&p, frame (t, 1, 0), s0);
  check_frame (&p, frame (t, 2, 50 * MS), s0);
  /* in the gap: still the newest at or before the frame */
  check_frame (&p, frame (t, 3, 150 * MS), s0);
  check_frame (&p, frame (t, 4, 200 * MS), s1);
  check_frame (&p, frame (t, 5, 250 * MS), s1);
  check_frame (&p, frame (t, 6, 350 * MS), s2);
  check_frame (&p, frame (t, 7, 900 * MS), s2);
  pair_free (&p);

  /* a frame earlier than every side frame takes the first */
  p = pair_new (t, "", TRUE);
  fail_unless_equals_int (gst_harness_push (p.side, side_frame (t, 13,
              GST_SECOND, 100 * MS)), GST_FLOW_OK);
  {
    GstBuffer *first = side_frame (t, 13, GST_SECOND, 100 * MS);
    check_frame (&p, frame (t, 8, 0), first);
    gst_buffer_unref (first);
  }
  pair_free (&p);
  gst_buffer_unref (s0);
  gst_buffer_unref (s1);
  gst_buffer_unref (s2);
}

typedef struct
{
  GstHarness *h;
  GstBuffer *buf;
  GstFlowReturn ret;
  gint done;
} Pushing;

static gpointer
push_thread (gpointer data)
{
  Pushing *push = data;

  push->ret = gst_harness_push (push->h, push->buf);
  g_atomic_int_set (&push->done, 1);
  return NULL;
}

/* Pushes @buf into @h from a thread of its own, which is still in the
 * push 100 ms later. */
static GThread *
push_waiting (GstHarness * h, GstBuffer * buf, Pushing * push)
{
  GThread *thread;

  push->h = h;
  push->buf = buf;
  push->done = 0;
  thread = g_thread_new ("push", push_thread, push);
  g_usleep (100 * 1000);
  fail_if (g_atomic_int_get (&push->done), "the frame did not wait for its "
      "side frame");
  return thread;
}

void
cf_side_check_wait_and_flush (const CfSideTest * t)
{
  Pair p = pair_new (t, "", TRUE);
  GstBuffer *in = frame (t, 20, 0), *s = side_frame (t, 21, 0, GST_SECOND);
  GstBuffer *want = t->expected (in, s), *out;
  GstSegment segment;
  Pushing push;
  GThread *thread;

  /* the frame waits until its side frame comes */
  thread = push_waiting (p.main, in, &push);
  fail_unless_equals_int (gst_harness_push (p.side, s), GST_FLOW_OK);
  g_thread_join (thread);
  fail_unless_equals_int (push.ret, GST_FLOW_OK);
  out = gst_harness_pull (p.main);
  fail_unless_equals_int (cf_frames_max_diff (out, want,
          gst_video_format_from_string (t->format), t->width, t->height), 0);
  gst_buffer_unref (out);
  gst_buffer_unref (want);

  /* past the side frame's duration: waits; a flush ends the wait */
  thread = push_waiting (p.main, frame (t, 22, 2 * GST_SECOND), &push);
  fail_unless (gst_harness_push_event (p.main, gst_event_new_flush_start ()));
  g_thread_join (thread);
  fail_unless_equals_int (push.ret, GST_FLOW_FLUSHING);
  fail_unless (gst_harness_push_event (p.main,
          gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (p.main,
          gst_event_new_segment (&segment)));

  /* waiting again; the state change to NULL ends it */
  thread = push_waiting (p.main, frame (t, 23, 3 * GST_SECOND), &push);
  fail_unless_equals_int (gst_element_set_state (p.element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  g_thread_join (thread);
  fail_unless_equals_int (push.ret, GST_FLOW_FLUSHING);
  pair_free (&p);
}

/* Whether @h received EOS downstream. */
static gboolean
got_eos (GstHarness * h)
{
  GstEvent *e;
  gboolean eos = FALSE;

  while ((e = gst_harness_try_pull_event (h))) {
    eos |= GST_EVENT_TYPE (e) == GST_EVENT_EOS;
    gst_event_unref (e);
  }
  return eos;
}

void
cf_side_check_eos (const CfSideTest * t)
{
  Pair p = pair_new (t, "", TRUE);
  GstBuffer *s = side_frame (t, 30, 0, 33 * MS);

  /* side EOS: its last frame stays in use */
  fail_unless_equals_int (gst_harness_push (p.side, gst_buffer_ref (s)),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (p.side, gst_event_new_eos ()));
  check_frame (&p, frame (t, 31, 0), s);
  check_frame (&p, frame (t, 32, GST_SECOND), s);
  check_frame (&p, frame (t, 33, 2 * GST_SECOND), s);
  /* ... and the main stream goes on to its own EOS */
  fail_unless (gst_harness_push_event (p.main, gst_event_new_eos ()));
  fail_unless (got_eos (p.main));
  pair_free (&p);

  /* main EOS ends the stream: downstream gets it, the side pad answers
   * EOS from then on */
  p = pair_new (t, "", TRUE);
  fail_unless_equals_int (gst_harness_push (p.side, gst_buffer_ref (s)),
      GST_FLOW_OK);
  check_frame (&p, frame (t, 34, 0), s);
  fail_unless (gst_harness_push_event (p.main, gst_event_new_eos ()));
  fail_unless (got_eos (p.main));
  fail_unless_equals_int (gst_harness_push (p.side, side_frame (t, 35,
              GST_SECOND, 33 * MS)), GST_FLOW_EOS);
  pair_free (&p);
  gst_buffer_unref (s);
}

/* The error message on @bus says "same size". */
static void
check_size_error (GstBus * bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (err->domain == GST_CORE_ERROR
      && err->code == GST_CORE_ERROR_NEGOTIATION, "%s", err->message);
  fail_unless (strstr (err->message, "same size") != NULL, "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
}

void
cf_side_check_caps_refused (const CfSideTest * t)
{
  Pair p = pair_new (t, "", FALSE);
  gchar *main_caps = caps_of (t->format, t->width, t->height);
  gchar *other = caps_of (t->side_format, t->width + 1, t->height);
  GstSegment segment;

  /* side caps of another size than the negotiated frames: refused */
  gst_harness_set_caps_str (p.main, main_caps, main_caps);
  fail_unless (gst_harness_push_event (p.side,
          gst_event_new_stream_start ("side")));
  /* (a sticky event's push is TRUE even when refused: the error and the
   * next buffer tell) */
  gst_harness_push_event (p.side,
      gst_event_new_caps (gst_caps_from_string (other)));
  check_size_error (p.bus);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (p.side, gst_event_new_segment (&segment));
  fail_unless_equals_int (gst_harness_push (p.side, side_frame (t, 40, 0,
              GST_SECOND)), GST_FLOW_NOT_NEGOTIATED);
  pair_free (&p);

  /* side caps first, frames of another size then: the frame is refused */
  p = pair_new (t, "", FALSE);
  gst_harness_set_src_caps_str (p.side, other);
  gst_harness_set_caps_str (p.main, main_caps, main_caps);
  fail_unless_equals_int (gst_harness_push (p.side, timed (cf_random_frame
              (gst_video_format_from_string (t->side_format), t->width + 1,
                  t->height, 0, 41), 0, GST_SECOND)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (p.main, frame (t, 42, 0)),
      GST_FLOW_NOT_NEGOTIATED);
  check_size_error (p.bus);
  pair_free (&p);
  g_free (main_caps);
  g_free (other);
}

void
cf_side_check_without_side (const CfSideTest * t)
{
  gchar *no_wait = g_strdup_printf ("%s=false", t->no_wait);
  GstHarness *h = cf_harness_new (t->launch, t->format, t->width, t->height);
  GstBuffer *in = frame (t, 50, 0), *s = side_frame (t, 51, 0, GST_SECOND);
  GstBuffer *want = t->expected (in, NULL);
  GstBuffer *out;
  Pair p;

  /* no side pad: as without a side stream */
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless_equals_int (cf_frames_max_diff (out, want,
          gst_video_format_from_string (t->format), t->width, t->height), 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  /* never waiting: none before the first side frame, then the latest */
  p = pair_new (t, no_wait, TRUE);
  fail_unless_equals_int (gst_harness_push (p.main, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (p.main);
  fail_unless_equals_int (cf_frames_max_diff (out, want,
          gst_video_format_from_string (t->format), t->width, t->height), 0);
  gst_buffer_unref (out);
  fail_unless_equals_int (gst_harness_push (p.side, gst_buffer_ref (s)),
      GST_FLOW_OK);
  check_frame (&p, frame (t, 52, 0), s);
  pair_free (&p);
  gst_buffer_unref (in);
  gst_buffer_unref (s);
  gst_buffer_unref (want);
  g_free (no_wait);
}

void
cf_side_check_latency (const CfSideTest * t)
{
  Pair p = pair_new (t, "", TRUE);

  /* live on both: the larger minimum */
  gst_harness_set_upstream_latency (p.main, 10 * MS);
  gst_harness_set_upstream_latency (p.side, 50 * MS);
  fail_unless_equals_uint64 (gst_harness_query_latency (p.main), 50 * MS);
  gst_harness_set_upstream_latency (p.side, 5 * MS);
  fail_unless_equals_uint64 (gst_harness_query_latency (p.main), 10 * MS);
  pair_free (&p);
}

/* The output of "t->launch @extra" for @in with the side frame @side, both
 * at time 0. */
static GstBuffer *
run_pair (const CfSideTest * t, const gchar * extra, GstBuffer * in,
    GstBuffer * side)
{
  Pair p = pair_new (t, extra, TRUE);
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (p.side, timed (gst_buffer_ref
              (side), 0, GST_SECOND)), GST_FLOW_OK);
  out = gst_harness_push_and_pull (p.main, timed (gst_buffer_ref (in), 0,
          10 * MS));
  fail_unless (out != NULL);
  pair_free (&p);
  return out;
}

void
cf_side_check_region (const CfSideTest * t)
{
  /* even, so that a 4:2:0 plane's rectangle is exactly half of it */
  const gint rx = 10, ry = 6, rw = 16, rh = 12;
  gchar *roi = g_strdup_printf ("roi-x=%d roi-y=%d roi-width=%d "
      "roi-height=%d", rx, ry, rw, rh);
  GstBuffer *in = frame (t, 80, 0), *side = side_frame (t, 81, 0, GST_SECOND);
  GstBuffer *whole = run_pair (t, "", in, side);
  GstBuffer *part = run_pair (t, roi, in, side);
  GstVideoFrame fi, fw, fp;
  GstVideoInfo info;

  gst_video_info_set_format (&info, gst_video_format_from_string (t->format),
      t->width, t->height);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fw, &info, whole, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fp, &info, part, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    CfPlane pi = cf_frame_plane (&fi, p), pw = cf_frame_plane (&fw, p);
    CfPlane pp = cf_frame_plane (&fp, p);
    gint bpp = pi.channels * (pi.depth / 8);
    gint ws = pi.width < t->width ? 1 : 0, hs = pi.height < t->height ? 1 : 0;

    for (gint y = 0; y < pi.height; y++)
      for (gint x = 0; x < pi.width; x++) {
        gboolean inside = x >= rx >> ws && x < (rx + rw) >> ws
            && y >= ry >> hs && y < (ry + rh) >> hs;
        const guint8 *want = (const guint8 *) (inside ? pw.data : pi.data) +
            (gsize) y * (inside ? pw.stride : pi.stride) + (gsize) x * bpp;
        const guint8 *got = (const guint8 *) pp.data + (gsize) y * pp.stride +
            (gsize) x * bpp;
        fail_unless (memcmp (want, got, bpp) == 0, "%s %s: plane %u pixel "
            "(%d, %d) %s the region is not the %s", t->launch, t->format, p,
            x, y, inside ? "inside" : "outside", inside ? "whole frame's" :
            "input");
      }
  }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fw);
  gst_video_frame_unmap (&fp);
  gst_buffer_unref (in);
  gst_buffer_unref (side);
  gst_buffer_unref (whole);
  gst_buffer_unref (part);
  g_free (roi);
}
