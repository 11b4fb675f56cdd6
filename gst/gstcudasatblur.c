/**
 * SECTION:element-cudasatblur
 * @title: cudasatblur
 *
 * Box blur on an NVIDIA GPU whose cost does not depend on its radius: the
 * box sum of every pixel comes from summed-area tables (column prefixes,
 * then prefixes along each row) in exact integer arithmetic. One pass is a
 * box of (2 radius-x + 1) x (2 radius-y + 1) pixels; `passes` stacks up to
 * three boxes, which approximates a Gaussian of
 * sigma^2 = passes ((2 radius + 1)^2 - 1) / 12 on each axis (radius 2,
 * passes 3: sigma 2.45; radius 5: sigma 5.48).
 *
 * The box always covers the same number of pixels: outside the frame they
 * follow `border-mode` (clamp replicates the edge pixel, mirror reflects
 * it without repeating it), for any radius, even one larger than the frame.
 * Each output is the box's sum divided by its size, rounded half up; each
 * pass rounds to the sample type. The CUDA and CPU backends agree bit for
 * bit.
 *
 * Every plane is filtered on its own; subsampled chroma planes use the
 * radii divided by their subsampling (rounded up), and alpha is left
 * untouched. Radius 0 on both axes passes frames through.
 *
 * ## A radius per pixel
 *
 * The radius can change across the frame, from 0 to radius-x / radius-y,
 * at the same cost for every radius (the boxes come from one summed-area
 * table). One source at a time:
 * - `focus=band` (tilt-shift): sharp within a band of thickness
 *   focus-height (a fraction of the frame height) through (focus-x,
 *   focus-y) at focus-angle degrees (0: horizontal); away from it the
 *   radius grows linearly to its full value over focus-ramp pixels.
 * - `focus=ellipse` (vignette, a portrait's background): sharp within an
 *   ellipse of focus-width x focus-height (fractions of the frame) centred
 *   at (focus-x, focus-y), rotated by focus-angle; the radius grows over
 *   focus-ramp pixels outside it, measured along the ray from the centre.
 * - `radius-map=alpha`: the frame's own alpha (formats with alpha): alpha
 *   0 is radius 0, full alpha is radius-x / radius-y, linear between (a
 *   segmentation mask carried in alpha blurs the background); it takes
 *   precedence over focus. A format without alpha blurs everywhere.
 * - `radius-map=stream`: a second stream of the same size on the request
 *   pad `radius_sink` (GRAY8 or GRAY16_LE: a segmentation mask or a depth
 *   video), scaled as alpha is (0 is radius 0, full scale radius-x /
 *   radius-y), paired with the frames by running time as GstAggregator
 *   pairs its inputs: each frame takes the newest map frame at or before
 *   its time, and with `radius-wait=true` (the default) waits until that
 *   is known (a later map frame, the map frame's duration, or the map
 *   stream's EOS); `radius-wait=false` takes what has arrived. After the
 *   map stream's EOS its last frame stays in use; before the first map
 *   frame, or with no map stream linked, frames get the fixed radius. The
 *   map must have the frame's size (other caps are refused: not
 *   negotiated); its latency is added to the element's.
 *
 * A fractional radius blends the boxes of the radii around it, so a ramp
 * gives a smooth result without bands; integer radii give the fixed box
 * exactly. Per-pixel radii are at most 1024 (larger values are capped).
 * The CUDA and CPU backends agree bit for bit.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudasatblur radius-x=8 radius-y=8 passes=3 ! videoconvert ! autovideosink
 * ]| A Gaussian-like blur of sigma 8.5 at the cost of three boxes.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudasatblur radius-x=200 radius-y=0 ! fakesink
 * ]| A wide horizontal box on 16-bit gray frames.
 * |[
 * gst-launch-1.0 videotestsrc ! cudasatblur radius-x=12 radius-y=12 passes=2 focus=band focus-y=0.6 focus-height=0.15 focus-ramp=150 ! videoconvert ! autovideosink
 * ]| Tilt-shift: a sharp band at 60% of the height, blurring away from it.
 * |[
 * gst-launch-1.0 videotestsrc ! cudasatblur radius-x=20 radius-y=20 focus=ellipse focus-width=0.6 focus-height=0.7 focus-ramp=80 ! videoconvert ! autovideosink
 * ]| A vignette blur around a sharp centre.
 * |[
 * gst-launch-1.0 cudasatblur name=b radius-x=15 radius-y=15 passes=2 radius-map=stream ! videoconvert ! autovideosink \
 *   videotestsrc ! video/x-raw,format=I420,width=640,height=360 ! b.sink \
 *   videotestsrc pattern=ball ! video/x-raw,format=GRAY8,width=640,height=360 ! b.radius_sink
 * ]| Background blur driven by a mask stream (here a moving ball: sharp
 * where the mask is black, blurred by 15 where it is white).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasatblur.h"
#include "gstcfplane.h"
#include "satblur.h"
#include "satvar.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sat_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_sat_blur_debug

#define DEFAULT_RADIUS 3
#define DEFAULT_PASSES 1

enum
{
  PROP_0,
  PROP_RADIUS_X,
  PROP_RADIUS_Y,
  PROP_PASSES,
  PROP_FOCUS,
  PROP_FOCUS_X,
  PROP_FOCUS_Y,
  PROP_FOCUS_WIDTH,
  PROP_FOCUS_HEIGHT,
  PROP_FOCUS_ANGLE,
  PROP_FOCUS_RAMP,
  PROP_RADIUS_MAP,
  PROP_RADIUS_WAIT,
};

typedef enum
{
  FOCUS_NONE,
  FOCUS_BAND,
  FOCUS_ELLIPSE,
} SatBlurFocus;

typedef enum
{
  RADIUS_MAP_NONE,
  RADIUS_MAP_ALPHA,
  RADIUS_MAP_STREAM,
} SatBlurRadiusMap;

typedef struct
{
  gint radius_x;
  gint radius_y;
  gint passes;
  SatBlurFocus focus;
  gdouble focus_x, focus_y;     /* fractions of the frame */
  gdouble focus_width, focus_height;
  gdouble focus_angle;          /* degrees */
  gdouble focus_ramp;           /* pixels */
  SatBlurRadiusMap radius_map;
  gboolean radius_wait;         /* radius-map=stream: wait for its frame */
} SatBlurProps;
/* an enum parameter is stored as an int */
G_STATIC_ASSERT (sizeof (SatBlurFocus) == sizeof (gint));
G_STATIC_ASSERT (sizeof (SatBlurRadiusMap) == sizeof (gint));

