/* The Gaussian's multi-rate path on the GPU (gaussian_paths.h), two
 * launches through a grid of gh x gw floats a channel, the only
 * intermediate that reaches memory:
 *
 * gm_decimate: a block owns a strip of grid columns and a band of
 * DEC_ROWS grid rows. Each thread walks half the band's rows down one
 * source column of the strip (its halo included), one load a sample,
 * adding it to the band's DEC_ROWS column sums held in registers (the
 * weights of a row for every sum come from a table in shared memory, zero
 * outside the reach); the two halves' sums meet in shared memory and the
 * strip's grid samples are those sums decimated along x.
 *
 * gm_rebuild: a block owns REB_ROWS x cols grid cells of output (k x k
 * pixels each). It copies the grid samples they reach to shared memory,
 * rebuilds them along x at every output column (a thread a grid row and
 * phase, its taps and the samples in registers), then along y at every
 * pixel (a thread a column and phase, likewise), writing dst. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

/* Decimation: grid rows a band, source columns a strip (with its halo) at
 * most, a thread each, and the band's rows split over DEC_SLICES threads
 * a column: at sigma 100 a band is 548 rows, and one thread walking them
 * all left the kernel waiting on its loads. */
constexpr int DEC_ROWS = 8;
constexpr int DEC_WIDTH = 512;
constexpr int DEC_SLICES = 2;
constexpr int DEC_THREADS = DEC_WIDTH * DEC_SLICES;

/* Rows whose samples a thread loads before adding them: the sums and the
 * batch stay in 32 registers on one channel (two blocks of 1024 threads an
 * SM), in 64 on more. */
template < int C > struct DecBatch {
  static constexpr int value = C <= 2 ? 4 : 2;
};

/* Rebuilding: grid rows a block, grid columns a block at most, and the
 * widest block in pixels ((cols + 1) k: the row pitch in shared memory
 * that keeps stage x's stores free of bank conflicts). */
constexpr int REB_ROWS = 16;
constexpr int REB_COLS = 16;
constexpr int REB_WIDTH = 160;
constexpr int REB_THREADS = 256;

/* The grid: channel c's row j at data + (c * rows + j) * pitch. */
struct Planes {
  float *data;
  size_t pitch;                 /* floats */
  int rows;
};

__device__ __forceinline__ float *
plane_row (const Planes & p, int c, int j)
{
  return p.data + ((size_t) c * p.rows + j) * p.pitch;
}

__device__ __forceinline__ int
border_index (int i, int n, CfBorder border)
{
  return (unsigned) i < (unsigned) n ? i : cf_border_index (i, n, border);
}

/* Grid columns a decimation strip holds. */
static int
strip_cols (const CfGaussMultirate & g)
{
  return (DEC_WIDTH - 2 * g.reach - 1) / g.factor + 1;
}

/* Source rows of a band: the band's grid rows and the reach either side. */
__host__ __device__ __forceinline__ int
band_rows (const CfGaussMultirate & g)
{
  return (DEC_ROWS - 1) * g.factor + 2 * g.reach + 1;
}

/* Dynamic shared memory of gm_decimate: the row weights and the sums. */
static size_t
decimate_smem (const CfGaussMultirate & gy, int channels)
{
  return sizeof (float) * DEC_ROWS * ((size_t) band_rows (gy) +
      (size_t) channels * DEC_WIDTH);
}

