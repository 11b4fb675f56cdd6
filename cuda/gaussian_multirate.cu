/* The Gaussian's multi-rate path on the GPU (gaussian_paths.h), three
 * launches: columns decimated (the source read once, a column's grid
 * samples along y to a float plane of gh x W), rows decimated and rebuilt
 * along x (that plane to gh x W floats, the gh x gw grid only in shared
 * memory), and the columns rebuilt along y at every pixel, ending with the
 * blur or unsharp mask into dst. The last two hold each thread's taps and a
 * window of grid samples or rebuilt rows in registers and slide it along:
 * one load and `taps` fused multiply-adds an output. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_dispatch.cuh"
#include "cf_runtime.h"

namespace {

/* Columns: 32 sample columns by COL_SLICES a block. */
constexpr int COL_SLICES = 8;

/* Threads a block of gm_rows and gm_rebuild_y. */
constexpr int TX = 256;

/* The float planes of the intermediates: channel c's row y at data + (c *
 * rows + y) * pitch. */
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

/* A window of L samples in registers against the taps at step s: sample
 * m is win[(s + m) mod L] (static once the caller's loop over s is
 * unrolled), so that a step replaces one sample. */
template < int L > __device__ __forceinline__ float
window_sum (const float (&taps)[L], const float (&win)[L], int s)
{
  float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
  for (int m = 0; m < L; m += 2) {
    s0 = fmaf (taps[m], win[(s + m) % L], s0);
    s1 = fmaf (taps[m + 1], win[(s + m + 1) % L], s1);
  }
  return s0 + s1;
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

/* Stage 1 and stage 2 along x, one row segment a block, the grid only in
 * shared memory: block (segment, row y, channel) loads the samples of the
 * columns' plane that its grid samples reach (border-mapped, ROW_LOADS
 * loads in flight a thread), decimates them to the grid samples its
 * outputs read (zeros from gw on; k is not a multiple of 4 from 8 up, so
 * the lanes' samples, k apart, fall in distinct banks, or two in one), and
 * rebuilds f (c, y, x) = sum_m h_p (m) D (x / k + m), p = x mod k: a
 * thread takes a phase and a run of `run` consecutive grid steps, its taps
 * and a window of L grid samples in registers, one shared load and L fused
 * multiply-adds an output. The outputs gather in shared memory and leave
 * as whole rows. f's rows from gh on are zeros (gm_rebuild_y's loads run
 * on to them). */
constexpr int ROW_SEGMENT = 4096;       /* outputs a block, at most */
constexpr int ROW_LOADS = 8;    /* loads a thread has in flight */
constexpr int ROW_BUF = ROW_SEGMENT + (CF_GM_MAX_TAPS - 1) * CF_GM_MAX_FACTOR
    + 2 * CF_GM_MAX_REACH + 1;
constexpr int ROW_GRID = ROW_SEGMENT + CF_GM_MAX_TAPS + 1;

/* The threads of a gm_rows block that rebuild: TX / k runs of each of the
 * k phases (a segment is this many times `run` outputs). */
__host__ __device__ constexpr int
row_threads (int k)
{
  return TX / k * k;
}

template < int C, int L > __global__ void
__launch_bounds__ (TX)
gm_rows (Planes cols, int w, Planes f, int gw, int run, unsigned mask,
    CfBorder border, const __grid_constant__ CfGaussMultirate g)
{
  __shared__ float buf[ROW_BUF];        /* the columns' samples, then f */
  __shared__ float grid[ROW_GRID];
  __shared__ float a[CF_GM_MAX_REACH + 1];
  __shared__ float hs[CF_GM_MAX_FACTOR][L + 1];   /* + 1: distinct banks */
  const int k = g.factor, reach = g.reach, y = blockIdx.y, c = blockIdx.z;
  const int t = threadIdx.x, segment = row_threads (k) * run;
  const int x0 = blockIdx.x * segment, x1 = min (w, x0 + segment);
  if (!((mask >> c) & 1u))
    return;
  float *out = plane_row (f, c, y);
  if (y >= cols.rows) {
    for (int x = x0 + t; x < x1; x += TX)
      out[x] = 0.0f;
    return;
  }
  /* grid samples i0 .. i0 + ng - 1 (relative 0 .. ng - 1, one more read
   * past the last), nd of them inside the grid */
  const int i0 = x0 / k, ng = (x1 - 1) / k - i0 + L;
  const int nd = min (ng, gw - i0);
  const int xs = (i0 + g.first) * k - reach, n = (nd - 1) * k + 2 * reach + 1;
  const float *in = plane_row (cols, c, y);

  for (int u = t; u <= reach; u += TX)
    a[u] = g.analysis[u];
  for (int e = t; e < k * L; e += TX)
    hs[e / L][e % L] = g.synthesis[e / L][e % L];
  for (int e0 = t; e0 < n; e0 += TX * ROW_LOADS) {
    float v[ROW_LOADS];
#pragma unroll
    for (int l = 0; l < ROW_LOADS; l++)
      v[l] = in[border_index (xs + min (e0 + l * TX, n - 1), w, border)];
#pragma unroll
    for (int l = 0; l < ROW_LOADS; l++)
      if (e0 + l * TX < n)
        buf[e0 + l * TX] = v[l];
  }
  __syncthreads ();

  for (int i = t; i <= ng; i += TX) {
    const float *b = buf + i * k + reach;
    float s0 = 0.0f, s1 = 0.0f;
    if (i < nd) {
      s0 = a[0] * b[0];
      int u = 1;
#pragma unroll 2
      for (; u + 1 <= reach; u += 2) {
        s0 = fmaf (a[u], b[u] + b[-u], s0);
        s1 = fmaf (a[u + 1], b[u + 1] + b[-u - 1], s1);
      }
      if (u <= reach)
        s0 = fmaf (a[u], b[u] + b[-u], s0);
    }
    grid[i] = s0 + s1;
  }
  __syncthreads ();

  /* thread (phase p, run r): outputs x0 + (q0 + s) k + p, s < steps */
  const int p = t % k, q0 = t / k * run, last = x1 - 1 - p;
  const int steps = t >= row_threads (k) || last < x0 ? 0 :
      min (run, (last - x0) / k - q0 + 1);
  if (steps > 0) {
    float taps[L], win[L];
#pragma unroll
    for (int m = 0; m < L; m++) {
      taps[m] = hs[p][m];
      win[m] = grid[q0 + m];
    }
#pragma unroll
    for (int s = 0; s < L; s++) {
      if (s >= steps)
        break;
      const float sum = window_sum (taps, win, s);
      win[s] = grid[q0 + s + L];
      buf[(q0 + s) * k + p] = sum;
    }
  }
  __syncthreads ();
  for (int x = x0 + t; x < x1; x += TX)
    out[x] = buf[x - x0];
}

/* Stage 2 along y, at every pixel: thread x of block (x block and
 * channel, phase p, band) rebuilds the rows y = p + k (band `band` + t), t
 * < `band` (at most L), from a window of L rebuilt grid rows held in
 * registers (index (t + m) mod L: static once the loop over a window's L
 * steps is unrolled), one new row loaded a step. The channel is
 * blockIdx.x mod C, so that the blocks writing the channels of the same
 * pixels run together (their byte stores meet in L2 before it writes them
 * back). Unfiltered channels are copied. */
template < typename T, int C, int L > __global__ void
__launch_bounds__ (TX)
gm_rebuild_y (Planes f, int band, const void *src, size_t src_stride,
    void *dst, size_t dst_stride, int w, int h, unsigned mask, float amount,
    float threshold, float max, const __grid_constant__ CfGaussMultirate gy)
{
  const int x = blockIdx.x / C * TX + threadIdx.x, c = blockIdx.x % C;
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
      const float sum = window_sum (taps, win, s);
      win[s] = f.data[next];
      next += next_step;
      const float v = amount != 0.0f ?
          (float) *(const T *) ((const char *) src + in) : 0.0f;
      *(T *) ((char *) dst + out) =
          (T) fminf (cf_round_up_clamped < T > (cf_gaussian_finish (v,
                  sum, amount, threshold)), max);
      out += out_step;
      in += in_step;
    }
  }
}

