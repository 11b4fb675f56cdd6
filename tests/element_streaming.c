/* Streaming tests of the GstCudaFilter base class with frames in flight,
 * through cudagaussianblur: every frame comes out once, in order, whatever
 * EOS, flush, caps and state changes do; the latency query answers what is
 * configured; properties apply to the frame they were set before; memory
 * stays flat over a long run. On the CPU backend everywhere and, where a
 * GPU is present, on the CUDA backend too, compared with the CPU. */
#include "element_util.h"
#include "gaussian.h"

#include <stdio.h>
#include <unistd.h>

#define ELEMENT "cudagaussianblur"
#define FRAME_DURATION (GST_SECOND / 30)

/* The backends to test here: the CPU always, CUDA where there is a GPU. */
static guint
n_backends (void)
{
  return cf_have_gpu ()? 2 : 1;
}

static const gchar *
backend_name (guint b)
{
  return b == 0 ? "cpu" : "cuda";
}

static GstHarness *
harness_new (guint backend, guint fif, const gchar * props,
    const gchar * format, gint w, gint h)
{
  gchar *launch = g_strdup_printf (ELEMENT " backend=%s frames-in-flight=%u "
      "%s", backend_name (backend), fif, props);
  GstHarness *hrn = cf_harness_new (launch, format, w, h);

  g_free (launch);
  return hrn;
}

/* Frame number @i: random content seeded by @i, its number as offset and
 * its place in a 30 fps stream as timestamps. */
static GstBuffer *
numbered_frame (GstVideoFormat format, gint w, gint h, guint i)
{
  GstBuffer *buf = cf_random_frame (format, w, h, 0, i);

  GST_BUFFER_OFFSET (buf) = i;
  GST_BUFFER_PTS (buf) = i * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

static void
push_frames (GstHarness * hrn, GstVideoFormat format, gint w, gint h,
    guint first, guint n)
{
  for (guint i = first; i < first + n; i++)
    fail_unless_equals_int (gst_harness_push (hrn, numbered_frame (format, w,
                h, i)), GST_FLOW_OK);
}

/* Pulls every buffer the harness holds; each must carry the number after
 * the previous one (*next), with timestamps to match. */
static guint
pull_in_order (GstHarness * hrn, guint64 * next, GPtrArray * keep)
{
  GstBuffer *buf;
  guint n = 0;

  while ((buf = gst_harness_try_pull (hrn))) {
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), *next);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), *next * FRAME_DURATION);
    (*next)++;
    n++;
    if (keep)
      g_ptr_array_add (keep, buf);
    else
      gst_buffer_unref (buf);
  }
  return n;
}

static gboolean
push_eos (GstHarness * hrn)
{
  return gst_harness_push_event (hrn, gst_event_new_eos ());
}

static void
flush (GstHarness * hrn)
{
  GstSegment segment;

  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_stop (TRUE)));
  /* flush-stop resets the segment: send one again before more data */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_segment (&segment)));
}

/* Counts buffers going past until EOS does: EOS must come after the last. */
static GstPadProbeReturn
count_until_eos (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  gint *counts = data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    counts[0]++;
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS)
    counts[1] = counts[0];
  return GST_PAD_PROBE_OK;
}

/* N frames in, EOS: N frames out in order before EOS, each before the next
 * goes in, whatever the frames in flight (a frame leaves when its work is
 * done, not when later frames arrive). Returns the frames. */
