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
constexpr int ROW_LOADS = 8;    /* loads a thread has in flight */

/* Columns: 32 grid columns a block, the taps split over COL_SLICES. */
constexpr int COL_SLICES = 8;

/* Reconstruction tiles: TX pixels wide, TY (C) rows. */
constexpr int TX = 256;
constexpr int GRID_MAX = TX + CF_GM_MAX_TAPS;
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

__device__ __forceinline__ int
border_index (int i, int n, CfBorder border)
{
  return (unsigned) i < (unsigned) n ? i : cf_border_index (i, n, border);
}

/* Stage 1 along x: block (blockIdx.x, row blockIdx.y) reads the source
 * pixels its grid samples reach (border-mapped) into shared memory,
 * ROW_LOADS loads in flight a thread, then each grid sample is the
 * reach's taps (k is odd from 3 up: the lanes' samples, k apart, fall in
 * distinct banks). */
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
  const int n = ((count - 1) * k + 2 * reach + 1) * C;
  const T *row = cf_row < T > (src, stride, y);

  for (int u = threadIdx.x; u <= reach; u += ROW_THREADS)
    a[u] = g.analysis[u];
  for (int e0 = threadIdx.x; e0 < n; e0 += ROW_THREADS * ROW_LOADS) {
    int at[ROW_LOADS];
    T v[ROW_LOADS];
#pragma unroll
    for (int t = 0; t < ROW_LOADS; t++) {
      const int e = min (e0 + t * ROW_THREADS, n - 1);
      at[t] = border_index (xs + e / C, w, border) * C + e % C;
    }
#pragma unroll
    for (int t = 0; t < ROW_LOADS; t++)
      v[t] = row[at[t]];
#pragma unroll
    for (int t = 0; t < ROW_LOADS; t++) {
      const int e = e0 + t * ROW_THREADS;
      if (e < n)
        buf[e % C][e / C] = (float) v[t];
    }
  }
  __syncthreads ();

  for (int e = threadIdx.x; e < count * C; e += ROW_THREADS) {
    const int i = e % count, c = e / count;
    if (!((mask >> c) & 1u))
      continue;
    const float *b = buf[c] + i * k + reach;
    float s0 = a[0] * b[0], s1 = 0.0f;
    int u = 1;
#pragma unroll 2
    for (; u + 1 <= reach; u += 2) {
      s0 = fmaf (a[u], b[u] + b[-u], s0);
      s1 = fmaf (a[u + 1], b[u + 1] + b[-u - 1], s1);
    }
    if (u <= reach)
      s0 = fmaf (a[u], b[u] + b[-u], s0);
    plane_row (out, c, y)[i0 + i] = s0 + s1;
  }
}

/* Stage 1 along y: grid sample (i, j) of the rows' plane's column i, the
 * taps split over COL_SLICES threads (threadIdx.y) and summed through
 * shared memory. */
template < int C > __global__ void
__launch_bounds__ (32 * COL_SLICES)
gm_columns (Planes in, int h, Planes out, int gw, unsigned mask,
    CfBorder border, const __grid_constant__ CfGaussMultirate g)
{
  __shared__ float part[COL_SLICES][32];
  const int i = min (blockIdx.x * 32 + threadIdx.x, gw - 1);
  const int j = blockIdx.y, slice = threadIdx.y, reach = g.reach;
  const int y = (g.first + j) * g.factor;
  const bool inside = y - reach >= 0 && y + reach < h;
#pragma unroll
  for (int c = 0; c < C; c++) {
    if (!((mask >> c) & 1u))
      continue;
    const float *col = plane_row (in, c, 0) + i;
    float s = 0.0f;
    for (int u = slice - reach; u <= reach; u += COL_SLICES) {
      const int yy = inside ? y + u : border_index (y + u, h, border);
      s = fmaf (g.analysis[abs (u)], col[(size_t) yy * in.pitch], s);
    }
    part[slice][threadIdx.x] = s;
    __syncthreads ();
    if (slice == 0 && blockIdx.x * 32 + threadIdx.x < gw) {
      float t = 0.0f;
#pragma unroll
      for (int q = 0; q < COL_SLICES; q++)
        t += part[q][threadIdx.x];
      plane_row (out, c, j)[i] = t;
    }
    __syncthreads ();
  }
}

