/* What every cudafilters element must do, checked on each of them with
 * parameters that make it change the frame: every template format with alpha
 * untouched, padded strides, EOS and flush keeping every frame, state
 * cycling, caps changes, unsupported caps refused, backend=cuda refused
 * with a clear error where there is no GPU, identity settings passing
 * buffers through, and properties changed while PLAYING applying from the
 * next frame. CPU backend, runs everywhere. */
#include "element_util.h"

static const struct
{
  const gchar *name;
  const gchar *props;           /* settings that change the frame */
  const gchar *identity[2];     /* settings that pass buffers through */
  /* A live change: the first frame's settings, those set while PLAYING,
   * then identity settings set while PLAYING. */
  const gchar *live_from;
  const gchar *live_to;
  const gchar *live_identity;
} elements[] = {
  {"cudagaussianblur", "sigma=2", {"sigma=0"},
      "sigma=1", "sigma=4", "sigma=0"},
  {"cudamedian", "size=5", {"size=1 iterations=3"},
      "size=3", "size=7 iterations=2", "size=1"},
  {"cudabilateral", "sigma-space=2 sigma-range=0.2",
        {"sigma-space=0", "sigma-range=0 radius=7"},
        "sigma-range=0.2", "sigma-space=3.5 sigma-range=0.4 mode=separable",
      "sigma-range=0"},
  {"cudasatblur", "radius-x=3 radius-y=2", {"radius-x=0 radius-y=0 passes=3"},
      "radius-x=1 radius-y=1", "radius-x=9 passes=3 border-mode=mirror",
      "radius-x=0 radius-y=0"},
};

static gchar *
cpu_line (guint e)
{
  return g_strdup_printf ("%s %s backend=cpu", elements[e].name,
      elements[e].props);
}

GST_START_TEST (test_every_template_format)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GArray *formats = cf_template_formats (elements[e].name);
    gchar *launch = cpu_line (e);

    fail_unless (formats->len >= 15);
    for (guint i = 0; i < formats->len; i++) {
      GstVideoFormat f = g_array_index (formats, GstVideoFormat, i);
      const gchar *name = gst_video_format_to_string (f);
      GstBuffer *in = cf_random_frame (f, 33, 17, 0, i);
      GstBuffer *out = cf_run_one (launch, name, 33, 17, in);

      fail_unless (cf_frames_max_diff (in, out, f, 33, 17) > 0,
          "%s %s: random data unchanged", elements[e].name, name);
      fail_unless (cf_frames_alpha_equal (in, out, f, 33, 17),
          "%s %s: alpha changed", elements[e].name, name);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
    }
    g_array_unref (formats);
    g_free (launch);
  }
}

GST_END_TEST;

/* The same picture in compact rows and in rows padded through GstVideoMeta
 * gives the same output. */
GST_START_TEST (test_padded_strides)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_NV12
  };

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
      const gchar *name = gst_video_format_to_string (formats[i]);
      gchar *launch = cpu_line (e);
      GstBuffer *compact = cf_random_frame (formats[i], 31, 13, 0, 7);
      GstBuffer *padded = cf_random_frame (formats[i], 31, 13, 24, 8);
      GstVideoInfo info;
      GstVideoFrame fc, fp;

      gst_video_info_set_format (&info, formats[i], 31, 13);
      fail_unless (gst_video_frame_map (&fc, &info, compact, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fp, &info, padded, GST_MAP_WRITE));
      fail_unless (gst_video_frame_copy (&fp, &fc));
      gst_video_frame_unmap (&fc);
      gst_video_frame_unmap (&fp);

      GstBuffer *a = cf_run_one (launch, name, 31, 13, compact);
      GstBuffer *b = cf_run_one (launch, name, 31, 13, padded);
      fail_unless_equals_int (cf_frames_max_diff (a, b, formats[i], 31, 13), 0);
      gst_buffer_unref (compact);
      gst_buffer_unref (padded);
      gst_buffer_unref (a);
      gst_buffer_unref (b);
      g_free (launch);
    }
}

GST_END_TEST;

