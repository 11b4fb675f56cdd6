/* Box blur from summed-area tables, cudasatblur's GPU path. Per pass, in
 * three launches on the caller's stream:
 *
 *  1. satblur_columns.cu: each column's sum over every segment of SEG_ROWS
 *     rows (the input read once), then their exclusive scan down the
 *     columns: the column prefix at every segment boundary, a small table;
 *  2. satblur_bands.cu: a block per band of rows, which starts its column
 *     window sums from that table, slides them down its rows and turns
 *     each row into boxes by a prefix along the row in shared memory.
 *
 * With ry = 0 the first stage is skipped. Several passes alternate between
 * dst and a scratch frame, all on the stream, without a host round trip. */
#include "satblur.h"
#include "satblur_kernels.cuh"
#include "cf_runtime.h"

#include <pthread.h>

using namespace satblur;

namespace {

/* Blocks at most when each needs its own global memory (row prefixes too
 * large for shared memory, or window sums of rows longer than a block's
 * runs): that memory grows with them. */
constexpr int GLOBAL_BLOCKS = 128;

struct DeviceLimits {
  int optin;                    /* shared memory a block may use */
  int reserved;                 /* shared memory the system keeps per block */
  int sm_shared;                /* shared memory of a multiprocessor */
  int sm_regs;                  /* registers of a multiprocessor */
  int sm_threads;               /* threads a multiprocessor holds */
  int sm_blocks;                /* blocks a multiprocessor holds */
  int sms;
  BandKernels band;
};

/* Reads the device's limits and the band kernels' registers, and allows
 * the band kernels their shared memory on it, for every context. */
cudaError_t
read_limits (int dev, DeviceLimits * l)
{
  const struct {
    int *value;
    cudaDeviceAttr attr;
  } wanted[] = {
    {&l->optin, cudaDevAttrMaxSharedMemoryPerBlockOptin},
    {&l->reserved, cudaDevAttrReservedSharedMemoryPerBlock},
    {&l->sm_shared, cudaDevAttrMaxSharedMemoryPerMultiprocessor},
    {&l->sm_regs, cudaDevAttrMaxRegistersPerMultiprocessor},
    {&l->sm_threads, cudaDevAttrMaxThreadsPerMultiProcessor},
    {&l->sm_blocks, cudaDevAttrMaxBlocksPerMultiprocessor},
    {&l->sms, cudaDevAttrMultiProcessorCount},
  };
  cudaError_t err = cudaSuccess;
  for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
    if (err == cudaSuccess)
      err = cudaDeviceGetAttribute (wanted[i].value, wanted[i].attr, dev);
  if (err == cudaSuccess)
    err = setup_bands (dev, l->optin, &l->band);
  return err;
}

/* read_limits, once per device. */
CfStatus
device_limits (DeviceLimits * out)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static DeviceLimits known[CF_MAX_DEVICES];
  static bool ready[CF_MAX_DEVICES];
  int dev;
  cudaError_t err = cudaGetDevice (&dev);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);
  if (dev >= CF_MAX_DEVICES)
    return cf_status_from_cuda (read_limits (dev, out));

  pthread_mutex_lock (&lock);
  if (!ready[dev]) {
    err = read_limits (dev, &known[dev]);
    ready[dev] = err == cudaSuccess;
  }
  *out = known[dev];
  pthread_mutex_unlock (&lock);
  return cf_status_from_cuda (err);
}

/* How one call lays out its scratch and launches. */
struct Plan {
  bool acc64, shared, win;
  int threads, blocks;
  size_t smem;
  size_t seg_off, col_off, pre_off, win_off, tmp_off, total, tmp_stride;
};

size_t
align256 (size_t x)
{
  return (x + 255) & ~(size_t) 255;
}

bool
aligned (const void *p, size_t stride, int bytes)
{
  return (uintptr_t) p % bytes == 0 && stride % bytes == 0;
}

/* Blocks of the band kernel: as many as every multiprocessor holds at once
 * (each band's first row costs extra reads; a second wave of blocks would
 * cost a whole band's time), from the kernel's registers and shared memory
 * per block. */
int
band_blocks (int threads, int regs, size_t shared, const DeviceLimits & lim)
{
  const int warps = threads / 32;
  int per_sm = lim.sm_regs / (((regs + 7) & ~7) * 32 * warps);
  const int by_threads = lim.sm_threads / threads;
  const int by_shared = lim.sm_shared / (int) (shared + lim.reserved);
  per_sm = per_sm < by_threads ? per_sm : by_threads;
  per_sm = per_sm < by_shared ? per_sm : by_shared;
  per_sm = per_sm < lim.sm_blocks ? per_sm : lim.sm_blocks;
  per_sm = per_sm < 1 ? 1 : per_sm;
  return lim.sms * per_sm;
}

