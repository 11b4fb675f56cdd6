/* Bilateral filter kernels. One tiled kernel filters over any window
 * shape: the exact filter runs it once with the elliptic window, the
 * separable approximation twice, with a 1-row then a 1-column window,
 * through scratch.
 *
 * A block loads its tile plus halo into shared memory once, with only the
 * filtered channels packed per pixel, and lists the window's taps (offset
 * in the tile, log2 of the spatial weight) beside it. Each thread then
 * walks that list for PIX_Y output pixels of one column. The spatial and
 * range weights multiply as one exp2 of a sum, so a tap costs one FFMA and
 * one MUFU.EX2 per weight. A 256-entry range table in shared memory was
 * measured 1.4x to 1.7x slower (a warp's random differences hit random
 * banks; docs/cudabilateral.md), and for 16 bits it would quantise. Sums
 * are taken relative to the centre value, so the output is centre +
 * sum (w d) / sum (w), one division per filtered channel; the centre itself
 * weighs exactly 1 and is not in the list. */
#include "bilateral.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int PIX_Y = 4;                /* output rows per thread */
constexpr int TILE_W = BLOCK_X;
constexpr int TILE_H = BLOCK_Y * PIX_Y;
/* A fixed tile pitch makes the offsets between a thread's pixels
 * immediates: one address add per tap serves all PIX_Y of them. */
constexpr int PITCH = TILE_W + 2 * CF_BILATERAL_MAX_RADIUS;
constexpr int MAX_ROWS = 2 * CF_BILATERAL_MAX_RADIUS + 1;
/* Tile rows each thread loads at once: independent loads in flight, so the
 * load phase is not one memory latency per row. */
constexpr int LOAD_BATCH = 4;
/* 0x4B00_00vv is the float 2^23 + v: samples (< 2^16) become floats with
 * one logic op, and differences of such floats are exact. */
constexpr float BIAS = 8388608.0f;

struct Args {
  int rx, ry;
  int half_w[MAX_ROWS];         /* per row dy + ry: the largest |dx| */
  int row_start[MAX_ROWS];      /* per row: the index of its first tap */
  int ntaps;                    /* all but the centre */
  float lx[CF_BILATERAL_MAX_RADIUS + 1];
  float ly[CF_BILATERAL_MAX_RADIUS + 1];
  float nk;
  int channels;
  int chan[4];                  /* the channel of each filtered slot */
  unsigned mask;
  CfBorder border;
};

__device__ __forceinline__ float
fast_exp2 (float x)
{
  float y;
  asm ("ex2.approx.ftz.f32 %0, %1;" : "=f" (y) : "f" (x));
  return y;
}

/* How the F filtered samples of a pixel sit in shared memory, and how
 * sample j comes back as a float biased by BIAS: a single channel is stored
 * as that float, packed samples come out with one byte permute. */
template < typename T, int F, bool ONE = (F == 1) > struct Pixel;

