/* GstCudaFilter: see gstcudafilter.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter.h"
#include "gstcfpinnedallocator.h"
#include "cf_runtime.h"

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

#define CF_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, " \
  "xRGB, xBGR, RGB, BGR, AYUV, I420, YV12, NV12, NV21, Y42B, Y444, Y444_16LE }"
#define CF_MAX_SIZE 32767

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_BACKEND GST_CUDA_FILTER_BACKEND_AUTO
#define DEFAULT_BORDER CF_BORDER_CLAMP

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_BACKEND,
  PROP_BORDER,
};

/* Device copies of one frame's planes, in and out. */
typedef struct
{
  void *in[GST_VIDEO_MAX_PLANES];
  void *out[GST_VIDEO_MAX_PLANES];
  size_t in_stride[GST_VIDEO_MAX_PLANES];
  size_t out_stride[GST_VIDEO_MAX_PLANES];
} DeviceFrame;

typedef struct
{
  /* properties, under the object lock */
  gint device_id;
  GstCudaFilterBackend backend;
  CfBorder border;

  /* streaming state, from start() to stop() */
  GstCudaContext *context;
  gboolean use_gpu;
  CfStream stream;
  CfScratch scratch;
  GstAllocator *pinned;
  DeviceFrame dev;

  /* per format, from set_info() */
  guint n_planes;
  GstCudaFilterPlane planes[GST_VIDEO_MAX_PLANES];
  gsize row_bytes[GST_VIDEO_MAX_PLANES];
  gint rows[GST_VIDEO_MAX_PLANES];

  /* per frame: the properties as they were when the frame arrived */
  gpointer params;
  CfBorder frame_border;
} GstCudaFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaFilter, gst_cuda_filter,
    GST_TYPE_VIDEO_FILTER, G_ADD_PRIVATE (GstCudaFilter)
    GST_DEBUG_CATEGORY_INIT (gst_cuda_filter_debug, "cudafilter", 0,
        "cudafilters base class"));

#define PRIV(self) ((GstCudaFilterPrivate *) \
    gst_cuda_filter_get_instance_private (GST_CUDA_FILTER (self)))

GType
gst_cuda_filter_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FILTER_BACKEND_AUTO,
        "CUDA when a device is there, else the CPU reference", "auto"},
    {GST_CUDA_FILTER_BACKEND_CUDA, "CUDA only: an error without a device",
        "cuda"},
    {GST_CUDA_FILTER_BACKEND_CPU, "The plain-C reference on the CPU", "cpu"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaFilterBackend",
            values));
  return type;
}

GType
gst_cuda_filter_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CF_BORDER_CLAMP, "Replicate the edge pixel (aaa|abc)", "clamp"},
    {CF_BORDER_MIRROR, "Reflect without repeating the edge (cb|abc)",
        "mirror"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaFilterBorder",
            values));
  return type;
}

GstCaps *
gst_cuda_filter_sink_caps (void)
{
  return gst_caps_from_string ("video/x-raw, format = (string) " CF_FORMATS
      ", width = (int) [ 1, " G_STRINGIFY (CF_MAX_SIZE) " ], "
      "height = (int) [ 1, " G_STRINGIFY (CF_MAX_SIZE) " ], "
      "framerate = (fraction) [ 0, max ]");
}

void
gst_cuda_filter_class_add_pad_templates (GstElementClass * klass)
{
  GstCaps *caps = gst_cuda_filter_sink_caps ();

  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

/* ------------------------------------------------------------------ */
/* Device resources                                                     */

static void
free_device_frame (GstCudaFilterPrivate * priv)
{
  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    cf_device_free (priv->dev.in[p]);
    cf_device_free (priv->dev.out[p]);
  }
  memset (&priv->dev, 0, sizeof (priv->dev));
}

static CfStatus
alloc_device_frame (GstCudaFilterPrivate * priv)
{
  CfStatus st = CF_OK;

  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++) {
    st = cf_device_alloc_2d (&priv->dev.in[p], &priv->dev.in_stride[p],
        priv->row_bytes[p], priv->rows[p]);
    if (st == CF_OK)
      st = cf_device_alloc_2d (&priv->dev.out[p], &priv->dev.out_stride[p],
          priv->row_bytes[p], priv->rows[p]);
  }
  return st;
}

