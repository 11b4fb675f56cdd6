/* The Gaussian's window path on the GPU (gaussian_paths.h): rows into a
 * float scratch frame, then columns into dst. One thread slides one segment
 * of one line: for rows, the threads of a warp take 32 consecutive rows
 * (staged through shared memory); for columns, 32 consecutive samples of a
 * row (coalesced as they are). Samples are fetched a chunk ahead, so each
 * thread has a chunk's loads in flight while it computes. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int THREADS = 128;
constexpr int WARP = 32;
constexpr int WARPS = THREADS / WARP;

struct State {
  float box, re[CF_GW_TERMS], im[CF_GW_TERMS];
};

__device__ __forceinline__ void
slide (State & s, const CfGaussWindow & g, float fin, float fout)
{
  s.box += fin - fout;
#pragma unroll
  for (int k = 0; k < CF_GW_TERMS; k++) {
    float ure = s.re[k] + fin * g.in_re[k] - fout * g.out_re[k];
    float uim = s.im[k] + fin * g.in_im[k] - fout * g.out_im[k];
    s.re[k] = g.rot_re[k] * ure - g.rot_im[k] * uim;
    s.im[k] = g.rot_re[k] * uim + g.rot_im[k] * ure;
  }
}

/* The value of the window at its current position. */
__device__ __forceinline__ float
value (const State & s, const CfGaussWindow & g)
{
  float v = g.a0 * s.box;
#pragma unroll
  for (int t = 0; t < CF_GW_TERMS; t++)
    v += g.a[t] * s.re[t];
  return v;
}

/* A segment [x0, x1) is walked in chunks of up to N positions: first the
 * warm-up from x0 - 2 r - 1 (the window filling), then the outputs. Every
 * chunk's samples are fetched while the one before is computed. */
template < int N > struct Chunks {
  int x0, x1, xc;
  __device__ bool warm () const {
    return xc < x0;
  }
  __device__ int count () const {
    return warm ()? min (N, x0 - xc) : min (N, x1 - xc);
  }
  __device__ int next () const {
    return xc + count ();
  }
};

/* Loads samples [x, x + 32) of 32 rows from y0 (border-mapped; rows past
 * the plane repeat its last) into v[row]: one row per load, the warp's
 * lanes along it. */
template < typename T > __device__ __forceinline__ void
fetch_tile (float *v, const void *src, size_t stride, int y0, int width,
    int height, int channels, int c, CfBorder border, int x, int lane)
{
  const int i = cf_border_index (x + lane, width, border) * channels + c;
#pragma unroll
  for (int k = 0; k < WARP; k++)
    v[k] = (float) __ldg (cf_row < T > (src, stride,
            min (y0 + k, height - 1)) + i);
}

/* Rows: each warp slides 32 rows (a lane each) through one segment, 32
 * samples at a time: the samples entering and leaving the window are
 * fetched with coalesced loads along the rows (a chunk ahead, in
 * registers) and transposed through shared memory, and the results leave
 * the same way. blockIdx.y = segment; blockIdx.z = channel. */
template < typename T > __global__ void
__launch_bounds__ (THREADS)
gw_rows (const void *__restrict__ src, size_t stride, float *__restrict__ tmp,
    int width, int height, int channels, unsigned mask, CfBorder border,
    const CfGaussWindow g)
{
  __shared__ float tiles[WARPS][2][WARP][WARP + 1];
  const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  const int c = blockIdx.z;
  const int y0 = (blockIdx.x * WARPS + warp) * WARP;
  if (y0 >= height || !((mask >> c) & 1u))
    return;
  float (*enter)[WARP + 1] = tiles[warp][0];
  float (*leave)[WARP + 1] = tiles[warp][1];
  const int r = g.radius, seg = cf_gw_segment (r);
  const size_t samples = (size_t) width * channels;
  Chunks < WARP > ch;
  ch.x0 = blockIdx.y * seg;
  ch.x1 = min (ch.x0 + seg, width);
  ch.xc = ch.x0 - 2 * r - 1;
  State s = { };
  float ve[WARP], vl[WARP] = { };

  fetch_tile < T > (ve, src, stride, y0, width, height, channels, c, border,
      ch.xc + r + 1, lane);
  while (ch.xc < ch.x1) {
    const bool warm = ch.warm ();
    const int n = ch.count ();
#pragma unroll
    for (int k = 0; k < WARP; k++) {
      enter[k][lane] = ve[k];
      if (!warm)
        leave[k][lane] = vl[k];
    }
    Chunks < WARP > nx = ch;
    nx.xc = ch.next ();
    if (nx.xc < nx.x1) {
      fetch_tile < T > (ve, src, stride, y0, width, height, channels, c,
          border, nx.xc + r + 1, lane);
      if (!nx.warm ())
        fetch_tile < T > (vl, src, stride, y0, width, height, channels, c,
            border, nx.xc - r, lane);
    }
    __syncwarp ();
    if (warm) {
      for (int k = 0; k < n; k++)
        slide (s, g, enter[lane][k], 0.0f);
    } else {
      for (int k = 0; k < n; k++) {
        const float v = value (s, g);
        const float fin = enter[lane][k], fout = leave[lane][k];
        leave[lane][k] = v;
        if (ch.xc + k + 1 < ch.x1)
          slide (s, g, fin, fout);
      }
      __syncwarp ();
      if (lane < n)
        for (int k = 0; k < WARP && y0 + k < height; k++)
          tmp[(size_t) (y0 + k) * samples + (size_t) (ch.xc + lane) *
              channels + c] = leave[k][lane];
    }
    __syncwarp ();
    ch = nx;
  }
}

