/* The variants of the vector kernel (small_mask.cuh) the filters run, and
 * the planes they run on: those where it beat the older kernels on an H100
 * (tests/micro_small_mask.cu, bench_gaussian masks, bench_convolve;
 * docs/performance.md). Elsewhere (8-bit 5x5, two-channel chroma, three
 * channels, 16-bit with several channels) the older kernels stay. */
#include "small_mask.h"
#include "small_mask.cuh"

using namespace cf_small_mask;

namespace {

/* Bytes a thread across: 8 for 8-bit samples (16 took 3 to 12 times the
 * copy's time: twice the registers, a quarter of the threads), 16 for
 * 16-bit ones; the same 8 samples either way. */
template < typename T > constexpr int
vector_bytes ()
{
  return sizeof (T) == 1 ? 8 : 16;
}

/* Rows a thread down: fewer rows, more threads in flight. 4 beat 8 and 16
 * everywhere and 2 on most planes; 2 is faster for the full 16-bit 5x5
 * (H100, bench_convolve at 4K: 0.031 against 0.034 ms), slower for the
 * Gaussian's (bench_gaussian masks: 0.044-0.045 against 0.038). */
template < typename T, int R, int MODE > constexpr int
rows_down ()
{
  return sizeof (T) == 2 && R == 2 && MODE == FULL ? 2 : 4;
}

template < typename T, int C, int R, int MODE > void
launch_vector (const CfPlane * src, const CfPlane * dst, const CfMaskArgs & a,
    cudaStream_t stream)
{
  launch < T, C, R, MODE, vector_bytes < T > (), rows_down < T, R, MODE > () >
      (src->data, src->stride, dst->data, dst->stride, src->width,
      src->height, a, stream);
}

/* The planes cf_small_mask_fits lets through: one channel at 16 bits (3x3
 * and 5x5), one or four at 8 bits (3x3 only). */
template < int MODE > CfStatus
launch_plane (const CfPlane * src, const CfPlane * dst, int r,
    const CfMaskArgs & a, cudaStream_t stream)
{
  if (src->depth > 8) {
    if (r <= 1)
      launch_vector < unsigned short, 1, 1, MODE > (src, dst, a, stream);
    else
      launch_vector < unsigned short, 1, 2, MODE > (src, dst, a, stream);
  } else if (src->channels == 1) {
    launch_vector < unsigned char, 1, 1, MODE > (src, dst, a, stream);
  } else if (!(a.mask & 8u)) {
    /* the fourth channel (alpha) copied: not computed at all */
    launch < unsigned char, 4, 1, MODE, vector_bytes < unsigned char > (),
        rows_down < unsigned char, 1, MODE > (), 7u > (src->data, src->stride,
        dst->data, dst->stride, src->width, src->height, a, stream);
  } else {
    launch_vector < unsigned char, 4, 1, MODE > (src, dst, a, stream);
  }
  return cf_launch_status ();
}

}                               /* namespace */

bool
cf_small_mask_fits (const CfPlane * src, const CfPlane * dst, int radius)
{
  const unsigned vb = src->depth > 8 ? vector_bytes < unsigned short > () :
      vector_bytes < unsigned char > ();
  const bool taken = src->depth > 8 ? src->channels == 1 && radius <= 2 :
      radius == 1 && (src->channels == 1 || src->channels == 4);
  return taken && ((uintptr_t) src->data | (uintptr_t) dst->data |
      src->stride | dst->stride) % vb == 0;
}

CfStatus
cf_small_mask_gaussian (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p, cudaStream_t stream)
{
  const CfMaskArgs a = cf_mask_args_gaussian (dst, p);
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  return launch_plane < GAUSS > (src, dst, r, a, stream);
}

CfStatus
cf_small_mask_convolve (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream)
{
  return launch_plane < FULL > (src, dst, plan->width / 2,
      cf_mask_args_convolve (dst, plan, params), stream);
}