template < typename T, int C > __global__ void
__launch_bounds__ (DEC_THREADS, C == 1 ? 2 : 1)
gm_decimate (const void *src, size_t stride, int w, int h, Planes grid,
    int gw, int gh, int bw, unsigned mask, CfBorder border,
    const __grid_constant__ CfGaussMultirate gx,
    const __grid_constant__ CfGaussMultirate gy)
{
  extern __shared__ float4 smem[];
  __shared__ float ax[CF_GM_MAX_REACH + 1];
  const int kx = gx.factor, rx = gx.reach, ky = gy.factor, ry = gy.reach;
  const int i0 = blockIdx.x * bw, j0 = blockIdx.y * DEC_ROWS;
  const int sw = (bw - 1) * kx + 2 * rx + 1, rows = band_rows (gy);
  const int xs = (i0 + gx.first) * kx - rx, ys = (j0 + gy.first) * ky - ry;
  float *weights = (float *) smem;      /* rows x DEC_ROWS */
  float *sums = weights + (size_t) rows * DEC_ROWS;     /* C x DEC_ROWS x sw */

  for (int u = threadIdx.x; u <= rx; u += DEC_THREADS)
    ax[u] = gx.analysis[u];
  for (int e = threadIdx.x; e < rows * DEC_ROWS; e += DEC_THREADS) {
    const int d = abs (e / DEC_ROWS - (e % DEC_ROWS) * ky - ry);
    weights[e] = d <= ry ? gy.analysis[d] : 0.0f;
  }
  __syncthreads ();

  /* Down column xx, slice `slice` of the band's rows, BATCH rows' loads
   * in flight; slice 1's sums go to shared memory, slice 0 adds its own. */
  constexpr int BATCH = DecBatch < C >::value;
  const int xx = threadIdx.x % DEC_WIDTH, slice = threadIdx.x / DEC_WIDTH;
  const int half = (rows + 1) / 2;
  const int r0 = slice ? half : 0, r1 = slice ? rows : half;
  const int x = border_index (xs + min (xx, sw - 1), w, border) * C;
  float acc[C][DEC_ROWS] = { };
  for (int rb = r0; rb < r1; rb += BATCH) {
    float v[BATCH][C];
#pragma unroll
    for (int b = 0; b < BATCH; b++) {
      const T *row = cf_row < T > (src, stride, border_index (ys +
              min (rb + b, r1 - 1), h, border));
#pragma unroll
      for (int c = 0; c < C; c++)
        v[b][c] = (mask >> c) & 1u ? cf_sample_float (row[x + c]) : 0.0f;
    }
#pragma unroll
    for (int b = 0; b < BATCH; b++) {
      if (rb + b >= r1)
        break;
      const float4 w0 = smem[2 * (rb + b)], w1 = smem[2 * (rb + b) + 1];
      const float wr[DEC_ROWS] = { w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z,
        w1.w
      };
#pragma unroll
      for (int c = 0; c < C; c++)
#pragma unroll
        for (int j = 0; j < DEC_ROWS; j++)
          acc[c][j] = fmaf (wr[j], v[b][c], acc[c][j]);
    }
  }
  if (slice == 1 && xx < sw)
#pragma unroll
    for (int c = 0; c < C; c++)
#pragma unroll
      for (int j = 0; j < DEC_ROWS; j++)
        sums[(c * DEC_ROWS + j) * sw + xx] = acc[c][j];
  __syncthreads ();
  if (slice == 0 && xx < sw)
#pragma unroll
    for (int c = 0; c < C; c++)
#pragma unroll
      for (int j = 0; j < DEC_ROWS; j++)
        sums[(c * DEC_ROWS + j) * sw + xx] += acc[c][j];
  __syncthreads ();

  /* Along x: grid sample i0 + i of band row j is centred on the sums'
   * column i k + reach. */
  for (int e = threadIdx.x; e < C * DEC_ROWS * bw; e += DEC_THREADS) {
    const int i = e % bw, j = (e / bw) % DEC_ROWS, c = e / (bw * DEC_ROWS);
    if (!((mask >> c) & 1u) || i0 + i >= gw || j0 + j >= gh)
      continue;
    const float *b = sums + (c * DEC_ROWS + j) * sw + i * kx + rx;
    float s0 = ax[0] * b[0], s1 = 0.0f;
    int u = 1;
    for (; u + 1 <= rx; u += 2) {
      s0 = fmaf (ax[u], b[u] + b[-u], s0);
      s1 = fmaf (ax[u + 1], b[u + 1] + b[-u - 1], s1);
    }
    if (u <= rx)
      s0 = fmaf (ax[u], b[u] + b[-u], s0);
    plane_row (grid, c, j0 + j)[i0 + i] = s0 + s1;
  }
}

