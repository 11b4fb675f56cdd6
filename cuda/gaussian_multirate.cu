/* The Gaussian's multi-rate path on the GPU (gaussian_paths.h), three
 * launches: rows decimated (each source row read once, its grid samples
 * along x to a float plane of H x gw), columns decimated (that plane to the
 * gh x gw grid; a few percent of a frame), and the reconstruction, which
 * reads a tile's grid samples, rebuilds its columns into shared memory and
 * then its rows, and ends with the blur or unsharp mask into dst. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

/* Rows: a block's grid samples span at most this many pixels. */
constexpr int ROW_SPAN = 2048;
constexpr int ROW_BUF = ROW_SPAN + 2 * CF_GM_MAX_REACH + 1;
constexpr int ROW_THREADS = 256;

/* Reconstruction tiles: TX pixels wide, TY (C) rows. */
constexpr int TX = 128;
constexpr int GRID_MAX = TX + CF_GM_MAX_TAPS + 1;       /* k = 1 */
template < int C > struct Tile {
  static constexpr int TY = C > 2 ? 8 : 16;
};

/* The float planes of the intermediate and the grid: channel c's row y at
 * data + (c * rows + y) * pitch. */
struct Planes {
  float *data;
  size_t pitch;                 /* floats */
  int rows;
};

__device__ __forceinline__ float *
plane_row (const Planes & p, int c, int y)
{
  return p.data + ((size_t) c * p.rows + y) * p.pitch;
}

/* A position outside [0, n) through the border mode, out of line: the
 * common case stays one compare. */
__device__ __noinline__ int
far_index (int i, int n, CfBorder border)
{
  return cf_border_index (i, n, border);
}

__device__ __forceinline__ int
border_index (int i, int n, CfBorder border)
{
  return (unsigned) i < (unsigned) n ? i : far_index (i, n, border);
}

/* Stage 1 along x: block (blockIdx.x, row blockIdx.y) reads the source
 * pixels its grid samples reach (border-mapped) into shared memory, then
 * each grid sample is the reach's taps. */
template < typename T, int C > __global__ void
__launch_bounds__ (ROW_THREADS)
gm_rows (const void *src, size_t stride, int w, Planes out, int gw,
    unsigned mask, CfBorder border, const __grid_constant__ CfGaussMultirate g)
{
  __shared__ float buf[C][ROW_BUF];
  __shared__ float a[CF_GM_MAX_REACH + 1];
  const int k = g.factor, reach = g.reach, y = blockIdx.y;
  const int span = max (1, ROW_SPAN / k);       /* grid samples per block */
  const int i0 = blockIdx.x * span, count = min (span, gw - i0);
  const int xs = (i0 + g.first) * k - reach;
  const int n = (count - 1) * k + 2 * reach + 1;
  const T *row = cf_row < T > (src, stride, y);

  for (int u = threadIdx.x; u <= reach; u += ROW_THREADS)
    a[u] = g.analysis[u];
  for (int e = threadIdx.x; e < n * C; e += ROW_THREADS) {
    const int x = e / C, c = e % C;
    buf[c][x] = (float) row[(size_t) border_index (xs + x, w, border) * C + c];
  }
  __syncthreads ();

  /* Lanes are k samples apart in buf: with k even, each lane starts its
   * taps `lane` further on (wrapping), so that they fall in distinct
   * banks. */
  const int lane = threadIdx.x % 32;
  const int rot = (k & 1) || reach == 0 ? 0 : lane % reach;
  for (int e = threadIdx.x; e < count * C; e += ROW_THREADS) {
    const int i = e % count, c = e / count;
    if (!((mask >> c) & 1u))
      continue;
    const float *b = buf[c] + i * k + reach;
    float s = a[0] * b[0];
    for (int v = 0; v < reach; v++) {
      int u = v + rot;
      u = (u >= reach ? u - reach : u) + 1;
      s = fmaf (a[u], b[u] + b[-u], s);
    }
    plane_row (out, c, y)[i0 + i] = s;
  }
}

/* Stage 1 along y: grid sample (i, j) from the column i of the rows'
 * plane. */
template < int C > __global__ void
gm_columns (Planes in, int h, Planes out, int gw, int gh, unsigned mask,
    CfBorder border, const __grid_constant__ CfGaussMultirate g)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= gw || j >= gh)
    return;
  const int y = (g.first + j) * g.factor;
#pragma unroll
  for (int c = 0; c < C; c++) {
    if (!((mask >> c) & 1u))
      continue;
    const float *col = plane_row (in, c, 0) + i;
    float s = g.analysis[0] * col[(size_t) border_index (y, h, border) *
        in.pitch];
    for (int u = 1; u <= g.reach; u++)
      s = fmaf (g.analysis[u],
          col[(size_t) border_index (y + u, h, border) * in.pitch] +
          col[(size_t) border_index (y - u, h, border) * in.pitch], s);
    plane_row (out, c, j)[i] = s;
  }
}

/* Stage 2: a TX x TY tile of dst. The grid's columns are rebuilt at the
 * tile's rows (e[c][r][g]: grid column q0 + g at row y0 + r), then each
 * thread rebuilds its pixel's column along x with its phase's taps held in
 * registers, for every row of the tile. */
