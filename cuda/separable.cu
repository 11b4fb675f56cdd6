/* The separable convolution engine (separable.h), rows then columns in one
 * pass over the frame. A block owns a strip of the frame (64 pixels across
 * on one-channel planes, 32 on others) `seg` rows tall, and walks down it
 * CH = 32 rows at a time:
 *   1. stage: the chunk's input rows, with the row kernel's halo, as float
 *      in shared memory (coalesced loads; samples outside the plane read
 *      through the border mode);
 *   2. rows pass: a thread takes one staged row and P = 8 consecutive
 *      pixels of one channel, and slides a window through registers:
 *      P + 2r loads for P (2r + 1) multiply-adds. A warp's lanes are 32
 *      consecutive rows, which an odd row pitch puts on 32 distinct banks.
 *      The results go to a float buffer of 2r + CH rows;
 *   3. columns pass: a thread takes one sample column and V = 8 rows, the
 *      same window down the buffer, and stores the results;
 *   4. the buffer's last 2r rows move to its top, where the next chunk's
 *      columns need them: each input row goes through the rows pass once,
 *      apart from the 2r rows a segment starts with.
 * The intermediate never leaves shared memory; the frame is read about once
 * (plus the horizontal halo, from L1/L2) and written once. Radii up to
 * MAX_FIXED are compiled with the radius known (fully unrolled, the taps
 * operands of the multiply-adds); larger ones run the taps in blocks of B,
 * padded with zero taps. The channel count is known at compile time, so
 * every shared-memory offset is an immediate. Only filtered channels are
 * computed; the others are copied. A kernel whose two axes differ runs at
 * the larger radius, the shorter one padded with zero taps.
 *
 * Radii 1 .. MAX_FIXED on planes of 1, 2 or 4 channels whose rows are
 * aligned to 4 samples run the vector engine (namespace vec, below: the
 * same walk in 16-byte vectors, the next chunk loaded while this one is
 * computed). This one takes three-channel planes at those radii, larger
 * radii, and unaligned rows (with blocked taps). */
#include "separable.h"
#include "gaussian_paths.h"     /* cf_gaussian_finish */
#include "cf_kernel.cuh"
#include "cf_dispatch.cuh"
#include "cf_border_near.cuh"
#include "cf_dot.cuh"
#include "cf_tap_words.h"
#include "cf_mma.cuh"

#include <algorithm>

namespace {

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int CH = 32;          /* rows a chunk: a warp's lanes in the rows pass */
constexpr int P = 8;            /* rows pass: pixels a thread */
constexpr int V = 8;            /* columns pass: rows a thread */
constexpr int N = P;            /* the window's outputs, either pass */
static_assert (P == V, "one window function serves both passes");
constexpr int B = 8;            /* radii above MAX_FIXED: taps a block */
constexpr int MAX_FIXED = 15;   /* cudaconvolve's largest side: 31 taps */
/* Radii MAX_FIXED + 1 .. MAX_WIDE: the Gaussian's fixed-point rows without
 * an unsharp step, on tensor cores, on one-channel 8-bit planes
 * (cf_separable_wide_tensor_takes); compiled at multiples of WIDE_STEP,
 * the radius padded up with zero taps. */
constexpr int MAX_WIDE = 32;
constexpr int WIDE_STEP = 4;
constexpr int MAX_TAPS = (2 * CF_SEPARABLE_MAX_RADIUS + 1 + B - 1) / B * B;

struct Args {
  float wx[MAX_TAPS];           /* zeros past the kernel, up to `taps` */
  float wy[MAX_TAPS];
  int r;                        /* both axes' (the larger) */
  int taps;                     /* taps_of (r) */
  int seg;                      /* output rows a block, a multiple of CH */
  float amount, threshold, offset;
  int absolute;
  float max;                    /* the plane's full scale (cf_plane_max) */
  CfBorder border;
  unsigned mask;
  int nf;                       /* filtered channels ... */
  int chan[4];                  /* ... and which */
  /* The vector engine's rows on 8-bit planes (0:
   * floats): 8, row taps that are integers in -128..127, summed exactly
   * by dp4a; 16, the Gaussian's row weights in fixed point by dp2a (wy
   * scaled back by 2^-CF_TAP_FIXED_BITS). tw, tw2: the row's tap words
   * by the byte its leftmost input lies at (cf_tap_words.h), up to 31
   * taps (tw) and 2 MAX_WIDE + 1 (tw2). */
  int tap_bits;
  unsigned tw[4][(3 + 30) / 4 + 1];
  unsigned tw2[4][(3 + 2 * MAX_WIDE) / 2 + 1];
  /* Nonzero: the columns pass on tensor cores (vec::cols_tensor, on the
   * rows' sums as halves h = sum x hscale, which wy then weighs), and on
   * one channel the rows too (vec::rows_tensor, on the integer taps tq:
   * tw's, or tw2's fixed-point weights). */
  int tensor;
  float hscale;
  int tq[2 * MAX_WIDE + 1];
};

/* Taps a pass runs: 2 r + 1, or that rounded up to B above MAX_FIXED (and
 * for r = 0, which the blocked kernel takes). */
__host__ __device__ constexpr int
taps_of (int r)
{
  return r >= 1 && r <= MAX_FIXED ? 2 * r + 1 : (2 * r + B) / B * B;
}

__host__ __device__ constexpr int
strip_pixels (int C)
{
  return C == 1 ? 64 : 32;
}

/* Row pitch of the rows pass's buffer: odd, so that a warp of rows hits 32
 * banks. */
__host__ __device__ constexpr int
h_pitch (int C)
{
  return (strip_pixels (C) * C) | 1;
}

/* Shared memory, in floats: the staged chunk (CH rows of w samples, pitch
 * ip, odd), then the rows pass's buffer (hrows rows, pitch h_pitch). */
struct Layout {
  int w, ip, hrows;
  __host__ __device__ constexpr Layout (int C, int taps)
  : w ((strip_pixels (C) + taps - 1) * C), ip (w | 1), hrows (CH + taps - 1)
  {
  }
  __host__ __device__ constexpr int floats (int C) const
  {
    return CH * ip + hrows * h_pitch (C);
  }
};

template < bool ROWS > __device__ __forceinline__ float
tap (const Args & a, int i)
{
  if constexpr (ROWS)
    return a.wx[i];
  else
    return a.wy[i];
}

/* acc[k] = sum over t of tap t x p[(k + t) S]: N outputs of a line of
 * stride S, through a window of registers. */
template < bool ROWS, int R, int S > __device__ __forceinline__ void
slide (const float *p, const Args & a, int taps, float (&acc)[N])
{
#pragma unroll
  for (int k = 0; k < N; k++)
    acc[k] = 0.0f;
  if constexpr (R > 0) {
#pragma unroll
    for (int j = 0; j < N + 2 * R; j++) {
      const float v = p[j * S];
#pragma unroll
      for (int k = 0; k < N; k++)
        if (j - k >= 0 && j - k <= 2 * R)
          acc[k] = fmaf (tap < ROWS > (a, j - k), v, acc[k]);
    }
  } else {
#pragma unroll 1
  for (int t = 0; t < taps; t += B) {
    float x[N + B - 1];
#pragma unroll
    for (int j = 0; j < N + B - 1; j++)
      x[j] = p[(t + j) * S];
#pragma unroll
    for (int i = 0; i < B; i++) {
      const float w = tap < ROWS > (a, t + i);
#pragma unroll
      for (int k = 0; k < N; k++)
        acc[k] = fmaf (w, x[k + i], acc[k]);
    }
  }
  }
}

/* Stages input rows y0 .. y0 + n - 1 of the strip starting at sample s0,
 * with r pixels each side (and the padding of blocked taps). */
template < typename T, int C > __device__ __forceinline__ void
stage (float *in, const Layout & L, const void *src, size_t stride,
    int width, int height, int s0, int y0, int n, int r, const Args & a)
{
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int a0 = s0 - r * C;
  const bool inside = a0 >= 0 && a0 + L.w <= width * C;
  for (int i = warp; i < n; i += WARPS) {
    const T *row = cf_row < T > (src, stride,
        cf_border_index (y0 + i, height, a.border));
    float *d = in + i * L.ip;
    if (inside) {
      for (int j = lane; j < L.w; j += 32)
        d[j] = cf_sample_float (row[a0 + j]);
    } else {
      for (int j = lane; j < L.w; j += 32) {
        const int s = a0 + j;
        const int px = cf_floor_div (s, C);
        d[j] = cf_sample_float (row[cf_border_index (px, width,
                    a.border) * C + s - px * C]);
      }
    }
  }
}

/* The rows pass over the n staged rows (n <= CH) into rows 0 .. n - 1 of
 * `out`. */
template < int C, int R > __device__ __forceinline__ void
rows_compute (const float *in, float *out, const Layout & L, int n, int taps,
    const Args & a)
{
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int units = a.nf * (strip_pixels (C) / P);
  if (lane < n) {
    for (int u = warp; u < units; u += WARPS) {
      const int x = u / a.nf * P * C + a.chan[u % a.nf];
      float acc[N];
      slide < true, R, C > (in + lane * L.ip + x, a, taps, acc);
      float *o = out + lane * h_pitch (C) + x;
#pragma unroll
      for (int k = 0; k < P; k++)
        o[k * C] = acc[k];
    }
  }
}

/* Stage, then the rows pass, over input rows y0 .. y0 + n - 1. */
template < typename T, int C, int R > __device__ __forceinline__ void
rows_pass (float *in, float *out, const Layout & L, const void *src,
    size_t stride, int width, int height, int s0, int y0, int n, int r,
    int taps, const Args & a)
{
  stage < T, C > (in, L, src, stride, width, height, s0, y0, n, r, a);
  __syncthreads ();
  rows_compute < C, R > (in, out, L, n, taps, a);
  __syncthreads ();
}

/* The columns pass: output rows y0 .. y0 + m - 1 (m <= CH) from rows
 * 0 .. m + 2 r - 1 of h; unfiltered channels copied. */
template < typename T, int C, int R > __device__ __forceinline__ void
cols_pass (const float *h, const void *src, size_t sstride, void *dst,
    size_t dstride, int width, int s0, int y0, int m, int taps,
    const Args & a)
{
  constexpr int HP = h_pitch (C);
  constexpr int TS = strip_pixels (C) * C;
  const int samples = width * C;
  const int cols = a.nf * strip_pixels (C);
  for (int it = threadIdx.x; it < cols * (CH / V); it += THREADS) {
    const int ci = it % cols, r0 = it / cols * V;
    const int col = ci / a.nf * C + a.chan[ci % a.nf];
    const int s = s0 + col;
    if (r0 >= m || s >= samples)
      continue;
    float acc[N];
    slide < false, R, HP > (h + r0 * HP + col, a, taps, acc);
#pragma unroll
    for (int o = 0; o < V; o++) {
      if (r0 + o >= m)
        break;
      const int y = y0 + r0 + o;
      float v = acc[o];
      if (a.amount != 0.0f)
        v = cf_gaussian_finish (cf_sample_float (cf_row < T > (src, sstride,
                    y)[s]), v, a.amount, a.threshold);
      v += a.offset;
      if (a.absolute)
        v = fabsf (v);
      cf_row < T > (dst, dstride, y)[s] =
          (T) fminf (cf_round_up_clamped < T > (v), a.max);
    }
  }
  if (a.nf == C)
    return;
  for (int it = threadIdx.x; it < TS * m; it += THREADS) {
    const int col = it % TS, y = y0 + it / TS;
    if (!((a.mask >> (col % C)) & 1u) && s0 + col < samples)
      cf_row < T > (dst, dstride, y)[s0 + col] =
          cf_row < T > (src, sstride, y)[s0 + col];
  }
}

/* The rows pass over the 2 r input rows above the segment's first output
 * row, into the top of h. */
template < typename T, int C, int R > __device__ __forceinline__ void
warm_up (float *in, float *h, const Layout & L, const void *src,
    size_t stride, int width, int height, int s0, int y_begin, int r,
    int taps, const Args & a)
{
  for (int f = 0; f < 2 * r; f += CH)
    rows_pass < T, C, R > (in, h + f * h_pitch (C), L, src, stride, width,
        height, s0, y_begin - r + f, min (CH, 2 * r - f), r, taps, a);
}

/* After a chunk's columns: h's rows CH .. CH + 2 r - 1 to its top, CH rows
 * at a time (no overlap within a step). */
template < int C > __device__ __forceinline__ void
shift (float *h, int r)
{
  constexpr int HP = h_pitch (C);
  __syncthreads ();
  for (int f = 0; f < 2 * r; f += CH) {
    const int n = min (CH, 2 * r - f) * HP;
    for (int i = threadIdx.x; i < n; i += THREADS)
      h[f * HP + i] = h[(f + CH) * HP + i];
    __syncthreads ();
  }
}

/* R > 0: radius R on both axes, known at compile time; R == 0: a.r, taps
 * in blocks of B. */
template < typename T, int C, int R > __global__ void
__launch_bounds__ (THREADS)
separable_kernel (const void *__restrict__ src, size_t sstride,
    void *__restrict__ dst, size_t dstride, int width, int height,
    const Args a)
{
  extern __shared__ float smem[];
  constexpr int HP = h_pitch (C);
  const int r = R ? R : a.r;
  const int taps = R ? 2 * R + 1 : a.taps;
  const Layout L (C, taps);
  float *in = smem;
  float *h = smem + CH * L.ip;
  const int s0 = blockIdx.x * strip_pixels (C) * C;
  const int y_begin = blockIdx.y * a.seg;
  const int y_end = min (height, y_begin + a.seg);

  /* rows only the zero taps of the blocked kernel read */
  for (int i = threadIdx.x; i < (taps - 1 - 2 * r) * HP; i += THREADS)
    h[(2 * r + CH) * HP + i] = 0.0f;
  warm_up < T, C, R > (in, h, L, src, sstride, width, height, s0, y_begin,
      r, taps, a);
  for (int y = y_begin; y < y_end; y += CH) {
    rows_pass < T, C, R > (in, h + 2 * r * HP, L, src, sstride, width,
        height, s0, y + r, CH, r, taps, a);
    cols_pass < T, C, R > (h, src, sstride, dst, dstride, width, s0, y,
        min (CH, y_end - y), taps, a);
    if (y + CH >= y_end)
      break;
    shift < C > (h, r);
  }
}

/* How many blocks of KERNEL the device holds at once, cached per device
 * and shared-memory size: the occupancy query takes longer than the
 * kernel at small radii. */
template < auto KERNEL > cudaError_t
wave_blocks (size_t smem, int *blocks)
{
  static std::atomic < unsigned long long >cache[CF_MAX_DEVICES];
  int dev, sms, per_sm;
  cudaError_t err = cudaGetDevice (&dev);
  if (err != cudaSuccess)
    return err;
  if (dev < CF_MAX_DEVICES) {
    unsigned long long c = cache[dev].load (std::memory_order_acquire);
    if (c && c >> 32 == smem) {
      *blocks = (int) (c & 0xffffffffu);
      return cudaSuccess;
    }
  }
  err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, KERNEL,
        THREADS, smem);
  if (err != cudaSuccess)
    return err;
  *blocks = sms * std::max (per_sm, 1);
  if (dev < CF_MAX_DEVICES)
    cache[dev].store ((unsigned long long) smem << 32 | (unsigned) *blocks,
        std::memory_order_release);
  return cudaSuccess;
}