static void
push_frames (GstHarness * hrn, guint n, guint32 seed)
{
  for (guint i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (hrn,
            cf_random_frame (GST_VIDEO_FORMAT_NV12, 64, 48, 0, seed + i)),
        GST_FLOW_OK);
}

GST_START_TEST (test_eos_and_flush_keep_every_frame)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    gchar *launch = cpu_line (e);
    GstHarness *hrn = cf_harness_new (launch, "NV12", 64, 48);
    GstSegment segment;
    GstEvent *ev;
    gboolean saw_eos = FALSE;

    push_frames (hrn, 10, 0);
    fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_stop (TRUE)));
    /* flush-stop resets the segment: send one again before more data */
    gst_segment_init (&segment, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (hrn,
            gst_event_new_segment (&segment)));
    push_frames (hrn, 5, 100);
    fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));

    fail_unless_equals_int (gst_harness_buffers_received (hrn), 15);
    while ((ev = gst_harness_try_pull_event (hrn))) {
      saw_eos |= GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
      gst_event_unref (ev);
    }
    fail_unless (saw_eos, "%s: no EOS", elements[e].name);
    gst_harness_teardown (hrn);
    g_free (launch);
  }
}

GST_END_TEST;

GST_START_TEST (test_state_cycling_and_caps_change)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    gchar *launch = cpu_line (e);
    GstHarness *hrn = cf_harness_new (launch, "I420", 32, 32);
    GstBuffer *out;

    for (guint i = 0; i < 3; i++) {
      fail_unless_equals_int (gst_element_set_state (hrn->element,
              GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (gst_element_set_state (hrn->element,
              GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
      gst_harness_set_caps_str (hrn,
          "video/x-raw,format=I420,width=32,height=32,framerate=30/1",
          "video/x-raw,format=I420,width=32,height=32,framerate=30/1");
      out = gst_harness_push_and_pull (hrn,
          cf_random_frame (GST_VIDEO_FORMAT_I420, 32, 32, 0, i));
      fail_unless (out != NULL);
      gst_buffer_unref (out);
    }
    /* A new format and size mid-stream. */
    gst_harness_set_caps_str (hrn,
        "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1",
        "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1");
    out = gst_harness_push_and_pull (hrn,
        cf_random_frame (GST_VIDEO_FORMAT_RGBA, 23, 5, 0, 9));
    fail_unless_equals_int (gst_buffer_get_size (out), 23 * 5 * 4);
    gst_buffer_unref (out);
    gst_harness_teardown (hrn);
    g_free (launch);
  }
}

GST_END_TEST;

GST_START_TEST (test_unsupported_caps_are_refused)
{
  GstCaps *uyvy = gst_caps_from_string ("video/x-raw,format=UYVY,width=16,"
      "height=16,framerate=30/1");
  GstCaps *gray = gst_caps_from_string ("video/x-raw,format=GRAY8,width=16,"
      "height=16,framerate=30/1");

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstElement *el = gst_element_factory_make (elements[e].name, NULL);
    GstPad *sink = gst_element_get_static_pad (el, "sink");

    fail_if (gst_pad_query_accept_caps (sink, uyvy));
    fail_unless (gst_pad_query_accept_caps (sink, gray));
    gst_object_unref (sink);
    gst_object_unref (el);
  }
  gst_caps_unref (uyvy);
  gst_caps_unref (gray);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error. (With
 * one, each element's own test compares its CUDA and CPU frames.) */
GST_START_TEST (test_cuda_backend_without_gpu_is_an_error)
{
  if (cf_have_gpu ())
    return;
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstElement *el = gst_element_factory_make (elements[e].name, NULL);
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;
    GError *err = NULL;

    gst_util_set_object_arg (G_OBJECT (el), "backend", "cuda");
    gst_element_set_bus (el, bus);
    fail_unless_equals_int (gst_element_set_state (el, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, "CUDA") != NULL, "%s", err->message);
    g_error_free (err);
    gst_message_unref (msg);
    gst_element_set_state (el, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (el);
  }
}

GST_END_TEST;

GST_START_TEST (test_identity_is_passthrough)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++)
    for (guint i = 0; i < G_N_ELEMENTS (elements[e].identity); i++) {
      if (!elements[e].identity[i])
        continue;
      gchar *launch = g_strdup_printf ("%s %s backend=cpu", elements[e].name,
          elements[e].identity[i]);
      GstHarness *hrn = cf_harness_new (launch, "RGBA", 16, 8);
      GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 16, 8, 0, 1);
      GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));

      fail_unless (out == in, "%s did not pass the buffer through", launch);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_harness_teardown (hrn);
      g_free (launch);
    }
}

