/* GstCudaFilter: see gstcudafilter.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfprivate.h"
#include "gstcfallocation.h"
#include "gstcfcudamemory.h"
#include "gstcfdevicememory.h"
#include "gstcfformats.h"
#include "gstcfhistory.h"
#include "gstcfpageable.h"
#include "gstcfpinnedallocator.h"
#include "gstcfqueue.h"
#include "gstcfslots.h"
#include "cf_runtime.h"

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

GST_DEBUG_CATEGORY (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

#define CF_MAX_SIZE 32767

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_BACKEND GST_CUDA_FILTER_BACKEND_AUTO
#define DEFAULT_BORDER CF_BORDER_CLAMP
/* Two frames in flight by default: the upload, filtering and download of
 * consecutive frames overlap (2.4 to 3.4 times the throughput of one on an
 * H100, docs/performance.md), and each frame still leaves as soon as its
 * work is done, so nothing is added to the latency. */
#define DEFAULT_FRAMES_IN_FLIGHT 2

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_BACKEND,
  PROP_BORDER,
  PROP_FRAMES_IN_FLIGHT,
  PROP_STATS,
  PROP_REGIONS,                 /* GST_CF_REGION_N_PROPS of them */
};

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaFilter, gst_cuda_filter,
    GST_TYPE_VIDEO_FILTER, G_ADD_PRIVATE (GstCudaFilter)
    GST_DEBUG_CATEGORY_INIT (gst_cuda_filter_debug, "cudafilter", 0,
        "cudafilters base class"));

GstCudaFilterPrivate *
gst_cuda_filter_get_priv (GstCudaFilter * self)
{
  return gst_cuda_filter_get_instance_private (self);
}

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

#define CF_CAPS_FIELDS ", width = (int) [ 1, " G_STRINGIFY (CF_MAX_SIZE) \
  " ], height = (int) [ 1, " G_STRINGIFY (CF_MAX_SIZE) " ], " \
  "framerate = (fraction) [ 0, max ]"

/* System memory first: where both are possible, it is the one peers that
 * fixate in template order pick. Last, interlace-mode=alternate (one field
 * a buffer), which GStreamer marks with the format:Interlaced feature. */
static GstCaps *
sink_caps (void)
{
  return gst_caps_from_string ("video/x-raw, format = (string) " CF_FORMATS
      CF_CAPS_FIELDS "; video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
      "), format = (string) " CF_CUDA_FORMATS CF_CAPS_FIELDS
      "; video/x-raw(" GST_CAPS_FEATURE_FORMAT_INTERLACED "), format = "
      "(string) " CF_FORMATS ", interlace-mode = (string) alternate"
      CF_CAPS_FIELDS);
}

void
gst_cuda_filter_class_add_pad_templates (GstElementClass * klass)
{
  GstCaps *caps = sink_caps ();

  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

void
gst_cuda_filter_class_add_side_pad (GstElementClass * klass,
    const gchar * name, const gchar * formats)
{
  gchar *text = g_strdup_printf ("video/x-raw, format = (string) %s"
      CF_CAPS_FIELDS, formats ? formats : CF_PLANAR_FORMATS);
  GstCaps *caps = gst_caps_from_string (text);

  gst_element_class_add_pad_template (klass,
      gst_pad_template_new (name, GST_PAD_SINK, GST_PAD_REQUEST, caps));
  gst_caps_unref (caps);
  g_free (text);
}

static GstPad *
gst_cuda_filter_request_new_pad (GstElement * element, GstPadTemplate * templ,
    const gchar * name, const GstCaps * caps)
{
  return gst_cf_side_pad_request (PRIV (element)->side, templ);
}

static void
gst_cuda_filter_release_pad (GstElement * element, GstPad * pad)
{
  gst_cf_side_pad_release (PRIV (element)->side, pad);
}

/* A side stream's waits end before the pads deactivate (which waits for
 * the streaming threads). */
static GstStateChangeReturn
gst_cuda_filter_change_state (GstElement * element, GstStateChange transition)
{
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    gst_cf_side_pad_set_running (PRIV (element)->side, TRUE);
  else if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_cf_side_pad_set_running (PRIV (element)->side, FALSE);
  return GST_ELEMENT_CLASS (gst_cuda_filter_parent_class)->change_state
      (element, transition);
}

/* ------------------------------------------------------------------ */
/* Element parameters: fields of the element's params struct            */

/* On an element's pspec: 1 + the field's offset in its params struct. */
static GQuark param_quark;

static void gst_cuda_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

void
gst_cuda_filter_class_install_param (GstCudaFilterClass * klass,
    guint prop_id, gsize offset, GParamSpec * pspec)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GType type = G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec));

  g_return_if_fail (type == G_TYPE_BOOLEAN || type == G_TYPE_INT
      || type == G_TYPE_UINT || type == G_TYPE_DOUBLE || type == G_TYPE_ENUM);
  /* GObject does not inherit these: the subclass's own (an override that
   * chains up) or the base class's, which know the params struct */
  if (!gobject_class->set_property)
    gobject_class->set_property = gst_cuda_filter_set_property;
  if (!gobject_class->get_property)
    gobject_class->get_property = gst_cuda_filter_get_property;
  g_param_spec_set_qdata (pspec, param_quark, GSIZE_TO_POINTER (offset + 1));
  g_object_class_install_property (gobject_class, prop_id, pspec);
}