#define GST_TYPE_CUDA_SAT_BLUR_FOCUS (gst_cuda_sat_blur_focus_get_type ())
static GType
gst_cuda_sat_blur_focus_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {FOCUS_NONE, "The same radius everywhere", "none"},
    {FOCUS_BAND, "Sharp in a band, blurred away from it (tilt-shift)",
        "band"},
    {FOCUS_ELLIPSE, "Sharp in an ellipse, blurred outside it (vignette)",
        "ellipse"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaSatBlurFocus",
            values));
  return type;
}

#define GST_TYPE_CUDA_SAT_BLUR_RADIUS_MAP \
  (gst_cuda_sat_blur_radius_map_get_type ())
static GType
gst_cuda_sat_blur_radius_map_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {RADIUS_MAP_NONE, "No map (focus decides)", "none"},
    {RADIUS_MAP_ALPHA, "The frame's alpha: 0 sharp, full alpha radius-x/y",
        "alpha"},
    {RADIUS_MAP_STREAM, "A GRAY8 or GRAY16_LE stream of the same size on "
          "the radius_sink pad: 0 sharp, full scale radius-x/y", "stream"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstCudaSatBlurRadiusMap", values));
  return type;
}

struct _GstCudaSatBlur
{
  GstCudaFilter parent;
};

G_DEFINE_TYPE (GstCudaSatBlur, gst_cuda_sat_blur, GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudasatblur, "cudasatblur", GST_RANK_NONE,
    GST_TYPE_CUDA_SAT_BLUR);

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  const SatBlurProps *props = params;
  return props->radius_x == 0 && props->radius_y == 0;
}

/* The filter's parameters on @plane. */
static CfSatBlurParams
to_params (const SatBlurProps * props, const GstCudaFilterPlane * plane)
{
  CfSatBlurParams p = { 0 };

  p.radius_x = gst_cf_plane_radius (props->radius_x, plane->w_sub);
  p.radius_y = gst_cf_plane_radius (props->radius_y, plane->h_sub);
  p.passes = props->passes;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return p;
}