/* Output x = q k + p is sum_m h_p (m) D (q + first + m): the grid's column
 * (or row) q + m. A block owns grid cells qx0 .. qx0 + cols - 1 by qy0 ..
 * qy0 + REB_ROWS - 1 and reads grid samples up to L - 1 beyond (zero past
 * the grid: the taps there are the padding's zeros). Channels are done in
 * turn through the same shared memory; unfiltered ones are copied. */
template < typename T, int C, int L > __global__ void
__launch_bounds__ (REB_THREADS)
gm_rebuild (Planes grid, int gw, int gh, const void *src, size_t src_stride,
    void *dst, size_t dst_stride, int w, int h, int cols, unsigned mask,
    float amount, float threshold, float max,
    const __grid_constant__ CfGaussMultirate gx,
    const __grid_constant__ CfGaussMultirate gy)
{
  constexpr int GW = REB_COLS + L + 1, GH = REB_ROWS + L;
  /* grid samples a thread loads, all in flight before they are stored */
  constexpr int GLOADS = (GH * (REB_COLS + L) + REB_THREADS - 1) /
      REB_THREADS;
  __shared__ float g[GH][GW];
  __shared__ float t[GH * REB_WIDTH];   /* rows rebuilt along x */
  /* x taps by phase: a warp of stage x reads up to 32 phases, which the
   * kernel parameters would serve one at a time; L + 1 apart, in distinct
   * banks */
  __shared__ float hx[CF_GM_MAX_FACTOR][L + 1];
  const int kx = gx.factor, ky = gy.factor, pitch = (cols + 1) * kx;
  const int qx0 = blockIdx.x * cols, qy0 = blockIdx.y * REB_ROWS;
  const int x0 = qx0 * kx, y0 = qy0 * ky;
  const int tw = min (cols * kx, w - x0), th = min (REB_ROWS * ky, h - y0);
  const int gn = GH * (cols + L);

  for (int e = threadIdx.x; e < kx * L; e += REB_THREADS)
    hx[e / L][e % L] = gx.synthesis[e / L][e % L];

  for (int c = 0; c < C; c++) {
    if (!((mask >> c) & 1u)) {
      for (int e = threadIdx.x; e < tw * th; e += REB_THREADS) {
        const int y = y0 + e / tw;
        const size_t i = (size_t) (x0 + e % tw) * C + c;
        cf_row < T > (dst, dst_stride, y)[i] =
            cf_row < T > (src, src_stride, y)[i];
      }
      continue;
    }
    float v[GLOADS];
#pragma unroll
    for (int n = 0; n < GLOADS; n++) {
      const int e = threadIdx.x + n * REB_THREADS;
      const int j = e / (cols + L), i = e % (cols + L);
      v[n] = e < gn && qy0 + j < gh && qx0 + i < gw ?
          plane_row (grid, c, qy0 + j)[qx0 + i] : 0.0f;
    }
#pragma unroll
    for (int n = 0; n < GLOADS; n++) {
      const int e = threadIdx.x + n * REB_THREADS;
      if (e < gn)
        g[e / (cols + L)][e % (cols + L)] = v[n];
    }
    __syncthreads ();

    /* Along x: grid row j, phase p; its cols outputs from cols + L - 1
     * samples. */
    for (int e = threadIdx.x; e < GH * kx; e += REB_THREADS) {
      const int p = e % kx, j = e / kx;
      float taps[L], win[REB_COLS + L - 1];
#pragma unroll
      for (int m = 0; m < L; m++)
        taps[m] = hx[p][m];
#pragma unroll
      for (int m = 0; m < REB_COLS + L - 1; m++)
        win[m] = m < cols + L - 1 ? g[j][m] : 0.0f;
#pragma unroll
      for (int q = 0; q < REB_COLS; q++) {
        if (q >= cols)
          break;
        float s = 0.0f;
#pragma unroll
        for (int m = 0; m < L; m++)
          s = fmaf (taps[m], win[q + m], s);
        t[j * pitch + q * kx + p] = s;
      }
    }
    __syncthreads ();

    /* Along y: column x, phase p; its REB_ROWS outputs from REB_ROWS +
     * L - 1 rebuilt rows. */
    for (int e = threadIdx.x; e < tw * ky; e += REB_THREADS) {
      const int x = e % tw, p = e / tw;
      const size_t i = (size_t) (x0 + x) * C + c;
      float taps[L], win[GH - 1];
#pragma unroll
      for (int m = 0; m < L; m++)
        taps[m] = gy.synthesis[p][m];
#pragma unroll
      for (int m = 0; m < GH - 1; m++)
        win[m] = t[m * pitch + x];
#pragma unroll
      for (int q = 0; q < REB_ROWS; q++) {
        const int y = y0 + q * ky + p;
        if (y >= h)
          break;
        float s = 0.0f;
#pragma unroll
        for (int m = 0; m < L; m++)
          s = fmaf (taps[m], win[q + m], s);
        const float v = amount != 0.0f ?
            (float) cf_row < T > (src, src_stride, y)[i] : 0.0f;
        cf_row < T > (dst, dst_stride, y)[i] =
            (T) fminf (cf_round_up_clamped < T > (cf_gaussian_finish (v, s,
                    amount, threshold)), max);
      }
    }
    __syncthreads ();
  }
}

