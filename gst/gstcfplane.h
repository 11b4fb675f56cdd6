/* Spatial parameters in the pixels of a subsampled plane, scaled the same
 * way by every element's filter_plane. */
#ifndef __GST_CF_PLANE_H__
#define __GST_CF_PLANE_H__

#include <glib.h>

G_BEGIN_DECLS
/* A radius on a plane subsampled by 2^@sub, rounded up so that a
 * subsampled plane (chroma) is filtered wherever the full one is. */
static inline gint
gst_cf_plane_radius (gint radius, guint sub)
{
  return (radius + (1 << sub) - 1) >> sub;
}

/* A spatial sigma and its radius (0: @default_radius of the scaled sigma)
 * on a plane subsampled by 2^@sub. */
static inline void
gst_cf_plane_axis (gdouble sigma, gint radius, guint sub,
    int (*default_radius) (double sigma), double *sigma_out, int *radius_out)
{
  *sigma_out = sigma / (1 << sub);
  *radius_out = radius > 0 ? gst_cf_plane_radius (radius, sub) :
      default_radius (*sigma_out);
}

G_END_DECLS
#endif /* __GST_CF_PLANE_H__ */
