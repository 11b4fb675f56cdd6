/* Element tests for cudagaussianblur, on the CPU backend everywhere and, where
 * a GPU is present, the CUDA backend against the CPU one. */
#include "element_util.h"
#include "gaussian.h"

#define ELEMENT "cudagaussianblur"

/* The expected output of a one-plane frame, from the reference. */
static GstBuffer *
expected_gray (GstBuffer * in, GstVideoFormat format, gint w, gint h,
    gdouble sigma, CfBorder border)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;
  gint r = cf_gaussian_default_radius (sigma);
  CfGaussianParams p = { fabs (sigma), fabs (sigma), r, r, sigma < 0,
    border, 1
  };

  gst_video_info_set_format (&info, format, w, h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  CfPlane src = cf_frame_plane (&fin, 0), dst = cf_frame_plane (&fout, 0);
  fail_unless (cf_gaussian_blur_ref (&src, &dst, &p) == CF_OK);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

static GstBuffer *
run_one (const gchar * launch, const gchar * format, gint w, gint h,
    GstBuffer * in)
{
  GstHarness *hrn = cf_harness_new (launch, format, w, h);
  GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));

  fail_unless (out != NULL);
  gst_harness_teardown (hrn);
  return out;
}

GST_START_TEST (test_every_template_format)
{
  GArray *formats = cf_template_formats (ELEMENT);

  fail_unless (formats->len >= 15);
  for (guint i = 0; i < formats->len; i++) {
    GstVideoFormat f = g_array_index (formats, GstVideoFormat, i);
    const gchar *name = gst_video_format_to_string (f);
    GstBuffer *in = cf_random_frame (f, 33, 17, 0, i);
    GstBuffer *out = run_one (ELEMENT " sigma=2 backend=cpu", name, 33, 17,
        in);

    GST_INFO ("format %s", name);
    fail_unless (cf_frames_max_diff (in, out, f, 33, 17) > 0,
        "%s: a blur of random data changed nothing", name);
    fail_unless (cf_frames_alpha_equal (in, out, f, 33, 17),
        "%s: alpha changed", name);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  g_array_unref (formats);
}

GST_END_TEST;

GST_START_TEST (test_matches_reference_at_odd_sizes)
{
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 9}, {64, 65} };
  static const gdouble sigmas[] = { 0.7, 3.0, -1.5 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint g = 0; g < G_N_ELEMENTS (sigmas); g++)
      for (guint d = 0; d < 2; d++) {
        gint w = sizes[s][0], h = sizes[s][1];
        GstVideoFormat f = d ? GST_VIDEO_FORMAT_GRAY16_LE :
            GST_VIDEO_FORMAT_GRAY8;
        gchar *launch = g_strdup_printf (ELEMENT " backend=cpu sigma=%g "
            "border-mode=%s", sigmas[g], g == 1 ? "mirror" : "clamp");
        GstBuffer *in = cf_random_frame (f, w, h, 0, s * 10 + g);
        GstBuffer *out = run_one (launch, gst_video_format_to_string (f), w,
            h, in);
        GstBuffer *exp = expected_gray (in, f, w, h, sigmas[g],
            g == 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);

        fail_unless_equals_int (cf_frames_max_diff (out, exp, f, w, h), 0);
        gst_buffer_unref (in);
        gst_buffer_unref (out);
        gst_buffer_unref (exp);
        g_free (launch);
      }
}

GST_END_TEST;

GST_START_TEST (test_padded_strides)
{
  GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_NV12
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    const gchar *name = gst_video_format_to_string (formats[i]);
    /* The same picture, compact and with padded rows. */
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

    GstBuffer *a = run_one (ELEMENT " sigma=1.5 backend=cpu", name, 31, 13,
        compact);
    GstBuffer *b = run_one (ELEMENT " sigma=1.5 backend=cpu", name, 31, 13,
        padded);
    fail_unless_equals_int (cf_frames_max_diff (a, b, formats[i], 31, 13), 0);
    gst_buffer_unref (compact);
    gst_buffer_unref (padded);
    gst_buffer_unref (a);
    gst_buffer_unref (b);
  }
}

