/* Exact medians of any window by sliding histograms (Huang): each thread
 * owns one output column over a strip of rows and keeps the histogram of its
 * window in shared memory. Going down one row removes one window row and
 * adds one (2 kx updates), and the median moves from where it was by a few
 * bins, so the cost per output grows with the window's edge, not its area.
 *
 * 16-bit samples use two levels of 256 bins (see median_histogram_16). */
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

/* Sorted columns for the 16-bit kernel: lower_bound in column c[0..n). */
__device__ int
lower_bound (const unsigned short *c, int n, unsigned key)
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
__device__ void
replace_sorted (unsigned short *c, int n, unsigned out, unsigned in)
{
  int i = lower_bound (c, n, out);
  if (in > out) {
    for (; i + 1 < n && c[i + 1] < in; i++)
      c[i] = c[i + 1];
  } else {
    for (; i > 0 && c[i - 1] > in; i--)
      c[i] = c[i - 1];
  }
  c[i] = (unsigned short) in;
}

/* 16 bits: the coarse histogram of the high bytes finds the 256-value bin
 * holding the median; the fine histogram of the low bytes in that bin gives
 * the rest. When the median changes bin (often on noise), the fine
 * histogram is rebuilt from the block's sorted columns: each window column
 * gives the samples of the bin by two binary searches, so a rebuild costs
 * about kx log ky, not kx ky. The block keeps, for every sample column it
 * reads, the ky samples of the current window rows in order, updated in
 * place as the rows move down (one removal and one insertion). */
__global__ void
__launch_bounds__ (THREADS)
median_histogram_16 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask)
{
  extern __shared__ unsigned counts[];
  const int ky = 2 * ry + 1;
  const int row_samples = width * channels;
  const int s = blockIdx.x * THREADS + threadIdx.x;
  const int j0 = blockIdx.x * THREADS - rx * channels;  /* column 0 */
  const int n_cols = THREADS + 2 * rx * channels;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  unsigned short *cols = (unsigned short *) (counts + 2 * WORDS * THREADS);

  for (int j = threadIdx.x; j < n_cols; j += THREADS) {
    const int js = cf_median_border_sample (j0 + j, width, channels, border);
    unsigned short *c = cols + j * ky;
    for (int i = 0; i < ky; i++) {
      unsigned v = cf_row < unsigned short >(src, src_stride,
          cf_border_index (y0 - ry + i, height, border))[js];
      int k = i;
      for (; k > 0 && c[k - 1] > v; k--)
        c[k] = c[k - 1];
      c[k] = (unsigned short) v;
    }
  }
  __syncthreads ();

  /* Threads past the row or on a copied channel still keep columns. */
  const int x = s / channels;
  const Column col = { x, s - x * channels, channels, width, height,
    x - rx >= 0 && x + rx < width, border
  };
  const bool inside = s < row_samples;
  const bool active = inside && ((mask >> col.c) & 1u);
  /* This thread's window column m is cols + (first + m * channels) * ky. */
  const int first = threadIdx.x;
  Hist coarse = { counts + threadIdx.x };
  Hist fine = { counts + WORDS * THREADS + threadIdx.x };
  const int rank = (2 * rx + 1) * ky / 2;
  Tracker tc = { 0, 0 }, tf = { 0, 0 };
  int fine_bin = -1;            /* the coarse bin `fine` counts */
  if (active) {
    coarse.clear ();
    fine.clear ();
    for (int m = 0; m <= 2 * rx; m++)
      for (int i = 0; i < ky; i++)
        coarse.add (cols[(first + m * channels) * ky + i] >> 8, 1);
  }

  for (int y = y0;; y++) {
    if (active) {
      tc.seek (coarse, rank);
      const int fine_rank = rank - tc.below;
      if (tc.med != fine_bin) {
        /* Take the old bin's samples out of `fine` (it holds exactly
         * those) and put the new bin's in, counting where the new bin's
         * quarters start so that the seek starts near. */
        int lo_bin = fine_bin < 0 ? tc.med : min (fine_bin, tc.med);
        int hi_bin = max (fine_bin, tc.med);
        int quarter[3] = { 0, 0, 0 };
        for (int m = 0; m <= 2 * rx; m++) {
          const unsigned short *c = cols + (first + m * channels) * ky;
          int a = lower_bound (c, ky, (unsigned) lo_bin << 8);
          int b = lower_bound (c, ky, (unsigned) (hi_bin + 1) << 8);
          for (int i = a; i < b; i++) {
            int hi = c[i] >> 8, lo = c[i] & 0xff;
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
    } else if (inside) {
      cf_row < unsigned short >(dst, dst_stride, y)[s] =
          cf_row < unsigned short >(src, src_stride, y)[s];
    }
    if (y + 1 >= y1)
      break;

    const unsigned short *out = src_row < unsigned short >(src, src_stride,
        col, y - ry);
    const unsigned short *in = src_row < unsigned short >(src, src_stride,
        col, y + ry + 1);
    if (active) {
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
    __syncthreads ();           /* every window read from the columns */
    for (int j = threadIdx.x; j < n_cols; j += THREADS) {
      const int js = cf_median_border_sample (j0 + j, width, channels, border);
      replace_sorted (cols + j * ky, ky, out[js], in[js]);
    }
    __syncthreads ();
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
  size_t smem = sizeof (unsigned) * WORDS * THREADS;
  if (deep)
    smem = 2 * smem + sizeof (unsigned short) * (2 * radius_y + 1) *
        (THREADS + 2 * radius_x * src->channels);
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
