/* The Gaussian's multi-rate path on the GPU (gaussian_paths.h), four
 * launches: columns decimated (the source read once, a column's grid
 * samples along y to a float plane of gh x W), rows decimated (that plane
 * to the gh x gw grid), the grid's rows rebuilt along x (gh x W floats),
 * and the columns rebuilt along y at every pixel, ending with the blur or
 * unsharp mask into dst. The last holds each thread's taps and a window of the
 * rebuilt rows in registers and slides it down its column: one load and
 * `taps` fused multiply-adds a pixel. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_dispatch.cuh"
#include "cf_runtime.h"

namespace {

/* Rows: a block's grid samples span at most this many pixels. */
constexpr int ROW_SPAN = 2048;
constexpr int ROW_BUF = ROW_SPAN + 2 * CF_GM_MAX_REACH + 1;
constexpr int ROW_THREADS = 256;
constexpr int ROW_LOADS = 8;    /* loads a thread has in flight */

/* Columns: 32 sample columns by COL_SLICES a block. */
constexpr int COL_SLICES = 8;

/* Stage 2: threads a block, along x. */
constexpr int TX = 256;

/* The float planes of the intermediates and the grid: channel c's row y
 * at data + (c * rows + y) * pitch. */
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

/* A sample as a float without I2F (an eighth of the FMA rate on sm_90):
 * 2^23's bits or-ed with v are 2^23 + v exactly. */
__device__ __forceinline__ float
sample_float (unsigned v)
{
  return __uint_as_float (0x4B000000u | v) - 8388608.0f;
}

/* Stage 1 along y, straight from the source, as k polyphase filters: with
 * a sample column split by phase, X_p (jj) = source row (first + jj) k -
 * reach + p (border-mapped), grid row j is
 *   sum over p < k, m < M of W_p (m) X_p (j + m),
 *   W_p (m) = a (|m k + p - reach|)
 * (zero where m k + p passes 2 reach; M = 2 reach / k + 1 = phase_taps,
 * padded to MM). A thread takes COL_G consecutive grid rows of its column
 * and, phase by phase, slides a window of COL_G + MM - 1 source rows
 * through registers: (COL_G + MM - 1) k / COL_G loads a grid sample (7.5
 * at k = 4) against 2 reach + 1 (27). Below k = COL_SLICES a block's
 * threadIdx.y take further grid rows; from it they share out the phases of
 * the same COL_G rows and sum in shared memory, so that a large k (43 at
 * sigma 100) is not one long walk a thread. Writes the gh x w plane of
 * each filtered channel. */
constexpr int COL_G = 8;
static_assert (COL_G == COL_SLICES, "a split block sums a row a slice");

