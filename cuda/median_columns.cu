/* Exact medians of square windows from 11 x 11 to 31 x 31, 8 or 16 bits
 * alike, by sorted columns and a cut per output.
 *
 * A block keeps, for each of its OUT + 2 r sample columns, the k samples of
 * the current window rows in order (one removal and one insertion per row,
 * by the column's thread). Each thread owns one output column over a strip
 * of rows and carries a cut through its k window columns from row to row:
 * p[c] samples of column c below it, every one of them at most every
 * sample above, and the median m next to it. A new row moves p[c] by the
 * column's sample that left and the one that came (compares with m); then
 * the cut steps, moving the smallest head above it under it or the largest
 * below it over it, until the sample of the median's rank is next to it.
 * On noise the median moves by a few samples a row; on smooth pictures by
 * about a window row, so there the cut first jumps by the last row's move.
 * The work per output is about k compares plus k per step, whatever the
 * depth: no histogram. Its cost is the steps: lanes of a warp need
 * different numbers of them, and the warp runs the most any lane needs. */
#include "median_kernels.cuh"
#include "median_sorted.cuh"
#include "median_forgetful.cuh"

namespace {

constexpr int OUT = 64;         /* output columns (threads) per block */
constexpr int STRIP = 64;       /* output rows per block */

/* One output's cut through its k sorted window columns (column c at
 * w[c * K]): p[c] samples of column c lie below it, l in all, and every
 * sample below is at most every sample above. hi[c] is column c's smallest
 * sample above the cut (NO_HI when none), lo[c] one more than its largest
 * below (0 when none), both kept in registers so that a step reads only the
 * column it moves. */
constexpr unsigned NO_HI = 0x30000u;    /* above any sample, any FLIP - lo */
constexpr unsigned FLIP = 0x20000u;     /* min (FLIP - lo) is the largest lo */

template < int K > struct Cut {
  const unsigned short *w;
  int p[K], l;
  unsigned hi[K], lo[K];

  __device__ void load (int c) {
    hi[c] = p[c] < K ? w[c * K + p[c]] : NO_HI;
    lo[c] = p[c] > 0 ? w[c * K + p[c] - 1] + 1u : 0u;
  }
  __device__ void rise (int c) {
    lo[c] = hi[c] + 1;
    p[c]++;
    l++;
    hi[c] = p[c] < K ? w[c * K + p[c]] : NO_HI;
  }
  __device__ void fall (int c) {
    hi[c] = lo[c] - 1;
    p[c]--;
    l--;
    lo[c] = p[c] > 0 ? w[c * K + p[c] - 1] + 1u : 0u;
  }

  /* Moves the cut until the sample of rank `rank` is next to it and
   * returns that sample. Each step moves, in every column whose head is the
   * smallest above the cut (or the largest below), that head across: ties
   * move together, one column deep a step. */
  __device__ unsigned settle (int rank) {
    for (;;) {
      const bool up = l <= rank;
      unsigned t = ~0u;
#pragma unroll
      for (int c = 0; c < K; c++)
        t = min (t, up ? hi[c] : FLIP - lo[c]);
      int n = 0;
#pragma unroll
      for (int c = 0; c < K; c++)
        n += (up ? hi[c] : FLIP - lo[c]) == t;
      /* t is the median if, going up, the n samples of value t above the
       * cut pass the rank, or, going down, the cut without the n samples
       * of value t (the largest below it) no longer does. */
      if (up ? l + n > rank : l - n <= rank)
        return up ? t : FLIP - t - 1;
#pragma unroll
      for (int c = 0; c < K; c++)
        if ((up ? hi[c] : FLIP - lo[c]) == t) {
          if (up)
            rise (c);
          else
            fall (c);
        }
    }
  }

  /* Moves every sample below g under the cut (or every one above g over
   * it), column by column: on smooth pictures the median moves by about
   * the same amount every row, so this lands near the rank in one pass. */
  __device__ void jump (unsigned g, bool up) {
#pragma unroll
    for (int c = 0; c < K; c++) {
      if (up)
        while (hi[c] < g)
          rise (c);
      else
        while (lo[c] > g + 1)
          fall (c);
    }
  }
};

/* The median of the K columns' middle samples (columns w, K x K), by the
 * register kernels' forgetful selection: K / 2 + 2 live values, then the
 * middle of the last 3. */
template < int K > __device__ unsigned
median_of_column_medians (const unsigned short *w)
{
  constexpr int LIVE = K / 2 + 2;
  auto middle = [&](int c)->unsigned {
    return w[c * K + K / 2];
  };
  unsigned v[LIVE];
#pragma unroll
  for (int c = 0; c < LIVE; c++)
    v[c] = middle (c);
  cf_median_forget < LIVE, K - LIVE > (v, middle, LIVE);
  cf_median_min_max < 3 > (v);
  return v[1];
}

template < int R, typename T > __global__ void
__launch_bounds__ (OUT)
median_columns (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, CfBorder border, unsigned mask)
{
  constexpr int K = 2 * R + 1, N_COLS = OUT + 2 * R, RANK = K * K / 2;
  __shared__ unsigned short cols[N_COLS * K];
  __shared__ unsigned moved[N_COLS];    /* left | came << 16, per column */
  const int ch = blockIdx.z;
  const int x = blockIdx.x * OUT + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (!((mask >> ch) & 1u)) {
    if (x < width)
      cf_median_copy_column < T > (src, src_stride, dst, dst_stride,
          x * channels + ch, y0, y1);
    return;
  }

  /* Thread t keeps block columns t and t + OUT; block column j is pixel
   * blockIdx.x * OUT - R + j, brought inside the row by the border rule. */
  int sample[2];
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const int j = threadIdx.x + h * OUT;
    sample[h] = cf_border_index (x + h * OUT - R, width, border) * channels +
        ch;
    if (j < N_COLS)
      cf_sort_column < T > (cols + j * K, src, src_stride, sample[h], y0 - R,
          K, height, border);
  }
  __syncthreads ();

