/**
 * SECTION:element-cudagaussianblur
 * @title: cudagaussianblur
 *
 * Gaussian blur on an NVIDIA GPU: a separable filter whose rows and columns
 * are both computed in one pass over the frame through shared memory. A
 * negative sigma sharpens instead (unsharp mask: 2 x input - blur).
 *
 * Every plane is filtered on its own; subsampled chroma planes use sigma
 * and radius divided by their subsampling, and alpha is left untouched.
 * Without a CUDA device the element runs its plain-C reference (backend=auto,
 * with a warning) or fails (backend=cuda).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudagaussianblur sigma=3 ! videoconvert ! autovideosink
 * ]| Blurs the test pattern.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudagaussianblur sigma=-1.5 ! fakesink
 * ]| Sharpens 16-bit gray frames.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudagaussianblur.h"
#include "gstcfplane.h"
#include "gaussian.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_gaussian_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_gaussian_blur_debug

#define DEFAULT_SIGMA 1.2
#define MAX_SIGMA 40.0
#define DEFAULT_RADIUS 0

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_RADIUS,
};

typedef struct
{
  gdouble sigma;
  gint radius;
} GaussianProps;

struct _GstCudaGaussianBlur
{
  GstCudaFilter parent;
};

G_DEFINE_TYPE (GstCudaGaussianBlur, gst_cuda_gaussian_blur,
    GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudagaussianblur, "cudagaussianblur",
    GST_RANK_NONE, GST_TYPE_CUDA_GAUSSIAN_BLUR);

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  return ((const GaussianProps *) params)->sigma == 0.0;
}

/* The filter's parameters on @plane. */
static CfGaussianParams
to_params (const GaussianProps * props, const GstCudaFilterPlane * plane)
{
  CfGaussianParams p = { 0 };

  gst_cf_plane_axis (fabs (props->sigma), props->radius, plane->w_sub,
      cf_gaussian_default_radius, &p.sigma_x, &p.radius_x);
  gst_cf_plane_axis (fabs (props->sigma), props->radius, plane->h_sub,
      cf_gaussian_default_radius, &p.sigma_y, &p.radius_y);
  p.sharpen = props->sigma < 0.0;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return p;
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  CfGaussianParams p = to_params (params, plane);

  return cf_gaussian_blur (exec, &plane->src, &plane->dst, &p);
}

static void
reach (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, gint * rx, gint * ry)
{
  CfGaussianParams p = to_params (params, plane);

  *rx = p.radius_x;
  *ry = p.radius_y;
}

static void
gst_cuda_gaussian_blur_class_init (GstCudaGaussianBlurClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);

  gst_cuda_filter_class_install_param (filter_class, PROP_SIGMA,
      G_STRUCT_OFFSET (GaussianProps, sigma),
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels; negative sharpens "
          "(2 x input - blur), 0 passes frames through",
          -MAX_SIGMA, MAX_SIGMA, DEFAULT_SIGMA,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS,
      G_STRUCT_OFFSET (GaussianProps, radius),
      g_param_spec_int ("radius", "Radius",
          "Kernel radius in pixels (0 = ceil (3 x |sigma|), at most "
          G_STRINGIFY (CF_GAUSSIAN_MAX_RADIUS) ")", 0, CF_GAUSSIAN_MAX_RADIUS,
          DEFAULT_RADIUS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Gaussian blur", "Filter/Effect/Video",
      "Blurs (or, with a negative sigma, sharpens) video on an NVIDIA GPU. "
      "Example: gst-launch-1.0 videotestsrc ! cudagaussianblur sigma=3 ! "
      "videoconvert ! autovideosink", "cudafilters developers");
  gst_cuda_filter_class_add_pad_templates (element_class);

  filter_class->params_size = sizeof (GaussianProps);
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;
  filter_class->reach = reach;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_gaussian_blur_debug, "cudagaussianblur",
      0, "CUDA Gaussian blur");
}

static void
gst_cuda_gaussian_blur_init (GstCudaGaussianBlur * self)
{
}