GST_END_TEST;

GST_START_TEST (test_sigma_zero_is_passthrough)
{
  GstHarness *hrn = cf_harness_new (ELEMENT " sigma=0 backend=cpu", "RGBA",
      16, 8);
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 16, 8, 0, 1);
  GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));

  fail_unless (out == in, "sigma=0 did not pass the buffer through");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GParamSpec *sigma = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "sigma");
  GParamSpec *radius = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "radius");
  GValue v = G_VALUE_INIT;

  fail_unless (sigma && radius);
  fail_unless (sigma->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (sigma->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (sigma)->minimum, -40.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (sigma)->maximum, 40.0);
  fail_unless_equals_int (G_PARAM_SPEC_INT (radius)->maximum,
      CF_GAUSSIAN_MAX_RADIUS);
  /* An out-of-range value is clamped by the spec, never stored as is. */
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 1000.0);
  fail_unless (g_param_value_validate (sigma, &v));
  fail_unless_equals_float (g_value_get_double (&v), 40.0);
  g_value_unset (&v);

  g_object_set (e, "sigma", -2.5, "radius", 9, NULL);
  gdouble s;
  gint r;
  g_object_get (e, "sigma", &s, "radius", &r, NULL);
  fail_unless_equals_float (s, -2.5);
  fail_unless_equals_int (r, 9);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_live_property_change)
{
  GstHarness *hrn = cf_harness_new (ELEMENT " sigma=1 backend=cpu", "GRAY8",
      40, 30);
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 40, 30, 0, 3);
  GstBuffer *out1 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  GstBuffer *exp1 = expected_gray (in, GST_VIDEO_FORMAT_GRAY8, 40, 30, 1.0,
      CF_BORDER_CLAMP);

  gst_harness_set (hrn, ELEMENT, "sigma", 4.0, NULL);
  GstBuffer *out2 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  GstBuffer *exp2 = expected_gray (in, GST_VIDEO_FORMAT_GRAY8, 40, 30, 4.0,
      CF_BORDER_CLAMP);

  fail_unless_equals_int (cf_frames_max_diff (out1, exp1,
          GST_VIDEO_FORMAT_GRAY8, 40, 30), 0);
  fail_unless_equals_int (cf_frames_max_diff (out2, exp2,
          GST_VIDEO_FORMAT_GRAY8, 40, 30), 0);
  /* Back to 0 while playing: passthrough from the next frame on. */
  gst_harness_set (hrn, ELEMENT, "sigma", 0.0, NULL);
  GstBuffer *out3 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  fail_unless (out3 == in);

  gst_buffer_unref (out1);
  gst_buffer_unref (out2);
  gst_buffer_unref (out3);
  gst_buffer_unref (exp1);
  gst_buffer_unref (exp2);
  gst_buffer_unref (in);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

