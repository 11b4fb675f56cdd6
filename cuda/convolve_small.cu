/* 3x3 and 5x5 masks straight from global memory into registers, without
 * staging a tile in shared memory: cudaconvolve's small kernels and
 * cudagaussianblur's radii 1 and 2 (with its unsharp mask).
 *
 * A warp lies along a row. Each thread loads one vector of VB bytes (VS
 * samples) of each input row in one instruction; the halo it needs (K / 2
 * pixels a side, rounded up to whole words) comes from the neighbouring
 * lanes' vectors by warp shuffles, so lanes 1 to 30 filter and lanes 0
 * and 31 only load the halo around them. A thread makes R output rows from
 * the R + K - 1 input rows, each loaded and converted once, and requests
 * all of them before using the first (they are in flight together):
 *   - a full mask adds each input row into the K output rows it belongs to
 *     (K x K multiply-adds a sample);
 *   - a separable one (a mask of rank 1, or the Gaussian) filters the input
 *     row once with the row taps and adds that into the K output rows with
 *     the column taps (K + K a sample, the row part shared by K rows).
 * With the loops unrolled, only the K output rows in progress are live.
 *
 * Instruction count is what bounded the first version of this kernel (one
 * word a thread, ncu: issue-bound at 11% of DRAM bandwidth), hence:
 *   - an 8-bit sample becomes a float in one byte permute, as 2^15 + v,
 *     the 2^15 cancelled by the accumulator's start value (SmallArgs.bias);
 *     16-bit samples as cf_sample_float does (permute and subtract);
 *   - the result is scaled to [0, 1] with the saturating multiply-add, then
 *     rounded into the low mantissa bits of 2^23 by a second one, from
 *     which byte permutes pack the output words;
 *   - channels left as they are take their bytes from the input word with
 *     one logic operation a word.
 * The 2^15 costs precision: a product of a tap and 2^15 + v is rounded by
 * at most 2^-9 |tap| of a level, and so is each partial sum of them, so an
 * output is off by about 2^-8 sum |tap| at most (0.004 for a normalised
 * positive mask, 0.06 for the 3x3 Laplacian), inside the tests' 1 LSB
 * against the reference in double.
 *
 * Threads whose window reaches past either end of the row read those
 * samples through the border mode one by one; rows are read through it
 * too. Planes whose rows do not start on a vector boundary take the tiled
 * kernels. */
#include "convolve_small.cuh"
#include "gaussian_paths.h"
#include "cf_kernel.cuh"

