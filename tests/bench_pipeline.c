/* Whole-pipeline benchmark: frames per second and per-frame latency of
 * `appsrc ! cudagaussianblur sigma=2 ! fakesink` for 1920x1080 and
 * 3840x2160, RGBA, NV12 and GRAY16_LE, 1 to 3 frames in flight, with
 * pinned and with pageable input; in the same run the floor (pinned H2D +
 * D2H of the same frames on two streams, and the same from pageable frames,
 * directly or staged through pinned buffers by memcpy) and
 * `cudaupload ! cudadownload` where nvcodec is installed, alone and with
 * `cudamedian ! cudagaussianblur` between them in CUDA memory (zero copy),
 * against the same two elements in system memory; then 8 concurrent 1080p
 * pipelines. Then chains: median, bilateral and Gaussian in a row (frames
 * handed over in device memory) at 4K RGBA and NV12, 1080p GRAY16_LE and
 * GRAY8, from pinned and pageable frames, beside one element alone and the
 * same chain with tees between (system memory), and 1 to 4 medians in a
 * row at 4K RGBA. Then latency: a live 60 fps videotestsrc through the
 * chain of three at 1 to 3 frames in flight, source to sink, beside the
 * non-live throughput of the same chain. Then scale: 4 streams of the
 * chain of three per GPU, round-robin over the GPUs (every GPU there is, or
 * the ids given), beside 4 streams on the first GPU alone. Packed: YUY2
 * and v210 beside Y42B and I422_10LE through cudabilateral,
 * cudagaussianblur and the chain of three at 1080p and 4K.
 *
 * appsrc pushes pre-made frames (a new GstBuffer sharing their memory per
 * frame, no pixel work). Latency is from the element's sink pad to its src
 * pad, frame by frame; fps counts frames leaving after a warm-up.
 *   GST_PLUGIN_PATH=build/gst build/tests/bench_pipeline [SECONDS_PER_RUN]
 *       [all | chains | packed | latency | scale [GPU ids...]]
 * Prints a markdown table; exits 77 without a GPU or the plugin. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_runtime.h"

#define N_SOURCE_FRAMES 4       /* pre-made frames pushed in rotation */
#define WARMUP 10
#define MAX_FRAMES 20000
#define N_CONCURRENT 8

typedef struct
{
  GstVideoInfo info;
  GstBuffer *frames[N_SOURCE_FRAMES];
  guint8 *data[N_SOURCE_FRAMES];        /* their pixels */
  void *pinned[N_SOURCE_FRAMES];        /* the same, when pinned */
} Source;

/* Times at which each frame enters and leaves the element under test. */
typedef struct
{
  gint64 in[MAX_FRAMES];
  gint64 out[MAX_FRAMES];
  guint n_out;
} Timing;

static double seconds_per_run = 0.5;

static Source *
source_new (GstVideoFormat format, gint w, gint h, gboolean pinned)
{
  Source *src = g_new0 (Source, 1);

  gst_video_info_set_format (&src->info, format, w, h);
  for (guint i = 0; i < N_SOURCE_FRAMES; i++) {
    gsize size = src->info.size;
    guint8 *data;

    if (pinned) {
      /* Portable pinned memory, as the element's proposed pool holds. */
      if (cf_host_alloc_pinned (&src->pinned[i], size) != CF_OK)
        return NULL;
      data = src->pinned[i];
      src->frames[i] = gst_buffer_new_wrapped_full (0, data, size, 0, size,
          NULL, NULL);
    } else {
      src->frames[i] = gst_buffer_new_allocate (NULL, size, NULL);
      GstMapInfo map;
      gst_buffer_map (src->frames[i], &map, GST_MAP_WRITE);
      data = map.data;
      gst_buffer_unmap (src->frames[i], &map);
    }
    src->data[i] = data;
    /* touched once so every page is resident before timing */
    for (gsize b = 0; b < size; b++)
      data[b] = (guint8) (b * 31 + i * 7);
  }
  return src;
}

static void
source_free (Source * src)
{
  for (guint i = 0; i < N_SOURCE_FRAMES; i++) {
    gst_buffer_unref (src->frames[i]);
    cf_host_free_pinned (src->pinned[i]);
  }
  g_free (src);
}

