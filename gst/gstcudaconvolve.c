/**
 * SECTION:element-cudaconvolve
 * @title: cudaconvolve
 *
 * General 2-D convolution on an NVIDIA GPU: a kernel of your own (odd
 * sides up to 31 x 31, square or rectangular, or separable as a row and a
 * column), or a preset: sharpen, laplacian (alias edge), sobel-x, sobel-y,
 * emboss, box.
 *
 * Taps are applied as a correlation, as OpenCV's filter2D and image
 * editors apply them: the first tap multiplies the top-left neighbour (a
 * true convolution would flip the kernel). Each filtered sample is
 * |sum (tap x input) / divisor + offset| (the absolute value only with
 * absolute=true), rounded and clamped to the format's range. divisor=0
 * means the sum of the taps, or 1 where they sum to 0; offset is in units
 * of full scale (0.5 is 128 at 8 bits, 32768 at 16).
 *
 * kernel lists the taps row by row; it is square unless kernel-width (set
 * it before kernel) says how many taps a row has. kernel-x and kernel-y
 * give a separable kernel instead (either alone is a single row or
 * column). A full kernel of rank 1 (a Gaussian, a box, Sobel) runs as two
 * separable passes by itself. Setting a preset sets kernel, divisor,
 * offset, absolute and luma-only to the preset's values (all readable);
 * properties set after it change them. Even sides, empty arrays, tap
 * counts that are not whole rows, and more than 31 taps a side are
 * refused with a warning and the kernel stays as it was.
 *
 * Every plane is filtered on its own with the same kernel (it is not
 * scaled for subsampled chroma); alpha is left untouched; luma-only leaves
 * the chroma of YUV formats as it came. The presets sharpen, laplacian and
 * sobel set luma-only (sharpened or differentiated chroma gives colour
 * fringes); emboss and box filter every plane (emboss with offset 0.5
 * turns flat chroma grey, the usual relief look). For a grey edge map,
 * convert to GRAY8 first. The default kernel, <1>, passes frames through.
 * Without a CUDA device the element runs its plain-C reference
 * (backend=auto, with a warning) or fails (backend=cuda).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudaconvolve kernel="<1, 2, 1, 2, 4, 2, 1, 2, 1>" ! videoconvert ! autovideosink
 * ]| A 3x3 binomial blur (divided by the sum of its taps, 16).
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8 ! cudaconvolve preset=sobel-x ! videoconvert ! autovideosink
 * ]| Vertical edges, as |d/dx|.
 * |[
 * gst-launch-1.0 videotestsrc ! cudaconvolve kernel-width=5 kernel="<1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>" ! videoconvert ! autovideosink
 * ]| A 5x3 box.
 * |[
 * gst-launch-1.0 videotestsrc ! cudaconvolve preset=emboss ! videoconvert ! autovideosink
 * ]| Seed 003's emboss, offset by half the range.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvolve.h"
#include "convolve.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_convolve_debug);
#define GST_CAT_DEFAULT gst_cuda_convolve_debug

#define MAX_SIDE CF_CONVOLVE_MAX_SIDE
#define MAX_DIVISOR 1e9
#define MAX_OFFSET 1.0

typedef enum
{
  PRESET_NONE,
  PRESET_SHARPEN,
  PRESET_LAPLACIAN,
  PRESET_SOBEL_X,
  PRESET_SOBEL_Y,
  PRESET_EMBOSS,
  PRESET_BOX,
} Preset;

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_KERNEL_WIDTH,
  PROP_KERNEL_X,
  PROP_KERNEL_Y,
  PROP_DIVISOR,
  PROP_OFFSET,
  PROP_PRESET,
  PROP_ABSOLUTE,
  PROP_LUMA_ONLY,
};

typedef struct
{
  Preset preset;
  gint kernel_width;            /* how the next kernel is read; 0 = square */
  gdouble divisor;
  gdouble offset;
  gboolean absolute;
  gboolean luma_only;
  /* The kernel: written by the array properties and presets, under
   * gst_cuda_filter_lock_params (). */
  gint width, height;
  gboolean separable;
  gint n_x, n_y;                /* separable: taps given as kernel-x, -y */
  gfloat taps[CF_CONVOLVE_MAX_TAPS];    /* !separable */
  gfloat row[MAX_SIDE], col[MAX_SIDE];  /* separable */
} ConvolveProps;
G_STATIC_ASSERT (sizeof (Preset) == sizeof (gint));

/* What a preset sets: 3x3 taps, divisor (0: their sum, or 1), offset,
 * absolute, luma-only. */
typedef struct
{
  gfloat taps[9];
  gdouble offset;
  gboolean absolute, luma_only;
} PresetValues;

