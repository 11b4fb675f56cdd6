/**
 * SECTION:element-cudabilateral
 * @title: cudabilateral
 *
 * Edge-preserving bilateral smoothing on an NVIDIA GPU, for denoising live
 * camera and ultrasound video. Each output pixel is the average of its
 * neighbours within @radius, weighted by a Gaussian of their distance
 * (@sigma-space, in pixels) and a Gaussian of their difference in value
 * (@sigma-range, a fraction of full scale, so 0.1 means the same for 8-bit
 * and 16-bit video): noise smaller than about 2 x sigma-range is averaged
 * away, edges larger than that are kept.
 *
 * @mode=exact computes the full window (a disc of the given radius);
 * @mode=separable approximates it with a horizontal then a vertical 1-D
 * bilateral pass, several times faster at large radii, at a PSNR against
 * the exact filter given in docs/cudabilateral.md. With
 * @color-distance=per-channel each channel is weighted by its own
 * difference; with joint (the default, as OpenCV's bilateralFilter) one
 * weight comes from the Euclidean distance over the plane's colour channels.
 *
 * Every plane is filtered on its own, so the range weight sees only that
 * plane's channels: Y alone for the luma plane of I420, NV12 or Y444, U
 * and V alone (I420) or together (NV12's UV plane) for chroma, R, G, B
 * together for packed RGB, and Y, U, V together for AYUV. Subsampled
 * chroma planes use sigma-space and radius divided by their subsampling.
 * Alpha and padding channels are copied unchanged. sigma-space=0 or
 * sigma-range=0 is the identity: the element then passes buffers through.
 *
 * ## Joint (cross) bilateral: a guide stream
 *
 * A second stream of the same size on the request pad `guide_sink` (GRAY8,
 * GRAY16_LE or any planar format of the frames: a depth camera's colour
 * frames, a depth or normal buffer) gives the range weights instead of the
 * frame itself: edges of the guide are kept, whatever the frame has there.
 * The guide's first plane is read at each plane pixel's co-sited luma
 * pixel; where it has as many channels as the plane it guides each channel
 * by its own (per-channel) or all together (joint), otherwise its first
 * channel weighs all of them. sigma-range is then a fraction of the
 * guide's full scale. A guide equal to the frame gives the plain filter
 * (exact mode, single-plane formats). Guide frames are paired with the
 * frames by running time as GstAggregator pairs its inputs: each frame
 * takes the newest guide frame at or before its time, waiting until that
 * is known (`guide-wait=true`, the default: a later guide frame, the guide
 * frame's duration, or the guide stream's EOS) or taking what has arrived
 * (`guide-wait=false`). After the guide stream's EOS its last frame stays
 * in use; before the first, or without the pad, frames are filtered as
 * without a guide. A guide of another size is refused (not negotiated).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudabilateral sigma-space=3 sigma-range=0.08 ! videoconvert ! autovideosink
 * ]| Denoises a camera.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudabilateral sigma-space=5 radius=10 mode=separable ! fakesink
 * ]| Smooths 16-bit frames with a large window, separably.
 * |[
 * gst-launch-1.0 cudabilateral name=b sigma-space=3 sigma-range=0.05 ! fakesink \
 *   videotestsrc pattern=snow ! video/x-raw,format=GRAY16_LE,width=640,height=480 ! b.sink \
 *   videotestsrc pattern=ball ! video/x-raw,format=GRAY8,width=640,height=480 ! b.guide_sink
 * ]| Smooths a depth-like stream, keeping the edges of a guide stream.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudabilateral.h"
#include "gstcfplane.h"
#include "bilateral.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_bilateral_debug);
#define GST_CAT_DEFAULT gst_cuda_bilateral_debug

#define DEFAULT_SIGMA_SPACE 2.0
#define MAX_SIGMA_SPACE 64.0
#define DEFAULT_SIGMA_RANGE 0.1
#define DEFAULT_RADIUS 0
#define DEFAULT_MODE CF_BILATERAL_EXACT
#define DEFAULT_DISTANCE CF_BILATERAL_JOINT

enum
{
  PROP_0,
  PROP_SIGMA_SPACE,
  PROP_SIGMA_RANGE,
  PROP_RADIUS,
  PROP_MODE,
  PROP_COLOR_DISTANCE,
  PROP_GUIDE_WAIT,
};

typedef struct
{
  gdouble sigma_space;
  gdouble sigma_range;
  gint radius;
  CfBilateralMode mode;
  CfBilateralDistance distance;
  gboolean guide_wait;          /* wait for the guide frame of each frame */
} BilateralProps;
/* enum parameters are stored as ints */
G_STATIC_ASSERT (sizeof (CfBilateralMode) == sizeof (gint));
G_STATIC_ASSERT (sizeof (CfBilateralDistance) == sizeof (gint));

struct _GstCudaBilateral
{
  GstCudaFilter parent;
};

G_DEFINE_TYPE (GstCudaBilateral, gst_cuda_bilateral, GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudabilateral, "cudabilateral", GST_RANK_NONE,
    GST_TYPE_CUDA_BILATERAL);

GType
gst_cuda_bilateral_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CF_BILATERAL_EXACT, "The full window", "exact"},
    {CF_BILATERAL_SEPARABLE, "A horizontal then a vertical 1-D pass "
          "(faster, approximate)", "separable"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaBilateralMode",
            values));
  return type;
}

