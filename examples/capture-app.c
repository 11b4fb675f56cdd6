/* capture-app: the shape of a capture program that filters its frames with
 * cudafilters. Copy it and replace make_frame() with your grabber and
 * on_sample() with your consumer.
 *
 *   appsrc (GRAY16_LE) ! cudamedian size=3 ! cudagaussianblur sigma=1 ! appsink
 *
 * It pushes synthetic 16-bit frames, changes the median's window from 3 to 5
 * while PLAYING, checks every filtered frame as it arrives, and exits 0 only
 * when every frame came back, in order, with the expected content:
 *   - the background of frame k is 1000 + 100 k (impulses removed by the
 *     median, the flat field left flat by the blur, within 1);
 *   - a 3x3 bright block survives a 3x3 median (its centre stays bright) but
 *     not a 5x5 one, so the frame where the new size took effect shows, and
 *     it must be no later than the first frame pushed after the change.
 * Errors (from the bus or from a push) and EOS end the program; an error
 * makes it exit 1.
 *
 *   capture-app [--frames N] [--width W] [--height H] [--backend auto|cuda|cpu]
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <stdlib.h>

#define FPS 30
#define BRIGHT 60000
#define IMPULSE 65535
#define BACKGROUND(k) (1000 + 100 * ((k) % 500))

typedef struct
{
  int width, height, n_frames;
  int switch_after;             /* the size is changed after pushing this frame */
  /* Written by the streaming thread (appsink callback), read after EOS. */
  int received;
  int *bright;                  /* per frame: 1 block centre bright, 0 not, -1 missing */
  int bad_frames;
} App;

/* One synthetic frame: a flat background, isolated impulses (what a median
 * removes) and a 3x3 bright block in the middle. */
static GstBuffer *
make_frame (const App * app, int k)
{
  gsize size = (gsize) app->width * app->height * 2;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  guint16 *px = (guint16 *) map.data;
  int cx = app->width / 2, cy = app->height / 2;
  for (int y = 0; y < app->height; y++)
    for (int x = 0; x < app->width; x++) {
      guint16 v = BACKGROUND (k);
      /* impulses on a 7-pixel grid, away from the block */
      if ((x + 3 * k) % 7 == 3 && y % 7 == 3 && (abs (x - cx) > 6
              || abs (y - cy) > 6))
        v = IMPULSE;
      if (abs (x - cx) <= 1 && abs (y - cy) <= 1)
        v = BRIGHT;
      px[y * app->width + x] = GUINT16_TO_LE (v);
    }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;
  GST_BUFFER_OFFSET (buf) = k;
  return buf;
}

