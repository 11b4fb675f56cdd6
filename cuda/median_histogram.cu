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
constexpr int WORDS = BINS / 2; /* two 16-bit counts per 32-bit word */

/* The counts of one thread: bins 2i and 2i + 1 in the halves of word
 * w[i * THREADS], so that the 32 threads of a warp always hit 32 different
 * banks. Updates are shared-memory atomics whose result is unused: they
 * issue back to back instead of waiting for each load-add-store (no other
 * thread touches these words). Counts stay below 2^16 (121 x 121 windows),
 * so a half never carries into the other. */
struct Hist {
  unsigned *w;
  __device__ void clear () {
    for (int i = 0; i < WORDS; i++)
      w[i * THREADS] = 0;
  }
  __device__ unsigned get (int b) const {
    return (w[(b >> 1) * THREADS] >> ((b & 1) * 16)) & 0xffffu;
  }
  __device__ void add (int b, int d) {
    atomicAdd (&w[(b >> 1) * THREADS], (unsigned) d << ((b & 1) * 16));
  }
};

/* The rank tracker of a histogram: med is the bin holding the sample of
 * rank `rank` (0-based), below the count of samples in the bins under it. */
struct Tracker {
  int med, below;
  __device__ void seek (const Hist & h, int rank) {
    while (below > rank) {
      med--;
      below -= h.get (med);
    }
    while (below + (int) h.get (med) <= rank) {
      below += h.get (med);
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
};

template < typename T > __device__ __forceinline__ const T *
src_row (const void *src, size_t stride, const Column & col, int y)
{
  return cf_row < T > (src, stride, cf_border_index (y, col.height,
          col.border));
}

/* Copies a column of a channel that is not filtered. */
template < typename T > __device__ void
copy_column (const void *src, size_t src_stride, void *dst, size_t dst_stride,
    int s, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    cf_row < T > (dst, dst_stride, y)[s] = cf_row < T > (src, src_stride, y)[s];
}

__global__ void
__launch_bounds__ (THREADS)
median_histogram_8 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask)
{
  extern __shared__ unsigned counts[];
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
    copy_column < unsigned char >(src, src_stride, dst, dst_stride, s, y0, y1);
    return;
  }

  Hist h = { counts + threadIdx.x };
  h.clear ();
  for (int dy = -ry; dy <= ry; dy++) {
    const unsigned char *in = src_row < unsigned char >(src, src_stride, col,
        y0 + dy);
    for (int dx = -rx; dx <= rx; dx++)
      h.add (in[col.sample (dx)], 1);
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
      h.add (v_out, -1);
      h.add (v_in, 1);
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
  extern __shared__ unsigned counts[];
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
    copy_column < unsigned short >(src, src_stride, dst, dst_stride, s, y0,
        y1);
    return;
  }

  Hist coarse = { counts + threadIdx.x };
  Hist fine = { counts + WORDS * THREADS + threadIdx.x };
  coarse.clear ();
  fine.clear ();
  for (int dy = -ry; dy <= ry; dy++) {
    const unsigned short *in = src_row < unsigned short >(src, src_stride,
        col, y0 + dy);
    for (int dx = -rx; dx <= rx; dx++)
      coarse.add (in[col.sample (dx)] >> 8, 1);
  }
  const int rank = (2 * rx + 1) * (2 * ry + 1) / 2;
  Tracker tc = { 0, 0 }, tf = { 0, 0 };
  int fine_bin = -1;            /* the coarse bin `fine` counts */
  for (int y = y0;; y++) {
    tc.seek (coarse, rank);
    const int fine_rank = rank - tc.below;
    if (tc.med != fine_bin) {
      /* One pass over the window takes the old bin's samples out of `fine`
       * (it holds exactly those) and puts the new bin's in, and counts
       * where the new bin's quarters start so the seek starts near. */
      int quarter[3] = { 0, 0, 0 };
      for (int dy = -ry; dy <= ry; dy++) {
        const unsigned short *in = src_row < unsigned short >(src,
            src_stride, col, y + dy);
        for (int dx = -rx; dx <= rx; dx++) {
          unsigned v = in[col.sample (dx)];
          int hi = v >> 8, lo = v & 0xff;
          if (hi == fine_bin)
            fine.add (lo, -1);
          if (hi == tc.med) {
            fine.add (lo, 1);
            quarter[0] += lo < 64;
            quarter[1] += lo < 128;
            quarter[2] += lo < 192;
          }
        }
      }
      fine_bin = tc.med;
      tf.med = 0;
      tf.below = 0;
      for (int q = 0; q < 3; q++)
        if (fine_rank >= quarter[q]) {
          tf.med = 64 * (q + 1);
          tf.below = quarter[q];
        }
    }
    tf.seek (fine, fine_rank);
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
      coarse.add (hi_out, -1);
      coarse.add (hi_in, 1);
      tc.below += (hi_in < tc.med) - (hi_out < tc.med);
      if (hi_out == fine_bin) {
        fine.add (lo_out, -1);
        tf.below -= lo_out < tf.med;
      }
      if (hi_in == fine_bin) {
        fine.add (lo_in, 1);
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
  size_t smem = sizeof (unsigned) * WORDS * THREADS * (deep ? 2 : 1);
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
