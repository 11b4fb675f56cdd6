/* General 2-D convolution. 3x3 and 5x5 kernels take the vector kernel
 * (small_mask.cu) on the planes where it is faster, and so do 7x7 kernels
 * of integer taps on 8-bit planes of 1, 2 or 4 channels; 3x3 and 5x5 take
 * the register path (convolve_small.cu) on other word-aligned rows; separable kernels (given
 * so, or a full kernel of rank 1, see cf_convolve_plan) the separable
 * engine (separable.cu); wide full kernels (from 5 taps across on planes of
 * several channels, 11 on one) the lane path (convolve_lanes.cu); other
 * full kernels run here. Each block stages a
 * tile of the input, plus the kernel's halo, in shared memory as float
 * (samples outside the plane read through the border mode), then every
 * thread sums width x height taps for V output rows of one sample column,
 * each staged value read once per tap. Threads work on samples, whatever
 * the channel count: a tap kx steps kx x channels samples. 3x3 and 5x5 are
 * compiled with their size known (unrolled); other sizes, up to 31x31,
 * loop. Shared memory stays within 64 KB (Turing's limit) at 31x31 with 4
 * channels. */
#include "convolve.h"
#include "convolve_small.cuh"
#include "convolve_lanes.cuh"
#include "small_mask.h"
#include "separable.h"
#include "cf_kernel.cuh"
#include "cf_border_near.cuh"

namespace {

constexpr int TILE_S = 64;      /* samples across a tile: one per thread */
constexpr int ROW_GROUPS = 4;   /* threads down a tile */
constexpr int V = 8;            /* output rows per thread */
constexpr int TILE_ROWS = ROW_GROUPS * V;
constexpr int THREADS = TILE_S * ROW_GROUPS;

struct FullArgs {
  float taps[CF_CONVOLVE_MAX_TAPS];
  int kw, kh;
  float offset;
  int absolute;
  float max;                    /* the plane's full scale (cf_plane_max) */
  CfBorder border;
  unsigned mask;
};

/* Staged tile: rows of the tile plus kh - 1, samples of the tile plus
 * (kw - 1) x channels. */
__host__ __device__ inline int
staged_pitch (int kw, int channels)
{
  return TILE_S + (kw - 1) * channels;
}

inline size_t
smem_bytes (int kw, int kh, int channels)
{
  return sizeof (float) * (TILE_ROWS + kh - 1) * staged_pitch (kw, channels);
}

/* Stages the block's input tile: row r, sample s of `in` is sample
 * s0 - rx C + s of row y0 - ry + r, through the border mode. Tiles whose
 * staged samples all lie inside their rows (all but the left and right
 * edges) read them straight, without dividing by the channel count. */
template < typename T > __device__ void
stage (float *in, const void *src, size_t stride, int width, int height,
    int C, int kw, int kh, CfBorder border)
{
  const int pitch = staged_pitch (kw, C);
  const int rows = TILE_ROWS + kh - 1;
  const int s0 = blockIdx.x * TILE_S - (kw / 2) * C;
  const int y0 = blockIdx.y * TILE_ROWS - kh / 2;
  const bool inside = s0 >= 0 && s0 + pitch <= width * C;
  int r = threadIdx.x / pitch;
  int s = threadIdx.x - r * pitch;
  while (r < rows) {
    const T *row = cf_row < T > (src, stride,
        cf_border_index (y0 + r, height, border));
    const int a = s0 + s;
    if (inside) {
      in[r * pitch + s] = cf_sample_float (row[a]);
    } else {
      in[r * pitch + s] = cf_sample_float (cf_border_sample (row, a, C, width,
              border));
    }
    /* the next sample of this thread: THREADS on, row by row */
    s += THREADS;
    while (s >= pitch) {
      s -= pitch;
      r++;
    }
  }
}

/* Writes the V results of this thread's sample column; channels outside
 * the mask are copied from the input. */
template < typename T > __device__ __forceinline__ void
store (const float *acc, const void *src, size_t src_stride, void *dst,
    size_t dst_stride, int width, int height, int C, float offset,
    int absolute, float max, unsigned mask)
{
  const int s = blockIdx.x * TILE_S + threadIdx.x % TILE_S;
  const int y0 = blockIdx.y * TILE_ROWS + threadIdx.x / TILE_S * V;
  if (s >= width * C)
    return;
  const bool filtered = (mask >> (s % C)) & 1u;
#pragma unroll
  for (int o = 0; o < V; o++) {
    const int y = y0 + o;
    if (y >= height)
      break;
    T *out = cf_row < T > (dst, dst_stride, y) + s;
    if (!filtered) {
      *out = cf_row < T > (src, src_stride, y)[s];
      continue;
    }
    const float v = acc[o] + offset;
    *out = (T) fminf (cf_round_up_clamped < T > (absolute ? fabsf (v) : v),
        max);
  }
}

/* K > 0: a K x K kernel known at compile time; K == 0: a.kw x a.kh. */
template < typename T, int K > __global__ void
__launch_bounds__ (THREADS)
convolve_full (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height, int C,
    const FullArgs a)
{
  extern __shared__ float in[];
  const int kw = K ? K : a.kw;
  const int kh = K ? K : a.kh;
  const int pitch = staged_pitch (kw, C);

  stage < T > (in, src, src_stride, width, height, C, kw, kh, a.border);
  __syncthreads ();

  const int t = threadIdx.x % TILE_S;
  const int r0 = threadIdx.x / TILE_S * V;
  float acc[V] = { };
#pragma unroll (K ? K : 1)
  for (int ky = 0; ky < kh; ky++) {
#pragma unroll (K ? K : 1)
    for (int kx = 0; kx < kw; kx++) {
      const float w = a.taps[ky * kw + kx];
      const float *p = in + (r0 + ky) * pitch + t + kx * C;
#pragma unroll
      for (int o = 0; o < V; o++)
        acc[o] += w * p[o * pitch];
    }
  }
  store < T > (acc, src, src_stride, dst, dst_stride, width, height, C,
      a.offset, a.absolute, a.max, a.mask);
}

dim3
grid_of (const CfPlane * p)
{
  return dim3 ((p->width * p->channels + TILE_S - 1) / TILE_S,
      (p->height + TILE_ROWS - 1) / TILE_ROWS);
}

template < typename T, int K > CfStatus
launch_full (const CfPlane * src, const CfPlane * dst, const FullArgs & a,
    cudaStream_t stream)
{
  size_t smem = smem_bytes (a.kw, a.kh, src->channels);
  CfStatus st = cf_allow_smem < convolve_full < T, K > > (smem);
  if (st != CF_OK)
    return st;
  convolve_full < T, K > <<<grid_of (src), THREADS, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height,
      src->channels, a);
  return cf_launch_status ();
}

