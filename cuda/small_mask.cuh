/* The vector kernel for 3x3 and 5x5 masks (the Gaussian's radii 1 and 2,
 * cudaconvolve's full 3x3 and 5x5), and 7x7 ones with integer taps on
 * 8-bit samples, without shared memory or barriers.
 *
 * A thread owns one VB-byte vector of a row (small_mask.cu runs 8 bytes of
 * 8-bit samples, 16 of 16-bit ones: 8 samples) down a strip of ROWS rows.
 * The R pixels either side of a vector come from the neighbouring lanes
 * (warp shuffles). On 8-bit samples a warp's 32 vectors overlap its
 * neighbours' by one on each side (two for a 7x7 on four channels, whose
 * halo takes two vectors): lanes 1 to 30 write, lanes 0 and 31 only
 * load the halo the others need, so no lane waits on a halo load of its own,
 * and where they fit (AHEAD) a thread issues its strip's loads (one aligned
 * vector a row) before it filters any row, so they are in flight together.
 * On 16-bit samples all 32 lanes write and lanes 0 and 31 (and the row's
 * last vector) load the words beyond. Each input row adds its taps to an
 * accumulator per output row of the strip, so a strip reads each of its rows
 * once plus 2R halo rows (L2 hits: the strip below runs next). The Gaussian
 * runs as its full mask too (the outer product of its half kernels, then the
 * unsharp step): the separable form, which kept 2R + 1 filtered rows in
 * registers, was slower on every plane measured (tests/micro_small_mask.cu).
 * Samples become floats by a byte permute under 2^23 and results are rounded
 * and clamped as 2^23 + value, without the quarter-rate conversions. On
 * 8-bit samples integer taps skip the floats: a row's words are split
 * into a stream of bytes a channel, and each output sample adds one
 * mask row's taps as dot products of those words with tap words that
 * hold the taps at the sample's byte offset (dp4a: cudaconvolve's integer
 * taps, exact; dp2a: the Gaussian's 15-bit fixed-point weights), which
 * took 4K GRAY8 5x5 from 0.027 to 0.020 (integer) and 0.022 ms
 * (fixed-point), RGBA 5x5 from 0.078 to 0.053 and 0.057 (H100,
 * tests/micro_small_mask). Vectors
 * that reach past a row's ends read sample by sample through the border
 * mode, so any width works; rows must start VB-aligned (cf_small_mask_fits).
 *
 * Included by small_mask.cu (the variants the filters use) and by the
 * microbenchmark tests/micro_small_mask.cu (the variants measured). */
#ifndef CF_SMALL_MASK_CUH
#define CF_SMALL_MASK_CUH

#include "cf_kernel.cuh"
#include "cf_border.h"
#include "cf_border_near.cuh"
#include "cf_dot.cuh"
#include "gaussian_paths.h"
#include "small_mask_args.h"

#include <type_traits>