static GPtrArray *
run_sequence (guint backend, guint fif, guint n)
{
  GstHarness *hrn = harness_new (backend, fif, "sigma=2", "NV12", 64, 48);
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  GstPad *src = gst_element_get_static_pad (hrn->element, "src");
  gint counts[2] = { 0, -1 };
  guint64 next = 0;

  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, count_until_eos, counts, NULL);
  for (guint i = 0; i < n; i++) {
    GstBuffer *buf;

    push_frames (hrn, GST_VIDEO_FORMAT_NV12, 64, 48, i, 1);
    /* blocks until the frame is out (the harness gives up after 60 s) */
    buf = gst_harness_pull (hrn);
    fail_unless (buf != NULL, "frame %u of %u in flight did not come out "
        "before the next one went in", i, fif);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), next);
    next++;
    g_ptr_array_add (out, buf);
  }
  fail_unless (push_eos (hrn));
  pull_in_order (hrn, &next, out);
  fail_unless_equals_int (out->len, n);
  fail_unless_equals_int (counts[1], n);
  gst_object_unref (src);
  gst_harness_teardown (hrn);
  return out;
}

GST_START_TEST (test_eos_drains_in_order)
{
  for (guint fif = 1; fif <= 3; fif++) {
    GPtrArray *cpu = run_sequence (0, fif, 12);

    if (n_backends () > 1) {
      GPtrArray *gpu = run_sequence (1, fif, 12);

      for (guint i = 0; i < cpu->len; i++)
        fail_unless (cf_frames_max_diff (cpu->pdata[i], gpu->pdata[i],
                GST_VIDEO_FORMAT_NV12, 64, 48) <= 1,
            "frame %u, %u in flight: CUDA and CPU differ", i, fif);
      g_ptr_array_unref (gpu);
    }
    g_ptr_array_unref (cpu);
  }
}

GST_END_TEST;

/* A flush drops the frames still in flight; those sent before it (one may
 * have been on its way when it came) are in order; nothing of before the
 * flush comes after the frames that follow it; the stream goes on. */
GST_START_TEST (test_flush_drops_frames_in_flight)
{
  for (guint b = 0; b < n_backends (); b++)
    for (guint fif = 1; fif <= 3; fif++) {
      GstHarness *hrn = harness_new (b, fif, "sigma=1", "GRAY8", 32, 24);
      guint64 next = 0;

      push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 32, 24, 0, 5);
      fail_unless (pull_in_order (hrn, &next, NULL) <= 5);
      flush (hrn);
      pull_in_order (hrn, &next, NULL);
      fail_unless (next <= 5);
      next = 100;
      push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 32, 24, 100, 4);
      fail_unless (push_eos (hrn));
      fail_unless_equals_int (pull_in_order (hrn, &next, NULL), 4);
      gst_harness_teardown (hrn);
    }
}

GST_END_TEST;

/* A drain query (upstream changing pools) lets the frames in flight out. */
GST_START_TEST (test_drain_query_releases_frames)
{
  for (guint b = 0; b < n_backends (); b++) {
    GstHarness *hrn = harness_new (b, 3, "sigma=1", "GRAY8", 16, 16);
    GstQuery *drain = gst_query_new_drain ();
    guint64 next = 0;

    push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 16, 16, 0, 2);
    gst_pad_peer_query (hrn->srcpad, drain);
    fail_unless_equals_int (pull_in_order (hrn, &next, NULL), 2);
    push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 16, 16, 2, 3);
    fail_unless (push_eos (hrn));
    fail_unless_equals_int (pull_in_order (hrn, &next, NULL), 3);
    gst_query_unref (drain);
    gst_harness_teardown (hrn);
  }
}

GST_END_TEST;

/* New caps let the frames in flight out first, in their own format. */
GST_START_TEST (test_caps_change_drains_first)
{
  for (guint b = 0; b < n_backends (); b++) {
    GstHarness *hrn = harness_new (b, 3, "sigma=1", "GRAY8", 16, 16);
    GPtrArray *out = g_ptr_array_new_with_free_func (
        (GDestroyNotify) gst_buffer_unref);
    guint64 next = 0;

    push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 16, 16, 0, 2);
    gst_harness_set_caps_str (hrn,
        "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1",
        "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1");
    fail_unless_equals_int (pull_in_order (hrn, &next, out), 2);
    push_frames (hrn, GST_VIDEO_FORMAT_RGBA, 23, 5, 2, 3);
    fail_unless (push_eos (hrn));
    fail_unless_equals_int (pull_in_order (hrn, &next, out), 3);
    for (guint i = 0; i < out->len; i++)
      fail_unless_equals_int (gst_buffer_get_size (out->pdata[i]),
          i < 2 ? 16 * 16 : 23 * 5 * 4);
    g_ptr_array_unref (out);
    gst_harness_teardown (hrn);
  }
}

