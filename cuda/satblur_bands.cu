/* cudasatblur, second stage of a pass: one block per band of rows, across
 * the whole width, all channels. Each thread keeps the column window sums
 * of its run of samples (2 ry + 1 rows each) in registers: the band's first
 * row from the column prefixes of satblur_columns.cu plus at most
 * seg_rows / 2 rows of input per term, every later row by adding the row
 * that enters and subtracting the one that leaves. Per row the block then
 * scans those window sums along the row into shared memory (each thread
 * its run, a warp-shuffle scan across runs and warps), takes every box as
 * the difference of two prefixes (at most five at the borders) and writes
 * the rounded quotient. The column table is never stored.
 *
 * Window sums fit 32 bits ((2 ry + 1) x 65535 < 2^32); the row prefixes are
 * kept modulo 2^32, or 2^64 when a box's sum may not fit 32 bits, and their
 * differences are exact. Rows longer than a block's runs take several
 * rounds, their window sums then kept in global memory; row prefixes too
 * large for shared memory live in global memory (GP). */
#include "satblur_kernels.cuh"
#include "satblur_window.h"

namespace satblur {
namespace {

constexpr int MAX_THREADS = 1024;

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

/* Where element e of a row prefix lives: one pad after every run, so that
 * the threads of a warp, each at the same place in its own run, use
 * different banks. */
template < int N > __device__ __forceinline__ int
pidx (int e)
{
  return e + e / N;
}

/* The run's column prefix at row t (the sum of rows 0..t-1), from the
 * prefix at the nearer segment boundary and the rows in between. */
template < typename T, int N > __device__ __forceinline__ void
column_prefix_at (const BandArgs & a, int t, int start, int valid,
    unsigned (&v)[N])
{
  const int s = t / a.seg_rows, lo = s * a.seg_rows;
  const int hi = min (a.height, lo + a.seg_rows);
  const bool forward = t - lo <= hi - t;
  const uint4 *p = (const uint4 *) (a.col_prefix +
      (size_t) (forward ? s : s + 1) * a.col_pitch + start);
#pragma unroll
  for (int k = 0; k < N / 4; k++) {
    const uint4 q = p[k];
    v[4 * k] = q.x;
    v[4 * k + 1] = q.y;
    v[4 * k + 2] = q.z;
    v[4 * k + 3] = q.w;
  }
  const int y0 = forward ? lo : t, y1 = forward ? t : hi;
  const unsigned sign = forward ? 1u : ~0u;
#pragma unroll 4
  for (int y = y0; y < y1; y++) {
    const Run < T, N > r = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, y) + start, valid, a.vec_src);
#pragma unroll
    for (int j = 0; j < N; j++)
      v[j] += sign * r.get (j);
  }
}

/* The run's column window sums at row y: from the prefixes at the band's
 * first row y0, else by sliding the window down from row y - 1 (in vw, or
 * in gwin when rows take several rounds). */
template < typename T, int N > __device__ __forceinline__ void
window_sums (const BandArgs & a, int y, int y0, int start, int valid,
    unsigned *gwin, unsigned (&vw)[N])
{
  if (valid <= 0) {
#pragma unroll
    for (int j = 0; j < N; j++)
      vw[j] = 0;
    return;
  }
  if (a.ry == 0) {
    const Run < T, N > r = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, y) + start, valid, a.vec_src);
#pragma unroll
    for (int j = 0; j < N; j++)
      vw[j] = r.get (j);
    return;
  }
  if (y == y0) {
    const CfSatWindow wy = cf_sat_window (y0, a.ry, a.height, a.border);
#pragma unroll
    for (int j = 0; j < N; j++)
      vw[j] = 0;
#pragma unroll 1
    for (int k = 0; k < CF_SAT_TERMS; k++) {
      if (wy.w[k] == 0 || wy.t[k] == 0)
        continue;
      unsigned c[N];
      column_prefix_at < T, N > (a, wy.t[k], start, valid, c);
#pragma unroll
      for (int j = 0; j < N; j++)
        vw[j] += (unsigned) wy.w[k] * c[j];
    }
  } else {
    if (gwin) {
#pragma unroll
      for (int k = 0; k < N / 4; k++) {
        const uint4 q = ((const uint4 *) (gwin + start))[k];
        vw[4 * k] = q.x;
        vw[4 * k + 1] = q.y;
        vw[4 * k + 2] = q.z;
        vw[4 * k + 3] = q.w;
      }
    }
    const int enter = cf_border_index (y + a.ry, a.height, a.border);
    const int leave = cf_border_index (y - a.ry - 1, a.height, a.border);
    const Run < T, N > e = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, enter) + start, valid, a.vec_src);
    const Run < T, N > l = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, leave) + start, valid, a.vec_src);
