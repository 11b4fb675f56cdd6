/* The median kernels' launchers, one per method, for median.cu. Each filters
 * the channels in `mask` of src into dst and copies the other channels. */
#ifndef CF_MEDIAN_KERNELS_CUH
#define CF_MEDIAN_KERNELS_CUH

#include "cf_kernel.cuh"
#include "median.h"
#include "gate_tile.cuh"

#include <type_traits>

/* Where sample j of a row (width pixels of ch channels) is read from: its
 * pixel brought inside the row by the border rule, its channel kept. */
__device__ __forceinline__ int
cf_median_border_sample (int j, int width, int ch, CfBorder border)
{
  int x = j >= 0 ? j / ch : -((ch - 1 - j) / ch);
  return cf_border_index (x, width, border) * ch + (j - x * ch);
}

/* The channels of `mask` among `channels`, 4 bits each in order (the
 * register kernels' thread-to-channel map); *filtered: how many. */
inline unsigned
cf_median_channel_order (int channels, unsigned mask, int *filtered)
{
  unsigned order = 0;
  *filtered = 0;
  for (int c = 0; c < channels; c++)
    if ((mask >> c) & 1u)
      order |= (unsigned) c << (4 * (*filtered)++);
  return order;
}

/* Copies sample s of rows y0..y1 (a channel that is not filtered). */
template < typename T > __device__ void
cf_median_copy_column (const void *src, size_t src_stride, void *dst,
    size_t dst_stride, int s, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    cf_row < T > (dst, dst_stride, y)[s] = cf_row < T > (src, src_stride, y)[s];
}

/* Calls launch (std::integral_constant < int, R > ()) for the R of LO..HI
 * that equals radius, so that a launcher instantiates its kernel for each
 * radius it takes; CF_ERROR_INVALID for any other radius. */
template < int LO, int HI, typename Launch > CfStatus
cf_median_for_radius (int radius, const Launch & launch)
{
  if constexpr (LO > HI) {
    return CF_ERROR_INVALID;
  } else {
    if (radius == LO)
      return launch (std::integral_constant < int, LO > ());
    return cf_median_for_radius < LO + 1, HI > (radius, launch);
  }
}

/* The register and histogram kernels skip blocks that @gate
 * (cf_gate_tile) closes wholly: dst is left unwritten there. */

/* Exact 3 x 3: forgetful selection in registers, two rows sharing
 * (median_registers.cu). */
CfStatus cf_median_launch_registers_3x3 (const CfPlane * src,
    const CfPlane * dst, CfBorder border, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream);

/* Exact, square windows of radius 2..CF_MEDIAN_REGISTERS_MAX_RADIUS:
 * forgetful selection shared by 2 x 2 outputs (median_registers_quad.cu). */
CfStatus cf_median_launch_registers_quad (const CfPlane * src,
    const CfPlane * dst, int radius, CfBorder border, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream);

/* Exact, thin windows (CF_MEDIAN_STRIP_*: 1x3 .. 1x31, 3x5 .. 3x31,
 * 5x7 .. 5x23 and their transposes): forgetful selection shared by a strip
 * of outputs along the long side (median_strip.cu). */
bool cf_median_strip_takes (int radius_x, int radius_y);
CfStatus cf_median_launch_strip (const CfPlane * src, const CfPlane * dst,
    int radius_x, int radius_y, CfBorder border, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream);

/* Exact, any window: sliding histograms (median_histogram.cu). */
CfStatus cf_median_launch_histogram (const CfPlane * src, const CfPlane * dst,
    int radius_x, int radius_y, CfBorder border, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream);

/* Exact, square windows of radius CF_MEDIAN_RANKS_MIN_RADIUS..MAX_RADIUS:
 * tile ranks and a sliding bitmap per output column (median_ranks.cu).
 * scratch: cf_median_ranks_scratch_size () bytes of device memory. */
CfStatus cf_median_launch_ranks (const CfPlane * src, const CfPlane * dst,
    int radius, CfBorder border, unsigned mask, void *scratch,
    cudaStream_t stream);
size_t cf_median_ranks_scratch_size (const CfPlane * plane, int radius);

/* One axis of the separable smoother: medians of 2 radius + 1 samples along
 * x (vertical = 0) or y (vertical = 1) (median_separable.cu). */
CfStatus cf_median_launch_1d (const CfPlane * src, const CfPlane * dst,
    int radius, int vertical, CfBorder border, unsigned mask,
    cudaStream_t stream);

#endif /* CF_MEDIAN_KERNELS_CUH */
