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
#include <stdlib.h>

using namespace satblur;

namespace {

constexpr int SEG_ROWS = 16;
constexpr int MAX_THREADS = 1024;
/* Shared memory a band block keeps for its static arrays (warp sums). */
constexpr int BAND_STATIC_SHARED = 2048;
/* Blocks when each needs its own global memory (row prefixes too large for
 * shared memory, or window sums of rows longer than a block's runs). */
constexpr int GLOBAL_BLOCKS = 128;
constexpr int MAX_DEVICES = 64;

struct DeviceLimits {
  int shared;                   /* dynamic shared memory a band block may use */
  int sms;
};

/* The device's limits, read once per device; the band kernels are allowed
 * their shared memory then, for every context of the device. */
CfStatus
device_limits (DeviceLimits * out)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static DeviceLimits known[MAX_DEVICES];
  static bool ready[MAX_DEVICES];
  int dev;
  cudaError_t err = cudaGetDevice (&dev);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);
  if (dev < 0 || dev >= MAX_DEVICES)
    return CF_ERROR_INVALID;

  pthread_mutex_lock (&lock);
  if (!ready[dev]) {
    int optin = 0, sms = 0;
    err = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (err == cudaSuccess)
      err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err == cudaSuccess)
      err = allow_band_shared (dev, optin - BAND_STATIC_SHARED);
    if (err == cudaSuccess) {
      known[dev].shared = optin - BAND_STATIC_SHARED;
      known[dev].sms = sms;
      ready[dev] = true;
    }
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

/* Rows per band: enough bands for several blocks per multiprocessor; every
 * band's first row costs a few extra rows of input. */
int
band_rows (int height, int threads, const DeviceLimits & lim)
{
  const char *env = getenv ("CF_SATBLUR_BAND_ROWS");
  if (env)
    return atoi (env);
  int per_sm = 2048 / threads;
  int rows = height / (lim.sms * (per_sm < 4 ? per_sm : 4));
  return rows < 4 ? 4 : (rows > 16 ? 16 : rows);
}

CfStatus
make_plan (const CfPlane * src, const CfSatBlurParams * p,
    const DeviceLimits & lim, ColumnArgs * col, BandArgs * a, Plan * pl)
{
  const int w = src->width, h = src->height, C = src->channels;
  const int n = w * C, N = C == 3 ? 12 : 16, bps = cf_plane_bytes_per_sample (src);
  const int runs = (n + N - 1) / N;
  const unsigned long long max = src->depth > 8 ? 65535 : 255;
  const int seg_rows = getenv ("CF_SATBLUR_SEG_ROWS") ?
      atoi (getenv ("CF_SATBLUR_SEG_ROWS")) : SEG_ROWS;

  a->count = (unsigned long long) (2 * p->radius_x + 1) *
      (unsigned long long) (2 * p->radius_y + 1);
  a->inv_count = 1.0f / (float) a->count;
  pl->acc64 = a->count * max >= (1ull << 32);

  pl->threads = (runs + 31) & ~31;
  pl->threads = pl->threads > MAX_THREADS ? MAX_THREADS : pl->threads;
  const bool several_rounds = runs > pl->threads;
  const size_t acc = pl->acc64 ? 8 : 4;
  /* Elements 0..n + C - 1 with one pad per run (pidx in satblur_bands.cu). */
  a->pre_len = (size_t) (n + C - 1) + (n + C - 1) / N + 1;
  pl->shared = a->pre_len * acc <= (size_t) lim.shared;
  pl->win = several_rounds && p->radius_y > 0;
  a->band_rows = band_rows (h, pl->threads, lim);
  a->bands = (h + a->band_rows - 1) / a->band_rows;
  pl->blocks = pl->shared && !several_rounds ? a->bands :
      (a->bands < GLOBAL_BLOCKS ? a->bands : GLOBAL_BLOCKS);
  pl->smem = pl->shared ? a->pre_len * acc : 0;

  /* Whole runs per row in the column tables and window sums. */
  const int pitch = (runs * N + 63) & ~63;
  col->n = n;
  col->run_n = runs * N;
  col->height = h;
  col->seg_rows = seg_rows;
  col->segments = (h + seg_rows - 1) / seg_rows;
  col->pitch = pitch;
  a->col_pitch = pitch;
  a->seg_rows = seg_rows;
  a->win_pitch = pitch;

  pl->tmp_stride = align256 ((size_t) n * bps);
  size_t off = 0;
  pl->seg_off = off;
  if (p->radius_y > 0)
    off += align256 ((size_t) col->segments * pitch * 4);
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
  const int N = in->channels == 3 ? 12 : 16;
  const int vb = vector_bytes (N * cf_plane_bytes_per_sample (in));
  CfStatus st = CF_OK;

  a.src = col.src = in->data;
  a.src_stride = col.src_stride = in->stride;
  a.dst = out->data;
  a.dst_stride = out->stride;
  a.vec_src = col.vec = aligned (in->data, in->stride, vb);
  a.vec_dst = aligned (out->data, out->stride, vb);
  if (a.ry > 0)
    st = launch_columns (col, in->depth, in->channels, stream);
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
  col.seg = (unsigned *) (scratch + pl.seg_off);
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
