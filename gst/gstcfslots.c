/* Frames in flight: see gstcfslots.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfslots.h"
#include "gstcfformats.h"
#include "gstcfhistory.h"
#include "cf_runtime.h"

#define GST_CAT_DEFAULT gst_cuda_filter_debug

void
gst_cf_device_frame_free (DeviceFrame * dev)
{
  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    cf_device_free (dev->in[p]);
    cf_device_free (dev->out[p]);
  }
  memset (dev, 0, sizeof (*dev));
}

/* Device planes for the sides (@in, @out) whose frames are in host memory,
 * those not made yet: CUDA memory in and out needs none. They stay until
 * the format changes. */
CfStatus
gst_cf_device_frame_alloc (GstCudaFilterPrivate * priv, DeviceFrame * dev,
    gboolean in, gboolean out)
{
  CfStatus st = CF_OK;

  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++) {
    if (in && !dev->in[p])
      st = cf_device_alloc_2d (&dev->in[p], &dev->in_stride[p],
          priv->row_bytes[p], priv->rows[p]);
    if (out && !dev->out[p] && st == CF_OK)
      st = cf_device_alloc_2d (&dev->out[p], &dev->out_stride[p],
          priv->row_bytes[p], priv->rows[p]);
  }
  return st;
}

/* With the context pushed. */
void
gst_cf_slots_free (GstCudaFilterPrivate * priv)
{
  for (guint i = 0; i < MAX_FRAMES_IN_FLIGHT; i++) {
    Slot *slot = &priv->slots[i];

    gst_cf_device_frame_free (&slot->dev);
    cf_scratch_release (&slot->scratch);
    cf_scratch_release (&slot->packed);
    gst_cf_region_scratch_free (&slot->region_scratch);
    cf_scratch_release (&slot->planes_scratch);
    gst_cf_region_scratch_free (&slot->planes_region_scratch);
    cf_device_free (slot->side_dev);
    slot->side_dev = NULL;
    slot->side_dev_row_bytes = 0;
    slot->side_dev_rows = 0;
    cf_stream_destroy (slot->stream);
    slot->stream = NULL;
    cf_stream_destroy (slot->planes_stream);
    slot->planes_stream = NULL;
    cf_event_destroy (slot->planes_fork);
    slot->planes_fork = NULL;
    cf_event_destroy (slot->planes_join);
    slot->planes_join = NULL;
  }
}

/* Two streams per slot and the events that fork and join them, made once
 * here and never per frame. */
CfStatus
gst_cf_slots_create_streams (GstCudaFilterPrivate * priv)
{
  CfStatus st = CF_OK;

  for (guint i = 0; i < priv->n_slots && st == CF_OK; i++) {
    Slot *slot = &priv->slots[i];

    st = cf_stream_create (&slot->stream);
    if (st == CF_OK)
      st = cf_stream_create (&slot->planes_stream);
    if (st == CF_OK)
      st = cf_event_create (&slot->planes_fork);
    if (st == CF_OK)
      st = cf_event_create (&slot->planes_join);
  }
  return st;
}

/* Makes the element's CUDA context current; nothing to do on the CPU. */
static gboolean
push_context (GstCudaFilterPrivate * priv)
{
  return !priv->use_gpu || gst_cuda_context_push (priv->context);
}

static void
pop_context (GstCudaFilterPrivate * priv)
{
  if (priv->use_gpu)
    gst_cuda_context_pop (NULL);
}

GstFlowReturn
gst_cf_filter_error (GstCudaFilter * self, CfStatus st)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;

  GST_ELEMENT_ERROR (self, STREAM, FAILED,
      ("Filtering a %dx%d %s frame failed: %s.", info->width, info->height,
          GST_VIDEO_INFO_NAME (info), cf_status_string (st)),
      ("backend %s: %s", priv->use_gpu ? "cuda" : "cpu",
          priv->use_gpu ? cf_last_error_string () : "reference"));
  return GST_FLOW_ERROR;
}

/* Plane @p of @slot's frame, reading @src and writing @dst. */
static GstCudaFilterPlane
slot_plane (GstCudaFilterPrivate * priv, const Slot * slot, guint p,
    void *src, gsize src_stride, void *dst, gsize dst_stride)
{
  GstCudaFilterPlane pl = priv->planes[p];

  pl.src.data = src;
  pl.src.stride = src_stride;
  pl.dst.data = dst;
  pl.dst.stride = dst_stride;
  pl.border = slot->border;
  pl.side = slot->side_plane;
  return pl;
}