static GstPadProbeReturn
stamp_in (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Timing *t = data;
  guint64 i = GST_BUFFER_OFFSET (GST_PAD_PROBE_INFO_BUFFER (info));

  if (i < MAX_FRAMES)
    t->in[i] = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
stamp_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Timing *t = data;
  guint64 i = GST_BUFFER_OFFSET (GST_PAD_PROBE_INFO_BUFFER (info));

  if (i < MAX_FRAMES)
    t->out[i] = g_get_monotonic_time ();
  t->n_out++;
  return GST_PAD_PROBE_OK;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

typedef struct
{
  double fps;
  double latency_ms;            /* median */
  gint64 last_out;              /* when the last frame left */
  gboolean ok;
} Result;

/* Frames to push so that a run lasts about seconds_per_run at @fps_guess. */
static guint
frame_count (double fps_guess)
{
  return CLAMP ((guint) (fps_guess * seconds_per_run), 60, MAX_FRAMES);
}

static void
add_probes (GstElement * pipeline, Timing * t)
{
  GstElement *first = gst_bin_get_by_name (GST_BIN (pipeline), "first");
  GstElement *last = gst_bin_get_by_name (GST_BIN (pipeline), "last");
  GstPad *sink, *src;

  if (!last)
    last = gst_object_ref (first);
  sink = gst_element_get_static_pad (first, "sink");
  src = gst_element_get_static_pad (last, "src");
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, stamp_in, t, NULL);
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, stamp_out, t, NULL);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (first);
  gst_object_unref (last);
}

static Result
summarise (Timing * t, guint n)
{
  Result r = { 0 };
  double *lat = g_new (double, n);
  guint k = 0;

  if (t->n_out != n) {
    fprintf (stderr, "%u frames in, %u out\n", n, t->n_out);
    g_free (lat);
    return r;
  }
  for (guint i = WARMUP; i < n; i++)
    lat[k++] = (t->out[i] - t->in[i]) / 1000.0;
  qsort (lat, k, sizeof (double), cmp_double);
  r.latency_ms = lat[k / 2];
  r.fps = (n - 1 - WARMUP) * 1e6 / (t->out[n - 1] - t->out[WARMUP]);
  r.last_out = t->out[n - 1];
  r.ok = TRUE;
  g_free (lat);
  return r;
}

/* Holds pipelines back until all of them are playing, so that concurrent
 * ones overlap in time rather than in their start-up. */
typedef struct
{
  GMutex lock;
  GCond cond;
  guint waiting;
  guint count;
} StartGate;

static void
start_gate_pass (StartGate * gate)
{
  g_mutex_lock (&gate->lock);
  if (++gate->waiting == gate->count)
    g_cond_broadcast (&gate->cond);
  while (gate->waiting < gate->count)
    g_cond_wait (&gate->cond, &gate->lock);
  g_mutex_unlock (&gate->lock);
}

/* Runs `appsrc ! @middle ! fakesink` over @n frames of @src; @middle names
 * its first element "first" and its last "last" (or only "first" when it
 * is one element). */
static Result
run_pipeline (const gchar * middle, Source * src, guint n, StartGate * gate)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=4 max-bytes=0 ! %s ! fakesink sync=false", middle);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *appsrc;
  GstCaps *caps;
  GstMessage *msg;
  Timing *t = g_new0 (Timing, 1);
  Result r = { 0 };
  GstFlowReturn ret;

  g_free (desc);
  if (!pipeline) {
    fprintf (stderr, "%s\n", err->message);
    g_clear_error (&err);
    g_free (t);
    return r;
  }
  appsrc = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  caps = gst_video_info_to_caps (&src->info);
  g_object_set (appsrc, "caps", caps, NULL);
  gst_caps_unref (caps);
  add_probes (pipeline, t);
  /* returns once the element has started (context, streams): only the
   * sink's preroll is still to come */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  if (gate)
    start_gate_pass (gate);

  for (guint i = 0; i < n; i++) {
    GstBuffer *buf = gst_buffer_copy (src->frames[i % N_SOURCE_FRAMES]);

    GST_BUFFER_OFFSET (buf) = i;
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 30);
    g_signal_emit_by_name (appsrc, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
    if (ret != GST_FLOW_OK)
      break;
  }
  g_signal_emit_by_name (appsrc, "end-of-stream", &ret);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fprintf (stderr, "error: %s\n", err->message);
    g_clear_error (&err);
  } else {
    r = summarise (t, n);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (appsrc);
  gst_object_unref (pipeline);
  g_free (t);
  return r;
}

/* How the copy floor reads its frames. */
typedef enum
{
  FLOOR_PINNED,                 /* straight from pinned frames */
  FLOOR_PAGEABLE,               /* straight from pageable frames */
  FLOOR_STAGED,                 /* memcpy of pageable frames to pinned first */
} FloorMode;

