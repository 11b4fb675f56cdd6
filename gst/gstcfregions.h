/* Regions of interest and the value gate (internal to the base class):
 * which pixels of a frame the element's filter changes. Everywhere else
 * the output is the input, bit for bit.
 *
 * A region is filtered as part of the whole frame: the filter runs on the
 * region grown by its reach (GstCudaFilterClass::reach), a view of the
 * plane clipped to it, so the region's pixels read their real neighbours
 * and borders apply only at the frame's edges; what it wrote beyond the
 * region is then put back from the input. Several regions (metas) are each
 * filtered into a scratch plane and copied out of it, so that one region's
 * margin never overwrites another's pixels. The gate runs last, on each
 * region: where the gate value of a pixel lies outside [gate-min,
 * gate-max] its input comes back (inside the element's filter where its
 * class sets applies_gate: cudabilateral). */
#ifndef __GST_CF_REGIONS_H__
#define __GST_CF_REGIONS_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

/* The properties (the base class's, snapshot once per frame). */
typedef struct
{
  gint x, y, width, height;     /* roi-*: width / height 0: to the edge */
  gboolean meta;                /* roi-meta: the buffer's metas instead */
  GQuark meta_type;             /* roi-meta-type; 0: every type */
  guint gate_min, gate_max;
} GstCfRegionProps;

/* One frame's regions, in frame pixels, clipped to it, none empty. */
typedef struct
{
  gboolean restricted;          /* FALSE: the whole frame */
  GArray *rects;                /* GstVideoRectangle */
  guint gate_min, gate_max;
} GstCfFrameRegions;

/* A scratch plane for several regions: device or host memory, grown only. */
typedef struct
{
  void *data;
  size_t stride;
  gsize row_bytes;
  gint rows;
  gboolean on_gpu;
} GstCfRegionScratch;

/* Installs roi-x, roi-y, roi-width, roi-height, roi-meta, roi-meta-type,
 * gate-min and gate-max as properties @first_id to @first_id + 7. */
#define GST_CF_REGION_N_PROPS 8
void gst_cf_regions_install_properties (GObjectClass * klass, guint first_id);
void gst_cf_region_props_init (GstCfRegionProps * props);
/* Property @id (counted from @first_id) under the object lock. */
void gst_cf_region_props_set (GstCfRegionProps * props, guint id,
    const GValue * value);
void gst_cf_region_props_get (const GstCfRegionProps * props, guint id,
    GValue * value);

/* The regions of @buf (@info's size) for @props. */
void gst_cf_regions_collect (const GstCfRegionProps * props, GstBuffer * buf,
    const GstVideoInfo * info, GstCfFrameRegions * out);
void gst_cf_frame_regions_clear (GstCfFrameRegions * regions);

/* Filters @view (field @field of @n_fields of its plane) with @params
 * within @regions, gated by @gate_view (the view of the frame's plane that
 * holds luma or colour: where the gate values are read), through the
 * element's filter_plane. */
CfStatus gst_cf_regions_filter (GstCudaFilter * self, gconstpointer params,
    const GstCfFrameRegions * regions, const GstCudaFilterPlane * view,
    const GstCudaFilterPlane * gate_view, guint field, guint n_fields,
    GstCfRegionScratch * scratch, const CfExec * exec);

/* Frees @scratch (a device one with the context pushed). */
void gst_cf_region_scratch_free (GstCfRegionScratch * scratch);

G_END_DECLS
#endif /* __GST_CF_REGIONS_H__ */