/* Where a packed frame's part goes (gst_cf_packed_filter): through the
 * regions and the gate of its slot, as a plane of its own. */
typedef struct
{
  Slot *slot;
  guint field, n_fields;
  GstCfRegionScratch *scratch;
} PackedPart;

static CfStatus
filter_packed_part (GstCudaFilter * self, gpointer data,
    const GstCudaFilterPlane * part, const GstCudaFilterPlane * luma,
    const CfExec * exec)
{
  const PackedPart *pp = data;

  return gst_cf_regions_filter (self, pp->slot->params, &pp->slot->regions,
      part, luma, pp->field, pp->n_fields, pp->scratch, exec);
}

CfStatus
gst_cf_slot_filter_plane (GstCudaFilter * self, Slot * slot,
    const GstCudaFilterPlane * pl, const GstCudaFilterPlane * gate_pl,
    GstCfRegionScratch * region_scratch, const CfExec * exec)
{
  const GstCfPacking *packing = &PRIV (self)->packing;
  GstCudaFilterPlane views[2], gate_views[2];
  guint n = gst_cf_formats_plane_views (pl, &slot->in, views);
  guint n_gate = gst_cf_formats_plane_views (gate_pl, &slot->in, gate_views);
  CfStatus st = CF_OK;

  /* a chroma plane of one row is not split where its luma is: its gate is
   * then read from the whole luma plane */
  if (n_gate != n)
    gate_views[0] = *gate_pl;
  for (guint v = 0; v < n && st == CF_OK; v++) {
    PackedPart part = { slot, v, n, region_scratch };

    st = packing->kind != GST_CF_PACKED_NONE ?
        gst_cf_packed_filter (packing, self, &views[v], &slot->packed, exec,
        filter_packed_part, &part) :
        gst_cf_regions_filter (self, slot->params, &slot->regions, &views[v],
        &gate_views[n_gate == n ? v : 0], v, n, region_scratch, exec);
  }
  return st;
}

/* Where the GPU reads and writes plane @p of @slot's frame: in the mapped
 * buffer itself where its path is on the device, else in the slot's device
 * planes, which copies fill from and empty into host memory. */
static GstCudaFilterPlane
device_plane (GstCudaFilterPrivate * priv, const Slot * slot, guint p)
{
  const DeviceFrame *dev = &slot->dev;
  gboolean in_dev = slot->in_path->on_device;
  gboolean out_dev = slot->out_path->on_device;

  return slot_plane (priv, slot, p,
      in_dev ? GST_VIDEO_FRAME_PLANE_DATA (&slot->in, p) : dev->in[p],
      in_dev ? GST_VIDEO_FRAME_PLANE_STRIDE (&slot->in, p) : dev->in_stride[p],
      out_dev ? GST_VIDEO_FRAME_PLANE_DATA (&slot->out, p) : dev->out[p],
      out_dev ? GST_VIDEO_FRAME_PLANE_STRIDE (&slot->out, p) :
      dev->out_stride[p]);
}

/* @slot's side frame where the kernels read it: in place where its path is
 * on the device, else uploaded on the slot's stream into the slot's side
 * plane (made or grown here, kept for the next frames). */
static CfStatus
upload_side (GstCudaFilter * self, Slot * slot)
{
  CfPlane *p = &slot->side_plane;
  gsize row = (gsize) p->width * cf_plane_bytes_per_sample (p) * p->channels;
  CfStatus st = CF_OK;

  if (slot->side_path->on_device)
    return CF_OK;
  if (row > slot->side_dev_row_bytes || p->height > slot->side_dev_rows) {
    cf_device_free (slot->side_dev);
    slot->side_dev = NULL;
    slot->side_dev_row_bytes = 0;
    st = cf_device_alloc_2d (&slot->side_dev, &slot->side_dev_stride, row,
        p->height);
    if (st != CF_OK)
      return st;
    slot->side_dev_row_bytes = row;
    slot->side_dev_rows = p->height;
  }
  if (slot->side_path->prepare_upload)
    slot->side_path->prepare_upload (self, slot->sidebuf);
  st = cf_copy_2d_async (slot->side_dev, slot->side_dev_stride, p->data,
      p->stride, row, p->height, slot->stream);
  p->data = slot->side_dev;
  p->stride = slot->side_dev_stride;
  return st;
}