static const PresetValues presets[] = {
  [PRESET_SHARPEN] = {{0, -1, 0, -1, 5, -1, 0, -1, 0}, 0, FALSE, TRUE},
  [PRESET_LAPLACIAN] = {{-1, -1, -1, -1, 8, -1, -1, -1, -1}, 0, TRUE, TRUE},
  [PRESET_SOBEL_X] = {{-1, 0, 1, -2, 0, 2, -1, 0, 1}, 0, TRUE, TRUE},
  [PRESET_SOBEL_Y] = {{-1, -2, -1, 0, 0, 0, 1, 2, 1}, 0, TRUE, TRUE},
  [PRESET_EMBOSS] = {{2, 0, 0, 0, -1, 0, 0, 0, -1}, 0.5, FALSE, FALSE},
  [PRESET_BOX] = {{1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, FALSE, FALSE},
};

struct _GstCudaConvolve
{
  GstCudaFilter parent;
};

#define GST_TYPE_CUDA_CONVOLVE_PRESET (gst_cuda_convolve_preset_get_type ())
static GType
gst_cuda_convolve_preset_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {PRESET_NONE, "The kernel as given", "none"},
    {PRESET_SHARPEN, "Sharpen: 5 at the centre, -1 at its 4 neighbours",
        "sharpen"},
    {PRESET_LAPLACIAN, "Edges: |Laplacian|, 8 at the centre, -1 around",
        "laplacian"},
    {PRESET_LAPLACIAN, "Edges (the same as laplacian)", "edge"},
    {PRESET_SOBEL_X, "|d/dx| by Sobel (vertical edges)", "sobel-x"},
    {PRESET_SOBEL_Y, "|d/dy| by Sobel (horizontal edges)", "sobel-y"},
    {PRESET_EMBOSS, "Emboss (2, -1, -1 on the diagonal) + 0.5", "emboss"},
    {PRESET_BOX, "3x3 box blur", "box"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaConvolvePreset",
            values));
  return type;
}

G_DEFINE_TYPE (GstCudaConvolve, gst_cuda_convolve, GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaconvolve, "cudaconvolve", GST_RANK_NONE,
    GST_TYPE_CUDA_CONVOLVE);

/* The filter's parameters for the kernel, divisor, offset and absolute. */
static void
to_params (const ConvolveProps * props, CfConvolveParams * p)
{
  memset (p, 0, sizeof *p);
  p->width = props->width;
  p->height = props->height;
  p->separable = props->separable;
  memcpy (p->taps, props->taps, sizeof p->taps);
  memcpy (p->row, props->row, sizeof p->row);
  memcpy (p->col, props->col, sizeof p->col);
  p->divisor = props->divisor;
  p->offset = props->offset;
  p->absolute = props->absolute;
}

static gboolean
is_identity (GstCudaFilter * filter, gconstpointer params)
{
  CfConvolveParams p;

  to_params (params, &p);
  return cf_convolve_is_identity (&p);
}

static CfStatus
filter_plane (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, const CfExec * exec)
{
  const ConvolveProps *props = params;
  CfConvolveParams p;

  to_params (props, &p);
  p.border = plane->border;
  p.channel_mask = plane->channel_mask;
  if (props->luma_only)
    p.channel_mask &= ~plane->chroma_mask;
  return cf_convolve (exec, &plane->src, &plane->dst, &p);
}

/* The kernel's half sides, the same on every plane. */
static void
reach (GstCudaFilter * filter, gconstpointer params,
    const GstCudaFilterPlane * plane, gint * rx, gint * ry)
{
  const ConvolveProps *props = params;

  *rx = props->width / 2;
  *ry = props->height / 2;
}

/* Reads the floats of a GstValueArray (ints and doubles converted) into
 * taps[max]; returns how many, or -1 (with a warning) when there are none,
 * too many, or one is not a finite number. */
static gint
read_taps (GObject * object, const gchar * name, const GValue * value,
    gfloat * taps, guint max)
{
  guint n = gst_value_array_get_size (value);

  if (n == 0 || n > max) {
    g_warning ("%s: %s needs 1 to %u taps, not %u; keeping the kernel",
        GST_OBJECT_NAME (object), name, max, n);
    return -1;
  }
  for (guint i = 0; i < n; i++) {
    GValue f = G_VALUE_INIT;

    g_value_init (&f, G_TYPE_FLOAT);
    if (!g_value_transform (gst_value_array_get_value (value, i), &f)
        || !isfinite (g_value_get_float (&f))) {
      g_warning ("%s: %s: tap %u is not a finite number; keeping the kernel",
          GST_OBJECT_NAME (object), name, i);
      return -1;
    }
    taps[i] = g_value_get_float (&f);
  }
  return n;
}

static gboolean
side_ok (GObject * object, const gchar * what, gint n)
{
  if (n >= 1 && n <= MAX_SIDE && n % 2 == 1)
    return TRUE;
  g_warning ("%s: the kernel's %s would be %d: it must be odd, 1 to %d; "
      "keeping the kernel", GST_OBJECT_NAME (object), what, n, MAX_SIDE);
  return FALSE;
}