static const gchar *floor_names[] = {
  "floor: pinned H2D+D2H, 2 streams",
  "floor: pageable H2D, pinned D2H, 2 streams",
  "floor: memcpy to pinned staging, H2D+D2H, 2 streams",
};

/* H2D then D2H of every frame, frames alternating between two streams so
 * one frame's upload overlaps the previous one's download. */
static void
copy_frames (Source * src, FloorMode mode, guint n, CfStream * s, void **dev,
    void **out, void **staging)
{
  gsize size = src->info.size;

  for (guint i = 0; i < n; i++) {
    guint k = i % 2;
    const void *in = src->data[i % N_SOURCE_FRAMES];

    if (mode == FLOOR_STAGED) {
      /* the staging buffer is free once its previous upload is done */
      cf_stream_synchronize (s[k]);
      memcpy (staging[k], in, size);
      in = staging[k];
    }
    cf_copy_2d_async (dev[k], size, in, size, size, 1, s[k]);
    cf_copy_2d_async (out[k], size, dev[k], size, size, 1, s[k]);
  }
  cf_stream_synchronize (s[0]);
  cf_stream_synchronize (s[1]);
}

static double
copy_floor_fps (Source * src, FloorMode mode)
{
  gsize size = src->info.size;
  CfStream s[2];
  void *dev[2], *out[2], *staging[2];
  gint64 start;
  guint n;
  double fps;

  for (guint k = 0; k < 2; k++) {
    cf_stream_create (&s[k]);
    cf_device_alloc (&dev[k], size);
    cf_host_alloc_pinned (&out[k], size);
    cf_host_alloc_pinned (&staging[k], size);
  }
  /* a warm-up pass sizes the timed one */
  start = g_get_monotonic_time ();
  copy_frames (src, mode, WARMUP, s, dev, out, staging);
  n = frame_count (WARMUP * 1e6 / (g_get_monotonic_time () - start));
  start = g_get_monotonic_time ();
  copy_frames (src, mode, n, s, dev, out, staging);
  fps = n * 1e6 / (g_get_monotonic_time () - start);
  for (guint k = 0; k < 2; k++) {
    cf_stream_destroy (s[k]);
    cf_device_free (dev[k]);
    cf_host_free_pinned (out[k]);
    cf_host_free_pinned (staging[k]);
  }
  return fps;
}

static void
print_row (const gchar * size, const gchar * format, const gchar * path,
    const gchar * fif, Result r, double floor_fps, gsize frame_bytes)
{
  if (!r.ok) {
    printf ("| %s | %s | %s | %s | failed | | | |\n", size, format, path, fif);
    return;
  }
  printf ("| %s | %s | %s | %s | %.0f | ", size, format, path, fif, r.fps);
  if (r.latency_ms >= 0)
    printf ("%.2f", r.latency_ms);
  printf (" | %.1f | %.0f%% |\n", r.fps * frame_bytes * 2 / 1e9,
      100.0 * r.fps / floor_fps);
}

/* Two elements in a row, each with the same frames in flight. */
#define CHAIN "cudamedian backend=cuda size=3 frames-in-flight=%u ! " \
  "cudagaussianblur backend=cuda sigma=2 frames-in-flight=%u"

/* `cudaupload ! cudadownload` alone and with two cudafilters elements in
 * CUDA memory between them (zero copy: each frame crosses the bus once each
 * way), from pageable and from pinned frames. Without the caps after
 * cudaupload it would pass system memory through, and so would the chain. */
static void
bench_cuda_memory (const gchar * size, const gchar * fname, Source * pinned,
    Source * pageable, double floor_fps)
{
  gsize bytes = pinned->info.size;

  for (guint mem = 0; mem < 2; mem++) {
    Source *src = mem ? pinned : pageable;
    const gchar *in = mem ? "pinned in" : "pageable in";
    gchar *path = g_strdup_printf ("cudaupload ! cudadownload, %s", in);
    Result r = run_pipeline ("cudaupload name=first ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload name=last", src,
        frame_count (floor_fps / 2), NULL);

    print_row (size, fname, path, "-", r, floor_fps, bytes);
    g_free (path);
    for (guint fif = 1; fif <= 2; fif++) {
      gchar *middle = g_strdup_printf ("cudaupload name=first ! "
          "video/x-raw(memory:CUDAMemory) ! " CHAIN " ! "
          "cudadownload name=last", fif, fif);
      gchar *fif_s = g_strdup_printf ("%u", fif);

      path = g_strdup_printf ("chain: cudaupload ! cudamedian ! "
          "cudagaussianblur ! cudadownload, CUDA memory, %s", in);
      r = run_pipeline (middle, src, frame_count (floor_fps / 2), NULL);
      print_row (size, fname, path, fif_s, r, floor_fps, bytes);
      g_free (path);
      g_free (middle);
      g_free (fif_s);
    }
  }
}