GST_END_TEST;

/* Stopping with frames in flight (the output thread running) drops them
 * safely, 100 times; what came out before came out in order; a restart is
 * clean. */
GST_START_TEST (test_state_cycling_with_frames_in_flight)
{
  static const GstState downto[] = { GST_STATE_NULL, GST_STATE_READY };
  const gchar *caps =
      "video/x-raw,format=I420,width=32,height=32,framerate=30/1";

  for (guint b = 0; b < n_backends (); b++) {
    GstHarness *hrn = harness_new (b, 3, "sigma=1", "I420", 32, 32);
    guint64 next = 0;

    for (guint i = 0; i < 100; i++) {
      fail_unless_equals_int (gst_element_set_state (hrn->element,
              downto[i % 2]), GST_STATE_CHANGE_SUCCESS);
      /* what the last round sent before it stopped */
      fail_unless (pull_in_order (hrn, &next, NULL) <= 3);
      fail_unless_equals_int (gst_element_set_state (hrn->element,
              GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
      gst_harness_set_caps_str (hrn, caps, caps);
      next = 10 * i;
      push_frames (hrn, GST_VIDEO_FORMAT_I420, 32, 32, 10 * i, 3);
    }
    fail_unless (push_eos (hrn));
    fail_unless (pull_in_order (hrn, &next, NULL) <= 3);
    fail_unless_equals_uint64 (next, 10 * 99 + 3);
    gst_harness_teardown (hrn);
  }
}

GST_END_TEST;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

/* Where frames enter, every earlier frame has left: a live source through
 * the element with 3 frames in flight, counted by pad probes. A frame
 * entering waits for the earlier ones to leave (the source's thread is
 * held, the element's output thread is not), up to 10 s: one that leaves
 * only when a later frame comes fails here, however fast or slow the
 * machine (valgrind, a loaded CI host). */
static GstPadProbeReturn
check_all_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  gint *counts = data;
  const gint64 give_up = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  while (g_atomic_int_get (&counts[1]) < counts[0]
      && g_get_monotonic_time () < give_up)
    g_usleep (1000);
  fail_unless_equals_int (g_atomic_int_get (&counts[1]), counts[0]);
  counts[0]++;
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_live_frames_leave_before_the_next_enters)
{
  for (guint b = 0; b < n_backends (); b++) {
    gchar *desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=10 "
        "! video/x-raw,format=GRAY16_LE,width=64,height=48,framerate=10/1 ! "
        ELEMENT " name=e backend=%s frames-in-flight=3 sigma=1 ! fakesink",
        backend_name (b));
    GstElement *pipeline = gst_parse_launch (desc, NULL);
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
    GstPad *sink = gst_element_get_static_pad (e, "sink");
    GstPad *src = gst_element_get_static_pad (e, "src");
    GstMessage *msg;
    gint counts[2] = { 0, 0 };  /* in, out */

    gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, check_all_out,
        counts, NULL);
    gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, count_buffer,
        &counts[1], NULL);
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
        30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
    fail_unless_equals_int (counts[0], 10);
    fail_unless_equals_int (g_atomic_int_get (&counts[1]), 10);
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (src);
    gst_object_unref (e);
    gst_object_unref (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

static GstFlowReturn
count_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  g_atomic_int_inc ((gint *) g_object_get_data (G_OBJECT (pad), "count"));
  gst_buffer_unref (buf);
  return GST_FLOW_OK;
}

static void
drain (GstPad * src)
{
  GstQuery *q = gst_query_new_drain ();

  gst_pad_peer_query (src, q);
  gst_query_unref (q);
}

