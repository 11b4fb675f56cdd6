/* The Gaussian's window path on the GPU (gaussian_paths.h): rows into a
 * float scratch frame, then columns into dst. One thread slides one segment
 * of one line: for rows, the threads of a warp take 32 consecutive rows
 * (staged through shared memory); for columns, 32 consecutive samples of a
 * row (coalesced as they are). */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int THREADS = 128;
constexpr int WARP = 32;
constexpr int WARPS = THREADS / WARP;

struct State {
  float box, re[CF_GW_TERMS], im[CF_GW_TERMS];
};

__device__ __forceinline__ void
slide (State & s, const CfGaussWindow & g, float fin, float fout)
{
  s.box += fin - fout;
#pragma unroll
  for (int k = 0; k < CF_GW_TERMS; k++) {
    float ure = s.re[k] + fin * g.in_re[k] - fout * g.out_re[k];
    float uim = s.im[k] + fin * g.in_im[k] - fout * g.out_im[k];
    s.re[k] = g.rot_re[k] * ure - g.rot_im[k] * uim;
    s.im[k] = g.rot_re[k] * uim + g.rot_im[k] * ure;
  }
}

/* Segment [x0, x1) of a line of n samples: read (i) is sample i (already
 * border-mapped by the caller's index), put (x, v) takes the result. */
template < typename Read, typename Put > __device__ __forceinline__ void
segment (const CfGaussWindow & g, int n, CfBorder border, int x0, int x1,
    Read read, Put put)
{
  const int r = g.radius;
  State s = { };
#pragma unroll 4
  for (int x = x0 - 2 * r - 1; x < x0; x++)
    slide (s, g, read (cf_border_index (x + r + 1, n, border)), 0.0f);
#pragma unroll 4
  for (int x = x0; x < x1; x++) {
    float v = g.a0 * s.box;
#pragma unroll
    for (int k = 0; k < CF_GW_TERMS; k++)
      v += g.a[k] * s.re[k];
    put (x, v);
    if (x + 1 < x1)
      slide (s, g, read (cf_border_index (x + r + 1, n, border)),
          read (cf_border_index (x - r, n, border)));
  }
}

/* Loads samples [x, x + 32) of 32 rows from y0 (border-mapped; rows past
 * the plane repeat its last) into tile[row][sample]: one row per load, the
 * warp's lanes along it. */
template < typename T > __device__ __forceinline__ void
load_tile (float (*tile)[WARP + 1], const void *src, size_t stride, int y0,
    int width, int height, int channels, int c, CfBorder border, int x,
    int lane)
{
  const int i = cf_border_index (x + lane, width, border) * channels + c;
#pragma unroll 8
  for (int k = 0; k < WARP; k++)
    tile[k][lane] = (float) __ldg (cf_row < T > (src, stride,
            min (y0 + k, height - 1)) + i);
}

/* Rows: each warp slides 32 rows (a lane each) through one segment, 32
 * samples at a time: the samples entering and leaving the window are
 * staged in shared memory with coalesced loads along the rows, and the
 * results leave the same way. blockIdx.y = segment; blockIdx.z = channel. */
template < typename T > __global__ void
__launch_bounds__ (THREADS)
gw_rows (const void *__restrict__ src, size_t stride, float *__restrict__ tmp,
    int width, int height, int channels, unsigned mask, CfBorder border,
    const CfGaussWindow g)
{
  __shared__ float tiles[WARPS][2][WARP][WARP + 1];
  const int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  const int c = blockIdx.z;
  const int y0 = (blockIdx.x * WARPS + warp) * WARP;
  if (y0 >= height || !((mask >> c) & 1u))
    return;
  float (*enter)[WARP + 1] = tiles[warp][0];
  float (*leave)[WARP + 1] = tiles[warp][1];
  const int r = g.radius, seg = cf_gw_segment (r);
  const int x0 = blockIdx.y * seg, x1 = min (x0 + seg, width);
  const size_t samples = (size_t) width * channels;
  State s = { };

  for (int xc = x0 - 2 * r - 1; xc < x0; xc += WARP) {
    const int n = min (WARP, x0 - xc);
    load_tile < T > (enter, src, stride, y0, width, height, channels, c,
        border, xc + r + 1, lane);
    __syncwarp ();
    for (int k = 0; k < n; k++)
      slide (s, g, enter[lane][k], 0.0f);
    __syncwarp ();
  }
  for (int xc = x0; xc < x1; xc += WARP) {
    const int n = min (WARP, x1 - xc);
    load_tile < T > (enter, src, stride, y0, width, height, channels, c,
        border, xc + r + 1, lane);
    load_tile < T > (leave, src, stride, y0, width, height, channels, c,
        border, xc - r, lane);
    __syncwarp ();
    for (int k = 0; k < n; k++) {
      float v = g.a0 * s.box;
#pragma unroll
      for (int t = 0; t < CF_GW_TERMS; t++)
        v += g.a[t] * s.re[t];
      const float fin = enter[lane][k], fout = leave[lane][k];
      leave[lane][k] = v;
      if (xc + k + 1 < x1)
        slide (s, g, fin, fout);
    }
    __syncwarp ();
    if (lane < n)
      for (int k = 0; k < WARP && y0 + k < height; k++)
        tmp[(size_t) (y0 + k) * samples + (size_t) (xc + lane) * channels +
            c] = leave[k][lane];
    __syncwarp ();
  }
}