static void
param_store (gpointer field, const GValue * value)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value))) {
    case G_TYPE_BOOLEAN:
      *(gboolean *) field = g_value_get_boolean (value);
      break;
    case G_TYPE_INT:
      *(gint *) field = g_value_get_int (value);
      break;
    case G_TYPE_UINT:
      *(guint *) field = g_value_get_uint (value);
      break;
    case G_TYPE_DOUBLE:
      *(gdouble *) field = g_value_get_double (value);
      break;
    case G_TYPE_ENUM:
      *(gint *) field = g_value_get_enum (value);
      break;
    default:
      g_assert_not_reached ();
  }
}

static void
param_load (gconstpointer field, GValue * value)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value))) {
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, *(const gboolean *) field);
      break;
    case G_TYPE_INT:
      g_value_set_int (value, *(const gint *) field);
      break;
    case G_TYPE_UINT:
      g_value_set_uint (value, *(const guint *) field);
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(const gdouble *) field);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(const gint *) field);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* The element's live params struct, made at first use (init cannot: the
 * subclass's size is not known there) with every parameter at its
 * default. With the object lock held. */
static gpointer
live_params (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GParamSpec **pspecs;
  guint n;

  if (priv->live_params)
    return priv->live_params;
  priv->live_params = g_malloc0 (GST_CUDA_FILTER_GET_CLASS (self)->params_size);
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (self), &n);
  for (guint i = 0; i < n; i++) {
    gsize at = GPOINTER_TO_SIZE (g_param_spec_get_qdata (pspecs[i],
            param_quark));

    if (at)
      param_store ((guint8 *) priv->live_params + at - 1,
          g_param_spec_get_default_value (pspecs[i]));
  }
  g_free (pspecs);
  return priv->live_params;
}

/* Where the value of @pspec lives in @self's live params; NULL for the
 * base class's own properties. With the object lock held. */
static gpointer
param_field (GstCudaFilter * self, GParamSpec * pspec)
{
  gsize at = GPOINTER_TO_SIZE (g_param_spec_get_qdata (pspec, param_quark));

  return at ? (guint8 *) live_params (self) + at - 1 : NULL;
}

/* ------------------------------------------------------------------ */
/* Start and stop: the CUDA context, the slots' streams                */

static void
release_gpu (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstAllocator *handoff;

  if (priv->context && gst_cuda_context_push (priv->context)) {
    gst_cf_slots_free (priv);
    gst_cf_history_free (priv);
    gst_cuda_context_pop (NULL);
  }

  gst_clear_object (&priv->pinned);
  /* the stats property reads it */
  GST_OBJECT_LOCK (self);
  handoff = g_steal_pointer (&priv->handoff);
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&handoff);
  priv->use_gpu = FALSE;
}