constexpr int COL_CHUNK = 16;

/* Columns: thread = sample of a row; blockIdx.y = segment. Each thread
 * fetches a chunk's entering and leaving samples ahead into registers. */
template < typename T > __global__ void
__launch_bounds__ (THREADS)
gw_columns (const float *__restrict__ tmp, const void *__restrict__ src,
    size_t src_stride, void *__restrict__ dst, size_t dst_stride, int width,
    int height, int channels, unsigned mask, CfBorder border, float amount,
    float threshold, float max, const CfGaussWindow g)
{
  const int samples = width * channels;
  const int sx = blockIdx.x * THREADS + threadIdx.x;
  if (sx >= samples)
    return;
  const int r = g.radius, seg = cf_gw_segment (r);
  Chunks < COL_CHUNK > ch;
  ch.x0 = blockIdx.y * seg;
  ch.x1 = min (ch.x0 + seg, height);
  if (!((mask >> (sx % channels)) & 1u)) {
    for (int y = ch.x0; y < ch.x1; y++)
      cf_row < T > (dst, dst_stride, y)[sx] =
          cf_row < T > (src, src_stride, y)[sx];
    return;
  }
  const float *col = tmp + sx;
  ch.xc = ch.x0 - 2 * r - 1;
  State s = { };
  float ve[COL_CHUNK], vl[COL_CHUNK] = { };

#pragma unroll
  for (int k = 0; k < COL_CHUNK; k++)
    ve[k] = __ldg (col + (size_t) cf_border_index (ch.xc + k + r + 1, height,
            border) * samples);
  while (ch.xc < ch.x1) {
    const bool warm = ch.warm ();
    const int n = ch.count ();
    float e[COL_CHUNK], l[COL_CHUNK];
#pragma unroll
    for (int k = 0; k < COL_CHUNK; k++) {
      e[k] = ve[k];
      l[k] = warm ? 0.0f : vl[k];
    }
    Chunks < COL_CHUNK > nx = ch;
    nx.xc = ch.next ();
    if (nx.xc < nx.x1) {
#pragma unroll
      for (int k = 0; k < COL_CHUNK; k++)
        ve[k] = __ldg (col + (size_t) cf_border_index (nx.xc + k + r + 1,
                height, border) * samples);
      if (!nx.warm ())
#pragma unroll
        for (int k = 0; k < COL_CHUNK; k++)
          vl[k] = __ldg (col + (size_t) cf_border_index (nx.xc + k - r,
                  height, border) * samples);
    }
#pragma unroll
    for (int k = 0; k < COL_CHUNK; k++) {
      if (k >= n)
        break;
      const int y = ch.xc + k;
      if (!warm) {
        /* a blur does not read src (cf_gaussian_finish ignores it) */
        const float in = amount != 0.0f ?
            (float) cf_row < T > (src, src_stride, y)[sx] : 0.0f;
        cf_row < T > (dst, dst_stride, y)[sx] = (T) fminf (
            cf_round_up_clamped < T > (cf_gaussian_finish (in, value (s, g),
                    amount, threshold)), max);
        if (y + 1 < ch.x1)
          slide (s, g, e[k], l[k]);
      } else {
        slide (s, g, e[k], 0.0f);
      }
    }
    ch = nx;
  }
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, float *tmp,
    const CfGaussianParams * p, cudaStream_t stream)
{
  CfGaussWindow gx, gy;
  const int w = src->width, h = src->height, c = src->channels;
  const float max = (float) cf_plane_max (dst);
  cf_gw_plan (p->sigma_x, p->radius_x, &gx);
  cf_gw_plan (p->sigma_y, p->radius_y, &gy);

  dim3 rows ((h + THREADS - 1) / THREADS,  /* a row per thread */
      (w + cf_gw_segment (gx.radius) - 1) / cf_gw_segment (gx.radius), c);
  gw_rows < T > <<<rows, THREADS, 0, stream>>> (src->data, src->stride, tmp,
      w, h, c, p->channel_mask, p->border, gx);
  dim3 cols ((w * c + THREADS - 1) / THREADS,
      (h + cf_gw_segment (gy.radius) - 1) / cf_gw_segment (gy.radius));
  gw_columns < T > <<<cols, THREADS, 0, stream>>> (tmp, src->data,
      src->stride, dst->data, dst->stride, w, h, c, p->channel_mask,
      p->border, (float) p->sharpen, (float) (p->threshold * max), max, gy);
  return cf_launch_status ();
}

}                               /* namespace */

extern "C" CfStatus
cf_gw_blur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  if (!exec->scratch)
    return CF_ERROR_INVALID;
  CfStatus st = cf_scratch_reserve (exec->scratch,
      sizeof (float) * src->width * src->channels * src->height);
  if (st != CF_OK)
    return st;
  float *tmp = (float *) exec->scratch->data;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch < unsigned short > (src, dst, tmp, p, stream) :
      launch < unsigned char > (src, dst, tmp, p, stream);
}
