/**
 * SECTION:element-cudagaussianblur
 * @title: cudagaussianblur
 *
 * Gaussian blur on an NVIDIA GPU: a separable filter whose rows and columns
 * are both computed in one pass over the frame through shared memory, or,
 * for large sigmas, sliding cosine sums whose cost does not grow with sigma
 * (chosen automatically; both within 1 LSB of the truncated Gaussian).
 * sigma-x and sigma-y blur the axes differently; sigma sets both. A
 * negative sigma sharpens instead (unsharp mask: input + amount x
 * (input - blur), where the difference reaches threshold).
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
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudagaussianblur sigma=-1.5 amount=0.7 threshold=0.01 ! fakesink
 * ]| Sharpens 16-bit gray frames, leaving differences under 1% alone.
 * |[
 * gst-launch-1.0 videotestsrc ! cudagaussianblur sigma-x=30 sigma-y=2 ! videoconvert ! autovideosink
 * ]| Blurs along the rows much more than along the columns.
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
#define MAX_SIGMA 100.0
#define DEFAULT_RADIUS 0
#define DEFAULT_AMOUNT 1.0
#define MAX_AMOUNT 10.0
#define DEFAULT_THRESHOLD 0.0

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_RADIUS,
  PROP_SIGMA_X,
  PROP_SIGMA_Y,
  PROP_AMOUNT,
  PROP_THRESHOLD,
};

typedef struct
{
  gdouble sigma;                /* its sign: blur or sharpen */
  gint radius;
  gdouble sigma_x, sigma_y;     /* >= 0; 0: that axis is left alone */
  gdouble amount, threshold;
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
  const GaussianProps *props = params;
  return (props->sigma_x == 0.0 && props->sigma_y == 0.0)
      || (props->sigma < 0.0 && props->amount == 0.0);
}

/* One axis of a plane: no blur where its sigma is 0. */
static void
plane_axis (gdouble sigma, gint radius, guint sub, double *sigma_out,
    int *radius_out)
{
  gst_cf_plane_axis (sigma, radius, sub, cf_gaussian_default_radius,
      sigma_out, radius_out);
  if (sigma == 0.0)
    *radius_out = 0;
}

/* The filter's parameters on @plane. */
static CfGaussianParams
to_params (const GaussianProps * props, const GstCudaFilterPlane * plane)
{
  CfGaussianParams p = { 0 };

  plane_axis (props->sigma_x, props->radius, plane->w_sub, &p.sigma_x,
      &p.radius_x);
  plane_axis (props->sigma_y, props->radius, plane->h_sub, &p.sigma_y,
      &p.radius_y);
  p.sharpen = props->sigma < 0.0 ? props->amount : 0.0;
  p.threshold = props->threshold;
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

/* The base class stores the parameters; sigma sets sigma-x and sigma-y to
 * its magnitude too. */
static void
gst_cuda_gaussian_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GObjectClass *parent = G_OBJECT_CLASS (gst_cuda_gaussian_blur_parent_class);

  parent->set_property (object, prop_id, value, pspec);
  if (prop_id == PROP_SIGMA) {
    GObjectClass *klass = G_OBJECT_GET_CLASS (object);
    GValue mag = G_VALUE_INIT;

    g_value_init (&mag, G_TYPE_DOUBLE);
    g_value_set_double (&mag, fabs (g_value_get_double (value)));
    parent->set_property (object, PROP_SIGMA_X, &mag,
        g_object_class_find_property (klass, "sigma-x"));
    parent->set_property (object, PROP_SIGMA_Y, &mag,
        g_object_class_find_property (klass, "sigma-y"));
    g_object_notify (object, "sigma-x");
    g_object_notify (object, "sigma-y");
  }
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
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_gaussian_blur_set_property;

  gst_cuda_filter_class_install_param (filter_class, PROP_SIGMA,
      G_STRUCT_OFFSET (GaussianProps, sigma),
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels: sets sigma-x and "
          "sigma-y to its magnitude; negative sharpens (unsharp mask, see "
          "amount and threshold), 0 passes frames through",
          -MAX_SIGMA, MAX_SIGMA, DEFAULT_SIGMA, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_SIGMA_X,
      G_STRUCT_OFFSET (GaussianProps, sigma_x),
      g_param_spec_double ("sigma-x", "Sigma X",
          "Standard deviation along the rows in pixels (0: no blur across); "
          "sigma sets it too", 0.0, MAX_SIGMA, DEFAULT_SIGMA, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_SIGMA_Y,
      G_STRUCT_OFFSET (GaussianProps, sigma_y),
      g_param_spec_double ("sigma-y", "Sigma Y",
          "Standard deviation along the columns in pixels (0: no blur "
          "down); sigma sets it too", 0.0, MAX_SIGMA, DEFAULT_SIGMA, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_RADIUS,
      G_STRUCT_OFFSET (GaussianProps, radius),
      g_param_spec_int ("radius", "Radius",
          "Kernel radius in pixels on both axes (0 = ceil (3 x sigma) per "
          "axis, at most " G_STRINGIFY (CF_GAUSSIAN_MAX_RADIUS) ")", 0,
          CF_GAUSSIAN_MAX_RADIUS, DEFAULT_RADIUS, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_AMOUNT,
      G_STRUCT_OFFSET (GaussianProps, amount),
      g_param_spec_double ("amount", "Amount",
          "Negative sigma: how much of the detail (input - blur) is added "
          "back; 1: 2 x input - blur, 0 passes frames through", 0.0,
          MAX_AMOUNT, DEFAULT_AMOUNT, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_THRESHOLD,
      G_STRUCT_OFFSET (GaussianProps, threshold),
      g_param_spec_double ("threshold", "Threshold",
          "Negative sigma: samples whose detail is smaller than this "
          "(fraction of full scale) are left alone, so noise is not "
          "sharpened", 0.0, 1.0, DEFAULT_THRESHOLD, flags));

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
