/* Full 3x3 and 5x5 kernels straight from global memory into registers,
 * without staging a tile in shared memory: each thread filters one 32-bit
 * word of a row (4 8-bit or 2 16-bit samples) on ROWS consecutive rows. It
 * reads the words it needs around its own (the halo of K / 2 pixels each
 * side, rounded up to whole words) row by row, through L1, which serves
 * the neighbouring threads' overlapping reads; every sample is loaded as
 * part of a word, never a byte at a time. A thread whose words reach past
 * the row's ends reads sample by sample through the border mode instead.
 * Planes whose rows are not word-aligned take the tiled kernel. */
#include "convolve_small.cuh"
#include "cf_kernel.cuh"
#include "small_mask_args.h"
#include "small_mask.cuh"

namespace {

constexpr int ROWS = 4;         /* output rows per thread */
constexpr int BLOCK_X = 32;     /* words across a block */
constexpr int BLOCK_Y = 8;      /* threads down a block */


/* Samples of a word. */
template < typename T > __host__ __device__ constexpr int
word_samples ()
{
  return 4 / sizeof (T);
}

/* Loads the samples of one input row that a thread needs into `in`: its
 * own S samples at in[H .. H + S) and H on each side, H = K / 2 pixels.
 * in[j] is sample s0 - HW * S + j of the row, HW words of halo a side. */
template < typename T, int K, int C > __device__ __forceinline__ void
load_row (float *in, const T * row, int s0, int width,
    bool inside, CfBorder border)
{
  constexpr int S = word_samples < T > ();
  constexpr int HW = ((K / 2) * C + S - 1) / S;
  if (inside) {
    const uint32_t *w = (const uint32_t *) (row + s0) - HW;
#pragma unroll
    for (int i = 0; i < 2 * HW + 1; i++) {
      const uint32_t v = w[i];
#pragma unroll
      for (int j = 0; j < S; j++)
        in[i * S + j] = cf_small_mask::word_sample < T > (v, j);
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < (2 * HW + 1) * S; j++) {
    const int s = s0 - HW * S + j;
    /* pixel and channel of s, the pixel through the border mode */
    const int px = s >= 0 ? s / C : -((C - 1 - s) / C);
    const int c = s - px * C;
    const int x = cf_border_index (px, width, border);
    in[j] = cf_sample_float (row[x * C + c]);
  }
}

template < typename T, int K, int C > __global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
convolve_small (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const CfMaskArgs a)
{
  constexpr int S = word_samples < T > ();
  constexpr int H = (K / 2) * C;        /* halo samples a side */
  constexpr int HW = (H + S - 1) / S;
  constexpr int N = (2 * HW + 1) * S;   /* samples loaded per row */
  const int samples = width * C;
  const int word = blockIdx.x * BLOCK_X + threadIdx.x;
  const int s0 = word * S;
  const int y0 = (blockIdx.y * BLOCK_Y + threadIdx.y) * ROWS;
  if (s0 >= samples || y0 >= height)
    return;
  const bool inside = word >= HW && (word + HW + 1) * S <= samples;

  float acc[ROWS][S] = { };
#pragma unroll
  for (int r = 0; r < ROWS + K - 1; r++) {
    float in[N];
    const int y = cf_border_index (y0 + r - K / 2, height, a.border);
    load_row < T, K, C > (in, cf_row < T > (src, src_stride, y), s0, width,
        inside, a.border);
#pragma unroll
    for (int ky = 0; ky < K; ky++) {
      const int o = r - ky;     /* the output row this input row is ky of */
      if (o < 0 || o >= ROWS)
        continue;
#pragma unroll
      for (int kx = 0; kx < K; kx++) {
        const float w = a.taps[ky * K + kx];
#pragma unroll
        for (int j = 0; j < S; j++)
          acc[o][j] += w * in[HW * S - H + kx * C + j];
      }
    }
  }

  const bool whole_word = s0 + S <= samples;
#pragma unroll
  for (int o = 0; o < ROWS; o++) {
    const int y = y0 + o;
    if (y >= height)
      break;
    const T *in = cf_row < T > (src, src_stride, y) + s0;
    T v[S] = { };
#pragma unroll
    for (int j = 0; j < S; j++) {
      if ((a.mask >> ((s0 + j) % C)) & 1u) {
        const float f = acc[o][j] + a.offset;
        v[j] = (T) fminf (cf_round_up_clamped < T > (a.absolute ?
                fabsf (f) : f), a.max);
      } else if (s0 + j < samples) {
        v[j] = in[j];           /* a channel left as it is */
      }
    }
    T *out = cf_row < T > (dst, dst_stride, y) + s0;
    if (whole_word) {
      uint32_t packed = 0;
#pragma unroll
      for (int j = 0; j < S; j++)
        packed |= (uint32_t) v[j] << (j * 8 * sizeof (T));
      *(uint32_t *) out = packed;
    } else {
      for (int j = 0; j < S && s0 + j < samples; j++)
        out[j] = v[j];
    }
  }
}

template < typename T, int K, int C > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const CfMaskArgs & a,
    cudaStream_t stream)
{
  constexpr int S = word_samples < T > ();
  const int words = (src->width * C + S - 1) / S;
  const dim3 block (BLOCK_X, BLOCK_Y);
  const dim3 grid ((words + BLOCK_X - 1) / BLOCK_X,
      (src->height + BLOCK_Y * ROWS - 1) / (BLOCK_Y * ROWS));
  convolve_small < T, K, C > <<<grid, block, 0, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T, int K > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const CfMaskArgs & a, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch < T, K, 1 > (src, dst, a, stream);
    case 2:
      return launch < T, K, 2 > (src, dst, a, stream);
    case 3:
      return launch < T, K, 3 > (src, dst, a, stream);
    default:
      return launch < T, K, 4 > (src, dst, a, stream);
  }
}

bool
word_aligned (const CfPlane * p)
{
  return ((uintptr_t) p->data | p->stride) % 4 == 0;
}

}                               /* namespace */

bool
cf_convolve_small_fits (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan)
{
  return plan->width == plan->height && (plan->width == 3
      || plan->width == 5) && word_aligned (src) && word_aligned (dst);
}

CfStatus
cf_convolve_small (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream)
{
  const int k = plan->width;
  const CfMaskArgs a = cf_mask_args_convolve (dst, plan, params);
  if (src->depth > 8)
    return k == 3 ? launch_channels < unsigned short, 3 > (src, dst, a,
        stream) : launch_channels < unsigned short, 5 > (src, dst, a, stream);
  return k == 3 ? launch_channels < unsigned char, 3 > (src, dst, a, stream) :
      launch_channels < unsigned char, 5 > (src, dst, a, stream);
}