CfStatus
make_plan (const CfPlane * src, const CfSatBlurParams * p,
    const DeviceLimits & lim, ColumnArgs * col, BandArgs * a, Plan * pl)
{
  const int w = src->width, h = src->height, C = src->channels;
  const int n = w * C, N = run_samples (C);
  const int bps = cf_plane_bytes_per_sample (src);
  const int runs = (n + N - 1) / N;
  const unsigned long long max = src->depth > 8 ? 65535 : 255;

  a->count = (unsigned long long) (2 * p->radius_x + 1) *
      (unsigned long long) (2 * p->radius_y + 1);
  a->inv_count = 1.0f / (float) a->count;
  pl->acc64 = !cf_round_div_magic (a->count, a->count * max, &a->div);

  pl->threads = (runs + 31) & ~31;
  pl->threads = pl->threads > band_max_threads (C) ? band_max_threads (C) :
      pl->threads;
  const bool several_rounds = runs > pl->threads;
  const size_t acc = pl->acc64 ? 8 : 4;
  const int deep = src->depth > 8;
  const int static_shared = lim.band.static_shared[deep][pl->acc64][C - 1];
  /* Elements 0..n + C - 1, padded as the kernel does. */
  a->pre_len = (size_t) pidx (n + C - 1, N) + 1;
  pl->shared = a->pre_len * acc <= (size_t) (lim.optin - static_shared);
  pl->win = several_rounds && p->radius_y > 0;
  pl->smem = pl->shared ? a->pre_len * acc : 0;
  int blocks = band_blocks (pl->threads, lim.band.regs[deep][pl->acc64][C -
          1], pl->smem + static_shared, lim);
  if (!pl->shared || pl->win)
    blocks = blocks < GLOBAL_BLOCKS ? blocks : GLOBAL_BLOCKS;
  a->band_rows = (h + blocks - 1) / blocks;
  pl->blocks = (h + a->band_rows - 1) / a->band_rows;

  /* Whole runs per row in the column tables and window sums. */
  const int pitch = (runs * N + 63) & ~63;
  col->n = n;
  col->height = h;
  col->segments = (h + SEG_ROWS - 1) / SEG_ROWS;
  col->pitch = pitch;
  a->pitch = pitch;

  pl->tmp_stride = align256 ((size_t) n * bps);
  size_t off = 0;
  pl->seg_off = off;
  if (p->radius_y > 0)
    off += align256 ((size_t) col->segments * pitch * (bps == 1 ? 2 : 4));
  pl->col_off = off;
  if (p->radius_y > 0)
    off += align256 ((size_t) (col->segments + 1) * pitch * 4);
  pl->pre_off = off;
  if (!pl->shared)
    off += align256 ((size_t) pl->blocks * a->pre_len * acc);
  pl->win_off = off;
  if (pl->win)
    off += align256 ((size_t) pl->blocks * pitch * 4);
  pl->tmp_off = off;
  if (p->passes > 1)
    off += (size_t) h * pl->tmp_stride;
  pl->total = off;
  return CF_OK;
}

/* One pass, in -> out. */
CfStatus
pass (const CfPlane * in, const CfPlane * out, ColumnArgs col, BandArgs a,
    const Plan & pl, cudaStream_t stream)
{
  const int N = run_samples (in->channels);
  const int vb = vector_bytes (N * cf_plane_bytes_per_sample (in));
  CfStatus st = CF_OK;

  a.src = col.src = in->data;
  a.src_stride = col.src_stride = in->stride;
  a.dst = out->data;
  a.dst_stride = out->stride;
  a.vec_src = aligned (in->data, in->stride, vb);
  col.vec = aligned (in->data, in->stride,
      vector_bytes (COLUMN_RUN * cf_plane_bytes_per_sample (in)));
  a.vec_dst = aligned (out->data, out->stride, vb);
  if (a.ry > 0)
    st = launch_columns (col, in->depth, stream);
  if (st != CF_OK)
    return st;
  return launch_bands (a, in->depth, in->channels, pl.acc64, pl.threads,
      pl.blocks, pl.smem, stream);
}

}                               /* namespace */

extern "C" CfStatus
cf_satblur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfSatBlurParams * p)
{
  if (!exec->on_gpu)
    return cf_satblur_ref (src, dst, p);

  CfStatus st = cf_satblur_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (!exec->stream || !exec->scratch)
    return CF_ERROR_INVALID;
  if (p->radius_x == 0 && p->radius_y == 0)
    return cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
        (size_t) src->width * src->channels * cf_plane_bytes_per_sample (src),
        src->height, exec->stream);

  DeviceLimits lim;
  ColumnArgs col = { };
  BandArgs a = { };
  Plan pl;
  st = device_limits (&lim);
  if (st == CF_OK)
    st = make_plan (src, p, lim, &col, &a, &pl);
  if (st == CF_OK)
    st = cf_scratch_reserve (exec->scratch, pl.total);
  if (st != CF_OK)
    return st;

  unsigned char *scratch = (unsigned char *) exec->scratch->data;
  col.seg = scratch + pl.seg_off;
  col.prefix = (unsigned *) (scratch + pl.col_off);
  a.col_prefix = p->radius_y > 0 ? col.prefix : NULL;
  a.gpre = pl.shared ? NULL : scratch + pl.pre_off;
  a.gwin = pl.win ? (unsigned *) (scratch + pl.win_off) : NULL;
  a.width = src->width;
  a.height = src->height;
  a.rx = p->radius_x;
  a.ry = p->radius_y;
  a.border = p->border;
  a.mask = p->channel_mask;

  /* Alternate so that the last pass lands in dst. */
  CfPlane tmp = *src;
  tmp.data = scratch + pl.tmp_off;
  tmp.stride = pl.tmp_stride;
  const CfPlane *in = src;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  for (int i = 0; i < p->passes && st == CF_OK; i++) {
    const CfPlane *out = (p->passes - 1 - i) % 2 == 0 ? dst : &tmp;
    st = pass (in, out, col, a, pl, stream);
    in = out;
  }
  return st;
}
