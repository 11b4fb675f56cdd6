/* One axis of the separable median "smoother" (seed 001): the median of the
 * 2 r + 1 samples along a column (or a row) around each sample. median.cu
 * runs the columns into scratch memory, then the rows into the output.
 *
 * A block stages its lines with their halo in shared memory; each output is
 * then selected bit by bit (radix select): for each bit from the top, count
 * the window samples below the candidate prefix with that bit set, and keep
 * the bit when no more than half of them are. Depth bits passes of 2 r + 1
 * compares, no sorting, no histogram, nothing that grows with r beyond the
 * window itself. */
#include "median_kernels.cuh"

namespace {

constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int PER_THREAD = 8;   /* outputs of a thread along the axis */

/* The median of v[0], v[step], ... v[(n - 1) step], n odd. */
template < int BITS > __device__ __forceinline__ unsigned
radix_median (const unsigned short *v, int step, int n)
{
  const int rank = n / 2;
  unsigned ans = 0;
#pragma unroll
  for (int b = BITS - 1; b >= 0; b--) {
    unsigned cand = ans | (1u << b);
    int below = 0;
    for (int i = 0; i < n; i++)
      below += v[i * step] < cand;
    if (below <= rank)
      ans = cand;
  }
  return ans;
}

/* Vertical: a block covers BLOCK_X samples by BLOCK_Y * PER_THREAD rows and
 * stages those columns with r rows of halo above and below. */
template < typename T > __global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
median_columns (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int r, CfBorder border, unsigned mask)
{
  constexpr int ROWS = BLOCK_Y * PER_THREAD;
  extern __shared__ unsigned short lines[];     /* [ROWS + 2 r][BLOCK_X] */
  const int s = blockIdx.x * BLOCK_X + threadIdx.x;
  const int y0 = blockIdx.y * ROWS;
  const bool inside = s < width * channels;
  const bool filtered = inside && ((mask >> (s % channels)) & 1u);

  for (int ty = threadIdx.y; ty < ROWS + 2 * r; ty += BLOCK_Y)
    if (inside)
      lines[ty * BLOCK_X + threadIdx.x] = cf_row < T > (src, src_stride,
          cf_border_index (y0 - r + ty, height, border))[s];
  __syncthreads ();
  if (!inside)
    return;

  for (int oy = threadIdx.y; oy < ROWS && y0 + oy < height; oy += BLOCK_Y) {
    const unsigned short *v = lines + oy * BLOCK_X + threadIdx.x;
    cf_row < T > (dst, dst_stride, y0 + oy)[s] = (T) (filtered ?
        radix_median < 8 * sizeof (T) > (v, BLOCK_X, 2 * r + 1) :
        v[r * BLOCK_X]);
  }
}

/* Horizontal: a block covers BLOCK_X * PER_THREAD samples of BLOCK_Y rows,
 * staged with r pixels (r * channels samples) of halo left and right. */
template < typename T > __global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
median_rows (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int r, CfBorder border, unsigned mask)
{
  constexpr int SAMPLES = BLOCK_X * PER_THREAD;
  extern __shared__ unsigned short lines[];     /* [BLOCK_Y][line_w] */
  const int line_w = SAMPLES + 2 * r * channels;
  const int row_samples = width * channels;
  const int s0 = blockIdx.x * SAMPLES;
  const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
  unsigned short *line = lines + threadIdx.y * line_w;

  if (y >= height)
    return;
  const T *in = cf_row < T > (src, src_stride, y);
  for (int i = threadIdx.x; i < line_w; i += BLOCK_X)
    line[i] = in[cf_median_border_sample (s0 - r * channels + i, width,
            channels, border)];
  __syncwarp ();

  T *out = cf_row < T > (dst, dst_stride, y);
  for (int o = threadIdx.x; o < SAMPLES && s0 + o < row_samples; o += BLOCK_X) {
    const unsigned short *v = line + o;
    bool filtered = (mask >> ((s0 + o) % channels)) & 1u;
    out[s0 + o] = (T) (filtered ?
        radix_median < 8 * sizeof (T) > (v, channels, 2 * r + 1) :
        v[r * channels]);
  }
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, int r, int vertical,
    CfBorder border, unsigned mask, cudaStream_t stream)
{
  dim3 block (BLOCK_X, BLOCK_Y);
  int samples = src->width * src->channels;
  if (vertical) {
    size_t smem = sizeof (unsigned short) * BLOCK_X *
        (BLOCK_Y * PER_THREAD + 2 * r);
    dim3 grid ((samples + BLOCK_X - 1) / BLOCK_X,
        (src->height + BLOCK_Y * PER_THREAD - 1) / (BLOCK_Y * PER_THREAD));
    median_columns < T > <<<grid, block, smem, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        src->channels, r, border, mask);
  } else {
    size_t smem = sizeof (unsigned short) * BLOCK_Y *
        (BLOCK_X * PER_THREAD + 2 * r * src->channels);
    dim3 grid ((samples + BLOCK_X * PER_THREAD - 1) / (BLOCK_X * PER_THREAD),
        (src->height + BLOCK_Y - 1) / BLOCK_Y);
    median_rows < T > <<<grid, block, smem, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        src->channels, r, border, mask);
  }
  return cf_launch_status ();
}

}                               /* namespace */

CfStatus
cf_median_launch_1d (const CfPlane * src, const CfPlane * dst, int radius,
    int vertical, CfBorder border, unsigned mask, cudaStream_t stream)
{
  return src->depth > 8 ?
      launch < unsigned short > (src, dst, radius, vertical, border, mask,
      stream) :
      launch < unsigned char > (src, dst, radius, vertical, border, mask,
      stream);
}
