/* Two-input elements on the GPU (skipped without one): the side stream
 * (radius_sink, guide_sink) coming from a cudafilters element, so handed
 * over in device memory and read in place, against the same pipeline on
 * the CPU backend, three frames. Needs the system plugins (videotestsrc,
 * appsink); the CPU-backend checks of the side pads are in
 * element_satblur.c and element_bilateral.c (element_side.h). */
#include "element_util.h"

#include <gst/app/gstappsink.h>

/* Three frames of "@props" with its side stream through a cudasatblur,
 * every element on @backend. */
static GList *
run_chain (const gchar * props, const gchar * pad, const gchar * format,
    const gchar * side_format, const gchar * backend)
{
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=3 "
      "pattern=smpte ! video/x-raw,format=%s,width=67,height=45,"
      "framerate=30/1 ! %s name=b backend=%s ! appsink name=out sync=false "
      "videotestsrc num-buffers=3 pattern=ball ! video/x-raw,format=%s,"
      "width=67,height=45,framerate=30/1 ! cudasatblur radius-x=1 "
      "radius-y=1 backend=%s ! b.%s", format, props, backend, side_format,
      backend, pad);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *sink;
  GstSample *sample;
  GList *out = NULL;

  fail_unless (pipeline != NULL, "%s", launch);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    out = g_list_append (out, gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  fail_unless (g_list_length (out) == 3, "%s: %u frames", launch,
      g_list_length (out));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (launch);
  return out;
}

static void
check_cuda (const gchar * props, const gchar * pad,
    const gchar * format, const gchar * side_format, gint tolerance)
{
  GList *gpu, *cpu;

  if (!cf_have_gpu ())
    return;
  gpu = run_chain (props, pad, format, side_format, "cuda");
  cpu = run_chain (props, pad, format, side_format, "cpu");
  for (GList * a = gpu, *b = cpu; a && b; a = a->next, b = b->next) {
    gint diff = cf_frames_max_diff (a->data, b->data,
        gst_video_format_from_string (format), 67, 45);
    fail_unless (diff <= tolerance, "%s %s: CUDA differs from CPU by %d",
        props, format, diff);
  }
  g_list_free_full (gpu, (GDestroyNotify) gst_buffer_unref);
  g_list_free_full (cpu, (GDestroyNotify) gst_buffer_unref);
}

/* cudasatblur's radius map: bit for bit. */
GST_START_TEST (test_radius_stream_on_gpu)
{
  const gchar *props = "cudasatblur radius-x=4 radius-y=3 passes=2 "
      "radius-map=stream";

  check_cuda (props, "radius_sink", "I420", "GRAY8", 0);
  check_cuda (props, "radius_sink", "RGBA", "GRAY16_LE", 0);
}

GST_END_TEST;

/* cudabilateral's guide: within 1 LSB, separable nearly so. */
GST_START_TEST (test_guide_on_gpu)
{
  check_cuda ("cudabilateral sigma-space=1.5 sigma-range=0.1", "guide_sink",
      "I420", "GRAY8", 1);
  check_cuda ("cudabilateral sigma-space=2 sigma-range=0.1 "
      "color-distance=per-channel", "guide_sink", "RGBA", "RGBA", 1);
  check_cuda ("cudabilateral sigma-space=2 sigma-range=0.05 radius=4 "
      "mode=separable", "guide_sink", "GRAY16_LE", "GRAY16_LE", 2);
}

GST_END_TEST;

static Suite *
sidepads_suite (void)
{
  Suite *s = suite_create ("sidepads");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_radius_stream_on_gpu);
  tcase_add_test (tc, test_guide_on_gpu);
  return s;
}

GST_CHECK_MAIN (sidepads);
