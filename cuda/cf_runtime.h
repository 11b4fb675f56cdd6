/* cudafilters: the few CUDA runtime services the GStreamer side needs, so
 * that gst/ never includes a CUDA runtime header. Every call works on the
 * CUDA context current on the calling thread (the element pushes its
 * GstCudaContext first). */
#ifndef CF_RUNTIME_H
#define CF_RUNTIME_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 without a driver or a device. */
int cf_device_count (void);

/* A non-blocking stream of the current context (never the legacy one). */
CfStatus cf_stream_create (CfStream * stream);
void cf_stream_destroy (CfStream stream);
CfStatus cf_stream_synchronize (CfStream stream);

/* An event (no timing) to order work across streams: wait_event makes
 * @stream wait for the work queued before the event's last record. */
typedef struct CUevent_st *CfEvent;
CfStatus cf_event_create (CfEvent * event);
void cf_event_destroy (CfEvent event);
CfStatus cf_event_record (CfEvent event, CfStream stream);
CfStatus cf_stream_wait_event (CfStream stream, CfEvent event);

/* Device memory for a plane; *stride receives the pitch chosen. */
CfStatus cf_device_alloc_2d (void **ptr, size_t * stride, size_t row_bytes,
    int rows);
CfStatus cf_device_alloc (void **ptr, size_t bytes);
void cf_device_free (void *ptr);

/* Page-locked host memory, portable across contexts. */
CfStatus cf_host_alloc_pinned (void **ptr, size_t bytes);
void cf_host_free_pinned (void *ptr);

/* Page-locks existing host memory, portable across contexts, so that
 * copies from it are asynchronous DMA at full speed; fails on memory that
 * is already page-locked. cf_host_unregister undoes it. */
CfStatus cf_host_register (void *ptr, size_t bytes);
void cf_host_unregister (void *ptr);

/* Asynchronous copy of `rows` rows of `row_bytes` bytes, in any direction
 * (the unified address space tells host from device). */
CfStatus cf_copy_2d_async (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row_bytes, int rows, CfStream stream);

/* Grows scratch to at least `bytes` (never shrinks). */
CfStatus cf_scratch_reserve (CfScratch * scratch, size_t bytes);
void cf_scratch_release (CfScratch * scratch);

/* Text of the last CUDA error seen by this thread, for messages. */
const char *cf_last_error_string (void);

#ifdef __cplusplus
}
#endif
#endif /* CF_RUNTIME_H */
