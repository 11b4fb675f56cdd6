/* Exact medians of square windows 5 x 5 to 15 x 15 in registers, by
 * forgetful selection (median_forgetful.cuh) shared by a 2 x 2 group of
 * outputs. The windows of pixels (x, y), (x + 1, y), (x, y + 1) and
 * (x + 1, y + 1) share a (k - 1) x (k - 1) square, which holds at least the
 * k² / 2 + 2 values forgetful selection starts from (k >= 5): that part is
 * selected once; the state then forks into the two rows (adding k - 1 values
 * of the top or the bottom row each) and each of those into the two columns
 * (adding k values of the left or the right column). Compared with sharing
 * two rows only, as median_registers.cu does at 3 x 3, that is 11% fewer
 * min/max per output at 5 x 5, 28% at 7 x 7, 36% at 9 x 9. At 15 x 15 the
 * selection starts from 114 values: 159 registers, one block per SM,
 * without spills (capping it at 128 for two blocks spills and is no
 * faster).
 *
 * Each thread works on one channel: only the filtered ones get threads, so
 * an RGBA frame's alpha costs no selection; the first filtered channel's
 * thread copies the others. Its two register halves hold two 2 x 2 groups
 * `half` pixels apart (8 outputs per thread), so the tile in shared memory
 * packs each sample with the one `half` pixels to its right, staged once
 * per block with the border applied. */
#include "median_kernels.cuh"
#include "median_forgetful.cuh"

