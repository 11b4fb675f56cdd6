/* Exact 3 x 3 medians in registers, by forgetful selection
 * (median_forgetful.cuh). Larger windows share more per thread in
 * median_registers_quad.cu; 3 x 3 cannot: a 2 x 2 group's common 2 x 2
 * square holds fewer than the 6 values selection starts from.
 *
 * Every thread computes 4 outputs: two adjacent samples, packed in the two
 * 16-bit halves of each register so that one min/max instruction (VIMNMX
 * .U16x2 on sm_90) serves both, on two adjacent rows, whose windows share
 * all rows but one: that common part is selected once, then the state forks.
 * Both depths run the same code, so 16-bit costs only its extra bytes.
 *
 * The block stages its tile of packed sample pairs (with the border applied)
 * in shared memory once; every window then reads aligned 32-bit words. */
#include "median_kernels.cuh"
#include "median_forgetful.cuh"

namespace {

constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int OUT_SAMPLES = 2 * BLOCK_X;        /* per block and row */
constexpr int OUT_ROWS = 2 * BLOCK_Y;

template < typename T, int RADIUS > __global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
median_registers (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, CfBorder border, unsigned mask, const CfGateTile gate)
{
  constexpr int K = 2 * RADIUS + 1;
  constexpr int N = K * K;
  constexpr int KEEP = N / 2 + 2;       /* values that must stay in registers */
  constexpr int SHARED = 2 * RADIUS * K;        /* values both rows see */
  constexpr int FORK = 2 * KEEP - SHARED;       /* live values at the fork */
  static_assert (SHARED >= KEEP && FORK - K == 3, "forgetful selection sizes");

  extern __shared__ unsigned tile[];
  const int row_samples = width * channels;
  const int tile_w = OUT_SAMPLES + 2 * RADIUS * channels;
  const int tile_h = OUT_ROWS + 2 * RADIUS;
  const int s0 = blockIdx.x * OUT_SAMPLES - RADIUS * channels;
  const int y0 = blockIdx.y * OUT_ROWS - RADIUS;
  const bool inside_x = s0 >= 0 && s0 + tile_w < row_samples;

  if (cf_gate_block_closed < T > (gate, blockIdx.x * OUT_SAMPLES / channels,
          blockIdx.y * OUT_ROWS, ((blockIdx.x + 1) * OUT_SAMPLES +
              channels - 1) / channels, (blockIdx.y + 1) * OUT_ROWS, width,
          height))
    return;
  for (int ty = threadIdx.y; ty < tile_h; ty += BLOCK_Y) {
    const T *in = cf_row < T > (src, src_stride,
        cf_border_index (y0 + ty, height, border));
    for (int tx = threadIdx.x; tx < tile_w; tx += BLOCK_X) {
      int j = s0 + tx;
      unsigned lo, hi;
      if (inside_x) {
        lo = in[j];
        hi = in[j + 1];
      } else {
        lo = in[cf_median_border_sample (j, width, channels, border)];
        hi = in[cf_median_border_sample (j + 1, width, channels, border)];
      }
      tile[ty * tile_w + tx] = lo | (hi << 16);
    }
  }
  __syncthreads ();

  /* Window column j of this thread's pair, on tile row r. */
  const unsigned *base = tile + 2 * threadIdx.y * tile_w + 2 * threadIdx.x;
  auto at = [&](int r, int j)->unsigned {
    return base[r * tile_w + j * channels];
  };
  auto common = [&](int i)->unsigned {
    return at (1 + i / K, i % K);
  };
  auto top = [&](int i)->unsigned {
    return at (0, i);
  };
  auto bottom = [&](int i)->unsigned {
    return at (K, i);
  };

  unsigned a[KEEP], b[FORK];
#pragma unroll
  for (int i = 0; i < KEEP; i++)
    a[i] = common (i);
  cf_median_forget < KEEP, SHARED - KEEP > (a, common, KEEP);
#pragma unroll
  for (int i = 0; i < FORK; i++)
    b[i] = a[i];
  cf_median_forget < FORK, K > (a, top, 0);
  cf_median_forget < FORK, K > (b, bottom, 0);
  cf_median_min_max < 3 > (a);
  cf_median_min_max < 3 > (b);

  const int s = blockIdx.x * OUT_SAMPLES + 2 * threadIdx.x;
  const int y = blockIdx.y * OUT_ROWS + 2 * threadIdx.y;
  const int c = s % channels;
  const unsigned keep[2] = {
    (mask >> c) & 1u ? 0xffffu : 0u,
    (mask >> (c + 1 == channels ? 0 : c + 1)) & 1u ? 0xffffu : 0u
  };
  const unsigned med[2] = { a[1], b[1] };
  const unsigned centre[2] = { at (RADIUS, RADIUS), at (RADIUS + 1, RADIUS) };
#pragma unroll
  for (int r = 0; r < 2; r++) {
    if (y + r >= height)
      break;
    T *out = cf_row < T > (dst, dst_stride, y + r);
#pragma unroll
    for (int l = 0; l < 2; l++) {
      if (s + l >= row_samples)
        break;
      unsigned m = med[r] >> (16 * l), v = centre[r] >> (16 * l);
      out[s + l] = (T) ((m & keep[l]) | (v & ~keep[l] & 0xffffu));
    }
  }
}

template < typename T, int RADIUS > CfStatus
launch (const CfPlane * src, const CfPlane * dst, CfBorder border,
    unsigned mask, const CfGateTile & gate, cudaStream_t stream)
{
  int tile_w = OUT_SAMPLES + 2 * RADIUS * src->channels;
  size_t smem = sizeof (unsigned) * tile_w * (OUT_ROWS + 2 * RADIUS);
  dim3 block (BLOCK_X, BLOCK_Y);
  dim3 grid ((src->width * src->channels + OUT_SAMPLES - 1) / OUT_SAMPLES,
      (src->height + OUT_ROWS - 1) / OUT_ROWS);
  median_registers < T, RADIUS > <<<grid, block, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height,
      src->channels, border, mask, gate);
  return cf_launch_status ();
}

}                               /* namespace */

CfStatus
cf_median_launch_registers_3x3 (const CfPlane * src, const CfPlane * dst,
    CfBorder border, unsigned mask, const CfGateTile & gate,
    cudaStream_t stream)
{
  return src->depth > 8 ?
      launch < unsigned short, 1 > (src, dst, border, mask, gate, stream) :
      launch < unsigned char, 1 > (src, dst, border, mask, gate, stream);
}
