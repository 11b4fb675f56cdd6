/* Chains of cudafilters elements: adjacent elements hand frames over in
 * device memory by themselves (system-memory caps, the hand-off allocator
 * in the ALLOCATION query), and a chain gives byte for byte what the same
 * elements give one at a time through system memory: in every format the
 * issue names, odd sizes, through queue and tee, a passthrough element, a
 * caps change, a flush and EOS with frames in flight, state cycles and a
 * seek. Where a GPU is
 * present the elements' stats prove one upload and one download per frame
 * for the whole chain, and a CPU map of device memory gives the right
 * pixels (and a CPU write reaches the next element). On the CPU backend
 * the same chains run the references (no copies at all). Needs the system
 * plugins (queue, tee). */
#include "element_util.h"


#define N_FRAMES 4

static const gchar *const steps[] = { "cudamedian size=3",
  "cudabilateral", "cudagaussianblur sigma=1"
};

static const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "RGBA", "NV12",
  "I420", "Y444_16LE", "YUY2", "v210"
};

/* Frames @in through a harness around @launch, pushed all at once (frames
 * in flight), then EOS: exactly as many come out, in order. */
/* The text of the first error an element of @hrn posted, or "none". */
static gchar *
first_error (GstBus * bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL, *text;

  if (!msg)
    return g_strdup ("none");
  gst_message_parse_error (msg, &err, &debug);
  text = g_strdup_printf ("%s (%s)", err->message, debug);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  return text;
}

static void
run_chain (const gchar * launch, const gchar * format, gint w, gint h,
    GstBuffer ** in, guint n, GstBuffer ** out)
{
  GstHarness *hrn = cf_harness_new (launch, format, w, h);
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (hrn->element, bus);
  for (guint i = 0; i < n; i++) {
    GstBuffer *b = gst_buffer_copy (in[i]);
    GstFlowReturn ret;

    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    ret = gst_harness_push (hrn, b);
    if (ret != GST_FLOW_OK) {
      gchar *error = first_error (bus);

      fail ("%s %s %dx%d: frame %u: %s, error: %s", launch, format, w, h, i,
          gst_flow_get_name (ret), error);
      g_free (error);
    }
  }
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));
  for (guint i = 0; i < n; i++) {
    out[i] = gst_harness_pull (hrn);
    fail_unless (out[i] != NULL, "%s: frame %u of %u missing", launch, i, n);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out[i]), i * GST_SECOND / 30);
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (hrn), 0);
  gst_element_set_bus (hrn->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (hrn);
}

/* What the first @n_steps elements give one at a time, each in a harness
 * of its own (system memory in and out). */
static GstBuffer *
run_one_at_a_time (guint n_steps, const gchar * format, gint w, gint h,
    GstBuffer * in)
{
  GstBuffer *buf = gst_buffer_ref (in);

  for (guint s = 0; s < n_steps; s++) {
    GstBuffer *next = cf_run_one (steps[s], format, w, h, buf);

    gst_buffer_unref (buf);
    buf = next;
  }
  return buf;
}

static gchar *
chain_line (guint n_steps, const gchar * between, guint frames_in_flight)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n_steps; i++)
    g_string_append_printf (s, "%s%s name=e%u frames-in-flight=%u",
        i ? between : "", steps[i], i, frames_in_flight);
  return g_string_free (s, FALSE);
}

static void
random_frames (GstBuffer ** in, guint n, const gchar * format, gint w, gint h,
    guint32 seed)
{
  for (guint i = 0; i < n; i++)
    in[i] = cf_random_frame (gst_video_format_from_string (format), w, h,
        0, seed + i);
}

static void
clear_frames (GstBuffer ** frames, guint n)
{
  for (guint i = 0; i < n; i++)
    gst_clear_buffer (&frames[i]);
}

/* Chains of @n_steps elements with @between between them equal the
 * elements one at a time, frame by frame. */
