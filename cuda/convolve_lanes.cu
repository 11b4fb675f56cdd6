/* Wide full kernels, a lane per output row: a block stages a tile of the
 * input plus the kernel's halo in shared memory as float, a plane per
 * filtered channel (an odd pitch, so that the 32 lanes of a warp, on 32
 * rows, read 32 banks). Each lane computes U adjacent pixels of one row and
 * channel and slides them along x: at tap kx it loads one staged sample
 * into a window of U registers (slot = pixel mod U, static once the tap
 * loop is unrolled by U) and does U fused multiply-adds with that tap, so
 * one shared load feeds U of them (the tile kernel in convolve.cu does one
 * load per multiply-add). Rows of taps are padded with zeros to a multiple
 * of U. The sums run in the same order as the tile kernel's (taps row by
 * row), so both give the same bits. The results go back through shared
 * memory and leave as whole pixels, the unfiltered channels copied.
 * Measured on an H100 at 4K (bench_convolve, the tile kernel -> this one):
 * RGBA 7x7 0.334 -> 0.248 ms, 15x15 1.058 -> 0.431, 31x31 4.072 -> 1.275;
 * GRAY8 15x15 0.266 -> 0.141, 31x31 1.006 -> 0.432. One-channel planes
 * below 11 taps across stay on the tile kernel, faster there (GRAY8 9x9
 * 0.118 against 0.134 ms in a microbenchmark). */
#include "convolve_lanes.cuh"
#include "cf_kernel.cuh"
#include "cf_dispatch.cuh"
#include "cf_runtime.h"

namespace {

constexpr int ROWS = 32;        /* output rows of a tile: a lane each */
constexpr int MAX_PADDED_SIDE = 32;     /* 31 taps padded to 8 or 16 */

struct LaneArgs {
  float taps[CF_CONVOLVE_MAX_SIDE * MAX_PADDED_SIDE];   /* row ky at ky kwp */
  int kw, kh, kwp;
  float offset;
  int absolute;
  float max;
  CfBorder border;
  unsigned mask;
  int filtered;                 /* channels filtered, in chan[] */
  int chan[4];
};

/* Staged samples across: the tile's px pixels plus kwp - 1. */
__host__ __device__ inline int
staged_width (int px, int kwp)
{
  return px + kwp - 1;
}

__host__ __device__ inline int
staged_pitch (int px, int kwp)
{
  return staged_width (px, kwp) | 1;
}

/* WX groups of U pixels across a tile, a warp each per filtered channel. */
template < typename T, int C, int U, int WX > __global__ void
__launch_bounds__ (32 * WX * C)
convolve_lanes (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const LaneArgs a)
{
  extern __shared__ float sm[];
  constexpr int PX = WX * U;
  const int sw = staged_width (PX, a.kwp), pitch = staged_pitch (PX, a.kwp);
  const int sr = ROWS + a.kh - 1, plane = sr * pitch;
  const int x0 = blockIdx.x * PX, y0 = blockIdx.y * ROWS;
  const int xs0 = x0 - a.kw / 2, ys0 = y0 - a.kh / 2;
  const int tid = threadIdx.x + 32 * threadIdx.y, threads = 32 * blockDim.y;
  const bool inside = xs0 >= 0 && xs0 + sw <= width;

  for (int e = tid; e < sr * sw; e += threads) {
    const int r = e / sw, q = e - r * sw;
    const T *row = cf_row < T > (src, src_stride,
        cf_border_index (ys0 + r, height, a.border));
    const T *p = row + (size_t) (inside ? xs0 + q :
        cf_border_index (xs0 + q, width, a.border)) * C;
#pragma unroll
    for (int f = 0; f < C; f++)
      if (f < a.filtered)
        sm[f * plane + r * pitch + q] = cf_sample_float (p[a.chan[f]]);
  }
  __syncthreads ();

  const int f = threadIdx.y / WX, g = threadIdx.y % WX, lane = threadIdx.x;
  float acc[U];
#pragma unroll
  for (int j = 0; j < U; j++)
    acc[j] = 0.0f;
  const float *row0 = sm + f * plane + lane * pitch + g * U;
#pragma unroll 1
  for (int ky = 0; ky < a.kh; ky++) {
    const float *in = row0 + ky * pitch;
    const int tap0 = ky * a.kwp;
    float win[U];
#pragma unroll
    for (int q = 0; q < U - 1; q++)
      win[q] = in[q];
#pragma unroll 1
    for (int kx0 = 0; kx0 < a.kwp; kx0 += U) {
#pragma unroll
      for (int s = 0; s < U; s++) {
        win[(s + U - 1) % U] = in[kx0 + s + U - 1];
        const float w = a.taps[tap0 + kx0 + s];
#pragma unroll
        for (int j = 0; j < U; j++)
          acc[j] += w * win[(s + j) % U];
      }
    }
  }
  __syncthreads ();

  /* the results, plane f of ROWS x PX, then whole pixels out */
#pragma unroll
  for (int j = 0; j < U; j++) {
    const float v = acc[j] + a.offset;
    sm[f * ROWS * PX + lane * PX + g * U + j] =
        fminf (cf_round_up_clamped < T > (a.absolute ? fabsf (v) : v), a.max);
  }
  __syncthreads ();
  for (int e = tid; e < ROWS * PX; e += threads) {
    const int x = x0 + e % PX, y = y0 + e / PX;
    if (x >= width || y >= height)
      continue;
    const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * C;
    T px[C];
    int k = 0;
#pragma unroll
    for (int c = 0; c < C; c++)
      px[c] = (a.mask >> c) & 1u ? (T) sm[k++ * ROWS * PX + e] : in[c];
    T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * C;
#pragma unroll
    for (int c = 0; c < C; c++)
      out[c] = px[c];
  }
}

template < typename T, int C, int U, int WX > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const LaneArgs & a,
    cudaStream_t stream)
{
  constexpr int PX = WX * U;
  const size_t smem = sizeof (float) * a.filtered * (ROWS + a.kh - 1) *
      staged_pitch (PX, a.kwp);
  CfStatus st = cf_allow_smem < convolve_lanes < T, C, U, WX > > (smem);
  if (st != CF_OK)
    return st;
  const dim3 grid ((src->width + PX - 1) / PX, (src->height + ROWS - 1) /
      ROWS);
  convolve_lanes < T, C, U, WX > <<<grid, dim3 (32, WX * a.filtered), smem,
      stream>>> (src->data, src->stride, dst->data, dst->stride, src->width,
      src->height, a);
  return cf_launch_status ();
}