/* Finds or creates the shared CUDA context and this element's streams.
 * Returns FALSE with nothing held when there is no usable device. */
static gboolean
acquire_gpu (GstCudaFilter * self, gint device_id)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstAllocator *handoff;
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
  st = gst_cf_slots_create_streams (priv);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK) {
    GST_WARNING_OBJECT (self, "no CUDA stream: %s", cf_last_error_string ());
    return FALSE;
  }
  priv->pinned = gst_cf_pinned_allocator_new (priv->context);
  handoff = gst_cf_device_allocator_new (priv->context);
  GST_OBJECT_LOCK (self);
  priv->handoff = handoff;
  GST_OBJECT_UNLOCK (self);
  if (!handoff) {
    GST_WARNING_OBJECT (self, "no CUDA stream: %s", cf_last_error_string ());
    return FALSE;
  }
  /* GstCudaBufferPool finds the CUDA allocator by name */
  gst_cuda_memory_init_once ();
  priv->use_gpu = TRUE;
  return TRUE;
}

/* Caps queries read whether the element has started (then whether it
 * runs on the GPU) from other threads. */
static void
set_started (GstCudaFilter * self, gboolean started)
{
  GST_OBJECT_LOCK (self);
  PRIV (self)->started = started;
  GST_OBJECT_UNLOCK (self);
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
  priv->n_slots = priv->frames_in_flight;
  GST_OBJECT_UNLOCK (self);

  priv->use_gpu = FALSE;
  GST_OBJECT_LOCK (self);
  priv->frames = priv->uploads = priv->downloads = 0;
  priv->last_in_path = priv->last_out_path = NULL;
  GST_OBJECT_UNLOCK (self);
  if (backend != GST_CUDA_FILTER_BACKEND_CPU && !acquire_gpu (self, device_id)) {
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
  }
  gst_cf_queue_start (self);
  set_started (self, TRUE);
  return TRUE;
}


static gboolean
gst_cuda_filter_stop (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  gst_cf_queue_stop (self);
  if (!PRIV (self)->history.on_gpu)
    gst_cf_history_free (PRIV (self));
  release_gpu (self);
  /* the CPU's (release_gpu freed the GPU's) */
  for (guint i = 0; i < MAX_FRAMES_IN_FLIGHT; i++)
    if (!PRIV (self)->slots[i].region_scratch.on_gpu)
      gst_cf_region_scratch_free (&PRIV (self)->slots[i].region_scratch);
  gst_clear_object (&PRIV (self)->context);
  set_started (self, FALSE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Formats                                                              */

/* The CPU reference cannot touch device memory, so CUDA-memory caps are
 * offered only where the element will run (or runs) on the GPU: never
 * with backend=cpu, and without a device a peer sees system memory only. */
static gboolean
cuda_memory_allowed (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  gboolean cpu, started;

  GST_OBJECT_LOCK (self);
  cpu = priv->backend == GST_CUDA_FILTER_BACKEND_CPU;
  started = priv->started;
  GST_OBJECT_UNLOCK (self);
  if (cpu)
    return FALSE;
  return started ? priv->use_gpu : gst_cf_cuda_device_present ();
}

/* Same format and size on both sides, and the same memory: the filters
 * read and write where the frame is (system memory in, system memory out;
 * CUDA memory in, CUDA memory out), so nothing is copied to change it. */
static GstCaps *
gst_cuda_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = gst_caps_ref (caps);

  if (!cuda_memory_allowed (GST_CUDA_FILTER (trans))) {
    GstCaps *system = gst_caps_from_string ("video/x-raw; video/x-raw("
        GST_CAPS_FEATURE_FORMAT_INTERLACED ")");

    gst_caps_unref (ret);
    ret = gst_caps_intersect_full (caps, system, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (system);
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      ret);
  return ret;
}


/* A stateful filter's history for the new format (gstcfhistory.h), on the
 * CPU backend: @st says whether it was made. */
static gboolean
history_allocated (GstCudaFilter * self, const GstVideoInfo * info, CfStatus st)
{
  if (st == CF_OK)
    return TRUE;
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Cannot allocate memory for the previous %dx%d %s frame.",
          info->width, info->height, GST_VIDEO_INFO_NAME (info)), (NULL));
  return FALSE;
}