#pragma unroll
    for (int j = 0; j < N; j++)
      vw[j] += e.get (j) - l.get (j);
  }
  if (gwin) {
#pragma unroll
    for (int k = 0; k < N / 4; k++)
      ((uint4 *) (gwin + start))[k] = make_uint4 (vw[4 * k], vw[4 * k + 1],
          vw[4 * k + 2], vw[4 * k + 3]);
  }
}

/* The boxes of one run of row y from the row prefix, and its output. */
template < typename T, typename Acc, int C > __device__ __forceinline__ void
box_run (const BandArgs & a, const Acc * pre, int y, int start, int valid)
{
  constexpr int N = run_samples < C > (), PIX = N / C;
  const int x0 = start / C;
  Run < T, N > o;
#pragma unroll
  for (int k = 0; k < Run < T, N >::WORDS; k++)
    o.w[k] = 0;

  if (valid >= N && x0 >= a.rx && x0 + PIX + a.rx <= a.width) {
    const int hi = start + (a.rx + 1) * C, lo = start - a.rx * C;
#pragma unroll
    for (int j = 0; j < N; j++)
      o.set (j, div_round < Acc > (pre[pidx < N > (hi + j)] -
              pre[pidx < N > (lo + j)], a.count, a.inv_count));
  } else {
#pragma unroll
    for (int p = 0; p < PIX; p++) {
      const int x = x0 + p;
      if (x >= a.width)
        break;
      const bool inside = cf_sat_inside (x, a.rx, a.width);
      CfSatWindow wx = { };
      if (!inside)
        wx = cf_sat_window (x, a.rx, a.width, a.border);
#pragma unroll
      for (int c = 0; c < C; c++) {
        Acc s;
        if (inside) {
          s = pre[pidx < N > ((x + a.rx + 1) * C + c)] -
              pre[pidx < N > ((x - a.rx) * C + c)];
        } else {
          s = 0;
#pragma unroll
          for (int k = 0; k < CF_SAT_TERMS; k++)
            if (wx.w[k] != 0)
              s += (Acc) wx.w[k] * pre[pidx < N > (wx.t[k] * C + c)];
        }
        o.set (p * C + c, div_round < Acc > (s, a.count, a.inv_count));
      }
    }
  }

  if ((a.mask & ((1u << C) - 1u)) != (1u << C) - 1u) {
    const Run < T, N > in = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, y) + start, valid, a.vec_src);
#pragma unroll
    for (int j = 0; j < N; j++)
      if (!((a.mask >> (j % C)) & 1u))
        o.set (j, in.get (j));
  }
  store_run < T, N > (cf_row < T > (a.dst, a.dst_stride, y) + start, o,
      valid, a.vec_dst);
}

template < typename T, typename Acc, int C, bool GP > __global__ void
__launch_bounds__ (MAX_THREADS)
box_bands (const BandArgs a)
{
  constexpr int N = run_samples < C > ();
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ Acc warp_sums[2][32][C];
  Acc *pre = GP ? (Acc *) a.gpre + (size_t) blockIdx.x * a.pre_len :
      (Acc *) smem;
  unsigned *gwin = a.gwin ? a.gwin + (size_t) blockIdx.x * a.win_pitch : NULL;
  const int n = a.width * C, round = blockDim.x * N;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int warps = blockDim.x >> 5;
  unsigned vw[N];

  /* P(0) of each channel: the elements before the first pixel. */
  if (tid < C)
    pre[tid] = 0;

  for (int band = blockIdx.x; band < a.bands; band += gridDim.x) {
    const int y0 = band * a.band_rows, y1 = min (a.height, y0 + a.band_rows);
    for (int y = y0; y < y1; y++) {
      Acc carry[C];
#pragma unroll
      for (int c = 0; c < C; c++)
        carry[c] = 0;
      /* The prefix along the row, a round of blockDim.x runs at a time;
       * warp_sums alternates between rounds, so one barrier per round. */
      int buf = 0;
      for (int base = 0; base < n; base += round, buf ^= 1) {
        const int start = base + tid * N, valid = n - start;
        window_sums < T, N > (a, y, y0, start, valid, gwin, vw);
        Acc tot[C], incl[C];
#pragma unroll
        for (int c = 0; c < C; c++)
          tot[c] = 0;
#pragma unroll
        for (int j = 0; j < N; j++)
          tot[j % C] += vw[j];
#pragma unroll
        for (int c = 0; c < C; c++) {
          incl[c] = warp_inclusive_scan < Acc > (tot[c], lane);
          if (lane == 31)
            warp_sums[buf][warp][c] = incl[c];
        }
        __syncthreads ();
        Acc run[C];
#pragma unroll
        for (int c = 0; c < C; c++) {
          const Acc w = lane < warps ? warp_sums[buf][lane][c] : 0;
          const Acc wi = warp_inclusive_scan < Acc > (w, lane);
          run[c] = carry[c] + __shfl_sync (0xffffffffu, wi - w, warp) +
              incl[c] - tot[c];
          carry[c] += __shfl_sync (0xffffffffu, wi, 31);
        }
#pragma unroll
        for (int j = 0; j < N; j++) {
          run[j % C] += vw[j];
          if (j < valid)
            pre[pidx < N > (start + C + j)] = run[j % C];
        }
      }
      __syncthreads ();
      for (int base = 0; base < n; base += round) {
        const int start = base + tid * N;
        if (start < n)
          box_run < T, Acc, C > (a, pre, y, start, n - start);
      }
      /* The next row's first barrier keeps its prefix writes after these
       * reads. */
    }
  }
}

