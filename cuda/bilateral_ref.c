/* Plain-C reference bilateral filter: simple enough to trust by reading. */
#include "bilateral.h"
#include "cf_border.h"
#include "cf_plane_access.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

int
cf_bilateral_default_radius (double sigma)
{
  int r = (int) ceil (2.0 * fabs (sigma));
  if (r < 1)
    r = 1;
  return r > CF_BILATERAL_MAX_RADIUS ? CF_BILATERAL_MAX_RADIUS : r;
}

static void
log2_gaussian (double sigma, int radius, float *l)
{
  for (int k = 0; k <= CF_BILATERAL_MAX_RADIUS; k++)
    l[k] = k <= radius && k > 0 ?
        (float) (-0.5 * k * k / (sigma * sigma) * M_LOG2E) : 0.0f;
}

void
cf_bilateral_weights (const CfBilateralParams * p, unsigned full_scale,
    CfBilateralWeights * w)
{
  double sigma_r = p->sigma_range * full_scale;

  log2_gaussian (p->sigma_x, p->radius_x, w->lx);
  log2_gaussian (p->sigma_y, p->radius_y, w->ly);
  /* Finite even for a vanishing sigma, so that nk * 0 stays 0. */
  w->nk = (float) fmax (-0.5 / (sigma_r * sigma_r) * M_LOG2E, -FLT_MAX);
}

CfStatus
cf_bilateral_check (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p)
{
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (p->radius_x < 0 || p->radius_x > CF_BILATERAL_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_BILATERAL_MAX_RADIUS
      || (p->radius_x > 0 && !(p->sigma_x > 0.0))
      || (p->radius_y > 0 && !(p->sigma_y > 0.0))
      || !(p->sigma_range > 0.0)
      || (p->mode != CF_BILATERAL_EXACT && p->mode != CF_BILATERAL_SEPARABLE)
      || (p->distance != CF_BILATERAL_PER_CHANNEL
          && p->distance != CF_BILATERAL_JOINT))
    return CF_ERROR_INVALID;
  if (p->guide.data && (p->guide.channels < 1 || p->guide.channels > 4
          || (p->guide.depth != 8 && p->guide.depth != 16)
          || p->guide_x_shift < 0 || p->guide_x_shift > 2
          || p->guide_y_shift < 0 || p->guide_y_shift > 2
          || p->guide.width <= ((src->width - 1) << p->guide_x_shift)
          || p->guide.height <= ((src->height - 1) << p->guide_y_shift)
          || p->guide.stride < (size_t) p->guide.width * p->guide.channels *
          cf_plane_bytes_per_sample (&p->guide)))
    return CF_ERROR_INVALID;
  return CF_OK;
}

/* Whether one guide channel weighs every channel (a guide of another
 * channel count than src). */
static int
guide_is_gray (const CfPlane * src, const CfBilateralParams * p)
{
  return p->guide.data && p->guide.channels != src->channels;
}

/* The sample the range weight of channel c at (x, y) compares: the
 * guide's, or @src's own. */
static double
range_sample (const CfPlane * src, const CfBilateralParams * p, int x, int y,
    int c)
{
  if (!p->guide.data)
    return cf_get_sample (src, x, y, c);
  return cf_get_sample (&p->guide, x << p->guide_x_shift,
      y << p->guide_y_shift, guide_is_gray (src, p) ? 0 : c);
}

/* One pass over the window of radii (rx, ry), for the channels in mask. */
static void
filter_window (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p, const CfBilateralWeights * w, int rx, int ry)
{
  int gray = guide_is_gray (src, p);
  int joint = p->distance == CF_BILATERAL_JOINT || gray;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      double num[4] = { 0 }, den[4] = { 0 };
      for (int dy = -ry; dy <= ry; dy++)
        for (int dx = -rx; dx <= rx; dx++) {
          if (!cf_bilateral_in_window (dx, dy, rx, ry))
            continue;
          int qx = cf_border_index (x + dx, src->width, p->border);
          int qy = cf_border_index (y + dy, src->height, p->border);
          float lws = w->lx[abs (dx)] + w->ly[abs (dy)];
          double dd = 0.0;
          for (int c = 0; c < src->channels; c++) {
            if (!(p->channel_mask & (1u << c)))
              continue;
            double d = range_sample (src, p, qx, qy, c) -
                range_sample (src, p, x, y, c);
            if (gray) {
              dd = d * d;       /* one weight for every channel */
            } else if (joint) {
              dd += d * d;
            } else {
              double wt = exp2 (lws + w->nk * d * d);
              num[c] += wt * cf_get_sample (src, qx, qy, c);
              den[c] += wt;
            }
          }
          if (!joint)
            continue;
          double wt = exp2 (lws + w->nk * dd);
          for (int c = 0; c < src->channels; c++)
            if (p->channel_mask & (1u << c)) {
              num[c] += wt * cf_get_sample (src, qx, qy, c);
              den[c] += wt;
            }
        }
      for (int c = 0; c < src->channels; c++)
        if (p->channel_mask & (1u << c))
          cf_put_sample (dst, x, y, c, cf_round_clamp_to (num[c] / den[c],
                  cf_plane_max (dst)));
    }
}

CfStatus
cf_bilateral_ref (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p)
{
  CfBilateralWeights w;
  CfStatus st = cf_bilateral_check (src, dst, p);
  if (st != CF_OK)
    return st;

  cf_bilateral_weights (p, cf_plane_max (p->guide.data ? &p->guide : src),
      &w);
  if (p->mode == CF_BILATERAL_SEPARABLE && p->radius_x > 0
      && p->radius_y > 0) {
    /* Rows into tmp (rounded to the sample type, as on the GPU), then
     * the columns of tmp. */
    CfPlane tmp = *src;
    tmp.data = malloc (src->stride * src->height);
    if (!tmp.data)
      return CF_ERROR_OUT_OF_MEMORY;
    filter_window (src, &tmp, p, &w, p->radius_x, 0);
    filter_window (&tmp, dst, p, &w, 0, p->radius_y);
    free (tmp.data);
  } else {
    filter_window (src, dst, p, &w, p->radius_x, p->radius_y);
  }
  cf_copy_unmasked (src, dst, p->channel_mask);
  return CF_OK;
}