template < typename T, int C, int MM > __global__ void
__launch_bounds__ (32 * COL_SLICES)
gm_columns (const void *src, size_t stride, int w, int h, Planes out,
    unsigned mask, CfBorder border, const __grid_constant__ CfGaussMultirate g)
{
  __shared__ float4 wt4[CF_GM_MAX_FACTOR * MM / 4];
  __shared__ float part[COL_SLICES][COL_G][32];
  float *wt = (float *) wt4;    /* W_p (m) at p MM + m */
  const int k = g.factor, reach = g.reach, gh = out.rows;
  const int t = threadIdx.y * 32 + threadIdx.x;
  for (int e = t; e < k * MM; e += 32 * COL_SLICES) {
    const int z = e % MM * k + e / MM;
    wt[e] = z <= 2 * reach ? g.analysis[abs (z - reach)] : 0.0f;
  }
  __syncthreads ();
  const bool split = k >= COL_SLICES;
  const int x = blockIdx.x * 32 + threadIdx.x, xx = min (x, w - 1);
  const int j0 = (split ? blockIdx.y :
      blockIdx.y * COL_SLICES + threadIdx.y) * COL_G;
  if (j0 >= gh)
    return;                     /* the whole block where split */
  const int y0 = (g.first + j0) * k - reach;
  const int p0 = split ? threadIdx.y : 0, pstep = split ? COL_SLICES : 1;
  /* the window's rows all inside the plane: no border mapping */
  const bool inside = y0 >= 0 && y0 + (COL_G + MM - 1) * k <= h;
  const size_t step = stride * k;        /* bytes, k rows down */
#pragma unroll 1
  for (int c = 0; c < C; c++) {
    if (!((mask >> c) & 1u))
      continue;
    float acc[COL_G] = { };
    for (int p = p0; p < k; p += pstep) {
      float xv[COL_G + MM - 1], wm[MM];
      if (inside) {
        const char *r = (const char *) (cf_row < T > (src, stride, y0 + p) +
            xx * C + c);
#pragma unroll
        for (int q = 0; q < COL_G + MM - 1; q++)
          xv[q] = sample_float (*(const T *) (r + q * step));
      } else {
#pragma unroll
        for (int q = 0; q < COL_G + MM - 1; q++)
          xv[q] = sample_float (cf_row < T > (src, stride,
                  border_index (y0 + q * k + p, h, border))[xx * C + c]);
      }
#pragma unroll
      for (int m = 0; m < MM; m += 4) {
        const float4 f = wt4[(p * MM + m) / 4];
        wm[m] = f.x;
        wm[m + 1] = f.y;
        wm[m + 2] = f.z;
        wm[m + 3] = f.w;
      }
#pragma unroll
      for (int m = 0; m < MM; m++)
#pragma unroll
        for (int q = 0; q < COL_G; q++)
          acc[q] = fmaf (wm[m], xv[q + m], acc[q]);
    }
    if (split) {
#pragma unroll
      for (int q = 0; q < COL_G; q++)
        part[threadIdx.y][q][threadIdx.x] = acc[q];
      __syncthreads ();
      float s = 0.0f;
#pragma unroll
      for (int q = 0; q < COL_SLICES; q++)
        s += part[q][threadIdx.y][threadIdx.x];
      if (x < w && j0 + threadIdx.y < gh)
        plane_row (out, c, j0 + threadIdx.y)[x] = s;
      __syncthreads ();
    } else {
#pragma unroll
      for (int q = 0; q < COL_G; q++)
        if (x < w && j0 + q < gh)
          plane_row (out, c, j0 + q)[x] = acc[q];
    }
  }
}

/* Taps a phase of gm_columns: M, at most CF_GM_MAX_PHASE_TAPS (cf_gm_plan). */
static int
phase_taps (const CfGaussMultirate & g)
{
  return 2 * g.reach / g.factor + 1;
}

/* Stage 1 along x, on the columns' plane: block (blockIdx.x, row
 * blockIdx.y) reads the samples its grid samples reach (border-mapped)
 * into shared memory, ROW_LOADS loads in flight a thread, then each grid
 * sample is the reach's taps (k is not a multiple of 4 from 8 up: the
 * lanes' samples, k apart, fall in distinct banks, or two in one). Columns
 * from gw to the grid's pitch get zeros: the padded taps of stage 2 read
 * them. */
