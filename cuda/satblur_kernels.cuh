/* Internal to cudasatblur: what its host code (satblur.cu) and its two
 * kernel files (satblur_columns.cu, satblur_bands.cu) share. A thread works
 * on a run of RUN samples of a row (whole pixels), loaded and stored in as
 * few vector accesses as the run's bytes allow. */
#ifndef CF_SATBLUR_KERNELS_CUH
#define CF_SATBLUR_KERNELS_CUH

#include "satblur.h"
#include "cf_kernel.cuh"

namespace satblur {

/* Samples per thread: 16, or 12 for 3 channels (whole pixels). */
template < int C > __host__ __device__ constexpr int run_samples () {
  return C == 3 ? 12 : 16;
}

/* The plane is read and written in vectors of this many bytes when its
 * pointer and stride are multiples of it: 16 for runs of 16 or 32 bytes,
 * 8 for 24, 4 for 12. */
__host__ __device__ constexpr int
vector_bytes (int run_bytes)
{
  return run_bytes % 16 == 0 ? 16 : (run_bytes % 8 == 0 ? 8 : 4);
}

/* One run of N samples of type T, packed in 32-bit words. */
template < typename T, int N > struct Run {
  static constexpr int PER_WORD = 4 / sizeof (T);
  static constexpr int WORDS = N / PER_WORD;
  static constexpr int BITS = 8 * sizeof (T);
  unsigned w[WORDS];

  __device__ __forceinline__ unsigned get (int j) const {
    return (w[j / PER_WORD] >> (BITS * (j % PER_WORD))) &
        ((1u << BITS) - 1u);
  }
  __device__ __forceinline__ void set (int j, unsigned v) {
    const int k = j / PER_WORD, sh = BITS * (j % PER_WORD);
    w[k] = (w[k] & ~(((1u << BITS) - 1u) << sh)) | (v << sh);
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

/* Column sums: per segment of seg_rows rows, each column's sum (seg), then
 * C(s) = the sum of the rows above segment s, for s = 0..segments (the
 * last is the whole column), all modulo 2^32. */
struct ColumnArgs {
  const void *src;
  size_t src_stride;
  int n, height;                /* samples per row, rows */
  int run_n;                    /* n rounded up to whole runs */
  int seg_rows, segments;
  unsigned *seg;                /* segments x pitch */
  unsigned *prefix;             /* (segments + 1) x pitch */
  int pitch;                    /* elements, >= run_n, a multiple of 64 */
  bool vec;
};

/* The blur of one pass, a block per band of band_rows rows. */
struct BandArgs {
  const void *src;
  size_t src_stride;
  void *dst;
  size_t dst_stride;
  const unsigned *col_prefix;   /* ColumnArgs.prefix; NULL when ry = 0 */
  int col_pitch, seg_rows;
  void *gpre;                   /* row prefixes in global memory, or NULL */
  unsigned *gwin;               /* window sums in global memory when a row
                                 * takes several rounds of the block, or NULL */
  size_t pre_len;               /* elements of one block's row prefix */
  int win_pitch;                /* elements of one block's window sums */
  int width, height, rx, ry, band_rows, bands;
  CfBorder border;
  unsigned mask;
  unsigned long long count;
  float inv_count;
  bool vec_src, vec_dst;
};

/* Launches the column sums and their scan. */
CfStatus launch_columns (const ColumnArgs & a, int depth, int channels,
    cudaStream_t stream);

/* Launches the band kernel: threads per block, blocks, dynamic shared
 * memory (0 when the prefix is in gpre), 64-bit row prefixes or not. */
CfStatus launch_bands (const BandArgs & a, int depth, int channels,
    bool acc64, int threads, int blocks, size_t smem, cudaStream_t stream);

/* Lets every band kernel use up to `bytes` of dynamic shared memory on
 * `device`, in all its contexts: once per device, at setup. */
cudaError_t allow_band_shared (int device, int bytes);

}                               /* namespace satblur */

#endif /* CF_SATBLUR_KERNELS_CUH */
