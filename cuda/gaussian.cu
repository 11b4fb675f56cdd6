/* cf_gaussian_blur picks the Gaussian's path: the separable engine on
 * tensor cores for the radii cf_gaussian_prefers_direct gives it, where
 * the plane and the device allow it; the multi-rate one
 * (gaussian_multirate.cu) where cf_gaussian_uses_multirate says so, else
 * the window one (gaussian_window.cu) where cf_gaussian_uses_window does;
 * for the direct truncated Gaussian, the vector kernel for radii 1 and 2
 * where it is the faster one (small_mask.cu, rows aligned to its vectors),
 * the register 3x3 kernel (gaussian_small.cu, planes aligned to 4
 * samples), the one-pass tile kernel (gaussian_tile.cu) up to radius 2,
 * and up to radius 8 on planes the separable engine's vector path does not
 * take, the separable engine (separable.cu: rows and columns in one pass,
 * the intermediate in shared memory) where its halos fit shared memory,
 * gaussian_wide.cu beyond. */
#include "gaussian_paths.h"
#include "separable.h"
#include "small_mask.h"
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
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  const bool wide = cf_gaussian_prefers_direct (p, src->depth, src->channels)
      && cf_separable_wide_tensor_takes (src, dst, r);
  if (!wide && cf_gaussian_uses_multirate (p))
    return cf_gm_blur (exec, src, dst, p);
  if (!wide && cf_gaussian_uses_window (p, src->channels))
    return cf_gw_blur (exec, src, dst, p);
  if (!cf_separable_fits (p->radius_x, p->radius_y, src->channels))
    return cf_gaussian_wide (exec, src, dst, p);
  if (cf_small_mask_gaussian_fits (src, dst, p))
    return cf_small_mask_gaussian (src, dst, p,
        (cudaStream_t) exec->stream);
  /* Quad-wide access needs every row start aligned to a quad of samples. */
  size_t quad_bytes = 4 * (size_t) cf_plane_bytes_per_sample (src);
  int aligned = ((uintptr_t) src->data | (uintptr_t) dst->data | src->stride |
      dst->stride) % quad_bytes == 0;
  if (aligned && p->radius_x <= CF_GAUSSIAN_SMALL_MAX_RADIUS
      && p->radius_y <= CF_GAUSSIAN_SMALL_MAX_RADIUS)
    return cf_gaussian_small (exec, src, dst, p);
  if (r <= CF_GAUSSIAN_TILE_MAX_RADIUS && (r < CF_GAUSSIAN_ENGINE_MIN_RADIUS
          || !cf_separable_vector_takes (src, dst, r)))
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
  s.fixed_rows = p->sharpen == 0.0;
  return cf_separable (src, dst, &s, exec->stream);
}
