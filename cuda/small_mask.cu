/* The variants of the vector kernel (small_mask.cuh) the filters run, and
 * the planes they run on: those where it beat the older kernels on an H100
 * (tests/micro_small_mask.cu, bench_gaussian masks, bench_convolve;
 * docs/performance.md). Elsewhere (three channels, 16-bit with several
 * channels) the older kernels stay. */
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

/* Rows a thread down (H100 and H200, tests/micro_small_mask and
 * bench_convolve at 4K and 1080p). 8-bit samples (overlapping warps, rows
 * loaded first): 2, but 1 for 3x3 masks on one- and two-channel planes of
 * fewer than SMALL_PLANE samples (1080p GRAY8 3x3: 0.010 against 0.012 ms;
 * 1 was 5% slower on 4K GRAY8 and 3% on 4K NV12's chroma in the
 * microbenchmark, NV12 level in bench_convolve); 4 was slower everywhere.
 * 16-bit samples: 4 for 3x3 and 2 for 5x5 (0.031 against 0.034 ms at 4K). */
template < typename T, int R > constexpr int
rows_down ()
{
  return sizeof (T) == 1 || R == 2 ? 2 : 4;
}

constexpr size_t SMALL_PLANE = (size_t) 1 << 21;

/* Integer taps (small_mask_args.h: the convolution's byte taps or the
 * Gaussian's fixed-point ones; 8-bit samples): 2 rows a thread, but on
 * four-channel planes of at least LARGE_PLANE samples (4K RGBA) 3 for 3x3
 * and 4 for 5x5 and 7x7 masks (tests/micro_small_mask, H100, 2026-11-27,
 * 4K RGBA: integer 3x3 0.0424 -> 0.0404 ms, 5x5 0.0569 -> 0.0532, 7x7
 * 0.0798 -> 0.0766, the Gaussian's 5x5 0.0637 -> 0.0571, 7x7 0.0930 ->
 * 0.0883; at 1080p 2 rows stayed level or 0-9% faster). */
template < int C, int R > constexpr int
integer_rows_large ()
{
  return C == 4 ? (R == 1 ? 3 : 4) : 2;
}

constexpr size_t LARGE_PLANE = (size_t) 1 << 24;

template < typename T, int C, int R, int ROWS, unsigned CMASK > void
launch_integer (const CfPlane * src, const CfPlane * dst,
    const CfMaskArgs & a, cudaStream_t stream)
{
  constexpr int VB = vector_bytes < T > ();
  /* the Gaussian's fixed-point weights up to radius 2 (the separable
   * engine takes radius 3), the convolution's integer taps up to 3 */
  if constexpr (R <= 2)
    if (a.tap_bits == 16) {
      launch < T, C, R, VB, ROWS, CMASK, false, 16 > (src->data,
          src->stride, dst->data, dst->stride, src->width, src->height, a,
          stream);
      return;
    }
  launch < T, C, R, VB, ROWS, CMASK, false, 8 > (src->data, src->stride,
      dst->data, dst->stride, src->width, src->height, a, stream);
}

template < typename T, int C, int R, int ROWS, unsigned CMASK > void
launch_rows (const CfPlane * src, const CfPlane * dst, const CfMaskArgs & a,
    cudaStream_t stream)
{
  constexpr int VB = vector_bytes < T > ();
  /* the unsharp step in its own variant (the blur and convolution skip it) */
  if (a.amount != 0.0f)
    launch < T, C, R, VB, ROWS, CMASK, true > (src->data, src->stride,
        dst->data, dst->stride, src->width, src->height, a, stream);
  else
    launch < T, C, R, VB, ROWS, CMASK > (src->data, src->stride, dst->data,
        dst->stride, src->width, src->height, a, stream);
}

