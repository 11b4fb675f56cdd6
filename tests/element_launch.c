/* Launch lines with the capture formats: videotestsrc in a deep or packed
 * 4:2:2 format (as decoders, webcams and capture cards deliver them),
 * through each element, to EOS without an error; also
 * interlace-mode=interleaved caps (a 1080i source). CPU backend, and the
 * CUDA one where a GPU is. Needs the system plugins (videotestsrc,
 * fakesink). */
#include <gst/check/gstcheck.h>

#include "cf_runtime.h"

static const gchar *const elements[] = { "cudagaussianblur sigma=1.5",
  "cudabilateral sigma-space=2 sigma-range=0.1", "cudamedian width=3 height=9",
  "cudasatblur radius-x=2 radius-y=3", NULL
};

static const gchar *const formats[] = { "P010_10LE", "P012_LE", "P016_LE",
  "I420_10LE", "I422_10LE", "Y444_10LE", "YUY2", "UYVY", "YVYU", "v210", NULL
};

/* Runs @desc to EOS; fails on an error message. */
static void
run_to_eos (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipe != NULL, "%s: %s", desc, err ? err->message : "?");
  g_clear_error (&err);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s: does not start", desc);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS in 60 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", desc, err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

GST_START_TEST (test_capture_formats_run)
{
  guint backends = cf_device_count () > 0 ? 2 : 1;

  for (guint b = 0; b < backends; b++)
    for (guint e = 0; elements[e]; e++)
      for (guint f = 0; formats[f]; f++) {
        gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
            "video/x-raw,format=%s,width=65,height=37 ! %s backend=%s ! "
            "fakesink", formats[f], elements[e], b ? "cuda" : "cpu");

        run_to_eos (desc);
        g_free (desc);
      }
}

GST_END_TEST;

/* Interleaved caps negotiate and pass through unchanged. */
GST_START_TEST (test_interleaved_caps_run)
{
  for (guint e = 0; elements[e]; e++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
        "video/x-raw,format=I420,width=64,height=36 ! "
        "capssetter caps=\"video/x-raw,interlace-mode=interleaved,"
        "field-order=top-field-first\" ! %s backend=cpu ! "
        "video/x-raw,interlace-mode=interleaved,field-order=top-field-first ! "
        "fakesink", elements[e]);

    run_to_eos (desc);
    g_free (desc);
  }
}

GST_END_TEST;

static Suite *
launch_suite (void)
{
  Suite *s = suite_create ("capture formats");
  TCase *tc = tcase_create ("launch lines");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_capture_formats_run);
  if (gst_registry_check_feature_version (gst_registry_get (), "capssetter",
          1, 0, 0))
    tcase_add_test (tc, test_interleaved_caps_run);
  return s;
}

GST_CHECK_MAIN (launch);
