/* Exact medians of any window by sliding histograms (Huang): each thread
 * owns one output column over a strip of rows and keeps the histogram of its
 * window in shared memory. Going down one row removes one window row and
 * adds one (2 kx updates), and the median moves from where it was by a few
 * bins, so the cost per output grows with the window's edge, not its area.
 *
 * 16-bit samples: the block's sorted columns and their coarse counts, and
 * a fine histogram per thread (see median_histogram_16). */
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
  const int x = blockIdx.x * THREADS + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (x >= width)
    return;
  const Column col = { x, (int) blockIdx.z, channels, width, height,
    x - rx >= 0 && x + rx < width, border
  };
  const int s = x * channels + col.c;
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

/* Column c (ky sorted samples) as a cumulative count of its high bytes:
 * byte b of the table is the number of samples whose high byte is below b
 * (so the samples of coarse bin b are c[C[b] .. C[b + 1])). 64 words of
 * 4 byte counts, then a word of ky in every byte for C[256..259]; the odd
 * stride keeps neighbouring columns in different banks. */
constexpr int CDF_WORDS = 65;
/* A coarse bin with at most this many samples in the window is selected
 * directly from the sorted columns instead of through the fine histogram. */
constexpr int PICK_MAX = 8;

__device__ void
cdf_build (unsigned *cdf, const unsigned short *c, int n)
{
  unsigned char *bytes = (unsigned char *) cdf;
  int k = 0;
  for (int b = 0; b < 256; b++) {
    while (k < n && (c[k] >> 8) < (unsigned) b)
      k++;
    bytes[b] = (unsigned char) k;
  }
  cdf[64] = (unsigned) n * 0x01010101u;
}

/* One sample of high byte `out` left the column, one of `in` came: the
 * counts of the bins between them move by one. Counts stay in 0..ky, so
 * adding or subtracting 1 in several bytes of a word never carries. */
__device__ void
cdf_move (unsigned *cdf, int out, int in)
{
  if (out == in)
    return;
  const int lo = min (out, in) + 1, hi = max (out, in);
  for (int w = lo >> 2; w <= hi >> 2; w++) {
    unsigned m = 0x01010101u;
    if (4 * w < lo)
      m &= 0x01010101u << (8 * (lo - 4 * w));
    if (4 * w + 3 > hi)
      m &= 0x01010101u >> (8 * (4 * w + 3 - hi));
    if (in < out)
      cdf[w] += m;
    else
      cdf[w] -= m;
  }
}

/* 16 bits. The block keeps, for each of its THREADS + 2 rx sample columns
 * (one channel: blockIdx.z), the ky samples of the current window rows in
 * order (one removal and one insertion per row) and their high bytes'
 * cumulative counts (cdf_build). Per output:
 * - the coarse bin (high byte) of the median comes from summing the kx
 *   window columns' counts: 8 bins at once, two 16-bit sums per register,
 *   starting from the previous row's bin;
 * - within that bin, a bin of at most PICK_MAX samples (noise) is selected
 *   directly from the columns' runs of the bin; otherwise the thread's fine
 *   histogram of the low bytes gives the rest. It counts the window's
 *   samples of one coarse bin, updated as the rows move, and is rebuilt
 *   from the runs of the bin when the median moves to another bin (on
 *   smooth pictures, every few rows).
 * Nothing here grows with the window's area: the work per output is about
 * kx (sums, updates) plus ky (column upkeep) shared-memory accesses. */