/* With 2 frames in flight the output thread sends the frames; downstream's
 * answer still reaches upstream, once, at the next frame (which goes in
 * flight all the same): not-linked while the source pad is unlinked, OK
 * again once it is linked. */
GST_START_TEST (test_flow_return_reaches_upstream)
{
  for (guint b = 0; b < n_backends (); b++) {
    GstHarness *hrn = harness_new (b, 2, "sigma=1", "GRAY8", 16, 16);
    GstPad *src = gst_element_get_static_pad (hrn->element, "src");
    GstPad *peer = gst_pad_get_peer (src);
    GstPad *counter = gst_pad_new ("counter", GST_PAD_SINK);
    gint count = 0;

    gst_pad_unlink (src, peer);
    push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 16, 16, 0, 1);
    drain (hrn->srcpad);        /* frame 0 was sent: not linked */
    fail_unless_equals_int (gst_harness_push (hrn,
            numbered_frame (GST_VIDEO_FORMAT_GRAY8, 16, 16, 1)),
        GST_FLOW_NOT_LINKED);
    drain (hrn->srcpad);        /* so was frame 1 */
    g_object_set_data (G_OBJECT (counter), "count", &count);
    gst_pad_set_chain_function (counter, count_chain);
    gst_pad_set_active (counter, TRUE);
    fail_unless_equals_int (gst_pad_link (src, counter), GST_PAD_LINK_OK);
    fail_unless_equals_int (gst_harness_push (hrn,
            numbered_frame (GST_VIDEO_FORMAT_GRAY8, 16, 16, 2)),
        GST_FLOW_NOT_LINKED);
    push_frames (hrn, GST_VIDEO_FORMAT_GRAY8, 16, 16, 3, 1);
    drain (hrn->srcpad);
    fail_unless_equals_int (g_atomic_int_get (&count), 2);
    gst_pad_unlink (src, counter);
    gst_pad_link (src, peer);
    gst_object_unref (counter);
    gst_object_unref (peer);
    gst_object_unref (src);
    gst_harness_teardown (hrn);
  }
}

GST_END_TEST;

GST_START_TEST (test_latency_query)
{
  for (guint fif = 1; fif <= 3; fif++) {
    GstHarness *hrn = harness_new (0, fif, "", "GRAY8", 16, 16);
    GstHarness *vfr = harness_new (0, fif, "", "GRAY8", 16, 16);

    /* frames leave when their work is done: frames in flight add nothing
     * to the minimum */
    gst_harness_set_upstream_latency (hrn, 5 * GST_MSECOND);
    fail_unless_equals_uint64 (gst_harness_query_latency (hrn),
        5 * GST_MSECOND);
    /* framerate 0/1: a frame's duration is unknown, nothing is added */
    gst_harness_set_caps_str (vfr,
        "video/x-raw,format=GRAY8,width=16,height=16,framerate=0/1",
        "video/x-raw,format=GRAY8,width=16,height=16,framerate=0/1");
    fail_unless_equals_uint64 (gst_harness_query_latency (vfr), 0);
    gst_harness_teardown (hrn);
    gst_harness_teardown (vfr);
  }
}

GST_END_TEST;

static GstBuffer *
expected_gray (GstBuffer * in, gint w, gint h, gdouble sigma)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;
  gint r = cf_gaussian_default_radius (sigma);
  CfGaussianParams p = { sigma, sigma, r, r, 0, CF_BORDER_CLAMP, 1 };

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  CfPlane src = cf_frame_plane (&fin, 0), dst = cf_frame_plane (&fout, 0);
  fail_unless (cf_gaussian_blur_ref (&src, &dst, &p) == CF_OK);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

/* A property set between two frames applies from the second one on, even
 * while the first is still in flight; sigma 0 passes its frame through
 * after the frames in flight. */
