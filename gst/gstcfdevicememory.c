/* Hand-off memory: see gstcfdevicememory.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfdevicememory.h"
#include "cf_runtime.h"

#include <gst/cuda/gstcudamemory.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cf_device_memory_debug);
#define GST_CAT_DEFAULT gst_cf_device_memory_debug

struct _GstCfDeviceAllocator
{
  GstAllocator parent;
  GstCudaContext *context;
  CfStream stream;              /* for the copies a CPU map needs */
  gint map_downloads;           /* atomic */
  gint map_uploads;             /* atomic */
};

typedef struct
{
  GstMemory mem;
  void *dev;
  guint8 *host;                 /* page-locked copy; NULL until a CPU map */
  gboolean device_valid;        /* holds the current pixels */
  gboolean host_valid;
  GMutex lock;                  /* maps of several threads */
} GstCfDeviceMemory;

G_DEFINE_TYPE (GstCfDeviceAllocator, gst_cf_device_allocator,
    GST_TYPE_ALLOCATOR);

static GstMemory *
device_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCfDeviceAllocator *self = GST_CF_DEVICE_ALLOCATOR (allocator);
  gsize maxsize = size + params->prefix + params->padding;
  GstCfDeviceMemory *mem;
  void *dev = NULL;
  CfStatus st;

  /* cudaMalloc aligns to 256 bytes: any align GStreamer asks for holds */
  if (!gst_cuda_context_push (self->context))
    return NULL;
  st = cf_device_alloc (&dev, maxsize);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK) {
    GST_ERROR_OBJECT (self, "device allocation of %" G_GSIZE_FORMAT
        " bytes failed: %s", maxsize, cf_last_error_string ());
    return NULL;
  }
  mem = g_new0 (GstCfDeviceMemory, 1);
  /* no sub-memory: a copy of part of a buffer goes through the host */
  gst_memory_init (GST_MEMORY_CAST (mem),
      params->flags | GST_MEMORY_FLAG_NO_SHARE, allocator, NULL, maxsize,
      params->align, params->prefix, size);
  mem->dev = dev;
  mem->device_valid = TRUE;
  g_mutex_init (&mem->lock);
  return GST_MEMORY_CAST (mem);
}

static void
device_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCfDeviceAllocator *self = GST_CF_DEVICE_ALLOCATOR (allocator);
  GstCfDeviceMemory *mem = (GstCfDeviceMemory *) memory;

  if (gst_cuda_context_push (self->context)) {
    cf_device_free (mem->dev);
    cf_host_free_pinned (mem->host);
    gst_cuda_context_pop (NULL);
  }
  g_mutex_clear (&mem->lock);
  g_free (mem);
}

/* A whole-block copy on the allocator's stream, waited for. */
static gboolean
copy_now (GstCfDeviceAllocator * self, void *dst, const void *src, gsize size)
{
  CfStatus st;

  if (!gst_cuda_context_push (self->context))
    return FALSE;
  st = cf_copy_2d_async (dst, size, src, size, size, 1, self->stream);
  if (st == CF_OK)
    st = cf_stream_synchronize (self->stream);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK)
    GST_ERROR_OBJECT (self, "copy of %" G_GSIZE_FORMAT " bytes failed: %s",
        size, cf_last_error_string ());
  return st == CF_OK;
}

/* The side asked for, made current first; a write makes the other stale. */
static gpointer
device_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  GstCfDeviceAllocator *self = GST_CF_DEVICE_ALLOCATOR (memory->allocator);
  GstCfDeviceMemory *mem = (GstCfDeviceMemory *) memory;
  gpointer data = NULL;

  g_mutex_lock (&mem->lock);
  if (flags & GST_MAP_CUDA) {
    if (!mem->device_valid
        && copy_now (self, mem->dev, mem->host, memory->maxsize)) {
      mem->device_valid = TRUE;
      g_atomic_int_inc (&self->map_uploads);
      GST_LOG_OBJECT (self, "upload for a device map of %p", memory);
    }
    if (mem->device_valid)
      data = mem->dev;
    if (data && (flags & GST_MAP_WRITE))
      mem->host_valid = FALSE;
  } else {
    if (!mem->host && !gst_cuda_context_push (self->context))
      goto out;
    if (!mem->host) {
      if (cf_host_alloc_pinned ((void **) &mem->host, memory->maxsize) != CF_OK)
        mem->host = NULL;
      gst_cuda_context_pop (NULL);
    }
    if (mem->host && !mem->host_valid
        && copy_now (self, mem->host, mem->dev, memory->maxsize)) {
      mem->host_valid = TRUE;
      g_atomic_int_inc (&self->map_downloads);
      GST_LOG_OBJECT (self, "download for a CPU map of %p", memory);
    }
    if (mem->host_valid)
      data = mem->host;
    if (data && (flags & GST_MAP_WRITE))
      mem->device_valid = FALSE;
  }