template < typename T > CfStatus
run_full (const CfPlane * src, const CfPlane * dst, const CfConvolvePlan & p,
    const CfConvolveParams * params, cudaStream_t stream)
{
  FullArgs a = { };
  for (int i = 0; i < p.width * p.height; i++)
    a.taps[i] = p.taps[i];
  a.kw = p.width;
  a.kh = p.height;
  a.offset = p.offset;
  a.absolute = p.absolute;
  a.max = (float) cf_plane_max (dst);
  a.border = params->border;
  a.mask = params->channel_mask;
  if (a.kw == 3 && a.kh == 3)
    return launch_full < T, 3 > (src, dst, a, stream);
  if (a.kw == 5 && a.kh == 5)
    return launch_full < T, 5 > (src, dst, a, stream);
  return launch_full < T, 0 > (src, dst, a, stream);
}

/* The plan's row and column on the separable engine. */
CfStatus
run_separable (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan & p, const CfConvolveParams * params,
    cudaStream_t stream)
{
  CfSeparable s = { };
  s.rx = p.width / 2;
  s.ry = p.height / 2;
  s.row = p.row;
  s.col = p.col;
  s.offset = p.offset;
  s.absolute = p.absolute;
  s.border = params->border;
  s.channel_mask = params->channel_mask;
  return cf_separable (src, dst, &s, stream);
}

}                               /* namespace */

extern "C" CfStatus
cf_convolve (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfConvolveParams * params)
{
  if (!exec->on_gpu)
    return cf_convolve_ref (src, dst, params);

  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (!exec->stream)
    return CF_ERROR_INVALID;
  CfConvolvePlan plan;
  st = cf_convolve_plan (params, cf_plane_max (dst), &plan);
  if (st != CF_OK)
    return st;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  if (cf_small_mask_convolve_fits (src, dst, &plan, params))
    return cf_small_mask_convolve (src, dst, &plan, params, stream);
  if (cf_convolve_small_fits (src, dst, &plan))
    return cf_convolve_small (src, dst, &plan, params, stream);
  if (plan.separable)
    return run_separable (src, dst, plan, params, stream);
  if (cf_convolve_lanes_takes (src->channels, &plan))
    return cf_convolve_lanes (src, dst, &plan, params, stream);
  return src->depth > 8 ?
      run_full < unsigned short > (src, dst, plan, params, stream) :
      run_full < unsigned char > (src, dst, plan, params, stream);
}
