/* Pieces of the median kernels: a window column kept in order as the rows
 * move (median_histogram.cu's 16-bit kernel), and the copy of a channel
 * that is not filtered (median_histogram.cu, median_ranks.cu). */
#ifndef CF_MEDIAN_SORTED_CUH
#define CF_MEDIAN_SORTED_CUH

#include "cf_kernel.cuh"

/* The first index of c[0..n) whose sample is not below key. */
__device__ __forceinline__ int
cf_lower_bound (const unsigned short *c, int n, unsigned key)
{
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (c[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Replaces one `out` by `in` in the sorted c[0..n), shifting what is
 * between their places. */
__device__ __forceinline__ void
cf_replace_sorted (unsigned short *c, int n, unsigned out, unsigned in)
{
  int i = cf_lower_bound (c, n, out);
  if (in > out) {
    for (; i + 1 < n && c[i + 1] < in; i++)
      c[i] = c[i + 1];
  } else {
    for (; i > 0 && c[i - 1] > in; i--)
      c[i] = c[i - 1];
  }
  c[i] = (unsigned short) in;
}

/* Sorts sample s of the n rows from y (brought inside the plane's height
 * rows by the border rule) into c[0..n). */
template < typename T > __device__ void
cf_sort_column (unsigned short *c, const void *src, size_t stride, int s,
    int y, int n, int height, CfBorder border)
{
  for (int i = 0; i < n; i++) {
    const unsigned v = cf_row < T > (src, stride,
        cf_border_index (y + i, height, border))[s];
    int k = i;
    for (; k > 0 && c[k - 1] > v; k--)
      c[k] = c[k - 1];
    c[k] = (unsigned short) v;
  }
}

/* Copies sample s of rows y0..y1 (a channel that is not filtered). */
template < typename T > __device__ void
cf_median_copy_column (const void *src, size_t src_stride, void *dst,
    size_t dst_stride, int s, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    cf_row < T > (dst, dst_stride, y)[s] = cf_row < T > (src, src_stride, y)[s];
}

#endif /* CF_MEDIAN_SORTED_CUH */