namespace {

constexpr int BLOCK_Y = 4;      /* warps a block, one above the other */
constexpr int OUT_LANES = 30;   /* lanes of a warp that filter */
constexpr int MAX_K = 5;

struct SmallArgs {
  float taps[MAX_K * MAX_K];    /* full: K x K, row-major */
  float row[MAX_K], col[MAX_K]; /* separable */
  float bias;                   /* the accumulators' start (see above) */
  float offset;                 /* absolute: added before |.| */
  float offset_scaled;          /* offset / max */
  float inv_max, max;           /* the plane's full scale (cf_plane_max) */
  int absolute;
  float amount, threshold;      /* unsharp mask (cf_gaussian_finish); 0: none */
  CfBorder border;
  unsigned mask;
};

/* Bytes a thread loads from a row (one load: 16 holds a 5x5 halo of four
 * 16-bit channels) and output rows a thread, as measured best on an H100
 * (docs/cudaconvolve.md). */
template < typename T, int K > struct Shape {
  static constexpr int VB = sizeof (T) == 1 ? 8 : 16;
  static constexpr int R = 8;
};

/* The 2^15 carried by 8-bit samples (see above). */
template < typename T > __host__ __device__ constexpr float
sample_bias ()
{
  return sizeof (T) == 1 ? 32768.0f : 0.0f;
}

/* Sample j of a word as a float (plus sample_bias). */
template < typename T > __device__ __forceinline__ float
word_sample (uint32_t w, int j)
{
  if (sizeof (T) == 1)
    return __uint_as_float (__byte_perm (w, 0x47000000u, 0x7604u | j << 4));
  return __uint_as_float (__byte_perm (w, 0x4B000000u,
          0x7500u | (2 * j + 1) << 4 | 2 * j)) - 8388608.0f;
}

/* One sample as word_sample makes it. */
template < typename T > __device__ __forceinline__ float
one_sample (unsigned v)
{
  return sizeof (T) == 1 ? __uint_as_float (0x47000000u | v << 8) :
      cf_sample_float (v);
}

/* The word of samples [ws, ws + S) of a row (ws >= 0); samples past the
 * row's end read as 0. */
template < typename T > __device__ __forceinline__ uint32_t
load_word (const T * row, int ws, int samples)
{
  constexpr int S = 4 / sizeof (T);
  if (ws + S <= samples)
    return *(const uint32_t *) (row + ws);
  uint32_t v = 0;
#pragma unroll
  for (int k = 0; k < S; k++)
    if (ws + k < samples)
      v |= (uint32_t) row[ws + k] << (8 * sizeof (T) * k);
  return v;
}

/* VW words at p, aligned to VW * 4 bytes, in one load. */
template < int VW > __device__ __forceinline__ void
load_vector (uint32_t * w, const void *p)
{
  if (VW == 4) {
    const uint4 v = *(const uint4 *) p;
    w[0] = v.x;
    w[1] = v.y;
    w[2] = v.z;
    w[3] = v.w;
  } else {
    const uint2 v = *(const uint2 *) p;
    w[0] = v.x;
    w[1] = v.y;
  }
}

template < int VW > __device__ __forceinline__ void
store_vector (void *p, const uint32_t * w)
{
  if (VW == 4)
    *(uint4 *) p = make_uint4 (w[0], w[1], w[2], w[3]);
  else
    *(uint2 *) p = make_uint2 (w[0], w[1]);
}

__device__ __forceinline__ int
floor_div (int a, int b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Sample s of a row of `width` pixels of C channels, s outside the row,
 * through the border mode. */
template < typename T, int C > __device__ __forceinline__ float
border_sample (const T * row, int s, int width, CfBorder border)
{
  const int px = floor_div (s, C);
  return one_sample < T > (row[cf_border_index (px, width, border) * C + s -
          px * C]);
}

template < typename T, int C, int K, bool SEP, int VB, int R > __global__ void
__launch_bounds__ (32 * BLOCK_Y)
small_mask (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const SmallArgs a)
{
  constexpr int S = 4 / sizeof (T);     /* samples a word */
  constexpr int VW = VB / 4;    /* words a thread */
  constexpr int VS = VW * S;    /* samples a thread */
  constexpr int H = (K / 2) * C;        /* halo samples a side */
  constexpr int HW = (H + S - 1) / S;   /* halo words a side */
  constexpr int HS = HW * S;
  constexpr int ROWS = R + K - 1;       /* input rows */
  static_assert (HW <= VW, "the halo comes from the adjacent lanes only");
  /* in[i] is sample s0 - HS + i; those used are [HS - H, HS + VS + H). */
  constexpr int N = VS + 2 * HS;

  /* Lanes 1..30 filter; lanes 0 and 31 only load the halo around them. */
  const int lane = threadIdx.x;
  const int samples = width * C;
  const int s0 = (blockIdx.x * OUT_LANES + lane - 1) * VS;
  const int y0 = (blockIdx.y * BLOCK_Y + threadIdx.y) * R;
  if (y0 >= height)
    return;                     /* the whole warp */
  const bool filters = lane >= 1 && lane <= OUT_LANES && s0 < samples;
  const bool whole = s0 >= 0 && s0 + VS <= samples;
  const bool left_border = s0 == 0;     /* s0 - H < 0 (H <= VS) */
  const bool right_border = filters && s0 + VS + H > samples;

  /* Bytes of the output words that keep the input's (unfiltered channels). */
  uint32_t keep[VW];
#pragma unroll
  for (int q = 0; q < VW; q++) {
    keep[q] = 0;
#pragma unroll
    for (int k = 0; k < S; k++) {
      const int c = C == 3 ? (s0 + 3 * VS + q * S + k) % 3 : (q * S + k) % C;
      if (!((a.mask >> c) & 1u))
        keep[q] |= (sizeof (T) == 1 ? 0xFFu : 0xFFFFu) << (8 * sizeof (T) *
            k);
    }
  }

  /* Every input row's vector is requested before any is used: a thread's
   * rows are in flight together. Vectors not wholly inside the row are
   * read from its start here and word by word below. */
  int ys[ROWS];                 /* input row indices (a pointer takes two registers) */
  uint32_t raw[ROWS][VW];       /* input rows as loaded (the centre's kept) */
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    ys[r] = cf_border_index (y0 + r - K / 2, height, a.border);
    const T *row = cf_row < T > (src, src_stride, ys[r]);
    load_vector < VW > (raw[r], whole ? row + s0 : row);
  }

  float acc[R][VS];
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    const T *row = cf_row < T > (src, src_stride, ys[r]);
    uint32_t *w = raw[r];
    if (!whole) {
#pragma unroll
      for (int q = 0; q < VW; q++)
        w[q] = s0 >= 0 && s0 + q * S < samples ?
            load_word (row, s0 + q * S, samples) : 0;
    }
    uint32_t left[HW], right[HW];
#pragma unroll
    for (int q = 0; q < HW; q++) {
      left[q] = __shfl_up_sync (0xffffffffu, w[VW - HW + q], 1);
      right[q] = __shfl_down_sync (0xffffffffu, w[q], 1);
    }
    float in[N];
#pragma unroll
    for (int i = HS - H; i < HS + VS + H; i++) {
      const int j = i - HS;
      in[i] = word_sample < T > (j < 0 ? left[(i) / S] : j < VS ? w[j / S] :
          right[(j - VS) / S], i % S);
    }
    if (left_border) {
#pragma unroll
      for (int i = HS - H; i < HS; i++)
        in[i] = border_sample < T, C > (row, i - HS, width, a.border);
    }
    if (right_border) {
#pragma unroll
      for (int i = HS; i < HS + VS + H; i++)
        if (s0 - HS + i >= samples)
          in[i] = border_sample < T, C > (row, s0 - HS + i, width, a.border);
    }

    if (SEP) {
      float h[VS];
#pragma unroll
      for (int j = 0; j < VS; j++) {
        h[j] = fmaf (a.row[0], in[HS - H + j], a.bias);
#pragma unroll
        for (int kx = 1; kx < K; kx++)
          h[j] = fmaf (a.row[kx], in[HS - H + kx * C + j], h[j]);
      }
#pragma unroll
      for (int ky = 0; ky < K; ky++) {
        const int o = r - ky;   /* the output row this input row is ky of */
        if (o < 0 || o >= R)
          continue;
#pragma unroll
        for (int j = 0; j < VS; j++)
          acc[o][j] = ky == 0 ? a.col[0] * h[j] :
              fmaf (a.col[ky], h[j], acc[o][j]);
      }
    } else {
#pragma unroll
      for (int ky = 0; ky < K; ky++) {
        const int o = r - ky;
        if (o < 0 || o >= R)
          continue;
#pragma unroll
        for (int kx = 0; kx < K; kx++)
#pragma unroll
          for (int j = 0; j < VS; j++)
            acc[o][j] = fmaf (a.taps[ky * K + kx], in[HS - H + kx * C + j],
                ky == 0 && kx == 0 ? a.bias : acc[o][j]);
      }
    }

    /* Output row o is complete once its last input row is in. */
    const int o = r - (K - 1);
    if (o < 0 || y0 + o >= height || !filters)
      continue;
    const uint32_t *centre = raw[o + K / 2];
    float *v = acc[o];
    if (a.amount != 0.0f) {
#pragma unroll
      for (int j = 0; j < VS; j++)
        v[j] = cf_gaussian_finish (word_sample < T > (centre[j / S], j % S) -
            sample_bias < T > (), v[j], a.amount, a.threshold);
    }
    /* each result, rounded, in the low bits of its word */
    uint32_t b[VS];
    if (a.absolute) {
#pragma unroll
      for (int j = 0; j < VS; j++)
        b[j] = __float_as_uint (fmaf (__saturatef (fabsf (v[j] + a.offset) *
                    a.inv_max), a.max, 8388608.0f));
    } else {
#pragma unroll
      for (int j = 0; j < VS; j++)
        b[j] = __float_as_uint (fmaf (__saturatef (fmaf (v[j], a.inv_max,
                        a.offset_scaled)), a.max, 8388608.0f));
    }
    uint32_t out[VW];
#pragma unroll
    for (int q = 0; q < VW; q++) {
      const uint32_t packed = sizeof (T) == 1 ?
          __byte_perm (__byte_perm (b[4 * q], b[4 * q + 1], 0x0040u),
          __byte_perm (b[4 * q + 2], b[4 * q + 3], 0x0040u), 0x5410u) :
          __byte_perm (b[2 * q], b[2 * q + 1], 0x5410u);
      out[q] = (packed & ~keep[q]) | (centre[q] & keep[q]);
    }
    T *dst_row = cf_row < T > (dst, dst_stride, y0 + o);
    if (whole) {
      store_vector < VW > (dst_row + s0, out);
    } else {
#pragma unroll
      for (int j = 0; j < VS; j++)
        if (s0 + j < samples)
          dst_row[s0 + j] = (T) (out[j / S] >> (8 * sizeof (T) * (j % S)));
    }
  }
}

