/* privacy-blur: blur the regions a detector found, the way a camera app
 * masks faces and number plates. A pad probe stands in for the detector: it
 * tags every frame with GstVideoRegionOfInterestMeta rectangles ("face" and
 * "plate" boxes given on the command line, moving a little from frame to
 * frame), and the filter blurs only the regions of one type:
 *
 *   videotestsrc ! [probe: ROI metas] ! tee
 *     t. ! compositor (left: the input)
 *     t. ! cudagaussianblur sigma=8 roi-meta=true roi-meta-type=face !
 *          compositor (right: faces blurred, plates and the rest untouched)
 *   compositor ! pngenc ! filesink (the last frame)
 *
 * Replace the probe with a real detector (any element that adds
 * GstVideoRegionOfInterestMeta) and the PNG with your sink.
 *
 *   privacy-blur [--output OUT.png] [--frames N] [--face X,Y,W,H]...
 *                [--plate X,Y,W,H]... [--filter "ELEMENT PROPS"]
 *                [--backend auto|cuda|cpu]
 *
 * Exits 1 on a pipeline error or bad arguments. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 480
#define HEIGHT 270
#define MAX_BOXES 16

typedef struct
{
  const char *type;
  int x, y, w, h;
} Box;

typedef struct
{
  Box boxes[MAX_BOXES];
  int n_boxes;
  guint64 frame;
} Detector;

/* The stand-in detector: every box, shifted by a few pixels per frame. */
static GstPadProbeReturn
tag_regions (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Detector *det = user_data;
  GstBuffer *buf = gst_pad_probe_info_get_buffer (info);
  int shift = (int) (det->frame++ % 8);

  buf = gst_buffer_make_writable (buf);
  for (int i = 0; i < det->n_boxes; i++) {
    const Box *b = &det->boxes[i];
    gst_buffer_add_video_region_of_interest_meta (buf, b->type, b->x + shift,
        b->y, b->w, b->h);
  }
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

static gboolean
add_box (Detector * det, const char *type, const char *spec)
{
  Box *b;

  if (det->n_boxes == MAX_BOXES) {
    g_printerr ("at most %d boxes\n", MAX_BOXES);
    return FALSE;
  }
  b = &det->boxes[det->n_boxes];
  if (sscanf (spec, "%d,%d,%d,%d", &b->x, &b->y, &b->w, &b->h) != 4
      || b->x < 0 || b->y < 0 || b->w <= 0 || b->h <= 0) {
    g_printerr ("a box is X,Y,W,H with W, H > 0: '%s'\n", spec);
    return FALSE;
  }
  b->type = type;
  det->n_boxes++;
  return TRUE;
}

int
main (int argc, char **argv)
{
  Detector det = { 0 };
  const char *output = "privacy-blur.png", *backend = "auto";
  const char *filter = "cudagaussianblur sigma=8";
  int frames = 10;
  GError *err = NULL;
  GstElement *pipeline, *tag;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  gchar *line;
  int rc = 0;

  gst_init (&argc, &argv);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    gboolean ok = v != NULL;
    if (ok && !strcmp (a, "--output"))
      output = v;
    else if (ok && !strcmp (a, "--frames"))
      ok = (frames = atoi (v)) > 0;
    else if (ok && !strcmp (a, "--face"))
      ok = add_box (&det, "face", v);
    else if (ok && !strcmp (a, "--plate"))
      ok = add_box (&det, "plate", v);
    else if (ok && !strcmp (a, "--filter"))
      filter = v;
    else if (ok && !strcmp (a, "--backend"))
      backend = v;
    else
      ok = FALSE;
    if (!ok) {
      g_printerr ("usage: %s [--output OUT.png] [--frames N] [--face X,Y,W,H]"
          "... [--plate X,Y,W,H]... [--filter \"ELEMENT PROPS\"] "
          "[--backend auto|cuda|cpu]\n", argv[0]);
      return 1;
    }
    i++;
  }
  if (det.n_boxes == 0) {
    add_box (&det, "face", "60,40,90,110");
    add_box (&det, "face", "300,60,80,100");
    add_box (&det, "plate", "180,200,120,40");
  }

  line = g_strdup_printf ("videotestsrc pattern=pinwheel num-buffers=%d ! "
      "video/x-raw,format=RGBA,width=%d,height=%d ! identity name=tag ! "
      "tee name=t t. ! queue ! videoconvert ! mix.sink_0 "
      "t. ! queue ! %s roi-meta=true roi-meta-type=face backend=%s ! "
      "videoconvert ! mix.sink_1 compositor name=mix background=black "
      "sink_1::xpos=%d ! videoconvert ! pngenc snapshot=false ! "
      "multifilesink location=\"%s\" max-files=1", frames, WIDTH, HEIGHT,
      filter, backend, WIDTH, output);
  pipeline = gst_parse_launch (line, &err);
  g_free (line);
  if (!pipeline) {
    g_printerr ("pipeline: %s\n", err->message);
    g_clear_error (&err);
    return 1;
  }
  tag = gst_bin_get_by_name (GST_BIN (pipeline), "tag");
  pad = gst_element_get_static_pad (tag, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, tag_regions, &det, NULL);
  gst_object_unref (pad);
  gst_object_unref (tag);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (msg->src),
        err->message);
    g_clear_error (&err);
    rc = 1;
  } else {
    g_print ("wrote %s (left: input with %d regions, right: faces blurred)\n",
        output, det.n_boxes);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return rc;
}
