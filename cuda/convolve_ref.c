/* Plain-C reference convolution: simple enough to trust by reading. It runs
 * the same plan as the GPU (a rank-1 kernel as rows then columns), in
 * double. */
#include "convolve.h"
#include "cf_border.h"
#include "cf_plane_access.h"

#include <math.h>
#include <stdlib.h>

static double
finish (double v, const CfConvolvePlan * plan)
{
  v += plan->offset;
  return plan->absolute ? fabs (v) : v;
}

CfStatus
cf_convolve_ref (const CfPlane * src, const CfPlane * dst,
    const CfConvolveParams * params)
{
  CfConvolvePlan plan;
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  st = cf_convolve_plan (params, cf_plane_max (dst), &plan);
  if (st != CF_OK)
    return st;

  int w = src->width, h = src->height, rx = plan.width / 2, ry =
      plan.height / 2;
  CfBorder b = params->border;
  double *rows = malloc (sizeof (double) * w * h);
  if (!rows)
    return CF_ERROR_OUT_OF_MEMORY;

  for (int c = 0; c < src->channels; c++) {
    if (!(params->channel_mask & (1u << c)))
      continue;
    if (plan.separable) {
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          double s = 0.0;
          for (int kx = 0; kx < plan.width; kx++)
            s += plan.row[kx] * cf_get_sample (src,
                cf_border_index (x + kx - rx, w, b), y, c);
          rows[(size_t) y * w + x] = s;
        }
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          double s = 0.0;
          for (int ky = 0; ky < plan.height; ky++)
            s += plan.col[ky] *
                rows[(size_t) cf_border_index (y + ky - ry, h, b) * w + x];
          cf_put_sample (dst, x, y, c, cf_round_clamp_to (finish (s, &plan),
                  cf_plane_max (dst)));
        }
      continue;
    }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        double s = 0.0;
        for (int ky = 0; ky < plan.height; ky++)
          for (int kx = 0; kx < plan.width; kx++)
            s += plan.taps[ky * plan.width + kx] * cf_get_sample (src,
                cf_border_index (x + kx - rx, w, b),
                cf_border_index (y + ky - ry, h, b), c);
        cf_put_sample (dst, x, y, c, cf_round_clamp_to (finish (s, &plan),
                cf_plane_max (dst)));
      }
  }
  cf_copy_unmasked (src, dst, params->channel_mask);
  free (rows);
  return CF_OK;
}
