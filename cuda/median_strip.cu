/* Exact medians of thin windows (short side 1, 3 or 5, the other longer:
 * 1x3 .. 1x31, 3x5 .. 3x31, 5x7 .. 5x23, and their transposes) in
 * registers, by forgetful selection (median_forgetful.cuh) shared by a
 * strip of M outputs along the window's long side.
 *
 * The windows of M neighbours along the long side (KL) share KS x
 * (KL - M + 1) samples; M is the largest of 8, 4, 2, 1 for which that holds
 * the KL KS / 2 + 2 values the selection starts from. The shared part is
 * selected once, then the state forks in halves (a binary tree): each half
 * of the strip adds the lines its outputs share beyond the parent's, down
 * to one output, which adds its last line and ends on 3 values. Counted in
 * min/max pairs per output: 3x9 72 against 437 for 9x9 on the 2 x 2 square
 * kernel, 3x23 202, 1x31 41, 5x15 344.
 *
 * The window's orientation and the sample depth are runtime: both run the
 * same selection on 16-bit halves (two outputs `half` pixels apart, as in
 * median_registers_quad.cu), read from the staged tile through a stride
 * along the long side and one across it. Tall windows give a warp's lanes
 * neighbouring pixels and each thread M rows; wide ones give the lanes
 * neighbouring rows (the tile's row length is odd, so they hit different
 * banks) and each thread M pixels, and write through shared memory. A
 * thread works on one filtered channel; the first filtered channel's
 * thread copies the others. */
#include "median_kernels.cuh"
#include "median_forgetful.cuh"

