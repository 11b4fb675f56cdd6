/* Internal to cudasatblur: what its host code (satblur.cu) and its two
 * kernel files (satblur_columns.cu, satblur_bands.cu) share. A thread works
 * on a run of run_samples () samples of a row (whole pixels), loaded and
 * stored in as few vector accesses as the run's bytes allow. */
#ifndef CF_SATBLUR_KERNELS_CUH
#define CF_SATBLUR_KERNELS_CUH

#include "satblur.h"
#include "satblur_divide.h"
#include "cf_kernel.cuh"

namespace satblur {

/* Samples per thread, whole pixels: 8 for 1 channel, 16 for 2 and 4, 24
 * for 3, so that a 4K row takes at most 480 threads, 960 for four
 * channels. */
__host__ __device__ constexpr int
run_samples (int channels)
{
  return channels == 3 ? 24 : (channels == 1 ? 8 : 16);
}

/* Where element e of a row prefix lives in shared memory: one pad after
 * every run of n samples, so that the threads of a warp, each at the same
 * place in its own run, use different banks. */
__host__ __device__ constexpr int
pidx (int e, int n)
{
  return e + (int) ((unsigned) e / n);
}

/* Threads of a band block at most (its launch bounds): four channels take
 * twice as many threads per row, at half the registers each. */
__host__ __device__ constexpr int
band_max_threads (int channels)
{
  return channels == 4 ? 1024 : 512;
}

/* Blocks of band_max_threads () a multiprocessor should hold at once (the
 * launch bounds' register budget): three for one channel's short runs, but
 * no more than fit, or ptxas ignores the bound with a warning (Turing). */
__host__ __device__ constexpr int
band_min_blocks (int channels)
{
  return cf_min_blocks (channels == 1 ? 3 : (channels == 2 ? 2 : 1),
      band_max_threads (channels));
}

/* The plane is read and written in vectors of this many bytes when its
 * pointer and stride are multiples of it: 16 for runs of 16, 32, 48 or 64
 * bytes, 8 for 24. */
__host__ __device__ constexpr int
vector_bytes (int run_bytes)
{
  return run_bytes % 16 == 0 ? 16 : (run_bytes % 8 == 0 ? 8 : 4);
}

/* One run of N samples of type T (8, 16 or 32 bits), packed in 32-bit
 * words. */
template < typename T, int N > struct Run {
  static constexpr int PER_WORD = 4 / sizeof (T);
  static constexpr int WORDS = N / PER_WORD;
  static constexpr int BITS = 8 * sizeof (T);
  static constexpr unsigned MASK = ~0u >> (32 - BITS);
  unsigned w[WORDS];

  __device__ __forceinline__ unsigned get (int j) const {
    return (w[j / PER_WORD] >> (BITS * (j % PER_WORD))) & MASK;
  }
  __device__ __forceinline__ void set (int j, unsigned v) {
    const int k = j / PER_WORD, sh = BITS * (j % PER_WORD);
    w[k] = (w[k] & ~(MASK << sh)) | (v << sh);
  }
};

/* Loads `valid` samples of a run (the others read as 0); whole-vector loads
 * when the run is complete and `vec` says the plane is aligned for them. */
template < typename T, int N > __device__ __forceinline__ Run < T, N >
load_run (const T * __restrict__ p, int valid, bool vec)
{
  typedef Run < T, N > R;
  constexpr int VB = vector_bytes (N * sizeof (T));
  R r;
  if (vec && valid >= N) {
#pragma unroll
    for (int k = 0; k < R::WORDS; k += VB / 4) {
      if constexpr (VB == 16) {
        uint4 v = __ldg ((const uint4 *) p + k / 4);
        r.w[k] = v.x;
        r.w[k + 1] = v.y;
        r.w[k + 2] = v.z;
        r.w[k + 3] = v.w;
      } else if constexpr (VB == 8) {
        uint2 v = __ldg ((const uint2 *) p + k / 2);
        r.w[k] = v.x;
        r.w[k + 1] = v.y;
      } else {
        r.w[k] = __ldg ((const unsigned *) p + k);
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < R::WORDS; k++)
      r.w[k] = 0;
#pragma unroll
    for (int j = 0; j < N; j++)
      if (j < valid)
        r.set (j, p[j]);
  }
  return r;
}

/* Stores the first `valid` samples of a run. */
template < typename T, int N > __device__ __forceinline__ void
store_run (T * __restrict__ p, const Run < T, N > &r, int valid, bool vec)
{
  typedef Run < T, N > R;
  constexpr int VB = vector_bytes (N * sizeof (T));
  if (vec && valid >= N) {
#pragma unroll
    for (int k = 0; k < R::WORDS; k += VB / 4) {
      if constexpr (VB == 16)
        ((uint4 *) p)[k / 4] = make_uint4 (r.w[k], r.w[k + 1], r.w[k + 2],
            r.w[k + 3]);
      else if constexpr (VB == 8)
        ((uint2 *) p)[k / 2] = make_uint2 (r.w[k], r.w[k + 1]);
      else
        ((unsigned *) p)[k] = r.w[k];
    }
  } else {
#pragma unroll
    for (int j = 0; j < N; j++)
      if (j < valid)
        p[j] = (T) r.get (j);
  }
}

/* Rows per segment of the column sums. */
constexpr int SEG_ROWS = 8;

/* Column sums: per segment of SEG_ROWS rows, each column's sum (seg: 16
 * bits for 8-bit samples, SEG_ROWS x 255 < 2^16, else 32), then C(s) = the
 * sum of the rows above segment s, for s = 0..segments (the last is the
 * whole column), modulo 2^32. */
struct ColumnArgs {
  const void *src;
  size_t src_stride;
  int n, height;                /* samples per row, rows */
  int segments;
  void *seg;                    /* segments x pitch */
  unsigned *prefix;             /* (segments + 1) x pitch */
  int pitch;                    /* elements, a multiple of 64 holding the
                                 * band kernel's whole runs; all written */
  bool vec;
};

/* The blur of one pass, a block per band of band_rows rows (the last band
 * may be shorter). */
struct BandArgs {
  const void *src;
  size_t src_stride;
  void *dst;
  size_t dst_stride;
  const unsigned *col_prefix;   /* ColumnArgs.prefix; NULL when ry = 0 */
  void *gpre;                   /* row prefixes in global memory, or NULL */
  unsigned *gwin;               /* window sums in global memory when a row
                                 * takes several rounds of the block, or NULL */
  size_t pre_len;               /* elements of one block's row prefix */
  int pitch;                    /* ColumnArgs.pitch: elements of a row of
                                 * col_prefix, and of one block's gwin */
  int width, height, rx, ry, band_rows;
  CfBorder border;
  unsigned mask;
  unsigned long long count;
  float inv_count;
  CfRoundDiv div;               /* 32-bit sums: satblur_divide.h */
  bool vec_src, vec_dst;
};

/* Samples per thread of the column sums: their loads are vectors of
 * vector_bytes (COLUMN_RUN x bytes per sample). */
constexpr int COLUMN_RUN = 16;

/* Launches the column sums and their scan. */
CfStatus launch_columns (const ColumnArgs & a, int depth, cudaStream_t stream);

/* Launches the band kernel: threads per block, blocks, dynamic shared
 * memory (0 when the prefix is in gpre), 64-bit row prefixes or not. */
CfStatus launch_bands (const BandArgs & a, int depth, int channels,
    bool acc64, int threads, int blocks, size_t smem, cudaStream_t stream);

/* What the host plans a band kernel's blocks from, for each kernel
 * [16-bit][64-bit sums][C - 1]: registers per thread and static shared
 * memory per block. */
struct BandKernels {
  int regs[2][2][4];
  int static_shared[2][2][4];
};

/* Once per device, at setup: lets every band kernel use up to `bytes` of
 * dynamic shared memory on `device` (less its static shared memory), in all
 * its contexts, and reads what BandKernels holds. */
cudaError_t setup_bands (int device, int bytes, BandKernels * k);

/* v summed over lanes 0..lane of the warp (every lane takes part). */
template < typename Acc > __device__ __forceinline__ Acc
warp_inclusive_scan (Acc v, int lane)
{
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    Acc t = __shfl_up_sync (0xffffffffu, v, d);
    if (lane >= d)
      v += t;
  }
  return v;
}

}                               /* namespace satblur */

#endif /* CF_SATBLUR_KERNELS_CUH */