/* Filters @slot's uploaded planes. The planes after the first (chroma)
 * go on the slot's second stream, forked after the upload and joined
 * before the download, so that their kernels run beside the first plane's
 * instead of after them: a plane's kernels seldom fill the device from
 * start to end (4K NV12 on an H100, bench_gaussian and bench_convolve with
 * the planes forked: the multi-rate Gaussian at sigma 20 0.093 -> 0.070
 * ms, 5x5 convolution 0.037 -> 0.031). The join is queued whatever
 * happened, so the slot's stream always ends after every plane. */
static CfStatus
filter_planes_on_gpu (GstCudaFilter * self, Slot * slot,
    GstCudaFilterPlane * planes, const CfExec * exec)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfExec later = { 1, slot->planes_stream, &slot->planes_scratch };
  CfStatus st = CF_OK, joined;

  if (priv->n_planes > 1) {
    st = cf_event_record (slot->planes_fork, slot->stream);
    if (st == CF_OK)
      st = cf_stream_wait_event (slot->planes_stream, slot->planes_fork);
    if (st != CF_OK)
      return st;
  }
  for (guint p = 1; p < priv->n_planes && st == CF_OK; p++)
    st = gst_cf_slot_filter_plane (self, slot, &planes[p], &planes[0],
        &slot->planes_region_scratch, &later);
  if (st == CF_OK)
    st = gst_cf_slot_filter_plane (self, slot, &planes[0], &planes[0],
        &slot->region_scratch, exec);
  if (priv->n_planes == 1)
    return st;
  joined = cf_event_record (slot->planes_join, slot->planes_stream);
  if (joined == CF_OK)
    joined = cf_stream_wait_event (slot->stream, slot->planes_join);
  return st != CF_OK ? st : joined;
}

/* Queues upload, filter and download of @slot's frame on the slot's own
 * stream, so they overlap with other frames' work; nothing waits here.
 * A side whose path is on the device is neither uploaded nor downloaded. */
static CfStatus
launch_on_gpu (GstCudaFilter * self, Slot * slot)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfExec exec = { 1, slot->stream, &slot->scratch };
  DeviceFrame *dev = &slot->dev;
  gboolean stateful = GST_CUDA_FILTER_GET_CLASS (self)->stateful;
  gboolean upload = !slot->in_path->on_device;
  gboolean download = !slot->out_path->on_device && !stateful;
  GstCudaFilterPlane planes[GST_VIDEO_MAX_PLANES];
  CfStatus st;

  /* only when the memory is not what set_info expected: it made them */
  st = gst_cf_device_frame_alloc (priv, dev, upload, download);
  if (upload && slot->in_path->prepare_upload)
    slot->in_path->prepare_upload (self, slot->inbuf);
  for (guint p = 0; p < priv->n_planes && st == CF_OK && upload; p++)
    st = cf_copy_2d_async (dev->in[p], dev->in_stride[p],
        GST_VIDEO_FRAME_PLANE_DATA (&slot->in, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&slot->in, p), priv->row_bytes[p],
        priv->rows[p], slot->stream);
  if (st == CF_OK && slot->sidebuf)
    st = upload_side (self, slot);
  for (guint p = 0; p < priv->n_planes; p++)
    planes[p] = device_plane (priv, slot, p);
  if (stateful && st == CF_OK)
    return gst_cf_history_filter (self, slot, planes, &exec);
  if (st == CF_OK)
    st = filter_planes_on_gpu (self, slot, planes, &exec);
  for (guint p = 0; p < priv->n_planes && st == CF_OK && download; p++)
    st = cf_copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (&slot->out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&slot->out, p), dev->out[p],
        dev->out_stride[p], priv->row_bytes[p], priv->rows[p], slot->stream);
  return st;
}

