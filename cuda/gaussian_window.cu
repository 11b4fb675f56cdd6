/* The Gaussian's window path on the GPU (gaussian_paths.h), two passes of
 * one kernel: a thread slides its lines (one per channel of its pixel)
 * through one segment, with the lanes of a warp on 32 neighbouring lines,
 * so that every sample is fetched by a coalesced load of a row, and the
 * results leave transposed through shared memory, coalesced again.
 *
 * Pass 1 slides down the columns of src into a 16-bit intermediate scaled to
 * 0..65535 and stored transposed (row x C + c holds column x of channel c);
 * pass 2 slides down its columns, i.e. along the rows of the picture, into
 * dst, with the blur or unsharp mask at the end. Samples are fetched a
 * chunk of steps ahead, so each thread has a chunk's loads in flight while
 * it computes. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_dispatch.cuh"
#include "cf_runtime.h"

#include <type_traits>

namespace {

constexpr int WARP = 32;
constexpr int WARPS = 2;
constexpr int THREADS = WARP * WARPS;

/* Steps per chunk (fetched ahead into registers) and per tile (shared
 * memory, then stores): pass 1's tile is C x 32 rows of TILE1 steps,
 * pass 2's 32 rows of TILE2 x C samples. */
template < int C > struct Shape {
  static constexpr int CHUNK = 16 / C;
  static constexpr int TILE1 = CHUNK * (16 / CHUNK);
  static constexpr int TILE2 = 2 * CHUNK;
};

/* What a pass reads: line position p, channel c of the thread's line
 * group is at base + p * step + c * chan (bytes). */
template < typename Tin > struct Lines {
  const unsigned char *base;
  size_t step, chan;
  int n;                        /* positions along a line */
};

/* A position outside the line, through the border mode: out of line, so
 * that the unrolled loads stay small (their common case is one compare). */
__device__ __noinline__ int
far_index (int i, int n, CfBorder border)
{
  return cf_border_index (i, n, border);
}

/* Samples at positions p0 .. p0 + N - 1 (border-mapped) of the channels
 * in mask, as loaded: converted only where used, so that no load waits
 * for the one before it. */
template < typename Tin, int C, int N > __device__ __forceinline__ void
fetch (Tin (&v)[N][C], const Lines < Tin > &in, int p0, unsigned mask,
    CfBorder border)
{
#pragma unroll
  for (int k = 0; k < N; k++) {
    const int i = p0 + k;
    const unsigned char *row = in.base + (size_t) ((unsigned) i <
        (unsigned) in.n ? i : far_index (i, in.n, border)) * in.step;
#pragma unroll
    for (int c = 0; c < C; c++)
      if ((mask >> c) & 1u)
        v[k][c] = __ldg ((const Tin *) (row + c * in.chan));
  }
}

/* Where a pass writes. Pass 1: the intermediate (pitch in samples);
 * pass 2: dst, with src for masked channels and the unsharp mask. */
struct Out {
  void *data;
  size_t stride;
  const void *src;
  size_t src_stride;
  float amount, threshold, max;
};

/* Pass 1's tile: row c * 32 + lane, step j: column `first + lane`, channel
 * c, position x + j, to row (first + lane) C + c of the intermediate. */
template < int C, int TILE, int PITCH > __device__ __forceinline__ void
store_columns (const unsigned (*tile)[PITCH], const Out & o, int first,
    int lines, int x, int count, unsigned mask, int lane)
{
  unsigned short *tmp = (unsigned short *) o.data;
#pragma unroll 4
  for (int e = lane; e < C * WARP * TILE; e += WARP) {
    const int row = e / TILE, j = e % TILE;
    const int c = row / WARP, line = first + row % WARP;
    if (j < count && line < lines && ((mask >> c) & 1u))
      tmp[((size_t) line * C + c) * o.stride + x + j] =
          (unsigned short) tile[row][j];
  }
}

/* Pass 2's tile: row i (line first + i, a row of the picture), sample
 * j * C + c: position x + j, channel c; finished into dst. */
