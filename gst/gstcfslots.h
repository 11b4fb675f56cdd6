/* Frames in flight (internal to the base class): the slots' device planes
 * and streams, and the work of one frame in a slot: mapping its buffers
 * (each by its memory path), upload, filter and download queued on the
 * slot's stream (or the filter done on the CPU), and the end of it. The
 * queue (gstcfqueue.h) orders the slots. */
#ifndef __GST_CF_SLOTS_H__
#define __GST_CF_SLOTS_H__

#include "gstcfprivate.h"

G_BEGIN_DECLS
/* Device planes of one slot: frees them, or makes those of the sides
 * (@in, @out) in host memory that are not made yet. */
void gst_cf_device_frame_free (DeviceFrame * dev);
CfStatus gst_cf_device_frame_alloc (GstCudaFilterPrivate * priv,
    DeviceFrame * dev, gboolean in, gboolean out);

/* Every slot's planes, scratch and streams go (with the context pushed);
 * a slot's two streams are made at start, never per frame. */
void gst_cf_slots_free (GstCudaFilterPrivate * priv);
CfStatus gst_cf_slots_create_streams (GstCudaFilterPrivate * priv);

/* Posts STREAM/FAILED for @st and returns GST_FLOW_ERROR. */
GstFlowReturn gst_cf_filter_error (GstCudaFilter * self, CfStatus st);

/* Filters one plane of @slot's frame through the element's filter_plane:
 * the whole plane, or each field of an interlaced frame on its own, within
 * the frame's regions and gated by @gate_pl (the plane of luma or colour,
 * gstcfregions.h, several regions through @region_scratch); a packed 4:2:2
 * plane as its luma and chroma (gstcfpacked.h), whole: regions and gate do
 * not apply to packed formats. */
CfStatus gst_cf_slot_filter_plane (GstCudaFilter * self, Slot * slot,
    const GstCudaFilterPlane * pl, const GstCudaFilterPlane * gate_pl,
    GstCfRegionScratch * region_scratch, const CfExec * exec);

/* start: the frame @inbuf (taken) in @slot, its work queued or done;
 * finish: waits for that work and gives the filtered frame (NULL if it
 * failed). See gstcfslots.c for what a failed start leaves. */
GstFlowReturn gst_cf_slot_start (GstCudaFilter * self, Slot * slot,
    GstBuffer * inbuf);
CfStatus gst_cf_slot_finish (GstCudaFilter * self, Slot * slot,
    GstBuffer ** outbuf);

G_END_DECLS
#endif /* __GST_CF_SLOTS_H__ */
