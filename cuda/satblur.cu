/* Box blur from summed-area tables. Per pass:
 *
 *  1. columns: segment sums (SEG_ROWS rows each), an exclusive scan over the
 *     segments, then each segment's running sums: V(x, y), the inclusive
 *     column prefix, in 32-bit modular arithmetic (16-bit where a column
 *     window's sum of 8-bit samples fits 16 bits: half the traffic);
 *  2. rows, one block per row: the column window sums of the row from V
 *     (two fetches inside the frame, at most five at the borders), their
 *     prefix along the row in shared memory (a run per thread plus a
 *     shuffle scan across the runs), the box from two fetches of that
 *     prefix, and the rounded quotient.
 *
 * Differences of modular prefixes are exact whenever the true sum fits the
 * width, which is what the widths are chosen for; the reference computes
 * the same integers another way. Several passes alternate between dst and
 * a scratch frame, all on the stream, without a host round trip. */
#include "satblur.h"
#include "satblur_window.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int SEG_ROWS = 32;
constexpr int COL_THREADS = 256;
constexpr int GLOBAL_PREFIX_BLOCKS = 256;

/* Sums of each column over each segment of SEG_ROWS rows. */
template < typename T > __global__ void
segment_sums (const void *__restrict__ src, size_t stride, int n, int height,
    unsigned *__restrict__ seg, int pitch)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int y0 = blockIdx.y * SEG_ROWS, y1 = min (height, y0 + SEG_ROWS);
  unsigned s = 0;
  for (int y = y0; y < y1; y++)
    s += cf_row < T > (src, stride, y)[i];
  seg[(size_t) blockIdx.y * pitch + i] = s;
}

/* In place: each segment's sum becomes the sum of the segments above it. */
__global__ void
segment_scan (unsigned *__restrict__ seg, int pitch, int n, int segments)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned run = 0;
  for (int s = 0; s < segments; s++) {
    unsigned v = seg[(size_t) s * pitch + i];
    seg[(size_t) s * pitch + i] = run;
    run += v;
  }
}

/* V(i, y) = sum of column i over rows 0..y, modulo the width of Vt. */
template < typename T, typename Vt > __global__ void
column_prefix (const void *__restrict__ src, size_t stride, int n, int height,
    const unsigned *__restrict__ seg, int pitch, Vt * __restrict__ v)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int y0 = blockIdx.y * SEG_ROWS, y1 = min (height, y0 + SEG_ROWS);
  unsigned s = seg[(size_t) blockIdx.y * pitch + i];
  for (int y = y0; y < y1; y++) {
    s += cf_row < T > (src, stride, y)[i];
    v[(size_t) y * pitch + i] = (Vt) s;
  }
}

struct RowArgs {
  const void *src;
  size_t src_stride;
  void *dst;
  size_t dst_stride;
  const void *v;                /* column prefixes; NULL when ry = 0 */
  int v_pitch;
  void *gpre;                   /* prefix rows in global memory, or NULL */
  int pre_pitch;                /* elements per channel in a prefix row */
  int ppt;                      /* pixels per thread in the row scan, odd */
  int width, height, rx, ry;
  CfBorder border;
  unsigned mask;
  unsigned long long count;
  float inv_count;
};

/* round (s / count), half up, exactly: the float estimate of a quotient of
 * at most 65535 is within 1 of its floor, which one step corrects. */
template < typename Acc > __device__ __forceinline__ unsigned
div_round (Acc s, unsigned long long count, float inv)
{
  unsigned q = __float2uint_rz ((float) s * inv);
  long long c = (long long) count;
  long long rem = (long long) s - (long long) q *c;
  if (rem < 0) {
    q--;
    rem += c;
  } else if (rem >= c) {
    q++;
    rem -= c;
  }
  return q + (2 * rem >= c);
}

template < typename Acc > __device__ __forceinline__ Acc
warp_inclusive_scan (Acc v, int lane)
{
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    Acc t = __shfl_up_sync (0xffffffffu, v, d);
    if (lane >= d)
      v += t;
  }
  return v;
}

/* One row per iteration: column window sums, their prefix along the row
 * (channel planes of pre_pitch, a zero first), the box, the quotient. */