template < typename T, int C, int K, bool SEP > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const SmallArgs & a,
    cudaStream_t stream)
{
  typedef Shape < T, K > Sh;
  constexpr int VS = Sh::VB / sizeof (T);
  const int vectors = (src->width * C + VS - 1) / VS;
  const dim3 block (32, BLOCK_Y);
  const dim3 grid ((vectors + OUT_LANES - 1) / OUT_LANES,
      (src->height + BLOCK_Y * Sh::R - 1) / (BLOCK_Y * Sh::R));
  small_mask < T, C, K, SEP, Sh::VB, Sh::R > <<<grid, block, 0, stream>>>
      (src->data, src->stride, dst->data, dst->stride, src->width,
      src->height, a);
  return cf_launch_status ();
}

template < typename T, int K, bool SEP > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const SmallArgs & a, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch < T, 1, K, SEP > (src, dst, a, stream);
    case 2:
      return launch < T, 2, K, SEP > (src, dst, a, stream);
    case 3:
      return launch < T, 3, K, SEP > (src, dst, a, stream);
    default:
      return launch < T, 4, K, SEP > (src, dst, a, stream);
  }
}

template < typename T > CfStatus
launch_mask (const CfPlane * src, const CfPlane * dst, int k, bool sep,
    const SmallArgs & a, cudaStream_t stream)
{
  if (k == 3)
    return sep ? launch_channels < T, 3, true > (src, dst, a, stream) :
        launch_channels < T, 3, false > (src, dst, a, stream);
  return sep ? launch_channels < T, 5, true > (src, dst, a, stream) :
      launch_channels < T, 5, false > (src, dst, a, stream);
}