static void
check_chain (guint n_steps, const gchar * between, const gchar * format,
    gint w, gint h, guint frames_in_flight)
{
  gchar *line = chain_line (n_steps, between, frames_in_flight);
  GstVideoFormat f = gst_video_format_from_string (format);
  GstBuffer *in[N_FRAMES], *out[N_FRAMES];

  random_frames (in, N_FRAMES, format, w, h, w * 131 + h);
  run_chain (line, format, w, h, in, N_FRAMES, out);
  for (guint i = 0; i < N_FRAMES; i++) {
    GstBuffer *want = run_one_at_a_time (n_steps, format, w, h, in[i]);

    fail_unless_equals_int (cf_frames_max_diff (want, out[i], f, w, h), 0);
    gst_buffer_unref (want);
  }
  GST_INFO ("%s %s %dx%d: identical", line, format, w, h);
  clear_frames (in, N_FRAMES);
  clear_frames (out, N_FRAMES);
  g_free (line);
}

GST_START_TEST (test_chains_match_elements_one_at_a_time)
{
  static const gint sizes[][2] = { {37, 29}, {64, 48}, {7, 3} };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes)
        && cf_test_format_wanted (formats[f]); s++)
      for (guint n = 2; n <= 3; n++)
        check_chain (n, " ! ", formats[f], sizes[s][0], sizes[s][1],
            1 + (s + n) % 3);
}

GST_END_TEST;

/* queue forwards the allocation query, so the hand-off holds across it;
 * tee does not (its branches may be anything), so the frames cross in
 * system memory; either way the pixels are the same. */
GST_START_TEST (test_chains_through_queue_and_tee)
{
  check_chain (3, " ! queue ! ", "GRAY16_LE", 61, 33, 2);
  check_chain (3, " ! tee ! ", "RGBA", 45, 20, 2);
  check_chain (2, " ! queue max-size-buffers=1 ! ", "NV12", 30, 18, 3);
}

GST_END_TEST;

static guint64
stat (GstElement * bin, const gchar * name, const gchar * field)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (bin), name);
  GstStructure *s = NULL;
  guint64 v = 0;

  fail_unless (e != NULL);
  g_object_get (e, "stats", &s, NULL);
  fail_unless (gst_structure_get_uint64 (s, field, &v), "%s", field);
  gst_structure_free (s);
  gst_object_unref (e);
  return v;
}

static gchar *
stat_string (GstElement * bin, const gchar * name, const gchar * field)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (bin), name);
  GstStructure *s = NULL;
  gchar *v;

  g_object_get (e, "stats", &s, NULL);
  v = g_strdup (gst_structure_get_string (s, field));
  gst_structure_free (s);
  gst_object_unref (e);
  return v;
}

/* On the GPU a chain of 3 uploads each frame once (the first element) and
 * downloads it once (the last); on the CPU nothing is copied. */
static void
check_copies (const gchar * format, guint frames_in_flight)
{
  gchar *line = chain_line (3, " ! ", frames_in_flight);
  GstHarness *hrn = cf_harness_new (line, format, 64, 36);
  gboolean gpu = cf_have_gpu ();
  GstBuffer *in[N_FRAMES];

  random_frames (in, N_FRAMES, format, 64, 36, 7);
  for (guint i = 0; i < N_FRAMES; i++)
    fail_unless_equals_int (gst_harness_push (hrn, in[i]), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));
  for (guint i = 0; i < N_FRAMES; i++)
    gst_buffer_unref (gst_harness_pull (hrn));
  for (guint e = 0; e < 3; e++) {
    gchar name[4];

    g_snprintf (name, sizeof (name), "e%u", e);
    fail_unless_equals_uint64 (stat (hrn->element, name, "frames"), N_FRAMES);
    fail_unless_equals_uint64 (stat (hrn->element, name, "uploads"),
        gpu && e == 0 ? N_FRAMES : 0);
    fail_unless_equals_uint64 (stat (hrn->element, name, "downloads"),
        gpu && e == 2 ? N_FRAMES : 0);
    fail_unless_equals_uint64 (stat (hrn->element, name, "map-downloads"), 0);
    fail_unless_equals_uint64 (stat (hrn->element, name, "map-uploads"), 0);
    if (gpu && e > 0) {
      gchar *mem = stat_string (hrn->element, name, "input-memory");

      fail_unless_equals_string (mem, "cudafilters device");
      g_free (mem);
    }
  }
  gst_harness_teardown (hrn);
  g_free (line);
}