static void
release_gpu (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  if (priv->context && gst_cuda_context_push (priv->context)) {
    free_device_frame (priv);
    cf_scratch_release (&priv->scratch);
    cf_stream_destroy (priv->stream);
    gst_cuda_context_pop (NULL);
  }
  priv->stream = NULL;
  gst_clear_object (&priv->pinned);
  priv->use_gpu = FALSE;
}

/* Finds or creates the shared CUDA context and this element's stream.
 * Returns FALSE with nothing held when there is no usable device. */
static gboolean
acquire_gpu (GstCudaFilter * self, gint device_id)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfStatus st;

  if (!gst_cuda_load_library ()) {
    GST_INFO_OBJECT (self, "no CUDA driver library");
    return FALSE;
  }
  if (!gst_cuda_ensure_element_context (GST_ELEMENT (self), device_id,
          &priv->context)) {
    GST_INFO_OBJECT (self, "no CUDA context for device %d", device_id);
    return FALSE;
  }
  if (!gst_cuda_context_push (priv->context))
    return FALSE;
  st = cf_stream_create (&priv->stream);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK) {
    GST_WARNING_OBJECT (self, "no CUDA stream: %s", cf_last_error_string ());
    return FALSE;
  }
  priv->pinned = gst_cf_pinned_allocator_new (priv->context);
  priv->use_gpu = TRUE;
  return TRUE;
}

static gboolean
gst_cuda_filter_start (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCudaFilterPrivate *priv = PRIV (self);
  GstCudaFilterBackend backend;
  gint device_id;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  priv->use_gpu = FALSE;
  if (backend == GST_CUDA_FILTER_BACKEND_CPU)
    return TRUE;
  if (acquire_gpu (self, device_id))
    return TRUE;
  release_gpu (self);
  gst_clear_object (&priv->context);

  if (backend == GST_CUDA_FILTER_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No usable CUDA device (cuda-device-id=%d) and backend=cuda.",
            device_id),
        ("Set backend=auto or backend=cpu to run the CPU reference."));
    return FALSE;
  }
  GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
      ("No usable CUDA device: running the CPU reference (slow)."),
      ("backend=auto, cuda-device-id=%d", device_id));
  return TRUE;
}

static gboolean
gst_cuda_filter_stop (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  release_gpu (self);
  gst_clear_object (&PRIV (self)->context);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Formats                                                              */

/* Describes plane @p of @info: its channels, depth, subsampling and which
 * channels are colour and which are chroma. */
static void
describe_plane (const GstVideoInfo * info, guint p, GstCudaFilterPlane * pl,
    gsize * row_bytes, gint * rows)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8 ? 16 : 8;
  gint bps = depth / 8;
  gint first = -1;

  memset (pl, 0, sizeof (*pl));
  pl->index = p;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    guint bit;
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
      continue;
    if (first < 0)
      first = c;
    bit = 1u << (GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) / bps);
    if (c == GST_VIDEO_COMP_A)
      continue;
    pl->channel_mask |= bit;
    if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && c != GST_VIDEO_COMP_Y)
      pl->chroma_mask |= bit;
  }
  g_assert (first >= 0);
  pl->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, first);
  pl->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, first);
  pl->src.depth = pl->dst.depth = depth;
  pl->src.channels = pl->dst.channels =
      GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, first) / bps;
  pl->src.width = pl->dst.width = GST_VIDEO_INFO_COMP_WIDTH (info, first);
  pl->src.height = pl->dst.height = GST_VIDEO_INFO_COMP_HEIGHT (info, first);
  *row_bytes = (gsize) pl->src.width * pl->src.channels * bps;
  *rows = pl->src.height;
}