template < typename T, int C, int R > CfStatus
launch (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  const Layout L (C, a.taps);
  const size_t smem = sizeof (float) * L.floats (C);
  CfStatus st = cf_allow_smem < separable_kernel < T, C, R > > (smem);
  if (st != CF_OK)
    return st;
  int wave;
  cudaError_t err = wave_blocks < separable_kernel < T, C, R > > (smem,
      &wave);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);
  /* One wave: as many segments per strip as the device holds blocks at
   * once, each as tall as that allows (a segment pays 2 r rows of rows
   * pass above its first output row). */
  const int strips = (src->width + strip_pixels (C) - 1) / strip_pixels (C);
  const int chunks = (src->height + CH - 1) / CH;
  const int segs = std::max (1, std::min (chunks, wave / strips));
  const int per = (chunks + segs - 1) / segs;
  a.seg = per * CH;
  dim3 grid (strips, (chunks + per - 1) / per);
  separable_kernel < T, C, R > <<<grid, THREADS, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

/* Fixed radii here on three-channel planes only (the vector engine below
 * takes the others); planes it cannot take (rows not aligned to 4
 * samples) run the blocked taps. */
template < typename T, int C > CfStatus
launch_radius (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  if constexpr (C != 3) {
    a.taps = (2 * a.r + B) / B * B;
    return launch < T, C, 0 > (src, dst, a, stream);
  } else {
    return cf_with_radius < 1, MAX_FIXED > (a.r, [&](auto r) {
          return launch < T, C, decltype (r)::value > (src, dst, a, stream);
        }, [&] {
          return launch < T, C, 0 > (src, dst, a, stream);
        });
  }
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  return cf_with_channels (src->channels, [&](auto c) {
        return launch_radius < T, decltype (c)::value > (src, dst, a, stream);
      });
}

/* ---- The vector engine: radii 1 .. MAX_FIXED on planes of 1, 2 or 4
 * channels whose rows are aligned to 4 samples (launch_vec says when).
 * The same walk down a strip as above, with the work in 16-byte vectors:
 * a strip is SW = 128 samples across (128 pixels of one channel, 64 of two,
 * 32 of four), staged as float from its left edge minus A samples (R C
 * rounded up to 4, so that every vector is aligned in the frame and in
 * shared memory).
 *   - the next chunk's input is loaded into registers (4 samples a load)
 *     while the current chunk is computed, and written to shared memory as
 *     float4 after it: the loads' latency hides behind the passes;
 *   - rows pass: a thread takes one staged row (a warp's lanes are 32
 *     rows; the row pitch is an odd number of vectors) and RM = 16
 *     consecutive samples, read as float4 and fed through
 *     the taps in registers;
 *   - columns pass: a thread takes a float4 column of 4 rows on four
 *     channels, a float2 column of 8 rows on others; it loads the source
 *     rows it needs (the unsharp mask, copied channels) before it uses any,
 *     and stores each row as one 4- or 2-sample word.
 * On 8-bit planes from radius INT_MIN_RADIUS (NV12's chroma and RGBA
 * split into a stream of bytes a channel), rows whose taps
 * are integers (cudaconvolve) or the Gaussian's weights (no unsharp
 * step) run as integer dot products instead (rows_int): the chunk is
 * staged as its samples' words, and each output adds a word's four bytes
 * (dp4a) or two (dp2a, 15-bit fixed-point weights) a instruction against
 * tap words prepared for the byte its leftmost input lies at
 * (cf_tap_words.h); the columns pass runs on floats as before.
 * Channels outside FM (a compile-time mask: RGB of RGBA) are not computed:
 * the rows pass leaves their centre sample in its buffer, and the columns
 * pass copies it; channels in FM but outside the run-time mask are copied
 * from the source. */
