/* CUDA memory (zero copy) in the GstCudaFilter base class: the pad
 * templates offer video/x-raw(memory:CUDAMemory) for the formats GStreamer
 * 1.22's CUDA allocator knows; CUDA-memory caps negotiate only where the
 * element runs on a GPU; plain peers still get system memory. Where a GPU
 * and nvcodec's cudaupload are present, frames filtered in CUDA memory
 * match the system-memory path, and CUDA memory of another context is
 * read through the host. Runs with the system plugins (videotestsrc, appsink,
 * nvcodec) on the plugin path. */
#include "element_util.h"

#include <gst/app/app.h>

static const gchar *elements[] = { "cudagaussianblur", "cudabilateral",
  "cudamedian", "cudasatblur", "cudaconvolve", "cudatemporaldenoise"
};

#define CUDA_FEATURE "memory:CUDAMemory"

static gboolean
has_cuda_feature (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && gst_caps_features_contains (f, CUDA_FEATURE);
}

/* Both templates: system memory first (what plain peers fixate to), then
 * CUDA memory with a subset of the system formats and no GRAY one, which
 * the 1.22 allocator asserts on. */
GST_START_TEST (test_templates_offer_cuda_memory)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstElement *el = gst_element_factory_make (elements[e], NULL);

    for (guint d = 0; d < 2; d++) {
      GstPad *pad = gst_element_get_static_pad (el, d ? "src" : "sink");
      GstCaps *templ = gst_pad_get_pad_template_caps (pad);
      GstCaps *system, *cuda;

      /* then alternate fields (format:Interlaced), in system memory */
      fail_unless_equals_int (gst_caps_get_size (templ), 3);
      fail_if (has_cuda_feature (templ, 0));
      fail_unless (has_cuda_feature (templ, 1), "%s: no CUDA memory",
          elements[e]);
      fail_if (has_cuda_feature (templ, 2));
      system = gst_caps_copy_nth (templ, 0);
      cuda = gst_caps_copy_nth (templ, 1);
      gst_caps_set_features (cuda, 0, NULL);
      fail_unless (gst_caps_is_subset (cuda, system));
      for (guint g = 0; g < 2; g++) {
        GstCaps *gray = gst_caps_from_string (g ?
            "video/x-raw,format=GRAY16_LE" : "video/x-raw,format=GRAY8");

        fail_unless (gst_caps_can_intersect (gray, system));
        fail_if (gst_caps_can_intersect (gray, cuda), "%s offers %s in CUDA "
            "memory", elements[e], g ? "GRAY16_LE" : "GRAY8");
        gst_caps_unref (gray);
      }
      gst_caps_unref (system);
      gst_caps_unref (cuda);
      gst_caps_unref (templ);
      gst_object_unref (pad);
    }
    gst_object_unref (el);
  }
}

GST_END_TEST;

static GstCaps *
rgba_caps (gboolean cuda)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=RGBA,"
      "width=32,height=24,framerate=30/1");

  if (cuda)
    gst_caps_set_features (caps, 0, gst_caps_features_new (CUDA_FEATURE, NULL));
  return caps;
}

/* Whether an element made with @launch would take CUDA-memory caps on its
 * sink pad, and system memory too. */
static gboolean
accepts_cuda_memory (const gchar * launch)
{
  GstHarness *hrn = gst_harness_new_parse (launch);
  GstPad *sink = gst_element_get_static_pad (hrn->element, "sink");
  GstCaps *cuda = rgba_caps (TRUE), *system = rgba_caps (FALSE);
  GstCaps *filter = gst_caps_from_string ("video/x-raw(" CUDA_FEATURE ")");
  GstCaps *offered = gst_pad_query_caps (sink, filter);
  gboolean accepted = gst_pad_query_accept_caps (sink, cuda);

  fail_unless (gst_pad_query_accept_caps (sink, system));
  fail_unless_equals_int (accepted, !gst_caps_is_empty (offered));
  gst_caps_unref (offered);
  gst_caps_unref (filter);
  gst_caps_unref (cuda);
  gst_caps_unref (system);
  gst_object_unref (sink);
  gst_harness_teardown (hrn);
  return accepted;
}