static gboolean
gst_cuda_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCudaFilter *self = GST_CUDA_FILTER (filter);
  GstCudaFilterPrivate *priv = PRIV (self);
  gboolean host = !gst_cf_is_cuda_caps (incaps);
  CfStatus st = CF_OK;

  if (GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_INFO_FORMAT (out_info)
      || in_info->width != out_info->width
      || in_info->height != out_info->height) {
    GST_ERROR_OBJECT (self, "input and output caps must be the same video "
        "format and size: %" GST_PTR_FORMAT " vs %" GST_PTR_FORMAT, incaps,
        outcaps);
    return FALSE;
  }

  /* transform_caps offers CUDA memory only with a GPU; a GPU that failed
   * to start after such caps were offered must not get them */
  if (!host && !priv->use_gpu) {
    GST_ERROR_OBJECT (self, "CUDA memory needs the CUDA backend");
    return FALSE;
  }

  priv->n_planes = GST_VIDEO_INFO_N_PLANES (in_info);
  if (!gst_cf_packed_describe (in_info, &priv->packing, &priv->planes[0],
          &priv->row_bytes[0], &priv->rows[0]))
    for (guint p = 0; p < priv->n_planes; p++)
      gst_cf_formats_describe_plane (in_info, p, &priv->planes[p],
          &priv->row_bytes[p], &priv->rows[p]);

  if (!priv->use_gpu)
    return history_allocated (self, in_info, gst_cf_history_alloc (self));

  /* A caps event drains the frames in flight before it gets here, but a
   * renegotiation may not: let them go before their planes do. */
  gst_cf_queue_drain (self);
  if (!gst_cuda_context_push (priv->context))
    return FALSE;
  for (guint i = 0; i < priv->n_slots && st == CF_OK; i++) {
    gst_cf_device_frame_free (&priv->slots[i].dev);
    st = gst_cf_device_frame_alloc (priv, &priv->slots[i].dev, host,
        host && !GST_CUDA_FILTER_GET_CLASS (self)->stateful);
  }
  if (st == CF_OK)
    st = gst_cf_history_alloc (self);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate GPU memory for %u %dx%d %s frames: %s.",
            priv->n_slots, in_info->width, in_info->height,
            GST_VIDEO_INFO_NAME (in_info), cf_status_string (st)),
        ("%s", cf_last_error_string ()));
    return FALSE;
  }
  return TRUE;
}

/* GstVideoFilter makes an element without transform_frame work in place;
 * frames in flight need a separate output buffer each. */
static gboolean
gst_cuda_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  if (!GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->set_caps
      (trans, incaps, outcaps))
    return FALSE;
  gst_base_transform_set_in_place (trans, FALSE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Allocation (gstcfallocation.c) on the GPU, the parent's on the CPU    */

static gboolean
gst_cuda_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  if (!PRIV (trans)->use_gpu || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)
        ->propose_allocation (trans, decide_query, query);
  return gst_cf_propose_allocation (GST_CUDA_FILTER (trans), query);
}

static gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  if (!PRIV (trans)->use_gpu)
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)
        ->decide_allocation (trans, query);
  return gst_cf_decide_allocation (GST_CUDA_FILTER (trans), query);
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
  gst_cf_side_pad_main_time (priv->side,
      gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME,
          GST_BUFFER_PTS (buffer)));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (self), stream_time);

  /* Allocated here, not in init: only now is the subclass's size known. */
  if (!priv->params)
    priv->params = g_malloc0 (klass->params_size);
  GST_OBJECT_LOCK (self);
  memcpy (priv->params, live_params (self), klass->params_size);
  priv->frame_border = priv->border;
  priv->frame_regions = priv->regions;
  GST_OBJECT_UNLOCK (self);

  identity = klass->is_identity (self, priv->params);
  if (identity != gst_base_transform_is_passthrough (trans)) {
    GST_DEBUG_OBJECT (self, "passthrough %s", identity ? "on" : "off");
    gst_base_transform_set_passthrough (trans, identity);
    /* the frames passed through are not in the history */
    gst_cf_history_restart (priv);
    /* Upstream's output memory depends on whether we take it or pass it on
     * (a passthrough forwards the allocation query): ask it again. */
    if (priv->use_gpu)
      gst_base_transform_reconfigure_sink (trans);
  }
}