static void
set_full_kernel (ConvolveProps * props, const gfloat * taps, gint w, gint h)
{
  props->width = w;
  props->height = h;
  props->separable = FALSE;
  props->n_x = props->n_y = 0;
  memcpy (props->taps, taps, sizeof (gfloat) * w * h);
}

/* kernel: rows of kernel-width taps (square when 0). */
static void
set_kernel (GstCudaFilter * self, const GValue * value)
{
  GObject *object = G_OBJECT (self);
  gfloat taps[CF_CONVOLVE_MAX_TAPS];
  ConvolveProps *props;
  gint n, w, h;

  props = gst_cuda_filter_lock_params (self);
  w = props->kernel_width;
  gst_cuda_filter_unlock_params (self);
  if ((n = read_taps (object, "kernel", value, taps, G_N_ELEMENTS (taps))) < 0)
    return;
  if (w == 0) {
    w = (gint) lround (sqrt (n));
    if (w * w != n) {
      g_warning ("%s: kernel: %d taps are not a square; set kernel-width "
          "(before kernel) for a rectangle; keeping the kernel",
          GST_OBJECT_NAME (object), n);
      return;
    }
  } else if (n % w != 0) {
    g_warning ("%s: kernel: %d taps are not rows of kernel-width=%d; "
        "keeping the kernel", GST_OBJECT_NAME (object), n, w);
    return;
  }
  h = n / w;
  if (!side_ok (object, "width", w) || !side_ok (object, "height", h))
    return;
  props = gst_cuda_filter_lock_params (self);
  set_full_kernel (props, taps, w, h);
  props->preset = PRESET_NONE;
  gst_cuda_filter_unlock_params (self);
}

/* kernel-x or kernel-y: one factor of a separable kernel; the other stays
 * if the kernel was separable, else is <1>. */
static void
set_axis (GstCudaFilter * self, const GValue * value, gboolean x)
{
  GObject *object = G_OBJECT (self);
  const gchar *name = x ? "kernel-x" : "kernel-y";
  gfloat taps[MAX_SIDE];
  ConvolveProps *props;
  gint n;

  if ((n = read_taps (object, name, value, taps, MAX_SIDE)) < 0
      || !side_ok (object, x ? "width" : "height", n))
    return;
  props = gst_cuda_filter_lock_params (self);
  if (!props->separable) {
    props->separable = TRUE;
    props->n_x = props->n_y = 0;
    props->width = props->height = 1;
    props->row[0] = props->col[0] = 1.0f;
  }
  memcpy (x ? props->row : props->col, taps, sizeof (gfloat) * n);
  if (x)
    props->width = props->n_x = n;
  else
    props->height = props->n_y = n;
  props->preset = PRESET_NONE;
  gst_cuda_filter_unlock_params (self);
}

static void
set_preset (GstCudaFilter * self, Preset preset)
{
  ConvolveProps *props = gst_cuda_filter_lock_params (self);

  props->preset = preset;
  if (preset != PRESET_NONE) {
    const PresetValues *v = &presets[preset];

    set_full_kernel (props, v->taps, 3, 3);
    props->divisor = 0.0;
    props->offset = v->offset;
    props->absolute = v->absolute;
    props->luma_only = v->luma_only;
  }
  gst_cuda_filter_unlock_params (self);
}

static void
append_tap (GValue * array, gfloat tap)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_FLOAT);
  g_value_set_float (&v, tap);
  gst_value_array_append_and_take_value (array, &v);
}

/* kernel reads the full taps (a separable kernel's outer product);
 * kernel-x and kernel-y what was given as such (empty otherwise). */
static void
get_taps (GstCudaFilter * self, guint prop_id, GValue * value)
{
  const ConvolveProps *props = gst_cuda_filter_lock_params (self);

  if (prop_id == PROP_KERNEL) {
    for (gint y = 0; y < props->height; y++)
      for (gint x = 0; x < props->width; x++)
        append_tap (value, props->separable ? props->col[y] * props->row[x] :
            props->taps[y * props->width + x]);
  } else if (props->separable) {
    gboolean x = prop_id == PROP_KERNEL_X;

    for (gint i = 0; i < (x ? props->n_x : props->n_y); i++)
      append_tap (value, x ? props->row[i] : props->col[i]);
  }
  gst_cuda_filter_unlock_params (self);
}

static void
gst_cuda_convolve_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  switch (prop_id) {
    case PROP_KERNEL:
      set_kernel (self, value);
      break;
    case PROP_KERNEL_X:
    case PROP_KERNEL_Y:
      set_axis (self, value, prop_id == PROP_KERNEL_X);
      break;
    case PROP_PRESET:
      set_preset (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_CLASS (gst_cuda_convolve_parent_class)->set_property (object,
          prop_id, value, pspec);
      break;
  }
}