namespace vec {

/* Blocks a multiprocessor holds (the register cap). At radius 15 shared
 * memory allows 4 on one channel and 3 on others with float rows, 5 on two
 * and four channels with integer rows (the chunk staged as words), where 4
 * measured fastest (RGBA 31 + 31: 0.191 ms against 0.202 at 3; at 5 the
 * kernel spills 248 bytes; the tensor-core variants, which have integer
 * rows, spill 480-660 bytes at 5). The wide kernels past radius 16 (a
 * halo of more than one chunk) spill at 4 and at 3 (64-80 bytes; H200, 4K
 * GRAY8 radius 24: 0.055 ms at 3, 0.040 at 2, 128 registers, no spill).
 * CF_SEP_MINB* override them for measurements. */
#ifndef CF_SEP_MINB1
#define CF_SEP_MINB1 4
#endif
#ifndef CF_SEP_MINB4
#define CF_SEP_MINB4 3
#endif
#ifndef CF_SEP_MINB_INT
#define CF_SEP_MINB_INT 4
#endif
#ifndef CF_SEP_MINB_WIDE
#define CF_SEP_MINB_WIDE 2
#endif
constexpr int SW = 128;         /* strip samples */
/* The tensor-core columns' output tile (CH rows of SW bytes, in the staging
 * area): a row 16 bytes past a multiple of 128, so that a warp's 2-byte
 * stores to 8 rows fall on distinct banks. */
constexpr int TILE_PITCH = SW + 16;

template < int C, int R, int TAPS > __host__ __device__ constexpr int
min_blocks ()
{
  return 2 * R > CH ? CF_SEP_MINB_WIDE : C == 1 ? CF_SEP_MINB1 : TAPS ?
      CF_SEP_MINB_INT : CF_SEP_MINB4;
}

/* Columns pass: a thread's samples across (a float2 or float4 column of
 * the buffer) and rows down; a thread for every column and row group. */
template < int C > __host__ __device__ constexpr int
cols_w ()
{
  return C == 4 ? 4 : 2;
}

template < int C > __host__ __device__ constexpr int
cols_v ()
{
  return CH * (SW / cols_w < C > ()) / THREADS;
}

static_assert (cols_v < 1 > () * THREADS == CH * (SW / cols_w < 1 > ())
    && cols_v < 4 > () * THREADS == CH * (SW / cols_w < 4 > ()),
    "a columns-pass thread for every column and row group of a chunk");

/* Rows pass: a thread's outputs (consecutive samples of one row). 8 on
 * one- and two-channel planes measured level on 8 bits and 5% slower on
 * GRAY16 at radius 15 (H100). */
constexpr int RM = 16;

/* Integer rows from this radius (a 7x7 kernel): the smaller ones run on
 * the small-mask kernel or the tile kernel. */
constexpr int INT_MIN_RADIUS = 3;

/* The tensor-core rows pass (rows_tensor): warp w's outputs are samples
 * 16 w .. 16 w + 15 of the strip, whose inputs start at staged byte
 * 16 w + OFF, in 32-byte tiles from this one; how many tiles a warp takes
 * (the most any needs) and the diagonals d = 4 kt - nt of the tiles
 * (kt, nt) met. */
__host__ __device__ constexpr int
first_row_tile (int w, int off)
{
  return (16 * w + off) / 32;
}

__host__ __device__ constexpr int
row_tiles (int C, int R, int off)
{
  int n = 0;
  for (int w = 0; w < WARPS; w++) {
    const int k = (16 * w + 15 + off + 2 * R * C) / 32 -
        first_row_tile (w, off) + 1;
    n = k > n ? k : n;
  }
  return n;
}

__host__ __device__ constexpr int
first_diagonal (int off)
{
  int d = 0;
  for (int w = 0; w < WARPS; w++) {
    const int e = 4 * first_row_tile (w, off) - 2 * w - 1;
    d = e < d ? e : d;
  }
  return d;
}

__host__ __device__ constexpr int
last_diagonal (int off, int nkr)
{
  int d = 0;
  for (int w = 0; w < WARPS; w++) {
    const int e = 4 * (first_row_tile (w, off) + nkr - 1) - 2 * w;
    d = e > d ? e : d;
  }
  return d;
}

template < int C, int R > struct Lay {
  static constexpr int A = (R * C + 3) / 4 * 4;  /* left halo staged */
  static constexpr int OFF = A - R * C;
  static constexpr int WIN = SW + 2 * A;        /* staged samples a row */
  static constexpr int NV = WIN / 4;            /* vectors a staged row */
  static constexpr int IP = (NV | 1) * 4;       /* staged row pitch */
  /* integer rows: the chunk staged as its 8-bit samples' words, rows 16
   * bytes apart (4 x an odd number of words: a quarter warp's 16-byte
   * loads of 8 rows hit distinct banks) */
  static constexpr int IPW = ((NV + 3) / 4 | 1) * 4;
  static constexpr int HP = (SW / 4 | 1) * 4;   /* rows-pass buffer pitch */
  static constexpr int HR = CH + 2 * R;
  static constexpr int FLOATS = CH * IP + HR * HP;
  static constexpr int FLOATS_INT = CH * IPW + HR * HP;
  static constexpr int PER = (CH * NV + THREADS - 1) / THREADS;
  /* tensor-core columns: the rows-pass buffer as halves, rows 16 bytes
   * past a multiple of 128 (a ldmatrix's 8 rows on distinct banks), KT
   * whole 16-row tiles (zeros past HR); ND distinct tiles of column
   * weights */
  static constexpr int HP16 = SW + 8;
  static constexpr int KT = (HR + 15) / 16;
  static constexpr int ND = KT - 1;
  /* tensor-core rows, on one channel only (on four, whose taps lie 4 bytes
   * apart, the products are three quarters zeros: RGBA sigma 5 took 0.141
   * -> 0.255 ms on an H100): a warp's NKR 32-byte tiles of a staged row
   * (from first_row_tile), the diagonals DMIN .. DMAX of the taps' tiles
   * they meet (row_tap_tiles, two tables); the tiles read up to 32 bytes
   * past the staged chunk (zeros, PAD floats) */
  static constexpr bool TENSOR_ROWS = C == 1;
  static constexpr int NKR = row_tiles (C, R, OFF);
  static constexpr int DMIN = first_diagonal (OFF);
  static constexpr int NDR = last_diagonal (OFF, NKR) - DMIN + 1;
  static constexpr int PAD = TENSOR_ROWS ? 8 : 0;
  static constexpr int FLOATS_TC = CH * IPW + PAD + KT * 16 * HP16 / 2 +
      (TENSOR_ROWS ? 2 * NDR * 64 : 0);
  static_assert (!TENSOR_ROWS || 32 * (first_row_tile (WARPS - 1, OFF) +
          NKR) <= 4 * IPW + 4 * PAD, "the rows' tiles stay within the pad");
  static_assert ((SW / RM) % WARPS == 0, "rows units a warp");
};

/* W samples of T as one load or store. */
template < int BYTES > struct Bits;
template <> struct Bits <2 > {
  using type = unsigned short;
};
template <> struct Bits <4 > {
  using type = unsigned;
};
template <> struct Bits <8 > {
  using type = uint2;
};

template < typename T, int W > struct Raw {
  static constexpr int BYTES = W * (int) sizeof (T);
  static constexpr int SB = 8 * (int) sizeof (T);
  static constexpr unsigned MASK = (1u << SB) - 1;
  using type = typename Bits < BYTES >::type;
  static __device__ __forceinline__ unsigned sample (type v, int i)
  {
    if constexpr (BYTES == 8)
      return ((i * SB < 32 ? v.x : v.y) >> (i * SB % 32)) & MASK;
    else
      return ((unsigned) v >> (i * SB)) & MASK;
  }
  /* cf_sample_float (sample (v, i)) with one byte permute building
   * 0x4B000000 | sample in place of a shift, a mask and an or. */
  static __device__ __forceinline__ float sample_float (type v, int i)
  {
    unsigned w;
    if constexpr (BYTES == 8)
      w = i * SB < 32 ? v.x : v.y;
    else
      w = (unsigned) v;
    const int b = i * SB % 32 / 8;      /* the sample's first byte */
    const unsigned sel = SB == 8 ? b | 0x7440u : b | (b + 1) << 4 | 0x7400u;
    return __uint_as_float (__byte_perm (w, 0x4B000000u, sel)) - 8388608.0f;
  }
  static __device__ __forceinline__ type pack (const unsigned (&s)[W])
  {
    if constexpr (BYTES == 8) {
      uint2 r = make_uint2 (0, 0);
#pragma unroll
      for (int i = 0; i < W; i++)
        (i * SB < 32 ? r.x : r.y) |= s[i] << (i * SB % 32);
      return r;
    } else {
      unsigned r = 0;
#pragma unroll
      for (int i = 0; i < W; i++)
        r |= s[i] << (i * SB);
      return (type) r;
    }
  }
};

/* 4 samples from sample s of a row, through the border mode where they
 * leave it: the vector across the row's end where it does not end on a
 * vector. Out of line: inlined at every load it made the kernel larger. */
template < typename T, int C > __device__ __noinline__ typename Raw < T, 4 >::type
gather (const T * row, int s, int width, CfBorder border)
{
  unsigned v[4];
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int px = cf_floor_div (s + i, C);
    v[i] = row[cf_border_index (px, width, border) * C + s + i - px * C];
  }
  return Raw < T, 4 >::pack (v);
}

