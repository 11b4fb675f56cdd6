/* What the variable box blur's kernels and reference share (satvar.h): a
 * pixel's strength, its radii and the blend of its boxes, in float with
 * explicit round-to-nearest operations on the device (fused multiply-add
 * only where written: CF_FFMA, fmaf on the host), so every path computes
 * the same bits. The blend's weights are per pixel (cf_satvar_weights),
 * its per-channel part fused multiply-adds only. */
#ifndef CF_SATVAR_SHAPE_H
#define CF_SATVAR_SHAPE_H

#include "satvar.h"
#include "cf_border.h"

#include <math.h>
#include <stdint.h>

#ifdef __CUDA_ARCH__
#define CF_FMUL(a, b) __fmul_rn ((a), (b))
#define CF_FADD(a, b) __fadd_rn ((a), (b))
#define CF_FDIV(a, b) __fdiv_rn ((a), (b))
#define CF_FFMA(a, b, c) __fmaf_rn ((a), (b), (c))
#define CF_FSQRT(a) __fsqrt_rn (a)
#define CF_FRCP(a) __frcp_rn (a)
#else
#define CF_FMUL(a, b) ((a) * (b))
#define CF_FADD(a, b) ((a) + (b))
#define CF_FDIV(a, b) ((a) / (b))
#define CF_FFMA(a, b, c) fmaf ((a), (b), (c))
#define CF_FSQRT(a) sqrtf (a)
#define CF_FRCP(a) (1.0f / (a))
#endif

