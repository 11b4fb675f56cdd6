#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfpinnedallocator.h"
#include "gstcfmempath.h"
#include "cf_runtime.h"

GST_DEBUG_CATEGORY_STATIC (gst_cf_pinned_allocator_debug);
#define GST_CAT_DEFAULT gst_cf_pinned_allocator_debug

struct _GstCfPinnedAllocator
{
  GstAllocator parent;
  GstCudaContext *context;
};

typedef struct
{
  GstMemory mem;
  guint8 *data;                 /* start of the whole (parent's) block */
} GstCfPinnedMemory;

G_DEFINE_TYPE (GstCfPinnedAllocator, gst_cf_pinned_allocator,
    GST_TYPE_ALLOCATOR);

static GstMemory *
pinned_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCfPinnedAllocator *self = GST_CF_PINNED_ALLOCATOR (allocator);
  /* cudaHostAlloc returns page-aligned memory: any align up to 4095 holds. */
  gsize maxsize = size + params->prefix + params->padding;
  gpointer data = NULL;
  CfStatus st;

  if (!gst_cuda_context_push (self->context))
    return NULL;
  st = cf_host_alloc_pinned (&data, maxsize);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK) {
    GST_ERROR_OBJECT (self, "pinned allocation of %" G_GSIZE_FORMAT
        " bytes failed: %s", maxsize, cf_last_error_string ());
    return NULL;
  }

  GstCfPinnedMemory *mem = g_new0 (GstCfPinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL,
      maxsize, params->align, params->prefix, size);
  mem->data = data;
  return GST_MEMORY_CAST (mem);
}

static void
pinned_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCfPinnedAllocator *self = GST_CF_PINNED_ALLOCATOR (allocator);
  GstCfPinnedMemory *mem = (GstCfPinnedMemory *) memory;

  if (!memory->parent) {
    gst_cuda_context_push (self->context);
    cf_host_free_pinned (mem->data);
    gst_cuda_context_pop (NULL);
  }
  g_free (mem);
}

static gpointer
pinned_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  return ((GstCfPinnedMemory *) memory)->data;
}

static void
pinned_unmap (GstMemory * memory)
{
}

static GstMemory *
pinned_share (GstMemory * memory, gssize offset, gssize size)
{
  GstMemory *parent = memory->parent ? memory->parent : memory;
  GstCfPinnedMemory *sub = g_new0 (GstCfPinnedMemory, 1);

  if (size == -1)
    size = memory->size - offset;
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, parent, memory->maxsize, memory->align,
      memory->offset + offset, size);
  sub->data = ((GstCfPinnedMemory *) memory)->data;
  return GST_MEMORY_CAST (sub);
}

static void
gst_cf_pinned_allocator_finalize (GObject * object)
{
  GstCfPinnedAllocator *self = GST_CF_PINNED_ALLOCATOR (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cf_pinned_allocator_parent_class)->finalize (object);
}

static void
gst_cf_pinned_allocator_class_init (GstCfPinnedAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = pinned_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = pinned_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cf_pinned_allocator_finalize;
  GST_DEBUG_CATEGORY_INIT (gst_cf_pinned_allocator_debug, "cfpinned", 0,
      "cudafilters pinned host memory");
}

static void
gst_cf_pinned_allocator_init (GstCfPinnedAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CF_PINNED_MEMORY_TYPE;
  alloc->mem_map = pinned_map;
  alloc->mem_unmap = pinned_unmap;
  alloc->mem_share = pinned_share;
}

GstAllocator *
gst_cf_pinned_allocator_new (GstCudaContext * context)
{
  GstCfPinnedAllocator *self =
      g_object_new (GST_TYPE_CF_PINNED_ALLOCATOR, NULL);

  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_is_cf_pinned_memory (GstMemory * mem)
{
  return mem && mem->allocator && GST_IS_CF_PINNED_ALLOCATOR (mem->allocator);
}

static gboolean
pinned_carries (GstCudaFilter * self, GstBuffer * buf)
{
  guint n = gst_buffer_n_memory (buf);

  for (guint i = 0; i < n; i++)
    if (!gst_is_cf_pinned_memory (gst_buffer_peek_memory (buf, i)))
      return FALSE;
  return n > 0;
}

/* Our own pools' page-locked memory: copies are DMA as it is. */
const GstCfMemPath gst_cf_pinned_path = {
  "pinned", FALSE, pinned_carries, gst_cf_map_host_frame, NULL
};
