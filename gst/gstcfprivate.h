/* GstCudaFilter's instance state, shared by the files of the base class
 * (gstcudafilter.c and the gstcf*.c it is split into). Not for elements. */
#ifndef __GST_CF_PRIVATE_H__
#define __GST_CF_PRIVATE_H__

#include "gstcudafilter.h"
#include "gstcfmempath.h"
#include "gstcfpacked.h"
#include "gstcfregions.h"
#include "gstcfsidepad.h"
#include "cf_runtime.h"

#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);

#define MAX_FRAMES_IN_FLIGHT 8

/* Device copies of one frame's planes, in and out. */
typedef struct
{
  void *in[GST_VIDEO_MAX_PLANES];
  void *out[GST_VIDEO_MAX_PLANES];
  size_t in_stride[GST_VIDEO_MAX_PLANES];
  size_t out_stride[GST_VIDEO_MAX_PLANES];
} DeviceFrame;

/* One frame in flight: its buffers (mapped until its work is done, since DMA
 * reads and writes them), the properties as they were when it arrived and,
 * on the GPU, its own planes, scratch and stream, so frames overlap. */
typedef struct
{
  GstBuffer *inbuf;
  GstBuffer *outbuf;
  GstVideoFrame in;
  GstVideoFrame out;
  gpointer params;
  CfBorder border;
  GstCfFrameRegions regions;    /* where it is filtered */
  gboolean failed;              /* its work failed: nothing to send */
  const GstCfMemPath *in_path;  /* how each buffer reaches the kernels */
  const GstCfMemPath *out_path;

  /* GPU: the stream from start(), the planes from set_info() */
  CfStream stream;
  CfScratch scratch;
  CfScratch packed;             /* a packed format's temporaries */
  DeviceFrame dev;
  /* several regions of interest: each is filtered into it first */
  GstCfRegionScratch region_scratch;
  /* a second stream on which the planes after the first are filtered
   * beside the first plane's work (gstcfslots.c), with their own scratch;
   * made at start with the slot's stream */
  CfStream planes_stream;
  CfScratch planes_scratch;
  GstCfRegionScratch planes_region_scratch;
  CfEvent planes_fork;          /* the frame's planes are on the device */
  CfEvent planes_join;          /* the later planes are filtered */

  /* the side frame paired with it (gstcfsidepad.h), mapped while in
   * flight; sidebuf NULL: none. On the GPU a side in host memory is
   * uploaded into side_dev (grown only). */
  GstBuffer *sidebuf;
  GstVideoFrame side;
  const GstCfMemPath *side_path;
  CfPlane side_plane;           /* as filter_plane gets it */
  void *side_dev;
  size_t side_dev_stride;
  gsize side_dev_row_bytes;
  gint side_dev_rows;
} Slot;

/* The previous output of a stateful filter (gstcfhistory.h), from
 * set_info () to stop (); the streaming thread's. */
typedef struct
{
  void *plane[2][GST_VIDEO_MAX_PLANES];
  size_t stride[2][GST_VIDEO_MAX_PLANES];
  void *map;                    /* a byte a pixel of plane 0 */
  size_t map_stride;
  guint last;                   /* plane[last] holds the last output */
  gboolean valid;               /* FALSE: the next frame restarts it */
  guint frames;                 /* frames filtered since it restarted */
  gboolean on_gpu;
  CfEvent done;                 /* GPU: the last frame's work is done */
} GstCfHistory;

typedef struct
{
  /* properties, under the object lock */
  gint device_id;
  GstCudaFilterBackend backend;
  CfBorder border;
  guint frames_in_flight;
  GstCfRegionProps regions;

  /* the second input, where the element has a side pad template */
  GstCfSidePad *side;

  /* streaming state, from start() to stop() */
  GstCudaContext *context;
  gboolean started;             /* under the object lock */
  gboolean use_gpu;
  GstAllocator *pinned;
  GstAllocator *handoff;        /* device memory for a cudafilters peer */
  guint n_slots;                /* frames-in-flight as read at start() */
  Slot slots[MAX_FRAMES_IN_FLIGHT];

  /* the queue (gstcfqueue.c), under queue_lock */
  GMutex queue_lock;
  GCond queue_cond;
  guint head;                   /* oldest frame in flight */
  guint pending;                /* frames in flight, in input order */
  GThread *output_thread;       /* with several frames in flight */
  gboolean output_running;
  gboolean output_busy;         /* sending a frame it took */
  gboolean discarding;          /* flushing: drop frames, send none */
  GstFlowReturn output_flow;    /* downstream's answer to the last push */

  /* per format, from set_info() */
  guint n_planes;
  GstCfPacking packing;         /* packed 4:2:2: how its plane is filtered */
  GstCudaFilterPlane planes[GST_VIDEO_MAX_PLANES];
  gsize row_bytes[GST_VIDEO_MAX_PLANES];
  gint rows[GST_VIDEO_MAX_PLANES];
  GstCfHistory history;

  /* the stats property, under the object lock: frames, their copies, and
   * the memory paths of the last frame (a change is logged) */
  guint64 frames;
  guint64 uploads;
  guint64 downloads;
  const GstCfMemPath *last_in_path;
  const GstCfMemPath *last_out_path;

  /* the element's parameters (its params struct), under the object lock */
  gpointer live_params;

  /* the properties as they were when the last frame arrived */
  gpointer params;
  CfBorder frame_border;
  GstCfRegionProps frame_regions;
} GstCudaFilterPrivate;

GstCudaFilterPrivate *gst_cuda_filter_get_priv (GstCudaFilter * self);
#define PRIV(self) gst_cuda_filter_get_priv (GST_CUDA_FILTER (self))

G_END_DECLS
#endif /* __GST_CF_PRIVATE_H__ */