GST_END_TEST;

/* Sets "name=value ..." on the element of @hrn, as gst-launch would. */
static void
set_props (GstHarness * hrn, const gchar * name, const gchar * props)
{
  GstElement *el = gst_harness_find_element (hrn, name);
  gchar **settings = g_strsplit (props, " ", -1);

  for (guint i = 0; settings[i]; i++) {
    gchar **kv = g_strsplit (settings[i], "=", 2);

    gst_util_set_object_arg (G_OBJECT (el), kv[0], kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (settings);
  gst_object_unref (el);
}

/* What the element gives for @in with @props (and @more) set from the
 * start. */
static GstBuffer *
static_output (guint e, const gchar * props, const gchar * more, GstBuffer * in)
{
  gchar *launch = g_strdup_printf ("%s %s %s backend=cpu", elements[e].name,
      props, more);
  GstBuffer *out = cf_run_one (launch, "GRAY8", 40, 30, in);

  g_free (launch);
  return out;
}

/* Properties set while PLAYING apply from the next frame, as if they had
 * been set from the start; identity settings then pass buffers through,
 * and setting the change again filters again. */
GST_START_TEST (test_live_property_change)
{
  const GstVideoFormat f = GST_VIDEO_FORMAT_GRAY8;

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    const gchar *name = elements[e].name;
    gchar *launch = g_strdup_printf ("%s %s backend=cpu", name,
        elements[e].live_from);
    GstHarness *hrn = cf_harness_new (launch, "GRAY8", 40, 30);
    GstBuffer *in = cf_random_frame (f, 40, 30, 0, 3);
    GstBuffer *out1 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
    GstBuffer *exp1 = static_output (e, elements[e].live_from, "", in);

    set_props (hrn, name, elements[e].live_to);
    GstBuffer *out2 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
    GstBuffer *exp2 = static_output (e, elements[e].live_from,
        elements[e].live_to, in);

    fail_unless_equals_int (cf_frames_max_diff (out1, exp1, f, 40, 30), 0);
    fail_unless_equals_int (cf_frames_max_diff (out2, exp2, f, 40, 30), 0);
    fail_unless (cf_frames_max_diff (out1, out2, f, 40, 30) > 0,
        "%s: %s changed nothing", name, elements[e].live_to);

    set_props (hrn, name, elements[e].live_identity);
    GstBuffer *out3 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
    fail_unless (out3 == in, "%s: %s while playing did not pass through",
        name, elements[e].live_identity);

    set_props (hrn, name, elements[e].live_from);
    set_props (hrn, name, elements[e].live_to);
    GstBuffer *out4 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
    fail_unless_equals_int (cf_frames_max_diff (out4, exp2, f, 40, 30), 0);

    gst_buffer_unref (out1);
    gst_buffer_unref (out2);
    gst_buffer_unref (out3);
    gst_buffer_unref (out4);
    gst_buffer_unref (exp1);
    gst_buffer_unref (exp2);
    gst_buffer_unref (in);
    gst_harness_teardown (hrn);
    g_free (launch);
  }
}

GST_END_TEST;

static Suite *
cudafilters_suite (void)
{
  Suite *s = suite_create ("cudafilters");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_template_format);
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_eos_and_flush_keep_every_frame);
  tcase_add_test (tc, test_state_cycling_and_caps_change);
  tcase_add_test (tc, test_unsupported_caps_are_refused);
  tcase_add_test (tc, test_cuda_backend_without_gpu_is_an_error);
  tcase_add_test (tc, test_identity_is_passthrough);
  tcase_add_test (tc, test_live_property_change);
  return s;
}

GST_CHECK_MAIN (cudafilters);