/* The same two elements in system memory: each copies every frame in and
 * out, what CUDA memory between them saves. */
static void
bench_system_chain (const gchar * size, const gchar * fname, Source * pinned,
    double floor_fps)
{
  for (guint fif = 1; fif <= 2; fif++) {
    gchar *middle = g_strdup_printf ("cudamedian name=first backend=cuda "
        "size=3 frames-in-flight=%u ! cudagaussianblur name=last "
        "backend=cuda sigma=2 frames-in-flight=%u", fif, fif);
    gchar *fif_s = g_strdup_printf ("%u", fif);
    Result r = run_pipeline (middle, pinned, frame_count (floor_fps / 2),
        NULL);

    print_row (size, fname, "chain: cudamedian ! cudagaussianblur, system "
        "memory, pinned in", fif_s, r, floor_fps, pinned->info.size);
    g_free (middle);
    g_free (fif_s);
  }
}

static void
bench_format (GstVideoFormat format, gint w, gint h, gboolean have_upload)
{
  const gchar *fname = gst_video_format_to_string (format);
  gchar *size = g_strdup_printf ("%dx%d", w, h);
  Source *pinned = source_new (format, w, h, TRUE);
  Source *pageable = source_new (format, w, h, FALSE);
  double floor_fps = copy_floor_fps (pinned, FLOOR_PINNED);
  gsize bytes = pinned->info.size;

  for (FloorMode m = FLOOR_PINNED; m <= FLOOR_STAGED; m++) {
    /* the copies have no per-frame latency of interest: none shown */
    Result r = { m == FLOOR_PINNED ? floor_fps :
          copy_floor_fps (pageable, m), -1, 0, TRUE
    };
    print_row (size, fname, floor_names[m], "-", r, floor_fps, bytes);
  }
  /* GstCudaMemory has no GRAY formats in 1.22 */
  if (have_upload && !GST_VIDEO_FORMAT_INFO_IS_GRAY (pinned->info.finfo))
    bench_cuda_memory (size, fname, pinned, pageable, floor_fps);
  bench_system_chain (size, fname, pinned, floor_fps);
  /* pageable frames recur (4 in rotation): the element page-locks them the
   * second time, within the warm-up */
  for (guint mem = 0; mem < 2; mem++)
    for (guint fif = 1; fif <= 3; fif++) {
      gchar *middle = g_strdup_printf ("cudagaussianblur name=first "
          "backend=cuda sigma=2 frames-in-flight=%u", fif);
      gchar *fif_s = g_strdup_printf ("%u", fif);
      Result r = run_pipeline (middle, mem ? pageable : pinned,
          frame_count (floor_fps / 2), NULL);

      print_row (size, fname, mem ? "cudagaussianblur, pageable in, recurring" :
          "cudagaussianblur, pinned in", fif_s, r, floor_fps, bytes);
      g_free (middle);
      g_free (fif_s);
    }
  source_free (pinned);
  source_free (pageable);
  g_free (size);
}

/* The chain users build: each element hands its frames to the next in
 * device memory, so the chain should cost one upload and one download. */
#define CHAIN3 "cudamedian name=first size=3 frames-in-flight=2%s" \
  "cudabilateral frames-in-flight=2%s" \
  "cudagaussianblur name=last sigma=1 frames-in-flight=2"

static void
chain_row (const gchar * size, const gchar * fname, const gchar * path,
    const gchar * middle, Source * src, double floor_fps)
{
  Result r = run_pipeline (middle, src, frame_count (floor_fps / 2), NULL);

  print_row (size, fname, path, "2", r, floor_fps, src->info.size);
}

/* The chain of three from pinned and from recurring pageable frames, beside
 * the copy floor, one element alone, and the same chain with a tee after
 * each element (tee takes no hand-off: system memory between them, each
 * element copying in and out, as before the hand-off existed). */