/* The CPU reference cannot touch device memory: with backend=cpu, or with
 * no device at all, CUDA-memory caps are refused, system memory is not. */
GST_START_TEST (test_cuda_caps_only_on_the_gpu)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    gchar *cpu = g_strdup_printf ("%s backend=cpu", elements[e]);

    fail_if (accepts_cuda_memory (cpu), "%s", cpu);
    fail_unless_equals_int (accepts_cuda_memory (elements[e]), cf_have_gpu ());
    g_free (cpu);
  }
}

GST_END_TEST;

/* CUDA caps on both sides do not negotiate on the CPU backend: the frame is
 * refused, nothing comes out. */
GST_START_TEST (test_cuda_caps_do_not_negotiate_on_cpu)
{
  GstHarness *hrn = gst_harness_new_parse ("cudagaussianblur backend=cpu");
  GstCaps *cuda = rgba_caps (TRUE);
  GstSegment segment;

  gst_harness_set_sink_caps (hrn, gst_caps_ref (cuda));
  /* not gst_harness_set_src_caps (): it asserts that the caps are taken */
  gst_pad_push_event (hrn->srcpad, gst_event_new_caps (cuda));
  gst_caps_unref (cuda);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (hrn->srcpad, gst_event_new_segment (&segment));
  fail_unless_equals_int (gst_harness_push (hrn,
          cf_random_frame (GST_VIDEO_FORMAT_RGBA, 32, 24, 0, 1)),
      GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_buffers_in_queue (hrn), 0);
  gst_harness_teardown (hrn);
}

GST_END_TEST;

/* Runs @desc to EOS; returns the caps element "f" negotiated on its src
 * pad. */
static GstCaps *
run_to_eos (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *f;
  GstPad *src;
  GstMessage *msg;
  GstCaps *caps;

  fail_unless (pipeline != NULL, "%s", desc);
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  src = gst_element_get_static_pad (f, "src");
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  caps = gst_pad_get_current_caps (src);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (f);
  gst_object_unref (pipeline);
  return caps;
}

/* Plain peers (videotestsrc, fakesink: system memory, ANY) still get system
 * memory, through one element and through two adjacent ones. */
GST_START_TEST (test_plain_peers_get_system_memory)
{
  static const gchar *chains[] = {
    "cudagaussianblur name=f",
    "cudamedian ! cudagaussianblur name=f",
  };

  for (guint i = 0; i < G_N_ELEMENTS (chains); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
        "video/x-raw,width=64,height=48 ! %s ! fakesink", chains[i]);
    GstCaps *caps = run_to_eos (desc);

    fail_unless (caps != NULL);
    fail_if (has_cuda_feature (caps, 0), "%s: %" GST_PTR_FORMAT, desc, caps);
    gst_caps_unref (caps);
    g_free (desc);
  }
}

GST_END_TEST;

static gboolean
have_cuda_upload (void)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");

  if (f)
    gst_object_unref (f);
  return f != NULL;
}

#define N_FRAMES 10
#define SOURCE "videotestsrc num-buffers=" G_STRINGIFY (N_FRAMES) \
  " pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=%s," \
  "width=%d,height=%d"

/* The frames @pipeline (taken) gives its appsink "sink", all of them. */
static GPtrArray *
pull_pipeline_frames (GstElement * pipeline, const gchar * desc)
{
  GstElement *sink;
  GPtrArray *frames = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  GstSample *sample;

  fail_unless (pipeline != NULL, "%s", desc);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    g_ptr_array_add (frames, gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)), "%s: error", desc);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return frames;
}

static GPtrArray *
pull_frames (const gchar * desc)
{
  return pull_pipeline_frames (gst_parse_launch (desc, NULL), desc);
}

/* @chain between cudaupload and cudadownload (in CUDA memory throughout)
 * gives what it gives in system memory, within 1 LSB, every frame. */
