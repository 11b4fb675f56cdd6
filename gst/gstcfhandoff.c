/* The hand-off between cudafilters elements: see gstcfhandoff.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfhandoff.h"
#include "gstcfdevicememory.h"
#include "gstcfmempath.h"
#include "gstcfprivate.h"

#include <gst/cuda/gstcudamemory.h>

/* Row starts of every plane on 256 bytes: the kernels' wide loads and
 * stores want them aligned (they fall back, slower, where they are not). */
#define HANDOFF_STRIDE_ALIGN 255

void
gst_cf_handoff_offer (GstCudaFilter * self, GstQuery * query)
{
  gst_query_add_allocation_param (query, PRIV (self)->handoff, NULL);
}

gboolean
gst_cf_handoff_offered (GstCudaFilter * self, GstQuery * query)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    return FALSE;
  for (guint i = 0; i < gst_query_get_n_allocation_params (query); i++) {
    GstAllocator *allocator = NULL;
    gboolean ours;

    gst_query_parse_nth_allocation_param (query, i, &allocator, NULL);
    ours = gst_cf_is_device_allocator (allocator, priv->context);
    gst_clear_object (&allocator);
    if (ours)
      return TRUE;
  }
  return FALSE;
}

GstBufferPool *
gst_cf_handoff_pool_new (GstCudaFilter * self, GstCaps * caps, guint min,
    guint max, guint * size)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoAlignment align;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    gst_structure_free (config);
    gst_object_unref (pool);
    return NULL;
  }
  gst_video_alignment_reset (&align);
  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    align.stride_align[p] = HANDOFF_STRIDE_ALIGN;
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_set_allocator (config, PRIV (self)->handoff, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

static gboolean
handoff_carries (GstCudaFilter * self, GstBuffer * buf)
{
  return gst_cf_is_device_buffer (buf, PRIV (self)->context);
}

/* The pool's GstVideoMeta gives the padded strides. */
static gboolean
handoff_map (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags)
{
  return gst_video_frame_map (frame, info, buf,
      flags | GST_MAP_CUDA | GST_VIDEO_FRAME_MAP_FLAG_NO_REF);
}

const GstCfMemPath gst_cf_device_memory_path = {
  "cudafilters device", TRUE, handoff_carries, handoff_map, NULL
};

static gboolean
foreign_handoff_carries (GstCudaFilter * self, GstBuffer * buf)
{
  return gst_cf_is_device_buffer (buf, NULL);
}

/* Another context's hand-off memory (an element on another device): mapped
 * for the CPU (it downloads itself) and uploaded by the slot. */
const GstCfMemPath gst_cf_foreign_device_memory_path = {
  "another context's cudafilters device (through host)", FALSE,
  foreign_handoff_carries, gst_cf_map_host_frame, NULL
};