/* Stage 2: a TX x TY tile of dst. The grid's columns are rebuilt at the
 * tile's rows (e[c][r][g]: grid column q0 + g at row y0 + r; zeros after
 * the last, where the padded taps read), then each thread rebuilds its
 * pixel along x with its phase's taps in registers (L: taps padded with
 * zeros to a constant), two rows at a time. */
template < typename T, int C, int L > __global__ void
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
  const int cells = min (ng + L - lx, GRID_MAX);
  const int rows = min (TY, h - y0);

  for (int i = threadIdx.x; i < kx * HX_PITCH; i += TX) {
    const int p = i / HX_PITCH, m = i % HX_PITCH;
    hx[p][m] = m < lx ? gx.synthesis[p][m] : 0.0f;
  }
  for (int i = threadIdx.x; i < rows * cells; i += TX) {
    const int r = i / cells, g = i % cells, y = y0 + r;
    const float *hy = gy.synthesis[y % ky];
#pragma unroll
    for (int c = 0; c < C; c++) {
      if (!((mask >> c) & 1u))
        continue;
      float s = 0.0f;
      if (g < ng) {
        const float *d = plane_row (grid, c, y / ky) + q0 + g;
        float s1 = 0.0f;
        int m = 0;
#pragma unroll 2
        for (; m + 1 < ly; m += 2) {
          s = fmaf (hy[m], d[(size_t) m * grid.pitch], s);
          s1 = fmaf (hy[m + 1], d[(size_t) (m + 1) * grid.pitch], s1);
        }
        if (m < ly)
          s = fmaf (hy[m], d[(size_t) m * grid.pitch], s);
        s += s1;
      }
      e[c][r][g] = s;
    }
  }
  __syncthreads ();

  const int x = x0 + threadIdx.x;
  if (x >= w)
    return;
  const int px = x % kx, qr = x / kx - q0;
  float taps[L];
#pragma unroll
  for (int m = 0; m < L; m++)
    taps[m] = hx[px][m];
  for (int r = 0; r < rows; r += 2) {
    const bool two = r + 1 < rows;
#pragma unroll
    for (int c = 0; c < C; c++) {
      const bool filtered = (mask >> c) & 1u;
      for (int t = 0; t < 2; t++) {
        if (t == 1 && !two)
          break;
        const int y = y0 + r + t;
        const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * C;
        T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * C;
        if (!filtered)
          out[c] = in[c];
      }
      if (!filtered)
        continue;
      const float *e0 = &e[c][r][qr], *e1 = &e[c][two ? r + 1 : r][qr];
      float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
      for (int m = 0; m < L; m++) {
        s0 = fmaf (taps[m], e0[m], s0);
        s1 = fmaf (taps[m], e1[m], s1);
      }
      for (int t = 0; t < 2; t++) {
        if (t == 1 && !two)
          break;
        const int y = y0 + r + t;
        const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * C;
        T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * C;
        const float v = amount != 0.0f ? (float) in[c] : 0.0f;
        out[c] = (T) fminf (cf_round_up_clamped < T >
            (cf_gaussian_finish (v, t ? s1 : s0, amount, threshold)), max);
      }
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
  gm_columns < C > <<<dim3 ((gw + 31) / 32, gh), dim3 (32, COL_SLICES), 0,
      stream>>> (rows, h, grid, gw, mask, p->border, gy);
  const dim3 tiles ((w + TX - 1) / TX, (h + Tile < C >::TY - 1) /
      Tile < C >::TY);
  const float amount = (float) p->sharpen, threshold =
      (float) (p->threshold * full);
  if (gx.taps <= 24)
    gm_reconstruct < T, C, 24 > <<<tiles, TX, 0, stream>>> (grid, src->data,
        src->stride, dst->data, dst->stride, w, h, mask, amount, threshold,
        full, gx, gy);
  else
    gm_reconstruct < T, C, CF_GM_MAX_TAPS > <<<tiles, TX, 0,
        stream>>> (grid, src->data, src->stride, dst->data, dst->stride, w,
        h, mask, amount, threshold, full, gx, gy);
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