GST_START_TEST (test_chain_copies_once_each_way)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    if (cf_test_format_wanted (formats[f]))
      check_copies (formats[f], 1 + f % 3);
}

GST_END_TEST;

/* A probe between two elements reads the frame on the CPU (a deep copy and
 * a map): it holds the first element's pixels; then it writes it, and the
 * second element filters what was written. */
typedef struct
{
  GstBuffer *seen;              /* what the CPU read */
  gboolean write;
} Tap;

/* Flips bits of every third sample of a GRAY16_LE frame, whatever its
 * strides. */
static void
scribble (GstBuffer * buf, gint w, gint h)
{
  GstVideoInfo info;
  GstVideoFrame frame;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY16_LE, w, h);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READWRITE));
  for (gint y = 0; y < h; y++) {
    guint16 *row = (guint16 *) ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
            0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0));

    for (gint x = (y % 3); x < w; x += 3)
      row[x] ^= 0x5a5a;
  }
  gst_video_frame_unmap (&frame);
}

static GstPadProbeReturn
tap_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Tap *tap = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  gst_clear_buffer (&tap->seen);
  tap->seen = gst_buffer_copy_deep (buf);
  if (tap->write) {
    /* the element handed its only reference over: written in place */
    fail_unless (gst_buffer_is_writable (buf));
    scribble (buf, 40, 30);
  }
  return GST_PAD_PROBE_OK;
}

static void
check_cpu_access (gboolean write)
{
  const gchar *format = "GRAY16_LE";
  GstVideoFormat f = GST_VIDEO_FORMAT_GRAY16_LE;
  GstHarness *hrn = cf_harness_new ("cudamedian size=3 name=e0 ! "
      "cudabilateral name=e1", format, 40, 30);
  GstElement *second = gst_bin_get_by_name (GST_BIN (hrn->element), "e1");
  GstPad *pad = gst_element_get_static_pad (second, "sink");
  Tap tap = { NULL, write };
  GstBuffer *in = cf_random_frame (f, 40, 30, 0, 99);
  GstBuffer *median = cf_run_one (steps[0], format, 40, 30, in);
  GstBuffer *out, *want, *tapped;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, tap_buffer, &tap, NULL);
  out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  fail_unless (out != NULL && tap.seen != NULL);
  fail_unless_equals_int (cf_frames_max_diff (median, tap.seen, f, 40, 30), 0);
  /* what the second element should have filtered */
  tapped = gst_buffer_copy_deep (median);
  if (write)
    scribble (tapped, 40, 30);
  want = cf_run_one (steps[1], format, 40, 30, tapped);
  fail_unless_equals_int (cf_frames_max_diff (want, out, f, 40, 30), 0);
  if (cf_have_gpu ()) {
    fail_unless (stat (hrn->element, "e0", "map-downloads") >= 1);
    fail_unless_equals_uint64 (stat (hrn->element, "e0", "map-uploads"),
        write ? 1 : 0);
  }
  gst_buffer_unref (tap.seen);
  gst_buffer_unref (tapped);
  gst_buffer_unref (want);
  gst_buffer_unref (out);
  gst_buffer_unref (median);
  gst_buffer_unref (in);
  gst_object_unref (pad);
  gst_object_unref (second);
  gst_harness_teardown (hrn);
}