template < typename T, typename Vt, typename Acc, int C > __global__ void
__launch_bounds__ (1024)
box_rows (const RowArgs a)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ Acc warp_sums[32][C];
  Acc *pre = a.gpre ? (Acc *) a.gpre + (size_t) blockIdx.x * C * a.pre_pitch :
      (Acc *) smem;
  const int n = a.width * C;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int x0 = min (a.width, tid * a.ppt), x1 = min (a.width, x0 + a.ppt);

  for (int y = blockIdx.x; y < a.height; y += gridDim.x) {
    const T *in = cf_row < T > (a.src, a.src_stride, y);
    T *out = cf_row < T > (a.dst, a.dst_stride, y);
    const CfSatWindow wy = cf_sat_window (y, a.ry, a.height, a.border);

    for (int i = tid; i < n; i += blockDim.x) {
      Acc b;
      if (a.v) {
        const Vt *v = (const Vt *) a.v + i;
        unsigned s = 0;
#pragma unroll
        for (int k = 0; k < CF_SAT_TERMS; k++)
          if (wy.w[k] != 0 && wy.t[k] > 0)
            s += (unsigned) wy.w[k] * (unsigned) v[(size_t) (wy.t[k] - 1) *
                a.v_pitch];
        b = (Vt) s;
      } else {
        b = in[i];
      }
      const int x = i / C;
      pre[(i - x * C) * a.pre_pitch + x + 1] = b;
    }
    if (tid < C)
      pre[tid * a.pre_pitch] = 0;
    __syncthreads ();

    Acc run[C], incl[C];
#pragma unroll
    for (int c = 0; c < C; c++) {
      Acc *p = pre + c * a.pre_pitch + 1, s = 0;
      for (int x = x0; x < x1; x++) {
        s += p[x];
        p[x] = s;
      }
      run[c] = s;
      incl[c] = warp_inclusive_scan (s, lane);
      if (lane == 31)
        warp_sums[warp][c] = incl[c];
    }
    __syncthreads ();
    if (warp == 0) {
#pragma unroll
      for (int c = 0; c < C; c++) {
        Acc own = lane < (int) (blockDim.x >> 5) ? warp_sums[lane][c] : 0;
        warp_sums[lane][c] = warp_inclusive_scan (own, lane) - own;
      }
    }
    __syncthreads ();
#pragma unroll
    for (int c = 0; c < C; c++) {
      Acc *p = pre + c * a.pre_pitch + 1;
      Acc off = warp_sums[warp][c] + incl[c] - run[c];
      for (int x = x0; x < x1; x++)
        p[x] += off;
    }
    __syncthreads ();

    for (int i = tid; i < n; i += blockDim.x) {
      const int x = i / C, c = i - x * C;
      if (!((a.mask >> c) & 1u)) {
        out[i] = in[i];
        continue;
      }
      const Acc *p = pre + c * a.pre_pitch;
      Acc s;
      if (cf_sat_inside (x, a.rx, a.width)) {
        s = p[x + a.rx + 1] - p[x - a.rx];
      } else {
        const CfSatWindow wx = cf_sat_window (x, a.rx, a.width, a.border);
        s = 0;
#pragma unroll
        for (int k = 0; k < CF_SAT_TERMS; k++)
          s += (Acc) wx.w[k] * p[wx.t[k]];
      }
      out[i] = (T) div_round (s, a.count, a.inv_count);
    }
    /* The next row rewrites pre. */
    __syncthreads ();
  }
}

/* How one call lays out its scratch and launches. */
struct Plan {
  int n, v_pitch, segments;
  bool v16, acc64, shared;
  int threads, grid;
  size_t smem;
  size_t v_off, seg_off, tmp_off, pre_off, total;
  size_t tmp_stride;
};

size_t
align256 (size_t x)
{
  return (x + 255) & ~(size_t) 255;
}

CfStatus
make_plan (const CfPlane * src, const CfSatBlurParams * p, RowArgs * a,
    Plan * pl)
{
  const int w = src->width, h = src->height, C = src->channels;
  const unsigned long long max = src->depth > 8 ? 65535 : 255;
  int dev, optin;
  cudaError_t err = cudaGetDevice (&dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);

  a->count = (unsigned long long) (2 * p->radius_x + 1) *
      (unsigned long long) (2 * p->radius_y + 1);
  a->inv_count = 1.0f / (float) a->count;
  pl->n = w * C;
  pl->v_pitch = (pl->n + 63) & ~63;
  pl->segments = (h + SEG_ROWS - 1) / SEG_ROWS;
  pl->v16 = src->depth == 8 && (2ull * p->radius_y + 1) * max < 65536;
  pl->acc64 = a->count * max >= (1ull << 32);

  /* Runs of about 8 pixels per thread, of odd length so that the threads of
   * a warp hit different shared-memory banks. */
  pl->threads = ((w + 7) / 8 + 31) & ~31;
  pl->threads = pl->threads < 64 ? 64 : (pl->threads > 1024 ? 1024 :
      pl->threads);
  a->ppt = ((w + pl->threads - 1) / pl->threads) | 1;
  /* Channel planes offset by 32 / C banks from each other. */
  a->pre_pitch = ((w + 1 + 31) & ~31) + (C > 1 ? 32 / C : 0);
  size_t acc = pl->acc64 ? 8 : 4;
  size_t pre_bytes = (size_t) C * a->pre_pitch * acc;
  size_t static_bytes = 32 * 4 * acc;
  pl->shared = pre_bytes + static_bytes <= (size_t) optin;
  pl->grid = pl->shared ? h : (h < GLOBAL_PREFIX_BLOCKS ? h :
      GLOBAL_PREFIX_BLOCKS);
  pl->smem = pl->shared ? pre_bytes : 0;

  pl->tmp_stride = align256 ((size_t) pl->n * cf_plane_bytes_per_sample (src));
  size_t off = 0;
  pl->v_off = off;
  if (p->radius_y > 0)
    off += align256 ((size_t) h * pl->v_pitch * (pl->v16 ? 2 : 4));
  pl->seg_off = off;
  if (p->radius_y > 0)
    off += align256 ((size_t) pl->segments * pl->v_pitch * 4);
  pl->tmp_off = off;
  if (p->passes > 1)
    off += (size_t) h * pl->tmp_stride;
  pl->pre_off = off;
  if (!pl->shared)
    off += align256 ((size_t) pl->grid * pre_bytes);
  pl->total = off;
  return CF_OK;
}