static void
compare_memories (const gchar * chain, GstVideoFormat format, gint w, gint h)
{
  const gchar *fmt = gst_video_format_to_string (format);
  gchar *src = g_strdup_printf (SOURCE, fmt, w, h);
  gchar *cuda = g_strdup_printf ("%s ! cudaupload ! video/x-raw(" CUDA_FEATURE
      ") ! %s ! video/x-raw(" CUDA_FEATURE ") ! cudadownload ! video/x-raw ! "
      "appsink name=sink sync=false", src, chain);
  gchar *system = g_strdup_printf ("%s ! %s ! appsink name=sink sync=false",
      src, chain);
  GPtrArray *a = pull_frames (cuda), *b = pull_frames (system);

  fail_unless_equals_int (a->len, N_FRAMES);
  fail_unless_equals_int (b->len, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++)
    fail_unless (cf_frames_max_diff (a->pdata[i], b->pdata[i], format, w,
            h) <= 1, "%s, %s: frame %u differs", chain, fmt, i);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
  g_free (src);
  g_free (cuda);
  g_free (system);
}

GST_START_TEST (test_cuda_memory_matches_system_memory)
{
  if (!cf_have_gpu () || !have_cuda_upload ()) {
    GST_INFO ("no GPU or no cudaupload: skipped");
    return;
  }
  compare_memories ("cudagaussianblur backend=cuda sigma=2",
      GST_VIDEO_FORMAT_RGBA, 640, 360);
  compare_memories ("cudamedian backend=cuda frames-in-flight=2 ! "
      "cudagaussianblur backend=cuda sigma=1.5 frames-in-flight=3",
      GST_VIDEO_FORMAT_NV12, 640, 360);
  compare_memories ("cudabilateral backend=cuda ! cudasatblur backend=cuda",
      GST_VIDEO_FORMAT_I420, 322, 180);
  /* deep formats as nvcodec's decoders hand them over */
  compare_memories ("cudamedian backend=cuda width=3 height=9 ! "
      "cudabilateral backend=cuda", GST_VIDEO_FORMAT_P010_10LE, 322, 180);
  compare_memories ("cudagaussianblur backend=cuda sigma=-1.5",
      GST_VIDEO_FORMAT_I420_10LE, 322, 180);
}

GST_END_TEST;

/* CUDA memory of another context (here a second one on the same device,
 * given to cudaupload alone) is read through the host: the frames are
 * those of the same element in system memory. */
GST_START_TEST (test_foreign_cuda_context_through_host)
{
  const gchar *desc = "videotestsrc num-buffers=" G_STRINGIFY (N_FRAMES)
      " pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=RGBA,"
      "width=64,height=48 ! cudaupload name=up ! video/x-raw(" CUDA_FEATURE
      ") ! cudagaussianblur name=f backend=cuda ! cudadownload ! video/x-raw "
      "! appsink name=sink sync=false";
  GstElement *pipeline;
  GPtrArray *a, *b;

  if (!cf_have_gpu () || !have_cuda_upload ()) {
    GST_INFO ("no GPU or no cudaupload: skipped");
    return;
  }
  pipeline = gst_parse_launch (desc, NULL);
  cf_set_own_cuda_context (pipeline, "up");
  cf_set_own_cuda_context (pipeline, "f");
  a = pull_pipeline_frames (pipeline, desc);
  b = pull_frames ("videotestsrc num-buffers=" G_STRINGIFY (N_FRAMES)
      " pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=RGBA,"
      "width=64,height=48 ! cudagaussianblur backend=cuda ! "
      "appsink name=sink sync=false");
  fail_unless_equals_int (a->len, N_FRAMES);
  fail_unless_equals_int (b->len, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++)
    fail_unless_equals_int (cf_frames_max_diff (a->pdata[i], b->pdata[i],
            GST_VIDEO_FORMAT_RGBA, 64, 48), 0);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
}

GST_END_TEST;

static Suite *
cudamemory_suite (void)
{
  Suite *s = suite_create ("cudamemory");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_templates_offer_cuda_memory);
  tcase_add_test (tc, test_cuda_caps_only_on_the_gpu);
  tcase_add_test (tc, test_cuda_caps_do_not_negotiate_on_cpu);
  tcase_add_test (tc, test_plain_peers_get_system_memory);
  tcase_add_test (tc, test_cuda_memory_matches_system_memory);
  tcase_add_test (tc, test_foreign_cuda_context_through_host);
  return s;
}

GST_CHECK_MAIN (cudamemory);