static gboolean
gst_cuda_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCudaFilter *self = GST_CUDA_FILTER (filter);
  GstCudaFilterPrivate *priv = PRIV (self);
  CfStatus st = CF_OK;

  if (GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_INFO_FORMAT (out_info)
      || in_info->width != out_info->width
      || in_info->height != out_info->height) {
    GST_ERROR_OBJECT (self, "input and output caps must be the same video "
        "format and size: %" GST_PTR_FORMAT " vs %" GST_PTR_FORMAT, incaps,
        outcaps);
    return FALSE;
  }

  priv->n_planes = GST_VIDEO_INFO_N_PLANES (in_info);
  for (guint p = 0; p < priv->n_planes; p++)
    describe_plane (in_info, p, &priv->planes[p], &priv->row_bytes[p],
        &priv->rows[p]);

  if (!priv->use_gpu)
    return TRUE;

  /* The previous frame finished before this caps event arrived (one
   * synchronisation per frame), so its planes can go now. */
  if (!gst_cuda_context_push (priv->context))
    return FALSE;
  free_device_frame (priv);
  st = alloc_device_frame (priv);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate GPU memory for %dx%d %s frames: %s.",
            in_info->width, in_info->height,
            GST_VIDEO_INFO_NAME (in_info), cf_status_string (st)),
        ("%s", cf_last_error_string ()));
    return FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Allocation: pinned pools upstream and downstream                     */

static GstBufferPool *
new_pinned_pool (GstCudaFilter * self, GstCaps * caps, guint min, guint max)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_set_allocator (config, priv->pinned, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

static gboolean
gst_cuda_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCudaFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool;
  GstCaps *caps;
  GstVideoInfo info;

  if (!priv->use_gpu || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)
        ->propose_allocation (trans, decide_query, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_add_allocation_param (query, priv->pinned, NULL);
  pool = new_pinned_pool (self, caps, 2, 0);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, info.size, 2, 0);
  gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCudaFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool;
  GstCaps *caps;
  guint size, min = 2, max = 0;

  if (!priv->use_gpu)
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)
        ->decide_allocation (trans, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, NULL, &size, &min, &max);
    min = MAX (min, 2);
  }
  pool = new_pinned_pool (self, caps, min, max);
  if (!pool)
    return FALSE;
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, priv->pinned, NULL);
  else
    gst_query_add_allocation_param (query, priv->pinned, NULL);
  size = GST_VIDEO_INFO_SIZE (&GST_VIDEO_FILTER (self)->out_info);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Per frame                                                            */

static void
gst_cuda_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCudaFilterClass *klass = GST_CUDA_FILTER_GET_CLASS (self);
  GstCudaFilterPrivate *priv = PRIV (self);
  GstClockTime stream_time;
  gboolean identity;

  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_TIMESTAMP (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (self), stream_time);

  /* Allocated here, not in init: only now is the subclass's size known. */
  if (!priv->params)
    priv->params = g_malloc0 (klass->params_size);
  GST_OBJECT_LOCK (self);
  klass->snapshot (self, priv->params);
  priv->frame_border = priv->border;
  GST_OBJECT_UNLOCK (self);

  identity = klass->is_identity (self, priv->params);
  if (identity != gst_base_transform_is_passthrough (trans)) {
    GST_DEBUG_OBJECT (self, "passthrough %s", identity ? "on" : "off");
    gst_base_transform_set_passthrough (trans, identity);
  }
}

static void
bind_host_plane (CfPlane * plane, GstVideoFrame * frame, guint p)
{
  plane->data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  plane->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
}

static CfStatus
filter_planes (GstCudaFilter * self, const CfExec * exec)
{
  GstCudaFilterClass *klass = GST_CUDA_FILTER_GET_CLASS (self);
  GstCudaFilterPrivate *priv = PRIV (self);
  CfStatus st = CF_OK;

  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++) {
    priv->planes[p].border = priv->frame_border;
    st = klass->filter_plane (self, priv->params, &priv->planes[p], exec);
  }
  return st;
}

/* Host frames in, host frames out: upload, filter, download, all queued on
 * the element's stream, then one synchronisation. */
static CfStatus
transform_on_gpu (GstCudaFilter * self, GstVideoFrame * in, GstVideoFrame * out)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfExec exec = { 1, priv->stream, &priv->scratch };
  CfStatus st = CF_OK;

  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++) {
    GstCudaFilterPlane *pl = &priv->planes[p];
    st = cf_copy_2d_async (priv->dev.in[p], priv->dev.in_stride[p],
        GST_VIDEO_FRAME_PLANE_DATA (in, p), GST_VIDEO_FRAME_PLANE_STRIDE (in,
            p), priv->row_bytes[p], priv->rows[p], priv->stream);
    pl->src.data = priv->dev.in[p];
    pl->src.stride = priv->dev.in_stride[p];
    pl->dst.data = priv->dev.out[p];
    pl->dst.stride = priv->dev.out_stride[p];
  }
  if (st == CF_OK)
    st = filter_planes (self, &exec);
  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++)
    st = cf_copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (out, p), priv->dev.out[p],
        priv->dev.out_stride[p], priv->row_bytes[p], priv->rows[p],
        priv->stream);
  /* Synchronise even after a failure: nothing may still read the frames. */
  CfStatus sync = cf_stream_synchronize (priv->stream);
  return st != CF_OK ? st : sync;
}