/* Whether a strip's staged window lies inside its rows. */
template < int C, int R > __device__ __forceinline__ bool
window_inside (int s0, int width)
{
  using L = Lay < C, R >;
  return s0 - L::A >= 0 && s0 - L::A + L::WIN <= width * C;
}

/* The staged vectors of a chunk that lie wholly outside the row (a strip
 * at the plane's left or right edge; Ahead::load left them 0; a vector
 * across the row's end came through gather), each sample set to the
 * staged sample the border mode maps it to: the window holds at least the
 * row's first or last R + 1 pixels, so that sample is staged too and lies
 * in a vector no thread writes here. Only the vectors the row's outputs
 * read are set (the left halo, R C samples past the row's end), a vector
 * (a word of 8-bit samples, a float4 of floats) a thread. Shared memory
 * only, where loading those vectors sample by sample through the border
 * mode made these strips the slowest of the kernel (1.3x the others at
 * GRAY8 sigma 5, 1.2x at RGBA sigma 5 with all their loads in flight).
 * The caller synchronises after it. */
template < int C, int R, bool INT > __device__ __forceinline__ void
fix_edges (float *in, int width, int s0, CfBorder border)
{
  using L = Lay < C, R >;
  const int a0 = s0 - L::A, samples = width * C;
  const int left = max (0, -a0) / 4;    /* vectors [0, left) */
  const int first = (samples - a0 + 3) / 4;     /* and [first, last) */
  const int last = min (L::NV, (samples - a0 + R * C + 3) / 4);
  const int n = left + max (0, last - first);
  for (int e = threadIdx.x; e < CH * n; e += THREADS) {
    const int i = e / n, k = e % n;
    const int u = k < left ? k : first + k - left;
    float v[4] = { };
#pragma unroll
    for (int q = 0; q < 4; q++) {
      const int j = 4 * u + q, px = cf_floor_div (a0 + j, C);
      const int from = cf_border_index (px, width, border) * C + j - px * C;
      if (a0 + j >= samples + R * C)
        continue;               /* read by no output of the row */
      if constexpr (INT)
        v[q] = ((const unsigned char *) (in + i * L::IPW))[from];
      else
        v[q] = in[i * L::IP + from];
    }
    if constexpr (INT)
      ((unsigned *) in)[i * L::IPW + u] = (unsigned) v[0] |
          (unsigned) v[1] << 8 | (unsigned) v[2] << 16 | (unsigned) v[3] << 24;
    else
      *(float4 *) (in + i * L::IP + 4 * u) = make_float4 (v[0], v[1], v[2],
          v[3]);
  }
}

/* A chunk of input (CH rows of the strip's WIN samples) in registers. */
template < typename T, int C, int R > struct Ahead {
  using L = Lay < C, R >;
  using V = typename Raw < T, 4 >::type;
  V v[L::PER];

  __device__ __forceinline__ void
  load (const void *src, size_t stride, int width, int height, int s0,
      int y0, CfBorder border)
  {
    const int a0 = s0 - L::A, samples = width * C;
    const bool inside = window_inside < C, R > (s0, width);
#pragma unroll
    for (int k = 0; k < L::PER; k++) {
      const int e = threadIdx.x + k * THREADS;
      if (e < CH * L::NV) {
        const int i = e / L::NV, s = a0 + 4 * (e % L::NV);
        const T *row = cf_row < T > (src, stride,
            cf_border_index_near (y0 + i, height, border));
        /* outside the row: 0 here, set by fix_edges once staged */
        v[k] = inside || (s >= 0 && s + 4 <= samples) ?
            *(const V *) (row + s) : s + 4 <= 0 || s >= samples ? V { } :
            gather < T, C > (row, s, width, border);
      }
    }
  }

  /* INT: the words as they are (8-bit samples, integer rows) */
  template < bool INT > __device__ __forceinline__ void
  store (float *in) const
  {
#pragma unroll
    for (int k = 0; k < L::PER; k++) {
      const int e = threadIdx.x + k * THREADS;
      if (e >= CH * L::NV)
        continue;
      if constexpr (INT)
        ((unsigned *) in)[e / L::NV * L::IPW + e % L::NV] = v[k];
      else
        *(float4 *) (in + e / L::NV * L::IP + 4 * (e % L::NV)) =
            make_float4 (Raw < T, 4 >::sample_float (v[k], 0),
            Raw < T, 4 >::sample_float (v[k], 1),
            Raw < T, 4 >::sample_float (v[k], 2),
            Raw < T, 4 >::sample_float (v[k], 3));
    }
  }
};

/* A rows-pass unit's RM outputs into the rows-pass buffer, as float4. */
__device__ __forceinline__ void
store_unit (float *o, const float (&acc)[RM])
{
#pragma unroll
  for (int q = 0; q < RM / 4; q++)
    *(float4 *) (o + 4 * q) = make_float4 (acc[4 * q], acc[4 * q + 1],
        acc[4 * q + 2], acc[4 * q + 3]);
}

/* The same as halves (the tensor-core columns' buffer), 16 bytes a store. */
__device__ __forceinline__ void
store_unit_half (__half * o, const float (&acc)[RM])
{
#pragma unroll
  for (int q = 0; q < RM / 8; q++)
    *(uint4 *) (o + 8 * q) = make_uint4 (cf_half2_bits (acc[8 * q],
            acc[8 * q + 1]), cf_half2_bits (acc[8 * q + 2], acc[8 * q + 3]),
        cf_half2_bits (acc[8 * q + 4], acc[8 * q + 5]),
        cf_half2_bits (acc[8 * q + 6], acc[8 * q + 7]));
}

/* The rows pass over the CH staged rows into rows 0 .. CH - 1 of `out`;
 * channels outside FM store their centre sample. */
template < int C, int R, int FM > __device__ __forceinline__ void
rows (const float *in, float *out, const Args & a)
{
  using L = Lay < C, R >;
  constexpr int M = RM;
  constexpr int NL = (L::OFF + M + 2 * R * C + 3) / 4;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int u = warp; u < SW / M; u += WARPS) {
    const float *p = in + lane * L::IP + u * M;
    float acc[M];
#pragma unroll
    for (int m = 0; m < M; m++)
      acc[m] = 0.0f;
#pragma unroll
    for (int q = 0; q < NL; q++) {
      const float4 f = *(const float4 *) (p + 4 * q);
      const float x[4] = { f.x, f.y, f.z, f.w };
#pragma unroll
      for (int e = 0; e < 4; e++)
#pragma unroll
        for (int m = 0; m < M; m++) {
          const int d = 4 * q + e - L::OFF - m;
          if (!((FM >> (m % C)) & 1)) {
            if (d == R * C)
              acc[m] = x[e];
          } else if (d >= 0 && d % C == 0 && d / C <= 2 * R) {
            acc[m] = fmaf (a.wx[d / C], x[e], acc[m]);
          }
        }
    }
    store_unit (out + lane * L::HP + u * M, acc);
  }
}

/* A run of NW words of C-channel 8-bit samples as a stream of words a
 * channel: st[c][q] holds channel c's samples 4q .. 4q + 3 (zeros past
 * the run). Four channels: a 4x4 byte transpose, 8 byte permutes. */
template < int C, int NW, int NS > __device__ __forceinline__ void
channel_streams (const unsigned (&w)[NW], unsigned (&st)[C][NS])
{
  auto word =[&](int i) {
    return i < NW ? w[i] : 0u;
  };
#pragma unroll
  for (int q = 0; q < NS; q++) {
    if constexpr (C == 1) {
      st[0][q] = w[q];
    } else if constexpr (C == 2) {
      st[0][q] = __byte_perm (word (2 * q), word (2 * q + 1), 0x6420u);
      st[1][q] = __byte_perm (word (2 * q), word (2 * q + 1), 0x7531u);
    } else {
      const unsigned lo01 = __byte_perm (word (4 * q), word (4 * q + 1),
          0x5140u), hi01 = __byte_perm (word (4 * q), word (4 * q + 1),
          0x7362u), lo23 = __byte_perm (word (4 * q + 2), word (4 * q + 3),
          0x5140u), hi23 = __byte_perm (word (4 * q + 2), word (4 * q + 3),
          0x7362u);
      st[0][q] = __byte_perm (lo01, lo23, 0x5410u);
      st[1][q] = __byte_perm (lo01, lo23, 0x7632u);
      st[2][q] = __byte_perm (hi01, hi23, 0x5410u);
      st[3][q] = __byte_perm (hi01, hi23, 0x7632u);
    }
  }
}

