/* Exact medians of square windows from 11 x 11 to 31 x 31, 8 or 16 bits
 * alike, by sorted columns and a value cut per output.
 *
 * A block keeps, for each of its OUT + 2 r sample columns, the k samples of
 * the current window rows in order (one removal and one insertion per row,
 * by the column's thread). Each thread owns one output column over a strip
 * of rows and carries its median m from row to row, with p[c]: how many
 * samples of window column c are below m. A new row moves p[c] by the
 * column's sample that left and the one that came (two compares each); if
 * their sum, the window's count below m, no longer brackets the median's
 * rank, m steps over the distinct values next to the cut (the heads of the
 * k sorted columns) until it does. On noise the median moves by a few
 * samples a row, on smooth pictures by about one window row. The work per
 * output is about k compares plus k column heads per step, whatever the
 * depth: no histogram. Its cost is the steps: lanes of a warp need
 * different numbers of them, and the warp runs the most any lane needs. */
#include "median_kernels.cuh"
#include "median_sorted.cuh"

namespace {

constexpr int OUT = 64;         /* output columns (threads) per block */
constexpr int STRIP = 64;       /* output rows per block */
constexpr unsigned ABOVE_ALL = 0x10000u;        /* above every sample */

/* Moves the cut to the median. On entry p[c] counts the samples below m in
 * column c of the window w (column c at w[c * K], sorted) and l is their
 * sum. On return m is the median, the smallest value with more than `rank`
 * samples at or below it, and p and l count the samples below it. */
template < int K > __device__ __forceinline__ void
settle (const unsigned short *w, int (&p)[K], int &l, unsigned &m, int rank)
{
  if (l > rank) {
    /* Too many below m: step down to the largest sample below the cut,
     * taking every copy of it above the cut, until few enough are left;
     * the copies of that value then make up the rank. */
    do {
      unsigned v = 0;
#pragma unroll
      for (int c = 0; c < K; c++)
        if (p[c] > 0)
          v = max (v, (unsigned) w[c * K + p[c] - 1]);
#pragma unroll
      for (int c = 0; c < K; c++)
        while (p[c] > 0 && w[c * K + p[c] - 1] == v) {
          p[c]--;
          l--;
        }
      m = v;
    } while (l > rank);
    return;
  }
  for (;;) {
    /* e copies of m sit right above the cut; if they do not reach the
     * rank, they go below it and m steps up to the next value. */
    int q[K], e = 0;
    unsigned next = ABOVE_ALL;
#pragma unroll
    for (int c = 0; c < K; c++) {
      int i = p[c];
      unsigned s = i < K ? w[c * K + i] : ABOVE_ALL;
      while (s == m) {
        i++;
        s = i < K ? w[c * K + i] : ABOVE_ALL;
      }
      q[c] = i;
      e += i - p[c];
      next = min (next, s);
    }
    if (l + e > rank)
      return;
#pragma unroll
    for (int c = 0; c < K; c++)
      p[c] = q[c];
    l += e;
    m = next;
  }
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

  /* Start from the middle of the middle column; p from binary searches. */
  const bool active = x < width;
  const unsigned short *w = cols + threadIdx.x * K;
  int p[K], l = 0;
  unsigned m = w[R * K + R];
#pragma unroll
  for (int c = 0; c < K; c++) {
    p[c] = cf_lower_bound (w + c * K, K, m);
    l += p[c];
  }

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
      settle < K > (w, p, l, m, RANK);
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

    /* The counts below m in the new window. */
#pragma unroll
    for (int c = 0; c < K; c++) {
      const unsigned v = moved[threadIdx.x + c];
      const int d = (int) ((v >> 16) < m) - (int) ((v & 0xffff) < m);
      p[c] += d;
      l += d;
    }
  }
}

template < typename T, int R = CF_MEDIAN_COLUMNS_MIN_RADIUS > CfStatus
launch (const CfPlane * src, const CfPlane * dst, int radius,
    CfBorder border, unsigned mask, cudaStream_t stream)
{
  if constexpr (R > CF_MEDIAN_COLUMNS_MAX_RADIUS) {
    return CF_ERROR_INVALID;
  } else {
    if (radius != R)
      return launch < T, R + 1 > (src, dst, radius, border, mask, stream);
    const dim3 grid ((src->width + OUT - 1) / OUT,
        (src->height + STRIP - 1) / STRIP, src->channels);
    median_columns < R, T > <<<grid, OUT, 0, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        src->channels, border, mask);
    return cf_launch_status ();
  }
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