GST_START_TEST (test_eos_and_flush_keep_every_frame)
{
  GstHarness *hrn = cf_harness_new (ELEMENT " sigma=2 backend=cpu", "NV12",
      64, 48);

  for (guint i = 0; i < 10; i++)
    fail_unless_equals_int (gst_harness_push (hrn,
            cf_random_frame (GST_VIDEO_FORMAT_NV12, 64, 48, 0, i)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_stop (TRUE)));
  /* flush-stop resets the segment: send one again before more data */
  GstSegment segment;
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_segment (&segment)));
  for (guint i = 0; i < 5; i++)
    fail_unless_equals_int (gst_harness_push (hrn,
            cf_random_frame (GST_VIDEO_FORMAT_NV12, 64, 48, 0, 100 + i)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));

  fail_unless_equals_int (gst_harness_buffers_received (hrn), 15);
  gboolean saw_eos = FALSE;
  GstEvent *ev;
  while ((ev = gst_harness_try_pull_event (hrn))) {
    saw_eos |= GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (saw_eos);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

GST_START_TEST (test_state_cycling)
{
  GstHarness *hrn = cf_harness_new (ELEMENT " sigma=1 backend=cpu", "I420",
      32, 32);

  for (guint i = 0; i < 5; i++) {
    GstBuffer *out;

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
  gst_harness_teardown (hrn);
}

GST_END_TEST;

GST_START_TEST (test_caps_change_midstream)
{
  GstHarness *hrn = cf_harness_new (ELEMENT " sigma=1 backend=cpu", "GRAY8",
      16, 16);
  GstBuffer *out = gst_harness_push_and_pull (hrn,
      cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 16, 16, 0, 1));

  gst_buffer_unref (out);
  gst_harness_set_caps_str (hrn,
      "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1",
      "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1");
  out = gst_harness_push_and_pull (hrn,
      cf_random_frame (GST_VIDEO_FORMAT_RGBA, 23, 5, 0, 2));
  fail_unless_equals_int (gst_buffer_get_size (out), 23 * 5 * 4);
  gst_buffer_unref (out);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_caps_are_refused)
{
  GstElement *e = gst_element_factory_make (ELEMENT, NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *uyvy = gst_caps_from_string ("video/x-raw,format=UYVY,width=16,"
      "height=16,framerate=30/1");
  GstCaps *gray = gst_caps_from_string ("video/x-raw,format=GRAY8,width=16,"
      "height=16,framerate=30/1");

  fail_if (gst_pad_query_accept_caps (sink, uyvy));
  fail_unless (gst_pad_query_accept_caps (sink, gray));
  gst_caps_unref (uyvy);
  gst_caps_unref (gray);
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error; with
 * one, its frames equal the CPU reference's within 1 LSB. */
GST_START_TEST (test_cuda_backend)
{
  if (!cf_have_gpu ()) {
    GstElement *e = gst_element_factory_make (ELEMENT, NULL);
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;
    GError *err = NULL;

    g_object_set (e, "backend", 1 /* cuda */ , NULL);
    gst_element_set_bus (e, bus);
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, "CUDA") != NULL, "%s", err->message);
    g_error_free (err);
    gst_message_unref (msg);
    gst_element_set_state (e, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
    return;
  }

  static const gchar *formats[] = { "RGBA", "NV12", "I420", "GRAY16_LE",
    "GRAY8", "AYUV", "Y444_16LE", "BGR"
  };
  static const gint sizes[][2] = { {1, 1}, {7, 3}, {4097, 9}, {640, 361} };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstVideoFormat f = gst_video_format_from_string (formats[i]);
      gint w = sizes[s][0], h = sizes[s][1];
      GstBuffer *in = cf_random_frame (f, w, h, s == 3 ? 40 : 0, i);
      GstBuffer *cpu = run_one (ELEMENT " sigma=2.5 backend=cpu", formats[i],
          w, h, in);
      GstBuffer *gpu = run_one (ELEMENT " sigma=2.5 backend=cuda", formats[i],
          w, h, in);

      fail_unless (cf_frames_max_diff (cpu, gpu, f, w, h) <= 1,
          "%s %dx%d: CUDA and CPU differ by more than 1", formats[i], w, h);
      gst_buffer_unref (in);
      gst_buffer_unref (cpu);
      gst_buffer_unref (gpu);
    }
}

GST_END_TEST;

static Suite *
cudagaussianblur_suite (void)
{
  Suite *s = suite_create (ELEMENT);
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_template_format);
  tcase_add_test (tc, test_matches_reference_at_odd_sizes);
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_sigma_zero_is_passthrough);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_live_property_change);
  tcase_add_test (tc, test_eos_and_flush_keep_every_frame);
  tcase_add_test (tc, test_state_cycling);
  tcase_add_test (tc, test_caps_change_midstream);
  tcase_add_test (tc, test_unsupported_caps_are_refused);
  tcase_add_test (tc, test_cuda_backend);
  return s;
}

GST_CHECK_MAIN (cudagaussianblur);
