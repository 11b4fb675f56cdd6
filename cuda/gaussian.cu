/* Separable Gaussian in one pass over the frame: each block filters the rows
 * of its tile plus a vertical halo into shared memory (horizontal pass), then
 * the columns out of shared memory (vertical pass). The intermediate never
 * touches device memory, so the frame is read once and written once; the
 * horizontal halo is re-read through L1. */
#include "gaussian.h"
#include "cf_kernel.cuh"

namespace {

constexpr int TILE_SAMPLES = 64;        /* samples (not pixels) across a tile */
constexpr int TILE_ROWS = 64;
constexpr int BLOCK_ROWS = 4;           /* block: TILE_SAMPLES x BLOCK_ROWS */

struct GaussArgs {
  float wx[CF_GAUSSIAN_MAX_RADIUS + 1];
  float wy[CF_GAUSSIAN_MAX_RADIUS + 1];
  int rx, ry;
  int sharpen;
  CfBorder border;
  unsigned mask;
};

template < typename T > __global__ void
gaussian_tile (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, const GaussArgs a)
{
  extern __shared__ float hrows[];      /* [TILE_ROWS + 2 ry][TILE_SAMPLES] */
  const int tx = threadIdx.x;
  const int s = blockIdx.x * TILE_SAMPLES + tx;
  const int y0 = blockIdx.y * TILE_ROWS;
  const int out_rows = min (TILE_ROWS, height - y0);
  const int in_rows = out_rows + 2 * a.ry;
  const bool inside = s < width * channels;
  const int x = s / channels;
  const int c = s - x * channels;
  const bool filtered = inside && ((a.mask >> c) & 1u);
  const bool x_interior = x - a.rx >= 0 && x + a.rx < width;

  for (int r = threadIdx.y; r < in_rows; r += BLOCK_ROWS) {
    float acc = 0.0f;
    if (filtered) {
      const T *in = cf_row < T > (src, src_stride,
          cf_border_index (y0 - a.ry + r, height, a.border));
      acc = a.wx[0] * in[s];
      if (x_interior) {
        for (int k = 1; k <= a.rx; k++)
          acc += a.wx[k] * ((float) in[s - k * channels] +
              (float) in[s + k * channels]);
      } else {
        for (int k = 1; k <= a.rx; k++) {
          int xl = cf_border_index (x - k, width, a.border);
          int xr = cf_border_index (x + k, width, a.border);
          acc += a.wx[k] * ((float) in[xl * channels + c] +
              (float) in[xr * channels + c]);
        }
      }
    }
    hrows[r * TILE_SAMPLES + tx] = acc;
  }
  __syncthreads ();

  if (!inside)
    return;
  for (int oy = threadIdx.y; oy < out_rows; oy += BLOCK_ROWS) {
    const T *in = cf_row < T > (src, src_stride, y0 + oy);
    T *out = cf_row < T > (dst, dst_stride, y0 + oy);
    if (!filtered) {
      out[s] = in[s];
      continue;
    }
    const float *col = hrows + (oy + a.ry) * TILE_SAMPLES + tx;
    float acc = a.wy[0] * col[0];
    for (int k = 1; k <= a.ry; k++)
      acc += a.wy[k] * (col[-k * TILE_SAMPLES] + col[k * TILE_SAMPLES]);
    if (a.sharpen)
      acc = 2.0f * (float) in[s] - acc;
    out[s] = cf_round_to < T > (acc);
  }
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const GaussArgs & a,
    cudaStream_t stream)
{
  size_t smem = sizeof (float) * TILE_SAMPLES * (TILE_ROWS + 2 * a.ry);
  if (smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (gaussian_tile < T >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (err != cudaSuccess)
      return cf_status_from_cuda (err);
  }
  dim3 block (TILE_SAMPLES, BLOCK_ROWS);
  dim3 grid ((src->width * src->channels + TILE_SAMPLES - 1) / TILE_SAMPLES,
      (src->height + TILE_ROWS - 1) / TILE_ROWS);
  gaussian_tile < T > <<<grid, block, smem, stream>>> (src->data, src->stride,
      dst->data, dst->stride, src->width, src->height, src->channels, a);
  return cf_launch_status ();
}

}                               /* namespace */

extern "C" CfStatus
cf_gaussian_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * p)
{
  if (!exec->on_gpu)
    return cf_gaussian_blur_ref (src, dst, p);

  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (p->radius_x < 0 || p->radius_x > CF_GAUSSIAN_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_GAUSSIAN_MAX_RADIUS
      || !exec->stream)
    return CF_ERROR_INVALID;

  GaussArgs a = { };
  a.wx[0] = a.wy[0] = 1.0f;
  if (p->radius_x > 0)
    cf_gaussian_weights (p->sigma_x, p->radius_x, a.wx);
  if (p->radius_y > 0)
    cf_gaussian_weights (p->sigma_y, p->radius_y, a.wy);
  a.rx = p->radius_x;
  a.ry = p->radius_y;
  a.sharpen = p->sharpen;
  a.border = p->border;
  a.mask = p->channel_mask;

  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ? launch < unsigned short > (src, dst, a, stream) :
      launch < unsigned char > (src, dst, a, stream);
}