namespace cf_small_mask {

/* Whether warps overlap (8-bit samples: H100 and H200,
 * tests/micro_small_mask and bench_convolve; on 16-bit ones the overlap
 * was level on 3x3 and 1.2x slower on the full 5x5, H200, with 72
 * registers against 64: the two were not separated). */
template < typename T > __host__ __device__ constexpr bool
overlapping ()
{
  return sizeof (T) == 1;
}

/* Lanes at either end of a warp that only load the halo where warps
 * overlap: enough vectors (VB bytes) for R pixels of C samples; 1 up to
 * 7x7 masks on one and two channels and 5x5 on four, 2 for 7x7 on four. */
template < typename T, int C, int R, int VB > __host__ __device__
    constexpr int
overlap_lanes ()
{
  constexpr int SW = 4 / sizeof (T), W = VB / 4;
  constexpr int NW = (R * C + SW - 1) / SW;
  return overlapping < T > ()? (NW + W - 1) / W : 0;
}

/* Vectors a warp writes: all but the overlap's. */
template < typename T, int C, int R, int VB > __host__ __device__
    constexpr int
warp_vectors ()
{
  return 32 - 2 * overlap_lanes < T, C, R, VB > ();
}


template < int VB > struct Vec;
template <> struct Vec <16> {
  typedef uint4 type;
};
template <> struct Vec <8> {
  typedef uint2 type;
};
template <> struct Vec <4> {
  typedef unsigned type;
};

/* Sample j of a 32-bit word as a float (cf_sample_float's trick: the
 * sample's bytes under the exponent of 2^23, one byte permute). */
template < typename T > __device__ __forceinline__ float
word_sample (unsigned word, int j)
{
  const unsigned sel = sizeof (T) == 1 ? 0x7540u | j :
      0x7500u | (2 * j + 1) << 4 | 2 * j;
  return __uint_as_float (__byte_perm (word, 0x4B000000u, sel)) -
      8388608.0f;
}

/* The word of a row from sample s, sample by sample through the border
 * mode. */
template < typename T, int C > __device__ __forceinline__ unsigned
edge_word (const T * row, int s, int width, CfBorder border)
{
  constexpr int SW = 4 / sizeof (T);
  unsigned v = 0;
#pragma unroll
  for (int j = 0; j < SW; j++) {
    const int px = cf_floor_div (s + j, C);
    const unsigned x = row[cf_border_index (px, width, border) * C + s + j -
        px * C];
    v |= x << (j * 8 * sizeof (T));
  }
  return v;
}

template < typename T, int C > __device__ __noinline__ unsigned
edge_word_far (const T * row, int s, int width, CfBorder border)
{
  return edge_word < T, C > (row, s, width, border);
}

/* Whether the kernel's rarely run edge arithmetic (words and rows through
 * the border mode) is out of line: on 5x5 masks, where inlined at each of
 * the strip's loads it made the kernel larger (tests/micro_small_mask,
 * H100, 4K, ms: GRAY8 0.033 -> 0.027, GRAY16 0.031 -> 0.028, RGBA 0.086 ->
 * 0.079), not on 3x3 (GRAY8 0.018 -> 0.020, RGBA 0.050 -> 0.053). */
template < int R > __host__ __device__ constexpr bool
edges_out_of_line ()
{
  return R >= 2;
}

/* N words of a row from sample s (a multiple of a word's samples): one
 * load each where they lie inside the row, else sample by sample through
 * the border mode. */
template < typename T, int C, int N, bool FAR > __device__ __forceinline__ void
load_words (unsigned *w, const T * row, int s, int samples, int width,
    CfBorder border)
{
  constexpr int SW = 4 / sizeof (T);
  if (s >= 0 && s + N * SW <= samples) {
    const unsigned *p = (const unsigned *) (row + s);
    if (N == 4) {
      const uint4 v = *(const uint4 *) p;
      w[0] = v.x;
      if (N > 1) w[1 % N] = v.y;
      if (N > 2) w[2 % N] = v.z;
      if (N > 3) w[3 % N] = v.w;
    } else if (N == 2) {
      const uint2 v = *(const uint2 *) p;
      w[0] = v.x;
      w[1 % N] = v.y;
    } else {
#pragma unroll
      for (int k = 0; k < N; k++)
        w[k] = p[k];
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < N; k++)
    w[k] = FAR ? edge_word_far < T, C > (row, s + k * SW, width, border) :
        edge_word < T, C > (row, s + k * SW, width, border);
}

/* An integer sum's accumulator starts at the bits of 1.5 * 2^23 (the sum
 * stays within 2^22 of zero), so that its bits read as a float are that
 * float plus the sum: no conversion instruction. */
constexpr int INT_BIAS = 0x4B400000;
constexpr float INT_BIAS_FLOAT = 12582912.0f;

/* The row's words from its sample -E (seg, NS words) as one stream of
 * bytes a channel: byte b of stream c is sample b * C + c of seg. Only
 * the channels computed (CMASK). */
template < int C, int NS, unsigned CMASK > __device__ __forceinline__ void
channel_streams (const unsigned *seg, unsigned (*st)[(NS + C - 1) / C])
{
  constexpr int M = (NS + C - 1) / C;   /* words a stream */
  auto word =[&](int k) {
    return k < NS ? seg[k] : 0u;
  };
#pragma unroll
  for (int c = 0; c < C; c++) {
    if (!((CMASK >> c) & 1u))
      continue;
#pragma unroll
    for (int m = 0; m < M; m++) {
      if (C == 1) {
        st[c][m] = seg[m];
      } else if (C == 2) {
        st[c][m] = __byte_perm (word (2 * m), word (2 * m + 1),
            c ? 0x7531u : 0x6420u);
      } else {
        /* byte c of four words: two pairs, then the pairs' low halves */
        const unsigned sel = (4u + c) << 4 | c;
        const unsigned lo = __byte_perm (word (4 * m), word (4 * m + 1), sel);
        const unsigned hi = 4 * m + 2 < NS ? __byte_perm (word (4 * m + 2),
            word (4 * m + 3), sel) : 0u;
        st[c][m] = __byte_perm (lo, hi, 0x5410u);
      }
    }
  }
}

/* CMASK: the channels computed (C dividing the vector's samples); the
 * others are copied whatever a.mask says, so RGBA with alpha left as it
 * is skips a quarter of the arithmetic. TAPS (a.tap_bits): 0, float taps
 * on samples converted to floats; on 8-bit samples, 8, integer taps
 * summed exactly by byte dot products (a.tw), or 16, the Gaussian's
 * weights as 16-bit taps of 15 fractional bits (a.tw2) by two-way dot
 * products, no sample converted to a float. */
template < typename T, int C, int R, int VB, int ROWS,
    unsigned CMASK = 0xFu, bool SHARPEN = false, int TAPS = 0 >
    __global__ void
__launch_bounds__ (128)
kernel (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const CfMaskArgs a)
{
  constexpr int K = 2 * R + 1;
  constexpr int SW = 4 / sizeof (T);    /* samples a word */
  constexpr int W = VB / 4;     /* words a vector */
  constexpr int V = VB / sizeof (T);    /* samples a vector */
  constexpr int H = R * C;      /* halo samples a side */
  constexpr int NW = (H + SW - 1) / SW; /* halo words a side */
  constexpr int E = NW * SW;    /* samples loaded a side */
  constexpr int N = V + 2 * E;
  constexpr bool OVERLAP = overlapping < T > ();
  constexpr int OV = overlap_lanes < T, C, R, VB > ();
  constexpr int WV = warp_vectors < T, C, R, VB > ();
  /* Every row's load issued before the first row is filtered, where warps
   * overlap and the strip's words fit 16 registers. */
  constexpr bool AHEAD = OVERLAP && (ROWS + 2 * R) * W <= 16;
  constexpr bool FAR = edges_out_of_line < R > ();
  auto row_index =[](int y, int height, CfBorder border) {
    return FAR ? cf_border_index_near (y, height, border) :
        cf_border_index (y, height, border);
  };
  static_assert (OVERLAP || NW <= W, "the halo fits one neighbouring vector");
  constexpr bool INT = TAPS != 0;
  static_assert (!INT || (sizeof (T) == 1 && OVERLAP && !SHARPEN),
      "integer taps on 8-bit samples, without the unsharp step");
  static_assert (CMASK == 0xFu || V % C == 0, "channels known per sample");
  auto computed =[](int i) {
    return ((CMASK >> (i % C)) & 1u) != 0;
  };

  const int lane = threadIdx.x % 32;
  const int samples = width * C;
  /* The thread's vector; the warp's first lies inside the row. Kept in
   * this form: through a named thread or warp index the 16-bit variants
   * took 72 registers instead of 64 and GRAY16 3x3 ran 8% slower. */
  const int s0 = (OVERLAP ? (blockIdx.x * blockDim.x + threadIdx.x) / 32 * WV +
      lane - OV : blockIdx.x * blockDim.x + threadIdx.x) * V;
  if (s0 - (lane - OV) * V >= samples)
    return;                     /* the whole warp lies past the row */
  const int y0 = blockIdx.y * ROWS;
  const bool writes = (!OVERLAP || (lane >= OV && lane < 32 - OV))
      && s0 < samples;
  /* Without the overlap, lanes past the row load nothing: the row's last
   * vector reads its right halo itself, as lane 31 does. */
  const bool loads = OVERLAP || writes;
  const bool whole = s0 + V <= samples;
  const float top = 8388608.0f + a.max; /* the largest result, biased */

  typedef typename std::conditional < INT, int, float >::type Acc;
  Acc acc[ROWS][V];             /* the strip's output rows */
  unsigned raw[R + 1][W] = { };       /* unfiltered rows y - R .. y */
  /* Rows are loaded at the thread's vector (the overlap's edge lanes'
   * through the border mode where they lie outside the row). */
  unsigned ahead[AHEAD ? ROWS + 2 * R : 1][AHEAD ? W : 1];
  if constexpr (AHEAD) {
#pragma unroll
    for (int j = 0; j < ROWS + 2 * R; j++) {
      const int y = y0 - R + j;
      if (y - R < height)
        load_words < T, C, W, FAR > (ahead[j], cf_row < T > (src, src_stride,
                row_index (y, height, a.border)), s0, samples,
            width, a.border);
    }
  }

#pragma unroll
  for (int j = 0; j < ROWS + 2 * R; j++) {
    const int y = y0 - R + j;
    if (y - R >= height)
      break;                    /* uniform: no output row left */
    const T *row = cf_row < T > (src, src_stride,
        row_index (y, height, a.border));
    unsigned w[W] = { };
    if constexpr (AHEAD) {
#pragma unroll
      for (int k = 0; k < W; k++)
        w[k] = ahead[j][k];
    } else if (loads) {
      load_words < T, C, W, FAR > (w, row, s0, samples, width, a.border);
    }
    /* halo word k of either side: word j of the vector d lanes away */
    unsigned l[NW], r[NW];
#pragma unroll
    for (int k = 0; k < NW; k++) {
      const int dl = (NW - k + W - 1) / W, jl = k - NW + dl * W;
      const int dr = (W + k) / W, jr = W + k - dr * W;
      l[k] = __shfl_up_sync (0xffffffffu, w[jl], dl);
      r[k] = __shfl_down_sync (0xffffffffu, w[jr], dr);
    }
    if (!OVERLAP) {
      if (lane == 0)
        load_words < T, C, NW, FAR > (l, row, s0 - E, samples, width, a.border);
      if (lane == 31 || (writes && s0 + V >= samples))
        load_words < T, C, NW, FAR > (r, row, s0 + V, samples, width, a.border);
    }
    float f[INT ? 1 : N];
    constexpr int NS = W + 2 * NW;      /* the row's words from sample -E */
    unsigned st[C][(NS + C - 1) / C];   /* and as a stream a channel */
    if constexpr (INT) {
      unsigned seg[NS];
#pragma unroll
      for (int k = 0; k < NW; k++) {
        seg[k] = l[k];
        seg[NW + W + k] = r[k];
      }
#pragma unroll
      for (int k = 0; k < W; k++)
        seg[NW + k] = w[k];
      channel_streams < C, NS, CMASK > (seg, st);
    } else {
#pragma unroll
      for (int k = 0; k < NW; k++)
#pragma unroll
        for (int i = 0; i < SW; i++) {
          f[k * SW + i] = word_sample < T > (l[k], i);
          f[E + V + k * SW + i] = word_sample < T > (r[k], i);
        }
#pragma unroll
      for (int k = 0; k < W; k++)
#pragma unroll
        for (int i = 0; i < SW; i++)
          f[E + k * SW + i] = word_sample < T > (w[k], i);
    }

#pragma unroll
    for (int t = 0; t < R; t++)
#pragma unroll
      for (int k = 0; k < W; k++)
        raw[t][k] = raw[t + 1][k];
#pragma unroll
    for (int k = 0; k < W; k++)
      raw[R][k] = w[k];

    /* input row j is row ky of output row j - ky of the strip */
#pragma unroll
    for (int ky = 0; ky < K; ky++) {
      const int o = j - ky;
      if (o < 0 || o >= ROWS)
        continue;
#pragma unroll
      for (int i = 0; i < V; i++) {
        if (!computed (i))
          continue;
        if constexpr (INT) {
          /* the words of sample i's channel stream that hold its pixel's
           * neighbours -R .. R, the first at byte al of word base */
          const int b0 = E / C + i / C - R;
          const int al = b0 % 4, base = b0 / 4;
          const unsigned *sw = st[i % C] + base;
          int s = ky > 0 ? acc[o][i] : TAPS == 8 ? INT_BIAS : 0;
          if (TAPS == 8) {
#pragma unroll
            for (int g = 0; g <= (al + 2 * R) / 4; g++)
              s = cf_dot4 (sw[g], a.tw[ky][al][g], s);
          } else {
            /* the byte pairs holding bytes al .. al + 2R */
#pragma unroll
            for (int p = al / 2; p <= (al + 2 * R) / 2; p++)
              s = p % 2 ? cf_dot2 < 1 > (a.tw2[ky][al][p], sw[p / 2], s) :
                  cf_dot2 < 0 > (a.tw2[ky][al][p], sw[p / 2], s);
          }
          acc[o][i] = s;
          continue;
        }
        float s = ky == 0 ? 0.0f : acc[o][i];
#pragma unroll
        for (int kx = 0; kx < K; kx++)
          s = fmaf (a.taps[ky * K + kx], f[E + i + (kx - R) * C], s);
        acc[o][i] = s;
      }
    }
    if (j < 2 * R)
      continue;
    const int yo = y - R;       /* the output row complete after this row */
    if (yo >= height || !writes)
      continue;
    const int o = j - 2 * R;
    /* Each result as the bits of 2^23 + value: rounded (v + 0.5 added
     * toward zero to 2^23, so floor (v + 0.5) as cf_round_up_clamped) and
     * clamped as floats, without the quarter-rate float-to-int
     * instruction; channels copied keep the input's bits. */
    unsigned res[V];
#pragma unroll
    for (int i = 0; i < V; i++) {
      const unsigned sel = sizeof (T) == 1 ? 0x7540u | (i % SW) :
          0x7500u | (2 * (i % SW) + 1) << 4 | 2 * (i % SW);
      const unsigned in_bits = __byte_perm (raw[0][i / SW], 0x4B000000u, sel);
      if (!computed (i)) {
        res[i] = in_bits;
        continue;
      }
      if (TAPS == 16) {
        /* the fixed-point sum rounded, nonnegative */
        const unsigned q = min ((unsigned) (acc[o][i] + (1 <<
                    (CF_TAP_FIXED_BITS - 1))) >> CF_TAP_FIXED_BITS,
            (unsigned) a.max);
        const bool filtered = (a.mask >> ((s0 + i) % C)) & 1u;
        res[i] = filtered ? q : in_bits;
        continue;
      }
      float v = INT ? fmaf (__int_as_float (acc[o][i]) - INT_BIAS_FLOAT,
          a.scale, a.offset) : acc[o][i] + a.offset;
      v = a.absolute ? fabsf (v) : v;
      if (SHARPEN)
        v = cf_gaussian_finish (__uint_as_float (in_bits) - 8388608.0f, v,
            a.amount, a.threshold);
      const float q = fminf (fmaxf (__fadd_rz (v + 0.5f, 8388608.0f),
              8388608.0f), top);
      const bool filtered = (a.mask >> ((s0 + i) % C)) & 1u;
      res[i] = filtered ? __float_as_uint (q) : in_bits;
    }
    T *out = cf_row < T > (dst, dst_stride, yo) + s0;
    if (whole) {
      unsigned pw[W];
#pragma unroll
      for (int k = 0; k < W; k++) {
        const unsigned *b = res + k * SW;
        pw[k] = sizeof (T) == 1 ? __byte_perm (__byte_perm (b[0], b[1 % SW],
                0x0040u), __byte_perm (b[2 % SW], b[3 % SW], 0x0040u),
            0x5410u) : __byte_perm (b[0], b[1 % SW], 0x5410u);
      }
      if (W == 4)
        *(uint4 *) out = make_uint4 (pw[0], pw[1 % W], pw[2 % W], pw[3 % W]);
      else if (W == 2)
        *(uint2 *) out = make_uint2 (pw[0], pw[1 % W]);
      else
        *(unsigned *) out = pw[0];
    } else {
#pragma unroll
      for (int i = 0; i < V; i++)
        if (s0 + i < samples)
          out[i] = (T) res[i];
    }
  }
}

/* Threads across a block (one row of vectors; strips of ROWS rows down
 * the grid). */
constexpr int BLOCK = 128;

template < typename T, int C, int R, int VB, int ROWS,
    unsigned CMASK = 0xFu, bool SHARPEN = false, int TAPS = 0 > void
launch (const void *src, size_t src_stride, void *dst, size_t dst_stride,
    int width, int height, const CfMaskArgs & a, cudaStream_t stream)
{
  constexpr int V = VB / sizeof (T);
  const int vectors = (width * C + V - 1) / V;
  constexpr int WV = warp_vectors < T, C, R, VB > ();
  const int threads = (vectors + WV - 1) / WV * 32;
  const dim3 grid ((threads + BLOCK - 1) / BLOCK,
      (height + ROWS - 1) / ROWS);
  kernel < T, C, R, VB, ROWS, CMASK, SHARPEN, TAPS > <<<grid, BLOCK, 0, stream>>> (src,
      src_stride, dst, dst_stride, width, height, a);
}

}                               /* namespace cf_small_mask */

#endif /* CF_SMALL_MASK_CUH */