static void
bench_chain_format (GstVideoFormat format, gint w, gint h)
{
  const gchar *fname = gst_video_format_to_string (format);
  gchar *size = g_strdup_printf ("%dx%d", w, h);
  Source *pinned = source_new (format, w, h, TRUE);
  Source *pageable = source_new (format, w, h, FALSE);
  double floor_fps = copy_floor_fps (pinned, FLOOR_PINNED);
  Result floor = { floor_fps, -1, 0, TRUE };
  gchar *chain = g_strdup_printf (CHAIN3, " ! ", " ! ");
  gchar *teed = g_strdup_printf (CHAIN3, " ! tee ! ", " ! tee ! ");

  print_row (size, fname, floor_names[FLOOR_PINNED], "-", floor, floor_fps,
      pinned->info.size);
  chain_row (size, fname, "cudagaussianblur alone, pinned in",
      "cudagaussianblur name=first sigma=1 frames-in-flight=2", pinned,
      floor_fps);
  chain_row (size, fname, "chain of 3, pinned in", chain, pinned, floor_fps);
  chain_row (size, fname, "chain of 3, pageable in, recurring", chain,
      pageable, floor_fps);
  chain_row (size, fname, "chain of 3 with tee between (system memory), "
      "pinned in", teed, pinned, floor_fps);
  g_free (chain);
  g_free (teed);
  source_free (pinned);
  source_free (pageable);
  g_free (size);
}

/* 1 to 4 medians in a row at 4K RGBA: the cost of each added element. */
static void
bench_chain_length (void)
{
  Source *pinned = source_new (GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE);
  double floor_fps = copy_floor_fps (pinned, FLOOR_PINNED);

  for (guint n = 1; n <= 4; n++) {
    GString *middle = g_string_new (NULL);
    gchar *path = g_strdup_printf ("%u x cudamedian size=3, pinned in", n);

    for (guint i = 0; i < n; i++)
      g_string_append_printf (middle, "%scudamedian size=3 "
          "frames-in-flight=2%s", i ? " ! " : "", i == 0 ? " name=first" :
          i == n - 1 ? " name=last" : "");
    chain_row ("3840x2160", "RGBA", path, middle->str, pinned, floor_fps);
    g_string_free (middle, TRUE);
    g_free (path);
  }
  source_free (pinned);
}

/* Capture formats: packed 4:2:2 (YUY2 of webcams and grabbers, v210 of
 * 10-bit SDI) beside their planar equivalents (Y42B, I422_10LE), through
 * cudabilateral and cudagaussianblur and the chain of three, at 1080p and
 * 4K, against the pinned copy floor of the same frames. */
static void
bench_packed (void)
{
  static const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_YUY2,
    GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_v210, GST_VIDEO_FORMAT_I422_10LE
  };
  gchar *chain = g_strdup_printf (CHAIN3, " ! ", " ! ");

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
      const gchar *fname = gst_video_format_to_string (formats[i]);
      gchar *size = g_strdup_printf ("%dx%d", sizes[s][0], sizes[s][1]);
      Source *pinned = source_new (formats[i], sizes[s][0], sizes[s][1],
          TRUE);
      double floor_fps = copy_floor_fps (pinned, FLOOR_PINNED);
      Result floor = { floor_fps, -1, 0, TRUE };

      print_row (size, fname, floor_names[FLOOR_PINNED], "-", floor,
          floor_fps, pinned->info.size);
      chain_row (size, fname, "cudabilateral, pinned in",
          "cudabilateral name=first frames-in-flight=2", pinned, floor_fps);
      chain_row (size, fname, "cudagaussianblur sigma=2, pinned in",
          "cudagaussianblur name=first sigma=2 frames-in-flight=2", pinned,
          floor_fps);
      chain_row (size, fname, "chain of 3, pinned in", chain, pinned,
          floor_fps);
      source_free (pinned);
      g_free (size);
    }
  g_free (chain);
}