__global__ void
__launch_bounds__ (THREADS)
median_histogram_16 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask)
{
  extern __shared__ unsigned shared[];
  const int ch = blockIdx.z;
  const int x0 = blockIdx.x * THREADS;
  const int x = x0 + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (!((mask >> ch) & 1u)) {
    if (x < width)
      copy_column < unsigned short >(src, src_stride, dst, dst_stride,
          x * channels + ch, y0, y1);
    return;
  }

  const int kx = 2 * rx + 1, ky = 2 * ry + 1;
  const int n_cols = THREADS + 2 * rx;
  unsigned *cdf = shared + WORDS * THREADS;
  unsigned *moved = cdf + n_cols * CDF_WORDS;   /* out | in << 16 per column */
  unsigned short *picks = (unsigned short *) (moved + n_cols);
  unsigned short *cols = picks + PICK_MAX * THREADS;
  /* Sample index of block column j (pixel x0 - rx + j) in a row. */
  auto column_sample = [&](int j)->int {
    return cf_border_index (x0 - rx + j, width, border) * channels + ch;
  };

  for (int j = threadIdx.x; j < n_cols; j += THREADS) {
    const int js = column_sample (j);
    unsigned short *c = cols + j * ky;
    for (int i = 0; i < ky; i++) {
      unsigned v = cf_row < unsigned short >(src, src_stride,
          cf_border_index (y0 - ry + i, height, border))[js];
      int k = i;
      for (; k > 0 && c[k - 1] > v; k--)
        c[k] = c[k - 1];
      c[k] = (unsigned short) v;
    }
    cdf_build (cdf + j * CDF_WORDS, c, ky);
  }

  const bool inside = x < width;
  const int rank = kx * ky / 2;
  /* Window column m of this thread is block column threadIdx.x + m. */
  const unsigned *win_cdf = cdf + threadIdx.x * CDF_WORDS;
  const unsigned short *win_cols = cols + threadIdx.x * ky;
  unsigned short *my_picks = picks + threadIdx.x;
  Hist fine = { shared + threadIdx.x };
  Tracker tf = { 0, 0 };
  int fine_bin = -1;            /* the coarse bin `fine` counts, -1: none */
  int group = 32;               /* coarse bins 4 group .. 4 group + 7 */
  if (inside)
    fine.clear ();
  __syncthreads ();

  for (int y = y0;; y++) {
    /* The samples that the next row's column upkeep needs (out | in << 16),
     * loaded now so that their latency hides behind this row's selection:
     * block columns threadIdx.x and threadIdx.x + THREADS. */
    const bool last = y + 1 >= y1;
    const unsigned short *out = cf_row < unsigned short >(src, src_stride,
        cf_border_index (y - ry, height, border));
    const unsigned short *in = cf_row < unsigned short >(src, src_stride,
        cf_border_index (y + ry + 1, height, border));
    unsigned next[2] = { 0, 0 };
#pragma unroll
    for (int r = 0; r < 2; r++) {
      const int j = threadIdx.x + r * THREADS;
      if (!last && j < n_cols) {
        const int js = column_sample (j);
        next[r] = out[js] | (unsigned) in[js] << 16;
      }
    }

    if (inside) {
      /* Coarse: W(b), the window's samples with a high byte below b, for
       * the 8 b of the group; move the group until it brackets the rank. */
      int bin, below, count;
      for (;;) {
        unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0;
#pragma unroll 4
        for (int m = 0; m < kx; m++) {
          unsigned w0 = win_cdf[m * CDF_WORDS + group];
          unsigned w1 = win_cdf[m * CDF_WORDS + group + 1];
          a0 += w0 & 0x00ff00ffu;
          a1 += (w0 >> 8) & 0x00ff00ffu;
          a2 += w1 & 0x00ff00ffu;
          a3 += (w1 >> 8) & 0x00ff00ffu;
        }
        const int w[8] = { (int) (a0 & 0xffff), (int) (a1 & 0xffff),
          (int) (a0 >> 16), (int) (a1 >> 16), (int) (a2 & 0xffff),
          (int) (a3 & 0xffff), (int) (a2 >> 16), (int) (a3 >> 16)
        };
        if (w[0] > rank) {
          group--;
          continue;
        }
        if (w[7] <= rank) {
          group++;
          continue;
        }
        int i = 0;
#pragma unroll
        for (int k = 1; k < 7; k++)
          if (w[k] <= rank)
            i = k;
        bin = 4 * group + i;
        below = w[0];
        count = w[1] - w[0];
#pragma unroll
        for (int k = 1; k < 7; k++)
          if (k == i) {
            below = w[k];
            count = w[k + 1] - w[k];
          }
        break;
      }
      group = max (bin - 1, 0) >> 2;    /* the bin near the group's middle */

      const int fine_rank = rank - below;
      unsigned value;
      if (bin == fine_bin) {
        tf.seek (fine, fine_rank);
        value = (unsigned) bin << 8 | tf.med;
      } else if (count <= PICK_MAX) {
        /* Few samples in the bin: sort them into this thread's picks. */
        int n = 0;
        for (int m = 0; m < kx; m++) {
          const unsigned char *c = (const unsigned char *) (win_cdf +
              m * CDF_WORDS);
          const unsigned short *s = win_cols + m * ky;
          for (int k = c[bin]; k < c[bin + 1]; k++, n++) {
            unsigned v = s[k];
            int p = n;
            for (; p > 0 && my_picks[(p - 1) * THREADS] > v; p--)
              my_picks[p * THREADS] = my_picks[(p - 1) * THREADS];
            my_picks[p * THREADS] = (unsigned short) v;
          }
        }
        value = my_picks[fine_rank * THREADS];
      } else {
        /* Many: move the fine histogram to this bin. It holds exactly the
         * window's samples of fine_bin, so taking those out empties it. */
        for (int m = 0; m < kx; m++) {
          const unsigned char *c = (const unsigned char *) (win_cdf +
              m * CDF_WORDS);
          const unsigned short *s = win_cols + m * ky;
          if (fine_bin >= 0)
            for (int k = c[fine_bin]; k < c[fine_bin + 1]; k++)
              fine.add (s[k] & 0xff, -1);
          for (int k = c[bin]; k < c[bin + 1]; k++)
            fine.add (s[k] & 0xff, 1);
        }
        fine_bin = bin;
        /* Seek from the nearer end of the bin. */
        if (2 * fine_rank < count) {
          tf.med = 0;
          tf.below = 0;
        } else {
          tf.med = 256;
          tf.below = count;
        }
        tf.seek (fine, fine_rank);
        value = (unsigned) bin << 8 | tf.med;
      }
      cf_row < unsigned short >(dst, dst_stride, y)[x * channels + ch] =
          (unsigned short) value;
    }
    if (last)
      break;

    __syncthreads ();           /* every window read from the columns */
    for (int j = threadIdx.x; j < n_cols; j += THREADS) {
      unsigned v = j < THREADS ? next[0] : j < 2 * THREADS ? next[1] : 0;
      if (j >= 2 * THREADS) {
        const int js = column_sample (j);
        v = out[js] | (unsigned) in[js] << 16;
      }
      const unsigned v_out = v & 0xffff, v_in = v >> 16;
      replace_sorted (cols + j * ky, ky, v_out, v_in);
      cdf_move (cdf + j * CDF_WORDS, v_out >> 8, v_in >> 8);
      moved[j] = v;
    }
    __syncthreads ();

    /* Keep the fine histogram (and its tracker) on the new window. */
    if (inside && fine_bin >= 0) {
      for (int m = 0; m < kx; m++) {
        unsigned v = moved[threadIdx.x + m];
        unsigned v_out = v & 0xffff, v_in = v >> 16;
        if ((int) (v_out >> 8) == fine_bin) {
          fine.add (v_out & 0xff, -1);
          tf.below -= (int) (v_out & 0xff) < tf.med;
        }
        if ((int) (v_in >> 8) == fine_bin) {
          fine.add (v_in & 0xff, 1);
          tf.below += (int) (v_in & 0xff) < tf.med;
        }
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
  size_t smem = sizeof (unsigned) * WORDS * THREADS;
  /* One channel per block (blockIdx.z): a copied channel (alpha) leaves
   * no idle lanes in the warps that compute medians. */
  dim3 grid ((src->width + THREADS - 1) / THREADS,
      (src->height + STRIP - 1) / STRIP, src->channels);
  if (deep) {
    const size_t n_cols = THREADS + 2 * radius_x;
    smem += sizeof (unsigned) * n_cols * (CDF_WORDS + 1) +
        sizeof (unsigned short) * (PICK_MAX * THREADS +
        n_cols * (2 * radius_y + 1));
  }
  CfStatus st = deep ? cf_allow_smem < median_histogram_16 > (smem) :
      cf_allow_smem < median_histogram_8 > (smem);
  if (st != CF_OK)
    return st;
  kernel <<<grid, THREADS, smem, stream>>> (src->data, src->stride, dst->data,
      dst->stride, src->width, src->height, src->channels, radius_x, radius_y,
      border, mask);
  return cf_launch_status ();
}
