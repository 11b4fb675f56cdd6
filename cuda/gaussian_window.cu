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

/* A warp of the rows pass slides LINES = ROWS_OF (C) rows x C channels,
 * a lane each: lane = row * C + channel. Its tiles hold, for each of its
 * rows, 32 pixels x C samples, at a row pitch of 33 C floats so that the
 * lanes' reads (row i, channel c, pixel k) fall in distinct banks. */
template < int C > struct RowTile {
  static constexpr int ROWS = WARP / C;
  static constexpr int PITCH = 33 * C;
  static constexpr int FLOATS = ROWS * PITCH;
  static constexpr int LOADS = ROWS * C;        /* per lane and tile */
};

/* Loads pixels [x, x + 32) of the warp's rows from y0 (border-mapped;
 * rows past the plane repeat its last) into v: load m takes row m / C,
 * samples (m % C) 32 + lane of its 32 C, so every load is 32 consecutive
 * samples of a row. */
template < typename T, int C > __device__ __forceinline__ void
fetch_tile (float *v, const void *src, size_t stride, int y0, int width,
    int height, CfBorder border, int x, int lane)
{
#pragma unroll
  for (int m = 0; m < RowTile < C >::LOADS; m++) {
    const int sm = (m % C) * WARP + lane, px = sm / C;
    v[m] = (float) __ldg (cf_row < T > (src, stride,
            min (y0 + m / C, height - 1)) + cf_border_index (x + px, width,
            border) * C + sm - px * C);
  }
}

template < int C > __device__ __forceinline__ void
put_tile (float *tile, const float *v, int lane)
{
#pragma unroll
  for (int m = 0; m < RowTile < C >::LOADS; m++)
    tile[(m / C) * RowTile < C >::PITCH + (m % C) * WARP + lane] = v[m];
}

/* Rows: each warp slides its rows x channels (a lane each) through one
 * segment, 32 pixels at a time: the samples entering and leaving the
 * window are fetched with coalesced loads along the rows (a chunk ahead,
 * in registers) and transposed through shared memory, and the results
 * leave the same way. blockIdx.y = segment. */
template < typename T, int C > __global__ void
__launch_bounds__ (THREADS)
gw_rows (const void *__restrict__ src, size_t stride, float *__restrict__ tmp,
    int width, int height, unsigned mask, CfBorder border,
    const CfGaussWindow g)
{
  typedef RowTile < C > Tile;
  __shared__ float tiles[WARPS][2][Tile::FLOATS];
  const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  const int y0 = (blockIdx.x * WARPS + warp) * Tile::ROWS;
  if (y0 >= height)
    return;
  /* lanes past ROWS x C (C = 3: 2 of them) slide a copy of the last line */
  const int line = min (lane, Tile::ROWS * C - 1);
  const int mine = (line / C) * Tile::PITCH + line % C;
  float *enter = tiles[warp][0], *leave = tiles[warp][1];
  const int r = g.radius, seg = cf_gw_segment (r);
  const size_t samples = (size_t) width * C;
  Chunks < WARP > ch;
  ch.x0 = blockIdx.y * seg;
  ch.x1 = min (ch.x0 + seg, width);
  ch.xc = ch.x0 - 2 * r - 1;
  State s = { };
  float ve[Tile::LOADS], vl[Tile::LOADS] = { };

  fetch_tile < T, C > (ve, src, stride, y0, width, height, border,
      ch.xc + r + 1, lane);
  while (ch.xc < ch.x1) {
    const bool warm = ch.warm ();
    const int n = ch.count ();
    put_tile < C > (enter, ve, lane);
    if (!warm)
      put_tile < C > (leave, vl, lane);
    Chunks < WARP > nx = ch;
    nx.xc = ch.next ();
    if (nx.xc < nx.x1) {
      fetch_tile < T, C > (ve, src, stride, y0, width, height, border,
          nx.xc + r + 1, lane);
      if (!nx.warm ())
        fetch_tile < T, C > (vl, src, stride, y0, width, height, border,
            nx.xc - r, lane);
    }
    __syncwarp ();
    if (warm) {
      for (int k = 0; k < n; k++)
        slide (s, g, enter[mine + k * C], 0.0f);
    } else {
      for (int k = 0; k < n; k++) {
        const float v = value (s, g);
        const float fin = enter[mine + k * C], fout = leave[mine + k * C];
        if (C == 3)
          __syncwarp ();        /* lanes 30 and 31 read line 29's slot */
        if (lane < Tile::ROWS * C)
          leave[mine + k * C] = v;
        if (ch.xc + k + 1 < ch.x1)
          slide (s, g, fin, fout);
      }
      __syncwarp ();
#pragma unroll
      for (int m = 0; m < Tile::LOADS; m++) {
        const int y = y0 + m / C, sm = (m % C) * WARP + lane;
        if (y < height && sm / C < n && ((mask >> (sm % C)) & 1u))
          tmp[(size_t) y * samples + (size_t) ch.xc * C + sm] =
              leave[(m / C) * Tile::PITCH + sm];
      }
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

  const int rows_per_block = WARPS * (WARP / c);
  dim3 rows ((h + rows_per_block - 1) / rows_per_block,
      (w + cf_gw_segment (gx.radius) - 1) / cf_gw_segment (gx.radius));
  switch (c) {
    case 1:
      gw_rows < T, 1 > <<<rows, THREADS, 0, stream>>> (src->data,
          src->stride, tmp, w, h, p->channel_mask, p->border, gx);
      break;
    case 2:
      gw_rows < T, 2 > <<<rows, THREADS, 0, stream>>> (src->data,
          src->stride, tmp, w, h, p->channel_mask, p->border, gx);
      break;
    case 3:
      gw_rows < T, 3 > <<<rows, THREADS, 0, stream>>> (src->data,
          src->stride, tmp, w, h, p->channel_mask, p->border, gx);
      break;
    default:
      gw_rows < T, 4 > <<<rows, THREADS, 0, stream>>> (src->data,
          src->stride, tmp, w, h, p->channel_mask, p->border, gx);
  }
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