/* Called in the streaming thread for every filtered frame. */
static GstFlowReturn
on_sample (GstAppSink * sink, gpointer user_data)
{
  App *app = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  if (!sample)
    return GST_FLOW_EOS;
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstVideoInfo info;
  GstVideoFrame frame;
  int k = app->received++;
  gboolean ok = gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
      && gst_video_frame_map (&frame, &info, buf, GST_MAP_READ);
  if (!ok) {
    g_printerr ("frame %d: cannot map\n", k);
    app->bad_frames++;
    gst_sample_unref (sample);
    return GST_FLOW_ERROR;
  }
  /* Frames come back in order, with their timestamps. */
  if (GST_BUFFER_PTS (buf) != gst_util_uint64_scale (k, GST_SECOND, FPS)) {
    g_printerr ("frame %d: pts %" GST_TIME_FORMAT "\n", k,
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
    app->bad_frames++;
  }
  const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  int stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);        /* not width * 2 */
  int cx = app->width / 2, cy = app->height / 2, wrong = 0;
  for (int y = 0; y < app->height; y++) {
    const guint16 *row = (const guint16 *) (data + (gsize) y * stride);
    for (int x = 0; x < app->width; x++) {
      if (abs (x - cx) <= 6 && abs (y - cy) <= 6)
        continue;               /* the block and the blur around it */
      if (abs ((int) GUINT16_FROM_LE (row[x]) - BACKGROUND (k)) > 1)
        wrong++;
    }
  }
  int centre = GUINT16_FROM_LE (((const guint16 *) (data +
              (gsize) cy * stride))[cx]);
  if (k < app->n_frames)
    app->bright[k] = centre > BACKGROUND (k) + (BRIGHT - BACKGROUND (k)) / 4;
  if (wrong) {
    g_printerr ("frame %d: %d background pixels differ from %d\n", k, wrong,
        BACKGROUND (k));
    app->bad_frames++;
  }
  gst_video_frame_unmap (&frame);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* Returns FALSE on an error message (printed); sets *eos on EOS. */
static gboolean
check_bus (GstBus * bus, GstClockTime timeout, gboolean * eos)
{
  GstMessage *msg;
  while ((msg = gst_bus_timed_pop_filtered (bus, timeout,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_EOS))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &err, &dbg);
        g_printerr ("error from %s: %s\n(%s)\n", GST_OBJECT_NAME (msg->src),
            err->message, dbg ? dbg : "");
        g_clear_error (&err);
        g_free (dbg);
        gst_message_unref (msg);
        return FALSE;
      case GST_MESSAGE_WARNING:    /* e.g. no GPU: the CPU reference runs */
        gst_message_parse_warning (msg, &err, &dbg);
        g_printerr ("warning from %s: %s\n", GST_OBJECT_NAME (msg->src),
            err->message);
        g_clear_error (&err);
        g_free (dbg);
        break;
      case GST_MESSAGE_EOS:
        *eos = TRUE;
        gst_message_unref (msg);
        return TRUE;
      default:
        break;
    }
    gst_message_unref (msg);
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  App app = { 320, 240, 30 };
  gchar *backend = NULL;
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &app.n_frames, "Frames to push", "N"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &app.width, "Frame width", "W"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &app.height, "Frame height", "H"},
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
        "auto, cuda or cpu (cuda fails where there is no GPU)", "B"},
    {NULL}
  };
  GError *err = NULL;
  GOptionContext *ctx = g_option_context_new ("- filter frames with cudafilters");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || app.n_frames < 2
      || app.width < 16 || app.height < 16) {
    g_printerr ("%s\n", err ? err->message : "need frames >= 2, size >= 16");
    return 2;
  }
  g_option_context_free (ctx);
  app.switch_after = app.n_frames / 2 - 1;
  app.bright = g_new (int, app.n_frames);
  for (int k = 0; k < app.n_frames; k++)
    app.bright[k] = -1;

  /* The pipeline. In a real program the caps are the grabber's. */
  gchar *desc = g_strdup_printf ("appsrc name=src format=time is-live=true "
      "caps=video/x-raw,format=GRAY16_LE,width=%d,height=%d,framerate=%d/1 ! "
      "cudamedian name=median size=3 backend=%s ! "
      "cudagaussianblur sigma=1 backend=%s ! "
      "appsink name=sink sync=false max-buffers=8", app.width, app.height, FPS,
      backend ? backend : "auto", backend ? backend : "auto");
  GstElement *pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline) {
    g_printerr ("cannot build the pipeline: %s\n", err->message);
    return 1;
  }
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *median = gst_bin_get_by_name (GST_BIN (pipeline), "median");
  /* appsrc blocks when 4 frames wait: the grabber slows down, none is lost */
  g_object_set (src, "block", TRUE, "max-bytes",
      (guint64) 4 * app.width * app.height * 2, NULL);
  GstAppSinkCallbacks callbacks = { NULL, NULL, on_sample };
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, &app, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);

  gboolean ok = gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, eos = FALSE;
  for (int k = 0; ok && k < app.n_frames; k++) {
    GstFlowReturn ret = gst_app_src_push_buffer (GST_APP_SRC (src),
        make_frame (&app, k));
    if (ret != GST_FLOW_OK) {
      g_printerr ("push of frame %d: %s\n", k, gst_flow_get_name (ret));
      ok = FALSE;
    }
    if (k == app.switch_after)  /* a live change: takes effect on a later frame */
      g_object_set (median, "size", 5, NULL);
    ok = check_bus (bus, 0, &eos) && ok;
  }
  if (ok)
    gst_app_src_end_of_stream (GST_APP_SRC (src));
  /* Wait for EOS (every frame is out) or an error. */
  while (ok && !eos)
    ok = check_bus (bus, 30 * GST_SECOND, &eos) && (eos ||
        (g_printerr ("no EOS after 30 s\n"), FALSE));
  if (!ok)                      /* the bus may hold the error that caused it */
    check_bus (bus, 0, &eos);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  /* The per-frame results. */
  int changed_at = -1;
  for (int k = 0; ok && k < app.n_frames; k++) {
    if (app.bright[k] < 0)
      break;
    if (!app.bright[k] && changed_at < 0)
      changed_at = k;
    if (app.bright[k] && changed_at >= 0) {
      g_printerr ("frame %d: the 3x3 block is back after size=5\n", k);
      app.bad_frames++;
    }
  }
  if (ok && app.received != app.n_frames) {
    g_printerr ("%d frames pushed, %d received\n", app.n_frames, app.received);
    ok = FALSE;
  }
  if (ok && (changed_at < 0 || changed_at > app.switch_after + 1)) {
    g_printerr ("size=5 set after frame %d, took effect at frame %d\n",
        app.switch_after, changed_at);
    ok = FALSE;
  }
  ok = ok && app.bad_frames == 0;
  if (ok)
    g_print ("%d frames of %dx%d filtered and checked; size 3 -> 5 set after "
        "frame %d, in effect from frame %d\n", app.received, app.width,
        app.height, app.switch_after, changed_at);

  gst_object_unref (bus);
  gst_object_unref (median);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (app.bright);
  g_free (backend);
  return ok ? 0 : 1;
}