GST_START_TEST (test_live_changes_apply_to_the_right_frame)
{
  static const gdouble sigmas[] = { 1.0, 4.0, 0.0, 2.0, 0.5 };

  for (guint b = 0; b < n_backends (); b++)
    for (guint fif = 1; fif <= 3; fif++) {
      GstHarness *hrn = harness_new (b, fif, "", "GRAY8", 40, 30);
      GPtrArray *out = g_ptr_array_new_with_free_func (
          (GDestroyNotify) gst_buffer_unref);
      GstBuffer *in[G_N_ELEMENTS (sigmas)];
      guint64 next = 0;

      for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++) {
        in[i] = numbered_frame (GST_VIDEO_FORMAT_GRAY8, 40, 30, i);
        gst_harness_set (hrn, ELEMENT, "sigma", sigmas[i], NULL);
        fail_unless_equals_int (gst_harness_push (hrn, gst_buffer_ref (in[i])),
            GST_FLOW_OK);
      }
      fail_unless (push_eos (hrn));
      fail_unless_equals_int (pull_in_order (hrn, &next, out),
          G_N_ELEMENTS (sigmas));
      for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++) {
        GstBuffer *exp;

        if (sigmas[i] == 0.0) {
          fail_unless (out->pdata[i] == in[i], "frame %u not passed through",
              i);
          continue;
        }
        exp = expected_gray (in[i], 40, 30, sigmas[i]);
        fail_unless (cf_frames_max_diff (out->pdata[i], exp,
                GST_VIDEO_FORMAT_GRAY8, 40, 30) <= b,
            "%s, %u in flight: frame %u not blurred with sigma %g",
            backend_name (b), fif, i, sigmas[i]);
        gst_buffer_unref (exp);
      }
      for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
        gst_buffer_unref (in[i]);
      g_ptr_array_unref (out);
      gst_harness_teardown (hrn);
    }
}

GST_END_TEST;

/* Outputs of 12 frames that reuse the memory of 3 pre-made ones, as a
 * pool's buffers do (the CUDA backend page-locks such memory the second
 * time it comes): RGBA 97x61, padded rows, 2 in flight. */
static GPtrArray *
run_recurring (guint backend, GstBuffer ** src)
{
  GstHarness *hrn = harness_new (backend, 2, "sigma=1.5", "RGBA", 97, 61);
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  guint64 next = 0;

  for (guint i = 0; i < 12; i++) {
    GstBuffer *buf = gst_buffer_copy (src[i % 3]);

    GST_BUFFER_OFFSET (buf) = i;
    GST_BUFFER_PTS (buf) = i * FRAME_DURATION;
    fail_unless_equals_int (gst_harness_push (hrn, buf), GST_FLOW_OK);
  }
  fail_unless (push_eos (hrn));
  fail_unless_equals_int (pull_in_order (hrn, &next, out), 12);
  gst_harness_teardown (hrn);
  return out;
}

GST_START_TEST (test_recurring_input_memory)
{
  GstBuffer *src[3];
  GPtrArray *cpu, *gpu;

  for (guint i = 0; i < 3; i++)
    src[i] = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 97, 61, 12, i);
  cpu = run_recurring (0, src);
  for (guint i = 3; i < 12; i++)
    fail_unless_equals_int (cf_frames_max_diff (cpu->pdata[i],
            cpu->pdata[i % 3], GST_VIDEO_FORMAT_RGBA, 97, 61), 0);
  if (n_backends () > 1) {
    gpu = run_recurring (1, src);
    for (guint i = 0; i < 12; i++)
      fail_unless (cf_frames_max_diff (cpu->pdata[i], gpu->pdata[i],
              GST_VIDEO_FORMAT_RGBA, 97, 61) <= 1,
          "frame %u: CUDA and CPU differ", i);
    g_ptr_array_unref (gpu);
  }
  g_ptr_array_unref (cpu);
  for (guint i = 0; i < 3; i++)
    gst_buffer_unref (src[i]);
}

GST_END_TEST;

static gsize
rss_bytes (void)
{
  gchar *text = NULL;
  gsize pages = 0;

  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL))
    sscanf (text, "%*s %" G_GSIZE_FORMAT, &pages);
  g_free (text);
  return pages * sysconf (_SC_PAGESIZE);
}