/* The input frame goes in flight. With one frame in flight it comes back
 * filtered at once for GstBaseTransform to send; with more, the output
 * thread sends it when its work is done. A frame that passes through
 * follows the frames in flight. */
static GstFlowReturn
gst_cuda_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstBuffer *inbuf = trans->queued_buf;
  GstFlowReturn ret;

  *outbuf = NULL;
  if (!inbuf)
    return GST_FLOW_OK;
  if (gst_base_transform_is_passthrough (trans)) {
    ret = gst_cf_queue_drain (self);
    if (ret != GST_FLOW_OK)
      return ret;
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)
        ->generate_output (trans, outbuf);
  }
  trans->queued_buf = NULL;
  return gst_cf_queue_push (self, inbuf, outbuf);
}

static gboolean
gst_cuda_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  /* From FLUSH_START on nothing more is sent; at FLUSH_STOP (the
   * streaming thread has let go of the queue) nothing is left. */
  gst_cf_side_pad_main_event (PRIV (self)->side, event);
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START) {
    gst_cf_queue_flush_start (self);
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    gst_cf_queue_flush_stop (self);
    gst_cf_history_restart (PRIV (self));
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    GstFlowReturn ret = gst_cf_queue_drain (self);

    if (ret != GST_FLOW_OK)
      GST_DEBUG_OBJECT (self, "draining before %s: %s",
          GST_EVENT_TYPE_NAME (event), gst_flow_get_name (ret));
    /* a new segment (a seek) does not follow the frames before it */
    if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
      gst_cf_history_restart (PRIV (self));
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->sink_event
      (trans, event);
}

/* A frame leaves as soon as its work is done, so nothing is added to the
 * minimum; when the GPU is the bottleneck a frame may wait behind
 * frames-in-flight - 1 others, which the maximum allows for. With
 * framerate 0/1 (variable) a frame's duration is unknown and nothing is
 * added. */
static gboolean
latency_query (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaFilterPrivate *priv = PRIV (trans);
  GstVideoInfo *info = &GST_VIDEO_FILTER (trans)->in_info;
  GstClockTime min, max, added = 0;
  gboolean live;

  if (!GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->query (trans,
          GST_PAD_SRC, query))
    return FALSE;
  gst_cf_side_pad_add_latency (priv->side, query);
  gst_query_parse_latency (query, &live, &min, &max);
  if (info->fps_n > 0 && info->fps_d > 0 && priv->n_slots > 1)
    added = gst_util_uint64_scale_int (GST_SECOND * (priv->n_slots - 1),
        info->fps_d, info->fps_n);
  GST_DEBUG_OBJECT (trans, "adding up to %" GST_TIME_FORMAT " for %u frames "
      "in flight", GST_TIME_ARGS (added), priv->n_slots);
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += added;
  gst_query_set_latency (query, live, min, max);
  return TRUE;
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
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY && direction == GST_PAD_SRC)
    return latency_query (trans, query);
  /* Upstream wants its buffers back (a pool change): the frames in flight
   * hold some of them. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN && direction == GST_PAD_SINK)
    gst_cf_queue_drain (GST_CUDA_FILTER (trans));
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_cuda_handle_context_query (GST_ELEMENT (trans), query,
          PRIV (trans)->context))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->query (trans,
      direction, query);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

/* With the object lock held. */
static GstStructure *
stats (GstCudaFilter * self)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  guint64 map_downloads = 0, map_uploads = 0;

  if (priv->handoff)
    gst_cf_device_allocator_get_map_copies (priv->handoff, &map_downloads,
        &map_uploads);
  return gst_structure_new ("application/x-cudafilter-stats",
      "frames", G_TYPE_UINT64, priv->frames,
      "uploads", G_TYPE_UINT64, priv->uploads,
      "downloads", G_TYPE_UINT64, priv->downloads,
      "map-downloads", G_TYPE_UINT64, map_downloads,
      "map-uploads", G_TYPE_UINT64, map_uploads,
      "input-memory", G_TYPE_STRING,
      priv->last_in_path ? priv->last_in_path->name : "none",
      "output-memory", G_TYPE_STRING,
      priv->last_out_path ? priv->last_out_path->name : "none", NULL);
}

