/* The variable box blur's three GPU paths; cf_satvar (satvar.cu) picks
 * one for a plane with at least one filtered channel (cf_satvar copies
 * one without). Each queues every pass on exec->stream, the fused and
 * global paths their summed-area table in exec->scratch; wide: 64-bit
 * table entries (a box sum may pass 2^32), else 32-bit. */
#ifndef CF_SATVAR_PATHS_H
#define CF_SATVAR_PATHS_H

#include "satvar.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Three filtered 8-bit channels share one 64-bit table sum, this many
 * bits each, where every box sum fits them. */
#define CF_SATVAR_PACK_BITS 21

/* The tile path takes radii up to this (rounded up). */
#define CF_SATVAR_TILE_MAX_RADIUS 32

/* satvar_tile.cu: one launch a pass, a tile's table in shared memory;
 * *fits = 0 (nothing queued) where the largest radii pass
 * CF_SATVAR_TILE_MAX_RADIUS or the table a block's shared memory. */
CfStatus cf_satvar_tile (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p, int *fits);

/* satvar.cu: the fused path, else the global one (where the tile path
 * does not fit, cf_satvar runs this). */
CfStatus cf_satvar_table (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p);

/* satvar_fused.cu: three launches a pass for every filtered channel at
 * once; pack: the three filtered channels' packed table (8-bit samples,
 * box sums below 2^CF_SATVAR_PACK_BITS). *fits = 0 (nothing queued) where
 * it cannot run: a grown row's column prefixes larger than a block's
 * shared memory, or an unpacked 64-bit table of a plane over 65536 rows. */
CfStatus cf_satvar_fused (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p, int wide, int pack,
    int *fits);

/* satvar_global.cu: the table built in global memory, five launches a
 * pass and filtered channel; runs wherever the fused path cannot. */
CfStatus cf_satvar_global (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p, int wide);

#ifdef __cplusplus
}

/* The row stride of the plane a path's passes alternate through. */
static inline size_t
cf_satvar_tmp_stride (const CfPlane * src)
{
  const size_t row = (size_t) src->width * src->channels *
      cf_plane_bytes_per_sample (src);
  return (row + 255) & ~(size_t) 255;
}

/* Its bytes: none for one pass. */
static inline size_t
cf_satvar_tmp_bytes (const CfPlane * src, int passes)
{
  return passes > 1 ? cf_satvar_tmp_stride (src) * src->height : 0;
}

/* A path's passes: pass (in, out) queues one, the first from src, each
 * next from the last one's output, the last into dst, the others into a
 * plane like src at @tmp (cf_satvar_tmp_bytes of it). */
template < class Pass > CfStatus
cf_satvar_passes (const CfPlane * src, const CfPlane * dst, void *tmp_data,
    int passes, Pass pass)
{
  CfPlane tmp = *src;
  tmp.data = tmp_data;
  tmp.stride = cf_satvar_tmp_stride (src);
  const CfPlane *in = src;
  CfStatus st = CF_OK;
  for (int i = 0; i < passes && st == CF_OK; i++) {
    const CfPlane *out = (passes - 1 - i) % 2 == 0 ? dst : &tmp;
    st = pass (in, out);
    in = out;
  }
  return st;
}
#endif
#endif /* CF_SATVAR_PATHS_H */
