/* Random cases, backend=cuda against backend=cpu (element_harness.h): a
 * random format of the element's templates, a random size and row padding,
 * the element's own random settings (its entry's random_props) and the base
 * class's (border mode, frames in flight, sometimes a region of interest or
 * a value gate), and several random frames through one pipeline, so that
 * frames in flight count. The set is the same every run; CF_RANDOM_SEED
 * picks another, CF_RANDOM_CASES another count. A failure names the seed,
 * the case and its launch line. */
#include "element_harness.h"

#define FRAMES 3
#define DEFAULT_CASES 40

/* @in's frames through one pipeline, then EOS; the outputs in @out. */
static void
run_frames (const gchar * launch, GstVideoFormat format, gint width,
    gint height, GstBuffer ** in, GstBuffer ** out)
{
  GstHarness *hrn = cf_harness_new (launch,
      gst_video_format_to_string (format), width, height);

  for (guint i = 0; i < FRAMES; i++)
    fail_unless_equals_int (gst_harness_push (hrn, gst_buffer_ref (in[i])),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (hrn), FRAMES);
  for (guint i = 0; i < FRAMES; i++)
    out[i] = gst_harness_pull (hrn);
  gst_harness_teardown (hrn);
}

void
cf_random_base_props (GString * s, GRand * r, GstVideoFormat format,
    gint width, gint height)
{
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);
  guint full = (1u << GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0)) - 1;

  g_string_append_printf (s, " border-mode=%s frames-in-flight=%d",
      g_rand_boolean (r) ? "mirror" : "clamp", g_rand_int_range (r, 1, 4));
  switch (g_rand_int_range (r, 0, 5)) {
    case 0:
      g_string_append_printf (s, " roi-x=%d roi-y=%d roi-width=%d "
          "roi-height=%d", g_rand_int_range (r, 0, width),
          g_rand_int_range (r, 0, height), g_rand_int_range (r, 0, width + 8),
          g_rand_int_range (r, 0, height + 8));
      break;
    case 1:{
      guint lo = g_rand_int_range (r, 0, full + 1);

      g_string_append_printf (s, " gate-min=%u gate-max=%u", lo,
          (guint) g_rand_int_range (r, lo, full + 1));
      break;
    }
    default:
      break;
  }
}

void
cf_random_size (GRand * r, gint * width, gint * height)
{
  switch (g_rand_int_range (r, 0, 8)) {
    case 0:
      *width = g_rand_int_range (r, 1000, 2100);
      *height = g_rand_int_range (r, 1, 24);
      break;
    case 1:
      *width = g_rand_int_range (r, 1, 24);
      *height = g_rand_int_range (r, 300, 700);
      break;
    case 2:
      *width = g_rand_int_range (r, 1, 6);
      *height = g_rand_int_range (r, 1, 6);
      break;
    default:
      *width = g_rand_int_range (r, 1, 400);
      *height = g_rand_int_range (r, 1, 240);
      break;
  }
}

guint
cf_env_uint (const gchar * name, guint fallback)
{
  const gchar *v = g_getenv (name);

  return v && *v ? (guint) g_ascii_strtoull (v, NULL, 0) : fallback;
}

/* With a device: each random case's frames from the CUDA backend within
 * the element's tolerance of the CPU backend's. */
