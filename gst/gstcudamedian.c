/**
 * SECTION:element-cudamedian
 * @title: cudamedian
 *
 * Median filter on an NVIDIA GPU, for salt-and-pepper and impulse noise.
 * With mode=exact every output is the median of its whole width x height
 * window (size sets both: a square), bit for bit what sorting the window
 * gives; mode=separable is the
 * faster "smoother" of large windows: the median of the column medians.
 * iterations repeats the filter (two 3x3 passes clean denser noise than one
 * while keeping more detail than one 5x5).
 *
 * Every plane and channel is filtered on its own; alpha is left untouched.
 * Subsampled chroma planes use a window radius divided by their subsampling,
 * rounded up (size 5 filters I420 chroma with 3x3 windows). luma-only leaves
 * the chroma of YUV formats unchanged, as videomedian's lum-only does.
 * Non-square windows suit anisotropic data (ultrasound speckle: longer
 * along the beam than across it); a 1xN or Nx1 window is a 1-D median.
 * A 1x1 window passes frames through. Without a CUDA device the element runs its
 * plain-C reference (backend=auto, with a warning) or fails (backend=cuda).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudamedian size=5 ! videoconvert ! autovideosink
 * ]| Filters the test pattern with 5x5 medians.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudamedian size=3 iterations=2 ! fakesink
 * ]| Two 3x3 passes over 16-bit gray frames.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420 ! cudamedian size=61 mode=separable luma-only=true ! videoconvert ! autovideosink
 * ]| A background estimate of the luma with the separable smoother.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY16_LE ! cudamedian width=3 height=9 ! fakesink
 * ]| Speckle reduction on 16-bit ultrasound-like lines: 3 wide, 9 along them.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamedian.h"
#include "gstcfplane.h"
#include "median.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_median_debug);
#define GST_CAT_DEFAULT gst_cuda_median_debug

#define MAX_SIZE (2 * CF_MEDIAN_MAX_RADIUS + 1)
#define DEFAULT_SIZE 3
#define DEFAULT_MODE CF_MEDIAN_EXACT
#define DEFAULT_ITERATIONS 1
#define DEFAULT_LUMA_ONLY FALSE

enum
{
  PROP_0,
  PROP_SIZE,
  PROP_MODE,
  PROP_ITERATIONS,
  PROP_LUMA_ONLY,
  PROP_WIDTH,
  PROP_HEIGHT,
};

typedef struct
{
  gint size;                    /* odd: the last square window set */
  gint width;                   /* odd: the window */
  gint height;
  CfMedianMode mode;
  gint iterations;
  gboolean luma_only;
} MedianProps;
/* an enum parameter is stored as an int */
G_STATIC_ASSERT (sizeof (CfMedianMode) == sizeof (gint));

struct _GstCudaMedian
{
  GstCudaFilter parent;
};

#define GST_TYPE_CUDA_MEDIAN_MODE (gst_cuda_median_mode_get_type ())
static GType
gst_cuda_median_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CF_MEDIAN_EXACT, "The median of the whole window", "exact"},
    {CF_MEDIAN_SEPARABLE, "The median of the column medians (approximate, "
          "faster for large windows)", "separable"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaMedianMode",
            values));
  return type;
}

G_DEFINE_TYPE (GstCudaMedian, gst_cuda_median, GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudamedian, "cudamedian", GST_RANK_NONE,
    GST_TYPE_CUDA_MEDIAN);

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  const MedianProps *props = params;

  return props->width <= 1 && props->height <= 1;
}

/* The filter's parameters on @plane. */
static CfMedianParams
to_params (const MedianProps * props, const GstCudaFilterPlane * plane)
{
  CfMedianParams p = { 0 };

  p.radius_x = gst_cf_plane_radius (props->width / 2, plane->w_sub);
  p.radius_y = gst_cf_plane_radius (props->height / 2, plane->h_sub);
  p.mode = props->mode;
  p.iterations = props->iterations;
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  if (props->luma_only)
    p.channel_mask &= ~plane->chroma_mask;
  p.kernel = CF_MEDIAN_KERNEL_AUTO;
  p.gate = plane->gate;
  return p;
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  CfMedianParams p = to_params (params, plane);

  return cf_median (exec, &plane->src, &plane->dst, &p);
}