/* An integer row sum as float, without a conversion instruction (a
 * quarter-rate one): the sum added to the bits of a float whose unit is
 * 1. dp4a's signed sums stay within 31 * 255 * 128 < 2^22, dp2a's
 * unsigned ones below 255 * 2^15 * (1 + 31 * 2^-16) < 2^23. */
template < int TAPS > __device__ __forceinline__ float
row_sum_float (int sum)
{
  constexpr float BIAS = TAPS == 8 ? 12582912.0f : 8388608.0f;
  return __int_as_float (__float_as_int (BIAS) + sum) - BIAS;
}

/* The rows pass on words of 8-bit samples (1, 2 or 4 channels): the
 * unit's staged words as a stream of bytes a channel, then each output a
 * sum of dot products of the stream words holding its 2R + 1 inputs with
 * the tap words for the byte its leftmost input lies at (TAPS 8: dp4a,
 * 16: dp2a; Args), stored as float, or (TC) as half of the sum x hscale.
 * Channels outside FM store their centre sample instead. */
template < int C, int R, int FM, int TAPS, bool TC >
__device__ __forceinline__ void
rows_int (const float *in, float *out, const Args & a)
{
  using L = Lay < C, R >;
  constexpr int M = RM;
  constexpr int NW = (L::OFF + M - 1 + 2 * R * C) / 4 + 1;
  constexpr int NS = (NW + C - 1) / C;  /* words a channel's stream */
  static_assert (C != 3 && L::OFF % C == 0,
      "a channel's samples at C-byte steps");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int u = warp; u < SW / M; u += WARPS) {
    const uint4 *p = (const uint4 *) in + (lane * L::IPW + u * (M / 4)) / 4;
    static_assert (SW / M * (M / 4) + (NW + 3) / 4 * 4 <= L::IPW + M / 4,
        "a unit's 16-byte loads stay within its staged row");
    unsigned w[NW], st[C][NS];
#pragma unroll
    for (int q = 0; q < (NW + 3) / 4; q++) {
      const uint4 v = p[q];
      const unsigned x[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
      for (int e = 0; e < 4; e++)
        if (4 * q + e < NW)
          w[4 * q + e] = x[e];
    }
    channel_streams < C > (w, st);
    float acc[M];
#pragma unroll
    for (int m = 0; m < M; m++) {
      const int b0 = L::OFF / C + m / C, al = b0 % 4, base = b0 / 4;
      const unsigned *sw = st[m % C] + base;
      if (!((FM >> (m % C)) & 1)) {
        /* the centre sample, which the columns pass copies */
        const int b = al + R;
        acc[m] = Raw < unsigned char, 4 >::sample_float (sw[b / 4], b % 4);
        continue;
      }
      int sum = 0;
      if constexpr (TAPS == 8) {
#pragma unroll
        for (int g = 0; g <= (al + 2 * R) / 4; g++)
          sum = cf_dot4 (sw[g], a.tw[al][g], sum);
      } else {
#pragma unroll
        for (int q = al / 2; q <= (al + 2 * R) / 2; q++)
          sum = q % 2 ? cf_dot2 < 1 > (a.tw2[al][q], sw[q / 2], sum) :
              cf_dot2 < 0 > (a.tw2[al][q], sw[q / 2], sum);
      }
      acc[m] = row_sum_float < TAPS > (sum);
      if constexpr (TC)
        acc[m] *= a.hscale;
    }
    if constexpr (TC)
      store_unit_half ((__half *) out + lane * L::HP16 + u * M, acc);
    else
      store_unit (out + lane * L::HP + u * M, acc);
  }
}

/* A float in [0, 2^23) truncated to an integer without a float-to-int
 * conversion: added to 2^23 toward zero, the mantissa's bits. */
__device__ __forceinline__ unsigned
truncate_bits (float v)
{
  return __float_as_uint (__fadd_rz (v, 8388608.0f)) & 0x7FFFFFu;
}

/* An output sample as T: finished, rounded half up, clamped. SHARPEN:
 * amount is not 0 (the unsharp mask). */
template < bool SHARPEN > __device__ __forceinline__ unsigned
finish (float v, float in, const Args & a)
{
  if constexpr (SHARPEN)
    v = cf_gaussian_finish (in, v, a.amount, a.threshold);
  v += a.offset;
  if (a.absolute)
    v = fabsf (v);
  return truncate_bits (fminf (fmaxf (v + 0.5f, 0.0f), a.max));
}

/* The columns pass: output rows y0 .. y0 + m - 1 from rows
 * 0 .. m + 2 R - 1 of h. Channels outside FM copy the centre sample that
 * the rows pass left in h; channels in FM but outside the run-time mask
 * (and the unsharp mask) read the source. */
template < typename T, int C, int R, int FM, bool SHARPEN >
__device__ __forceinline__ void
cols (const float *h, const void *src, size_t sstride, void *dst,
    size_t dstride, int width, int s0, int y0, int m, const Args & a)
{
  using L = Lay < C, R >;
  constexpr int W = cols_w < C > (), VV = cols_v < C > (), G = SW / W;
  using V = typename Raw < T, W >::type;
  const int g = threadIdx.x % G, r0 = threadIdx.x / G * VV;
  const int s = s0 + W * g, samples = width * C;
  if (r0 >= m || s >= samples)
    return;
  float acc[VV][W];
#pragma unroll
  for (int o = 0; o < VV; o++)
#pragma unroll
    for (int e = 0; e < W; e++)
      acc[o][e] = 0.0f;
  const float *p = h + r0 * L::HP + W * g;
#pragma unroll
  for (int j = 0; j < VV + 2 * R; j++) {
    float x[W];
    if constexpr (W == 4) {
      const float4 f = *(const float4 *) (p + j * L::HP);
      x[0] = f.x;
      x[1] = f.y;
      x[2] = f.z;
      x[3] = f.w;
    } else {
      const float2 f = *(const float2 *) (p + j * L::HP);
      x[0] = f.x;
      x[1] = f.y;
    }
#pragma unroll
    for (int o = 0; o < VV; o++)
      if (j - o >= 0 && j - o <= 2 * R)
#pragma unroll
        for (int e = 0; e < W; e++)
          if ((FM >> (e % C)) & 1)
            acc[o][e] = fmaf (a.wy[j - o], x[e], acc[o][e]);
          else if (j - o == R)
            acc[o][e] = x[e];   /* the centre sample (rows_any) */
  }
  const bool full = s + W <= samples;
  const bool need_src = SHARPEN || (a.mask & FM) != FM;
  const T *srow = cf_row < T > (src, sstride, y0 + r0) + s;
  T *drow = cf_row < T > (dst, dstride, y0 + r0) + s;
  /* every row's source samples are loaded before the first is used, so
   * that their latencies overlap */
  V in[VV];
#pragma unroll
  for (int o = 0; o < VV; o++) {
    unsigned u[W] = { };
    in[o] = Raw < T, W >::pack (u);
    if (need_src && r0 + o < m) {
      const T *sr = (const T *) ((const unsigned char *) srow + o * sstride);
      if (full) {
        in[o] = *(const V *) sr;
      } else {
#pragma unroll
        for (int e = 0; e < W; e++)
          if (s + e < samples)
            u[e] = sr[e];
        in[o] = Raw < T, W >::pack (u);
      }
    }
  }
#pragma unroll
  for (int o = 0; o < VV; o++) {
    if (r0 + o >= m)
      break;
    unsigned out[W];
#pragma unroll
    for (int e = 0; e < W; e++) {
      const unsigned i = Raw < T, W >::sample (in[o], e);
      if (!((FM >> (e % C)) & 1))
        out[e] = truncate_bits (acc[o][e]);
      else
        out[e] = ((a.mask >> (e % C)) & 1) ?
            finish < SHARPEN > (acc[o][e], cf_sample_float (i), a) : i;
    }
    if (full) {
      *(V *) drow = Raw < T, W >::pack (out);
    } else {
#pragma unroll
      for (int e = 0; e < W; e++)
        if (s + e < samples)
          drow[e] = (T) out[e];
    }
    drow = (T *) ((unsigned char *) drow + dstride);
  }
}

/* h's rows CH .. CH + 2 R - 1 to its top (TC: a buffer of halves), CH
 * rows at a time where 2 R > CH: each piece's rows are read before the
 * next piece overwrites them. */
template < int C, int R, bool TC > __device__ __forceinline__ void
shift (float *h)
{
  using L = Lay < C, R >;
  constexpr int ROW = TC ? L::HP16 / 2 : L::HP;        /* floats a row */
#pragma unroll
  for (int r0 = 0; r0 < 2 * R; r0 += CH) {
    const int n4 = min (CH, 2 * R - r0) * (ROW / 4);
    float4 *to = (float4 *) (h + r0 * ROW);
    for (int i = threadIdx.x; i < n4; i += THREADS)
      to[i] = to[i + CH * ROW / 4];
    if (r0 + CH < 2 * R)
      __syncthreads ();
  }
}

