/* Exact medians of square windows from 11 x 11 to 31 x 31 by ranks: the
 * same work for 8- and 16-bit samples.
 *
 * The frame is cut into tiles of TILE_W x TILE_H outputs. A first kernel
 * sorts each tile's input region (the tile and its border of r samples:
 * (TILE_W + 2 r) x (TILE_H + 2 r) samples, border rule applied) and writes
 * each sample's rank in it, and the samples in rank order. Ties are ranked
 * in any order: every rank is then one sample, and a window's median is
 * the value of its middle rank.
 *
 * A second kernel slides down each output column of a tile with its window
 * as a bitmap of ranks in shared memory (one bit per sample of the region:
 * 111 words at 21 x 21), as the 8-bit histogram kernel slides its
 * histogram: a new row toggles the k bits of the window row that left and
 * the k of the one that came, and the word holding the median rank moves
 * from where it was by popcounts. Nothing depends on the sample depth or
 * on the picture. */
#include "median_kernels.cuh"

#include <cub/block/block_radix_rank.cuh>

namespace {

/* Measured on the H100 (docs/cudamedian.md). Narrow tiles sort more
 * samples per output, but their bitmaps are small, so more blocks fit an
 * SM: 32 x 64 was 20 to 35% faster than 64 x 64 (15 x 15 to 31 x 31).
 * With the 8-bit radix sort below, 32 x 48 is 3 to 7% faster than 32 x
 * 64 and 4 to 6% faster than 32 x 32 from 21 x 21 up (32 x 32 wins by 5 to
 * 9% at 13 x 13 and 15 x 15). 1024 sort threads were up to 17% slower than
 * 512, never faster. */
constexpr int TILE_W = 32;      /* output columns (threads) per tile */
constexpr int TILE_H = 48;      /* output rows per tile */
constexpr int SORT_THREADS = 512;

template < int R > struct Region {
  static constexpr int W = TILE_W + 2 * R, H = TILE_H + 2 * R, N = W * H;
  static constexpr int WORDS = (N + 31) / 32;   /* bitmap words */
  static constexpr int ITEMS = (N + SORT_THREADS - 1) / SORT_THREADS;
  /* Ranks, and indices in the sort keys' low half, are 16 bits. */
  static_assert (ITEMS * SORT_THREADS <= 65536, "region too large");
};

/* Ranks of the samples of channel c in each tile's region: rank[i] for the
 * region's sample i (row-major), value[j] the sample of rank j.
 *
 * An LSD radix sort of 8-bit digits, one pass per byte of T (CUB's
 * BlockRadixSort takes 4 passes of 4 bits for 16-bit samples: its digit
 * counters for 8 bits would need 264 KB). Each pass ranks the keys with
 * CUB's warp-matching ranker, which is stable in warp-striped order: key i
 * of warp w's lane l is the region's sample w * 32 * ITEMS + i * 32 + l,
 * so the loads are coalesced, and the keys go back to that order between
 * passes. At least two blocks an SM: without that bound, 31 x 31 takes 74
 * registers a thread, one block fits, and the whole is 10% slower. */
template < int R, typename T > __global__ void
__launch_bounds__ (SORT_THREADS, 2)
rank_tiles (const void *__restrict__ src, size_t src_stride, int width,
    int height, int channels, int c, CfBorder border,
    unsigned short *__restrict__ rank, unsigned short *__restrict__ value)
{
  using G = Region < R >;
  using Ranker = cub::BlockRadixRankMatch < SORT_THREADS, 8, false >;
  /* The ranker's counters and the keys in rank order take turns. */
  __shared__ union {
    typename Ranker::TempStorage ranker;
    unsigned sorted[G::ITEMS * SORT_THREADS];
  } smem;
  unsigned *sorted = smem.sorted;
  const size_t tile = (size_t) blockIdx.y * gridDim.x + blockIdx.x;
  const int x0 = blockIdx.x * TILE_W - R, y0 = blockIdx.y * TILE_H - R;
  const int first = threadIdx.x / 32 * 32 * G::ITEMS + threadIdx.x % 32;

  /* Keys: the sample above its index. The padding past N sorts last (the
   * largest sample, and the sort is stable), so every sample's rank is
   * below N. */
  unsigned key[G::ITEMS];
#pragma unroll
  for (int i = 0; i < G::ITEMS; i++) {
    const int j = first + i * 32;
    unsigned v = 0xffffu;
    if (j < G::N) {
      const int x = cf_border_index (x0 + j % G::W, width, border);
      const int y = cf_border_index (y0 + j / G::W, height, border);
      v = cf_row < T > (src, src_stride, y)[x * channels + c];
    }
    key[i] = v << 16 | j;
  }
#pragma unroll
  for (int pass = 0; pass < (int) sizeof (T); pass++) {
    int pos[G::ITEMS];
    Ranker (smem.ranker).RankKeys (key, pos,
        cub::ShiftDigitExtractor < unsigned >(16 + 8 * pass, 8));
    __syncthreads ();
#pragma unroll
    for (int i = 0; i < G::ITEMS; i++)
      sorted[pos[i]] = key[i];
    __syncthreads ();
    if (pass + 1 < (int) sizeof (T)) {
#pragma unroll
      for (int i = 0; i < G::ITEMS; i++)
        key[i] = sorted[first + i * 32];
      __syncthreads ();
    }
  }
  for (int j = threadIdx.x; j < G::N; j += SORT_THREADS) {
    value[tile * G::N + j] = (unsigned short) (sorted[j] >> 16);
    rank[tile * G::N + (sorted[j] & 0xffffu)] = (unsigned short) j;
  }
}

/* One thread's bitmap: word i at w[i * TILE_W], so that the threads of a
 * warp hit different banks. Toggles are shared-memory atomics whose result
 * is unused: they issue back to back (no other thread touches the words). */
struct Bits {
  unsigned *w;
  __device__ void toggle (unsigned r) {
    atomicXor (&w[(r >> 5) * TILE_W], __funnelshift_l (0u, 1u, r));
  }
  __device__ int count (int i) const {
    return __popc (w[i * TILE_W]);
  }
};

/* The position of the n-th (0-based) set bit of v, by halving. */
__device__ __forceinline__ int
nth_set_bit (unsigned v, int n)
{
  int pos = 0;
#pragma unroll
  for (int half = 16; half > 0; half >>= 1) {
    const int low = __popc ((v >> pos) & ((1u << half) - 1));
    if (n >= low) {
      n -= low;
      pos += half;
    }
  }
  return pos;
}

template < int R, typename T > __global__ void
__launch_bounds__ (TILE_W)
median_rank_bits (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    int channels, int c, bool copy, const unsigned short *__restrict__ rank,
    const unsigned short *__restrict__ value)
{
  using G = Region < R >;
  constexpr int K = 2 * R + 1, MEDIAN = K * K / 2;
  extern __shared__ unsigned words[];
  const int t = threadIdx.x, x = blockIdx.x * TILE_W + t;
  const int y0 = blockIdx.y * TILE_H, y1 = min (y0 + TILE_H, height);
  if (x >= width)
    return;
  const int s = x * channels + c;
  if (copy) {
    cf_median_copy_column < T > (src, src_stride, dst, dst_stride, s, y0, y1);
    return;
  }
  const size_t tile = (size_t) blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned short *rk = rank + tile * G::N + t;
  const unsigned short *val = value + tile * G::N;

  Bits b = { words + t };
  for (int i = 0; i < G::WORDS; i++)
    b.w[i * TILE_W] = 0;
  for (int dy = 0; dy < K; dy++)
#pragma unroll
    for (int dx = 0; dx < K; dx++)
      b.toggle (rk[dy * G::W + dx]);

  /* word: the bitmap word holding the median rank; below: the window's
   * samples of lower words. */
  int word = 0, below = 0;
  for (int row = 0;; row++) {
    while (below > MEDIAN)
      below -= b.count (--word);
    for (int n; below + (n = b.count (word)) <= MEDIAN; word++)
      below += n;
    const int r = word * 32 + nth_set_bit (b.w[word * TILE_W], MEDIAN - below);
    /* Stored after the next row's toggles, so that the load's latency
     * overlaps them. */
    const T median = (T) val[r];
    T *out_px = &cf_row < T > (dst, dst_stride, y0 + row)[s];
    if (y0 + row + 1 >= y1) {
      *out_px = median;
      break;
    }
    const unsigned short *out = rk + row * G::W, *in = out + K * G::W;
    const unsigned edge = word * 32;
#pragma unroll
    for (int dx = 0; dx < K; dx++) {
      const unsigned r_out = out[dx], r_in = in[dx];
      b.toggle (r_out);
      b.toggle (r_in);
      below += (r_in < edge) - (r_out < edge);
    }
    *out_px = median;
  }
}

template < int R, typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, CfBorder border,
    unsigned mask, void *scratch, cudaStream_t stream)
{
  using G = Region < R >;
  const dim3 grid ((src->width + TILE_W - 1) / TILE_W,
      (src->height + TILE_H - 1) / TILE_H);
  unsigned short *rank = (unsigned short *) scratch;
  unsigned short *value = rank + (size_t) grid.x * grid.y * G::N;
  const size_t smem = sizeof (unsigned) * G::WORDS * TILE_W;
  CfStatus st = cf_allow_smem < median_rank_bits < R, T > >(smem);
  if (st != CF_OK)
    return st;
  /* One channel at a time: the scratch holds one channel's ranks. */
  for (int c = 0; c < src->channels; c++) {
    const bool copy = !((mask >> c) & 1u);
    if (!copy)
      rank_tiles < R, T > <<<grid, SORT_THREADS, 0, stream>>> (src->data,
          src->stride, src->width, src->height, src->channels, c, border,
          rank, value);
    median_rank_bits < R, T > <<<grid, TILE_W, smem, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        src->channels, c, copy, rank, value);
  }
  return cf_launch_status ();
}

}                               /* namespace */

size_t
cf_median_ranks_scratch_size (const CfPlane * plane, int radius)
{
  const size_t tiles = (size_t) ((plane->width + TILE_W - 1) / TILE_W) *
      ((plane->height + TILE_H - 1) / TILE_H);
  const size_t n = (size_t) (TILE_W + 2 * radius) * (TILE_H + 2 * radius);
  return 2 * sizeof (unsigned short) * tiles * n;
}

CfStatus
cf_median_launch_ranks (const CfPlane * src, const CfPlane * dst,
    int radius, CfBorder border, unsigned mask, void *scratch,
    cudaStream_t stream)
{
  return cf_median_for_radius < CF_MEDIAN_RANKS_MIN_RADIUS,
      CF_MEDIAN_RANKS_MAX_RADIUS > (radius,[&](auto r) {
        return src->depth > 8 ?
            launch < r, unsigned short >(src, dst, border, mask, scratch,
            stream) :
            launch < r, unsigned char >(src, dst, border, mask, scratch,
            stream);
      });
}
