/* Plain-C reference temporal filter: simple enough to trust by reading. */
#include "temporal.h"
#include "temporal_math.h"
#include "cf_plane_access.h"

#include <stdlib.h>
#include <string.h>

static int
same_geometry (const CfPlane * a, const CfPlane * b)
{
  return a && a->data && a->width == b->width && a->height == b->height
      && a->channels == b->channels && a->depth == b->depth
      && a->max == b->max && a->stride >= (size_t) b->width * b->channels *
      cf_plane_bytes_per_sample (b);
}

CfStatus
cf_temporal_check (const CfPlane * src, const CfPlane * prev,
    const CfPlane * dst, const CfPlane * map, const CfTemporalParams * p)
{
  CfStatus st = cf_planes_check (src, dst);

  if (st != CF_OK)
    return st;
  if (!same_geometry (prev, src) || !(p->strength >= 0.0 && p->strength <= 1.0)
      || !(p->noise >= 0.0) || (p->mode != CF_TEMPORAL_ADAPTIVE
          && p->mode != CF_TEMPORAL_PERSISTENCE)
      || (p->motion_mask & ~p->channel_mask)
      || p->map_use < CF_TEMPORAL_MAP_NONE || p->map_use > CF_TEMPORAL_MAP_READ)
    return CF_ERROR_INVALID;
  if (p->map_use == CF_TEMPORAL_MAP_READ && (p->map_w_sub < 0
          || p->map_h_sub < 0 || p->map_w_sub > 4 || p->map_h_sub > 4))
    return CF_ERROR_INVALID;
  if (p->map_use != CF_TEMPORAL_MAP_NONE && p->mode == CF_TEMPORAL_ADAPTIVE
      && (!map || !map->data || map->depth != 8 || map->channels != 1
          || map->width < 1 || map->height < 1))
    return CF_ERROR_INVALID;
  if (p->map_use == CF_TEMPORAL_MAP_WRITE && p->mode == CF_TEMPORAL_ADAPTIVE
      && (map->width != src->width || map->height != src->height))
    return CF_ERROR_INVALID;
  if (p->map_use != CF_TEMPORAL_MAP_READ && p->mode == CF_TEMPORAL_ADAPTIVE
      && !p->motion_mask)
    return CF_ERROR_INVALID;
  if (p->mode == CF_TEMPORAL_ADAPTIVE && p->spatial.sigma_range > 0.0
      && p->spatial.mode != CF_BILATERAL_EXACT)
    return CF_ERROR_INVALID;
  if (p->mode == CF_TEMPORAL_ADAPTIVE && p->spatial.sigma_range > 0.0)
    return cf_bilateral_check (src, dst, &p->spatial);
  return CF_OK;
}

void
cf_temporal_noise_sum_ref (const CfPlane * src, unsigned motion_mask,
    unsigned long long *sum, unsigned long long *count)
{
  static const int m[3][3] = { {1, -2, 1}, {-2, 4, -2}, {1, -2, 1} };

  *sum = *count = 0;
  for (int y = 1; y + 1 < src->height; y++)
    for (int x = 1; x + 1 < src->width; x++)
      for (int c = 0; c < src->channels; c++) {
        long long r = 0;

        if (!(motion_mask & (1u << c)))
          continue;
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            r += m[j + 1][i + 1] * (long long) cf_get_sample (src, x + i,
                y + j, c);
        *sum += (unsigned long long) (r < 0 ? -r : r);
        (*count)++;
      }
}

/* How still pixel (x, y) is, from the window of the motion channels. */
static int
measure (const CfPlane * src, const CfPlane * prev,
    const CfTemporalParams * p, int x, int y, float sigma)
{
  unsigned long long ssd = 0;
  long long sum = 0;
  int n = 0;

  for (int j = -CF_TEMPORAL_R; j <= CF_TEMPORAL_R; j++)
    for (int i = -CF_TEMPORAL_R; i <= CF_TEMPORAL_R; i++) {
      int qx = cf_border_index (x + i, src->width, p->border);
      int qy = cf_border_index (y + j, src->height, p->border);

      for (int c = 0; c < src->channels; c++) {
        long long d;

        if (!(p->motion_mask & (1u << c)))
          continue;
        d = (long long) cf_get_sample (src, qx, qy, c) -
            (long long) cf_get_sample (prev, qx, qy, c);
        sum += d;
        ssd += (unsigned long long) (d * d);
        n++;
      }
    }
  return cf_temporal_f8 (sum, ssd, n, sigma);
}

/* The smallest f8 of the map under the footprint of pixel (x, y). */
static int
map_read (const CfPlane * map, const CfTemporalParams * p, int x, int y)
{
  int f8 = 255;

  for (int j = 0; j < 1 << p->map_h_sub; j++)
    for (int i = 0; i < 1 << p->map_w_sub; i++) {
      int mx = cf_clamp_index ((x << p->map_w_sub) + i, map->width);
      int my = cf_clamp_index ((y << p->map_h_sub) + j, map->height);
      int v = (int) cf_get_sample (map, mx, my, 0);

      f8 = v < f8 ? v : f8;
    }
  return f8;
}

CfStatus
cf_temporal_ref (const CfPlane * src, const CfPlane * prev,
    const CfPlane * dst, const CfPlane * map, const CfTemporalParams * p)
{
  CfStatus st = cf_temporal_check (src, prev, dst, map, p);
  int adaptive = p->mode == CF_TEMPORAL_ADAPTIVE;
  CfPlane spatial = *src;
  float sigma = (float) p->noise, s = (float) p->strength;

  if (st != CF_OK)
    return st;
  if (adaptive && p->spatial.sigma_range > 0.0) {
    spatial.data = malloc (src->stride * src->height);
    if (!spatial.data)
      return CF_ERROR_OUT_OF_MEMORY;
    cf_bilateral_ref (src, &spatial, &p->spatial);
  }
  if (adaptive && p->map_use != CF_TEMPORAL_MAP_READ && !(p->noise > 0.0)) {
    unsigned long long sum, count;

    cf_temporal_noise_sum_ref (src, p->motion_mask, &sum, &count);
    sigma = cf_temporal_sigma_from_sum (sum, count);
  } else if (sigma < CF_TEMPORAL_MIN_SIGMA) {
    sigma = CF_TEMPORAL_MIN_SIGMA;
  }

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      int f8 = 255;
      float f;

      if (adaptive && p->map_use == CF_TEMPORAL_MAP_READ)
        f8 = map_read (map, p, x, y);
      else if (adaptive)
        f8 = measure (src, prev, p, x, y, sigma);
      if (adaptive && p->map_use == CF_TEMPORAL_MAP_WRITE)
        cf_put_sample (map, x, y, 0, (unsigned) f8);
      f = (float) f8 / 255.0f;
      for (int c = 0; c < src->channels; c++) {
        unsigned cur = cf_get_sample (src, x, y, c);
        unsigned past = cf_get_sample (prev, x, y, c);
        float v;

        if (!(p->channel_mask & (1u << c)))
          continue;
        v = cf_temporal_blend (f, s, (float) cur, (float) past,
            (float) cf_get_sample (&spatial, x, y, c));
        cf_put_sample (dst, x, y, c, cf_temporal_quantise (v,
                cf_temporal_dither (x, y, c, cur, p->frame),
                (float) cf_plane_max (dst)));
      }
    }
  cf_copy_unmasked (src, dst, p->channel_mask);
  if (spatial.data != src->data)
    free (spatial.data);
  return CF_OK;
}