/* Each iteration reads a window around the last one's output. */
static void
reach (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, gint * rx, gint * ry)
{
  CfMedianParams p = to_params (params, plane);

  *rx = p.radius_x * p.iterations;
  *ry = p.radius_y * p.iterations;
}

/* Windows are centred: an even size, width or height means the next odd
 * one. The base class stores the parameters; this only rounds them on
 * their way there, and has size set width and height too. */
static void
gst_cuda_median_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GObjectClass *parent = G_OBJECT_CLASS (gst_cuda_median_parent_class);
  GValue odd = G_VALUE_INIT;

  if (prop_id == PROP_SIZE || prop_id == PROP_WIDTH || prop_id == PROP_HEIGHT) {
    g_value_init (&odd, G_TYPE_INT);
    g_value_set_int (&odd, g_value_get_int (value) | 1);
    value = &odd;
  }
  parent->set_property (object, prop_id, value, pspec);
  if (prop_id == PROP_SIZE) {
    GObjectClass *klass = G_OBJECT_GET_CLASS (object);

    parent->set_property (object, PROP_WIDTH, value,
        g_object_class_find_property (klass, "width"));
    parent->set_property (object, PROP_HEIGHT, value,
        g_object_class_find_property (klass, "height"));
    g_object_notify (object, "width");
    g_object_notify (object, "height");
  }
}

static void
gst_cuda_median_class_init (GstCudaMedianClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_median_set_property;

  gst_cuda_filter_class_install_param (filter_class, PROP_SIZE,
      G_STRUCT_OFFSET (MedianProps, size),
      g_param_spec_int ("size", "Size",
          "Square window: sets width and height (odd: an even value is "
          "rounded up to the next odd one); 1 passes frames through", 1,
          MAX_SIZE, DEFAULT_SIZE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_WIDTH,
      G_STRUCT_OFFSET (MedianProps, width),
      g_param_spec_int ("width", "Width",
          "Window width in pixels (odd: an even value is rounded up); "
          "size sets it too", 1, MAX_SIZE, DEFAULT_SIZE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_HEIGHT,
      G_STRUCT_OFFSET (MedianProps, height),
      g_param_spec_int ("height", "Height",
          "Window height in pixels (odd: an even value is rounded up); "
          "size sets it too", 1, MAX_SIZE, DEFAULT_SIZE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_MODE,
      G_STRUCT_OFFSET (MedianProps, mode),
      g_param_spec_enum ("mode", "Mode",
          "Exact median, or the separable approximation (median of the "
          "column medians)", GST_TYPE_CUDA_MEDIAN_MODE, DEFAULT_MODE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_ITERATIONS,
      G_STRUCT_OFFSET (MedianProps, iterations),
      g_param_spec_int ("iterations", "Iterations",
          "Times the filter is applied to each frame", 1,
          CF_MEDIAN_MAX_ITERATIONS, DEFAULT_ITERATIONS, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_LUMA_ONLY,
      G_STRUCT_OFFSET (MedianProps, luma_only),
      g_param_spec_boolean ("luma-only", "Luma only",
          "Filter only the luma of YUV formats, copy their chroma",
          DEFAULT_LUMA_ONLY, flags));

  gst_element_class_set_static_metadata (element_class,
      "CUDA median", "Filter/Effect/Video",
      "Median filter (exact up to 121x121, any odd width and height, or "
      "separable) on an NVIDIA GPU, "
      "for impulse noise. Example: gst-launch-1.0 videotestsrc ! "
      "cudamedian size=5 ! videoconvert ! autovideosink",
      "cudafilters developers");
  gst_cuda_filter_class_add_pad_templates (element_class);

  filter_class->params_size = sizeof (MedianProps);
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;
  filter_class->reach = reach;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MEDIAN_MODE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_median_debug, "cudamedian", 0,
      "CUDA median");
}

static void
gst_cuda_median_init (GstCudaMedian * self)
{
}
