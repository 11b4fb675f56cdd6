/* cudasatblur, second stage of a pass: one block per band of rows, across
 * the whole width, all channels. Each thread keeps the column window sums
 * of its run of samples (2 ry + 1 rows each) in registers: the band's first
 * row from the column prefixes of satblur_columns.cu plus at most
 * SEG_ROWS / 2 rows of input per term, every later row by adding the row
 * that enters and subtracting the one that leaves. Per row the block then
 * scans those window sums along the row into shared memory (each thread
 * its run, a warp-shuffle scan across runs and warps), takes every box as
 * the difference of two prefixes (at most five at the borders) and writes
 * the rounded quotient. The column table is never stored.
 *
 * Window sums fit 32 bits ((2 ry + 1) x 65535 < 2^32); the row prefixes are
 * kept modulo 2^32, or 2^64 when a box's sum (plus half the count, for the
 * rounding) may not fit 32 bits, and their differences are exact. Rows
 * longer than a block's runs take several rounds, their window sums then
 * kept in global memory; row prefixes too large for shared memory live in
 * global memory (GP). */
#include "satblur_kernels.cuh"
#include "satblur_window.h"
#include "cf_dispatch.cuh"

namespace satblur {
namespace {

/* round (s / count), half up, exactly: the float estimate of a quotient of
 * at most 65535 is within 1 of its floor, which one step corrects. */
__device__ __forceinline__ unsigned
div_round (unsigned long long s, const BandArgs & a)
{
  unsigned q = __float2uint_rz ((float) s * a.inv_count);
  long long c = (long long) a.count;
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

/* The same for 32-bit sums, in integers (satblur_divide.h). */
__device__ __forceinline__ unsigned
div_round (unsigned s, const BandArgs & a)
{
  return cf_round_div (s, &a.div);
}

/* Adds w times the run's column prefix at row t (the sum of rows 0..t-1)
 * to v: the prefix at the nearer segment boundary and the rows in
 * between. */
template < typename T, int N > __device__ __forceinline__ void
column_prefix_add (const BandArgs & a, int t, unsigned w, int start,
    int valid, unsigned (&v)[N])
{
  const int s = t / SEG_ROWS, lo = s * SEG_ROWS;
  const int hi = min (a.height, lo + SEG_ROWS);
  const bool forward = t - lo <= hi - t;
  const uint4 *p = (const uint4 *) (a.col_prefix +
      (size_t) (forward ? s : s + 1) * a.pitch + start);
#pragma unroll
  for (int k = 0; k < N / 4; k++) {
    const uint4 q = p[k];
    v[4 * k] += w * q.x;
    v[4 * k + 1] += w * q.y;
    v[4 * k + 2] += w * q.z;
    v[4 * k + 3] += w * q.w;
  }
  const int y0 = forward ? lo : t, y1 = forward ? t : hi;
  const unsigned sign = forward ? w : 0u - w;
#pragma unroll 4
  for (int y = y0; y < y1; y++) {
    const Run < T, N > r = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, y) + start, valid, a.vec_src);
#pragma unroll
    for (int j = 0; j < N; j++)
      v[j] += sign * r.get (j);
  }
}

/* The rows that enter and leave the column windows from row y - 1 to y. */
__device__ __forceinline__ int
entering_row (const BandArgs & a, int y)
{
  return cf_border_index (y + a.ry, a.height, a.border);
}

__device__ __forceinline__ int
leaving_row (const BandArgs & a, int y)
{
  return cf_border_index (y - a.ry - 1, a.height, a.border);
}

/* Asks for the run's part of a row in L1 ahead of its use (a hint: no
 * registers held, no effect on the result). */
template < typename T > __device__ __forceinline__ void
prefetch_l1 (const BandArgs & a, int y, int start)
{
  asm volatile ("prefetch.global.L1 [%0];"::"l" (cf_row < T > (a.src,
              a.src_stride, y) + start));
}

/* The run's column window sums at row y: from the prefixes at the band's
 * first row y0, else by sliding the window down from row y - 1 (held in vw,
 * or in gwin when rows take several rounds); the entering and leaving runs
 * are e_ahead and l_ahead when `ahead`, else loaded here. */
template < typename T, int N > __device__ __forceinline__ void
window_sums (const BandArgs & a, int y, int y0, int start, int valid,
    unsigned *gwin, unsigned (&vw)[N], const Run < T, N > &e_ahead,
    const Run < T, N > &l_ahead, bool ahead)
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
#pragma unroll
    for (int j = 0; j < N; j++)
      vw[j] = 0;
    if (cf_sat_inside (y0, a.ry, a.height)) {
      /* Most bands: two prefixes, without the general window's table (in
       * local memory, as the loop below indexes it). */
      column_prefix_add < T, N > (a, y0 + a.ry + 1, 1u, start, valid, vw);
      column_prefix_add < T, N > (a, y0 - a.ry, ~0u, start, valid, vw);
    } else {
      const CfSatWindow wy = cf_sat_window (y0, a.ry, a.height, a.border);
#pragma unroll 1
      for (int k = 0; k < CF_SAT_TERMS; k++)
        if (wy.w[k] != 0 && wy.t[k] != 0)
          column_prefix_add < T, N > (a, wy.t[k], (unsigned) wy.w[k], start,
              valid, vw);
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
    const Run < T, N > e = ahead ? e_ahead : load_run < T, N > (cf_row < T >
        (a.src, a.src_stride, entering_row (a, y)) + start, valid, a.vec_src);
    const Run < T, N > l = ahead ? l_ahead : load_run < T, N > (cf_row < T >
        (a.src, a.src_stride, leaving_row (a, y)) + start, valid, a.vec_src);
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

/* E(k) of channel c with clamp borders (satblur_window.h), without
 * branches: P at k clamped to 0..width, plus the first pixel (P(1)) times
 * how far k lies before the row, plus the last pixel times how far after
 * it. */
template < typename Acc, int C, int N > __device__ __forceinline__ Acc
clamp_prefix (const Acc * pre, int k, int c, int width, Acc first, Acc last)
{
  const int t = min (max (k, 0), width);
  return pre[pidx (t * C + c, N)] + (Acc) min (k, 0) * first +
      (Acc) max (k - width, 0) * last;
}

/* The boxes of one run of row y from the row prefix, and its output. */
template < typename T, typename Acc, int C > __device__ __forceinline__ void
box_run (const BandArgs & a, const Acc * pre, int y, int start, int valid)
{
  constexpr int N = run_samples (C), PIX = N / C;
  const int x0 = start / C;
  Run < T, N > o;
#pragma unroll
  for (int k = 0; k < Run < T, N >::WORDS; k++)
    o.w[k] = 0;

  if (valid >= N && x0 >= a.rx && x0 + PIX + a.rx <= a.width) {
    const int hi = start + (a.rx + 1) * C, lo = start - a.rx * C;
#pragma unroll
    for (int j = 0; j < N; j++)
      o.set (j, div_round (pre[pidx (hi + j, N)] -
              pre[pidx (lo + j, N)], a));
  } else if (a.border == CF_BORDER_CLAMP) {
    /* The edge runs hold up every row's barrier: no branches here. Samples
     * past the row are computed (in bounds) but not stored. */
    Acc first[C], last[C];
#pragma unroll
    for (int c = 0; c < C; c++) {
      first[c] = pre[pidx (C + c, N)];
      last[c] = pre[pidx (a.width * C + c, N)] -
          pre[pidx ((a.width - 1) * C + c, N)];
    }
#pragma unroll
    for (int j = 0; j < N; j++) {
      const int x = x0 + j / C, c = j % C;
      o.set (j, div_round (clamp_prefix < Acc, C, N > (pre, x + a.rx + 1, c,
                  a.width, first[c], last[c]) - clamp_prefix < Acc, C,
              N > (pre, x - a.rx, c, a.width, first[c], last[c]), a));
    }
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
        Acc s = 0;
        if (inside)
          s = pre[pidx ((x + a.rx + 1) * C + c, N)] -
              pre[pidx ((x - a.rx) * C + c, N)];
#pragma unroll
        for (int k = 0; k < CF_SAT_TERMS; k++)
          if (wx.w[k] != 0)
            s += (Acc) wx.w[k] * pre[pidx (wx.t[k] * C + c, N)];
        o.set (p * C + c, div_round (s, a));
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
__launch_bounds__ (band_max_threads (C), band_min_blocks (C))
box_bands (const BandArgs a)
{
  constexpr int N = run_samples (C);
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ Acc warp_sums[2][32][C];
  Acc *pre = GP ? (Acc *) a.gpre + (size_t) blockIdx.x * a.pre_len :
      (Acc *) smem;
  unsigned *gwin = a.gwin ? a.gwin + (size_t) blockIdx.x * a.pitch : NULL;
  const int n = a.width * C, round = blockDim.x * N;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int warps = blockDim.x >> 5;
  unsigned vw[N];

  /* P(0) of each channel: the elements before the first pixel. */
  if (tid < C)
    pre[tid] = 0;

  /* Row y's entering and leaving runs, loaded into registers during row
   * y - 1 when rows take one round, else prefetched to L1. Only for 8-bit
   * samples and 32-bit sums: other kernels would spill registers. */
  constexpr bool AHEAD = sizeof (T) == 1 && sizeof (Acc) == 4;
  Run < T, N > e_ahead = { }, l_ahead = { };
  const bool ahead = AHEAD && n <= round;
  const int y0 = blockIdx.x * a.band_rows;
  const int y1 = min (a.height, y0 + a.band_rows);
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
      window_sums < T, N > (a, y, y0, start, valid, gwin, vw, e_ahead,
          l_ahead, ahead);
      if (a.ry > 0 && y + 1 < y1 && valid > 0) {
        if (ahead) {
          e_ahead = load_run < T, N > (cf_row < T > (a.src, a.src_stride,
                  entering_row (a, y + 1)) + start, valid, a.vec_src);
          l_ahead = load_run < T, N > (cf_row < T > (a.src, a.src_stride,
                  leaving_row (a, y + 1)) + start, valid, a.vec_src);
        } else {
          prefetch_l1 < T > (a, entering_row (a, y + 1), start);
          prefetch_l1 < T > (a, leaving_row (a, y + 1), start);
        }
      }
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
      /* pidx (start + C + j, N), with start a multiple of N. */
      Acc *out = pre + pidx (start, N);
#pragma unroll
      for (int j = 0; j < N; j++) {
        run[j % C] += vw[j];
        if (j < valid)
          out[C + j + (C + j) / N] = run[j % C];
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
  return cf_with_channels (channels, [&](auto c) {
        return launch_where < T, Acc, decltype (c)::value > (a, threads,
            blocks, smem, stream);
      });
}

template < typename T, typename Acc > cudaError_t
setup (int device, int bytes, int (&regs)[4], int (&static_shared)[4])
{
  const void *kernels[] = {
    (const void *) box_bands < T, Acc, 1, false >,
    (const void *) box_bands < T, Acc, 2, false >,
    (const void *) box_bands < T, Acc, 3, false >,
    (const void *) box_bands < T, Acc, 4, false >,
  };
  for (int c = 0; c < 4; c++) {
    cudaFuncAttributes attr;
    cudaError_t err = cf_allow_dynamic_smem (kernels[c], device, bytes);
    if (err == cudaSuccess)
      err = cudaFuncGetAttributes (&attr, kernels[c]);
    if (err != cudaSuccess)
      return err;
    regs[c] = attr.numRegs;
    static_shared[c] = (int) attr.sharedSizeBytes;
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
setup_bands (int device, int bytes, BandKernels * k)
{
  cudaError_t err = setup < unsigned char, unsigned > (device, bytes,
      k->regs[0][0], k->static_shared[0][0]);
  if (err == cudaSuccess)
    err = setup < unsigned char, unsigned long long > (device, bytes,
        k->regs[0][1], k->static_shared[0][1]);
  if (err == cudaSuccess)
    err = setup < unsigned short, unsigned > (device, bytes,
        k->regs[1][0], k->static_shared[1][0]);
  if (err == cudaSuccess)
    err = setup < unsigned short, unsigned long long > (device, bytes,
        k->regs[1][1], k->static_shared[1][1]);
  return err;
}

}                               /* namespace satblur */