out:
  g_mutex_unlock (&mem->lock);
  return data;
}

static void
device_unmap (GstMemory * memory)
{
}

/* A deep copy is system memory: whoever copies means to touch the pixels. */
static GstMemory *
device_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstMemory *copy = NULL;
  GstMapInfo from, to;

  if (size == -1)
    size = memory->size > (gsize) offset ? memory->size - offset : 0;
  if (!gst_memory_map (memory, &from, GST_MAP_READ))
    return NULL;
  copy = gst_allocator_alloc (NULL, size, NULL);
  if (copy && gst_memory_map (copy, &to, GST_MAP_WRITE)) {
    memcpy (to.data, from.data + offset, size);
    gst_memory_unmap (copy, &to);
  }
  gst_memory_unmap (memory, &from);
  return copy;
}

static GstMemory *
device_share (GstMemory * memory, gssize offset, gssize size)
{
  return NULL;
}

static void
gst_cf_device_allocator_finalize (GObject * object)
{
  GstCfDeviceAllocator *self = GST_CF_DEVICE_ALLOCATOR (object);

  if (self->stream && gst_cuda_context_push (self->context)) {
    cf_stream_destroy (self->stream);
    gst_cuda_context_pop (NULL);
  }
  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cf_device_allocator_parent_class)->finalize (object);
}

static void
gst_cf_device_allocator_class_init (GstCfDeviceAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = device_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = device_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cf_device_allocator_finalize;
  GST_DEBUG_CATEGORY_INIT (gst_cf_device_memory_debug, "cfdevicememory", 0,
      "cudafilters hand-off device memory");
}

static void
gst_cf_device_allocator_init (GstCfDeviceAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CF_DEVICE_MEMORY_TYPE;
  alloc->mem_map = device_map;
  alloc->mem_unmap = device_unmap;
  alloc->mem_copy = device_copy;
  alloc->mem_share = device_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cf_device_allocator_new (GstCudaContext * context)
{
  GstCfDeviceAllocator *self =
      g_object_new (GST_TYPE_CF_DEVICE_ALLOCATOR, NULL);
  CfStatus st = CF_ERROR_NO_DEVICE;

  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  if (gst_cuda_context_push (context)) {
    st = cf_stream_create (&self->stream);
    gst_cuda_context_pop (NULL);
  }
  if (st != CF_OK)
    gst_clear_object (&self);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_cf_is_device_allocator (GstAllocator * allocator, GstCudaContext * context)
{
  return allocator && GST_IS_CF_DEVICE_ALLOCATOR (allocator)
      && (!context || GST_CF_DEVICE_ALLOCATOR (allocator)->context == context);
}

gboolean
gst_cf_is_device_buffer (GstBuffer * buf, GstCudaContext * context)
{
  guint n = gst_buffer_n_memory (buf);

  for (guint i = 0; i < n; i++)
    if (!gst_cf_is_device_allocator (gst_buffer_peek_memory (buf, i)->allocator,
            context))
      return FALSE;
  return n > 0;
}

void
gst_cf_device_allocator_get_map_copies (GstAllocator * allocator,
    guint64 * downloads, guint64 * uploads)
{
  GstCfDeviceAllocator *self = GST_CF_DEVICE_ALLOCATOR (allocator);

  *downloads = (guint) g_atomic_int_get (&self->map_downloads);
  *uploads = (guint) g_atomic_int_get (&self->map_uploads);
}
