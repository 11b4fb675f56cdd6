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
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudasatblur radius-x=8 radius-y=8 passes=3 ! videoconvert ! autovideosink
 * ]| A Gaussian-like blur of sigma 8.5 at the cost of three boxes.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudasatblur radius-x=200 radius-y=0 ! fakesink
 * ]| A wide horizontal box on 16-bit gray frames.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasatblur.h"
#include "gstcfplane.h"
#include "satblur.h"

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
};

typedef struct
{
  gint radius_x;
  gint radius_y;
  gint passes;
} SatBlurProps;

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

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  CfSatBlurParams p = to_params (params, plane);

  return cf_satblur (exec, &plane->src, &plane->dst, &p);
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

  gst_element_class_set_static_metadata (element_class,
      "CUDA summed-area-table box blur", "Filter/Effect/Video",
      "Box blur of any radius at a constant cost per pixel, 1 to 3 passes "
      "(3 approximate a Gaussian), on an NVIDIA GPU. Example: "
      "gst-launch-1.0 videotestsrc ! cudasatblur radius-x=8 radius-y=8 "
      "passes=3 ! videoconvert ! autovideosink", "cudafilters developers");
  gst_cuda_filter_class_add_pad_templates (element_class);

  filter_class->params_size = sizeof (SatBlurProps);
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;
  filter_class->reach = reach;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_sat_blur_debug, "cudasatblur", 0,
      "CUDA summed-area-table box blur");
}

static void
gst_cuda_sat_blur_init (GstCudaSatBlur * self)
{
}