int
vector_bytes (const CfPlane * p, int k)
{
  if (p->depth > 8)
    return k == 3 ? Shape < unsigned short, 3 >::VB :
        Shape < unsigned short, 5 >::VB;
  return k == 3 ? Shape < unsigned char, 3 >::VB :
      Shape < unsigned char, 5 >::VB;
}

bool
fits (const CfPlane * src, const CfPlane * dst, int k)
{
  const unsigned vb = vector_bytes (src, k);
  return (k == 3 || k == 5) && ((uintptr_t) src->data | src->stride |
      (uintptr_t) dst->data | dst->stride) % vb == 0;
}

/* The scale, offset and bias of a mask whose taps sum to `sum`. */
void
set_output (SmallArgs * a, const CfPlane * dst, float offset, int absolute,
    double sum)
{
  a->max = (float) cf_plane_max (dst);
  a->inv_max = 1.0f / a->max;
  a->offset = offset;
  a->offset_scaled = offset * a->inv_max;
  a->absolute = absolute;
  a->bias = dst->depth > 8 ? 0.0f : (float) (-32768.0 * sum);
}

SmallArgs
convolve_args (const CfPlane * dst, const CfConvolvePlan * plan,
    const CfConvolveParams * params)
{
  const int k = plan->width;
  SmallArgs a = { };
  double sum = 0.0;
  if (plan->separable) {
    for (int i = 0; i < k; i++) {
      a.row[i] = plan->row[i];
      a.col[i] = plan->col[i];
      sum += plan->row[i];      /* the bias enters the row pass */
    }
  } else {
    for (int i = 0; i < k * k; i++) {
      a.taps[i] = plan->taps[i];
      sum += plan->taps[i];
    }
  }
  set_output (&a, dst, plan->offset, plan->absolute, sum);
  a.border = params->border;
  a.mask = params->channel_mask;
  return a;
}