CF_HD float
cf_satvar_clamp01 (float v)
{
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

/* Strength from a distance @d beyond the shape's edge. */
CF_HD float
cf_satvar_ramp (float d, float ramp)
{
  if (ramp <= 0.0f)
    return d > 0.0f ? 1.0f : 0.0f;
  return cf_satvar_clamp01 (CF_FDIV (d, ramp));
}

/* The strength of the focus shapes at plane pixel (x, y). */
CF_HD float
cf_satvar_shape_strength (const CfSatVarParams * p, int x, int y)
{
  const float c = (float) p->cos_a, s = (float) p->sin_a;
  float dx = CF_FADD ((float) (x << p->x_shift), -(float) p->cx);
  float dy = CF_FADD ((float) (y << p->y_shift), -(float) p->cy);
  float u = CF_FADD (CF_FMUL (dx, c), CF_FMUL (dy, s));
  float v = CF_FADD (CF_FMUL (dy, c), -CF_FMUL (dx, s));

  if (p->source == CF_SATVAR_BAND)
    return cf_satvar_ramp (CF_FADD (fabsf (v), -(float) p->half_h),
        (float) p->ramp);
  if (p->source == CF_SATVAR_ELLIPSE) {
    float nu = CF_FDIV (u, (float) p->half_w);
    float nv = CF_FDIV (v, (float) p->half_h);
    float e = CF_FSQRT (CF_FADD (CF_FMUL (nu, nu), CF_FMUL (nv, nv)));
    if (e <= 1.0f)
      return 0.0f;
    /* the distance beyond the edge along the ray from the centre */
    float r = CF_FSQRT (CF_FADD (CF_FMUL (u, u), CF_FMUL (v, v)));
    return cf_satvar_ramp (CF_FMUL (r, CF_FADD (1.0f, -CF_FDIV (1.0f, e))),
        (float) p->ramp);
  }
  return 1.0f;
}

/* Sample v of full scale @full as a strength: v times @rcp, the reciprocal
 * of full rounded to float once (cf_satvar_full_rcp), so that a kernel
 * multiplies instead of dividing. */
CF_HD float
cf_satvar_scaled_rcp (unsigned v, unsigned full, float rcp)
{
  return v >= full ? 1.0f : CF_FMUL ((float) v, rcp);
}

CF_HD float
cf_satvar_full_rcp (unsigned full)
{
  return CF_FRCP ((float) full);
}

CF_HD float
cf_satvar_scaled (unsigned v, unsigned full)
{
  return cf_satvar_scaled_rcp (v, full, cf_satvar_full_rcp (full));
}

/* The full scale of the radius map. */
CF_HD unsigned
cf_satvar_map_full (const CfSatVarParams * p)
{
  return p->map.max ? p->map.max : (1u << p->map.depth) - 1u;
}

/* The radius map's sample at plane pixel (x, y). */
CF_HD unsigned
cf_satvar_map_sample (const CfSatVarParams * p, int x, int y)
{
  const unsigned char *row = (const unsigned char *) p->map.data +
      (size_t) (unsigned) (y << p->y_shift) * p->map.stride;
  const unsigned mx = (unsigned) x << p->x_shift;
  return p->map.depth > 8 ? ((const unsigned short *) row)[mx] : row[mx];
}

/* The strength of a radius map at plane pixel (x, y). */
CF_HD float
cf_satvar_map_strength (const CfSatVarParams * p, int x, int y)
{
  return cf_satvar_scaled (cf_satvar_map_sample (p, x, y),
      cf_satvar_map_full (p));
}

/* A pixel's box radii at strength s: s radius_x = ax + fx, s radius_y =
 * ay + fy, integer parts and fractions. */
typedef struct {
  int ax, ay;
  float fx, fy;
} CfSatVarRadii;

CF_HD CfSatVarRadii
cf_satvar_radii_of (float s, float radius_x, float radius_y)
{
  const float rx = CF_FMUL (s, radius_x);
  const float ry = CF_FMUL (s, radius_y);
  CfSatVarRadii r;
  r.ax = (int) floorf (rx);
  r.ay = (int) floorf (ry);
  r.fx = CF_FADD (rx, -(float) r.ax);
  r.fy = CF_FADD (ry, -(float) r.ay);
  return r;
}

/* The same with the parameters' radii (rounded to float). */
CF_HD CfSatVarRadii
cf_satvar_radii (float s, const CfSatVarParams * p)
{
  return cf_satvar_radii_of (s, (float) p->radius_x, (float) p->radius_y);
}

/* A box's output from its sum: (2 sum + n) / 2n, rounded half up in
 * integers, as cf_satblur's. */
CF_HD unsigned
cf_satvar_box_mean (uint64_t sum, int ax, int ay)
{
  uint64_t n = (uint64_t) (2 * ax + 1) * (uint64_t) (2 * ay + 1);
  return (unsigned) ((2 * sum + n) / (2 * n));
}

/* 1 / (2 a + 1), the reciprocal of a box side's count, rounded to float
 * (correctly rounded on both sides). */
CF_HD float
cf_satvar_count_rcp (int a)
{
  return CF_FRCP ((float) (2 * a + 1));
}

/* The weights of the boxes (ax + i, ay + j), i, j in {0, 1}, with the
 * radii's fractions fx, fy (not both 0), each divided by its box's count:
 * k[j][i] = (wx_i / nx_i) (wy_j / ny_j), with the reciprocals rx[i] of
 * the counts nx_i = 2 (ax + i) + 1 (cf_satvar_count_rcp) and ry[j] of
 * ny_j; once per pixel for all of its channels (0 for a box of weight 0,
 * which is not read). */
CF_HD void
cf_satvar_weights_rcp (const float rx[2], const float ry[2], float fx,
    float fy, float k[2][2])
{
  const float kx[2] = { CF_FMUL (CF_FADD (1.0f, -fx), rx[0]),
    CF_FMUL (fx, rx[1])
  };
  const float ky[2] = { CF_FMUL (CF_FADD (1.0f, -fy), ry[0]),
    CF_FMUL (fy, ry[1])
  };
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      k[j][i] = CF_FMUL (kx[i], ky[j]);
}

/* cf_satvar_weights_rcp of the boxes around radii ax, ay. */
CF_HD void
cf_satvar_weights (int ax, int ay, float fx, float fy, float k[2][2])
{
  const float rx[2] = { cf_satvar_count_rcp (ax), cf_satvar_count_rcp (ax +
        1)
  };
  const float ry[2] = { cf_satvar_count_rcp (ay), cf_satvar_count_rcp (ay +
        1)
  };
  cf_satvar_weights_rcp (rx, ry, fx, fy, k);
}

/* The blend of the boxes of sums sum[j][i] (each rounded to float) with
 * the weights k of cf_satvar_weights, rounded half up to a sample of at
 * most @max. A box of weight 0 adds +0 (its sum, not read, is 0). */
CF_HD unsigned
cf_satvar_blend (const float sum[2][2], const float k[2][2], unsigned max)
{
  float v = 0.0f;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      v = CF_FFMA (k[j][i], sum[j][i], v);
  v = floorf (CF_FADD (v, 0.5f));
  return v <= 0.0f ? 0u : (v >= (float) max ? max : (unsigned) v);
}

#endif /* CF_SATVAR_SHAPE_H */