template < typename T, typename Acc, int C, bool GP > CfStatus
launch (const BandArgs & a, int threads, int blocks, size_t smem,
    cudaStream_t stream)
{
  box_bands < T, Acc, C, GP > <<<blocks, threads, smem, stream>>> (a);
  return cf_launch_status ();
}

template < typename T, typename Acc, int C > CfStatus
launch_where (const BandArgs & a, int threads, int blocks, size_t smem,
    cudaStream_t stream)
{
  return a.gpre ? launch < T, Acc, C, true > (a, threads, blocks, 0, stream) :
      launch < T, Acc, C, false > (a, threads, blocks, smem, stream);
}

template < typename T, typename Acc > CfStatus
launch_channels (const BandArgs & a, int channels, int threads, int blocks,
    size_t smem, cudaStream_t stream)
{
  switch (channels) {
    case 1:
      return launch_where < T, Acc, 1 > (a, threads, blocks, smem, stream);
    case 2:
      return launch_where < T, Acc, 2 > (a, threads, blocks, smem, stream);
    case 3:
      return launch_where < T, Acc, 3 > (a, threads, blocks, smem, stream);
    default:
      return launch_where < T, Acc, 4 > (a, threads, blocks, smem, stream);
  }
}

template < typename T, typename Acc > cudaError_t
allow_shared (int device, int bytes)
{
  const void *kernels[] = {
    (const void *) box_bands < T, Acc, 1, false >,
    (const void *) box_bands < T, Acc, 2, false >,
    (const void *) box_bands < T, Acc, 3, false >,
    (const void *) box_bands < T, Acc, 4, false >,
  };
  for (const void *k : kernels) {
    cudaKernel_t kernel;
    cudaError_t err = cudaGetKernel (&kernel, k);
    if (err == cudaSuccess)
      err = cudaKernelSetAttributeForDevice (kernel,
          cudaFuncAttributeMaxDynamicSharedMemorySize, bytes, device);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

}                               /* namespace */

CfStatus
launch_bands (const BandArgs & a, int depth, int channels, bool acc64,
    int threads, int blocks, size_t smem, cudaStream_t stream)
{
  if (depth > 8)
    return acc64 ?
        launch_channels < unsigned short, unsigned long long > (a, channels,
        threads, blocks, smem, stream) :
        launch_channels < unsigned short, unsigned > (a, channels, threads,
        blocks, smem, stream);
  return acc64 ?
      launch_channels < unsigned char, unsigned long long > (a, channels,
      threads, blocks, smem, stream) :
      launch_channels < unsigned char, unsigned > (a, channels, threads,
      blocks, smem, stream);
}

cudaError_t
allow_band_shared (int device, int bytes)
{
  cudaError_t err = allow_shared < unsigned char, unsigned > (device, bytes);
  if (err == cudaSuccess)
    err = allow_shared < unsigned char, unsigned long long > (device, bytes);
  if (err == cudaSuccess)
    err = allow_shared < unsigned short, unsigned > (device, bytes);
  if (err == cudaSuccess)
    err = allow_shared < unsigned short, unsigned long long > (device, bytes);
  return err;
}

}                               /* namespace satblur */