static void
bench_chains (void)
{
  static const struct
  {
    GstVideoFormat format;
    gint w, h;
  } rows[] = {
    {GST_VIDEO_FORMAT_RGBA, 3840, 2160},
    {GST_VIDEO_FORMAT_NV12, 3840, 2160},
    {GST_VIDEO_FORMAT_GRAY16_LE, 1920, 1080},
    {GST_VIDEO_FORMAT_GRAY8, 1920, 1080},
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    bench_chain_format (rows[i].format, rows[i].w, rows[i].h);
  bench_chain_length ();
}

#define LIVE_FRAMES 180         /* 3 s at 60 fps */

/* With a synchronising sink: how late after its capture time (its PTS) a
 * frame is shown, from the sink's clock when it renders the frame. */
static void
stamp_render (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  Timing *t = data;
  guint64 i = GST_BUFFER_OFFSET (buf);
  GstClock *clock = gst_element_get_clock (sink);

  if (i < MAX_FRAMES && clock) {
    t->in[i] = 0;
    t->out[i] = (gst_clock_get_time (clock) - gst_element_get_base_time (sink)
        - GST_BUFFER_PTS (buf)) / 1000;
  }
  t->n_out++;
  gst_clear_object (&clock);
}

/* A live 60 fps videotestsrc through the chain of three (each element with
 * @fif frames in flight) into fakesink. With @sync, the display latency:
 * when the sink renders each frame after its capture time (what the
 * pipeline's latency makes it wait included); without, the processing
 * latency: from the source's push to the sink's pad. Median and 99th
 * percentile over the frames after the warm-up, in milliseconds; FALSE if
 * frames were lost. */
static gboolean
live_latency (GstVideoFormat format, gint w, gint h, guint fif,
    gboolean sync, double *median, double *p99)
{
  gchar *desc = g_strdup_printf ("videotestsrc name=src is-live=true "
      "num-buffers=%d ! video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=60/1 ! cudamedian size=3 frames-in-flight=%u ! "
      "cudabilateral frames-in-flight=%u ! cudagaussianblur sigma=1 "
      "frames-in-flight=%u ! fakesink name=sink sync=%d "
      "signal-handoffs=%d", LIVE_FRAMES, gst_video_format_to_string (format),
      w, h, fif, fif, fif, sync, sync);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *src_pad = gst_element_get_static_pad (src, "src");
  GstPad *sink_pad = gst_element_get_static_pad (sink, "sink");
  Timing *t = g_new0 (Timing, 1);
  double lat[LIVE_FRAMES];
  guint k = 0;
  GstMessage *msg;

  if (sync) {
    g_signal_connect (sink, "handoff", G_CALLBACK (stamp_render), t);
  } else {
    gst_pad_add_probe (src_pad, GST_PAD_PROBE_TYPE_BUFFER, stamp_in, t, NULL);
    gst_pad_add_probe (sink_pad, GST_PAD_PROBE_TYPE_BUFFER, stamp_out, t, NULL);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (guint i = WARMUP; i < LIVE_FRAMES && t->n_out == LIVE_FRAMES; i++)
    lat[k++] = (t->out[i] - t->in[i]) / 1000.0;
  if (k) {
    qsort (lat, k, sizeof (double), cmp_double);
    *median = lat[k / 2];
    *p99 = lat[(k * 99) / 100];
  }
  gst_object_unref (src_pad);
  gst_object_unref (sink_pad);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (t);
  return k > 0;
}

/* Latency and throughput of the chain of three at 1 to 3 frames in flight:
 * live (60 fps, source to sink) and, beside it, non-live from pinned
 * frames as fast as it goes. */
static void
bench_latency (void)
{
  static const struct
  {
    GstVideoFormat format;
    gint w, h;
  } rows[] = {
    {GST_VIDEO_FORMAT_GRAY16_LE, 1920, 1080},
    {GST_VIDEO_FORMAT_RGBA, 3840, 2160},
    {GST_VIDEO_FORMAT_NV12, 1920, 1080},
  };

  printf ("\nLatency, chain of 3, live videotestsrc 60 fps (%d frames): "
      "display latency into fakesink sync=true (render time after the "
      "capture time), processing latency into fakesink sync=false (source "
      "push to sink pad); non-live throughput from pinned frames:\n\n"
      "| size | format | frames in flight | display median ms | display "
      "p99 ms | processing median ms | processing p99 ms | non-live fps | "
      "of floor |\n|---|---|---|---|---|---|---|---|---|\n",
      LIVE_FRAMES - WARMUP);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
    Source *pinned = source_new (rows[i].format, rows[i].w, rows[i].h, TRUE);
    double floor_fps = copy_floor_fps (pinned, FLOOR_PINNED);

    for (guint fif = 1; fif <= 3; fif++) {
      gchar *chain = g_strdup_printf ("cudamedian name=first size=3 "
          "frames-in-flight=%u ! cudabilateral frames-in-flight=%u ! "
          "cudagaussianblur name=last sigma=1 frames-in-flight=%u", fif, fif,
          fif);
      Result r = run_pipeline (chain, pinned, frame_count (floor_fps / 2),
          NULL);

      printf ("| %dx%d | %s | %u |", rows[i].w, rows[i].h,
          gst_video_format_to_string (rows[i].format), fif);
      /* display latency first, then processing latency */
      for (gint sync = TRUE; sync >= FALSE; sync--) {
        double median = 0, p99 = 0;

        if (live_latency (rows[i].format, rows[i].w, rows[i].h, fif, sync,
                &median, &p99))
          printf (" %.2f | %.2f |", median, p99);
        else
          printf (" lost frames | |");
      }
      if (r.ok)
        printf (" %.0f | %.0f%% |\n", r.fps, 100.0 * r.fps / floor_fps);
      else
        printf (" failed | |\n");
      g_free (chain);
    }
    source_free (pinned);
  }
}

typedef struct
{
  const gchar *middle;
  Source *src;
  guint n;
  StartGate *gate;
  Result r;
} Concurrent;

static gpointer
concurrent_thread (gpointer data)
{
  Concurrent *c = data;

  c->r = run_pipeline (c->middle, c->src, c->n, c->gate);
  return NULL;
}

/* Runs @k pipelines `appsrc ! middles[i] ! fakesink` of @n frames each at
 * once, started together; their results land in @c. Returns the fps of
 * all of them together (frames over the time from the common start to the
 * last frame out). */
static double
run_concurrent (Concurrent * c, guint k, gchar ** middles, Source * src,
    guint n)
{
  StartGate gate = { 0 };
  GThread **threads = g_new (GThread *, k);
  guint frames = 0;
  gint64 start, end = 0;

  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  gate.count = k;
  for (guint i = 0; i < k; i++) {
    c[i].middle = middles[i];
    c[i].src = src;
    c[i].n = n;
    c[i].gate = &gate;
    threads[i] = g_thread_new ("pipeline", concurrent_thread, &c[i]);
  }
  g_mutex_lock (&gate.lock);
  while (gate.waiting < gate.count)
    g_cond_wait (&gate.cond, &gate.lock);
  g_mutex_unlock (&gate.lock);
  start = g_get_monotonic_time ();
  for (guint i = 0; i < k; i++) {
    g_thread_join (threads[i]);
    frames += c[i].n;
    end = MAX (end, c[i].r.last_out);
  }
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
  g_free (threads);
  return frames * 1e6 / (end - start);
}

/* Several 1080p RGBA pipelines at once in one process, started together:
 * each its own element, streams and pools, one CUDA context each. */
static void
bench_concurrent (void)
{
  Source *src = source_new (GST_VIDEO_FORMAT_RGBA, 1920, 1080, TRUE);
  Concurrent c[N_CONCURRENT];
  gchar *middles[N_CONCURRENT];
  double min_fps = G_MAXDOUBLE, total;
  guint failed = 0;

  for (guint i = 0; i < N_CONCURRENT; i++)
    middles[i] = (gchar *) "cudagaussianblur name=first backend=cuda "
        "sigma=2 frames-in-flight=2";
  /* the bus carries about 5700 such frames a second, shared by all */
  total = run_concurrent (c, N_CONCURRENT, middles, src,
      frame_count (3.0 * 5700 / N_CONCURRENT));
  for (guint i = 0; i < N_CONCURRENT; i++) {
    failed += !c[i].r.ok;
    min_fps = MIN (min_fps, c[i].r.fps);
  }
  printf ("\n%d concurrent 1920x1080 RGBA pipelines started together "
      "(pinned in, 2 frames in flight): %u failed or lost frames; slowest "
      "%.0f fps; all together %.0f fps\n", N_CONCURRENT, failed, min_fps,
      total);
  source_free (src);
}

/* @k streams of the chain of three, stream i on GPU ids[i % n_ids]: one
 * table row with fps per stream (slowest, median), in all and per GPU. */
static void
scale_row (GstVideoFormat format, gint w, gint h, guint k, const gint * ids,
    guint n_ids, guint n_frames)
{
  Source *src = source_new (format, w, h, TRUE);
  Concurrent *c = g_new0 (Concurrent, k);
  gchar **middles = g_new0 (gchar *, k + 1);
  double *fps = g_new (double, k);
  GString *used = g_string_new (NULL);
  guint failed = 0;
  double total;

  for (guint i = 0; i < k; i++) {
    gint id = ids[i % n_ids];

    middles[i] = g_strdup_printf ("cudamedian name=first size=3 "
        "cuda-device-id=%d ! cudabilateral cuda-device-id=%d ! "
        "cudagaussianblur name=last sigma=1 cuda-device-id=%d", id, id, id);
  }
  for (guint g = 0; g < n_ids; g++)
    g_string_append_printf (used, "%s%d", g ? "," : "", ids[g]);
  total = run_concurrent (c, k, middles, src, n_frames);
  for (guint i = 0; i < k; i++) {
    failed += !c[i].r.ok;
    fps[i] = c[i].r.fps;
  }
  qsort (fps, k, sizeof (double), cmp_double);
  printf ("| %dx%d | %s | %s | %u | %.0f | %.0f | %.0f | %.0f | %u |\n", w, h,
      gst_video_format_to_string (format), used->str, k, fps[0], fps[k / 2],
      total, total / n_ids, failed);
  g_strfreev (middles);
  g_string_free (used, TRUE);
  g_free (fps);
  g_free (c);
  source_free (src);
}

/* Streams spread over GPUs: 4 streams per GPU of @ids (default: every GPU
 * there is), round-robin, and beside them the same 4 streams on the first
 * GPU alone, at 1080p GRAY16_LE and 4K RGBA. */
static void
bench_scale (const gint * ids, guint n_ids)
{
  static const struct
  {
    GstVideoFormat format;
    gint w, h;
    guint frames;               /* per stream */
  } rows[] = {
    {GST_VIDEO_FORMAT_GRAY16_LE, 1920, 1080, 2000},
    {GST_VIDEO_FORMAT_RGBA, 3840, 2160, 250},
  };

  printf ("\nStreams of the chain of three (2 frames in flight, pinned "
      "frames in), round-robin over GPUs, started together:\n\n| size | "
      "format | GPUs | streams | slowest stream fps | median stream fps | "
      "total fps | per GPU fps | failed |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++) {
    gint frames = rows[r].frames * seconds_per_run / 0.5;

    scale_row (rows[r].format, rows[r].w, rows[r].h, 4 * n_ids, ids, n_ids,
        frames);
    if (n_ids > 1)
      scale_row (rows[r].format, rows[r].w, rows[r].h, 4, ids, 1, frames);
  }
}

int
main (int argc, char **argv)
{
  static const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY16_LE
  };
  GstElementFactory *f;
  gboolean have_upload;
  const gchar *mode;

  gst_init (&argc, &argv);
  if (argc > 1)
    seconds_per_run = g_ascii_strtod (argv[1], NULL);
  mode = argc > 2 ? argv[2] : "all";
  if (cf_device_count () == 0) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  f = gst_element_factory_find ("cudagaussianblur");
  if (!f) {
    fprintf (stderr, "cudagaussianblur not found: set GST_PLUGIN_PATH\n");
    return 77;
  }
  gst_object_unref (f);
  f = gst_element_factory_find ("cudaupload");
  have_upload = f != NULL;
  g_clear_object (&f);

  printf ("Median per-frame latency from the element's sink pad to its src "
      "pad; GB/s counts both directions; %% of the pinned copy floor "
      "measured in the same run.%s\n\n", have_upload ? "" :
      " (no nvcodec: cudaupload ! cudadownload not measured)");
  printf ("| size | format | path | frames in flight | fps | latency ms | "
      "GB/s | of floor |\n|---|---|---|---|---|---|---|---|\n");
  if (g_str_equal (mode, "all")) {
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
        bench_format (formats[i], sizes[s][0], sizes[s][1], have_upload);
  }
  if (g_str_equal (mode, "all") || g_str_equal (mode, "chains")) {
    printf ("\nChains (cudamedian size=3 ! cudabilateral ! cudagaussianblur "
        "sigma=1, system memory at both ends):\n\n| size | format | path | "
        "frames in flight | fps | latency ms | GB/s | of floor |\n"
        "|---|---|---|---|---|---|---|---|\n");
    bench_chains ();
  }
  if (g_str_equal (mode, "all") || g_str_equal (mode, "packed")) {
    printf ("\nPacked 4:2:2 and their planar equivalents:\n\n| size | "
        "format | path | frames in flight | fps | latency ms | GB/s | "
        "of floor |\n|---|---|---|---|---|---|---|---|\n");
    bench_packed ();
  }
  if (g_str_equal (mode, "all") || g_str_equal (mode, "latency"))
    bench_latency ();
  if (g_str_equal (mode, "all"))
    bench_concurrent ();
  if (g_str_equal (mode, "all") || g_str_equal (mode, "scale")) {
    gint n = cf_device_count (), ids[16] = { 0 };
    guint n_ids = 0;

    for (gint a = 3; a < argc && n_ids < G_N_ELEMENTS (ids); a++)
      ids[n_ids++] = atoi (argv[a]);
    /* no ids given: every GPU there is */
    if (!n_ids)
      for (gint d = 0; d < MIN (n, 16); d++)
        ids[n_ids++] = d;
    bench_scale (ids, n_ids);
  }
  return 0;
}
