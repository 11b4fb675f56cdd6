/* Packed 4:2:2 formats (YUY2, UYVY, YVYU, v210): how a frame of one goes
 * through an element's filter_plane, which filters planes. Shared by the
 * files of the base class; not for elements.
 *
 * The 8-bit ones need no unpacking: luma is filtered as a plane of 2-byte
 * pixels whose Y channel is filtered into a temporary frame that copies
 * the chroma bytes; chroma then as a plane of 4-byte pixels (two pixels'
 * Y, U, Y, V) whose U and V channels are filtered on the half-width grid,
 * as an interleaved UV plane (NV16) is, from that temporary into the
 * output, which copies the filtered Y bytes. So no pass reads what another
 * has written in the frame it filters, even in place. v210 is unpacked
 * into 10-bit luma and chroma planes (cuda/v210.h), filtered into others,
 * and packed back. Luma goes first in both, so that a stateful filter's
 * luma writes the map that steers its chroma; its previous output is the
 * packed plane viewed as the frame is (8-bit) or unpacked beside it
 * (v210). */
#ifndef __GST_CF_PACKED_H__
#define __GST_CF_PACKED_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS typedef enum
{
  GST_CF_PACKED_NONE,           /* not a packed 4:2:2 format */
  GST_CF_PACKED_8BIT,           /* YUY2, UYVY, YVYU */
  GST_CF_PACKED_V210,
} GstCfPackedKind;

typedef struct
{
  GstCfPackedKind kind;
  gint width;                   /* pixels */
  gint height;                  /* rows of the frame */
  guint y_channel;              /* 8-bit: Y's byte in a 2-byte pixel */
  guint uv_mask;                /* 8-bit: U's and V's bytes of a 4-byte pair */
} GstCfPacking;

/* Describes @info's format in @packing; for a packed 4:2:2 format also its
 * one plane in @pl and what a copy of it moves, as
 * gst_cf_formats_describe_plane () does for the others, and returns TRUE. */
gboolean gst_cf_packed_describe (const GstVideoInfo * info,
    GstCfPacking * packing, GstCudaFilterPlane * pl, gsize * row_bytes,
    gint * rows);

/* Filters @part, a plane of a packed frame (its luma or its chroma), as
 * @data says; @luma is the frame's luma part, whose src holds the values
 * a gate reads. */
typedef CfStatus (*GstCfPartFilter) (GstCudaFilter * self, gpointer data,
    const GstCudaFilterPlane * part, const GstCudaFilterPlane * luma,
    const CfExec * exec);

/* Filters @view (the packed plane or one field of it: its src and dst
 * data, stride and height set) part by part with @filter. On the GPU the
 * temporaries live in @temp (device memory that only grows, one per frame
 * in flight; cf_scratch_release frees it), on the CPU they are made for
 * the call. */
CfStatus gst_cf_packed_filter (const GstCfPacking * packing,
    GstCudaFilter * self, const GstCudaFilterPlane * view, CfScratch * temp,
    const CfExec * exec, GstCfPartFilter filter, gpointer data);

G_END_DECLS
#endif /* __GST_CF_PACKED_H__ */