GType
gst_cuda_bilateral_color_distance_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CF_BILATERAL_PER_CHANNEL, "Each channel weighted by its own difference",
        "per-channel"},
    {CF_BILATERAL_JOINT, "One weight from the Euclidean distance over the "
          "plane's colour channels", "joint"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstCudaBilateralColorDistance", values));
  return type;
}

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  const BilateralProps *props = params;

  return props->sigma_space == 0.0 || props->sigma_range == 0.0;
}

/* The filter's parameters on @plane. */
static CfBilateralParams
to_params (const BilateralProps * props, const GstCudaFilterPlane * plane)
{
  CfBilateralParams p = { 0 };

  gst_cf_plane_axis (props->sigma_space, props->radius, plane->w_sub,
      cf_bilateral_default_radius, &p.sigma_x, &p.radius_x);
  gst_cf_plane_axis (props->sigma_space, props->radius, plane->h_sub,
      cf_bilateral_default_radius, &p.sigma_y, &p.radius_y);
  p.sigma_range = props->sigma_range;
  p.mode = props->mode;
  p.distance = props->distance;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  /* applied by cf_bilateral itself (class: applies_gate) */
  p.gate = plane->gate;
  /* joint bilateral: the range weights from the guide */
  p.guide = gst_cuda_filter_plane_side (plane);
  p.guide_x_shift = plane->w_sub;
  p.guide_y_shift = plane->h_sub;
  return p;
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  CfBilateralParams p = to_params (params, plane);

  return cf_bilateral (exec, &plane->src, &plane->dst, &p);
}

/* A guide is used whenever the guide_sink pad has one. */
static GstCudaFilterSideUse
side_use (GstCudaFilter * filter, gconstpointer params)
{
  const BilateralProps *props = params;

  return props->guide_wait ? GST_CUDA_FILTER_SIDE_WAIT :
      GST_CUDA_FILTER_SIDE_LATEST;
}

/* Both modes read (radius-x, radius-y) around a pixel: the separable one
 * in two passes of one axis each. */
static void
reach (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, gint * rx, gint * ry)
{
  CfBilateralParams p = to_params (params, plane);

  *rx = p.radius_x;
  *ry = p.radius_y;
}

#define LIVE_PARAM (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

static void
gst_cuda_bilateral_class_init (GstCudaBilateralClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);

  gst_cuda_filter_class_install_param (filter_class, PROP_SIGMA_SPACE,
      G_STRUCT_OFFSET (BilateralProps, sigma_space),
      g_param_spec_double ("sigma-space", "Sigma space",
          "Standard deviation of the spatial Gaussian in pixels; 0 passes "
          "frames through", 0.0, MAX_SIGMA_SPACE, DEFAULT_SIGMA_SPACE,
          LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_SIGMA_RANGE,
      G_STRUCT_OFFSET (BilateralProps, sigma_range),
      g_param_spec_double ("sigma-range", "Sigma range",
          "Standard deviation of the range Gaussian as a fraction of full "
          "scale (the same for 8 and 16 bits); 0 passes frames through",
          0.0, 1.0, DEFAULT_SIGMA_RANGE, LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS,
      G_STRUCT_OFFSET (BilateralProps, radius),
      g_param_spec_int ("radius", "Radius",
          "Window radius in pixels (0 = ceil (2 x sigma-space), at most "
          G_STRINGIFY (CF_BILATERAL_MAX_RADIUS) ")", 0,
          CF_BILATERAL_MAX_RADIUS, DEFAULT_RADIUS, LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_MODE,
      G_STRUCT_OFFSET (BilateralProps, mode),
      g_param_spec_enum ("mode", "Mode",
          "Exact window, or the faster separable approximation",
          GST_TYPE_CUDA_BILATERAL_MODE, DEFAULT_MODE, LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_COLOR_DISTANCE,
      G_STRUCT_OFFSET (BilateralProps, distance),
      g_param_spec_enum ("color-distance", "Colour distance",
          "How the range weight of a multi-channel plane is computed",
          GST_TYPE_CUDA_BILATERAL_COLOR_DISTANCE, DEFAULT_DISTANCE,
          LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_GUIDE_WAIT,
      G_STRUCT_OFFSET (BilateralProps, guide_wait),
      g_param_spec_boolean ("guide-wait", "Guide wait",
          "With a guide on guide_sink: wait for the guide frame whose time "
          "covers each frame (TRUE), or take the latest that has arrived and "
          "never wait (FALSE; before the first, no guide)", TRUE, LIVE_PARAM));

  gst_element_class_set_static_metadata (element_class,
      "CUDA bilateral filter", "Filter/Effect/Video",
      "Edge-preserving smoothing (denoising) of video on an NVIDIA GPU. "
      "Example: gst-launch-1.0 videotestsrc ! cudabilateral sigma-space=3 "
      "sigma-range=0.1 ! videoconvert ! autovideosink",
      "cudafilters developers");
  gst_cuda_filter_class_add_pad_templates (element_class);
  gst_cuda_filter_class_add_side_pad (element_class, "guide_sink", NULL);

  filter_class->params_size = sizeof (BilateralProps);
  /* cf_bilateral applies the gate (in the exact kernel: only the pixels in
   * range are filtered) */
  filter_class->applies_gate = TRUE;
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;
  filter_class->reach = reach;
  filter_class->side_use = side_use;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BILATERAL_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BILATERAL_COLOR_DISTANCE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_bilateral_debug, "cudabilateral", 0,
      "CUDA bilateral filter");
}

static void
gst_cuda_bilateral_init (GstCudaBilateral * self)
{
}
