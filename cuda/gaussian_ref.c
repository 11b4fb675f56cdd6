/* Plain-C reference Gaussian: simple enough to trust by reading. */
#include "gaussian.h"
#include "gaussian_paths.h"
#include "cf_plane_access.h"

#include <math.h>
#include <stdlib.h>

int
cf_gaussian_default_radius (double sigma)
{
  int r = (int) ceil (3.0 * fabs (sigma));
  if (r < 1)
    r = 1;
  return r > CF_GAUSSIAN_MAX_RADIUS ? CF_GAUSSIAN_MAX_RADIUS : r;
}

void
cf_gaussian_weights (double sigma, int radius, float *w)
{
  double g[CF_GAUSSIAN_MAX_RADIUS + 1], sum = 0.0;
  for (int k = 0; k <= radius; k++) {
    g[k] = exp (-0.5 * k * k / (sigma * sigma));
    sum += k == 0 ? g[k] : 2.0 * g[k];
  }
  for (int k = 0; k <= radius; k++)
    w[k] = (float) (g[k] / sum);
}

int
cf_gaussian_prefers_direct (const CfGaussianParams * p, int depth,
    int channels)
{
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  const unsigned filtered = p->channel_mask & ((1u << channels) - 1);
  return p->path == CF_GAUSSIAN_AUTO && p->sharpen == 0.0 && depth == 8
      && filtered != 0 && (filtered & (filtered - 1)) == 0
      && r >= CF_GM_MIN_RADIUS
      && r <= CF_GAUSSIAN_WIDE_MAX_RADIUS;
}

CfStatus
cf_gaussian_check (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (p->radius_x < 0 || p->radius_x > CF_GAUSSIAN_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_GAUSSIAN_MAX_RADIUS
      || !(p->threshold >= 0.0 && p->threshold <= 1.0)
      || !(fabs (p->sharpen) <= 1e6))
    return CF_ERROR_INVALID;
  return CF_OK;
}

CfStatus
cf_gaussian_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  CfStatus st = cf_gaussian_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (cf_gaussian_prefers_direct (p, src->depth, src->channels))
    return cf_gaussian_blur_direct_ref (src, dst, p);
  if (cf_gaussian_uses_multirate (p))
    return cf_gm_blur_ref (src, dst, p);
  return cf_gaussian_uses_window (p, src->channels) ?
      cf_gw_blur_ref (src, dst, p) : cf_gaussian_blur_direct_ref (src, dst, p);
}

CfStatus
cf_gaussian_blur_direct_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  CfStatus st = cf_gaussian_check (src, dst, p);
  if (st != CF_OK)
    return st;

  float wx[CF_GAUSSIAN_MAX_RADIUS + 1] = { 1.0f }, wy[CF_GAUSSIAN_MAX_RADIUS + 1] = { 1.0f };
  if (p->radius_x > 0)
    cf_gaussian_weights (p->sigma_x, p->radius_x, wx);
  if (p->radius_y > 0)
    cf_gaussian_weights (p->sigma_y, p->radius_y, wy);

  int w = src->width, h = src->height;
  double *rows = malloc (sizeof (double) * w * h);
  if (!rows)
    return CF_ERROR_OUT_OF_MEMORY;

  for (int c = 0; c < src->channels; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        double s = 0.0;
        for (int k = -p->radius_x; k <= p->radius_x; k++)
          s += wx[abs (k)] * cf_get_sample (src,
              cf_border_index (x + k, w, p->border), y, c);
        rows[(size_t) y * w + x] = s;
      }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        double s = 0.0;
        for (int k = -p->radius_y; k <= p->radius_y; k++)
          s += wy[abs (k)] * rows[(size_t) cf_border_index (y + k, h,
                  p->border) * w + x];
        s = cf_gaussian_finish ((float) cf_get_sample (src, x, y, c),
            (float) s, (float) p->sharpen,
            (float) (p->threshold * cf_plane_max (dst)));
        cf_put_sample (dst, x, y, c, cf_round_clamp_to (s, cf_plane_max (dst)));
      }
  }
  cf_copy_unmasked (src, dst, p->channel_mask);
  free (rows);
  return CF_OK;
}