/* The row taps' 32 x 8 tiles for rows_tensor, by diagonal: output sample n
 * of a staged row is the sum over its bytes k of byte k x W[k][n], W[k][n]
 * = tap (k - n - OFF) / C where that is a whole tap index in 0 .. 2 R (0
 * elsewhere), so the tile of rows 32 kt and columns 8 nt depends only on d
 * = 4 kt - nt. For each d and lane (g, t), mma's B fragment: bytes
 * W[32 kt + 4 t + q][8 nt + g], q = 0 .. 3 (b0), and 16 rows further (b1).
 * TAPS 8: the signed integer taps; 16: the fixed-point weights' high 8
 * bits, then (a second table) their low 7. */
template < int C, int R, int TAPS > __device__ __forceinline__ void
row_tap_tiles (const Args & a, unsigned *tiles)
{
  using L = Lay < C, R >;
  for (int i = threadIdx.x; i < L::NDR * 32; i += THREADS) {
    const int d = L::DMIN + i / 32, g = i % 32 / 4, t = i % 4;
    unsigned w[2][2] = { };
    for (int p = 0; p < 2; p++)
      for (int q = 0; q < 4; q++) {
        const int e = 8 * d + 16 * p + 4 * t + q - g - L::OFF;
        if (e < 0 || e % C != 0 || e / C > 2 * R)
          continue;
        const int tap = a.tq[e / C];
        if constexpr (TAPS == 8) {
          w[0][p] |= ((unsigned) tap & 0xFFu) << 8 * q;
        } else {
          w[0][p] |= (unsigned) (tap >> 7) << 8 * q;
          w[1][p] |= (unsigned) (tap & 0x7F) << 8 * q;
        }
      }
    ((uint2 *) tiles)[i] = make_uint2 (w[0][0], w[0][1]);
    if constexpr (TAPS == 16)
      ((uint2 *) tiles)[L::NDR * 32 + i] = make_uint2 (w[1][0], w[1][1]);
  }
}

/* The rows pass on tensor cores: a warp takes 16 samples across and the
 * chunk's CH rows, the staged bytes (unsigned) times the row taps' tiles
 * (row_tap_tiles) by m16n8k32 integer products: the signed taps in one
 * pass (TAPS 8), the fixed-point weights' high and low bits in two (TAPS
 * 16: the first pass's sums shifted by 7 before the second), so the sums
 * equal rows_int's. They leave as halves of sum x hscale for cols_tensor;
 * channels outside FM as their centre sample. */
template < int C, int R, int FM, int TAPS > __device__ __forceinline__ void
rows_tensor (const float *in, float *out, const Args & a,
    const unsigned *tiles)
{
  using L = Lay < C, R >;
  constexpr int PITCH = 4 * L::IPW;     /* bytes a staged row */
  static_assert (CH == 32, "two 16-row tiles a chunk");
  const unsigned char *bytes = (const unsigned char *) in;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int kt0 = first_row_tile (warp, L::OFF);
  const unsigned a_addr = (unsigned) __cvta_generic_to_shared (bytes +
      (lane % 16) * PITCH + 32 * kt0 + lane / 16 * 16);
  int acc[2][2][4] = { };
#pragma unroll
  for (int part = 0; part < (TAPS == 16 ? 2 : 1); part++) {
    if (part)
#pragma unroll
      for (int i = 0; i < 16; i++)
        (&acc[0][0][0])[i] <<= 7;
    const uint2 *tile = (const uint2 *) tiles + part * L::NDR * 32 + lane;
#pragma unroll
    for (int i = 0; i < L::NKR; i++) {
      unsigned a0[4], a1[4];
      cf_ldmatrix_x4 < false > (a0, a_addr + 32 * i);
      cf_ldmatrix_x4 < false > (a1, a_addr + 32 * i + 16 * PITCH);
#pragma unroll
      for (int nt = 0; nt < 2; nt++) {
        const uint2 b = tile[(4 * (kt0 + i) - 2 * warp - nt - L::DMIN) * 32];
        cf_mma_16832_u8 < TAPS == 8 > (acc[0][nt], a0, b.x, b.y);
        cf_mma_16832_u8 < TAPS == 8 > (acc[1][nt], a1, b.x, b.y);
      }
    }
  }
  __half *h = (__half *) out;
#pragma unroll
  for (int mt = 0; mt < 2; mt++)
#pragma unroll
    for (int nt = 0; nt < 2; nt++)
#pragma unroll
      for (int half = 0; half < 2; half++) {
        const int row = 16 * mt + g + 8 * half;
        const int n = 16 * warp + 8 * nt + 2 * t;
        float v[2];
#pragma unroll
        for (int e = 0; e < 2; e++)
          v[e] = (FM >> ((n + e) % C)) & 1 ?
              row_sum_float < TAPS > (acc[mt][nt][2 * half + e]) * a.hscale :
              (float) bytes[row * PITCH + L::OFF + n + e + R * C];
        *(unsigned *) (h + row * L::HP16 + n) = cf_half2_bits (v[0], v[1]);
      }
}

/* The rows pass of a chunk: on floats, on words (TAPS, rows_int), or on
 * tensor cores (TC on one channel). */
template < int C, int R, int FM, int TAPS, bool TC >
__device__ __forceinline__ void
rows_any (const float *in, float *out, const Args & a, const unsigned *tiles)
{
  if constexpr (TC && Lay < C, R >::TENSOR_ROWS)
    rows_tensor < C, R, FM, TAPS > (in, out, a, tiles);
  else if constexpr (TAPS != 0)
    rows_int < C, R, FM, TAPS, TC > (in, out, a);
  else
    rows < C, R, FM > (in, out, a);
}

/* The tensor-core columns pass's weights: output row o of a chunk is
 * sum over j of wy[j - o] h[j], a band of the CH x 16 KT matrix whose
 * 16 x 16 tiles depend only on their diagonal offset D (tile rows 16 m,
 * columns 16 (m + D)); this thread's A fragments of tiles D = 0 .. ND - 1. */
template < int C, int R > __device__ __forceinline__ void
column_weights (const Args & a, unsigned (&w)[Lay < C, R >::ND][4])
{
  const int g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
  auto tap =[&](int D, int r, int c) {
    const int k = 16 * D + c - r;
    return k >= 0 && k <= 2 * R ? a.wy[k] : 0.0f;
  };
#pragma unroll
  for (int D = 0; D < Lay < C, R >::ND; D++)
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int r = g + 8 * (i % 2), c = 2 * t + 8 * (i / 2);
      w[D][i] = cf_half2_bits (tap (D, r, c), tap (D, r, c + 1));
    }
}

/* The columns pass on tensor cores (8-bit planes, no unsharp step): a warp
 * takes 16 samples across and the chunk's CH output rows, two 16 x 8 tiles
 * of each of the CH / 16 row tiles, summing over the KT row tiles of h
 * (halves) that their band meets; each output finished (offset, absolute,
 * rounded, clamped) into the byte tile `out` (CH rows, TILE_PITCH).
 * Channels outside FM copy the centre sample the rows pass left in h. */
template < int C, int R, int FM > __device__ __forceinline__ void
cols_tensor (const float *hf, unsigned char *out, const Args & a,
    const unsigned (&w)[Lay < C, R >::ND][4])
{
  using L = Lay < C, R >;
  constexpr int MT = CH / 16;
  static_assert (SW == 16 * WARPS, "16 samples across a warp");
  const __half *h = (const __half *) hf;
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int n0 = 16 * (threadIdx.x / 32);
  const unsigned b_addr = (unsigned) __cvta_generic_to_shared (h +
      (lane % 16) * L::HP16 + n0 + lane / 16 * 8);
  float acc[MT][2][4] = { };
#pragma unroll
  for (int kt = 0; kt < L::KT; kt++) {
    unsigned b[4];
    cf_ldmatrix_x4 < true > (b, b_addr + kt * 16 * L::HP16 * sizeof (__half));
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
      if (kt - mt >= 0 && kt - mt < L::ND) {
        cf_mma_16816 (acc[mt][0], w[kt - mt], b[0], b[1]);
        cf_mma_16816 (acc[mt][1], w[kt - mt], b[2], b[3]);
      }
  }
#pragma unroll
  for (int mt = 0; mt < MT; mt++)
#pragma unroll
    for (int nt = 0; nt < 2; nt++)
#pragma unroll
      for (int half = 0; half < 2; half++) {
        const int row = 16 * mt + g + 8 * half, n = n0 + 8 * nt + 2 * t;
        unsigned v[2];
#pragma unroll
        for (int e = 0; e < 2; e++)
          v[e] = (FM >> ((n + e) % C)) & 1 ?
              finish < false > (acc[mt][nt][2 * half + e], 0.0f, a) :
              truncate_bits (__half2float (h[(row + R) * L::HP16 + n + e]));
        *(unsigned short *) (out + row * TILE_PITCH + n) =
            (unsigned short) (v[0] | v[1] << 8);
      }
}

