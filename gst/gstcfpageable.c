/* Page-locking of recurring pageable input: see gstcfpageable.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfpageable.h"
#include "gstcfmempath.h"
#include "gstcfprivate.h"
#include "cf_runtime.h"

#define GST_CAT_DEFAULT gst_cuda_filter_debug

/* Page-locking of upstream's system memory, kept on the memory itself. */
typedef struct
{
  GstCudaContext *context;      /* the one that registered it; NULL: none */
  void *base;                   /* the registered block */
  gboolean tried;
} Registration;

static GQuark registration_quark;

void
gst_cf_pageable_init (void)
{
  registration_quark = g_quark_from_static_string ("cudafilter-pinned");
}

/* Runs when the memory is freed, before its block is. */
static void
registration_free (Registration * reg)
{
  if (reg->context && gst_cuda_context_push (reg->context)) {
    cf_host_unregister (reg->base);
    gst_cuda_context_pop (NULL);
  }
  gst_clear_object (&reg->context);
  g_free (reg);
}

/* Pages upstream did not lock go through the driver's staging copy, at a
 * fraction of the bus speed (docs/performance.md). Memory that comes back
 * (a pool's) is page-locked in place the second time it is seen, once, so
 * its later uploads are DMA; one-shot buffers are not worth the cost. Only
 * plain system memory, whose pointer stays put until it is freed. With the
 * context pushed. */
void
gst_cf_pin_recurring_memory (GstCudaFilter * self, GstBuffer * buf)
{
  GstCudaFilterPrivate *priv = PRIV (self);

  for (guint i = 0; i < gst_buffer_n_memory (buf); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);
    Registration *reg;
    GstMapInfo map;

    if (mem->parent || !gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM))
      continue;
    reg = gst_mini_object_get_qdata (GST_MINI_OBJECT (mem), registration_quark);
    if (!reg) {
      reg = g_new0 (Registration, 1);
      gst_mini_object_set_qdata (GST_MINI_OBJECT (mem), registration_quark,
          reg, (GDestroyNotify) registration_free);
      continue;
    }
    if (reg->tried || !gst_memory_map (mem, &map, GST_MAP_READ))
      continue;
    reg->tried = TRUE;
    /* undone in the context that did it: elements of other contexts may
     * see the same memory */
    if (cf_host_register (map.data - mem->offset, mem->maxsize) == CF_OK) {
      reg->base = map.data - mem->offset;
      reg->context = gst_object_ref (priv->context);
    }
    GST_DEBUG_OBJECT (self, "page-locking %" G_GSIZE_FORMAT " bytes at %p: %s",
        mem->maxsize, map.data - mem->offset,
        reg->base ? "done" : cf_last_error_string ());
    gst_memory_unmap (mem, &map);
  }
}

static gboolean
pageable_carries (GstCudaFilter * self, GstBuffer * buf)
{
  return TRUE;
}

/* Any memory a CPU can map: plain system memory, page-locked where it
 * recurs; another element's page-locked or hand-off memory as it maps. */
const GstCfMemPath gst_cf_pageable_path = {
  "system", FALSE, pageable_carries, gst_cf_map_host_frame,
  gst_cf_pin_recurring_memory
};