/* 20,000 small frames with 3 in flight: every frame comes out, output
 * buffers come from a pool that does not grow, and memory stays flat. */
GST_START_TEST (test_long_run_memory_is_flat)
{
  const guint n = 20000, fif = 3;
  GstBuffer *src[4];

  for (guint i = 0; i < G_N_ELEMENTS (src); i++)
    src[i] = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 64, 48, 0, i);
  for (guint b = 0; b < n_backends (); b++) {
    GstHarness *hrn = harness_new (b, fif, "sigma=1", "GRAY8", 64, 48);
    GHashTable *outputs = g_hash_table_new (NULL, NULL);
    gsize rss_warm = 0;
    guint64 next = 0;

    for (guint i = 0; i < n; i++) {
      /* a new buffer sharing pre-made pixels: no per-frame pixel work */
      GstBuffer *buf = gst_buffer_copy (src[i % G_N_ELEMENTS (src)]);
      GstBuffer *out;

      GST_BUFFER_OFFSET (buf) = i;
      GST_BUFFER_PTS (buf) = i * FRAME_DURATION;
      fail_unless_equals_int (gst_harness_push (hrn, buf), GST_FLOW_OK);
      while ((out = gst_harness_try_pull (hrn))) {
        GstMapInfo map;

        fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), next++);
        fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
        g_hash_table_add (outputs, map.data);
        gst_buffer_unmap (out, &map);
        gst_buffer_unref (out);
      }
      if (i == 1000)
        rss_warm = rss_bytes ();
    }
    fail_unless (push_eos (hrn));
    while (gst_harness_try_pull (hrn))
      next++;
    fail_unless_equals_uint64 (next, n);
    GST_INFO ("%s: %u distinct output buffers, RSS %+" G_GSSIZE_FORMAT
        " bytes after warm-up", backend_name (b),
        g_hash_table_size (outputs), (gssize) (rss_bytes () - rss_warm));
    fail_unless (g_hash_table_size (outputs) <= fif + 2,
        "%u distinct output buffers", g_hash_table_size (outputs));
    fail_unless (rss_bytes () < rss_warm + 2 * 1024 * 1024,
        "RSS grew by %" G_GSIZE_FORMAT " bytes", rss_bytes () - rss_warm);
    g_hash_table_unref (outputs);
    gst_harness_teardown (hrn);
  }
  for (guint i = 0; i < G_N_ELEMENTS (src); i++)
    gst_buffer_unref (src[i]);
}

GST_END_TEST;

GST_START_TEST (test_frames_in_flight_property)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "frames-in-flight");
  guint fif;

  fail_unless (spec != NULL);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (spec)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (spec)->maximum, 8);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (spec)->default_value, 2);
  fail_unless (spec->flags & GST_PARAM_MUTABLE_READY);
  g_object_set (e, "frames-in-flight", 3, NULL);
  g_object_get (e, "frames-in-flight", &fif, NULL);
  fail_unless_equals_int (fif, 3);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
streaming_suite (void)
{
  Suite *s = suite_create ("streaming");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_frames_in_flight_property);
  tcase_add_test (tc, test_eos_drains_in_order);
  tcase_add_test (tc, test_flush_drops_frames_in_flight);
  tcase_add_test (tc, test_caps_change_drains_first);
  tcase_add_test (tc, test_drain_query_releases_frames);
  tcase_add_test (tc, test_state_cycling_with_frames_in_flight);
  tcase_add_test (tc, test_live_frames_leave_before_the_next_enters);
  tcase_add_test (tc, test_flow_return_reaches_upstream);
  tcase_add_test (tc, test_latency_query);
  tcase_add_test (tc, test_live_changes_apply_to_the_right_frame);
  tcase_add_test (tc, test_recurring_input_memory);
  tcase_add_test (tc, test_long_run_memory_is_flat);
  return s;
}

GST_CHECK_MAIN (streaming);