template < typename T, int F > struct Pixel <T, F, true > {
  typedef float S;
  static __device__ __forceinline__ S pack (const unsigned *v)
  {
    return __uint_as_float (0x4B000000u | v[0]);
  }
  static __device__ __forceinline__ float get (S s, int)
  {
    return s;
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

template < int F > struct Pixel <unsigned char, F, false > {
  typedef unsigned S;
  static __device__ __forceinline__ S pack (const unsigned *v)
  {
    unsigned s = 0;
#pragma unroll
    for (int j = 0; j < F; j++)
      s |= v[j] << (8 * j);
    return s;
  }
  static __device__ __forceinline__ float get (S s, int j)
  {
    return __uint_as_float (__byte_perm (s, 0x4B000000u, 0x7540 + j));
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

__device__ __forceinline__ float
biased_half (unsigned word, int k)
{
  return __uint_as_float (__byte_perm (word, 0x4B000000u,
          0x7400 | ((2 * k + 1) << 4) | (2 * k)));
}

template <> struct Pixel <unsigned short, 2, false > {
  typedef unsigned S;
  static __device__ __forceinline__ S pack (const unsigned *v)
  {
    return v[0] | v[1] << 16;
  }
  static __device__ __forceinline__ float get (S s, int j)
  {
    return biased_half (s, j);
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

template < int F > struct Pixel <unsigned short, F, false > {
  typedef uint2 S;
  static __device__ __forceinline__ S pack (const unsigned *v)
  {
    return make_uint2 (v[0] | v[1] << 16, v[2] | (F > 3 ? v[3] << 16 : 0u));
  }
  static __device__ __forceinline__ float get (S s, int j)
  {
    return biased_half (j < 2 ? s.x : s.y, j & 1);
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a.x == b.x && a.y == b.y;
  }
};

/* Taps first (8-byte aligned), then the tile; keeps uint2 aligned too. */
__host__ __device__ inline int
taps_slots (int ntaps)
{
  return (ntaps + 1) & ~1;
}

template < typename T, int F, bool JOINT > __global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
bilateral_tile (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const Args a)
{
  typedef Pixel < T, F > P;
  typedef typename P::S S;
  extern __shared__ float2 smem[];
  float2 *taps = smem;
  S *tile = (S *) (smem + taps_slots (a.ntaps));
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * TILE_H;

  /* The window but its centre, a row per warp: byte offset in the tile,
   * log2 of ws. */
  for (int dy = threadIdx.y - a.ry; dy <= a.ry; dy += BLOCK_Y) {
    const int hw = a.half_w[dy + a.ry];
    for (int i = threadIdx.x; i < 2 * hw + (dy != 0); i += BLOCK_X) {
      const int dx = i - hw + (dy == 0 && i >= hw);
      taps[a.row_start[dy + a.ry] + i] =
          make_float2 (__int_as_float ((dy * PITCH + dx) * (int) sizeof (S)),
          a.lx[abs (dx)] + a.ly[abs (dy)]);
    }
  }

  /* The tile and its halo, read through the border mode, LOAD_BATCH rows
   * at a time (a row past the end re-reads the last one). A tile whose
   * samples all equal its first one is flat: there every d is 0, the output
   * is the input, and the taps are skipped (exact; e.g. the black outside
   * an ultrasound sector, letterbox bars). */
  const int cols = TILE_W + 2 * a.rx;
  const int rows = TILE_H + 2 * a.ry;
  S first;
  {
    const T *px = cf_row < T > (src, src_stride,
        cf_border_index (y0 - a.ry, height, a.border)) +
        (size_t) cf_border_index (x0 - a.rx, width, a.border) * a.channels;
    unsigned v[F];
#pragma unroll
    for (int j = 0; j < F; j++)
      v[j] = px[a.chan[j]];
    first = P::pack (v);
  }
  bool same = true;
  for (int r0 = threadIdx.y; r0 < rows; r0 += BLOCK_Y * LOAD_BATCH) {
    for (int c = threadIdx.x; c < cols; c += BLOCK_X) {
      const size_t gx = (size_t) cf_border_index (x0 - a.rx + c, width,
          a.border) * a.channels;
      unsigned v[LOAD_BATCH][F];
#pragma unroll
      for (int b = 0; b < LOAD_BATCH; b++) {
        const int r = min (r0 + b * BLOCK_Y, rows - 1);
        const T *px = cf_row < T > (src, src_stride,
            cf_border_index (y0 - a.ry + r, height, a.border)) + gx;
#pragma unroll
        for (int j = 0; j < F; j++)
          v[b][j] = px[a.chan[j]];
      }
#pragma unroll
      for (int b = 0; b < LOAD_BATCH; b++) {
        const S s = P::pack (v[b]);
        same &= P::equal (s, first);
        if (r0 + b * BLOCK_Y < rows)
          tile[(r0 + b * BLOCK_Y) * PITCH + c] = s;
      }
    }
  }
  const int ntaps = __syncthreads_and (same) ? 0 : a.ntaps;

  const S *centre = tile + (threadIdx.y + a.ry) * PITCH + threadIdx.x + a.rx;
  float cen[PIX_Y][F], acc[PIX_Y][F], wsum[PIX_Y][JOINT ? 1 : F];
#pragma unroll
  for (int k = 0; k < PIX_Y; k++) {
#pragma unroll
    for (int j = 0; j < F; j++) {
      cen[k][j] = P::get (centre[k * BLOCK_Y * PITCH], j);
      acc[k][j] = 0.0f;
      wsum[k][JOINT ? 0 : j] = 1.0f;    /* the centre */
    }
  }

#pragma unroll 2
  for (int t = 0; t < ntaps; t++) {
    const float2 tap = taps[t];
    const S *q = (const S *) ((const char *) centre +
        __float_as_int (tap.x));
#pragma unroll
    for (int k = 0; k < PIX_Y; k++) {
      const S s = q[k * BLOCK_Y * PITCH];
      if (JOINT) {
        float d[F], dd = 0.0f;
#pragma unroll
        for (int j = 0; j < F; j++) {
          d[j] = P::get (s, j) - cen[k][j];
          dd = fmaf (d[j], d[j], dd);
        }
        const float w = fast_exp2 (fmaf (dd, a.nk, tap.y));
#pragma unroll
        for (int j = 0; j < F; j++)
          acc[k][j] = fmaf (w, d[j], acc[k][j]);
        wsum[k][0] += w;
      } else {
#pragma unroll
        for (int j = 0; j < F; j++) {
          const float d = P::get (s, j) - cen[k][j];
          const float w = fast_exp2 (fmaf (d * a.nk, d, tap.y));
          acc[k][j] = fmaf (w, d, acc[k][j]);
          wsum[k][j] += w;
        }
      }
    }
  }

  const int x = x0 + threadIdx.x;
  if (x >= width)
    return;
#pragma unroll
  for (int k = 0; k < PIX_Y; k++) {
    const int y = y0 + threadIdx.y + k * BLOCK_Y;
    if (y >= height)
      continue;
    const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * a.channels;
    T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * a.channels;
    for (int c = 0; c < a.channels; c++)
      if (!((a.mask >> c) & 1u))
        out[c] = in[c];
#pragma unroll
    for (int j = 0; j < F; j++)
      out[a.chan[j]] = cf_round_to < T > (cen[k][j] - BIAS +
          __fdividef (acc[k][j], wsum[k][JOINT ? 0 : j]));
  }
}

template < typename T, int F, bool JOINT > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const Args & a,
    cudaStream_t stream)
{
  typedef typename Pixel < T, F >::S S;
  size_t smem = sizeof (float2) * taps_slots (a.ntaps) +
      sizeof (S) * PITCH * (TILE_H + 2 * a.ry);
  if (smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (bilateral_tile < T, F, JOINT >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (err != cudaSuccess)
      return cf_status_from_cuda (err);
  }
  dim3 block (BLOCK_X, BLOCK_Y);
  dim3 grid ((src->width + TILE_W - 1) / TILE_W,
      (src->height + TILE_H - 1) / TILE_H);
  bilateral_tile < T, F, JOINT > <<<grid, block, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T > CfStatus
launch_depth (const CfPlane * src, const CfPlane * dst, const Args & a,
    int filtered, bool joint, cudaStream_t stream)
{
  /* One filtered channel: joint and per-channel are the same filter. */
  switch (filtered) {
    case 1:
      return launch < T, 1, false > (src, dst, a, stream);
    case 2:
      return joint ? launch < T, 2, true > (src, dst, a, stream) :
          launch < T, 2, false > (src, dst, a, stream);
    case 3:
      return joint ? launch < T, 3, true > (src, dst, a, stream) :
          launch < T, 3, false > (src, dst, a, stream);
    default:
      return joint ? launch < T, 4, true > (src, dst, a, stream) :
          launch < T, 4, false > (src, dst, a, stream);
  }
}

/* The kernel arguments for one pass over the window of radii (rx, ry). */
void
make_args (const CfPlane * src, const CfBilateralParams * p,
    const CfBilateralWeights * w, int rx, int ry, Args * a, int *filtered)
{
  *a = Args ();
  a->rx = rx;
  a->ry = ry;
  for (int dy = -ry; dy <= ry; dy++) {
    int hw = 0;
    while (hw < rx && cf_bilateral_in_window (hw + 1, dy, rx, ry))
      hw++;
    a->half_w[dy + ry] = hw;
    a->row_start[dy + ry] = a->ntaps;
    a->ntaps += 2 * hw + (dy != 0);
  }
  for (int k = 0; k <= CF_BILATERAL_MAX_RADIUS; k++) {
    a->lx[k] = w->lx[k];
    a->ly[k] = w->ly[k];
  }
  a->nk = w->nk;
  a->channels = src->channels;
  a->mask = p->channel_mask & CF_ALL_CHANNELS (src->channels);
  a->border = p->border;
  *filtered = 0;
  for (int c = 0; c < src->channels; c++)
    if ((a->mask >> c) & 1u)
      a->chan[(*filtered)++] = c;
}

CfStatus
filter_pass (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p, const CfBilateralWeights * w, int rx,
    int ry, cudaStream_t stream)
{
  Args a;
  int filtered;

  make_args (src, p, w, rx, ry, &a, &filtered);
  bool joint = p->distance == CF_BILATERAL_JOINT;
  return src->depth > 8 ?
      launch_depth < unsigned short > (src, dst, a, filtered, joint, stream) :
      launch_depth < unsigned char > (src, dst, a, filtered, joint, stream);
}

}                               /* namespace */

extern "C" CfStatus
cf_bilateral (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p)
{
  if (!exec->on_gpu)
    return cf_bilateral_ref (src, dst, p);

  CfStatus st = cf_bilateral_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (!exec->stream)
    return CF_ERROR_INVALID;

  cudaStream_t stream = (cudaStream_t) exec->stream;
  size_t row_bytes = (size_t) src->width * src->channels *
      cf_plane_bytes_per_sample (src);
  /* A centre-only window, or nothing to filter: the output is the input. */
  if ((p->radius_x == 0 && p->radius_y == 0)
      || !(p->channel_mask & CF_ALL_CHANNELS (src->channels)))
    return cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
        row_bytes, src->height, exec->stream);

  CfBilateralWeights w;
  cf_bilateral_weights (p, src->depth, &w);
  if (p->mode != CF_BILATERAL_SEPARABLE || p->radius_x == 0
      || p->radius_y == 0)
    return filter_pass (src, dst, p, &w, p->radius_x, p->radius_y, stream);

  /* Rows into scratch (a plane like src, rounded to its sample type),
   * then the columns of scratch into dst. */
  if (!exec->scratch)
    return CF_ERROR_INVALID;
  CfPlane tmp = *src;
  tmp.stride = (row_bytes + 255) & ~(size_t) 255;
  st = cf_scratch_reserve (exec->scratch, tmp.stride * src->height);
  if (st != CF_OK)
    return st;
  tmp.data = exec->scratch->data;
  st = filter_pass (src, &tmp, p, &w, p->radius_x, 0, stream);
  if (st == CF_OK)
    st = filter_pass (&tmp, dst, p, &w, 0, p->radius_y, stream);
  return st;
}