template < int C > __global__ void
__launch_bounds__ (ROW_THREADS)
gm_rows (Planes in, int w, Planes out, int gw, unsigned mask,
    CfBorder border, const __grid_constant__ CfGaussMultirate g)
{
  __shared__ float buf[C][ROW_BUF];
  __shared__ float a[CF_GM_MAX_REACH + 1];
  const int k = g.factor, reach = g.reach, y = blockIdx.y;
  const int span = max (1, ROW_SPAN / k);       /* grid samples per block */
  const int i0 = blockIdx.x * span, count = min (span, gw - i0);
  const int xs = (i0 + g.first) * k - reach;
  const int n = ((count - 1) * k + 2 * reach + 1) * C;

  for (int u = threadIdx.x; u <= reach; u += ROW_THREADS)
    a[u] = g.analysis[u];
  if (blockIdx.x == 0)
    for (int e = threadIdx.x; e < ((int) out.pitch - gw) * C;
        e += ROW_THREADS)
      plane_row (out, e % C, y)[gw + e / C] = 0.0f;
  for (int e0 = threadIdx.x; e0 < n; e0 += ROW_THREADS * ROW_LOADS) {
    int at[ROW_LOADS];
    float v[ROW_LOADS];
#pragma unroll
    for (int t = 0; t < ROW_LOADS; t++) {
      const int e = min (e0 + t * ROW_THREADS, n - 1);
      at[t] = border_index (xs + e / C, w, border);
    }
#pragma unroll
    for (int t = 0; t < ROW_LOADS; t++) {
      const int c = (e0 + t * ROW_THREADS) % C;
      v[t] = (mask >> c) & 1u ? plane_row (in, c, y)[at[t]] : 0.0f;
    }
#pragma unroll
    for (int t = 0; t < ROW_LOADS; t++) {
      const int e = e0 + t * ROW_THREADS;
      if (e < n)
        buf[e % C][e / C] = v[t];
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

/* Stage 2 along x, on the grid's rows: f (c, j, x) = sum_m hx_p (m) D (c,
 * j, x / k + m), p = x mod k, for `rows` grid rows a thread (fewer where
 * the grid is short, so that there are threads enough), its phase's taps
 * (padded with zeros to L) in registers; f's rows from gh on are zeros. */
constexpr int ROWS_X = 8;
template < int C, int L > __global__ void
__launch_bounds__ (TX)
gm_rebuild_x (Planes grid, Planes f, int w, int rows, unsigned mask,
    const __grid_constant__ CfGaussMultirate gx)
{
  /* a warp's lanes hold up to 32 phases: the taps copied once a block into
   * shared memory (the constant bank serves one address at a time), a
   * phase's row L + 1 floats long so that they fall in distinct banks */
  __shared__ float hs[CF_GM_MAX_FACTOR][L + 1];
  const int x = blockIdx.x * TX + threadIdx.x, c = blockIdx.z;
  const int j0 = blockIdx.y * rows, gh = grid.rows, k = gx.factor;
  for (int e = threadIdx.x; e < k * L; e += TX)
    hs[e / L][e % L] = gx.synthesis[e / L][e % L];
  __syncthreads ();
  if (x >= w || !((mask >> c) & 1u))
    return;
  const int q = x / k;
  float taps[L];
#pragma unroll
  for (int m = 0; m < L; m++)
    taps[m] = hs[x % k][m];
  for (int j = j0; j < min (j0 + rows, f.rows); j++) {
    if (j >= gh) {
      plane_row (f, c, j)[x] = 0.0f;    /* rows rebuild_y's window runs on to */
      continue;
    }
    const float *d = plane_row (grid, c, j) + q;
    float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
    for (int m = 0; m < L; m += 2) {
      s0 = fmaf (taps[m], d[m], s0);
      s1 = fmaf (taps[m + 1], d[m + 1], s1);
    }
    plane_row (f, c, j)[x] = s0 + s1;
  }
}

/* Stage 2 along y, at every pixel: thread x of block (phase p, band) of
 * channel blockIdx.z rebuilds the rows y = p + k (band `band` + t), t <
 * `band` (at most L), from a window of L rebuilt grid rows held in
 * registers (index (t + m) mod L: static once the loop over a window's L
 * steps is unrolled), one new row loaded a step. Unfiltered channels are
 * copied. */
template < typename T, int C, int L > __global__ void
__launch_bounds__ (TX)
gm_rebuild_y (Planes f, int band, const void *src, size_t src_stride,
    void *dst, size_t dst_stride, int w, int h, unsigned mask, float amount,
    float threshold, float max, const __grid_constant__ CfGaussMultirate gy)
{
  const int x = blockIdx.x * TX + threadIdx.x, c = blockIdx.z;
  const int k = gy.factor, p = blockIdx.y % k, t0 = (blockIdx.y / k) * band;
  if (x >= w || p + k * t0 >= h)
    return;
  const int steps = min (band, (h - 1 - p) / k - t0 + 1);
  const size_t sample = (size_t) x * C + c;
  if (!((mask >> c) & 1u)) {
    for (int t = 0; t < steps; t++) {
      const int y = p + k * (t0 + t);
      cf_row < T > (dst, dst_stride, y)[sample] =
          cf_row < T > (src, src_stride, y)[sample];
    }
    return;
  }
  /* the window's next row and the rows of dst and src advance a step at a
   * time, as 32-bit offsets (launch checks the planes' sizes); f's rows
   * run L past gh (zeros), as far as a band's window reads */
  float taps[L], win[L];
  unsigned next = (unsigned) (plane_row (f, c, t0) + x - f.data);
  const unsigned next_step = (unsigned) f.pitch;
#pragma unroll
  for (int m = 0; m < L; m++) {
    taps[m] = gy.synthesis[p][m];
    win[m] = f.data[next];
    next += next_step;
  }
  const unsigned y0 = p + k * t0;
  unsigned out = (unsigned) (y0 * dst_stride + sample * sizeof (T));
  unsigned in = (unsigned) (y0 * src_stride + sample * sizeof (T));
  const unsigned out_step = (unsigned) (dst_stride * k);
  const unsigned in_step = (unsigned) (src_stride * k);
  for (int t1 = 0; t1 < steps; t1 += L) {
#pragma unroll
    for (int s = 0; s < L; s++) {
      const int t = t1 + s;
      if (t >= steps)
        break;
      float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
      for (int m = 0; m < L; m += 2) {
        s0 = fmaf (taps[m], win[(s + m) % L], s0);
        s1 = fmaf (taps[m + 1], win[(s + m + 1) % L], s1);
      }
      win[s] = f.data[next];
      next += next_step;
      const float v = amount != 0.0f ?
          (float) *(const T *) ((const char *) src + in) : 0.0f;
      *(T *) ((char *) dst + out) =
          (T) fminf (cf_round_up_clamped < T > (cf_gaussian_finish (v,
                  s0 + s1, amount, threshold)), max);
      out += out_step;
      in += in_step;
    }
  }
}

/* The grid's pitch: room after gw for the padded taps of stage 2. */
static size_t
grid_pitch (int gw)
{
  return ((size_t) gw + CF_GM_MAX_TAPS + 31) & ~(size_t) 31;
}

/* The pitch of the gh x w planes (the columns' and the rebuilt rows'). */
static size_t
line_pitch (int w)
{
  return ((size_t) w + 31) & ~(size_t) 31;
}

/* Floats of scratch: the columns' plane, the grid, the rebuilt rows (and
 * CF_GM_MAX_TAPS rows of zeros after them). */
static size_t
scratch_floats (int w, int channels, int gw, int gh)
{
  return (size_t) channels * (gh * (line_pitch (w) + grid_pitch (gw)) +
      (gh + CF_GM_MAX_TAPS) * line_pitch (w));
}

/* Grid rows a thread of gm_rebuild_x: up to ROWS_X while that leaves
 * about two blocks (of a row of TX threads) a multiprocessor of an H100,
 * so that each block's copy of the taps (read a float at a time from the
 * constant bank) serves several rows. */
static int
rebuild_rows (int w, int gh)
{
  const int blocks = (w + TX - 1) / TX * gh;
  return max (1, min (ROWS_X, blocks / 264));
}

template < typename T, int C, int MM > void
launch_columns (const CfPlane * src, const Planes & out, unsigned mask,
    CfBorder border, const CfGaussMultirate & gy, cudaStream_t stream)
{
  const int rows = gy.factor >= COL_SLICES ? COL_G : COL_SLICES * COL_G;
  gm_columns < T, C, MM > <<<dim3 ((src->width + 31) / 32, (out.rows +
              rows - 1) / rows), dim3 (32, COL_SLICES), 0, stream>>>
      (src->data, src->stride, src->width, src->height, out, mask, border,
      gy);
}

template < typename T, int C, int L > CfStatus
launch (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  const int w = src->width, h = src->height;
  const int gw = cf_gm_grid (&gx, w), gh = cf_gm_grid (&gy, h);
  const Planes cols = { scratch, line_pitch (w), gh };
  const Planes grid = { cols.data + (size_t) C * gh * cols.pitch,
    grid_pitch (gw), gh
  };
  const Planes f = { grid.data + (size_t) C * gh * grid.pitch,
    line_pitch (w), gh + L
  };
  const unsigned mask = p->channel_mask;
  const float full = (float) cf_plane_max (dst);

  if (phase_taps (gy) <= 8)
    launch_columns < T, C, 8 > (src, cols, mask, p->border, gy, stream);
  else if (phase_taps (gy) <= 12)
    launch_columns < T, C, 12 > (src, cols, mask, p->border, gy, stream);
  else
    launch_columns < T, C, 16 > (src, cols, mask, p->border, gy, stream);
  const int span = max (1, ROW_SPAN / gx.factor);
  gm_rows < C > <<<dim3 ((gw + span - 1) / span, gh), ROW_THREADS, 0,
      stream>>> (cols, w, grid, gw, mask, p->border, gx);
  const int rows = rebuild_rows (w, gh);
  gm_rebuild_x < C, L > <<<dim3 ((w + TX - 1) / TX, (f.rows + rows - 1) /
          rows, C), TX, 0, stream>>> (grid, f, w, rows, mask, gx);
  /* bands of equal length, at most L rows of a phase each */
  const int phase_rows = (h + gy.factor - 1) / gy.factor;
  const int bands = (phase_rows + L - 1) / L;
  const int band = (phase_rows + bands - 1) / bands;
  gm_rebuild_y < T, C, L > <<<dim3 ((w + TX - 1) / TX, gy.factor * bands,
          C), TX, 0, stream>>> (f, band, src->data, src->stride, dst->data,
      dst->stride, w, h, mask, (float) p->sharpen,
      (float) (p->threshold * full), full, gy);
  return cf_launch_status ();
}

template < typename T, int C > CfStatus
launch_taps (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  /* taps run 20-27 from sigma 7 up: padded to the next of these */
  const int taps = max (gx.taps, gy.taps);
  if (taps <= 20)
    return launch < T, C, 20 > (src, dst, scratch, p, gx, gy, stream);
  if (taps <= 24)
    return launch < T, C, 24 > (src, dst, scratch, p, gx, gy, stream);
  if (taps <= 28)
    return launch < T, C, 28 > (src, dst, scratch, p, gx, gy, stream);
  return launch < T, C, CF_GM_MAX_TAPS > (src, dst, scratch, p, gx, gy,
      stream);
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  return cf_with_channels (src->channels, [&](auto c) {
        return launch_taps < T, decltype (c)::value > (src, dst, scratch, p,
            gx, gy, stream);
      });
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
  /* gm_rebuild_y addresses the planes by 32-bit offsets */
  const size_t floats = scratch_floats (src->width, src->channels,
      cf_gm_grid (&gx, src->width), cf_gm_grid (&gy, src->height));
  if ((size_t) src->height * src->stride > UINT32_MAX
      || (size_t) dst->height * dst->stride > UINT32_MAX
      || floats > UINT32_MAX)
    return CF_ERROR_INVALID;
  void *scratch;
  CfStatus st = cf_gaussian_scratch (exec, sizeof (float) * floats,
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