namespace {

constexpr int LINES = 8;        /* blockDim.y */

/* Outputs sharing one selection: the largest of 8, 4, 2, 1 whose common
 * window part holds the values the selection starts from. */
__host__ __device__ constexpr int
strip_outputs (int ks, int kl)
{
  int m = 8;
  while (m > 1 && ks * (kl - m + 1) < ks * kl / 2 + 2)
    m /= 2;
  return m;
}

/* Forgetful selection for outputs LO..HI of the strip, whose common window
 * lines (HI - 1 .. LO + KL - 1 along the long side) are selected into the
 * S live values v; at(a, b) is the sample on line a, position b across;
 * emit(j, median) takes output j's result. */
template < int KS, int KL, int S, int LO, int HI, typename At, typename Emit >
__device__ __forceinline__ void
select_strip (unsigned *v, const At & at, const Emit & emit)
{
  if constexpr (HI - LO == 1) {
    static_assert (S == 3, "forgetful selection sizes");
    cf_median_min_max < 3 > (v);
    emit (LO, v[1]);
  } else {
    constexpr int MID = (LO + HI) / 2;
    /* LO..MID add lines MID - 1 .. HI - 2; MID..HI add LO + KL .. MID + KL
     * - 1. */
    constexpr int FIRST = (HI - MID) * KS, SECOND = (MID - LO) * KS;
    unsigned w[S];
#pragma unroll
    for (int i = 0; i < S; i++)
      w[i] = v[i];
    cf_median_forget < S, FIRST > (v,[&](int i) {
          return at (MID - 1 + i / KS, i % KS);
        }, 0);
    select_strip < KS, KL, S - FIRST, LO, MID > (v, at, emit);
    cf_median_forget < S, SECOND > (w,[&](int i) {
          return at (LO + KL + i / KS, i % KS);
        }, 0);
    select_strip < KS, KL, S - SECOND, MID, HI > (w, at, emit);
  }
}

__device__ __forceinline__ unsigned
load_sample (const unsigned char *row, int i, bool deep)
{
  return deep ? ((const unsigned short *) row)[i] : row[i];
}

__device__ __forceinline__ void
store_sample (unsigned char *row, int i, bool deep, unsigned v)
{
  if (deep)
    ((unsigned short *) row)[i] = (unsigned short) v;
  else
    row[i] = (unsigned char) v;
}

/* KS x KL windows: KS across, KL along the long side (tall: KS wide and KL
 * high; wide: the transpose). The kernels below wrap it with their launch
 * bounds. */
template < int KS, int KL > __device__ __forceinline__ void
strip_body (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, bool deep, bool tall, CfBorder border, int filtered,
    unsigned order, unsigned copied, const CfGateTile & gate)
{
  constexpr int M = strip_outputs (KS, KL);
  constexpr int KEEP = KS * KL / 2 + 2;
  constexpr int COMMON = KS * (KL - M + 1);
  static_assert (COMMON >= KEEP, "forgetful selection sizes");

  extern __shared__ unsigned tile[];
  const int rx = (tall ? KS : KL) / 2, ry = (tall ? KL : KS) / 2;
  /* blockDim.x = filtered x groups; tall: groups are pixels, wide: rows. */
  const int groups = blockDim.x / filtered;
  const int half = tall ? groups : LINES * M;   /* pixels */
  const int block_rows = tall ? LINES * M : groups;
  const int far = half * channels;      /* samples between the halves */
  const int row_samples = width * channels;
  const int row_words = (half + 2 * rx) * channels;
  const int tile_w = row_words | 1;     /* odd: wide strips' lanes */
  const int tile_h = block_rows + 2 * ry;
  const int x0 = blockIdx.x * 2 * half;
  const int y0 = blockIdx.y * block_rows;
  const int s0 = (x0 - rx) * channels;
  const bool gated = deep ?
      cf_gate_block_closed < unsigned short > (gate, x0, y0, x0 + 2 * half,
      y0 + block_rows, width, height) :
      cf_gate_block_closed < unsigned char > (gate, x0, y0, x0 + 2 * half,
      y0 + block_rows, width, height);
  if (gated)
    return;
  const bool inside_x = s0 >= 0 && s0 + row_words + far <= row_samples;

  for (int ty = threadIdx.y; ty < tile_h; ty += LINES) {
    const unsigned char *in = (const unsigned char *) src + src_stride *
        cf_border_index (y0 - ry + ty, height, border);
    for (int tx = threadIdx.x; tx < row_words; tx += blockDim.x) {
      int j = s0 + tx;
      unsigned lo, hi;
      if (inside_x) {
        lo = load_sample (in, j, deep);
        hi = load_sample (in, j + far, deep);
      } else {
        lo = load_sample (in, cf_median_border_sample (j, width, channels,
                border), deep);
        hi = load_sample (in, cf_median_border_sample (j + far, width,
                channels, border), deep);
      }
      tile[ty * tile_w + tx] = lo | (hi << 16);
    }
  }
  __syncthreads ();

  const int k = threadIdx.x % filtered, g = threadIdx.x / filtered;
  const int c = (order >> (4 * k)) & 15;
  /* This thread's first output, relative to the block; its window's corner
   * is there in the tile. */
  const int px = tall ? g : threadIdx.y * M;
  const int py = tall ? threadIdx.y * M : g;
  const unsigned *base = tile + py * tile_w + px * channels;
  const int along = tall ? tile_w : channels;
  const int across = tall ? channels : tile_w;
  auto at = [&](int a, int b)->unsigned {
    return base[a * along + b * across + c];
  };
  /* Wide strips put their outputs in shared memory first (after the tile,
   * rows of an odd number of words so that the lanes' rows hit different
   * banks), then the block writes them row by row: written straight, a
   * warp's 32 rows cost 32 sectors a store. */
  const int out_w = 2 * half * channels;        /* samples of a block row */
  const int out_stride = 2 * (((out_w + 1) / 2) | 1);  /* odd words */
  unsigned short *out_tile = (unsigned short *) (tile + tile_w * tile_h);
  auto emit = [&](int j, unsigned med) {
    const int ox = px + (tall ? 0 : j), oy = py + (tall ? j : 0);
    if (y0 + oy >= height)
      return;
    unsigned char *out = (unsigned char *) dst + dst_stride * (y0 + oy);
    unsigned short *staged = out_tile + oy * out_stride;
    const unsigned *centre = base + (j + KL / 2) * along + (KS / 2) * across;
#pragma unroll
    for (int l = 0; l < 2; l++) {
      const int x = ox + l * half;
      if (tall && x0 + x >= width)
        continue;
      auto put = [&](int ch, unsigned value) {
        value = (value >> (16 * l)) & 0xffffu;
        if (tall)
          store_sample (out, (x0 + x) * channels + ch, deep, value);
        else
          staged[x * channels + ch] = (unsigned short) value;
      };
      put (c, med);
      if (k != 0)
        continue;
      for (unsigned m = copied; m; m &= m - 1)
        put (__ffs (m) - 1, centre[__ffs (m) - 1]);
    }
  };

  unsigned v[KEEP];
  auto common = [&](int i)->unsigned {
    return at (M - 1 + i / KS, i % KS);
  };
#pragma unroll
  for (int i = 0; i < KEEP; i++)
    v[i] = common (i);
  cf_median_forget < KEEP, COMMON - KEEP > (v, common, KEEP);
  select_strip < KS, KL, 2 * KEEP - COMMON, 0, M > (v, at, emit);
  if (tall)
    return;
  __syncthreads ();
  const int rows = min (block_rows, height - y0);
  const int samples = min (out_w, row_samples - x0 * channels);
  const int threads = blockDim.x * LINES;
  for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < rows * samples;
      i += threads) {
    const int r = i / samples, x = i - r * samples;
    store_sample ((unsigned char *) dst + dst_stride * (y0 + r),
        x0 * channels + x, deep, out_tile[r * out_stride + x]);
  }
}

#define CF_STRIP_KERNEL_ARGS const void *__restrict__ src, size_t src_stride, \
    void *__restrict__ dst, size_t dst_stride, int width, int height, \
    int channels, bool deep, bool tall, CfBorder border, int filtered, \
    unsigned order, unsigned copied, const CfGateTile gate
