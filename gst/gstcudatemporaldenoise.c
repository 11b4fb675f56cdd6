/**
 * SECTION:element-cudatemporaldenoise
 * @title: cudatemporaldenoise
 *
 * Motion-adaptive temporal noise reduction on an NVIDIA GPU, for live
 * cameras, and fixed-weight persistence for ultrasound. Each output pixel
 * blends the current frame with the previous output, which the element
 * keeps on the GPU: where the scene is still, by @strength (the weight of
 * the past); where the frame differs from the previous output by more than
 * the noise explains (the mean squared difference over a 3 x 3
 * neighbourhood against @noise-level), the weight falls to 0 and the pixel
 * takes a bilateral filter of the current frame instead (@spatial, its
 * range sigma; 0 takes the current frame as it is), so moving things do
 * not leave trails. In YUV formats chroma follows luma: the chroma of a
 * pixel is blended with the weight its luma got. @mode=persistence blends
 * every pixel with the fixed weight @strength, as ultrasound consoles do.
 *
 * @noise-level is the noise's standard deviation in sample units (0 to 255
 * for 8-bit video, to 65535 for 16-bit); 0 (the default) estimates it from
 * each frame on the GPU (Immerkaer's method, docs/cudatemporaldenoise.md),
 * which is not read back: set the level for a known sensor.
 *
 * The first frame, and the first after a flush, a seek, a DISCONT or GAP
 * buffer or a caps change, passes through unfiltered and restarts the
 * history. Frames in flight keep their order: each frame's blend waits for
 * the previous frame's. strength=0 with spatial=0 (or in persistence mode)
 * is the identity: the element then passes buffers through.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudatemporaldenoise strength=0.8 ! videoconvert ! autovideosink
 * ]| Denoises a webcam, the noise level estimated.
 * |[
 * gst-launch-1.0 filesrc location=us.raw ! rawvideoparse format=gray16-le width=640 height=480 framerate=30/1 ! cudatemporaldenoise mode=persistence strength=0.6 ! videoconvert ! autovideosink
 * ]| Persistence on a 16-bit ultrasound stream.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatemporaldenoise.h"
#include "gstcfplane.h"
#include "temporal.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_temporal_denoise_debug);
#define GST_CAT_DEFAULT gst_cuda_temporal_denoise_debug

#define DEFAULT_STRENGTH 0.8
#define DEFAULT_NOISE_LEVEL 0.0
#define DEFAULT_MODE CF_TEMPORAL_ADAPTIVE
#define DEFAULT_SPATIAL 0.1

enum
{
  PROP_0,
  PROP_STRENGTH,
  PROP_NOISE_LEVEL,
  PROP_MODE,
  PROP_SPATIAL,
};

typedef struct
{
  gdouble strength;
  gdouble noise_level;
  CfTemporalMode mode;
  gdouble spatial;
} TemporalProps;
/* enum parameters are stored as ints */
G_STATIC_ASSERT (sizeof (CfTemporalMode) == sizeof (gint));

struct _GstCudaTemporalDenoise
{
  GstCudaFilter parent;
};

G_DEFINE_TYPE (GstCudaTemporalDenoise, gst_cuda_temporal_denoise,
    GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudatemporaldenoise, "cudatemporaldenoise",
    GST_RANK_NONE, GST_TYPE_CUDA_TEMPORAL_DENOISE);