/* Floats of scratch: the grid. */
static size_t
grid_pitch (int gw)
{
  return ((size_t) gw + 31) & ~(size_t) 31;
}

template < typename T, int C, int L > CfStatus
launch (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  const int w = src->width, h = src->height;
  const int gw = cf_gm_grid (&gx, w), gh = cf_gm_grid (&gy, h);
  const Planes grid = { scratch, grid_pitch (gw), gh };
  const unsigned mask = p->channel_mask;
  const float full = (float) cf_plane_max (dst);
  const size_t smem = decimate_smem (gy, C);
  const int bw = strip_cols (gx);

  CfStatus st = cf_allow_smem < gm_decimate < T, C > >(smem);
  if (st != CF_OK)
    return st;
  gm_decimate < T, C > <<<dim3 ((gw + bw - 1) / bw,
          (gh + DEC_ROWS - 1) / DEC_ROWS), DEC_THREADS, smem, stream>>>
      (src->data, src->stride, w, h, grid, gw, gh, bw, mask, p->border, gx,
      gy);
  const int cols = min (REB_COLS, REB_WIDTH / gx.factor - 1);
  gm_rebuild < T, C, L > <<<dim3 ((w + cols * gx.factor - 1) / (cols *
              gx.factor), (h + REB_ROWS * gy.factor - 1) / (REB_ROWS *
              gy.factor)), REB_THREADS, 0, stream>>> (grid, gw, gh,
      src->data, src->stride, dst->data, dst->stride, w, h, cols, mask,
      (float) p->sharpen, (float) (p->threshold * full), full, gx, gy);
  return cf_launch_status ();
}

template < typename T, int C > CfStatus
launch_taps (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  if (gx.taps <= 24 && gy.taps <= 24)
    return launch < T, C, 24 > (src, dst, scratch, p, gx, gy, stream);
  return launch < T, C, CF_GM_MAX_TAPS > (src, dst, scratch, p, gx, gy,
      stream);
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch_taps < T, 1 > (src, dst, scratch, p, gx, gy, stream);
    case 2:
      return launch_taps < T, 2 > (src, dst, scratch, p, gx, gy, stream);
    case 3:
      return launch_taps < T, 3 > (src, dst, scratch, p, gx, gy, stream);
    default:
      return launch_taps < T, 4 > (src, dst, scratch, p, gx, gy, stream);
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
  const int gw = cf_gm_grid (&gx, src->width);
  const int gh = cf_gm_grid (&gy, src->height);
  void *scratch;
  CfStatus st = cf_gaussian_scratch (exec, sizeof (float) * grid_pitch (gw) *
      gh * src->channels, &scratch);
  if (st != CF_OK)
    return st;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, (float *) scratch, p,
      gx, gy, stream) :
      launch_channels < unsigned char > (src, dst, (float *) scratch, p, gx,
      gy, stream);
}