template < typename T, typename Vt > CfStatus
columns (const CfPlane * in, const Plan & pl, unsigned *seg, Vt * v,
    cudaStream_t stream)
{
  dim3 grid ((pl.n + COL_THREADS - 1) / COL_THREADS, pl.segments);
  segment_sums < T > <<<grid, COL_THREADS, 0, stream>>> (in->data,
      in->stride, pl.n, in->height, seg, pl.v_pitch);
  segment_scan <<<grid.x, COL_THREADS, 0, stream>>> (seg, pl.v_pitch, pl.n,
      pl.segments);
  column_prefix < T, Vt > <<<grid, COL_THREADS, 0, stream>>> (in->data,
      in->stride, pl.n, in->height, seg, pl.v_pitch, v);
  return cf_launch_status ();
}

template < typename T, typename Vt, typename Acc, int C > CfStatus
rows_c (const RowArgs & a, const Plan & pl, cudaStream_t stream)
{
  if (pl.smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (box_rows < T, Vt, Acc, C >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) pl.smem);
    if (err != cudaSuccess)
      return cf_status_from_cuda (err);
  }
  box_rows < T, Vt, Acc, C > <<<pl.grid, pl.threads, pl.smem, stream>>> (a);
  return cf_launch_status ();
}

template < typename T, typename Vt, typename Acc > CfStatus
rows (const RowArgs & a, const Plan & pl, int channels, cudaStream_t stream)
{
  switch (channels) {
    case 1:
      return rows_c < T, Vt, Acc, 1 > (a, pl, stream);
    case 2:
      return rows_c < T, Vt, Acc, 2 > (a, pl, stream);
    case 3:
      return rows_c < T, Vt, Acc, 3 > (a, pl, stream);
    default:
      return rows_c < T, Vt, Acc, 4 > (a, pl, stream);
  }
}

/* One pass, in -> out. */
template < typename T > CfStatus
pass (const CfPlane * in, const CfPlane * out, RowArgs a, const Plan & pl,
    unsigned char *scratch, cudaStream_t stream)
{
  CfStatus st = CF_OK;
  a.src = in->data;
  a.src_stride = in->stride;
  a.dst = out->data;
  a.dst_stride = out->stride;
  a.v = a.ry > 0 ? scratch + pl.v_off : NULL;
  unsigned *seg = (unsigned *) (scratch + pl.seg_off);

  /* 16-bit column prefixes only ever hold 8-bit samples. */
  if constexpr (sizeof (T) == 1) {
    if (pl.v16) {
      if (a.ry > 0)
        st = columns < T, unsigned short > (in, pl, seg,
            (unsigned short *) a.v, stream);
      return st != CF_OK ? st : rows < T, unsigned short, unsigned > (a, pl,
          in->channels, stream);
    }
  }
  if (a.ry > 0)
    st = columns < T, unsigned > (in, pl, seg, (unsigned *) a.v, stream);
  if (st != CF_OK)
    return st;
  if (pl.acc64)
    return rows < T, unsigned, unsigned long long > (a, pl, in->channels,
        stream);
  return rows < T, unsigned, unsigned > (a, pl, in->channels, stream);
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

  RowArgs a = { };
  Plan pl;
  st = make_plan (src, p, &a, &pl);
  if (st == CF_OK)
    st = cf_scratch_reserve (exec->scratch, pl.total);
  if (st != CF_OK)
    return st;

  unsigned char *scratch = (unsigned char *) exec->scratch->data;
  a.v_pitch = pl.v_pitch;
  a.gpre = pl.shared ? NULL : scratch + pl.pre_off;
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
    st = src->depth > 8 ?
        pass < unsigned short > (in, out, a, pl, scratch, stream) :
        pass < unsigned char > (in, out, a, pl, scratch, stream);
    in = out;
  }
  return st;
}