GType
gst_cuda_temporal_denoise_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CF_TEMPORAL_ADAPTIVE, "The weight of the past falls where the picture "
          "moves", "adaptive"},
    {CF_TEMPORAL_PERSISTENCE, "A fixed recursive weight, no motion test "
          "(ultrasound persistence)", "persistence"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstCudaTemporalDenoiseMode", values));
  return type;
}

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  const TemporalProps *props = params;

  return props->strength == 0.0 && (props->spatial == 0.0
      || props->mode == CF_TEMPORAL_PERSISTENCE);
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  const TemporalProps *props = params;
  CfTemporalParams p = { 0 };
  guint luma = plane->channel_mask & ~plane->chroma_mask;

  p.mode = props->mode;
  p.strength = props->strength;
  p.noise = props->noise_level;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  /* a chroma plane takes its weights from plane 0's; a plane with luma
   * (or no YUV at all) measures on luma, or on all its colour channels */
  p.motion_mask = luma ? luma : plane->channel_mask;
  p.frame = plane->history_frame;
  if (plane->map.data && !luma) {
    p.map_use = CF_TEMPORAL_MAP_READ;
    p.map_w_sub = plane->w_sub;
    p.map_h_sub = plane->h_sub;
  } else if (plane->map.data) {
    p.map_use = CF_TEMPORAL_MAP_WRITE;
  }
  if (props->spatial > 0.0) {
    gst_cf_plane_axis (CF_TEMPORAL_SPATIAL_SIGMA, 0, plane->w_sub,
        cf_bilateral_default_radius, &p.spatial.sigma_x, &p.spatial.radius_x);
    gst_cf_plane_axis (CF_TEMPORAL_SPATIAL_SIGMA, 0, plane->h_sub,
        cf_bilateral_default_radius, &p.spatial.sigma_y, &p.spatial.radius_y);
    p.spatial.sigma_range = props->spatial;
    p.spatial.mode = CF_BILATERAL_EXACT;
    p.spatial.distance = CF_BILATERAL_JOINT;
    p.spatial.border = plane->border;
    p.spatial.channel_mask = plane->channel_mask;
  }
  return cf_temporal (exec, &plane->src, &plane->prev, &plane->dst,
      &plane->map, &p);
}

#define LIVE_PARAM (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

static void
gst_cuda_temporal_denoise_class_init (GstCudaTemporalDenoiseClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);

  gst_cuda_filter_class_install_param (filter_class, PROP_STRENGTH,
      G_STRUCT_OFFSET (TemporalProps, strength),
      g_param_spec_double ("strength", "Strength",
          "Weight of the previous output where the picture is still (0..1; "
          "higher: less noise, slower to settle)", 0.0, 1.0,
          DEFAULT_STRENGTH, LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_NOISE_LEVEL,
      G_STRUCT_OFFSET (TemporalProps, noise_level),
      g_param_spec_double ("noise-level", "Noise level",
          "Standard deviation of the noise in sample units (255 or 65535 "
          "full scale); 0 estimates it from every frame on the GPU (not "
          "read back)", 0.0, 65535.0, DEFAULT_NOISE_LEVEL, LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_MODE,
      G_STRUCT_OFFSET (TemporalProps, mode),
      g_param_spec_enum ("mode", "Mode",
          "Motion-adaptive, or a fixed weight (persistence)",
          GST_TYPE_CUDA_TEMPORAL_DENOISE_MODE, DEFAULT_MODE, LIVE_PARAM));
  gst_cuda_filter_class_install_param (filter_class, PROP_SPATIAL,
      G_STRUCT_OFFSET (TemporalProps, spatial),
      g_param_spec_double ("spatial", "Spatial",
          "Range sigma (fraction of full scale, as cudabilateral's "
          "sigma-range) of the bilateral pass that moving pixels get in "
          "adaptive mode; 0: none", 0.0, 1.0, DEFAULT_SPATIAL, LIVE_PARAM));

  gst_element_class_set_static_metadata (element_class,
      "CUDA temporal denoiser", "Filter/Effect/Video",
      "Motion-adaptive recursive noise reduction, or fixed-weight "
      "persistence, of video on an NVIDIA GPU. Example: gst-launch-1.0 "
      "v4l2src ! videoconvert ! cudatemporaldenoise ! videoconvert ! "
      "autovideosink", "cudafilters developers");
  filter_class->stateful = TRUE;
  gst_cuda_filter_class_add_pad_templates (element_class);

  filter_class->params_size = sizeof (TemporalProps);
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_TEMPORAL_DENOISE_MODE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_temporal_denoise_debug,
      "cudatemporaldenoise", 0, "CUDA temporal denoiser");
}

static void
gst_cuda_temporal_denoise_init (GstCudaTemporalDenoise * self)
{
}
