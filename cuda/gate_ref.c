/* Plain-C reference of the value gate (gate.h), and what both paths check. */
#include "gate.h"
#include "cf_plane_access.h"

int
cf_gate_is_open (const CfGate * gate, unsigned full_scale)
{
  return gate->min == 0 && gate->max >= full_scale;
}

CfStatus
cf_gate_check (const CfPlane * src, const CfPlane * dst, const CfGate * gate)
{
  CfStatus st = cf_planes_check (src, dst);
  const CfPlane *g = &gate->plane;

  if (st != CF_OK)
    return st;
  if (!g->data || g->channels < 1 || g->channels > 4
      || g->depth != src->depth || gate->mask == 0
      || (gate->mask >> g->channels) != 0 || gate->x_shift < 0
      || gate->x_shift > 2 || gate->y_shift < 0 || gate->y_shift > 2
      || gate->min > gate->max)
    return CF_ERROR_INVALID;
  if (((src->width - 1) << gate->x_shift) >= g->width
      || ((src->height - 1) << gate->y_shift) >= g->height)
    return CF_ERROR_INVALID;
  return CF_OK;
}

CfStatus
cf_copy_outside_ref (const CfPlane * src, const CfPlane * dst, int x, int y,
    int w, int h)
{
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  for (int j = 0; j < src->height; j++)
    for (int i = 0; i < src->width; i++)
      if (i < x || i >= x + w || j < y || j >= y + h)
        for (int c = 0; c < src->channels; c++)
          cf_put_sample (dst, i, j, c, cf_get_sample (src, i, j, c));
  return CF_OK;
}

CfStatus
cf_gate_select_ref (const CfPlane * src, const CfPlane * dst,
    const CfGate * gate)
{
  CfStatus st = cf_gate_check (src, dst, gate);
  unsigned n = 0;

  if (st != CF_OK)
    return st;
  for (int c = 0; c < 4; c++)
    n += (gate->mask >> c) & 1;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      unsigned long sum = 0;
      for (int c = 0; c < gate->plane.channels; c++)
        if (gate->mask & (1u << c))
          sum += cf_get_sample (&gate->plane, x << gate->x_shift,
              y << gate->y_shift, c);
      if (sum >= (unsigned long) n * gate->min
          && sum <= (unsigned long) n * gate->max)
        continue;
      for (int c = 0; c < src->channels; c++)
        cf_put_sample (dst, x, y, c, cf_get_sample (src, x, y, c));
    }
  return CF_OK;
}
