/* What the variable box blur's kernel and reference share (satvar.h): a
 * pixel's strength and the blend of its boxes, in double with explicit
 * round-to-nearest operations on the device (no fused multiply-add), so
 * both paths compute the same bits. The blend's divisions are per pixel
 * (cf_satvar_weights), its per-channel part multiplications and
 * additions only. */
#ifndef CF_SATVAR_SHAPE_H
#define CF_SATVAR_SHAPE_H

#include "satvar.h"
#include "cf_border.h"

#include <math.h>
#include <stdint.h>

#ifdef __CUDA_ARCH__
#define CF_DMUL(a, b) __dmul_rn ((a), (b))
#define CF_DADD(a, b) __dadd_rn ((a), (b))
#define CF_DDIV(a, b) __ddiv_rn ((a), (b))
#else
#define CF_DMUL(a, b) ((a) * (b))
#define CF_DADD(a, b) ((a) + (b))
#define CF_DDIV(a, b) ((a) / (b))
#endif

CF_HD double
cf_satvar_clamp01 (double v)
{
  return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
}

/* Strength from a distance @d beyond the shape's edge. */
CF_HD double
cf_satvar_ramp (double d, double ramp)
{
  if (ramp <= 0.0)
    return d > 0.0 ? 1.0 : 0.0;
  return cf_satvar_clamp01 (d / ramp);
}

/* The strength of the focus shapes at plane pixel (x, y). */
CF_HD double
cf_satvar_shape_strength (const CfSatVarParams * p, int x, int y)
{
  double dx = CF_DADD ((double) (x << p->x_shift), -p->cx);
  double dy = CF_DADD ((double) (y << p->y_shift), -p->cy);
  double u = CF_DADD (CF_DMUL (dx, p->cos_a), CF_DMUL (dy, p->sin_a));
  double v = CF_DADD (CF_DMUL (dy, p->cos_a), -CF_DMUL (dx, p->sin_a));

  if (p->source == CF_SATVAR_BAND)
    return cf_satvar_ramp (CF_DADD (fabs (v), -p->half_h), p->ramp);
  if (p->source == CF_SATVAR_ELLIPSE) {
    double nu = u / p->half_w, nv = v / p->half_h;
    double e = sqrt (CF_DADD (CF_DMUL (nu, nu), CF_DMUL (nv, nv)));
    if (e <= 1.0)
      return 0.0;
    /* the distance beyond the edge along the ray from the centre */
    double r = sqrt (CF_DADD (CF_DMUL (u, u), CF_DMUL (v, v)));
    return cf_satvar_ramp (CF_DMUL (r, CF_DADD (1.0, -1.0 / e)), p->ramp);
  }
  return 1.0;
}

/* The strength of a radius map at plane pixel (x, y). */
CF_HD double
cf_satvar_map_strength (const CfSatVarParams * p, int x, int y)
{
  const unsigned char *row = (const unsigned char *) p->map.data +
      (size_t) (y << p->y_shift) * p->map.stride;
  unsigned v = p->map.depth > 8 ?
      ((const unsigned short *) row)[x << p->x_shift] : row[x << p->x_shift];
  unsigned full = p->map.max ? p->map.max : (1u << p->map.depth) - 1u;
  return v >= full ? 1.0 : (double) v / (double) full;
}

/* A box's output from its sum: (2 sum + n) / 2n, rounded half up in
 * integers, as cf_satblur's. */
CF_HD unsigned
cf_satvar_box_mean (uint64_t sum, int ax, int ay)
{
  uint64_t n = (uint64_t) (2 * ax + 1) * (uint64_t) (2 * ay + 1);
  return (unsigned) ((2 * sum + n) / (2 * n));
}

/* The weights of the boxes (ax + i, ay + j), i, j in {0, 1}, with the
 * radii's fractions fx, fy (not both 0), each divided by its box's count:
 * k[j][i] = w / n, once per pixel for all of its channels (0 for a box of
 * weight 0, which is not read). */
CF_HD void
cf_satvar_weights (int ax, int ay, double fx, double fy, double k[2][2])
{
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++) {
      double w = CF_DMUL (i ? fx : CF_DADD (1.0, -fx),
          j ? fy : CF_DADD (1.0, -fy));
      double n = (double) ((2 * (ax + i) + 1) * (2 * (ay + j) + 1));
      k[j][i] = w != 0.0 ? CF_DDIV (w, n) : 0.0;
    }
}

/* The blend of the boxes of sums sum[j][i] with the weights k of
 * cf_satvar_weights, rounded half up to a sample of at most @max. */
CF_HD unsigned
cf_satvar_blend (const uint64_t sum[2][2], const double k[2][2],
    unsigned max)
{
  double v = 0.0;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      if (k[j][i] != 0.0)
        v = CF_DADD (v, CF_DMUL (k[j][i], (double) sum[j][i]));
  v = floor (CF_DADD (v, 0.5));
  return v <= 0.0 ? 0u : (v >= (double) max ? max : (unsigned) v);
}

#endif /* CF_SATVAR_SHAPE_H */
