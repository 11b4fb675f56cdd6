/* Sample access shared by the plain-C references. */
#ifndef CF_PLANE_ACCESS_H
#define CF_PLANE_ACCESS_H

#include "cf_types.h"

static inline unsigned
cf_get_sample (const CfPlane * p, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) p->data + (size_t) y * p->stride;
  if (p->depth > 8)
    return ((const uint16_t *) row)[(size_t) x * p->channels + c];
  return row[(size_t) x * p->channels + c];
}

static inline void
cf_put_sample (const CfPlane * p, int x, int y, int c, unsigned v)
{
  unsigned char *row = (unsigned char *) p->data + (size_t) y * p->stride;
  if (p->depth > 8)
    ((uint16_t *) row)[(size_t) x * p->channels + c] = (uint16_t) v;
  else
    row[(size_t) x * p->channels + c] = (unsigned char) v;
}

/* Rounds to nearest and clamps to the plane's range. */
static inline unsigned
cf_round_clamp (double v, int depth)
{
  double max = depth > 8 ? 65535.0 : 255.0;
  if (!(v > 0.0))
    return 0;
  if (v >= max)
    return (unsigned) max;
  return (unsigned) (v + 0.5);
}

/* Rounds to nearest and clamps to 0..@max (a plane's cf_plane_max). */
static inline unsigned
cf_round_clamp_to (double v, unsigned max)
{
  if (!(v > 0.0))
    return 0;
  if (v >= (double) max)
    return max;
  return (unsigned) (v + 0.5);
}

/* Copies the channels outside `mask` from src to dst. */
static inline void
cf_copy_unmasked (const CfPlane * src, const CfPlane * dst, unsigned mask)
{
  for (int c = 0; c < src->channels; c++) {
    if (mask & (1u << c))
      continue;
    for (int y = 0; y < src->height; y++)
      for (int x = 0; x < src->width; x++)
        cf_put_sample (dst, x, y, c, cf_get_sample (src, x, y, c));
  }
}

#endif /* CF_PLANE_ACCESS_H */