GST_START_TEST (test_cpu_reads_device_memory)
{
  check_cpu_access (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_cpu_writes_reach_the_next_element)
{
  check_cpu_access (TRUE);
}

GST_END_TEST;

/* A middle element whose parameters make it the identity passes frames
 * through, and the chain still equals the other two one at a time. */
GST_START_TEST (test_chain_with_passthrough_in_the_middle)
{
  const gchar *format = "I420";
  GstVideoFormat f = GST_VIDEO_FORMAT_I420;
  GstBuffer *in[N_FRAMES], *out[N_FRAMES];

  random_frames (in, N_FRAMES, format, 50, 26, 3);
  run_chain ("cudamedian size=3 frames-in-flight=2 ! cudagaussianblur "
      "sigma=0 ! cudabilateral frames-in-flight=2", format, 50, 26, in,
      N_FRAMES, out);
  for (guint i = 0; i < N_FRAMES; i++) {
    GstBuffer *m = cf_run_one (steps[0], format, 50, 26, in[i]);
    GstBuffer *want = cf_run_one (steps[1], format, 50, 26, m);

    fail_unless_equals_int (cf_frames_max_diff (want, out[i], f, 50, 26), 0);
    gst_buffer_unref (m);
    gst_buffer_unref (want);
  }
  clear_frames (in, N_FRAMES);
  clear_frames (out, N_FRAMES);
}

GST_END_TEST;

/* New caps mid-stream (another size) drain the chain and renegotiate every
 * hand-off; frames of both sizes come out whole and in order. */
GST_START_TEST (test_chain_caps_change)
{
  const gchar *format = "GRAY8";
  GstVideoFormat f = GST_VIDEO_FORMAT_GRAY8;
  gchar *line = chain_line (3, " ! ", 3);
  GstHarness *hrn = cf_harness_new (line, format, 33, 17);
  static const gint sizes[][2] = { {33, 17}, {70, 41} };
  GstBuffer *in[2][N_FRAMES];

  /* the sink takes both sizes: it must not ask for renegotiation (a
   * harness's new sink caps do) while the old frames drain */
  gst_harness_set_sink_caps_str (hrn, "video/x-raw,format=GRAY8");
  for (guint s = 0; s < 2; s++) {
    if (s) {
      gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
          "height=%d,framerate=30/1", format, sizes[s][0], sizes[s][1]);

      gst_harness_set_src_caps_str (hrn, caps);
      g_free (caps);
    }
    random_frames (in[s], N_FRAMES, format, sizes[s][0], sizes[s][1], s * 10);
    for (guint i = 0; i < N_FRAMES; i++)
      fail_unless_equals_int (gst_harness_push (hrn,
              gst_buffer_ref (in[s][i])), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));
  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < N_FRAMES; i++) {
      GstBuffer *out = gst_harness_pull (hrn);
      GstBuffer *want = run_one_at_a_time (3, format, sizes[s][0],
          sizes[s][1], in[s][i]);

      fail_unless (out != NULL);
      fail_unless (cf_frames_max_diff (want, out, f, sizes[s][0],
              sizes[s][1]) == 0, "size %d frame %u differs", s, i);
      gst_buffer_unref (out);
      gst_buffer_unref (want);
    }
  fail_unless_equals_int (gst_harness_buffers_in_queue (hrn), 0);
  for (guint s = 0; s < 2; s++)
    clear_frames (in[s], N_FRAMES);
  gst_harness_teardown (hrn);
  g_free (line);
}

GST_END_TEST;

/* A flush drops the frames in flight of every element; the chain then runs
 * on, and EOS lets out exactly the frames pushed after the flush. */
GST_START_TEST (test_chain_flush_then_eos)
{
  gchar *line = chain_line (3, " ! ", 3);
  GstHarness *hrn = cf_harness_new (line, "NV12", 48, 32);
  GstBuffer *in[N_FRAMES];
  GstSegment segment;

  random_frames (in, N_FRAMES, "NV12", 48, 32, 5);
  for (guint i = 0; i < N_FRAMES; i++)
    gst_harness_push (hrn, gst_buffer_ref (in[i]));
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_stop (TRUE)));
  while (gst_harness_buffers_in_queue (hrn))
    gst_buffer_unref (gst_harness_pull (hrn));
  /* flush-stop resets the segment: send one again before more data */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_segment (&segment)));
  for (guint i = 0; i < N_FRAMES; i++)
    fail_unless_equals_int (gst_harness_push (hrn, gst_buffer_ref (in[i])),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (hrn), N_FRAMES);
  clear_frames (in, N_FRAMES);
  gst_harness_teardown (hrn);
  g_free (line);
}

GST_END_TEST;

static void
count_frame (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  (*(guint *) data)++;
}

