/* The Gaussian's one-pass tile kernel for radii up to
 * CF_GAUSSIAN_TILE_MAX_RADIUS: each block filters the rows of its tile plus
 * a vertical halo into shared memory (horizontal pass), then the columns out
 * of shared memory (vertical pass), so the frame is read once and written
 * once (plus the halos, mostly from L2).
 *
 * Threads work on quads: 4 consecutive samples of a row, whatever the
 * channel count, so loads and stores are 4 samples wide where the plane is
 * aligned, and a shared-memory value feeds several taps. Input rows are
 * staged as float, so each sample is converted once. Radii 1 to 8 (the same
 * on both axes) are compiled with the radius known, fully unrolled. At these
 * radii it is faster than the separable engine (separable.cu), whose strips
 * pay off from radius 9 (docs/cudagaussianblur.md). */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_border_near.cuh"
#include "cf_dispatch.cuh"

namespace {

constexpr int THREADS = 256;
constexpr int QUAD = 4;
constexpr int TILE_SAMPLES = 64;        /* shared-memory row width, in samples */
constexpr int TILE_QUADS = TILE_SAMPLES / QUAD;
constexpr int TILE_ROWS = 64;
constexpr int CHUNK_ROWS = THREADS / TILE_QUADS;       /* rows per barrier */
constexpr int V_ROWS = TILE_ROWS / CHUNK_ROWS;  /* output rows per thread */
constexpr int MAX_FIXED_RADIUS = 8;

struct GaussArgs {
  float wx[CF_GAUSSIAN_TILE_MAX_RADIUS + 1];
  float wy[CF_GAUSSIAN_TILE_MAX_RADIUS + 1];
  int rx, ry;
  float amount;                 /* unsharp mask (cf_gaussian_finish) */
  float threshold;
  float max;                    /* the plane's full scale (cf_plane_max) */
  CfBorder border;
  unsigned mask;
  int aligned;                  /* planes allow quad-wide loads and stores */
};

/* Pixels across a tile: a whole number of quads (64, 32, 20, 16). */
template < int C > __host__ __device__ constexpr int
tile_pixels ()
{
  return C == 3 ? 20 : TILE_SAMPLES / C;
}

/* Staged row: the tile's samples plus rx pixels each side, plus up to 3
 * samples in front so that quad loads start aligned; a whole number of
 * quads, so every staged row is 16-byte aligned. */
__host__ __device__ inline int
staged_row_floats (int rx, int channels)
{
  return (TILE_SAMPLES + 2 * rx * channels + 2 * QUAD + QUAD - 1) & ~(QUAD - 1);
}

inline size_t
smem_bytes (int rx, int ry, int channels)
{
  return sizeof (float) * (CHUNK_ROWS * staged_row_floats (rx, channels) +
      TILE_SAMPLES * (TILE_ROWS + 2 * ry));
}

template < typename T > struct Quad;
template <> struct Quad <unsigned char> {
  typedef uchar4 type;
};
template <> struct Quad <unsigned short> {
  typedef ushort4 type;
};

/* Stages samples [a0, a0 + n) of one input row (n a multiple of 4) as
 * float; samples outside the row are read through the border mode. */
template < typename T, int C > __device__ __forceinline__ void
stage_row (float *dst, const T * in, int a0, int n, int lane, int width,
    const GaussArgs & a)
{
  const int row_samples = width * C;
  if (a.aligned && a0 >= 0 && a0 + n <= row_samples) {
    for (int j = lane * QUAD; j < n; j += TILE_QUADS * QUAD) {
      typename Quad < T >::type v =
          *(const typename Quad < T >::type *) (in + a0 + j);
      *(float4 *) (dst + j) = make_float4 (v.x, v.y, v.z, v.w);
    }
    return;
  }
  for (int j = lane; j < n; j += TILE_QUADS) {
    dst[j] = (float) cf_border_sample (in, a0 + j, C, width, a.border);
  }
}

/* R > 0: both radii are R, known at compile time; R == 0: a.rx, a.ry. */
template < typename T, int C, int R > __global__ void
__launch_bounds__ (THREADS)
gaussian_tile (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const GaussArgs a)
{
  constexpr int TILE_S = tile_pixels < C > () * C;
  const int rx = R ? R : a.rx;
  const int ry = R ? R : a.ry;
  extern __shared__ float smem[];
  const int staged = staged_row_floats (rx, C);
  float *chunk = smem;
  float *hrows = smem + CHUNK_ROWS * staged;

  const int tid = threadIdx.x;
  const int lane = tid % TILE_QUADS;    /* quad across the tile */
  const int group = tid / TILE_QUADS;   /* row in a chunk; row group */
  const int s0 = blockIdx.x * TILE_S;   /* first sample of the tile */
  const int y0 = blockIdx.y * TILE_ROWS;
  const int out_rows = min (TILE_ROWS, height - y0);
  const int in_rows = out_rows + 2 * ry;
  /* Staged samples start at a quad boundary at or before s0 - rx C. */
  const int first = s0 - rx * C;
  const int a0 = first & ~(QUAD - 1);
  const int off = first - a0;
  const int n = (off + TILE_S + 2 * rx * C + QUAD - 1) & ~(QUAD - 1);

  /* Every thread runs the same loop count, so the barriers are uniform. */
  for (int base = 0; base < in_rows; base += CHUNK_ROWS) {
    const int r = base + group;
    float *row = chunk + group * staged;
    if (r < in_rows)
      stage_row < T, C > (row, cf_row < T > (src, src_stride,
              cf_border_index (y0 - ry + r, height, a.border)), a0, n, lane,
          width, a);
    __syncthreads ();
    if (r < in_rows) {
      const float *p = row + off + rx * C + lane * QUAD;
      float acc[QUAD];
#pragma unroll
      for (int i = 0; i < QUAD; i++)
        acc[i] = a.wx[0] * p[i];
#pragma unroll
      for (int t = 1; t <= rx; t++) {
        const float w = a.wx[t];
#pragma unroll
        for (int i = 0; i < QUAD; i++)
          acc[i] += w * (p[i - t * C] + p[i + t * C]);
      }
      *(float4 *) (hrows + r * TILE_SAMPLES + lane * QUAD) =
          make_float4 (acc[0], acc[1], acc[2], acc[3]);
    }
    __syncthreads ();
  }

  /* Vertical: thread (quad lane, rows group * V_ROWS ...). */
  const int vr0 = group * V_ROWS;
  const int q = lane * QUAD;            /* first sample of the quad in the tile */
  if (vr0 >= out_rows || q >= TILE_S || s0 + q >= width * C)
    return;
  float acc[V_ROWS][QUAD];
  const float *col = hrows + (vr0 + ry) * TILE_SAMPLES + q;
#pragma unroll
  for (int o = 0; o < V_ROWS; o++) {
    float4 v = *(const float4 *) (col + o * TILE_SAMPLES);
    acc[o][0] = a.wy[0] * v.x;
    acc[o][1] = a.wy[0] * v.y;
    acc[o][2] = a.wy[0] * v.z;
    acc[o][3] = a.wy[0] * v.w;
  }
#pragma unroll
  for (int t = 1; t <= ry; t++) {
    const float w = a.wy[t];
#pragma unroll
    for (int o = 0; o < V_ROWS; o++) {
      float4 up = *(const float4 *) (col + (o - t) * TILE_SAMPLES);
      float4 dn = *(const float4 *) (col + (o + t) * TILE_SAMPLES);
      acc[o][0] += w * (up.x + dn.x);
      acc[o][1] += w * (up.y + dn.y);
      acc[o][2] += w * (up.z + dn.z);
      acc[o][3] += w * (up.w + dn.w);
    }
  }

  const int s = s0 + q;
  const bool whole = a.aligned && q + QUAD <= TILE_S
      && s + QUAD <= width * C;
#pragma unroll
  for (int o = 0; o < V_ROWS; o++) {
    if (vr0 + o >= out_rows)
      break;
    const T *in = cf_row < T > (src, src_stride, y0 + vr0 + o) + s;
    T *out = cf_row < T > (dst, dst_stride, y0 + vr0 + o) + s;
    T res[QUAD];
#pragma unroll
    for (int i = 0; i < QUAD; i++) {
      const bool filtered = (a.mask >> ((q + i) % C)) & 1u;
      const bool valid = whole || (q + i < TILE_S && s + i < width * C);
      if (!valid)
        continue;
      if (!filtered)
        res[i] = in[i];
      else
        res[i] = (T) fminf (cf_round_up_clamped < T > (cf_gaussian_finish (
                    (float) in[i], acc[o][i], a.amount, a.threshold)), a.max);
    }
    if (whole) {
      typename Quad < T >::type v = { res[0], res[1], res[2], res[3] };
      *(typename Quad < T >::type *) out = v;
    } else {
#pragma unroll
      for (int i = 0; i < QUAD; i++)
        if (q + i < TILE_S && s + i < width * C)
          out[i] = res[i];
    }
  }
}

template < typename T, int C, int R > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const GaussArgs & a,
    cudaStream_t stream)
{
  size_t smem = smem_bytes (a.rx, a.ry, C);
  CfStatus st = cf_allow_smem < gaussian_tile < T, C, R > > (smem);
  if (st != CF_OK)
    return st;
  constexpr int TILE_PX = tile_pixels < C > ();
  dim3 grid ((src->width + TILE_PX - 1) / TILE_PX,
      (src->height + TILE_ROWS - 1) / TILE_ROWS);
  gaussian_tile < T, C, R > <<<grid, THREADS, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T, int C > CfStatus
launch_radius (const CfPlane * src, const CfPlane * dst, const GaussArgs & a,
    cudaStream_t stream)
{
  return cf_with_radius < 1, MAX_FIXED_RADIUS > (a.rx == a.ry ? a.rx : 0,
      [&](auto r) {
        return launch < T, C, decltype (r)::value > (src, dst, a, stream);
      }, [&] {
        return launch < T, C, 0 > (src, dst, a, stream);
      });
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const GaussArgs & a, cudaStream_t stream)
{
  return cf_with_channels (src->channels, [&](auto c) {
        return launch_radius < T, decltype (c)::value > (src, dst, a, stream);
      });
}

}                               /* namespace */

extern "C" CfStatus
cf_gaussian_tile (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * p)
{
  /* Quad-wide access needs every row start aligned to a quad of samples. */
  size_t quad_bytes = 4 * (size_t) cf_plane_bytes_per_sample (src);
  int aligned = ((uintptr_t) src->data | (uintptr_t) dst->data | src->stride |
      dst->stride) % quad_bytes == 0;

  GaussArgs a = { };
  a.wx[0] = a.wy[0] = 1.0f;
  if (p->radius_x > 0)
    cf_gaussian_weights (p->sigma_x, p->radius_x, a.wx);
  if (p->radius_y > 0)
    cf_gaussian_weights (p->sigma_y, p->radius_y, a.wy);
  a.rx = p->radius_x;
  a.ry = p->radius_y;
  a.max = (float) cf_plane_max (dst);
  a.amount = (float) p->sharpen;
  a.threshold = (float) (p->threshold * a.max);
  a.border = p->border;
  a.mask = p->channel_mask;
  a.aligned = aligned;

  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, a, stream) :
      launch_channels < unsigned char > (src, dst, a, stream);
}