/* The output tile to rows y0 .. y0 + m - 1 of dst, 16 bytes a thread
 * (words where the row is not 16-byte aligned, bytes past the last whole
 * word of a row); the bytes in `keep` (a word's mask of the channels
 * copied at run time) from the source. */
template < int C > __device__ __forceinline__ void
store_tile (const unsigned char *tile, const void *src, size_t sstride,
    void *dst, size_t dstride, int width, int s0, int y0, int m,
    unsigned keep)
{
  constexpr int Q = SW / 16;    /* threads a row */
  static_assert (CH * Q == THREADS, "a thread for every 16 bytes");
  const int row = threadIdx.x / Q, s = s0 + 16 * (threadIdx.x % Q);
  const int samples = C * width;
  if (row >= m || s >= samples)
    return;
  const uint4 v = *(const uint4 *) (tile + row * TILE_PITCH + s - s0);
  unsigned wd[4] = { v.x, v.y, v.z, v.w };
  unsigned char *d = cf_row < unsigned char >(dst, dstride, y0 + row) + s;
  const unsigned char *sr = cf_row < unsigned char >(src, sstride,
      y0 + row) + s;
  if (s + 16 <= samples) {
    if (keep)
#pragma unroll
      for (int i = 0; i < 4; i++)
        wd[i] = (wd[i] & ~keep) | (((const unsigned *) sr)[i] & keep);
    if ((uintptr_t) d % 16 == 0)
      *(uint4 *) d = make_uint4 (wd[0], wd[1], wd[2], wd[3]);
    else
#pragma unroll
      for (int i = 0; i < 4; i++)
        ((unsigned *) d)[i] = wd[i];
    return;
  }
  for (int b = 0; s + b < samples; b++) {
    const unsigned byte = (keep >> 8 * (b % 4)) & 1 ? sr[b] :
        wd[b / 4] >> 8 * (b % 4) & 0xFFu;
    d[b] = (unsigned char) byte;
  }
}

template < typename T, int C, int R, int FM, int TAPS, bool TC >
__global__ void
__launch_bounds__ (THREADS, min_blocks < C, R, TAPS > ())
kernel (const void *__restrict__ src, size_t sstride,
    void *__restrict__ dst, size_t dstride, int width, int height,
    const Args a)
{
  using L = Lay < C, R >;
  constexpr bool INT = TAPS != 0;
  static_assert (!TC || (INT && sizeof (T) == 1),
      "tensor-core columns: 8-bit planes, integer rows");
  static_assert (CH * TILE_PITCH <= CH * L::IPW * 4,
      "the output tile fits the staging area");
  extern __shared__ float4 smem4[];
  float *in = (float *) smem4;
  float *h = in + CH * (INT ? L::IPW : L::IP) + (TC ? L::PAD : 0);
  /* TC on one channel: the row taps' tiles */
  unsigned *tiles = (unsigned *) (h + L::KT * 16 * L::HP16 / 2);
  /* h's row i, a row of halves with TC */
  auto hrow =[&](int i) {
    return TC ? (float *) ((__half *) h + i * L::HP16) : h + i * L::HP;
  };
  [[maybe_unused]] unsigned w[TC ? L::ND : 1][4];
  [[maybe_unused]] unsigned keep = 0;   /* TC: a pixel's bytes from src */
  if constexpr (TC) {
    column_weights < C, R > (a, w);
    if constexpr (L::TENSOR_ROWS) {
      row_tap_tiles < C, R, TAPS > (a, tiles);
      if (threadIdx.x < L::PAD)
        h[threadIdx.x - L::PAD] = 0.0f;
    }
    for (int b = 0; b < 4; b++)
      if (((FM & ~a.mask) >> (b % C)) & 1)
        keep |= 0xFFu << 8 * b;
    /* the rows past HR that the last row tile reads: zeros */
    constexpr int Z = (16 * L::KT - L::HR) * L::HP16 / 8;
    for (int i = threadIdx.x; i < Z; i += THREADS)
      ((uint4 *) hrow (L::HR))[i] = make_uint4 (0, 0, 0, 0);
  }
  const int s0 = blockIdx.x * SW;
  const int y_begin = blockIdx.y * a.seg;
  const int y_end = min (height, y_begin + a.seg);
  Ahead < T, C, R > next;

  const bool inside = window_inside < C, R > (s0, width);
  auto stage =[&] {
    next.template store < INT > (in);
    __syncthreads ();
    if (!inside) {
      fix_edges < C, R, INT > (in, width, s0, a.border);
      __syncthreads ();
    }
  };

  /* h row i holds input row y_begin - R + i: the 2 R rows above the first
   * output row first, a chunk at a time (the last one running into rows
   * that the loop's first chunk computes again) */
  constexpr int LEAD = (2 * R + CH - 1) / CH;
  next.load (src, sstride, width, height, s0, y_begin - R, a.border);
#pragma unroll 1
  for (int i = 0; i < LEAD; i++) {
    stage ();
    next.load (src, sstride, width, height, s0, i + 1 < LEAD ?
        y_begin - R + (i + 1) * CH : y_begin + R, a.border);
    rows_any < C, R, FM, TAPS, TC > (in, hrow (i * CH), a, tiles);
    __syncthreads ();
  }
  for (int y = y_begin;; y += CH) {
    stage ();
    if (y + CH < y_end)
      next.load (src, sstride, width, height, s0, y + CH + R, a.border);
    rows_any < C, R, FM, TAPS, TC > (in, hrow (2 * R), a, tiles);
    __syncthreads ();
    if constexpr (TC) {
      /* the output tile in the staging area, which the rows pass is done
       * with until the next stage () */
      cols_tensor < C, R, FM > (h, (unsigned char *) in, a, w);
      __syncthreads ();
      store_tile < C > ((const unsigned char *) in, src, sstride, dst,
          dstride, width, s0, y, min (CH, y_end - y), keep);
    } else if (a.amount != 0.0f)
      cols < T, C, R, FM, true > (h, src, sstride, dst, dstride, width, s0,
          y, min (CH, y_end - y), a);
    else
      cols < T, C, R, FM, false > (h, src, sstride, dst, dstride, width, s0,
          y, min (CH, y_end - y), a);
    if (y + CH >= y_end)
      break;
    __syncthreads ();
    shift < C, R, TC > (h);
  }
}

template < typename T, int C, int R, int FM, int TAPS = 0, bool TC = false >
CfStatus
launch (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  constexpr auto K = kernel < T, C, R, FM, TAPS, TC >;
  using L = Lay < C, R >;
  const size_t smem = sizeof (float) * (TC ? L::FLOATS_TC : TAPS ?
      L::FLOATS_INT : L::FLOATS);
  CfStatus st = cf_allow_smem < K > (smem);
  if (st != CF_OK)
    return st;
  int wave;
  cudaError_t err = wave_blocks < K > (smem, &wave);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);
  const int strips = (src->width * C + SW - 1) / SW;
  const int chunks = (src->height + CH - 1) / CH;
  const int segs = std::max (1, std::min (chunks, wave / strips));
  const int per = (chunks + segs - 1) / segs;
  a.seg = per * CH;
  dim3 grid (strips, (chunks + per - 1) / per);
  K <<< grid, THREADS, smem, stream >>> (src->data, src->stride, dst->data,
      dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T, int C, int FM, int TAPS = 0, bool TC = false >
CfStatus
launch_radius (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  if constexpr (TC && TAPS == 16 && C == 1)
    if (a.r > MAX_FIXED)
      return cf_with_radius < MAX_FIXED / WIDE_STEP + 1,
          MAX_WIDE / WIDE_STEP > (a.r / WIDE_STEP, [&](auto q) {
            return launch < T, C, WIDE_STEP * decltype (q)::value, FM, TAPS,
                TC > (src, dst, a, stream);
          }, [] {
            return CF_ERROR_INVALID;
          });
  return cf_with_radius < TAPS ? INT_MIN_RADIUS : 1, MAX_FIXED > (a.r,
      [&](auto r) {
        return launch < T, C, decltype (r)::value, FM, TAPS, TC > (src, dst,
            a, stream);
      }, [] {
        return CF_ERROR_INVALID;
      });
}

/* Whether the planes' rows are aligned to 4 samples (the vector engine's
 * loads and stores). */
template < typename T > bool
aligned (const CfPlane * src, const CfPlane * dst)
{
  const size_t v = 4 * sizeof (T);
  return (uintptr_t) src->data % v == 0 && src->stride % v == 0
      && (uintptr_t) dst->data % v == 0 && dst->stride % v == 0;
}

/* Whether the vector engine takes this filter: a fixed radius, 1, 2 or 4
 * channels, rows aligned to 4 samples. */
template < typename T > bool
takes (const CfPlane * src, const CfPlane * dst, int r)
{
  return r >= 1 && r <= MAX_FIXED && src->channels != 3
      && aligned < T > (src, dst);
}

/* The rows as integer dot products where Args has tap words for them
 * (8-bit planes), floats elsewhere; the columns on tensor cores where Args
 * says so (8-bit planes). */
template < typename T, int C, int FM > CfStatus
launch_taps (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  if constexpr (sizeof (T) == 1) {
    if (a.tensor)
      return a.tap_bits == 8 ?
          launch_radius < T, C, FM, 8, true > (src, dst, a, stream) :
          launch_radius < T, C, FM, 16, true > (src, dst, a, stream);
    if (a.tap_bits == 8)
      return launch_radius < T, C, FM, 8 > (src, dst, a, stream);
    if (a.tap_bits == 16)
      return launch_radius < T, C, FM, 16 > (src, dst, a, stream);
  }
  return launch_radius < T, C, FM > (src, dst, a, stream);
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch_taps < T, 1, 1 > (src, dst, a, stream);
    case 2:
      return launch_taps < T, 2, 3 > (src, dst, a, stream);
    default:
      return (a.mask & 15u) == 7u ?
          launch_taps < T, 4, 7 > (src, dst, a, stream) :
          launch_taps < T, 4, 15 > (src, dst, a, stream);
  }
}

}                               /* namespace vec */

