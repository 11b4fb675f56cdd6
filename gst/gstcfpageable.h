/* Page-locking of upstream's recurring pageable system memory, in place
 * (internal to the base class). */
#ifndef __GST_CF_PAGEABLE_H__
#define __GST_CF_PAGEABLE_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

/* Once, before the first gst_cf_pin_recurring_memory (class_init). */
void gst_cf_pageable_init (void);

/* Page-locks @buf's plain system memory the second time it is seen, once;
 * unregistered when the memory is freed. With the context pushed. */
void gst_cf_pin_recurring_memory (GstCudaFilter * self, GstBuffer * buf);

G_END_DECLS

#endif /* __GST_CF_PAGEABLE_H__ */
