/* GstCudaFilter: the base class of every cudafilters element.
 *
 * It owns what the elements share: the CUDA context (shared with other CUDA
 * elements through GstContext), the backend choice, caps, pinned host
 * buffers or CUDA memory used where it is (zero copy), frames in flight
 * (each with its own CUDA stream and, for host memory, device planes, so
 * that upload, filtering and download of different frames overlap),
 * per-frame parameter snapshots and passthrough. An element only
 * describes its parameters and filters one plane at a time through the
 * cuda/ filter API.
 */
#ifndef __GST_CUDA_FILTER_H__
#define __GST_CUDA_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "cf_types.h"
#include "gate.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FILTER (gst_cuda_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaFilter, gst_cuda_filter, GST, CUDA_FILTER,
    GstVideoFilter);

typedef enum
{
  GST_CUDA_FILTER_BACKEND_AUTO,
  GST_CUDA_FILTER_BACKEND_CUDA,
  GST_CUDA_FILTER_BACKEND_CPU,
} GstCudaFilterBackend;

#define GST_TYPE_CUDA_FILTER_BACKEND (gst_cuda_filter_backend_get_type ())
GType gst_cuda_filter_backend_get_type (void);

#define GST_TYPE_CUDA_FILTER_BORDER (gst_cuda_filter_border_get_type ())
GType gst_cuda_filter_border_get_type (void);

/* One plane of a frame, as handed to GstCudaFilterClass::filter_plane. */
typedef struct
{
  CfPlane src;
  CfPlane dst;
  guint index;                  /* plane number in the frame */
  guint w_sub;                  /* log2 of the horizontal subsampling */
  guint h_sub;                  /* log2 of the vertical subsampling */
  guint channel_mask;           /* colour channels: not alpha, not padding */
  guint chroma_mask;            /* the YUV chroma channels among them */
  CfBorder border;
  /* stateful filters only (GstCudaFilterClass.stateful): this plane of the
   * previous output, where filter_plane is called (a frame that restarts
   * the history is copied instead), and a byte a pixel of plane 0 that the
   * planes of one frame share, planes in order (data NULL in a format of
   * one plane; a packed 4:2:2 frame's luma and chroma share one) */
  CfPlane prev;
  CfPlane map;
  guint history_frame;          /* stateful: frames filtered since the
                                 * history restarted, this one included */
  gint alpha_channel;           /* the alpha channel of the plane, or -1 */
  gint frame_width;             /* the frame's size, in its (luma) pixels */
  gint frame_height;
  gint x, y;                    /* where src and dst start in the plane: 0
                                 * but for a region of interest's view */
  /* The value gate of this plane (gate-min, gate-max), NULL when open. The
   * base class restores the input wherever it is closed after
   * filter_plane, so a filter may skip work where it is closed (whole
   * tiles of its last pass) but never needs to; unless the class sets
   * applies_gate, and filter_plane applies it itself. */
  const CfGate *gate;
  /* Elements with a side pad (gst_cuda_filter_class_add_side_pad): the
   * first plane of the side frame paired with this frame, whole, at the
   * frame's (luma) resolution, where the filter runs (device memory on
   * the GPU); a field of it for a field's view. data NULL: the frame has
   * none (see GstCudaFilterClass::side_use). Plane pixel (x, y) of a view
   * is side pixel ((x + this->x) << w_sub, (y + this->y) << h_sub). */
  CfPlane side;
} GstCudaFilterPlane;

/* @plane's side frame from its view's origin on: pixel (x, y) of the view
 * reads it at (x << w_sub, y << h_sub). data NULL where there is none. */
static inline CfPlane
gst_cuda_filter_plane_side (const GstCudaFilterPlane * plane)
{
  CfPlane s = plane->side;
  gint x = plane->x << plane->w_sub, y = plane->y << plane->h_sub;

  if (!s.data)
    return s;
  s.data = (guint8 *) s.data + (gsize) y * s.stride +
      (gsize) x * s.channels * cf_plane_bytes_per_sample (&s);
  s.width -= x;
  s.height -= y;
  return s;
}

/* How a frame uses the element's side stream (GstCudaFilterClass::side_use). */
typedef enum
{
  GST_CUDA_FILTER_SIDE_NONE,    /* not at all */
  GST_CUDA_FILTER_SIDE_WAIT,    /* the side frame of its time, waited for */
  GST_CUDA_FILTER_SIDE_LATEST,  /* the side frame of its time that has
                                 * arrived, never waited for */
} GstCudaFilterSideUse;

