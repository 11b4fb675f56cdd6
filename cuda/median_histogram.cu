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
template < int STRIDE > struct HistT {
  unsigned *w;
  __device__ void clear () {
    for (int i = 0; i < WORDS; i++)
      w[i * STRIDE] = 0;
  }
  __device__ unsigned get (int b) const {
    return (w[(b >> 1) * STRIDE] >> ((b & 1) * 16)) & 0xffffu;
  }
  __device__ void add (int b, int d) {
    atomicAdd (&w[(b >> 1) * STRIDE], (unsigned) d << ((b & 1) * 16));
  }
};
using Hist = HistT < THREADS >;

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

__global__ void
__launch_bounds__ (THREADS)
median_histogram_8 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask,
    const CfGateTile gate)
{
  extern __shared__ unsigned counts[];
  const int x = blockIdx.x * THREADS + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (cf_gate_block_closed < unsigned char > (gate, blockIdx.x * THREADS, y0,
          (blockIdx.x + 1) * THREADS, y1, width, height))
    return;
  if (x >= width)
    return;
  const Column col = { x, (int) blockIdx.z, channels, width, height,
    x - rx >= 0 && x + rx < width, border
  };
  const int s = x * channels + col.c;
  if (!((mask >> col.c) & 1u)) {
    cf_median_copy_column < unsigned char >(src, src_stride, dst, dst_stride,
        s, y0, y1);
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

/* Sorted window columns of the 16-bit kernel: the first index of c[0..n)
 * whose sample is not below key. */
__device__ __forceinline__ int
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
__device__ __forceinline__ void
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

/* Sorts sample s of the n rows from y (brought inside the plane's height
 * rows by the border rule) into c[0..n). */
__device__ void
sort_column (unsigned short *c, const void *src, size_t stride, int s,
    int y, int n, int height, CfBorder border)
{
  for (int i = 0; i < n; i++) {
    const unsigned v = cf_row < unsigned short >(src, stride,
        cf_border_index (y + i, height, border))[s];
    int k = i;
    for (; k > 0 && c[k - 1] > v; k--)
      c[k] = c[k - 1];
    c[k] = (unsigned short) v;
  }
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
/* A 16-bit block of `out` outputs has a thread per block column (out + 2 rx,
 * rounded up to whole warps): the column upkeep between the two barriers of
 * a row then takes one column's time, not two (with a thread per output,
 * all would wait for the warp that also keeps the 2 rx extra columns). */
constexpr int
upkeep_threads (int out, int rx)
{
  return (out + 2 * rx + 31) / 32 * 32;
}

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
  /* Bytes lo..hi change: a partial first and last word, whole ones between
   * (no per-word mask arithmetic: on noise about 21 words move). */
  const int lo = min (out, in) + 1, hi = max (out, in);
  const int w0 = lo >> 2, w1 = hi >> 2;
  const unsigned first = 0x01010101u << (8 * (lo & 3));
  const unsigned last = 0x01010101u >> (8 * (3 - (hi & 3)));
  const unsigned sign = in < out ? 1u : ~0u;    /* + or - (mod 2^32) */
  if (w0 == w1) {
    cdf[w0] += sign * (first & last);
    return;
  }
  cdf[w0] += sign * first;
  for (int w = w0 + 1; w < w1; w++)
    cdf[w] += sign * 0x01010101u;
  cdf[w1] += sign * last;
}

/* The rank-th (0-based) of the n <= PICK_MAX samples at p[i * STRIDE]:
 * loaded into registers, padded with the largest value, sorted by Batcher's
 * 19-comparator network. */
template < int STRIDE > __device__ unsigned
select_small (const unsigned short *p, int n, int rank)
{
  unsigned v[PICK_MAX];
#pragma unroll
  for (int i = 0; i < PICK_MAX; i++)
    v[i] = i < n ? p[i * STRIDE] : 0xffffu;
  constexpr int net[19][2] = { {0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
  {4, 6}, {5, 7}, {1, 2}, {5, 6}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {2, 4},
  {3, 5}, {1, 2}, {3, 4}, {5, 6}
  };
#pragma unroll
  for (int i = 0; i < 19; i++) {
    const unsigned a = v[net[i][0]], b = v[net[i][1]];
    v[net[i][0]] = min (a, b);
    v[net[i][1]] = max (a, b);
  }
  unsigned r = v[0];
#pragma unroll
  for (int i = 1; i < PICK_MAX; i++)
    if (i == rank)
      r = v[i];
  return r;
}

/* Moves t to `rank` in h four bins (two words) a step while the rank is
 * beyond them, then bin by bin: on smooth pictures the median walks tens
 * of fine bins a row, and after a rebuild up to 128 from the nearer end. */
template < int STRIDE > __device__ void
seek_quads (Tracker & t, const HistT < STRIDE > &h, int rank)
{
  auto quad = [&](int b)->int {        /* bins b .. b + 3, b even */
    const unsigned u = h.w[(b >> 1) * STRIDE], v = h.w[((b >> 1) + 1) *
        STRIDE];
    return (int) ((u & 0xffff) + (u >> 16) + (v & 0xffff) + (v >> 16));
  };
  while (t.below > rank) {
    int q;
    if (!(t.med & 1) && t.med >= 4 && t.below - (q = quad (t.med - 4)) > rank) {
      t.med -= 4;
      t.below -= q;
    } else {
      t.med--;
      t.below -= h.get (t.med);
    }
  }
  for (;;) {
    int q;
    if (!(t.med & 1) && t.med <= BINS - 4 && t.below + (q = quad (t.med)) <=
        rank) {
      t.med += 4;
      t.below += q;
    } else {
      const int c = h.get (t.med);
      if (t.below + c > rank)
        break;
      t.below += c;
      t.med++;
    }
  }
}

/* 16 bits. The block (OUT outputs of one channel, blockIdx.z) keeps, for
 * each of its OUT + 2 rx sample columns, the ky samples of the current
 * window rows in order (one removal and one insertion per row, by the
 * column's own thread) and their high bytes' cumulative counts (cdf_build).
 * Per output:
 * - the coarse bin (high byte) of the median comes from summing the kx
 *   window columns' counts: 8 bins at once, two 16-bit sums per register,
 *   starting from the previous row's bin;
 * - within that bin, a bin of at most PICK_MAX samples (noise) is gathered
 *   from the columns' runs of the bin and sorted in registers; otherwise
 *   the thread's fine histogram of the low bytes gives the rest. It counts
 *   the window's samples of one coarse bin, updated as the rows move, and
 *   is rebuilt from the runs of the bin by the whole warp when the median
 *   moves to another bin (on smooth pictures, every few rows).
 * Nothing here grows with the window's area: the work per output is about
 * kx (sums, updates) plus ky (column upkeep) shared-memory accesses. */
template < int OUT > __global__ void
__launch_bounds__ (upkeep_threads (OUT, CF_MEDIAN_MAX_RADIUS))
median_histogram_16 (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int rx, int ry, CfBorder border, unsigned mask,
    const CfGateTile gate)
{
  extern __shared__ unsigned shared[];
  const int ch = blockIdx.z;
  const int x0 = blockIdx.x * OUT;
  const int x = x0 + threadIdx.x;
  const int y0 = blockIdx.y * STRIP;
  const int y1 = min (y0 + STRIP, height);
  if (cf_gate_block_closed < unsigned short > (gate, x0, y0, x0 + OUT, y1,
          width, height))
    return;
  if (!((mask >> ch) & 1u)) {
    if (threadIdx.x < OUT && x < width)
      cf_median_copy_column < unsigned short >(src, src_stride, dst, dst_stride,
          x * channels + ch, y0, y1);
    return;
  }

  const int kx = 2 * rx + 1, ky = 2 * ry + 1;
  const int n_cols = OUT + 2 * rx;
  unsigned *cdf = shared + WORDS * OUT;
  unsigned *moved = cdf + n_cols * CDF_WORDS;   /* out | in << 16 per column */
  unsigned short *picks = (unsigned short *) (moved + n_cols);
  unsigned short *cols = picks + PICK_MAX * OUT;
  /* Sample index of block column j (pixel x0 - rx + j) in a row. */
  auto column_sample = [&](int j)->int {
    return cf_border_index (x0 - rx + j, width, border) * channels + ch;
  };

  /* Thread j keeps block column j (the block has a thread for each). */
  const int j = threadIdx.x;
  if (j < n_cols) {
    const int js = column_sample (j);
    unsigned short *c = cols + j * ky;
    sort_column (c, src, src_stride, js, y0 - ry, ky, height, border);
    cdf_build (cdf + j * CDF_WORDS, c, ky);
  }

  const bool inside = threadIdx.x < OUT && x < width;
  const int rank = kx * ky / 2;
  /* Window column m of this thread is block column threadIdx.x + m. */
  const unsigned *win_cdf = cdf + threadIdx.x * CDF_WORDS;
  const unsigned short *win_cols = cols + threadIdx.x * ky;
  unsigned short *my_picks = picks + threadIdx.x;
  HistT < OUT > fine = { shared + threadIdx.x };
  Tracker tf = { 0, 0 };
  int fine_bin = -1;            /* the coarse bin `fine` counts, -1: none */
  int group = 32;               /* coarse bins 4 group .. 4 group + 7 */
  if (inside)
    fine.clear ();
  __syncthreads ();

  for (int y = y0;; y++) {
    /* The samples that the next row's column upkeep needs (out | in << 16),
     * loaded now so that their latency hides behind this row's selection. */
    const bool last = y + 1 >= y1;
    const unsigned short *out = cf_row < unsigned short >(src, src_stride,
        cf_border_index (y - ry, height, border));
    const unsigned short *in = cf_row < unsigned short >(src, src_stride,
        cf_border_index (y + ry + 1, height, border));
    unsigned next = 0;
    if (!last && j < n_cols) {
      const int js = column_sample (j);
      next = out[js] | (unsigned) in[js] << 16;
    }

    int bin = 0, fine_rank = 0, count = 0;
    bool rebuild = false;       /* fine moves to bin this row */
    unsigned value = 0;
    if (inside) {
      /* Coarse: W(b), the window's samples with a high byte below b, for
       * the 8 b of the group; move the group until it brackets the rank. */
      int below;
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

      fine_rank = rank - below;
      if (bin == fine_bin) {
        seek_quads (tf, fine, fine_rank);
        value = (unsigned) bin << 8 | tf.med;
      } else if (count <= PICK_MAX) {
        /* Few samples in the bin: gather them, then sort in registers
         * (the same instructions for every lane). */
        int n = 0;
        for (int m = 0; m < kx; m++) {
          const unsigned char *c = (const unsigned char *) (win_cdf +
              m * CDF_WORDS);
          const unsigned short *s = win_cols + m * ky;
          for (int k = c[bin]; k < c[bin + 1]; k++, n++)
            my_picks[n * OUT] = s[k];
        }
        value = select_small < OUT > (my_picks, n, fine_rank);
      } else {
        rebuild = true;
      }
    }

    /* Many samples in the bin: move the fine histogram to it. It holds
     * exactly the window's samples of fine_bin, so taking those out empties
     * it. The whole warp moves each such lane's histogram, one window column
     * a lane (a lane alone would walk kx runs of tens of samples while the
     * others wait). */
    for (unsigned todo = __ballot_sync (~0u, rebuild); todo;
        todo &= todo - 1) {
      const int l = __ffs (todo) - 1;
      const int l_bin = __shfl_sync (~0u, bin, l);
      const int l_old = __shfl_sync (~0u, fine_bin, l);
      const int l_x = (threadIdx.x & ~31) + l;
      HistT < OUT > h = { shared + l_x };
      for (int m = threadIdx.x & 31; m < kx; m += 32) {
        const unsigned char *c = (const unsigned char *) (cdf +
            (l_x + m) * CDF_WORDS);
        const unsigned short *s = cols + (l_x + m) * ky;
        if (l_old >= 0)
          for (int k = c[l_old]; k < c[l_old + 1]; k++)
            h.add (s[k] & 0xff, -1);
        for (int k = c[l_bin]; k < c[l_bin + 1]; k++)
          h.add (s[k] & 0xff, 1);
      }
    }
    __syncwarp ();
    if (rebuild) {
      fine_bin = bin;
      /* Seek from the nearer end of the bin. */
      tf.med = 2 * fine_rank < count ? 0 : BINS;
      tf.below = 2 * fine_rank < count ? 0 : count;
      seek_quads (tf, fine, fine_rank);
      value = (unsigned) bin << 8 | tf.med;
    }
    if (inside)
      cf_row < unsigned short >(dst, dst_stride, y)[x * channels + ch] =
          (unsigned short) value;
    if (last)
      break;

    __syncthreads ();           /* every window read from the columns */
    if (j < n_cols) {
      const unsigned v_out = next & 0xffff, v_in = next >> 16;
      replace_sorted (cols + j * ky, ky, v_out, v_in);
      cdf_move (cdf + j * CDF_WORDS, v_out >> 8, v_in >> 8);
      moved[j] = next;
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

/* From this radius the 16-bit kernel runs 32 outputs per block, not 64:
 * half the shared memory (twice the blocks per SM) for a third more column
 * upkeep per output; measured on the H100 (docs/cudamedian.md): 64 faster
 * at 15x15, 32 at 21x21 and 31x31. It also keeps 121x121 within 99 KB. */
constexpr int OUTPUTS_32_MIN_RADIUS = 9;

/* Shared memory of median_histogram_16 < OUT >. */
size_t
smem_16 (int out, int rx, int ry)
{
  const size_t n_cols = out + 2 * rx;
  return sizeof (unsigned) * (WORDS * out + n_cols * (CDF_WORDS + 1)) +
      sizeof (unsigned short) * (PICK_MAX * out + n_cols * (2 * ry + 1));
}

template < int OUT > CfStatus
launch_16 (const CfPlane * src, const CfPlane * dst, int rx, int ry,
    CfBorder border, unsigned mask, const CfGateTile & gate,
    cudaStream_t stream)
{
  const size_t smem = smem_16 (OUT, rx, ry);
  const dim3 grid ((src->width + OUT - 1) / OUT,
      (src->height + STRIP - 1) / STRIP, src->channels);
  CfStatus st = cf_allow_smem < median_histogram_16 < OUT > >(smem);
  if (st != CF_OK)
    return st;
  median_histogram_16 < OUT > <<<grid, upkeep_threads (OUT, rx), smem,
      stream>>> (src->data, src->stride, dst->data, dst->stride, src->width,
      src->height, src->channels, rx, ry, border, mask, gate);
  return CF_OK;
}

}                               /* namespace */

CfStatus
cf_median_launch_histogram (const CfPlane * src, const CfPlane * dst,
    int radius_x, int radius_y, CfBorder border, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream)
{
  /* One channel per block (blockIdx.z): a copied channel (alpha) leaves
   * no idle lanes in the warps that compute medians. */
  if (src->depth > 8) {
    CfStatus st = radius_x < OUTPUTS_32_MIN_RADIUS ?
        launch_16 < 64 > (src, dst, radius_x, radius_y, border, mask, gate,
        stream) :
        launch_16 < 32 > (src, dst, radius_x, radius_y, border, mask, gate,
        stream);
    if (st != CF_OK)
      return st;
    return cf_launch_status ();
  }
  const size_t smem = sizeof (unsigned) * WORDS * THREADS;
  const dim3 grid ((src->width + THREADS - 1) / THREADS,
      (src->height + STRIP - 1) / STRIP, src->channels);
  CfStatus st = cf_allow_smem < median_histogram_8 > (smem);
  if (st != CF_OK)
    return st;
  median_histogram_8 <<<grid, THREADS, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height,
      src->channels, radius_x, radius_y, border, mask, gate);
  return cf_launch_status ();
}
