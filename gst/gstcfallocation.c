/* Buffer pools: see gstcfallocation.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfallocation.h"
#include "gstcfcudamemory.h"
#include "gstcfhandoff.h"
#include "gstcfprivate.h"

#include <gst/cuda/gstcudabufferpool.h>

/* Configures @pool for @caps' frames: pinned host memory for system-memory
 * caps; a GstCudaBufferPool lays its frames out itself (pitched device
 * memory of its context), so *size, a buffer's size, is read back. */
static gboolean
configure_pool (GstCudaFilter * self, GstBufferPool * pool, GstCaps * caps,
    guint min, guint max, guint * size)
{
  GstVideoInfo info;
  GstStructure *config;

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  if (!GST_IS_CUDA_BUFFER_POOL (pool))
    gst_buffer_pool_config_set_allocator (config, PRIV (self)->pinned, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return TRUE;
}

static GstBufferPool *
new_pool (GstCudaFilter * self, GstCaps * caps, guint min, guint max,
    guint * size)
{
  GstBufferPool *pool = gst_cf_is_cuda_caps (caps) ?
      gst_cuda_buffer_pool_new (PRIV (self)->context) :
      gst_video_buffer_pool_new ();

  if (!configure_pool (self, pool, caps, min, max, size))
    gst_clear_object (&pool);
  return pool;
}

static void
set_first_allocation_param (GstQuery * query, GstAllocator * allocator)
{
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, allocator, NULL);
  else
    gst_query_add_allocation_param (query, allocator, NULL);
}

/* Downstream's pool when it holds device memory of our context and lets
 * itself be configured; NULL otherwise. Takes @pool. */
static GstBufferPool *
usable_cuda_pool (GstCudaFilter * self, GstBufferPool * pool, GstCaps * caps,
    guint min, guint max, guint * size)
{
  if (pool && GST_IS_CUDA_BUFFER_POOL (pool)
      && GST_CUDA_BUFFER_POOL (pool)->context == PRIV (self)->context
      && configure_pool (self, pool, caps, min, max, size))
    return pool;
  gst_clear_object (&pool);
  return NULL;
}

gboolean
gst_cf_propose_allocation (GstCudaFilter * self, GstQuery * query)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool;
  GstCaps *caps;
  guint size;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  /* Producers take the pinned pool; a cudafilters element upstream finds
   * the hand-off allocator after it and writes device memory instead. */
  if (!gst_cf_is_cuda_caps (caps)) {
    gst_query_add_allocation_param (query, priv->pinned, NULL);
    gst_cf_handoff_offer (self, query);
  }
  /* Every frame in flight holds its input buffer, plus one being filled. */
  pool = new_pool (self, caps, priv->n_slots + 1, 0, &size);
  if (!pool)
    return FALSE;
  GST_INFO_OBJECT (self, "sink pad: proposing a %s pool%s",
      gst_cf_is_cuda_caps (caps) ? "CUDA memory" : "pinned memory",
      gst_cf_is_cuda_caps (caps) ? "" : " and hand-off device memory");
  gst_query_add_allocation_pool (query, pool, size, priv->n_slots + 1, 0);
  gst_object_unref (pool);
  return TRUE;
}

gboolean
gst_cf_decide_allocation (GstCudaFilter * self, GstQuery * query)
{
  GstCudaFilterPrivate *priv = PRIV (self);
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint size, min = 0, max = 0;
  gboolean handoff = FALSE;
  const gchar *why;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* Every frame in flight holds its output buffer, plus downstream's. */
  min = MAX (min, 1) + priv->n_slots;
  if (max && max < min)
    max = min;
  /* Only a CUDA pool of downstream's is worth taking: a system-memory one
   * would not be pinned. */
  if (gst_cf_is_cuda_caps (caps)) {
    pool = usable_cuda_pool (self, pool, caps, min, max, &size);
    why = pool ? "downstream's CUDA pool" : "CUDA memory, our own pool";
  } else {
    gst_clear_object (&pool);
    if (gst_cf_handoff_offered (self, query))
      pool = gst_cf_handoff_pool_new (self, caps, min, max, &size);
    handoff = pool != NULL;
    why = handoff ? "device memory: downstream is a cudafilters element on our "
        "context" : "pinned memory: downstream takes no cudafilters hand-off";
  }
  if (!pool)
    pool = new_pool (self, caps, min, max, &size);
  if (!pool)
    return FALSE;
  GST_INFO_OBJECT (self, "src pad: %s", why);
  if (!gst_cf_is_cuda_caps (caps))
    set_first_allocation_param (query, handoff ? priv->handoff : priv->pinned);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
