/* Regions of interest and the value gate: see gstcfregions.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfregions.h"
#include "cf_runtime.h"

#include <string.h>

#define GATE_MAX 65535

enum
{
  ROI_X,
  ROI_Y,
  ROI_WIDTH,
  ROI_HEIGHT,
  ROI_META,
  ROI_META_TYPE,
  GATE_MIN_ID,
  GATE_MAX_ID,
};
G_STATIC_ASSERT (GATE_MAX_ID + 1 == GST_CF_REGION_N_PROPS);

/* ------------------------------------------------------------------ */
/* Properties                                                           */

void
gst_cf_regions_install_properties (GObjectClass * klass, guint first_id)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;
  GParamSpec *specs[GST_CF_REGION_N_PROPS];

  specs[ROI_X] = g_param_spec_int ("roi-x", "ROI x",
      "Left edge of the region of interest, in pixels: only the region is "
      "filtered, the rest of the frame is copied", 0, G_MAXINT, 0, flags);
  specs[ROI_Y] = g_param_spec_int ("roi-y", "ROI y",
      "Top edge of the region of interest, in pixels", 0, G_MAXINT, 0, flags);
  specs[ROI_WIDTH] = g_param_spec_int ("roi-width", "ROI width",
      "Width of the region of interest (0: to the right edge; all four at 0: "
      "the whole frame)", 0, G_MAXINT, 0, flags);
  specs[ROI_HEIGHT] = g_param_spec_int ("roi-height", "ROI height",
      "Height of the region of interest (0: to the bottom edge)", 0,
      G_MAXINT, 0, flags);
  specs[ROI_META] = g_param_spec_boolean ("roi-meta", "ROI meta",
      "Filter exactly the regions the buffer's GstVideoRegionOfInterestMeta "
      "name (instead of roi-x, roi-y, roi-width, roi-height), clipped to the "
      "frame; a frame without one is copied through", FALSE, flags);
  specs[ROI_META_TYPE] = g_param_spec_string ("roi-meta-type",
      "ROI meta type", "With roi-meta, only the metas of this type (e.g. "
      "face); NULL or empty: every type", NULL, flags);
  specs[GATE_MIN_ID] = g_param_spec_uint ("gate-min", "Gate minimum",
      "Filter only the pixels whose value (luma for YUV, the mean of the "
      "colour channels for RGB, in the format's sample units) is at least "
      "this; the others are copied", 0, GATE_MAX, 0, flags);
  specs[GATE_MAX_ID] = g_param_spec_uint ("gate-max", "Gate maximum",
      "Filter only the pixels whose value is at most this (at least the "
      "format's full scale, with gate-min 0: every pixel; below gate-min: "
      "none)", 0, GATE_MAX, GATE_MAX, flags);
  for (guint i = 0; i < GST_CF_REGION_N_PROPS; i++)
    g_object_class_install_property (klass, first_id + i, specs[i]);
}

void
gst_cf_region_props_init (GstCfRegionProps * props)
{
  memset (props, 0, sizeof (*props));
  props->gate_max = GATE_MAX;
}

void
gst_cf_region_props_set (GstCfRegionProps * props, guint id,
    const GValue * value)
{
  const gchar *type;

  switch (id) {
    case ROI_X:
      props->x = g_value_get_int (value);
      break;
    case ROI_Y:
      props->y = g_value_get_int (value);
      break;
    case ROI_WIDTH:
      props->width = g_value_get_int (value);
      break;
    case ROI_HEIGHT:
      props->height = g_value_get_int (value);
      break;
    case ROI_META:
      props->meta = g_value_get_boolean (value);
      break;
    case ROI_META_TYPE:
      type = g_value_get_string (value);
      props->meta_type = type && *type ? g_quark_from_string (type) : 0;
      break;
    case GATE_MIN_ID:
      props->gate_min = g_value_get_uint (value);
      break;
    case GATE_MAX_ID:
      props->gate_max = g_value_get_uint (value);
      break;
    default:
      g_assert_not_reached ();
  }
}

