/* Exact medians of any window by sliding histograms (Huang): each thread
 * owns one output column over a strip of rows and keeps the histogram of its
 * window in shared memory. Going down one row removes one window row and
 * adds one (2 kx updates), and the median moves from where it was by a few
 * bins, so the cost per output grows with the window's edge, not its area.
 *
 * 16-bit samples use two levels: a coarse histogram of the high bytes is
 * always current and tells which 256-value bin holds the median; a fine
 * histogram of the low bytes covers that one bin and is rebuilt from the
 * window only when the median leaves it. On images the median's high byte
 * changes rarely; on full-range noise it changes often (see the docs). */
#include "median_kernels.cuh"

namespace {

constexpr int THREADS = 64;     /* output columns per block */
constexpr int STRIP = 64;       /* output rows per thread */
constexpr int BINS = 256;

/* The counts of one thread: bin b at h[b * THREADS], so that a warp reading
 * one bin each reads consecutive halfwords, without bank conflicts. */
struct Hist {
  unsigned short *h;
  __device__ unsigned short &operator[] (int b) {
    return h[b * THREADS];
  }
};

/* The rank tracker of a histogram: med is the bin holding the sample of
 * rank `rank` (0-based), below the count of samples in the bins under it. */
struct Tracker {
  int med, below;
  __device__ void seek (Hist & h, int rank) {
    while (below > rank) {
      med--;
      below -= h[med];
    }
    while (below + h[med] <= rank) {
      below += h[med];
      med++;
    }
  }
};

/* Window geometry of one thread's output column. */
struct Column {
  int x, c, channels, width, height;
  bool inside;                  /* every window column inside the row */
  CfBorder border;
  __device__ int sample (int dx) const {
    return inside ? (x + dx) * channels + c :
        cf_border_index (x + dx, width, border) * channels + c;
  }
  __device__ int row (int y) const {
    return cf_border_index (y, height, border);
  }
};

template < typename T > __device__ __forceinline__ const T *
src_row (const void *src, size_t stride, const Column & col, int y)
{
  return cf_row < T > (src, stride, col.row (y));
}

__global__ void
__launch_bounds__ (THREADS)
median_histogram_8 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask)
{
  extern __shared__ unsigned short counts[];
  const int s = blockIdx.x * THREADS + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (s >= width * channels)
    return;
  const int x = s / channels;
  const Column col = { x, s - x * channels, channels, width, height,
    x - rx >= 0 && x + rx < width, border
  };
  if (!((mask >> col.c) & 1u)) {
    for (int y = y0; y < y1; y++)
      cf_row < unsigned char >(dst, dst_stride, y)[s] =
          cf_row < unsigned char >(src, src_stride, y)[s];
    return;
  }

  Hist h = { counts + threadIdx.x };
  for (int b = 0; b < BINS; b++)
    h[b] = 0;
  for (int dy = -ry; dy <= ry; dy++) {
    const unsigned char *in = src_row < unsigned char >(src, src_stride, col,
        y0 + dy);
    for (int dx = -rx; dx <= rx; dx++)
      h[in[col.sample (dx)]]++;
  }
  const int rank = (2 * rx + 1) * (2 * ry + 1) / 2;
  Tracker t = { 0, 0 };
  for (int y = y0;; y++) {
    t.seek (h, rank);
    cf_row < unsigned char >(dst, dst_stride, y)[s] = (unsigned char) t.med;
    if (y + 1 >= y1)
      break;
    const unsigned char *out = src_row < unsigned char >(src, src_stride, col,
        y - ry);
    const unsigned char *in = src_row < unsigned char >(src, src_stride, col,
        y + ry + 1);
    for (int dx = -rx; dx <= rx; dx++) {
      int i = col.sample (dx);
      int v_out = out[i], v_in = in[i];
      h[v_out]--;
      h[v_in]++;
      t.below += (v_in < t.med) - (v_out < t.med);
    }
  }
}