/* The mask side: 5 where either radius is 2, else 3. */
int
gaussian_side (const CfGaussianParams * p)
{
  return p->radius_x == 2 || p->radius_y == 2 ? 5 : 3;
}

/* Both axes' weights over the k taps (zero past an axis' radius). */
SmallArgs
gaussian_args (const CfPlane * dst, const CfGaussianParams * p)
{
  const int k = gaussian_side (p);
  float wx[3] = { 1.0f }, wy[3] = { 1.0f };
  SmallArgs a = { };
  double sum = 0.0;
  if (p->radius_x > 0)
    cf_gaussian_weights (p->sigma_x, p->radius_x, wx);
  if (p->radius_y > 0)
    cf_gaussian_weights (p->sigma_y, p->radius_y, wy);
  for (int i = 0; i < k; i++) {
    const int d = i > k / 2 ? i - k / 2 : k / 2 - i;
    a.row[i] = d <= p->radius_x ? wx[d] : 0.0f;
    a.col[i] = d <= p->radius_y ? wy[d] : 0.0f;
    sum += a.row[i];
  }
  set_output (&a, dst, 0.0f, 0, sum);
  a.amount = (float) p->sharpen;
  a.threshold = (float) (p->threshold * a.max);
  a.border = p->border;
  a.mask = p->channel_mask;
  return a;
}

CfStatus
run (const CfPlane * src, const CfPlane * dst, int k, bool sep,
    const SmallArgs & a, cudaStream_t stream)
{
  return src->depth > 8 ?
      launch_mask < unsigned short > (src, dst, k, sep, a, stream) :
      launch_mask < unsigned char > (src, dst, k, sep, a, stream);
}

}                               /* namespace */

bool
cf_convolve_small_fits (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan)
{
  return plan->width == plan->height && fits (src, dst, plan->width);
}

CfStatus
cf_convolve_small (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream)
{
  return run (src, dst, plan->width, plan->separable, convolve_args (dst,
          plan, params), stream);
}

bool
cf_convolve_small_gaussian_fits (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  /* radius 2: the Gaussian's tile kernel is faster (H100, 4K GRAY8 5x5
   * 0.034 against 0.043 ms) */
  return p->radius_x <= 1 && p->radius_y <= 1
      && fits (src, dst, gaussian_side (p));
}

CfStatus
cf_convolve_small_gaussian (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p, cudaStream_t stream)
{
  return run (src, dst, gaussian_side (p), true, gaussian_args (dst, p),
      stream);
}
