/* Plain-C reference of the variable box blur (satvar.h): every box summed
 * from prefix sums of its border-extended rows. */
#include "satvar.h"
#include "satvar_shape.h"
#include "cf_plane_access.h"

#include <stdlib.h>

CfStatus
cf_satvar_check (const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * p)
{
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (!(p->radius_x >= 0.0 && p->radius_x <= CF_SATVAR_MAX_RADIUS
          && p->radius_y >= 0.0 && p->radius_y <= CF_SATVAR_MAX_RADIUS)
      || p->passes < 1 || p->passes > 3
      || (p->border != CF_BORDER_CLAMP && p->border != CF_BORDER_MIRROR)
      || p->x_shift < 0 || p->x_shift > 2 || p->y_shift < 0 || p->y_shift > 2
      || !(p->ramp >= 0.0) || p->source < CF_SATVAR_CONSTANT
      || p->source > CF_SATVAR_MAP)
    return CF_ERROR_INVALID;
  if (p->source == CF_SATVAR_ELLIPSE && !(p->half_w > 0.0 && p->half_h > 0.0))
    return CF_ERROR_INVALID;
  if (p->source == CF_SATVAR_ALPHA && (p->alpha_channel < 0
          || p->alpha_channel >= src->channels))
    return CF_ERROR_INVALID;
  if (p->source == CF_SATVAR_MAP && (!p->map.data || p->map.channels != 1
          || (p->map.depth != 8 && p->map.depth != 16)
          || p->map.width <= ((src->width - 1) << p->x_shift)
          || p->map.height <= ((src->height - 1) << p->y_shift)
          || p->map.stride < (size_t) p->map.width *
          cf_plane_bytes_per_sample (&p->map)))
    return CF_ERROR_INVALID;
  return CF_OK;
}

/* The strength of pixel (x, y): the shape's, src's alpha or the map's. */
static float
strength (const CfPlane * src, const CfSatVarParams * p, int x, int y)
{
  if (p->source == CF_SATVAR_ALPHA)
    return cf_satvar_scaled (cf_get_sample (src, x, y, p->alpha_channel),
        cf_plane_max (src));
  if (p->source == CF_SATVAR_MAP)
    return cf_satvar_map_strength (p, x, y);
  return cf_satvar_shape_strength (p, x, y);
}

/* One pass on channel c, in -> out; pre: (w + 2 mx + 1) prefix sums of
 * each border-extended row. */
static void
pass (const CfPlane * src, const CfPlane * in, const CfPlane * out, int c,
    const CfSatVarParams * p, uint64_t * pre)
{
  int w = in->width, h = in->height;
  int mx = (int) ceil (p->radius_x);
  size_t pw = (size_t) w + 2 * mx + 1;
  unsigned max = cf_plane_max (in);

  for (int y = 0; y < h; y++) {
    uint64_t *row = pre + (size_t) y * pw;
    row[0] = 0;
    for (int i = 0; i < w + 2 * mx; i++)
      row[i + 1] = row[i] + cf_get_sample (in,
          cf_border_index (i - mx, w, p->border), y, c);
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const CfSatVarRadii r = cf_satvar_radii (strength (src, p, x, y), p);
      const int ax = r.ax, ay = r.ay;
      const float fx = r.fx, fy = r.fy;
      uint64_t sum[2][2] = { {0, 0}, {0, 0} };

      for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
          int bx = ax + i, by = ay + j;
          if ((i && fx == 0.0f) || (j && fy == 0.0f))
            continue;
          for (int k = -by; k <= by; k++) {
            const uint64_t *row = pre +
                (size_t) cf_border_index (y + k, h, p->border) * pw;
            sum[j][i] += row[x + bx + mx + 1] - row[x - bx + mx];
          }
        }
      if (fx == 0.0f && fy == 0.0f) {
        cf_put_sample (out, x, y, c, cf_satvar_box_mean (sum[0][0], ax, ay));
      } else {
        const float fsum[2][2] = { {(float) sum[0][0], (float) sum[0][1]},
        {(float) sum[1][0], (float) sum[1][1]}
        };
        float k[2][2];
        cf_satvar_weights (ax, ay, fx, fy, k);
        cf_put_sample (out, x, y, c, cf_satvar_blend (fsum, k, max));
      }
    }
}

CfStatus
cf_satvar_ref (const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * p)
{
  CfStatus st = cf_satvar_check (src, dst, p);
  if (st != CF_OK)
    return st;

  int w = src->width, h = src->height, mx = (int) ceil (p->radius_x);
  CfPlane tmp[2] = { *src, *src };
  tmp[0].data = tmp[1].data = NULL;
  uint64_t *pre = malloc (sizeof (uint64_t) * ((size_t) w + 2 * mx + 1) * h);
  if (!pre)
    return CF_ERROR_OUT_OF_MEMORY;
  for (int i = 0; i < 2 && i < p->passes - 1; i++) {
    tmp[i].stride = (size_t) w * src->channels * cf_plane_bytes_per_sample (src);
    tmp[i].data = malloc (tmp[i].stride * h);
    if (!tmp[i].data)
      st = CF_ERROR_OUT_OF_MEMORY;
  }
  for (int c = 0; c < src->channels && st == CF_OK; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    const CfPlane *in = src;
    for (int i = 0; i < p->passes; i++) {
      const CfPlane *out = i == p->passes - 1 ? dst : &tmp[i & 1];
      pass (src, in, out, c, p, pre);
      in = out;
    }
  }
  if (st == CF_OK)
    cf_copy_unmasked (src, dst, p->channel_mask);
  free (tmp[0].data);
  free (tmp[1].data);
  free (pre);
  return st;
}