static void
gst_cuda_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFilterPrivate *priv = PRIV (object);
  gpointer field;

  GST_OBJECT_LOCK (object);
  field = param_field (GST_CUDA_FILTER (object), pspec);
  if (field) {
    param_store (field, value);
    GST_OBJECT_UNLOCK (object);
    return;
  }
  if (prop_id >= PROP_REGIONS && prop_id < PROP_REGIONS + GST_CF_REGION_N_PROPS) {
    gst_cf_region_props_set (&priv->regions, prop_id - PROP_REGIONS, value);
    GST_OBJECT_UNLOCK (object);
    return;
  }
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
    case PROP_FRAMES_IN_FLIGHT:
      priv->frames_in_flight = g_value_get_uint (value);
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
  gpointer field;

  GST_OBJECT_LOCK (object);
  field = param_field (GST_CUDA_FILTER (object), pspec);
  if (field) {
    param_load (field, value);
    GST_OBJECT_UNLOCK (object);
    return;
  }
  if (prop_id >= PROP_REGIONS && prop_id < PROP_REGIONS + GST_CF_REGION_N_PROPS) {
    gst_cf_region_props_get (&priv->regions, prop_id - PROP_REGIONS, value);
    GST_OBJECT_UNLOCK (object);
    return;
  }
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
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, priv->frames_in_flight);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, stats (GST_CUDA_FILTER (object)));
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
  GstCudaFilterPrivate *priv = PRIV (object);

  g_free (priv->live_params);
  g_free (priv->params);
  for (guint i = 0; i < MAX_FRAMES_IN_FLIGHT; i++) {
    g_free (priv->slots[i].params);
    gst_cf_frame_regions_clear (&priv->slots[i].regions);
  }
  g_mutex_clear (&priv->queue_lock);
  g_cond_clear (&priv->queue_cond);
  gst_cf_side_pad_free (priv->side);
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
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "How many frames may be in the GPU at once: upload, filtering and "
          "download of different frames overlap. Each frame still leaves as "
          "soon as its own work is done (above 1, a thread of the element "
          "sends it), so more frames in flight add no latency. Read when the "
          "element starts", 1,
          MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Since the element last started: frames filtered (frames), frames "
          "copied host to GPU (uploads) and GPU to host (downloads), copies "
          "made when another element mapped this element's device output for "
          "the CPU (map-downloads) or wrote it there (map-uploads), and the "
          "memory of the last frame in and out (input-memory, output-memory: "
          "the name of its memory path, e.g. pinned, CUDA, cudafilters "
          "device, another context's CUDA (through host))", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_cf_regions_install_properties (gobject_class, PROP_REGIONS);

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_context);
  element_class->request_new_pad =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_request_new_pad);
  element_class->release_pad = GST_DEBUG_FUNCPTR (gst_cuda_filter_release_pad);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_filter_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_filter_query);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_before_transform);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_decide_allocation);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_filter_sink_event);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_caps);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_transform_caps);
  /* Never in place: the output is a separate (pinned) buffer. */
  trans_class->transform_ip_on_passthrough = FALSE;

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_info);

  gst_cf_pageable_init ();
  param_quark = g_quark_from_static_string ("cudafilter-param-offset");

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
  priv->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  gst_cf_region_props_init (&priv->regions);
  g_mutex_init (&priv->queue_lock);
  g_cond_init (&priv->queue_cond);
  priv->side = gst_cf_side_pad_new (self);
}