template < typename T, int C, int PITCH > __device__ __forceinline__ void
store_rows (const float (*tile)[PITCH], const Out & o, int first,
    int lines, int x, int count, unsigned mask, int lane)
{
  const int c = lane % C;
  const bool filtered = (mask >> c) & 1u;
  if (lane >= count * C)
    return;
  for (int i = 0; i < WARP && first + i < lines; i++) {
    const size_t s = (size_t) x * C + lane;
    const float in = !filtered || o.amount != 0.0f ?
        (float) cf_row < T > (o.src, o.src_stride, first + i)[s] : 0.0f;
    cf_row < T > (o.data, o.stride, first + i)[s] = !filtered ? (T) in :
        (T) fminf (cf_round_up_clamped < T > (cf_gaussian_finish (in,
                tile[i][lane], o.amount, o.threshold)), o.max);
  }
}

/* One pass: blockIdx.x = group of WARPS x 32 lines, blockIdx.y = segment.
 * FINAL: pass 2 (T = the sample type of dst); else pass 1. */
template < typename Tin, typename T, int C, int TERMS, bool FINAL >
__global__ void
__launch_bounds__ (THREADS)
gw_pass (Lines < Tin > in, int lines, const Out o_param,
    unsigned mask, CfBorder border, const CfGaussWindow g_param)
{
  /* Local copies: through a kernel parameter's address the coefficients
   * would be reloaded after every store (they might alias it). */
  const CfGaussWindow g = g_param;
  const Out o = o_param;
  typedef Shape < C > S;
  constexpr int CHUNK = S::CHUNK;
  constexpr int TILE = FINAL ? S::TILE2 : S::TILE1;
  constexpr int ROWS = FINAL ? WARP : C * WARP;
  constexpr int COLS = FINAL ? TILE * C : TILE;
  constexpr int PITCH = COLS | 1;       /* odd: lane i's row in bank i */
  typedef typename std::conditional < FINAL, float, unsigned >::type Cell;
  __shared__ Cell tiles[WARPS][ROWS][PITCH];

  const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  const int first = (blockIdx.x * WARPS + warp) * WARP;
  if (first >= lines)
    return;
  Cell (*tile)[PITCH] = tiles[warp];
  /* pass 1: lines are pixels of a row (C samples apart); pass 2: rows of
   * the intermediate, one sample apart */
  in.base += (size_t) min (first + lane, lines - 1) *
      (FINAL ? sizeof (Tin) : C * sizeof (Tin));

  const int r = g.radius, n = in.n;
  const int x0 = blockIdx.y * CF_GW_SEGMENT;
  const int x1 = min (x0 + CF_GW_SEGMENT, n);
  CfGwState st[C];
#pragma unroll
  for (int c = 0; c < C; c++)
    st[c] = CfGwState ();

  /* Every chunk is CHUNK steps, without a branch: the warm-up starts a
   * whole number of chunks before x0, with zeros entering until x0 - 2 r -
   * 1 (an empty window stays empty) and none leaving; its values go to the
   * tile, which the first outputs overwrite; steps past x1 are not stored.
   * One (uniform) branch per channel and chunk skips masked channels. */
  const int warmup = (2 * r + CHUNK) / CHUNK * CHUNK;
  const int zeros = warmup - 2 * r - 1;
  int xc = x0 - warmup, filled = 0;
  Tin ve[CHUNK][C], vl[CHUNK][C];
  fetch < Tin, C, CHUNK > (ve, in, xc + r + 1, mask, border);
#pragma unroll
  for (int k = 0; k < CHUNK; k++)
#pragma unroll
    for (int c = 0; c < C; c++) {
      ve[k][c] = k < zeros ? 0 : ve[k][c];
      vl[k][c] = 0;
    }
  while (xc < x1) {
    Tin e[CHUNK][C], l[CHUNK][C];
#pragma unroll
    for (int k = 0; k < CHUNK; k++)
#pragma unroll
      for (int c = 0; c < C; c++) {
        e[k][c] = ve[k][c];
        l[k][c] = vl[k][c];
      }
    const int nx = xc + CHUNK;
    if (nx < x1) {
      fetch < Tin, C, CHUNK > (ve, in, nx + r + 1, mask, border);
      if (nx >= x0)
        fetch < Tin, C, CHUNK > (vl, in, nx - r, mask, border);
    }
#pragma unroll
    for (int c = 0; c < C; c++)
      if ((mask >> c) & 1u)
#pragma unroll
        for (int k = 0; k < CHUNK; k++) {
          const float v = cf_gw_value (&st[c], &g, TERMS);
          if (FINAL)
            tile[lane][(filled + k) * C + c] = v;
          else
            tile[c * WARP + lane][filled + k] = cf_gw_quantize (v);
          cf_gw_step (&st[c], &g, TERMS, cf_sample_float (e[k][c]),
              cf_sample_float (l[k][c]));
        }
    if (xc >= x0) {
      filled += CHUNK;
      if (filled == TILE || nx >= x1) {
        const int tx = nx - filled, count = min (filled, x1 - tx);
        __syncwarp ();
        if (FINAL)
          store_rows < T, C, PITCH > ((const float (*)[PITCH]) tile, o,
              first, lines, tx, count, mask, lane);
        else
          store_columns < C, TILE, PITCH > ((const unsigned (*)[PITCH])
              tile, o, first, lines, tx, count, mask, lane);
        filled = 0;
      }
    }
    __syncwarp ();
    xc = nx;
  }
}