/* The pitch of the gh x w planes (the columns' and the rebuilt rows'). */
static size_t
line_pitch (int w)
{
  return ((size_t) w + 31) & ~(size_t) 31;
}

/* Floats of scratch: the columns' plane and the rebuilt rows (and
 * CF_GM_MAX_TAPS rows of zeros after them). */
static size_t
scratch_floats (int w, int channels, int gh)
{
  return (size_t) channels * (2 * gh + CF_GM_MAX_TAPS) *
      line_pitch (w);
}

/* Grid steps a thread of gm_rows: as few segments of a row as ROW_SEGMENT
 * and L allow while that leaves about two blocks a multiprocessor of an
 * H100, and runs of equal length (a shorter run loads more of the window
 * again: L + run loads for run outputs). */
static int
row_run (int w, int rows, int channels, int k, int taps)
{
  const int phases = row_threads (k);
  const int longest = min (taps, ROW_SEGMENT / phases);
  int segments = (w + phases * longest - 1) / (phases * longest);
  while (segments * rows * channels < 264 && phases * segments < w)
    segments++;
  return (w + segments * phases - 1) / (segments * phases);
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
  const Planes f = { cols.data + (size_t) C * gh * cols.pitch,
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
  const int run = row_run (w, f.rows, C, gx.factor, L);
  const int segment = row_threads (gx.factor) * run;
  gm_rows < C, L > <<<dim3 ((w + segment - 1) / segment, f.rows, C), TX, 0,
      stream>>> (cols, w, f, gw, run, mask, p->border, gx);
  /* bands of equal length, at most L rows of a phase each */
  const int phase_rows = (h + gy.factor - 1) / gy.factor;
  const int bands = (phase_rows + L - 1) / L;
  const int band = (phase_rows + bands - 1) / bands;
  gm_rebuild_y < T, C, L > <<<dim3 ((w + TX - 1) / TX * C,
          gy.factor * bands), TX, 0, stream>>> (f, band, src->data,
      src->stride, dst->data, dst->stride, w, h, mask, (float) p->sharpen,
      (float) (p->threshold * full), full, gy);
  return cf_launch_status ();
}

template < typename T, int C > CfStatus
launch_taps (const CfPlane * src, const CfPlane * dst, float *scratch,
    const CfGaussianParams * p, const CfGaussMultirate & gx,
    const CfGaussMultirate & gy, cudaStream_t stream)
{
  /* taps run 20-30 from radius 16 up: padded to the next even count, at
   * least 20 (cf_gm_plan refuses more than CF_GM_MAX_TAPS) */
  const int pairs = (max (max (gx.taps, gy.taps), 20) + 1) / 2;
  return cf_with_radius < 10, CF_GM_MAX_TAPS / 2 > (pairs, [&](auto h) {
        return launch < T, C, 2 * decltype (h)::value > (src, dst, scratch,
            p, gx, gy, stream);
      }, [] {
        return CF_ERROR_INVALID;
      });
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
      cf_gm_grid (&gy, src->height));
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
