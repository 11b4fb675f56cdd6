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
  GaussianProps props;          /* under the object lock */
};

G_DEFINE_TYPE (GstCudaGaussianBlur, gst_cuda_gaussian_blur,
    GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudagaussianblur, "cudagaussianblur",
    GST_RANK_NONE, GST_TYPE_CUDA_GAUSSIAN_BLUR);

static void
snapshot (GstCudaFilter * filter, gpointer params)
{
  *(GaussianProps *) params = GST_CUDA_GAUSSIAN_BLUR (filter)->props;
}

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  return ((const GaussianProps *) params)->sigma == 0.0;
}

/* Sigma and radius in the pixels of a plane subsampled by 2^sub. */
static void
scale_axis (const GaussianProps * props, guint sub, double *sigma, int *radius)
{
  *sigma = fabs (props->sigma) / (1 << sub);
  if (props->radius > 0)
    *radius = (props->radius + (1 << sub) - 1) >> sub;
  else
    *radius = cf_gaussian_default_radius (*sigma);
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  const GaussianProps *props = params;
  CfGaussianParams p = { 0 };

  scale_axis (props, plane->w_sub, &p.sigma_x, &p.radius_x);
  scale_axis (props, plane->h_sub, &p.sigma_y, &p.radius_y);
  p.sharpen = props->sigma < 0.0;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  return cf_gaussian_blur (exec, &plane->src, &plane->dst, &p);
}

static void
gst_cuda_gaussian_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaGaussianBlur *self = GST_CUDA_GAUSSIAN_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      self->props.sigma = g_value_get_double (value);
      break;
    case PROP_RADIUS:
      self->props.radius = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_gaussian_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaGaussianBlur *self = GST_CUDA_GAUSSIAN_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, self->props.sigma);
      break;
    case PROP_RADIUS:
      g_value_set_int (value, self->props.radius);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_gaussian_blur_class_init (GstCudaGaussianBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_gaussian_blur_set_property;
  gobject_class->get_property = gst_cuda_gaussian_blur_get_property;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels; negative sharpens "
          "(2 x input - blur), 0 passes frames through",
          -MAX_SIGMA, MAX_SIGMA, DEFAULT_SIGMA,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RADIUS,
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
  filter_class->snapshot = snapshot;
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_gaussian_blur_debug, "cudagaussianblur",
      0, "CUDA Gaussian blur");
}

static void
gst_cuda_gaussian_blur_init (GstCudaGaussianBlur * self)
{
  self->props.sigma = DEFAULT_SIGMA;
  self->props.radius = DEFAULT_RADIUS;
}
