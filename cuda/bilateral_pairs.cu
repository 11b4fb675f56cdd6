/* cudabilateral's separable mode by symmetric pairs (see the kernel's
 * comment), for one filtered channel and radii up to PAIR_R. */
#include "bilateral_kernels.cuh"

namespace bilateral {
namespace {

/* The separable filter for one filtered channel and radii up to PAIR_R,
 * by symmetric pairs. The weight between samples p and q is the same for
 * output p and for output q (same distance, and (-d) * (-d) == d * d), so
 * a thread that owns RUN consecutive outputs of a row (horizontal pass) or
 * of a column (vertical pass) computes each pair inside its run once, for
 * both ends, from values held in registers: per output r + r (r + 1) /
 * (2 RUN) exponentials instead of 2r (10.5 instead of 14 at radius 7), no
 * tap list and no per-tap shared-memory load. The pairs unroll over the
 * compile-time PAIR_R, the radius being a uniform guard. As in the fused
 * kernel, a block loads its tile with the halo (always PAIR_R columns),
 * rounds the horizontal pass of the tile's and the halo's rows into a
 * second tile, and runs the vertical pass over that. */
constexpr int RUN = 8;
/* = RUN: no pair within the radius has both ends outside a run. */
constexpr int PAIR_R = RUN;
constexpr int SPAN = RUN + 2 * PAIR_R;  /* a run's values, halo included */
/* Two runs of RUN rows per thread in the vertical pass: the halo rows'
 * horizontal pass (2 ry rows per tile) is spread over twice the outputs of
 * one run (measured at radius 7: 0.074 against 0.078 ms with one run). */
constexpr int RUNS_Y = 2;
constexpr int PAIRS_TILE_H = RUNS_Y * BLOCK_Y * RUN;
constexpr int RUNS_X = TILE_W / RUN;
/* Holds x0 - PAIR_R .. x0 + TILE_W + PAIR_R - 1; 4 mod 8 floats, so that
 * the 16-byte loads of a warp's 8 rows x 4 runs hit every bank once per
 * quarter warp. NARROW_PITCH (the intermediate) is 4 mod 8 too. */
constexpr int PAIRS_PITCH = TILE_W + 2 * PAIR_R + 4;

/* x rounded as cf_round_to rounds it (x + 0.5, clamped, truncated), as
 * the float 2^23 + result: its low bits are the integer, and minus 2^23
 * it is the value, with no conversion instruction. */
template < typename T > __device__ __forceinline__ float
round_biased (float x)
{
  return __fadd_rd (cf_round_up_clamped < T > (x), BIAS);
}

/* RUN consecutive outputs: v[PAIR_R + k] is output k's value, v[i] the
 * value at offset i - PAIR_R - k from it, as Pixel < T, 1 > stores it. */
template < typename T, bool VERTICAL > struct PairRun {
  typedef Pixel < T, 1 > P;
  float acc[RUN], wsum[RUN];

  __device__ __forceinline__ void filter (const float (&v)[SPAN], int r,
      const Args & a)
  {
#pragma unroll
    for (int k = 0; k < RUN; k++) {
      acc[k] = 0.0f;
      wsum[k] = 1.0f;
    }
#pragma unroll
    for (int d = 1; d <= PAIR_R; d++) {
      if (d > r)
        break;
      const float lws = VERTICAL ? a.ly[d] : a.lx[d];
      /* The pairs (i, i + d) with at least one end in the run. */
#pragma unroll
      for (int i = PAIR_R - d; i < PAIR_R + RUN; i++) {
        const float dv = v[i + d] - v[i];
        const float w = fast_exp2 (P::exponent (dv, lws, a));
        if (i >= PAIR_R) {
          acc[i - PAIR_R] = fmaf (w, dv, acc[i - PAIR_R]);
          wsum[i - PAIR_R] += w;
        }
        if (i + d < PAIR_R + RUN) {
          acc[i + d - PAIR_R] = fmaf (-w, dv, acc[i + d - PAIR_R]);
          wsum[i + d - PAIR_R] += w;
        }
      }
    }
  }

  /* Output k rounded to the sample type, biased (round_biased). */
  __device__ __forceinline__ float result (int k, float cen,
      const Args & a) const
  {
    return round_biased < T > (P::value (cen, __fdividef (acc[k], wsum[k]),
            a));
  }

  /* Output k as the tile stores it. */
  __device__ __forceinline__ float packed (int k, float cen,
      const Args & a) const
  {
    const float b = result (k, cen, a);
    return sizeof (T) == 1 ? (b - BIAS) * a.scale : b;
  }
};

/* Loads the pairs kernel's tile (columns x0 - PAIR_R .. x0 + TILE_W +
 * PAIR_R - 1) of a one-channel plane with word-aligned rows, for a block
 * whose tile lies inside the image: no border mapping, a 32-bit word of
 * pixels per load, stored as the kernel's floats 16 or 8 bytes at a time.
 * Says whether every sample equals the tile's first. */
template < typename T > __device__ __forceinline__ bool
load_inner_tile (const void *src, size_t stride, int x0, int y0, int rows,
    const Args & a, float *tile)
{
  constexpr int G = 4 / sizeof (T);     /* pixels per word */
  constexpr int SLOTS = (TILE_W + 2 * PAIR_R) / G;
  const unsigned char *base = cf_row < unsigned char >(src, stride,
      y0 - a.ry) + (x0 - PAIR_R) * (int) sizeof (T);
  /* the first sample in every slot of the word */
  const unsigned first = *(const T *) base * (G == 4 ? 0x01010101u :
      0x00010001u);
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;
  bool same = true;

#pragma unroll 4
  for (int i = tid; i < SLOTS * rows; i += THREADS) {
    const int r = i / SLOTS, slot = i - r * SLOTS;
    const unsigned w = *(const unsigned *) (base + (size_t) r * stride +
        4 * slot);
    same &= w == first;
    float *out = tile + r * PAIRS_PITCH + G * slot;
    if (G == 4) {
      float f[4];
#pragma unroll
      for (int p = 0; p < 4; p++)
        f[p] = (__uint_as_float (__byte_perm (w, 0x4B000000u, 0x7540 + p)) -
            BIAS) * a.scale;
      *(float4 *) out = make_float4 (f[0], f[1], f[2], f[3]);
    } else {
      *(float2 *) out = make_float2 (biased_half (w, 0), biased_half (w, 1));
    }
  }
  return same;
}

/* At most 64 registers, for 4 blocks per SM (the tile's shared memory
 * allows 4 on the H100; unbounded, 78 registers allow 3: 0.077 against
 * 0.074 ms at radius 7). */
template < typename T > __global__ void
__launch_bounds__ (THREADS, 4)
bilateral_pairs (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const Args a)
{
  extern __shared__ float2 smem[];
  float *tile = (float *) smem;
  float *mid = tile + PAIRS_PITCH * (PAIRS_TILE_H + 2 * a.ry);
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * PAIRS_TILE_H;
  const TileShape ts (a, x0, PAIRS_TILE_H, PAIR_R);
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;

  bool same;
  if (a.channels == 1 && a.word_pixels > 0 && x0 >= PAIR_R
      && x0 + TILE_W + PAIR_R <= width && y0 >= a.ry
      && y0 + PAIRS_TILE_H + a.ry <= height) {
    same = load_inner_tile < T > (src, src_stride, x0, y0, ts.rows, a, tile);
  } else {
    const float first = first_pixel < T, 1 > (src, src_stride, width,
        height, x0, y0, a);
    same = load_tile < T, 1, PAIRS_PITCH > (src, src_stride, width, height,
        y0, ts, a, tile, first);
  }
  const bool flat = __syncthreads_and (same);

  /* Horizontal: runs of RUN outputs over the tile's and the halo's rows,
   * rounded into mid (column k is the tile's column PAIR_R + k). */
  for (int q = tid; q < RUNS_X * ts.rows; q += THREADS) {
    const int row = q / RUNS_X, x = q % RUNS_X * RUN;
    const float4 *in = (const float4 *) (tile + row * PAIRS_PITCH + x);
    float v[SPAN];
#pragma unroll
    for (int m = 0; m < SPAN / 4; m++) {
      const float4 f = in[m];
      v[4 * m] = f.x;
      v[4 * m + 1] = f.y;
      v[4 * m + 2] = f.z;
      v[4 * m + 3] = f.w;
    }
    PairRun < T, false > h;
    h.filter (v, flat ? 0 : a.rx, a);
    float4 *out = (float4 *) (mid + row * NARROW_PITCH + x);
#pragma unroll
    for (int m = 0; m < RUN / 4; m++)
      out[m] = make_float4 (h.packed (4 * m, v[PAIR_R + 4 * m], a),
          h.packed (4 * m + 1, v[PAIR_R + 4 * m + 1], a),
          h.packed (4 * m + 2, v[PAIR_R + 4 * m + 2], a),
          h.packed (4 * m + 3, v[PAIR_R + 4 * m + 3], a));
  }
  __syncthreads ();

  /* Vertical: column threadIdx.x, runs of RUN consecutive rows. */
  const int ry = flat ? 0 : a.ry;
  const int x = x0 + threadIdx.x;
  if (x >= width)
    return;
#pragma unroll 1
  for (int part = 0; part < RUNS_Y; part++) {
    const int r0 = RUN * (threadIdx.y + BLOCK_Y * part);  /* in the tile */
    const int top = a.ry + r0 - PAIR_R;      /* mid row of v[0] */
    float v[SPAN];
#pragma unroll
    for (int i = 0; i < SPAN; i++)
      v[i] = i >= PAIR_R - ry && i < PAIR_R + RUN + ry ?
          mid[(top + i) * NARROW_PITCH + threadIdx.x] : 0.0f;
    PairRun < T, true > col;
    col.filter (v, ry, a);

    const int y = y0 + r0, n = min (RUN, height - y);
    if (a.copy_others)
      for (int k = 0; k < n; k++) {
        const T *in = cf_row < T > (src, src_stride, y + k) + (size_t) x *
            a.channels;
        T *out = cf_row < T > (dst, dst_stride, y + k) + (size_t) x *
            a.channels;
        for (int c = 0; c < a.channels; c++)
          if (c != a.chan[0])
            out[c] = in[c];
      }
    unsigned char *out = (unsigned char *) (cf_row < T > (dst, dst_stride,
            y) + (size_t) x * a.channels + a.chan[0]);
#pragma unroll
    for (int k = 0; k < RUN; k++) {
      if (k >= n)
        break;
      *(T *) (out + k * dst_stride) = (T) (__float_as_uint (col.result (k,
                  v[PAIR_R + k], a)) & 0xFFFFu);
    }
  }
}

/* The tile and the intermediate, with the halo rows. */
size_t
pairs_smem (const Args & a)
{
  return sizeof (float) * (PAIRS_PITCH + NARROW_PITCH) * (PAIRS_TILE_H +
      2 * a.ry);
}

}                               /* namespace */

bool
pairs_fit (const Args & a, size_t limit)
{
  return a.rx <= PAIR_R && a.ry <= PAIR_R && pairs_smem (a) <= limit;
}

template < typename T > CfStatus
launch_pairs (const CfPlane * src, const CfPlane * dst, const Args & a,
    const Target & t)
{
  return run < bilateral_pairs < T > > (src, dst, a, PAIRS_TILE_H,
      pairs_smem (a), t);
}

template CfStatus launch_pairs < unsigned char > (const CfPlane *,
    const CfPlane *, const Args &, const Target &);
template CfStatus launch_pairs < unsigned short > (const CfPlane *,
    const CfPlane *, const Args &, const Target &);

}                               /* namespace bilateral */
