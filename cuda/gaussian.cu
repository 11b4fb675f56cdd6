/* Separable Gaussian in one pass over the frame: each block filters the rows
 * of its tile plus a vertical halo into shared memory (horizontal pass), then
 * the columns out of shared memory (vertical pass). The intermediate never
 * touches device memory, so the frame is read once and written once (plus
 * the halos, mostly from L2). Input rows are staged in shared memory as
 * float, so each sample is converted once, not once per tap. */
#include "gaussian.h"
#include "cf_kernel.cuh"

namespace {

constexpr int TILE_SAMPLES = 64;        /* at most this many samples across */
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

/* Rows staged per barrier: enough independent loads in flight per thread
 * to cover memory latency (one row per barrier was latency-bound). */
constexpr int CHUNK_ROWS = 4 * BLOCK_ROWS;

/* Shared memory: a chunk of input rows (the tile's samples plus rx pixels
 * each side, converted to float once), then the horizontally filtered rows
 * of the tile and its vertical halo. */
__host__ __device__ constexpr int
staged_row_floats (int rx, int channels)
{
  return TILE_SAMPLES + 2 * rx * channels;
}

template < typename T, int C > __global__ void
__launch_bounds__ (TILE_SAMPLES * BLOCK_ROWS)
gaussian_tile (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const GaussArgs a)
{
  constexpr int TILE_PX = TILE_SAMPLES / C;
  constexpr int TILE_S = TILE_PX * C;   /* 63 for 3 channels */
  extern __shared__ float smem[];
  const int staged = staged_row_floats (a.rx, C);
  float *chunk = smem;                  /* [CHUNK_ROWS][staged] */
  float *hrows = smem + CHUNK_ROWS * staged;    /* [rows][TILE_SAMPLES] */

  const int tx = threadIdx.x;
  const int x0 = blockIdx.x * TILE_PX;
  const int y0 = blockIdx.y * TILE_ROWS;
  const int out_rows = min (TILE_ROWS, height - y0);
  const int in_rows = out_rows + 2 * a.ry;
  const int x = x0 + tx / C;
  const int c = tx % C;
  const bool inside = tx < TILE_S && x < width;
  const bool filtered = inside && ((a.mask >> c) & 1u);
  const int seg = TILE_S + 2 * a.rx * C;

  /* Horizontal pass, a chunk of rows at a time: stage, then filter from
   * shared memory. Every thread runs the same loop count, so the barriers
   * are uniform. */
  for (int base = 0; base < in_rows; base += CHUNK_ROWS) {
#pragma unroll
    for (int k = 0; k < CHUNK_ROWS / BLOCK_ROWS; k++) {
      const int cr = k * BLOCK_ROWS + threadIdx.y;
      if (base + cr >= in_rows)
        break;
      const T *in = cf_row < T > (src, src_stride,
          cf_border_index (y0 - a.ry + base + cr, height, a.border));
      for (int j = tx; j < seg; j += TILE_SAMPLES) {
        int px = cf_border_index (x0 - a.rx + j / C, width, a.border);
        chunk[cr * staged + j] = (float) in[px * C + j % C];
      }
    }
    __syncthreads ();
#pragma unroll
    for (int k = 0; k < CHUNK_ROWS / BLOCK_ROWS; k++) {
      const int cr = k * BLOCK_ROWS + threadIdx.y;
      if (base + cr >= in_rows)
        break;
      const float *centre = chunk + cr * staged + a.rx * C + tx;
      float acc = 0.0f;
      if (filtered) {
        acc = a.wx[0] * centre[0];
#pragma unroll 4
        for (int t = 1; t <= a.rx; t++)
          acc += a.wx[t] * (centre[-t * C] + centre[t * C]);
      }
      hrows[(base + cr) * TILE_SAMPLES + tx] = acc;
    }
    __syncthreads ();
  }

  if (!inside)
    return;
  /* Vertical pass, out of shared memory. */
  for (int oy = threadIdx.y; oy < out_rows; oy += BLOCK_ROWS) {
    const T *in = cf_row < T > (src, src_stride, y0 + oy);
    T *out = cf_row < T > (dst, dst_stride, y0 + oy);
    const int s = x * C + c;
    if (!filtered) {
      out[s] = in[s];
      continue;
    }
    const float *col = hrows + (oy + a.ry) * TILE_SAMPLES + tx;
    float acc = a.wy[0] * col[0];
#pragma unroll 4
    for (int k = 1; k <= a.ry; k++)
      acc += a.wy[k] * (col[-k * TILE_SAMPLES] + col[k * TILE_SAMPLES]);
    if (a.sharpen)
      acc = 2.0f * (float) in[s] - acc;
    out[s] = cf_round_to < T > (acc);
  }
}

template < typename T, int C > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const GaussArgs & a,
    cudaStream_t stream)
{
  size_t smem = sizeof (float) * (CHUNK_ROWS * staged_row_floats (a.rx, C) +
      TILE_SAMPLES * (TILE_ROWS + 2 * a.ry));
  if (smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (gaussian_tile < T, C >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (err != cudaSuccess)
      return cf_status_from_cuda (err);
  }
  constexpr int TILE_PX = TILE_SAMPLES / C;
  dim3 block (TILE_SAMPLES, BLOCK_ROWS);
  dim3 grid ((src->width + TILE_PX - 1) / TILE_PX,
      (src->height + TILE_ROWS - 1) / TILE_ROWS);
  gaussian_tile < T, C > <<<grid, block, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const GaussArgs & a, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch < T, 1 > (src, dst, a, stream);
    case 2:
      return launch < T, 2 > (src, dst, a, stream);
    case 3:
      return launch < T, 3 > (src, dst, a, stream);
    default:
      return launch < T, 4 > (src, dst, a, stream);
  }
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
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, a, stream) :
      launch_channels < unsigned char > (src, dst, a, stream);
}