/* The per-pixel radius's parameters on @plane (a view whose origin is
 * plane->x, plane->y): the shape in frame pixels, relative to the view. */
static CfSatVarParams
to_variable (const SatBlurProps * props, const GstCudaFilterPlane * plane)
{
  CfSatBlurParams fixed = to_params (props, plane);
  CfSatVarParams p = { 0 };
  gdouble angle = props->focus_angle * G_PI / 180.0;

  p.radius_x = MIN (fixed.radius_x, CF_SATVAR_MAX_RADIUS);
  p.radius_y = MIN (fixed.radius_y, CF_SATVAR_MAX_RADIUS);
  p.passes = fixed.passes;
  p.border = fixed.border;
  p.channel_mask = fixed.channel_mask;
  if (props->radius_map == RADIUS_MAP_ALPHA)
    p.source = plane->alpha_channel >= 0 ? CF_SATVAR_ALPHA : CF_SATVAR_CONSTANT;
  else if (props->radius_map == RADIUS_MAP_STREAM)
    p.source = CF_SATVAR_MAP;
  else
    p.source = props->focus == FOCUS_BAND ? CF_SATVAR_BAND : CF_SATVAR_ELLIPSE;
  p.alpha_channel = plane->alpha_channel;
  p.x_shift = plane->w_sub;
  p.y_shift = plane->h_sub;
  p.cx = props->focus_x * plane->frame_width - (plane->x << plane->w_sub);
  p.cy = props->focus_y * plane->frame_height - (plane->y << plane->h_sub);
  /* an ellipse of size 0 is a point */
  p.half_w = MAX (props->focus_width * plane->frame_width / 2, 1e-3);
  p.half_h = MAX (props->focus_height * plane->frame_height / 2, 1e-3);
  p.cos_a = cos (angle);
  p.sin_a = sin (angle);
  p.ramp = props->focus_ramp;
  p.map = gst_cuda_filter_plane_side (plane);
  return p;
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  const SatBlurProps *props = params;
  CfSatBlurParams p = to_params (params, plane);
  CfSatVarParams v;

  /* a radius stream without a frame yet (or any more): the fixed radius */
  if ((props->focus == FOCUS_NONE && props->radius_map == RADIUS_MAP_NONE)
      || (props->radius_map == RADIUS_MAP_STREAM && !plane->side.data))
    return cf_satblur (exec, &plane->src, &plane->dst, &p);
  v = to_variable (props, plane);
  return cf_satvar (exec, &plane->src, &plane->dst, &v);
}

static GstCudaFilterSideUse
side_use (GstCudaFilter * filter, gconstpointer params)
{
  const SatBlurProps *props = params;

  if (props->radius_map != RADIUS_MAP_STREAM)
    return GST_CUDA_FILTER_SIDE_NONE;
  return props->radius_wait ? GST_CUDA_FILTER_SIDE_WAIT :
      GST_CUDA_FILTER_SIDE_LATEST;
}

/* Each pass reads a box around the last one's output. */
static void
reach (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, gint * rx, gint * ry)
{
  CfSatBlurParams p = to_params (params, plane);

  *rx = p.radius_x * p.passes;
  *ry = p.radius_y * p.passes;
}