namespace {

constexpr int ROW_PAIRS = 8;    /* blockDim.y; the block's rows: 2 x that */

template < typename T, int RADIUS > __global__ void
__launch_bounds__ (256)
median_registers_quad (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, CfBorder border, int filtered, unsigned order,
    unsigned copied, const CfGateTile gate)
{
  constexpr int K = 2 * RADIUS + 1;
  constexpr int N = K * K;
  constexpr int KEEP = N / 2 + 2;       /* values that must stay in registers */
  constexpr int COMMON = (K - 1) * (K - 1);     /* values all 4 windows see */
  constexpr int AFTER_COMMON = 2 * KEEP - COMMON;       /* live values then */
  constexpr int AFTER_ROW = AFTER_COMMON - (K - 1);
  static_assert (COMMON >= KEEP && AFTER_ROW - K == 3,
      "forgetful selection sizes");

  extern __shared__ unsigned tile[];
  /* blockDim.x = filtered x groups; each group: 2 pixels in each half. */
  const int half = 2 * (blockDim.x / filtered);
  const int far = half * channels;      /* samples between the halves */
  const int row_samples = width * channels;
  const int tile_w = (half + 2 * RADIUS) * channels;
  const int tile_h = 2 * ROW_PAIRS + 2 * RADIUS;
  const int x0 = blockIdx.x * 2 * half;
  const int y0 = blockIdx.y * 2 * ROW_PAIRS;
  const int s0 = (x0 - RADIUS) * channels;
  if (cf_gate_block_closed < T > (gate, x0, y0, x0 + 2 * half,
          y0 + 2 * ROW_PAIRS, width, height))
    return;
  const bool inside_x = s0 >= 0 && s0 + tile_w + far <= row_samples;
  /* 8-bit four-channel rows away from the borders are staged a pixel (one
   * 32-bit load) at a time, four tile words per 16-byte store. */
  const bool pixels = sizeof (T) == 1 && channels == 4 && inside_x
      && ((uintptr_t) src | src_stride) % 4 == 0;

  for (int ty = threadIdx.y; ty < tile_h; ty += ROW_PAIRS) {
    const T *in = cf_row < T > (src, src_stride,
        cf_border_index (y0 - RADIUS + ty, height, border));
    if (pixels) {
      const unsigned *lo4 = (const unsigned *) (in + s0);
      const unsigned *hi4 = (const unsigned *) (in + s0 + far);
      uint4 *row = (uint4 *) (tile + ty * tile_w);
      for (int q = threadIdx.x; q < tile_w / 4; q += blockDim.x) {
        const unsigned a = lo4[q], b = hi4[q];
        auto word = [&](int c)->unsigned {
          return ((a >> (8 * c)) & 0xffu) | ((b >> (8 * c)) & 0xffu) << 16;
        };
        row[q] = make_uint4 (word (0), word (1), word (2), word (3));
      }
      continue;
    }
    for (int tx = threadIdx.x; tx < tile_w; tx += blockDim.x) {
      int j = s0 + tx;
      unsigned lo, hi;
      if (inside_x) {
        lo = in[j];
        hi = in[j + far];
      } else {
        lo = in[cf_median_border_sample (j, width, channels, border)];
        hi = in[cf_median_border_sample (j + far, width, channels, border)];
      }
      tile[ty * tile_w + tx] = lo | (hi << 16);
    }
  }
  __syncthreads ();

  const int k = threadIdx.x % filtered, g = threadIdx.x / filtered;
  const int c = (order >> (4 * k)) & 15;
  /* Tile rows and pixels r, q of this thread's 2 x 2 group: the group's
   * output (d, e) has its window on rows e..e+K-1, pixels d..d+K-1. */
  const unsigned *base = tile + 2 * threadIdx.y * tile_w + 2 * g * channels;
  auto at = [&](int r, int q)->unsigned {
    return base[r * tile_w + q * channels + c];
  };
  auto common = [&](int i)->unsigned {
    return at (1 + i / (K - 1), 1 + i % (K - 1));
  };
  auto top = [&](int i)->unsigned {
    return at (0, 1 + i);
  };
  auto bottom = [&](int i)->unsigned {
    return at (K, 1 + i);
  };
  auto top_left = [&](int i)->unsigned {
    return at (i, 0);
  };
  auto top_right = [&](int i)->unsigned {
    return at (i, K);
  };
  auto bottom_left = [&](int i)->unsigned {
    return at (1 + i, 0);
  };
  auto bottom_right = [&](int i)->unsigned {
    return at (1 + i, K);
  };

  unsigned t[KEEP], b[AFTER_COMMON], tr[AFTER_ROW], br[AFTER_ROW];
#pragma unroll
  for (int i = 0; i < KEEP; i++)
    t[i] = common (i);
  cf_median_forget < KEEP, COMMON - KEEP > (t, common, KEEP);
#pragma unroll
  for (int i = 0; i < AFTER_COMMON; i++)
    b[i] = t[i];
  cf_median_forget < AFTER_COMMON, K - 1 > (t, top, 0);
  cf_median_forget < AFTER_COMMON, K - 1 > (b, bottom, 0);
#pragma unroll
  for (int i = 0; i < AFTER_ROW; i++) {
    tr[i] = t[i];
    br[i] = b[i];
  }
  cf_median_forget < AFTER_ROW, K > (t, top_left, 0);
  cf_median_forget < AFTER_ROW, K > (tr, top_right, 0);
  cf_median_forget < AFTER_ROW, K > (b, bottom_left, 0);
  cf_median_forget < AFTER_ROW, K > (br, bottom_right, 0);
  cf_median_min_max < 3 > (t);
  cf_median_min_max < 3 > (tr);
  cf_median_min_max < 3 > (b);
  cf_median_min_max < 3 > (br);

  const unsigned med[2][2] = { {t[1], tr[1]}, {b[1], br[1]} };
  const int x = x0 + 2 * g;
  const int y = y0 + 2 * threadIdx.y;
#pragma unroll
  for (int e = 0; e < 2; e++) {
    if (y + e >= height)
      break;
    T *out = cf_row < T > (dst, dst_stride, y + e);
#pragma unroll
    for (int l = 0; l < 2; l++)
#pragma unroll
      for (int d = 0; d < 2; d++) {
        int px = x + l * half + d;
        if (px >= width)
          continue;
        out[px * channels + c] = (T) (med[e][d] >> (16 * l));
        if (k != 0)
          continue;
        for (unsigned m = copied; m; m &= m - 1) {
          int cc = __ffs (m) - 1;
          out[px * channels + cc] = (T) (base[(RADIUS + e) * tile_w
                  + (RADIUS + d) * channels + cc] >> (16 * l));
        }
      }
  }
}

template < typename T, int RADIUS > CfStatus
launch (const CfPlane * src, const CfPlane * dst, CfBorder border,
    unsigned mask, const CfGateTile & gate, cudaStream_t stream)
{
  int filtered;
  const unsigned order = cf_median_channel_order (src->channels, mask,
      &filtered);
  if (filtered == 0)
    return CF_ERROR_INVALID;
  /* 2 x 2 groups per row pair: 32 threads (a warp) or 24 for 3 channels. */
  int groups = filtered == 1 ? 32 : filtered == 2 ? 16 : 8;
  int half = 2 * groups;
  size_t smem = sizeof (unsigned) * (half + 2 * RADIUS) * src->channels
      * (2 * ROW_PAIRS + 2 * RADIUS);
  dim3 block (filtered * groups, ROW_PAIRS);
  dim3 grid ((src->width + 2 * half - 1) / (2 * half),
      (src->height + 2 * ROW_PAIRS - 1) / (2 * ROW_PAIRS));
  median_registers_quad < T, RADIUS > <<<grid, block, smem, stream>>>
      (src->data, src->stride, dst->data, dst->stride, src->width,
      src->height, src->channels, border, filtered, order,
      CF_ALL_CHANNELS (src->channels) & ~mask, gate);
  return cf_launch_status ();
}

template < typename T > CfStatus
launch_depth (const CfPlane * src, const CfPlane * dst, int radius,
    CfBorder border, unsigned mask, const CfGateTile & gate,
    cudaStream_t stream)
{
  return cf_median_for_radius < 2, CF_MEDIAN_REGISTERS_MAX_RADIUS > (radius,
      [&](auto r) {
        return launch < T, decltype (r)::value > (src, dst, border, mask,
            gate, stream);
      });
}

}                               /* namespace */

CfStatus
cf_median_launch_registers_quad (const CfPlane * src, const CfPlane * dst,
    int radius, CfBorder border, unsigned mask, const CfGateTile & gate,
    cudaStream_t stream)
{
  return src->depth > 8 ?
      launch_depth < unsigned short > (src, dst, radius, border, mask, gate,
      stream) :
      launch_depth < unsigned char > (src, dst, radius, border, mask, gate,
      stream);
}