/* Plane @p of @slot's mapped frames, for the CPU. */
static GstCudaFilterPlane
host_plane (GstCudaFilterPrivate * priv, const Slot * slot, guint p)
{
  return slot_plane (priv, slot, p, GST_VIDEO_FRAME_PLANE_DATA (&slot->in, p),
      GST_VIDEO_FRAME_PLANE_STRIDE (&slot->in, p),
      GST_VIDEO_FRAME_PLANE_DATA (&slot->out, p),
      GST_VIDEO_FRAME_PLANE_STRIDE (&slot->out, p));
}

static CfStatus
filter_on_cpu (GstCudaFilter * self, Slot * slot)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfExec exec = { 0, NULL, NULL };
  GstCudaFilterPlane planes[GST_VIDEO_MAX_PLANES];
  CfStatus st = CF_OK;

  for (guint p = 0; p < priv->n_planes; p++)
    planes[p] = host_plane (priv, slot, p);
  if (GST_CUDA_FILTER_GET_CLASS (self)->stateful)
    return gst_cf_history_filter (self, slot, planes, &exec);
  for (guint p = 0; p < priv->n_planes && st == CF_OK; p++)
    st = gst_cf_slot_filter_plane (self, slot, &planes[p], &planes[0],
        &slot->region_scratch, &exec);
  return st;
}

/* Counts @slot's frame and its copies for the stats property (one lock a
 * frame), and logs which memory each pad's buffers come in when it
 * changes. */
static void
account (GstCudaFilter * self, const Slot * slot)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  gboolean changed;

  GST_OBJECT_LOCK (self);
  priv->frames++;
  priv->uploads += priv->use_gpu && !slot->in_path->on_device;
  priv->downloads += priv->use_gpu && !slot->out_path->on_device;
  changed = slot->in_path != priv->last_in_path
      || slot->out_path != priv->last_out_path;
  priv->last_in_path = slot->in_path;
  priv->last_out_path = slot->out_path;
  GST_OBJECT_UNLOCK (self);
  if (changed)
    GST_INFO_OBJECT (self, "sink pad: %s memory (%s), src pad: %s memory "
        "(%s)", slot->in_path->name, slot->in_path->on_device ?
        "read in place" : "uploaded", slot->out_path->name,
        slot->out_path->on_device ? "written in place" : "downloaded");
}

/* Maps @slot's buffers for the whole time the GPU may touch them: copies
 * read and write host memory, kernels device memory, until the slot's
 * stream is synchronised. Each buffer's memory path says how. */
static gboolean
map_slot (GstCudaFilter * self, Slot * slot)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);

  slot->in_path = gst_cf_mem_path_for (self, slot->inbuf);
  slot->out_path = gst_cf_mem_path_for (self, slot->outbuf);
  if (!slot->in_path->map (self, &slot->in, &filter->in_info, slot->inbuf,
          GST_MAP_READ))
    goto map_failed;
  if (slot->out_path->map (self, &slot->out, &filter->out_info, slot->outbuf,
          GST_MAP_WRITE))
    return TRUE;
  gst_video_frame_unmap (&slot->in);
map_failed:
  GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Cannot map a video frame."),
      ("%s memory in, %s memory out", slot->in_path->name,
          slot->out_path->name));
  return FALSE;
}

/* The side frame of @inbuf, where the element's frame asks for one
 * (GstCudaFilterClass::side_use), picked and mapped by its memory path
 * into @slot; with none, slot->side_plane.data is NULL. */
static GstFlowReturn
take_side (GstCudaFilter * self, Slot * slot, GstBuffer * inbuf)
{
  GstCudaFilterClass *klass = GST_CUDA_FILTER_GET_CLASS (self);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCudaFilterSideUse use = klass->side_use ?
      klass->side_use (self, PRIV (self)->params) : GST_CUDA_FILTER_SIDE_NONE;
  GstCudaFilterPlane desc;
  GstVideoInfo info;
  GstFlowReturn ret;
  gsize row_bytes;
  gint rows;

  memset (&slot->side_plane, 0, sizeof (slot->side_plane));
  if (use == GST_CUDA_FILTER_SIDE_NONE)
    return GST_FLOW_OK;
  ret = gst_cf_side_pad_pick (PRIV (self)->side,
      gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME,
          GST_BUFFER_PTS (inbuf)), use == GST_CUDA_FILTER_SIDE_WAIT,
      &GST_VIDEO_FILTER (self)->in_info, &slot->sidebuf, &info);
  if (ret != GST_FLOW_OK || !slot->sidebuf)
    return ret;
  slot->side_path = gst_cf_mem_path_for (self, slot->sidebuf);
  GST_LOG_OBJECT (self, "side frame: %s memory (%s)", slot->side_path->name,
      slot->side_path->on_device ? "read in place" : "uploaded");
  if (!slot->side_path->map (self, &slot->side, &info, slot->sidebuf,
          GST_MAP_READ)) {
    gst_clear_buffer (&slot->sidebuf);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Cannot map a side frame."),
        ("%s memory", slot->side_path->name));
    return GST_FLOW_ERROR;
  }
  /* its first plane: channels, depth, full scale */
  gst_cf_formats_describe_plane (&info, 0, &desc, &row_bytes, &rows);
  slot->side_plane = desc.src;
  slot->side_plane.data = GST_VIDEO_FRAME_PLANE_DATA (&slot->side, 0);
  slot->side_plane.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&slot->side, 0);
  return GST_FLOW_OK;
}