static void
gst_cuda_convolve_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_KERNEL:
    case PROP_KERNEL_X:
    case PROP_KERNEL_Y:
      get_taps (GST_CUDA_FILTER (object), prop_id, value);
      break;
    default:
      G_OBJECT_CLASS (gst_cuda_convolve_parent_class)->get_property (object,
          prop_id, value, pspec);
      break;
  }
}

static GParamSpec *
taps_spec (const gchar * name, const gchar * nick, const gchar * blurb,
    GParamFlags flags)
{
  return gst_param_spec_array (name, nick, blurb,
      g_param_spec_float ("tap", "Tap", "One tap", -G_MAXFLOAT, G_MAXFLOAT,
          0.0f, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS), flags);
}

static void
gst_cuda_convolve_class_init (GstCudaConvolveClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cuda_convolve_set_property;
  gobject_class->get_property = gst_cuda_convolve_get_property;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      taps_spec ("kernel", "Kernel", "Taps row by row, as a correlation "
          "(the first multiplies the top-left neighbour), e.g. \"<1, 2, 1, "
          "2, 4, 2, 1, 2, 1>\"; square unless kernel-width is set; odd "
          "sides up to " G_STRINGIFY (CF_CONVOLVE_MAX_SIDE), flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_KERNEL_WIDTH,
      G_STRUCT_OFFSET (ConvolveProps, kernel_width),
      g_param_spec_int ("kernel-width", "Kernel width",
          "Taps per row of the kernel set next (0: square)", 0, MAX_SIDE, 0,
          flags));
  g_object_class_install_property (gobject_class, PROP_KERNEL_X,
      taps_spec ("kernel-x", "Kernel x", "A separable kernel's taps along "
          "each row (odd count); replaces kernel", flags));
  g_object_class_install_property (gobject_class, PROP_KERNEL_Y,
      taps_spec ("kernel-y", "Kernel y", "A separable kernel's taps down "
          "each column (odd count); replaces kernel", flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_DIVISOR,
      G_STRUCT_OFFSET (ConvolveProps, divisor),
      g_param_spec_double ("divisor", "Divisor",
          "Sums are divided by it (0: the sum of the taps, or 1 where they "
          "sum to 0)", -MAX_DIVISOR, MAX_DIVISOR, 0.0, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_OFFSET,
      G_STRUCT_OFFSET (ConvolveProps, offset),
      g_param_spec_double ("offset", "Offset",
          "Added after dividing, in units of full scale (0.5 = 128 at 8 "
          "bits)", -MAX_OFFSET, MAX_OFFSET, 0.0, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_PRESET,
      G_STRUCT_OFFSET (ConvolveProps, preset),
      g_param_spec_enum ("preset", "Preset",
          "A named kernel: sets kernel, divisor, offset, absolute and "
          "luma-only", GST_TYPE_CUDA_CONVOLVE_PRESET, PRESET_NONE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_ABSOLUTE,
      G_STRUCT_OFFSET (ConvolveProps, absolute),
      g_param_spec_boolean ("absolute", "Absolute",
          "Store |result| (edge maps)", FALSE, flags));
  gst_cuda_filter_class_install_param (filter_class, PROP_LUMA_ONLY,
      G_STRUCT_OFFSET (ConvolveProps, luma_only),
      g_param_spec_boolean ("luma-only", "Luma only",
          "Filter only the luma of YUV formats, copy their chroma", FALSE,
          flags));

  gst_element_class_set_static_metadata (element_class,
      "CUDA convolution", "Filter/Effect/Video",
      "General 2-D convolution (user kernels up to 31x31, separable, "
      "presets: sharpen, Laplacian, Sobel, emboss, box) on an NVIDIA GPU. "
      "Example: gst-launch-1.0 videotestsrc ! cudaconvolve preset=sharpen ! "
      "videoconvert ! autovideosink", "cudafilters developers");
  gst_cuda_filter_class_add_pad_templates (element_class);

  filter_class->params_size = sizeof (ConvolveProps);
  filter_class->is_identity = is_identity;
  filter_class->filter_plane = filter_plane;
  filter_class->reach = reach;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_CONVOLVE_PRESET, 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_convolve_debug, "cudaconvolve", 0,
      "CUDA convolution");
}

/* The default kernel, <1>: frames pass through. */
static void
gst_cuda_convolve_init (GstCudaConvolve * self)
{
  static const gfloat one = 1.0f;
  ConvolveProps *props = gst_cuda_filter_lock_params (GST_CUDA_FILTER (self));

  set_full_kernel (props, &one, 1, 1);
  gst_cuda_filter_unlock_params (GST_CUDA_FILTER (self));
}