/* A chain in a real pipeline, seeked to [0, 400 ms) (12 frames at 30 fps)
 * and run to EOS, three times, back to READY between runs: every run
 * delivers every frame of its segment. */
GST_START_TEST (test_chain_state_cycles_and_seek)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc ! "
      "video/x-raw,format=GRAY16_LE,width=64,height=48,framerate=30/1 ! "
      "cudamedian size=3 frames-in-flight=2 ! cudabilateral "
      "frames-in-flight=3 ! cudagaussianblur sigma=1 frames-in-flight=2 ! "
      "fakesink name=sink signal-handoffs=true sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  guint frames = 0;

  g_signal_connect (sink, "handoff", G_CALLBACK (count_frame), &frames);
  for (guint run = 0; run < 3; run++) {
    GstMessage *msg;

    fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (pipeline, NULL, NULL,
            30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
    fail_unless (gst_element_seek (pipeline, 1.0, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET,
            0, GST_SEEK_TYPE_SET, 400 * GST_MSECOND));
    fail_unless (gst_element_get_state (pipeline, NULL, NULL,
            30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
    frames = 0;
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
    gst_message_unref (msg);
    fail_unless_equals_int (frames, 12);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_READY) ==
        GST_STATE_CHANGE_SUCCESS);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Neighbours on different contexts (different devices) hand over through
 * the host: the first downloads, the second uploads, the frames are the
 * same. GPU only: contexts need a device. */
GST_START_TEST (test_chain_across_contexts)
{
  GstVideoFormat f = GST_VIDEO_FORMAT_GRAY16_LE;
  GstHarness *hrn;
  GstBuffer *in[N_FRAMES];
  GstElement *bin;

  if (!cf_have_gpu ())
    return;
  /* The contexts are set before the harness starts the elements: a running
   * element keeps the context it has (gst_cuda_handle_set_context). */
  bin = gst_parse_bin_from_description ("cudamedian size=3 name=e0 ! "
      "cudabilateral name=e1", TRUE, NULL);
  fail_unless (bin != NULL);
  gst_object_ref_sink (bin);
  cf_set_own_cuda_context (bin, "e0");
  cf_set_own_cuda_context (bin, "e1");
  hrn = gst_harness_new_with_element (bin, "sink", "src");
  gst_object_unref (bin);
  gst_harness_set_caps_str (hrn, "video/x-raw,format=GRAY16_LE,width=41,"
      "height=23,framerate=30/1", "video/x-raw,format=GRAY16_LE,width=41,"
      "height=23,framerate=30/1");
  random_frames (in, N_FRAMES, "GRAY16_LE", 41, 23, 11);
  for (guint i = 0; i < N_FRAMES; i++) {
    GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in[i]));
    GstBuffer *want = run_one_at_a_time (2, "GRAY16_LE", 41, 23, in[i]);

    fail_unless (out != NULL);
    fail_unless_equals_int (cf_frames_max_diff (want, out, f, 41, 23), 0);
    gst_buffer_unref (out);
    gst_buffer_unref (want);
  }
  fail_unless_equals_uint64 (stat (hrn->element, "e0", "downloads"), N_FRAMES);
  fail_unless_equals_uint64 (stat (hrn->element, "e1", "uploads"), N_FRAMES);
  clear_frames (in, N_FRAMES);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

static Suite *
chain_suite (void)
{
  Suite *s = suite_create ("chain");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_chains_match_elements_one_at_a_time);
  tcase_add_test (tc, test_chains_through_queue_and_tee);
  tcase_add_test (tc, test_chain_copies_once_each_way);
  tcase_add_test (tc, test_cpu_reads_device_memory);
  tcase_add_test (tc, test_cpu_writes_reach_the_next_element);
  tcase_add_test (tc, test_chain_with_passthrough_in_the_middle);
  tcase_add_test (tc, test_chain_caps_change);
  tcase_add_test (tc, test_chain_flush_then_eos);
  tcase_add_test (tc, test_chain_state_cycles_and_seek);
  tcase_add_test (tc, test_chain_across_contexts);
  return s;
}

GST_CHECK_MAIN (chain);