static CfStatus
transform_on_cpu (GstCudaFilter * self, GstVideoFrame * in, GstVideoFrame * out)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfExec exec = { 0, NULL, NULL };

  for (guint p = 0; p < priv->n_planes; p++) {
    bind_host_plane (&priv->planes[p].src, in, p);
    bind_host_plane (&priv->planes[p].dst, out, p);
  }
  return filter_planes (self, &exec);
}

static GstFlowReturn
gst_cuda_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaFilter *self = GST_CUDA_FILTER (filter);
  GstCudaFilterPrivate *priv = PRIV (self);
  CfStatus st;

  if (priv->use_gpu) {
    if (!gst_cuda_context_push (priv->context)) {
      GST_ELEMENT_ERROR (self, LIBRARY, FAILED,
          ("Cannot make the CUDA context current."), (NULL));
      return GST_FLOW_ERROR;
    }
    st = transform_on_gpu (self, in_frame, out_frame);
    gst_cuda_context_pop (NULL);
  } else {
    st = transform_on_cpu (self, in_frame, out_frame);
  }

  if (st != CF_OK) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Filtering a %dx%d %s frame failed: %s.",
            GST_VIDEO_FRAME_WIDTH (in_frame), GST_VIDEO_FRAME_HEIGHT (in_frame),
            GST_VIDEO_INFO_NAME (&in_frame->info), cf_status_string (st)),
        ("backend %s: %s", priv->use_gpu ? "cuda" : "cpu",
            priv->use_gpu ? cf_last_error_string () : "reference"));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* ------------------------------------------------------------------ */
/* Context sharing                                                      */

static void
gst_cuda_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaFilterPrivate *priv = PRIV (element);
  gint device_id;

  GST_OBJECT_LOCK (element);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (element);
  gst_cuda_handle_set_context (element, context, device_id, &priv->context);
  GST_ELEMENT_CLASS (gst_cuda_filter_parent_class)->set_context (element,
      context);
}

static gboolean
gst_cuda_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_cuda_handle_context_query (GST_ELEMENT (trans), query,
          PRIV (trans)->context))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->query (trans,
      direction, query);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
gst_cuda_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFilterPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      priv->device_id = g_value_get_int (value);
      break;
    case PROP_BACKEND:
      priv->backend = g_value_get_enum (value);
      break;
    case PROP_BORDER:
      priv->border = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaFilterPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, priv->device_id);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, priv->backend);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, priv->border);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_filter_finalize (GObject * object)
{
  g_free (PRIV (object)->params);
  G_OBJECT_CLASS (gst_cuda_filter_parent_class)->finalize (object);
}

static void
gst_cuda_filter_class_init (GstCudaFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_filter_set_property;
  gobject_class->get_property = gst_cuda_filter_get_property;
  gobject_class->finalize = gst_cuda_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to use (-1 = any; an upstream or downstream CUDA "
          "element's context is shared when there is one)", -1, G_MAXINT,
          DEFAULT_DEVICE_ID, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where the filter runs", GST_TYPE_CUDA_FILTER_BACKEND,
          DEFAULT_BACKEND, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border-mode", "Border mode",
          "How pixels outside the frame are read", GST_TYPE_CUDA_FILTER_BORDER,
          DEFAULT_BORDER, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_context);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_filter_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_filter_query);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_before_transform);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_decide_allocation);
  /* Never in place: the output is a separate (pinned) buffer. */
  trans_class->transform_ip_on_passthrough = FALSE;

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BORDER, 0);
}

static void
gst_cuda_filter_init (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  priv->device_id = DEFAULT_DEVICE_ID;
  priv->backend = DEFAULT_BACKEND;
  priv->border = DEFAULT_BORDER;
}
