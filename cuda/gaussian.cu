/* cf_gaussian_blur picks the Gaussian's path: the window one
 * (gaussian_window.cu) where cf_gaussian_uses_window says so; for the
 * direct truncated Gaussian, cudaconvolve's register path for 3x3 masks
 * (convolve_small.cu, aligned planes), the one-pass tile kernel
 * (gaussian_tile.cu) up to radius 8, the separable engine (separable.cu:
 * rows and columns in one pass, the intermediate in shared memory) where
 * its halos fit shared memory, gaussian_wide.cu beyond. */
#include "gaussian_paths.h"
#include "separable.h"
#include "convolve_small.cuh"
#include "cf_kernel.cuh"

extern "C" CfStatus
cf_gaussian_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * p)
{
  if (!exec->on_gpu)
    return cf_gaussian_blur_ref (src, dst, p);

  CfStatus st = cf_gaussian_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (!exec->stream)
    return CF_ERROR_INVALID;
  if (cf_gaussian_uses_window (p, src->channels))
    return cf_gw_blur (exec, src, dst, p);
  if (!cf_separable_fits (p->radius_x, p->radius_y, src->channels))
    return cf_gaussian_wide (exec, src, dst, p);
  if (cf_convolve_small_gaussian_fits (src, dst, p))
    return cf_convolve_small_gaussian (src, dst, p,
        (cudaStream_t) exec->stream);
  if (p->radius_x <= CF_GAUSSIAN_TILE_MAX_RADIUS
      && p->radius_y <= CF_GAUSSIAN_TILE_MAX_RADIUS)
    return cf_gaussian_tile (exec, src, dst, p);

  /* the half kernels w[0..r] as whole rows of 2 r + 1 taps */
  float wx[2 * CF_SEPARABLE_MAX_RADIUS + 1], wy[2 * CF_SEPARABLE_MAX_RADIUS + 1];
  float half[CF_SEPARABLE_MAX_RADIUS + 1];
  const int rx = p->radius_x, ry = p->radius_y;
  half[0] = 1.0f;
  if (rx > 0)
    cf_gaussian_weights (p->sigma_x, rx, half);
  for (int t = -rx; t <= rx; t++)
    wx[rx + t] = half[t < 0 ? -t : t];
  half[0] = 1.0f;
  if (ry > 0)
    cf_gaussian_weights (p->sigma_y, ry, half);
  for (int t = -ry; t <= ry; t++)
    wy[ry + t] = half[t < 0 ? -t : t];

  CfSeparable s = { };
  s.rx = rx;
  s.ry = ry;
  s.row = wx;
  s.col = wy;
  s.amount = (float) p->sharpen;
  s.threshold = (float) (p->threshold * cf_plane_max (dst));
  s.border = p->border;
  s.channel_mask = p->channel_mask;
  return cf_separable (src, dst, &s, exec->stream);
}
