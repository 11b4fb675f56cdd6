/* Memory paths: see gstcfmempath.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfmempath.h"
#include "gstcfprivate.h"

/* In the order they are tried: the device paths first, pageable memory
 * (any system memory) last. */
static const GstCfMemPath *const gpu_paths[] = {
  &gst_cf_cuda_memory_path,
  &gst_cf_foreign_cuda_memory_path,
  &gst_cf_device_memory_path,
  &gst_cf_foreign_device_memory_path,
  &gst_cf_pinned_path,
  &gst_cf_pageable_path,
};

gboolean
gst_cf_map_host_frame (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags)
{
  return gst_video_frame_map (frame, info, buf,
      flags | GST_VIDEO_FRAME_MAP_FLAG_NO_REF);
}

const GstCfMemPath *
gst_cf_mem_path_for (GstCudaFilter * self, GstBuffer * buf)
{
  /* On the CPU every memory is mapped as the CPU maps it (hand-off memory
   * downloads itself); nothing is uploaded, so nothing is page-locked. */
  if (!PRIV (self)->use_gpu)
    return &gst_cf_pageable_path;
  for (guint i = 0; i < G_N_ELEMENTS (gpu_paths); i++)
    if (gpu_paths[i]->carries (self, buf))
      return gpu_paths[i];
  g_assert_not_reached ();
  return NULL;
}