template < typename T, int C, int R, unsigned CMASK = 0xFu > void
launch_vector (const CfPlane * src, const CfPlane * dst, const CfMaskArgs & a,
    cudaStream_t stream)
{
  const size_t samples = (size_t) src->width * C * src->height;
  if constexpr (sizeof (T) == 1) {
    if (a.tap_bits) {
      constexpr int LR = integer_rows_large < C, R > ();
      if (LR != 2 && samples >= LARGE_PLANE)
        launch_integer < T, C, R, LR, CMASK > (src, dst, a, stream);
      else
        launch_integer < T, C, R, 2, CMASK > (src, dst, a, stream);
      return;
    }
    if constexpr (R == 1 && C <= 2) {
      if (samples < SMALL_PLANE) {
        launch_rows < T, C, R, 1, CMASK > (src, dst, a, stream);
        return;
      }
    }
  }
  /* radius 3: integer taps only (cf_small_mask_fits) */
  if constexpr (R <= 2)
    launch_rows < T, C, R, rows_down < T, R > (), CMASK > (src, dst, a,
        stream);
}

template < typename T, int C, unsigned CMASK = 0xFu > void
launch_radius (const CfPlane * src, const CfPlane * dst, int r,
    const CfMaskArgs & a, cudaStream_t stream)
{
  if (r <= 1)
    launch_vector < T, C, 1, CMASK > (src, dst, a, stream);
  else if (r == 2)
    launch_vector < T, C, 2, CMASK > (src, dst, a, stream);
  else if constexpr (sizeof (T) == 1)
    launch_vector < T, C, 3, CMASK > (src, dst, a, stream);
}

/* The planes cf_small_mask_fits lets through. */
CfStatus
launch_plane (const CfPlane * src, const CfPlane * dst, int r,
    const CfMaskArgs & a, cudaStream_t stream)
{
  if (src->depth > 8)
    launch_radius < unsigned short, 1 > (src, dst, r, a, stream);
  else if (src->channels == 1)
    launch_radius < unsigned char, 1 > (src, dst, r, a, stream);
  else if (src->channels == 2)
    launch_radius < unsigned char, 2 > (src, dst, r, a, stream);
  else if (!(a.mask & 8u))
    /* the fourth channel (alpha) copied: not computed at all */
    launch_radius < unsigned char, 4, 7u > (src, dst, r, a, stream);
  else
    launch_radius < unsigned char, 4 > (src, dst, r, a, stream);
  return cf_launch_status ();
}

/* Radii 1 and 2 where the kernel was the faster one; radius 3 with
 * integer taps on 8-bit planes (of four channels, warps overlapping by
 * two lanes). Rows start on the vector. */
bool
fits (const CfPlane * src, const CfPlane * dst, int radius, bool integer)
{
  const unsigned vb = src->depth > 8 ? vector_bytes < unsigned short > () :
      vector_bytes < unsigned char > ();
  const bool taken = radius <= 2 ? src->channels != 3 && (src->depth == 8
      || src->channels == 1) : radius == 3 && integer && src->depth == 8
      && src->channels != 3;
  return taken && ((uintptr_t) src->data | (uintptr_t) dst->data |
      src->stride | dst->stride) % vb == 0;
}

}                               /* namespace */

/* The Gaussian up to radius 2: at radius 3 the separable engine is faster
 * (H100, 4K, sigma 0.8: GRAY8 0.032 -> 0.025 ms, RGBA 0.090 -> 0.084). */
bool
cf_small_mask_gaussian_fits (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  return r <= 2 && fits (src, dst, r, cf_mask_gaussian_fixed (dst, p));
}

bool
cf_small_mask_convolve_fits (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params)
{
  int taps[CF_MASK_MAX_K * CF_MASK_MAX_K];
  const int k = plan->width;
  return k == plan->height && k >= 3 && k <= CF_MASK_MAX_K
      && fits (src, dst, k / 2, cf_mask_convolve_integer (dst, params, k,
          taps));
}

CfStatus
cf_small_mask_gaussian (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p, cudaStream_t stream)
{
  const CfMaskArgs a = cf_mask_args_gaussian (dst, p);
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  return launch_plane (src, dst, r, a, stream);
}

CfStatus
cf_small_mask_convolve (const CfPlane * src, const CfPlane * dst,
    const CfConvolvePlan * plan, const CfConvolveParams * params,
    cudaStream_t stream)
{
  return launch_plane (src, dst, plan->width / 2,
      cf_mask_args_convolve (dst, plan, params), stream);
}