#define CF_STRIP_BODY strip_body < KS, KL > (src, src_stride, dst, \
    dst_stride, width, height, channels, deep, tall, border, filtered, \
    order, copied, gate)

/* Register allocation left to ptxas: any directive on the blocks an SM
 * (even one) gave 1 x 3 .. 9 x 3 more registers, and they were 12 to 29%
 * slower on the H100. */
template < int KS, int KL > __global__ void
__launch_bounds__ (256)
median_strip (CF_STRIP_KERNEL_ARGS)
{
  CF_STRIP_BODY;
}

/* 3 x 15 .. 3 x 31, held to three blocks an SM: left free, ptxas gives
 * 3 x 31 92 registers and two blocks, 10% slower on the H100. */
template < int KS, int KL > __global__ void
__launch_bounds__ (256, 3)
median_strip_held (CF_STRIP_KERNEL_ARGS)
{
  CF_STRIP_BODY;
}

#undef CF_STRIP_KERNEL_ARGS
#undef CF_STRIP_BODY

template < int KS, int KL > CfStatus
launch (const CfPlane * src, const CfPlane * dst, bool tall, CfBorder border,
    unsigned mask, const CfGateTile & gate, cudaStream_t stream)
{
  constexpr int M = strip_outputs (KS, KL);
  int filtered;
  const unsigned order = cf_median_channel_order (src->channels, mask,
      &filtered);
  if (filtered == 0)
    return CF_ERROR_INVALID;
  /* a warp, or 24 threads for 3 channels */
  const int groups = filtered == 1 ? 32 : filtered == 2 ? 16 : 8;
  const int half = tall ? groups : LINES * M;
  const int block_rows = tall ? LINES * M : groups;
  const int rx = (tall ? KS : KL) / 2, ry = (tall ? KL : KS) / 2;
  const int tile_w = ((half + 2 * rx) * src->channels) | 1;
  /* wide strips: then their outputs, rows of an odd number of words */
  const int out_w = 2 * half * src->channels;
  const size_t smem = sizeof (unsigned) * tile_w * (block_rows + 2 * ry)
      + (tall ? 0 : sizeof (unsigned short) * 2 * (((out_w + 1) / 2) | 1)
      * block_rows);
  const dim3 block (filtered * groups, LINES);
  const dim3 grid ((src->width + 2 * half - 1) / (2 * half),
      (src->height + block_rows - 1) / block_rows);
  auto run = [&](auto kernel) {
    kernel <<< grid, block, smem, stream >>> (src->data, src->stride,
        dst->data, dst->stride, src->width, src->height, src->channels,
        src->depth > 8, tall, border, filtered, order,
        CF_ALL_CHANNELS (src->channels) & ~mask, gate);
  };
  if constexpr (KS == 3 && KL >= 15)
    run (median_strip_held < KS, KL >);
  else
    run (median_strip < KS, KL >);
  return cf_launch_status ();
}

/* Long radii LO..HI (KL = 2 r + 1) for short side KS. */
template < int KS, int LO, int HI > CfStatus
launch_long (const CfPlane * src, const CfPlane * dst, int long_radius,
    bool tall, CfBorder border, unsigned mask, const CfGateTile & gate,
    cudaStream_t stream)
{
  return cf_median_for_radius < LO, HI > (long_radius,[&](auto r) {
        return launch < KS, 2 * decltype (r)::value + 1 > (src, dst, tall,
            border, mask, gate, stream);
      });
}

}                               /* namespace */

bool
cf_median_strip_takes (int radius_x, int radius_y)
{
  const int s = radius_x < radius_y ? radius_x : radius_y;
  const int l = radius_x < radius_y ? radius_y : radius_x;
  return s < l && s <= CF_MEDIAN_STRIP_MAX_SHORT_RADIUS
      && l <= (s < CF_MEDIAN_STRIP_MAX_SHORT_RADIUS ?
      CF_MEDIAN_STRIP_MAX_LONG_RADIUS : CF_MEDIAN_STRIP_MAX_LONG_RADIUS_5);
}

CfStatus
cf_median_launch_strip (const CfPlane * src, const CfPlane * dst,
    int radius_x, int radius_y, CfBorder border, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream)
{
  if (!cf_median_strip_takes (radius_x, radius_y))
    return CF_ERROR_INVALID;
  const bool tall = radius_y > radius_x;
  const int s = tall ? radius_x : radius_y, l = tall ? radius_y : radius_x;
  switch (s) {
    case 0:
      return launch_long < 1, 1, CF_MEDIAN_STRIP_MAX_LONG_RADIUS > (src, dst,
          l, tall, border, mask, gate, stream);
    case 1:
      return launch_long < 3, 2, CF_MEDIAN_STRIP_MAX_LONG_RADIUS > (src, dst,
          l, tall, border, mask, gate, stream);
    default:
      return launch_long < 5, 3, CF_MEDIAN_STRIP_MAX_LONG_RADIUS_5 > (src,
          dst, l, tall, border, mask, gate, stream);
  }
}