static void
release_side (Slot * slot)
{
  if (!slot->sidebuf)
    return;
  gst_video_frame_unmap (&slot->side);
  gst_clear_buffer (&slot->sidebuf);
}

/* Starts filtering @inbuf (taken) in @slot with the properties of its
 * arrival: on the GPU the work is only queued, on the CPU it is done here.
 * On GST_FLOW_OK, or GST_FLOW_ERROR with slot->failed set (the work failed
 * after the buffers were mapped: posted), the slot holds the frame and
 * must be finished; otherwise it is left empty. */
GstFlowReturn
gst_cf_slot_start (GstCudaFilter * self, Slot * slot, GstBuffer * inbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCudaFilterClass *klass = GST_CUDA_FILTER_GET_CLASS (self);
  GstCudaFilterPrivate *priv = PRIV (self);
  GstFlowReturn ret;
  CfStatus st;

  slot->failed = FALSE;
  ret = take_side (self, slot, inbuf);
  if (ret == GST_FLOW_OK)
    ret = GST_BASE_TRANSFORM_GET_CLASS (self)->prepare_output_buffer (trans,
        inbuf, &slot->outbuf);
  if (ret != GST_FLOW_OK) {
    release_side (slot);
    gst_buffer_unref (inbuf);
    return ret;
  }
  slot->inbuf = inbuf;
  if (!map_slot (self, slot)) {
    release_side (slot);
    gst_clear_buffer (&slot->inbuf);
    gst_clear_buffer (&slot->outbuf);
    return GST_FLOW_ERROR;
  }
  if (!slot->params)
    slot->params = g_malloc0 (klass->params_size);
  memcpy (slot->params, priv->params, klass->params_size);
  slot->border = priv->frame_border;
  gst_cf_regions_collect (&priv->frame_regions, inbuf,
      &GST_VIDEO_FILTER (self)->in_info, &slot->regions);
  account (self, slot);

  if (!push_context (priv))
    st = CF_ERROR_NO_DEVICE;
  else {
    st = priv->use_gpu ? launch_on_gpu (self, slot) :
        filter_on_cpu (self, slot);
    pop_context (priv);
  }
  slot->failed = st != CF_OK;
  return st == CF_OK ? GST_FLOW_OK : gst_cf_filter_error (self, st);
}

/* Ends @slot's frame once its work is done (even a failed one: no copy may
 * still touch its buffers when they go): *outbuf is the filtered frame, or
 * NULL when its work failed. */
CfStatus
gst_cf_slot_finish (GstCudaFilter * self, Slot * slot, GstBuffer ** outbuf)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  CfStatus st = CF_OK;

  if (priv->use_gpu && gst_cuda_context_push (priv->context)) {
    st = cf_stream_synchronize (slot->stream);
    gst_cuda_context_pop (NULL);
  } else if (priv->use_gpu) {
    st = CF_ERROR_NO_DEVICE;
  }
  gst_video_frame_unmap (&slot->in);
  gst_video_frame_unmap (&slot->out);
  release_side (slot);
  gst_clear_buffer (&slot->inbuf);
  *outbuf = slot->outbuf;
  slot->outbuf = NULL;
  if (st != CF_OK || slot->failed)
    gst_clear_buffer (outbuf);
  return st;
}