  /* Start below the median of the window's column medians (binary
   * searches). On 21x21 noise its rank is 6 from the median's on average,
   * where the middle column's median was 36 (a simulation), and a warp
   * steps as far as its farthest lane. H100, 21x21: 2.30 -> 1.95 ms on
   * noise, 3.29 -> 3.20 on the smooth picture. */
  const bool active = x < width;
  Cut < K > cut;
  cut.w = cols + threadIdx.x * K;
  cut.l = 0;
  unsigned m = median_of_column_medians < K > (cut.w);
#pragma unroll
  for (int c = 0; c < K; c++) {
    cut.p[c] = cf_lower_bound (cut.w + c * K, K, m);
    cut.l += cut.p[c];
    cut.load (c);
  }
  int drift = 0;                /* the median's move over the last row */

  for (int y = y0;; y++) {
    /* The samples the next row's column upkeep needs, loaded now so that
     * their latency hides behind this row's selection. */
    const bool last = y + 1 >= y1;
    unsigned next[2] = { 0, 0 };
    if (!last) {
      const T *left = cf_row < T > (src, src_stride,
          cf_border_index (y - R, height, border));
      const T *came = cf_row < T > (src, src_stride,
          cf_border_index (y + R + 1, height, border));
#pragma unroll
      for (int h = 0; h < 2; h++)
        if (threadIdx.x + h * OUT < N_COLS)
          next[h] = left[sample[h]] | (unsigned) came[sample[h]] << 16;
    }
    if (active) {
      /* Far from the rank (about a window row, as on a smooth picture's
       * gradients), jump by the last row's move first. Measured on the
       * H100 at 21x21: smooth picture 4.54 -> 3.30 ms, noise 2.18 -> 2.30
       * (a threshold of K / 4: the same on smooth, noise 2.36). */
      constexpr int JUMP = K / 2;
      if (y > y0) {
        if (cut.l + JUMP <= RANK && drift > 0)
          cut.jump (m + drift, true);
        else if (cut.l > RANK + JUMP && drift < 0)
          cut.jump ((unsigned) max ((int) m + drift, 0), false);
      }
      const unsigned median = cut.settle (RANK);
      drift = (int) median - (int) m;
      m = median;
      cf_row < T > (dst, dst_stride, y)[x * channels + ch] = (T) m;
    }
    if (last)
      break;

    __syncthreads ();           /* every window read from the columns */
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int j = threadIdx.x + h * OUT;
      if (j < N_COLS) {
        cf_replace_sorted (cols + j * K, K, next[h] & 0xffff, next[h] >> 16);
        moved[j] = next[h];
      }
    }
    __syncthreads ();

    /* The cut on the new window: every sample below it is at most m and
     * every one above at least m, so the sample that came goes below if it
     * is under m, and the one that left was below if it is under m or is a
     * copy of m with one below the cut in its column. */
#pragma unroll
    for (int c = 0; c < K; c++) {
      const unsigned v = moved[threadIdx.x + c];
      const unsigned left = v & 0xffff, came = v >> 16;
      const int d = (int) (came < m) - (int) (left < m || (left == m
              && cut.lo[c] == m + 1));
      cut.p[c] += d;
      cut.l += d;
      cut.load (c);
    }
  }
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, int radius,
    CfBorder border, unsigned mask, cudaStream_t stream)
{
  const dim3 grid ((src->width + OUT - 1) / OUT,
      (src->height + STRIP - 1) / STRIP, src->channels);
  return cf_median_for_radius < CF_MEDIAN_COLUMNS_MIN_RADIUS,
      CF_MEDIAN_COLUMNS_MAX_RADIUS > (radius, [&](auto r) {
        median_columns < decltype (r)::value, T > <<<grid, OUT, 0, stream>>>
            (src->data, src->stride, dst->data, dst->stride, src->width,
            src->height, src->channels, border, mask);
        return cf_launch_status ();
      });
}

}                               /* namespace */

CfStatus
cf_median_launch_columns (const CfPlane * src, const CfPlane * dst,
    int radius, CfBorder border, unsigned mask, cudaStream_t stream)
{
  return src->depth > 8 ?
      launch < unsigned short >(src, dst, radius, border, mask, stream) :
      launch < unsigned char >(src, dst, radius, border, mask, stream);
}