template < typename Tin, typename T, int C, bool FINAL > void
pass (const Lines < Tin > &in, int lines, const Out & o, unsigned mask,
    CfBorder border, const CfGaussWindow & g, cudaStream_t stream)
{
  dim3 grid ((lines + THREADS - 1) / THREADS,
      (in.n + CF_GW_SEGMENT - 1) / CF_GW_SEGMENT);
  if (g.terms > 3)
    gw_pass < Tin, T, C, 4, FINAL > <<<grid, THREADS, 0, stream>>> (in,
        lines, o, mask, border, g);
  else
    gw_pass < Tin, T, C, 3, FINAL > <<<grid, THREADS, 0, stream>>> (in,
        lines, o, mask, border, g);
}

template < typename T, int C > CfStatus
launch (const CfPlane * src, const CfPlane * dst, unsigned short *tmp,
    size_t pitch, const CfGaussianParams * p, cudaStream_t stream)
{
  CfGaussWindow gx, gy;
  const int w = src->width, h = src->height;
  const float max = (float) cf_plane_max (dst), scale = 65535.0f / max;
  cf_gw_plan (p->sigma_y, p->radius_y, src->depth, &gy);
  cf_gw_plan (p->sigma_x, p->radius_x, src->depth, &gx);
  cf_gw_scale_output (&gy, scale);
  cf_gw_scale_output (&gx, 1.0f / scale);

  const Lines < T > cols = { (const unsigned char *) src->data, src->stride,
    sizeof (T), h
  };
  const Out o1 = { tmp, pitch, NULL, 0, 0.0f, 0.0f, 0.0f };
  pass < T, unsigned short, C, false > (cols, w, o1, p->channel_mask,
      p->border, gy, stream);
  const Lines < unsigned short > rows = { (const unsigned char *) tmp,
    C * pitch * sizeof (unsigned short), pitch * sizeof (unsigned short), w
  };
  const Out o2 = { dst->data, dst->stride, src->data, src->stride,
    (float) p->sharpen, (float) (p->threshold * max), max
  };
  pass < unsigned short, T, C, true > (rows, h, o2, p->channel_mask,
      p->border, gx, stream);
  return cf_launch_status ();
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    unsigned short *tmp, size_t pitch, const CfGaussianParams * p,
    cudaStream_t stream)
{
  return cf_with_channels (src->channels, [&](auto c) {
        return launch < T, decltype (c)::value > (src, dst, tmp, pitch, p,
            stream);
      });
}

}                               /* namespace */

extern "C" CfStatus
cf_gw_blur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  /* rows of the intermediate start on 128 bytes */
  const size_t pitch = ((size_t) src->height + 63) & ~(size_t) 63;
  void *tmp;
  CfStatus st = cf_gaussian_scratch (exec, sizeof (unsigned short) * pitch *
      src->width * src->channels, &tmp);
  if (st != CF_OK)
    return st;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, (unsigned short *) tmp,
      pitch, p, stream) :
      launch_channels < unsigned char > (src, dst, (unsigned short *) tmp,
      pitch, p, stream);
}