/* The vector engine's rows as integer dot products where the row allows:
 * taps that are integers in -128..127, or (`fixed`, the Gaussian's
 * weights, nonnegative and summing to 1) 15-bit fixed point, the column
 * taps scaled back. Each fixed-point weight is off by at most 2^-16, a
 * row sum by at most 31 * 2^-16 * 255 = 0.12 of an 8-bit level. */
void
integer_rows (Args * a, int fixed)
{
  const int n = 2 * a->r + 1;
  int taps[2 * MAX_WIDE + 1];
  /* integer taps: cudaconvolve's, up to 31 (tw) */
  bool integer = n <= 2 * MAX_FIXED + 1;
  for (int k = 0; k < n; k++) {
    integer = integer && cf_tap_is_byte (a->wx[k]);
    taps[k] = integer ? (int) a->wx[k] : 0;
  }
  if (integer) {
    a->tap_bits = 8;
    cf_tap_words8 (taps, n, &a->tw[0][0], sizeof a->tw[0] / sizeof a->tw[0][0]);
    for (int k = 0; k < n; k++)
      a->tq[k] = taps[k];
  } else if (fixed) {
    a->tap_bits = 16;
    cf_tap_words16 (a->wx, n, &a->tw2[0][0],
        sizeof a->tw2[0] / sizeof a->tw2[0][0]);
    for (int k = 0; k < n; k++) {
      a->wy[k] = ldexpf (a->wy[k], -CF_TAP_FIXED_BITS);
      a->tq[k] = (int) lrint (ldexp (a->wx[k], CF_TAP_FIXED_BITS));
    }
  }
}

/* The current device's compute capability (its major number; 0 if it
 * cannot be asked; the runtime caches the attribute, as cf_smem_optin
 * relies on). */
int
device_major ()
{
  int dev, major = 0;
  if (cudaGetDevice (&dev) != cudaSuccess
      || cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor,
          dev) != cudaSuccess)
    return 0;
  return major;
}

/* The passes on tensor cores (vec::cols_tensor; vec::rows_tensor on one
 * channel) where the rows run as integers on an 8-bit plane (rows_tensor:
 * the same sums as rows_int; a fixed-point weight below 1, its high bits a
 * byte), there is no unsharp step, and the kernel's gain (its absolute
 * taps' sums multiplied) is at most 1, so that h = row sum x hscale lies
 * within [-255.2, 255.2]: its halves are off by at most 0.0625 and each
 * column weight as a half by 2^-11 of itself, which moves an output by at
 * most 0.19 of a level (with the fixed-point rows' 0.12: within the
 * engine's 1 LSB). Ampere and later. */
void
tensor_cores (Args * a, const CfSeparable * s)
{
  double gx = 0.0, gy = 0.0;
  for (int k = 0; k <= 2 * s->rx; k++)
    gx += fabs (s->row[k]);
  for (int k = 0; k <= 2 * s->ry; k++)
    gy += fabs (s->col[k]);
  if (a->tap_bits == 0 || a->amount != 0.0f || gx * gy > 1.0 + 1e-4
      || gx == 0.0 || device_major () < 8)
    return;
  if (a->tap_bits == 16)
    for (int k = 0; k <= 2 * a->r; k++)
      if (a->tq[k] >= 1 << CF_TAP_FIXED_BITS)
        return;
  /* fixed-point rows: their sums are 2^CF_TAP_FIXED_BITS times the
   * weights' (and wy was scaled down by as much); integer rows: gx times */
  a->hscale = a->tap_bits == 16 ? ldexpf (1.0f, -CF_TAP_FIXED_BITS) :
      (float) (1.0 / gx);
  for (int k = 0; k <= 2 * a->r; k++)
    a->wy[k] /= a->hscale;
  a->tensor = 1;
}

/* The kernels' arguments at radius r (the axes' larger radius, or that
 * padded up with zero taps); on the vector engine (`vector`) the integer
 * rows and the tensor cores where the filter allows them. */
void
prepare (Args * a, const CfPlane * src, const CfPlane * dst,
    const CfSeparable * s, int r, bool vector)
{
  *a = Args { };
  a->r = r;
  a->taps = taps_of (r);
  for (int d = -s->rx; d <= s->rx; d++)
    a->wx[r + d] = s->row[s->rx + d];
  for (int d = -s->ry; d <= s->ry; d++)
    a->wy[r + d] = s->col[s->ry + d];
  a->amount = s->amount;
  a->threshold = s->threshold;
  a->offset = s->offset;
  a->absolute = s->absolute;
  a->max = (float) cf_plane_max (dst);
  a->border = s->border;
  a->mask = s->channel_mask;
  for (int c = 0; c < src->channels; c++)
    if ((s->channel_mask >> c) & 1u)
      a->chan[a->nf++] = c;
  if (src->depth == 8 && r >= vec::INT_MIN_RADIUS && vector) {
    integer_rows (a, s->fixed_rows);
    tensor_cores (a, s);
  }
}

/* What this thread's cf_separable calls ran (cf_separable_passes_run). */
thread_local unsigned passes_run;

/* The radius a wide tensor-core kernel runs r at. */
int
wide_radius (int r)
{
  return (r + WIDE_STEP - 1) / WIDE_STEP * WIDE_STEP;
}

/* The vector engine's shared memory, in floats. */
int
vec_floats (int C, int r)
{
  const int a = (r * C + 3) / 4 * 4, nv = (vec::SW + 2 * a) / 4;
  return CH * (nv | 1) * 4 + (CH + 2 * r) * (vec::SW / 4 | 1) * 4;
}

}                               /* namespace */

extern "C" int
cf_separable_fits (int rx, int ry, int channels)
{
  const int r = std::max (rx, ry);
  size_t optin;
  if (rx < 0 || ry < 0 || r > CF_SEPARABLE_MAX_RADIUS || channels < 1
      || channels > 4)
    return 0;
  if (cf_smem_optin (&optin) != CF_OK)
    return 0;
  /* the blocked taps where the vector engine cannot take the plane */
  const int taps = channels == 3 ? taps_of (r) : (2 * r + B) / B * B;
  size_t need = sizeof (float) * Layout (channels, taps).floats (channels);
  if (r >= 1 && channels != 3 && (r <= MAX_FIXED || (r <= MAX_WIDE
              && channels == 1)))
    need = std::max (need, sizeof (float) * vec_floats (channels,
            r <= MAX_FIXED ? r : wide_radius (r)));
  return need <= optin;
}

extern "C" int
cf_separable_vector_takes (const CfPlane * src, const CfPlane * dst, int r)
{
  return src->depth > 8 ? vec::takes < unsigned short > (src, dst, r) :
      vec::takes < unsigned char > (src, dst, r);
}

extern "C" int
cf_separable_wide_tensor_takes (const CfPlane * src, const CfPlane * dst,
    int r)
{
  return r > MAX_FIXED && r <= MAX_WIDE && src->depth == 8
      && src->channels == 1 && vec::aligned < unsigned char > (src, dst)
      && device_major () >= 8;
}

extern "C" CfStatus
cf_separable (const CfPlane * src, const CfPlane * dst,
    const CfSeparable * s, void *stream)
{
  if (!cf_separable_fits (s->rx, s->ry, src->channels))
    return CF_ERROR_INVALID;
  const int r = std::max (s->rx, s->ry);
  Args a;
  bool vector = false;
  if (s->fixed_rows && s->amount == 0.0f
      && cf_separable_wide_tensor_takes (src, dst, r)) {
    prepare (&a, src, dst, s, wide_radius (r), true);
    vector = a.tensor != 0;     /* else the blocked taps, below */
  }
  if (!vector) {
    vector = cf_separable_vector_takes (src, dst, r);
    prepare (&a, src, dst, s, r, vector);
  }
  if (a.tensor)
    passes_run |= CF_SEPARABLE_TENSOR;
  cudaStream_t st = (cudaStream_t) stream;
  if (src->depth > 8)
    return vector ? vec::launch_channels < unsigned short > (src, dst, a, st) :
        launch_channels < unsigned short > (src, dst, a, st);
  return vector ? vec::launch_channels < unsigned char > (src, dst, a, st) :
      launch_channels < unsigned char > (src, dst, a, st);
}

extern "C" unsigned
cf_separable_passes_run (void)
{
  const unsigned run = passes_run;
  passes_run = 0;
  return run;
}

extern "C" int
cf_separable_tensor_capable (void)
{
  return device_major () >= 8;
}
