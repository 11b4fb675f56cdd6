/* CUDA memory (zero copy): see gstcfcudamemory.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfcudamemory.h"
#include "gstcfmempath.h"
#include "gstcfprivate.h"
#include "cf_runtime.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>

gboolean
gst_cf_is_cuda_caps (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

gboolean
gst_cf_cuda_device_present (void)
{
  static gsize present = 0;

  if (g_once_init_enter (&present))
    g_once_init_leave (&present, gst_cuda_load_library () &&
        cf_device_count () > 0 ? 2 : 1);
  return present == 2;
}

/* Whether the GPU can read or write @buf where it is: every memory of it
 * is CUDA memory. */
gboolean
gst_cf_is_cuda_buffer (GstBuffer * buf)
{
  guint n = gst_buffer_n_memory (buf);

  for (guint i = 0; i < n; i++)
    if (!gst_is_cuda_memory (gst_buffer_peek_memory (buf, i)))
      return FALSE;
  return n > 0;
}

/* Whether every memory of the CUDA buffer @buf is of @self's context:
 * device pointers of another context (another device, or a context an
 * application made apart) cannot be used from ours. */
static gboolean
of_our_context (GstCudaFilter * self, GstBuffer * buf)
{
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++)
    if (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buf, i))->context !=
        PRIV (self)->context)
      return FALSE;
  return TRUE;
}

/* A GstCudaMemory is pitched: without a GstVideoMeta, the planes of @buf
 * are where the allocator's info says, not where the caps would put them. */
static void
use_cuda_layout (GstVideoInfo * info, GstBuffer * buf)
{
  const GstVideoInfo *mem_info;

  if (gst_buffer_get_video_meta (buf) || gst_buffer_n_memory (buf) != 1)
    return;
  mem_info = &GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buf, 0))->info;
  if (GST_VIDEO_INFO_FORMAT (mem_info) != GST_VIDEO_INFO_FORMAT (info)
      || mem_info->width != info->width || mem_info->height != info->height)
    return;
  memcpy (info->offset, mem_info->offset, sizeof (info->offset));
  memcpy (info->stride, mem_info->stride, sizeof (info->stride));
  info->size = mem_info->size;
}

/* Maps a CUDA buffer with the layout of its memory. */
static gboolean
map_pitched (GstVideoFrame * frame, const GstVideoInfo * info,
    GstBuffer * buf, GstMapFlags flags)
{
  GstVideoInfo layout = *info;

  use_cuda_layout (&layout, buf);
  return gst_video_frame_map (frame, &layout, buf,
      flags | GST_VIDEO_FRAME_MAP_FLAG_NO_REF);
}

/* A CUDA buffer of the element's own context, its planes as device
 * pointers (1.22: no copy unless a CPU write is pending, no wait). */
static gboolean
cuda_memory_map (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags)
{
  return map_pitched (frame, info, buf, flags | GST_MAP_CUDA);
}

/* Another context's CUDA buffer, mapped for the CPU (GstCudaMemory
 * downloads it, in its own context) and uploaded by the slot. */
static gboolean
foreign_cuda_memory_map (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags)
{
  return map_pitched (frame, info, buf, flags);
}

static gboolean
foreign_cuda_memory_carries (GstCudaFilter * self, GstBuffer * buf)
{
  return gst_cf_is_cuda_buffer (buf) && !of_our_context (self, buf);
}

const GstCfMemPath gst_cf_foreign_cuda_memory_path = {
  "another context's CUDA (through host)", FALSE,
  foreign_cuda_memory_carries, foreign_cuda_memory_map, NULL
};

static gboolean
cuda_memory_carries (GstCudaFilter * self, GstBuffer * buf)
{
  return gst_cf_is_cuda_buffer (buf) && of_our_context (self, buf);
}

const GstCfMemPath gst_cf_cuda_memory_path = {
  "CUDA", TRUE, cuda_memory_carries, cuda_memory_map, NULL
};
