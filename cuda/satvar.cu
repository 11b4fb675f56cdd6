/* The variable box blur on the GPU (satvar.h): a plane without filtered
 * channels copied; else the tile path where it fits (radii up to
 * CF_SATVAR_TILE_MAX_RADIUS), else the table paths: the fused one, else
 * the global-table one (satvar_paths.h). Their table has 32-bit entries
 * where every box sum fits (8-bit samples at any radius here,
 * 16-bit up to radius 127: differences of wrapped prefixes are exact
 * then), else 64-bit; three filtered 8-bit channels packed into one 64-bit
 * sum where their box sums fit CF_SATVAR_PACK_BITS bits. */
#include "satvar.h"
#include "satvar_paths.h"
#include "cf_runtime.h"

#include <math.h>

extern "C" CfStatus
cf_satvar_table (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p)
{
  /* the largest box sum */
  const uint64_t most = (uint64_t) (2 * (int) ceil (p->radius_x) + 1) *
      (uint64_t) (2 * (int) ceil (p->radius_y) + 1) * cf_plane_max (src);
  const int wide = most > UINT32_MAX;
  const int pack = src->depth == 8 && __builtin_popcount (p->channel_mask &
      CF_ALL_CHANNELS (src->channels)) == 3
      && most < 1ull << CF_SATVAR_PACK_BITS;
  int fits;
  CfStatus st = cf_satvar_fused (exec, src, dst, p, wide, pack, &fits);
  return fits ? st : cf_satvar_global (exec, src, dst, p, wide);
}

extern "C" CfStatus
cf_satvar (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * p)
{
  if (!exec->on_gpu)
    return cf_satvar_ref (src, dst, p);
  CfStatus st = cf_satvar_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (!exec->stream || !exec->scratch)
    return CF_ERROR_INVALID;
  if (!(p->channel_mask & CF_ALL_CHANNELS (src->channels)))
    return cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
        (size_t) src->width * src->channels * cf_plane_bytes_per_sample (src),
        src->height, (cudaStream_t) exec->stream);
  int fits;
  st = cf_satvar_tile (exec, src, dst, p, &fits);
  return fits ? st : cf_satvar_table (exec, src, dst, p);
}