__global__ void
__launch_bounds__ (THREADS)
median_histogram_16 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask)
{
  extern __shared__ unsigned short counts[];
  const int s = blockIdx.x * THREADS + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (s >= width * channels)
    return;
  const int x = s / channels;
  const Column col = { x, s - x * channels, channels, width, height,
    x - rx >= 0 && x + rx < width, border
  };
  if (!((mask >> col.c) & 1u)) {
    for (int y = y0; y < y1; y++)
      cf_row < unsigned short >(dst, dst_stride, y)[s] =
          cf_row < unsigned short >(src, src_stride, y)[s];
    return;
  }

  Hist coarse = { counts + threadIdx.x };
  Hist fine = { counts + BINS * THREADS + threadIdx.x };
  for (int b = 0; b < BINS; b++)
    coarse[b] = 0;
  for (int dy = -ry; dy <= ry; dy++) {
    const unsigned short *in = src_row < unsigned short >(src, src_stride,
        col, y0 + dy);
    for (int dx = -rx; dx <= rx; dx++)
      coarse[in[col.sample (dx)] >> 8]++;
  }
  const int rank = (2 * rx + 1) * (2 * ry + 1) / 2;
  Tracker tc = { 0, 0 }, tf = { 0, 0 };
  int fine_bin = -1;            /* the coarse bin `fine` counts */
  for (int y = y0;; y++) {
    tc.seek (coarse, rank);
    if (tc.med != fine_bin) {
      fine_bin = tc.med;
      for (int b = 0; b < BINS; b++)
        fine[b] = 0;
      for (int dy = -ry; dy <= ry; dy++) {
        const unsigned short *in = src_row < unsigned short >(src, src_stride,
            col, y + dy);
        for (int dx = -rx; dx <= rx; dx++) {
          unsigned v = in[col.sample (dx)];
          if ((int) (v >> 8) == fine_bin)
            fine[v & 0xff]++;
        }
      }
      tf.med = 0;
      tf.below = 0;
    }
    tf.seek (fine, rank - tc.below);
    cf_row < unsigned short >(dst, dst_stride, y)[s] =
        (unsigned short) (fine_bin << 8 | tf.med);
    if (y + 1 >= y1)
      break;
    const unsigned short *out = src_row < unsigned short >(src, src_stride,
        col, y - ry);
    const unsigned short *in = src_row < unsigned short >(src, src_stride,
        col, y + ry + 1);
    for (int dx = -rx; dx <= rx; dx++) {
      int i = col.sample (dx);
      unsigned v_out = out[i], v_in = in[i];
      int hi_out = v_out >> 8, hi_in = v_in >> 8;
      int lo_out = v_out & 0xff, lo_in = v_in & 0xff;
      coarse[hi_out]--;
      coarse[hi_in]++;
      tc.below += (hi_in < tc.med) - (hi_out < tc.med);
      if (hi_out == fine_bin) {
        fine[lo_out]--;
        tf.below -= lo_out < tf.med;
      }
      if (hi_in == fine_bin) {
        fine[lo_in]++;
        tf.below += lo_in < tf.med;
      }
    }
  }
}

}                               /* namespace */

CfStatus
cf_median_launch_histogram (const CfPlane * src, const CfPlane * dst,
    int radius_x, int radius_y, CfBorder border, unsigned mask,
    cudaStream_t stream)
{
  const bool deep = src->depth > 8;
  auto kernel = deep ? median_histogram_16 : median_histogram_8;
  size_t smem = sizeof (unsigned short) * BINS * THREADS * (deep ? 2 : 1);
  if (smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (kernel,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (err != cudaSuccess)
      return cf_status_from_cuda (err);
  }
  dim3 grid ((src->width * src->channels + THREADS - 1) / THREADS,
      (src->height + STRIP - 1) / STRIP);
  kernel <<<grid, THREADS, smem, stream>>> (src->data, src->stride, dst->data,
      dst->stride, src->width, src->height, src->channels, radius_x, radius_y,
      border, mask);
  return cf_launch_status ();
}
