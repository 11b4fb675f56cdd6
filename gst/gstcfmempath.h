/* Memory paths (internal to the base class): how the frames of one kind of
 * memory reach the kernels. The slots ask for the path of each buffer they
 * take, in and out, and never look at memory types themselves; a new kind
 * of memory is a new path in a file of its own and a line in the table of
 * gstcfmempath.c.
 *
 * A path on the device maps a buffer's planes as device pointers: the
 * kernels read or write them where they are. A host path maps them as
 * host pointers, and the slot copies them to or from its device planes on
 * its stream. */
#ifndef __GST_CF_MEM_PATH_H__
#define __GST_CF_MEM_PATH_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS typedef struct
{
  const gchar *name;            /* for the debug log and the stats */
  gboolean on_device;
  /* Whether the path carries @buf (the element runs on the GPU). */
    gboolean (*carries) (GstCudaFilter * self, GstBuffer * buf);
  /* Maps @buf as a frame of @info; may post an element error. */
    gboolean (*map) (GstCudaFilter * self, GstVideoFrame * frame,
      const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags);
  /* Before an input buffer's upload, with the context pushed; or NULL. */
  void (*prepare_upload) (GstCudaFilter * self, GstBuffer * buf);
} GstCfMemPath;

/* The paths, each in its own file. */
extern const GstCfMemPath gst_cf_cuda_memory_path;      /* gstcfcudamemory.c */
extern const GstCfMemPath gst_cf_foreign_cuda_memory_path;
extern const GstCfMemPath gst_cf_device_memory_path;    /* gstcfhandoff.c */
extern const GstCfMemPath gst_cf_foreign_device_memory_path;
extern const GstCfMemPath gst_cf_pinned_path;   /* gstcfpinnedallocator.c */
extern const GstCfMemPath gst_cf_pageable_path; /* gstcfpageable.c */

/* The path of @buf: on the GPU the first that carries it (the pageable
 * path carries any); on the CPU the pageable path, whose map is the CPU's. */
const GstCfMemPath *gst_cf_mem_path_for (GstCudaFilter * self, GstBuffer * buf);

/* Maps @buf as a host frame: any memory a CPU can map. */
gboolean gst_cf_map_host_frame (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags);

G_END_DECLS
#endif /* __GST_CF_MEM_PATH_H__ */