/* Columns: thread = sample of a row; blockIdx.y = segment. */
template < typename T > __global__ void
__launch_bounds__ (THREADS)
gw_columns (const float *__restrict__ tmp, const void *__restrict__ src,
    size_t src_stride, void *__restrict__ dst, size_t dst_stride, int width,
    int height, int channels, unsigned mask, CfBorder border, float amount,
    float threshold, float max, const CfGaussWindow g)
{
  const int samples = width * channels;
  const int s = blockIdx.x * THREADS + threadIdx.x;
  if (s >= samples)
    return;
  const int seg = cf_gw_segment (g.radius);
  const int y0 = blockIdx.y * seg;
  const int y1 = min (y0 + seg, height);
  if (!((mask >> (s % channels)) & 1u)) {
    for (int y = y0; y < y1; y++)
      cf_row < T > (dst, dst_stride, y)[s] =
          cf_row < T > (src, src_stride, y)[s];
    return;
  }
  const float *col = tmp + s;
  segment (g, height, border, y0, y1,
      [&](int i) { return __ldg (col + (size_t) i * samples); },
      [&](int y, float v) {
        float in = (float) cf_row < T > (src, src_stride, y)[s];
        cf_row < T > (dst, dst_stride, y)[s] = (T) fminf (
            cf_round_up_clamped < T > (cf_gaussian_finish (in, v, amount,
                    threshold)), max);
      });
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, float *tmp,
    const CfGaussianParams * p, cudaStream_t stream)
{
  CfGaussWindow gx, gy;
  const int w = src->width, h = src->height, c = src->channels;
  const float max = (float) cf_plane_max (dst);
  cf_gw_plan (p->sigma_x, p->radius_x, &gx);
  cf_gw_plan (p->sigma_y, p->radius_y, &gy);

  dim3 rows ((h + THREADS - 1) / THREADS,  /* a row per thread */
      (w + cf_gw_segment (gx.radius) - 1) / cf_gw_segment (gx.radius), c);
  gw_rows < T > <<<rows, THREADS, 0, stream>>> (src->data, src->stride, tmp,
      w, h, c, p->channel_mask, p->border, gx);
  dim3 cols ((w * c + THREADS - 1) / THREADS,
      (h + cf_gw_segment (gy.radius) - 1) / cf_gw_segment (gy.radius));
  gw_columns < T > <<<cols, THREADS, 0, stream>>> (tmp, src->data,
      src->stride, dst->data, dst->stride, w, h, c, p->channel_mask,
      p->border, (float) p->sharpen, (float) (p->threshold * max), max, gy);
  return cf_launch_status ();
}

}                               /* namespace */

extern "C" CfStatus
cf_gw_blur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  if (!exec->scratch)
    return CF_ERROR_INVALID;
  CfStatus st = cf_scratch_reserve (exec->scratch,
      sizeof (float) * src->width * src->channels * src->height);
  if (st != CF_OK)
    return st;
  float *tmp = (float *) exec->scratch->data;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch < unsigned short > (src, dst, tmp, p, stream) :
      launch < unsigned char > (src, dst, tmp, p, stream);
}