struct _GstCudaFilterClass
{
  GstVideoFilterClass parent_class;

  /* Size of the element's params struct: its parameters, installed with
   * gst_cuda_filter_class_install_param (). The base class keeps the live
   * values (under the object lock) and copies the whole struct once per
   * frame as it arrives, so properties can change while PLAYING; the frame
   * keeps its copy while it is in flight. */
  gsize params_size;

  /* TRUE for a filter whose output depends on its previous output (a
   * recursive temporal filter): the base class keeps that output where the
   * filter runs and hands it to filter_plane with the frame, keeps frames
   * in flight in strict order (each frame's filter waits for the previous
   * frame's work), and restarts the history (the frame passes through
   * unfiltered and becomes the history) at the first frame, after a flush,
   * at a DISCONT or GAP buffer, a new segment (a seek), a caps change, and
   * when passthrough ends. */
  gboolean stateful;

  /* TRUE when filter_plane applies GstCudaFilterPlane.gate itself: dst
   * gets src's pixel, bit for bit, wherever the gate is closed (what the
   * base class's gate pass, cf_gate_select, would give), on every path and
   * backend. The base class then runs no gate pass after it (cudabilateral
   * fuses the gate into its exact kernel). */
  gboolean applies_gate;

  /* TRUE when @params leave every frame unchanged: the element then goes
   * passthrough. */
  gboolean (*is_identity) (GstCudaFilter * self, gconstpointer params);

  /* Filters one plane, on the GPU or with the reference as @exec says.
   * On the GPU it only queues work on exec->stream (one per frame in
   * flight, with its own scratch) and never synchronises. */
  CfStatus (*filter_plane) (GstCudaFilter * self, gconstpointer params,
      const GstCudaFilterPlane * plane, const CfExec * exec);

  /* How far from a pixel, in pixels of @plane, the filter reads for
   * @params (all of its passes together): with a region of interest the
   * base class filters only the region grown by it, so that every pixel of
   * the region comes out as filtering the whole plane gives. NULL: the
   * whole plane is filtered and the region copied out of it. */
  void (*reach) (GstCudaFilter * self, gconstpointer params,
      const GstCudaFilterPlane * plane, gint * reach_x, gint * reach_y);

  /* Elements with a side pad: whether and how the frame of @params uses
   * the side stream (gstcfsidepad.h: pairing by running time, EOS,
   * flushes). NULL: never. */
  GstCudaFilterSideUse (*side_use) (GstCudaFilter * self,
      gconstpointer params);
};

/* Adds the pad templates (the same on both pads: the formats every element
 * supports in system memory, then in CUDA memory (those GStreamer 1.22's
 * CUDA allocator knows), then alternate fields in system memory), the
 * shared docs types; for class_init. */
void gst_cuda_filter_class_add_pad_templates (GstElementClass * klass);

/* Adds a request sink pad template @name (e.g. "radius_sink") for a
 * second input stream of the frame's size in system memory, of the
 * formats @formats (a caps list, e.g. "{ GRAY8, GRAY16_LE }"; NULL: every
 * planar format of the frames), which filter_plane gets as
 * GstCudaFilterPlane.side where side_use asks for it (gstcfsidepad.h).
 * For class_init. */
void gst_cuda_filter_class_add_side_pad (GstElementClass * klass,
    const gchar * name, const gchar * formats);

/* Installs @pspec (taken) as property @prop_id of the element whose value
 * is the field at @offset (G_STRUCT_OFFSET) of its params struct: the base
 * class sets and gets it under the object lock, starts it at the pspec's
 * default and hands the struct to is_identity and filter_plane. Value
 * types: gboolean, gint, guint, gdouble and enums (an int-sized field).
 * An element with side logic on a parameter overrides set_property for it
 * and chains up with the value to store. For class_init. */
void gst_cuda_filter_class_install_param (GstCudaFilterClass * klass,
    guint prop_id, gsize offset, GParamSpec * pspec);

/* For parameters install_param cannot hold (arrays; gstcfarrayparam.c):
 * the element's live params struct, with the object lock taken, for its
 * set_property and get_property to write or read such a field, which the
 * next frame's snapshot then carries. Needs one installed parameter. */
gpointer gst_cuda_filter_lock_params (GstCudaFilter * self);
void gst_cuda_filter_unlock_params (GstCudaFilter * self);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_H__ */