void
gst_cf_region_props_get (const GstCfRegionProps * props, guint id,
    GValue * value)
{
  switch (id) {
    case ROI_X:
      g_value_set_int (value, props->x);
      break;
    case ROI_Y:
      g_value_set_int (value, props->y);
      break;
    case ROI_WIDTH:
      g_value_set_int (value, props->width);
      break;
    case ROI_HEIGHT:
      g_value_set_int (value, props->height);
      break;
    case ROI_META:
      g_value_set_boolean (value, props->meta);
      break;
    case ROI_META_TYPE:
      g_value_set_string (value, g_quark_to_string (props->meta_type));
      break;
    case GATE_MIN_ID:
      g_value_set_uint (value, props->gate_min);
      break;
    case GATE_MAX_ID:
      g_value_set_uint (value, props->gate_max);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* ------------------------------------------------------------------ */
/* A frame's regions                                                    */

/* Appends @x, @y, @w, @h clipped to @width x @height where not empty
 * (64-bit: a meta's unsigned size may be anything). */
static void
add_clipped (GArray * rects, gint64 x, gint64 y, gint64 w, gint64 h,
    gint width, gint height)
{
  gint64 x1 = MIN (x + w, width), y1 = MIN (y + h, height);
  GstVideoRectangle r;

  x = MAX (x, 0);
  y = MAX (y, 0);
  if (x1 <= x || y1 <= y)
    return;
  r.x = x;
  r.y = y;
  r.w = x1 - x;
  r.h = y1 - y;
  g_array_append_val (rects, r);
}

void
gst_cf_regions_collect (const GstCfRegionProps * props, GstBuffer * buf,
    const GstVideoInfo * info, GstCfFrameRegions * out)
{
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);

  if (!out->rects)
    out->rects = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  g_array_set_size (out->rects, 0);
  out->gate_min = props->gate_min;
  out->gate_max = props->gate_max;
  out->restricted = props->meta || props->x || props->y || props->width
      || props->height;
  if (!out->restricted)
    return;
  if (props->meta) {
    gpointer state = NULL;
    GstMeta *meta;

    while ((meta = gst_buffer_iterate_meta_filtered (buf, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
      GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;

      if (!props->meta_type || roi->roi_type == props->meta_type)
        add_clipped (out->rects, roi->x, roi->y, roi->w, roi->h, width, height);
    }
    return;
  }
  add_clipped (out->rects, props->x, props->y,
      props->width ? props->width : (gint64) width - props->x,
      props->height ? props->height : (gint64) height - props->y, width,
      height);
}

void
gst_cf_frame_regions_clear (GstCfFrameRegions * regions)
{
  if (regions->rects)
    g_array_unref (regions->rects);
  regions->rects = NULL;
}

/* ------------------------------------------------------------------ */
/* Planes and rectangles                                                */

/* @r (frame pixels) on @view, a plane subsampled as it says, field @field
 * of @n_fields: scaled outward (a chroma sample is filtered where any of
 * its luma pixels is), then clipped. FALSE where nothing is left. */
static gboolean
view_rect (const GstVideoRectangle * r, const GstCudaFilterPlane * view,
    guint field, guint n_fields, GstVideoRectangle * out)
{
  gint x0 = r->x >> view->w_sub, y0 = r->y >> view->h_sub;
  gint x1 = (r->x + r->w + (1 << view->w_sub) - 1) >> view->w_sub;
  gint y1 = (r->y + r->h + (1 << view->h_sub) - 1) >> view->h_sub;

  /* the plane's rows field, field + 2... are the field's rows 0, 1... */
  if (n_fields == 2) {
    y0 = (y0 - (gint) field + 1) / 2;
    y1 = (y1 - (gint) field + 1) / 2;
  }
  x1 = MIN (x1, view->src.width);
  y1 = MIN (y1, view->src.height);
  out->x = x0;
  out->y = y0;
  out->w = x1 - x0;
  out->h = y1 - y0;
  return out->w > 0 && out->h > 0;
}

/* The part @r of @p. */
static CfPlane
sub_plane (const CfPlane * p, const GstVideoRectangle * r)
{
  CfPlane s = *p;
  gsize pixel = (gsize) p->channels * (p->depth > 8 ? 2 : 1);

  s.data = (guint8 *) p->data + (gsize) r->y * p->stride + r->x * pixel;
  s.width = r->w;
  s.height = r->h;
  return s;
}

/* Copies @r of @src into @dst. */
static CfStatus
copy_rect (const CfExec * exec, const CfPlane * dst, const CfPlane * src,
    const GstVideoRectangle * r)
{
  CfPlane d = sub_plane (dst, r), s = sub_plane (src, r);
  gsize row = (gsize) r->w * s.channels * (s.depth > 8 ? 2 : 1);

  if (r->w <= 0 || r->h <= 0)
    return CF_OK;
  if (exec->on_gpu)
    return cf_copy_2d_async (d.data, d.stride, s.data, s.stride, row, r->h,
        exec->stream);
  for (gint y = 0; y < r->h; y++)
    memcpy ((guint8 *) d.data + y * d.stride,
        (const guint8 *) s.data + y * s.stride, row);
  return CF_OK;
}

/* The gate of @view read from @gate_view; FALSE when it is open. */
static gboolean
make_gate (const GstCfFrameRegions * regions,
    const GstCudaFilterPlane * view, const GstCudaFilterPlane * gate_view,
    CfGate * gate)
{
  gate->plane = gate_view->src;
  gate->mask = gate_view->channel_mask & ~gate_view->chroma_mask;
  gate->x_shift = view->w_sub - gate_view->w_sub;
  gate->y_shift = view->h_sub - gate_view->h_sub;
  gate->min = regions->gate_min;
  gate->max = regions->gate_max;
  return !cf_gate_is_open (gate, cf_plane_max (&view->src));
}

/* @gate for the part of its plane at @r's origin. */
static CfGate
sub_gate (const CfGate * gate, const GstVideoRectangle * r)
{
  CfGate g = *gate;
  GstVideoRectangle at = { r->x << gate->x_shift, r->y << gate->y_shift,
    gate->plane.width - (r->x << gate->x_shift),
    gate->plane.height - (r->y << gate->y_shift)
  };

  g.plane = sub_plane (&gate->plane, &at);
  return g;
}

/* Filters @r of @view into @out (@view's dst, or a scratch plane of its
 * size): the element runs on @r grown by its reach, clipped to the plane.
 * What it writes beyond @r is the caller's to put back. */
static CfStatus
filter_rect (GstCudaFilter * self, gconstpointer params,
    const GstCudaFilterPlane * view, const CfGate * gate,
    const GstVideoRectangle * r, const CfPlane * out, const CfExec * exec)
{
  GstCudaFilterClass *klass = GST_CUDA_FILTER_GET_CLASS (self);
  GstCudaFilterPlane sub = *view;
  GstVideoRectangle g = { 0, 0, view->src.width, view->src.height };
  CfGate sg;

  if (klass->reach) {
    gint rx = 0, ry = 0;

    klass->reach (self, params, view, &rx, &ry);
    g.x = MAX (r->x - rx, 0);
    g.y = MAX (r->y - ry, 0);
    g.w = MIN ((gint64) r->x + r->w + rx, view->src.width) - g.x;
    g.h = MIN ((gint64) r->y + r->h + ry, view->src.height) - g.y;
  }
  sub.src = sub_plane (&view->src, &g);
  sub.dst = sub_plane (out, &g);
  sub.x = view->x + g.x;
  sub.y = view->y + g.y;
  if (gate) {
    sg = sub_gate (gate, &g);
    sub.gate = &sg;
  }
  return klass->filter_plane (self, params, &sub, exec);
}

/* Where @gate is closed within @r, @view's input comes back. */
static CfStatus
gate_rect (const GstCudaFilterPlane * view, const CfGate * gate,
    const GstVideoRectangle * r, const CfExec * exec)
{
  CfPlane s = sub_plane (&view->src, r), d = sub_plane (&view->dst, r);
  CfGate g = sub_gate (gate, r);

  return cf_gate_select (exec, &s, &d, &g);
}

/* @scratch, holding at least @view's plane. */
static CfStatus
scratch_reserve (GstCfRegionScratch * scratch, const CfPlane * like,
    const CfExec * exec, CfPlane * out)
{
  gsize row = (gsize) like->width * like->channels * (like->depth > 8 ? 2 : 1);
  CfStatus st = CF_OK;

  if (!scratch->data || scratch->row_bytes < row || scratch->rows < like->height
      || scratch->on_gpu != exec->on_gpu) {
    gsize want_row = MAX (row, scratch->row_bytes);
    gint want_rows = MAX (like->height, scratch->rows);

    gst_cf_region_scratch_free (scratch);
    scratch->on_gpu = exec->on_gpu;
    if (exec->on_gpu) {
      st = cf_device_alloc_2d (&scratch->data, &scratch->stride, want_row,
          want_rows);
    } else {
      scratch->data = g_malloc (want_row * want_rows);
      scratch->stride = want_row;
    }
    if (st != CF_OK)
      return st;
    scratch->row_bytes = want_row;
    scratch->rows = want_rows;
  }
  *out = *like;
  out->data = scratch->data;
  out->stride = scratch->stride;
  return CF_OK;
}

void
gst_cf_region_scratch_free (GstCfRegionScratch * scratch)
{
  if (scratch->on_gpu)
    cf_device_free (scratch->data);
  else
    g_free (scratch->data);
  memset (scratch, 0, sizeof (*scratch));
}

CfStatus
gst_cf_regions_filter (GstCudaFilter * self, gconstpointer params,
    const GstCfFrameRegions * regions, const GstCudaFilterPlane * view,
    const GstCudaFilterPlane * gate_view, guint field, guint n_fields,
    GstCfRegionScratch * scratch, const CfExec * exec)
{
  GstVideoRectangle whole = { 0, 0, view->src.width, view->src.height };
  GstVideoRectangle rects[2], r;
  const GstVideoRectangle *in = &whole;
  CfGate gate;
  gboolean gated = make_gate (regions, view, gate_view, &gate);
  const CfGate *g = gated ? &gate : NULL;
  /* the gate pass, unless the filter applies the gate itself (over the
   * rectangle it filters, which holds the region) */
  gboolean gate_pass = gated
      && !GST_CUDA_FILTER_GET_CLASS (self)->applies_gate;
  CfPlane tmp;
  CfStatus st = CF_OK;
  guint n = 0;

  /* an empty range (set while one bound is on its way): nothing passes */
  if (regions->gate_min > regions->gate_max)
    return copy_rect (exec, &view->dst, &view->src, &whole);
  if (regions->restricted) {
    for (guint i = 0; i < regions->rects->len && n < 2; i++)
      if (view_rect (&g_array_index (regions->rects, GstVideoRectangle, i),
              view, field, n_fields, &r))
        rects[n++] = r;
    if (n == 0)
      return copy_rect (exec, &view->dst, &view->src, &whole);
    in = rects;
  }
  if (n < 2) {
    /* one region (or the whole plane): filtered in place, the rest put
     * back */
    st = filter_rect (self, params, view, g, in, &view->dst, exec);
    if (st == CF_OK && n == 1)
      st = cf_copy_outside (exec, &view->src, &view->dst, in->x, in->y,
          in->w, in->h);
    if (st == CF_OK && gate_pass)
      st = gate_rect (view, g, in, exec);
    return st;
  }
  /* several: each through the scratch plane, copied out of it */
  st = copy_rect (exec, &view->dst, &view->src, &whole);
  if (st == CF_OK)
    st = scratch_reserve (scratch, &view->dst, exec, &tmp);
  for (guint i = 0; i < regions->rects->len && st == CF_OK; i++) {
    if (!view_rect (&g_array_index (regions->rects, GstVideoRectangle, i),
            view, field, n_fields, &r))
      continue;
    st = filter_rect (self, params, view, g, &r, &tmp, exec);
    if (st == CF_OK)
      st = copy_rect (exec, &view->dst, &tmp, &r);
    if (st == CF_OK && gate_pass)
      st = gate_rect (view, g, &r, exec);
  }
  return st;
}