/* Pixels a lane: 16 from 9 taps across (measured faster there), else 8. */
int
lane_pixels (int kw)
{
  return kw >= 9 ? 16 : 8;
}

/* About 64 pixels across a tile on one channel, 32 on more. */
template < typename T, int C > CfStatus
launch_lanes (const CfPlane * src, const CfPlane * dst, const LaneArgs & a,
    cudaStream_t stream)
{
  if (lane_pixels (a.kw) == 16)
    return launch < T, C, 16, C == 1 ? 4 : 2 > (src, dst, a, stream);
  return launch < T, C, 8, C == 1 ? 8 : 4 > (src, dst, a, stream);
}

}                               /* namespace */

bool
cf_convolve_lanes_takes (int channels, const CfConvolvePlan * plan)
{
  return !plan->separable && plan->width >= (channels == 1 ? 11 : 5);
}

CfStatus
cf_convolve_lanes (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream)
{
  LaneArgs a = { };
  const int u = lane_pixels (plan->width);
  a.kw = plan->width;
  a.kh = plan->height;
  a.kwp = (a.kw + u - 1) / u * u;
  for (int y = 0; y < a.kh; y++)
    for (int x = 0; x < a.kw; x++)
      a.taps[y * a.kwp + x] = plan->taps[y * a.kw + x];
  a.offset = plan->offset;
  a.absolute = plan->absolute;
  a.max = (float) cf_plane_max (dst);
  a.border = params->border;
  a.mask = params->channel_mask & CF_ALL_CHANNELS (src->channels);
  for (int c = 0; c < src->channels; c++)
    if ((a.mask >> c) & 1u)
      a.chan[a.filtered++] = c;
  if (a.filtered == 0)
    return cf_copy_2d_async (dst->data, dst->stride, src->data,
        src->stride, (size_t) src->width * src->channels *
        cf_plane_bytes_per_sample (src), src->height, stream);
  return cf_with_channels (src->channels, [&](auto c) {
        return src->depth > 8 ?
            launch_lanes < unsigned short, decltype (c)::value > (src, dst, a,
            stream) :
            launch_lanes < unsigned char, decltype (c)::value > (src, dst, a,
            stream);
      });
}