template < typename T, int C > __global__ void
__launch_bounds__ (TX)
gm_reconstruct (Planes grid, const void *src, size_t src_stride, void *dst,
    size_t dst_stride, int w, int h, unsigned mask, float amount,
    float threshold, float max, const __grid_constant__ CfGaussMultirate gx,
    const __grid_constant__ CfGaussMultirate gy)
{
  constexpr int TY = Tile < C >::TY;
  constexpr int HX_PITCH = CF_GM_MAX_TAPS | 1;  /* phases in distinct banks */
  __shared__ float hx[CF_GM_MAX_FACTOR][HX_PITCH];
  __shared__ float e[C][TY][GRID_MAX];
  const int kx = gx.factor, ky = gy.factor, lx = gx.taps, ly = gy.taps;
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const int q0 = x0 / kx;
  const int ng = (min (x0 + TX, w) - 1) / kx - q0 + lx;
  const int rows = min (TY, h - y0);

  for (int i = threadIdx.x; i < kx * lx; i += TX)
    hx[i / lx][i % lx] = gx.synthesis[i / lx][i % lx];
  for (int i = threadIdx.x; i < rows * ng; i += TX) {
    const int r = i / ng, g = i % ng, y = y0 + r;
    const float *hy = gy.synthesis[y % ky];
#pragma unroll
    for (int c = 0; c < C; c++) {
      if (!((mask >> c) & 1u))
        continue;
      const float *d = plane_row (grid, c, y / ky) + q0 + g;
      float s = 0.0f;
      for (int m = 0; m < ly; m++)
        s = fmaf (hy[m], d[(size_t) m * grid.pitch], s);
      e[c][r][g] = s;
    }
  }
  __syncthreads ();

  const int x = x0 + threadIdx.x;
  if (x >= w)
    return;
  const int px = x % kx, qr = x / kx - q0;
  float taps[CF_GM_MAX_TAPS];
#pragma unroll
  for (int m = 0; m < CF_GM_MAX_TAPS; m++)
    taps[m] = m < lx ? hx[px][m] : 0.0f;
  for (int r = 0; r < rows; r++) {
    const int y = y0 + r;
    const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * C;
    T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * C;
#pragma unroll
    for (int c = 0; c < C; c++) {
      const bool filtered = (mask >> c) & 1u;
      const float v = !filtered || amount != 0.0f ? (float) in[c] : 0.0f;
      if (!filtered) {
        out[c] = (T) v;
        continue;
      }
      const float *eg = &e[c][r][qr];
      float s = 0.0f;
#pragma unroll
      for (int m = 0; m < CF_GM_MAX_TAPS; m++)
        if (m < lx)
          s = fmaf (taps[m], eg[m], s);
      out[c] = (T) fminf (cf_round_up_clamped < T >
          (cf_gaussian_finish (v, s, amount, threshold)), max);
    }
  }
}

template < typename T, int C > CfStatus
launch (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  const int w = src->width, h = src->height;
  const int gw = cf_gm_grid (&gx, w), gh = cf_gm_grid (&gy, h);
  const size_t pitch = ((size_t) gw + 31) & ~(size_t) 31;
  const Planes rows = { scratch, pitch, h };
  const Planes grid = { scratch + (size_t) C * h * pitch, pitch, gh };
  const unsigned mask = p->channel_mask;
  const float full = (float) cf_plane_max (dst);

  const int span = max (1, ROW_SPAN / gx.factor);
  gm_rows < T, C > <<<dim3 ((gw + span - 1) / span, h), ROW_THREADS, 0,
      stream>>> (src->data, src->stride, w, rows, gw, mask, p->border, gx);
  const dim3 block (32, 8);
  gm_columns < C > <<<dim3 ((gw + 31) / 32, (gh + 7) / 8), block, 0,
      stream>>> (rows, h, grid, gw, gh, mask, p->border, gy);
  gm_reconstruct < T, C > <<<dim3 ((w + TX - 1) / TX,
          (h + Tile < C >::TY - 1) / Tile < C >::TY), TX, 0,
      stream>>> (grid, src->data, src->stride, dst->data, dst->stride, w, h,
      mask, (float) p->sharpen, (float) (p->threshold * full), full, gx, gy);
  return cf_launch_status ();
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch < T, 1 > (src, dst, scratch, p, gx, gy, stream);
    case 2:
      return launch < T, 2 > (src, dst, scratch, p, gx, gy, stream);
    case 3:
      return launch < T, 3 > (src, dst, scratch, p, gx, gy, stream);
    default:
      return launch < T, 4 > (src, dst, scratch, p, gx, gy, stream);
  }
}

}                               /* namespace */

extern "C" CfStatus
cf_gm_blur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  CfGaussMultirate gx, gy;
  if (!cf_gm_plan (p->sigma_x, p->radius_x, &gx)
      || !cf_gm_plan (p->sigma_y, p->radius_y, &gy))
    return CF_ERROR_INVALID;
  const size_t pitch = ((size_t) cf_gm_grid (&gx, src->width) + 31) &
      ~(size_t) 31;
  void *scratch;
  CfStatus st = cf_gaussian_scratch (exec, sizeof (float) * pitch *
      src->channels * (src->height + cf_gm_grid (&gy, src->height)),
      &scratch);
  if (st != CF_OK)
    return st;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, (float *) scratch, p,
      gx, gy, stream) :
      launch_channels < unsigned char > (src, dst, (float *) scratch, p, gx,
      gy, stream);
}