GST_START_TEST (test_cuda_random_cases)
{
  const CfElementTest *e = cf_harness_entry ();
  guint32 seed = cf_env_uint ("CF_RANDOM_SEED", 1);
  guint cases = cf_env_uint ("CF_RANDOM_CASES", DEFAULT_CASES);
  GArray *formats;
  GRand *r;

  if (!cf_have_gpu () || !e->random_props)
    return;
  formats = cf_template_formats (e->name);
  r = g_rand_new_with_seed (seed);
  for (guint c = 0; c < cases; c++) {
    GstVideoFormat f = g_array_index (formats, GstVideoFormat,
        g_rand_int_range (r, 0, formats->len));
    const gchar *fname = gst_video_format_to_string (f);
    guint pad = g_rand_boolean (r) ? 40 : 0;
    gint w, h, max_diff;
    GString *props = g_string_new (NULL);
    GstBuffer *in[FRAMES], *cpu[FRAMES], *gpu[FRAMES];
    gchar *cpu_line, *gpu_line;

    cf_random_size (r, &w, &h);
    e->random_props (r, f, props, &max_diff);
    cf_random_base_props (props, r, f, w, h);
    cpu_line = g_strdup_printf ("%s %s backend=cpu", e->name, props->str);
    gpu_line = g_strdup_printf ("%s %s backend=cuda", e->name, props->str);
    for (guint i = 0; i < FRAMES; i++) {
      in[i] = cf_random_frame (f, w, h, pad, g_rand_int (r));
      GST_BUFFER_PTS (in[i]) = i * GST_SECOND / 30;
      GST_BUFFER_DURATION (in[i]) = GST_SECOND / 30;
    }
    if (!cf_test_format_wanted (fname))
      goto next;
    run_frames (cpu_line, f, w, h, in, cpu);
    run_frames (gpu_line, f, w, h, in, gpu);
    for (guint i = 0; i < FRAMES; i++) {
      gint diff = cf_frames_max_diff (cpu[i], gpu[i], f, w, h);

      fail_unless (diff <= max_diff, "seed %u case %u frame %u: %s %dx%d "
          "(pad %u): CUDA and CPU differ by %d, more than %d: %s", seed, c, i,
          fname, w, h, pad, diff, max_diff, gpu_line);
      gst_buffer_unref (cpu[i]);
      gst_buffer_unref (gpu[i]);
    }
    g_print ("random %u: %s %dx%d: %s: equal within %d\n", c, fname, w, h,
        props->str, max_diff);
  next:
    for (guint i = 0; i < FRAMES; i++)
      gst_buffer_unref (in[i]);
    g_free (cpu_line);
    g_free (gpu_line);
    g_string_free (props, TRUE);
  }
  g_rand_free (r);
  g_array_unref (formats);
}

GST_END_TEST;

/* With a device: the largest width and height the caps allow (32767), each
 * with a few pixels the other way, in gray, RGBA and 4:2:0 frames, with
 * random settings as above. */
GST_START_TEST (test_cuda_largest_sizes)
{
  static const gint sizes[][2] = { {32767, 3}, {5, 32767} };
  static const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "RGBA",
    "NV12", "I420"
  };
  const CfElementTest *e = cf_harness_entry ();
  GRand *r;

  if (!cf_have_gpu () || !e->random_props)
    return;
  r = g_rand_new_with_seed (cf_env_uint ("CF_RANDOM_SEED", 1));
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
      GString *props = g_string_new (NULL);
      gint max_diff, diff;

      e->random_props (r, gst_video_format_from_string (formats[i]), props,
          &max_diff);
      diff = cf_cuda_vs_cpu (e->name, props->str, formats[i], sizes[s][0],
          sizes[s][1], 0, g_rand_int (r));
      fail_unless (diff <= max_diff, "%s %dx%d: %s: CUDA and CPU differ by "
          "%d, more than %d", formats[i], sizes[s][0], sizes[s][1],
          props->str, diff, max_diff);
      g_print ("largest: %s %dx%d: %s: equal within %d\n", formats[i],
          sizes[s][0], sizes[s][1], props->str, max_diff);
      g_string_free (props, TRUE);
    }
  g_rand_free (r);
}

GST_END_TEST;

void
cf_add_random_test (Suite * s)
{
  TCase *tc = tcase_create ("random cuda against cpu");

  /* each case starts two pipelines, and the CPU reference runs them */
  tcase_set_timeout (tc, 900);
  tcase_add_test (tc, test_cuda_random_cases);
  tcase_add_test (tc, test_cuda_largest_sizes);
  suite_add_tcase (s, tc);
}