static void
gst_cuda_sat_blur_class_init (GstCudaSatBlurClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS_X,
      G_STRUCT_OFFSET (SatBlurProps, radius_x),
      g_param_spec_int ("radius-x", "Radius X",
          "Horizontal box radius in pixels: the box is 2 x radius-x + 1 wide "
          "(0 with radius-y 0 passes frames through)", 0,
          CF_SATBLUR_MAX_RADIUS, DEFAULT_RADIUS, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS_Y,
      G_STRUCT_OFFSET (SatBlurProps, radius_y),
      g_param_spec_int ("radius-y", "Radius Y",
          "Vertical box radius in pixels: the box is 2 x radius-y + 1 high",
          0, CF_SATBLUR_MAX_RADIUS, DEFAULT_RADIUS, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_PASSES,
      G_STRUCT_OFFSET (SatBlurProps, passes),
      g_param_spec_int ("passes", "Passes",
          "Boxes applied one after the other; 3 approximate a Gaussian of "
          "sigma^2 = passes x ((2 radius + 1)^2 - 1) / 12", 1,
          CF_SATBLUR_MAX_PASSES, DEFAULT_PASSES, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS,
      G_STRUCT_OFFSET (SatBlurProps, focus),
      g_param_spec_enum ("focus", "Focus",
          "A per-pixel radius from a shape: 0 within it, growing to radius-x "
          "/ radius-y over focus-ramp pixels away from it",
          GST_TYPE_CUDA_SAT_BLUR_FOCUS, FOCUS_NONE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS_X,
      G_STRUCT_OFFSET (SatBlurProps, focus_x),
      g_param_spec_double ("focus-x", "Focus x",
          "Centre of the focus shape, as a fraction of the frame width", 0.0,
          1.0, 0.5, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS_Y,
      G_STRUCT_OFFSET (SatBlurProps, focus_y),
      g_param_spec_double ("focus-y", "Focus y",
          "Centre of the focus shape, as a fraction of the frame height", 0.0,
          1.0, 0.5, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS_WIDTH,
      G_STRUCT_OFFSET (SatBlurProps, focus_width),
      g_param_spec_double ("focus-width", "Focus width",
          "Width of the focus ellipse, as a fraction of the frame width", 0.0,
          4.0, 0.5, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS_HEIGHT,
      G_STRUCT_OFFSET (SatBlurProps, focus_height),
      g_param_spec_double ("focus-height", "Focus height",
          "Height of the focus ellipse, or thickness of the band, as a "
          "fraction of the frame height", 0.0, 4.0, 0.2, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS_ANGLE,
      G_STRUCT_OFFSET (SatBlurProps, focus_angle),
      g_param_spec_double ("focus-angle", "Focus angle",
          "Rotation of the focus shape in degrees (band: 0 is horizontal)",
          -360.0, 360.0, 0.0, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_FOCUS_RAMP,
      G_STRUCT_OFFSET (SatBlurProps, focus_ramp),
      g_param_spec_double ("focus-ramp", "Focus ramp",
          "Distance in pixels from the focus shape over which the radius "
          "grows from 0 to radius-x / radius-y (0: a hard edge)", 0.0,
          32767.0, 100.0, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS_MAP,
      G_STRUCT_OFFSET (SatBlurProps, radius_map),
      g_param_spec_enum ("radius-map", "Radius map",
          "A per-pixel radius from the frame's alpha or from a stream on the "
          "radius_sink pad (0: sharp, full scale: radius-x / radius-y); "
          "takes precedence over focus",
          GST_TYPE_CUDA_SAT_BLUR_RADIUS_MAP, RADIUS_MAP_NONE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS_WAIT,
      G_STRUCT_OFFSET (SatBlurProps, radius_wait),
      g_param_spec_boolean ("radius-wait", "Radius wait",
          "radius-map=stream: wait for the radius frame whose time covers "
          "each frame (TRUE), or take the latest that has arrived and never "
          "wait (FALSE; before the first, the fixed radius)", TRUE, flags));

  gst_element_class_set_static_metadata (element_class,
      "CUDA summed-area-table box blur", "Filter/Effect/Video",
      "Box blur of any radius at a constant cost per pixel, 1 to 3 passes "
      "(3 approximate a Gaussian), on an NVIDIA GPU. Example: "
      "gst-launch-1.0 videotestsrc ! cudasatblur radius-x=8 radius-y=8 "
      "passes=3 ! videoconvert ! autovideosink", "cudafilters developers");
  gst_cuda_filter_class_add_pad_templates (element_class);
  gst_cuda_filter_class_add_side_pad (element_class, "radius_sink",
      "{ GRAY8, GRAY16_LE }");

  filter_class->params_size = sizeof (SatBlurProps);
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;
  filter_class->reach = reach;
  filter_class->side_use = side_use;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SAT_BLUR_FOCUS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SAT_BLUR_RADIUS_MAP, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_sat_blur_debug, "cudasatblur", 0,
      "CUDA summed-area-table box blur");
}

static void
gst_cuda_sat_blur_init (GstCudaSatBlur * self)
{
}
