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
 * the larger radius, the shorter one padded with zero taps. */
#include "separable.h"
#include "gaussian_paths.h"     /* cf_gaussian_finish */
#include "cf_kernel.cuh"

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

__device__ __forceinline__ int
floor_div (int a, int b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

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
        const int px = floor_div (s, C);
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

template < typename T, int C > CfStatus
launch_radius (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  switch (a.r) {
#define FIXED(k) case k: return launch < T, C, k > (src, dst, a, stream);
      FIXED (1) FIXED (2) FIXED (3) FIXED (4) FIXED (5) FIXED (6) FIXED (7)
      FIXED (8) FIXED (9) FIXED (10) FIXED (11) FIXED (12) FIXED (13)
      FIXED (14) FIXED (15)
#undef FIXED
    default:
      return launch < T, C, 0 > (src, dst, a, stream);
  }
}
static_assert (MAX_FIXED == 15, "launch_radius lists the fixed radii");

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst, Args & a,
    cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch_radius < T, 1 > (src, dst, a, stream);
    case 2:
      return launch_radius < T, 2 > (src, dst, a, stream);
    case 3:
      return launch_radius < T, 3 > (src, dst, a, stream);
    default:
      return launch_radius < T, 4 > (src, dst, a, stream);
  }
}

}                               /* namespace */

extern "C" int
cf_separable_fits (int rx, int ry, int channels)
{
  const int r = std::max (rx, ry);
  int dev, optin;
  if (rx < 0 || ry < 0 || r > CF_SEPARABLE_MAX_RADIUS || channels < 1
      || channels > 4)
    return 0;
  if (cudaGetDevice (&dev) != cudaSuccess
      || cudaDeviceGetAttribute (&optin,
          cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    return 0;
  return sizeof (float) * Layout (channels, taps_of (r)).floats (channels)
      <= (size_t) optin;
}

extern "C" CfStatus
cf_separable (const CfPlane * src, const CfPlane * dst,
    const CfSeparable * s, void *stream)
{
  if (!cf_separable_fits (s->rx, s->ry, src->channels))
    return CF_ERROR_INVALID;
  Args a = { };
  a.r = std::max (s->rx, s->ry);
  a.taps = taps_of (a.r);
  for (int d = -s->rx; d <= s->rx; d++)
    a.wx[a.r + d] = s->row[s->rx + d];
  for (int d = -s->ry; d <= s->ry; d++)
    a.wy[a.r + d] = s->col[s->ry + d];
  a.amount = s->amount;
  a.threshold = s->threshold;
  a.offset = s->offset;
  a.absolute = s->absolute;
  a.max = (float) cf_plane_max (dst);
  a.border = s->border;
  a.mask = s->channel_mask;
  for (int c = 0; c < src->channels; c++)
    if ((s->channel_mask >> c) & 1u)
      a.chan[a.nf++] = c;
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, a,
      (cudaStream_t) stream) : launch_channels < unsigned char > (src, dst,
      a, (cudaStream_t) stream);
}
