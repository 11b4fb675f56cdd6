/* cf_median: checks the parameters, picks a kernel by window and runs the
 * iterations, ping-ponging through scratch memory so that the last one
 * lands in dst. The kernels are in median_registers.cu (3 x 3),
 * median_registers_quad.cu (5 x 5 to 15 x 15), median_strip.cu (thin
 * windows: 1 x 3 to 5 x 23), median_ranks.cu (11 x 11 to 31 x 31),
 * median_histogram.cu (any window) and median_separable.cu (smoother, and
 * 1-D windows longer than the strip kernel takes). */
#include "median.h"
#include "median_kernels.cuh"
#include "cf_runtime.h"

namespace {

/* The windows AUTO gives each exact kernel, by depth (measured on the
 * H100, docs/cudamedian.md). Both depths: registers up to 9 x 9, then
 * tile ranks. 8-bit: ranks at 11 x 11 only (GRAY8 0.37 ms against the
 * sliding histogram's 0.47; at 13 x 13 5% faster on GRAY8 but 2% slower
 * on RGBA, slower from 15 x 15), then the histogram. 16-bit: ranks up to
 * 31 x 31 (1.3 times faster than registers at 11 x 11, 2.0 to 5.9 times
 * faster than the sorted-column kernel they replaced from 15 x 15), then
 * the 16-bit histogram. */
constexpr int AUTO_REGISTERS_MAX_RADIUS = 4;
/* Thin windows: the strip kernel, faster than the histogram on every one
 * measured (H100, docs/cudamedian.md) and than the 1-D radix pass, except
 * 5 x 23 on 8-bit planes of three or more filtered channels, where the
 * 8-bit histogram is a little faster (RGBA 1.174 ms against 1.240 at 4K,
 * 0.285 against 0.316 at 1080p; one channel: 0.398 against 0.345). */
constexpr int AUTO_STRIP_MAX_LONG_RADIUS_5_COLOUR_8 = 10;
constexpr int AUTO_RANKS_MAX_RADIUS_8 = 5;
constexpr int AUTO_RANKS_MAX_RADIUS_16 = CF_MEDIAN_RANKS_MAX_RADIUS;

size_t
row_bytes (const CfPlane * p)
{
  return (size_t) p->width * p->channels * cf_plane_bytes_per_sample (p);
}

size_t
scratch_stride (const CfPlane * p)
{
  return (row_bytes (p) + 255) & ~(size_t) 255;
}

bool
params_valid (const CfMedianParams * p)
{
  if (p->radius_x < 0 || p->radius_x > CF_MEDIAN_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_MEDIAN_MAX_RADIUS
      || p->iterations < 1 || p->iterations > CF_MEDIAN_MAX_ITERATIONS)
    return false;
  if (p->mode != CF_MEDIAN_EXACT && p->mode != CF_MEDIAN_SEPARABLE)
    return false;
  if (p->kernel == CF_MEDIAN_KERNEL_REGISTERS)
    return p->mode == CF_MEDIAN_EXACT && p->radius_x == p->radius_y
        && p->radius_x >= 1 && p->radius_x <= CF_MEDIAN_REGISTERS_MAX_RADIUS;
  if (p->kernel == CF_MEDIAN_KERNEL_RANKS)
    return p->mode == CF_MEDIAN_EXACT && p->radius_x == p->radius_y
        && p->radius_x >= CF_MEDIAN_RANKS_MIN_RADIUS
        && p->radius_x <= CF_MEDIAN_RANKS_MAX_RADIUS;
  if (p->kernel == CF_MEDIAN_KERNEL_STRIP)
    return p->mode == CF_MEDIAN_EXACT
        && cf_median_strip_takes (p->radius_x, p->radius_y);
  return p->kernel == CF_MEDIAN_KERNEL_AUTO
      || p->kernel == CF_MEDIAN_KERNEL_HISTOGRAM;
}

/* The exact kernel for p on @plane; AUTO for a 1-D window that the strip
 * kernel does not take (longer than 1 x 31): the separable kernel's single
 * pass, radix select, is its exact median (median_pass). Thin windows run
 * on the strip kernel, other non-square ones on the sliding histogram. */
CfMedianKernel
exact_kernel (const CfMedianParams * p, const CfPlane * plane)
{
  if (p->kernel != CF_MEDIAN_KERNEL_AUTO)
    return p->kernel;
  const int depth = plane->depth;
  if (p->radius_x != p->radius_y) {
    const int shorter = p->radius_x < p->radius_y ? p->radius_x : p->radius_y;
    const int longer = p->radius_x + p->radius_y - shorter;
    const int filtered = __builtin_popcount (p->channel_mask &
        CF_ALL_CHANNELS (plane->channels));
    if (cf_median_strip_takes (p->radius_x, p->radius_y)
        && !(depth <= 8 && filtered >= 3 && shorter == 2
            && longer > AUTO_STRIP_MAX_LONG_RADIUS_5_COLOUR_8))
      return CF_MEDIAN_KERNEL_STRIP;
    if (shorter == 0)
      return CF_MEDIAN_KERNEL_AUTO;
    return CF_MEDIAN_KERNEL_HISTOGRAM;
  }
  if (p->radius_x <= AUTO_REGISTERS_MAX_RADIUS)
    return CF_MEDIAN_KERNEL_REGISTERS;
  if (p->radius_x <= (depth > 8 ? AUTO_RANKS_MAX_RADIUS_16 :
          AUTO_RANKS_MAX_RADIUS_8))
    return CF_MEDIAN_KERNEL_RANKS;
  return CF_MEDIAN_KERNEL_HISTOGRAM;
}

/* One iteration from in to out; `cols` holds the separable column pass,
 * `ranks` the rank kernel's tiles. */
CfStatus
median_pass (const CfPlane * in, const CfPlane * out, const CfPlane * cols,
    void *ranks, const CfMedianParams * p, unsigned mask,
    const CfGateTile & gate, cudaStream_t stream)
{
  if (p->mode == CF_MEDIAN_EXACT) {
    switch (exact_kernel (p, in)) {
      case CF_MEDIAN_KERNEL_REGISTERS:
        return p->radius_x == 1 ?
            cf_median_launch_registers_3x3 (in, out, p->border, mask, gate,
            stream) :
            cf_median_launch_registers_quad (in, out, p->radius_x, p->border,
            mask, gate, stream);
      case CF_MEDIAN_KERNEL_RANKS:
        return cf_median_launch_ranks (in, out, p->radius_x, p->border,
            mask, ranks, stream);
      case CF_MEDIAN_KERNEL_STRIP:
        return cf_median_launch_strip (in, out, p->radius_x, p->radius_y,
            p->border, mask, gate, stream);
      case CF_MEDIAN_KERNEL_HISTOGRAM:
        return cf_median_launch_histogram (in, out, p->radius_x, p->radius_y,
            p->border, mask, gate, stream);
      case CF_MEDIAN_KERNEL_AUTO:
        break;                  /* a 1-D window: the radix pass below */
    }
  }
  if (p->radius_x == 0)
    return cf_median_launch_1d (in, out, p->radius_y, 1, p->border, mask,
        stream);
  if (p->radius_y == 0)
    return cf_median_launch_1d (in, out, p->radius_x, 0, p->border, mask,
        stream);
  CfStatus st = cf_median_launch_1d (in, cols, p->radius_y, 1, p->border,
      mask, stream);
  if (st != CF_OK)
    return st;
  return cf_median_launch_1d (cols, out, p->radius_x, 0, p->border, mask,
      stream);
}

}                               /* namespace */

extern "C" size_t
cf_median_scratch_size (const CfPlane * plane, const CfMedianParams * p)
{
  int planes = (p->iterations > 1) + (p->mode == CF_MEDIAN_SEPARABLE
      && p->radius_x > 0 && p->radius_y > 0);
  size_t bytes = planes * scratch_stride (plane) * plane->height;
  if (p->mode == CF_MEDIAN_EXACT
      && exact_kernel (p, plane) == CF_MEDIAN_KERNEL_RANKS)
    bytes += cf_median_ranks_scratch_size (plane, p->radius_x);
  return bytes;
}

extern "C" CfStatus
cf_median (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfMedianParams * p)
{
  if (!exec->on_gpu)
    return cf_median_ref (src, dst, p);

  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (!params_valid (p) || !exec->stream)
    return CF_ERROR_INVALID;

  unsigned mask = p->channel_mask & CF_ALL_CHANNELS (src->channels);
  if (mask == 0 || (p->radius_x == 0 && p->radius_y == 0))
    return cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
        row_bytes (src), src->height, exec->stream);

  /* Scratch: the previous iteration's output, then the separable column
   * pass or the rank kernel's tiles (one mode has one of them). */
  CfPlane iter = *src, cols = *src;
  void *ranks = NULL;
  size_t need = cf_median_scratch_size (src, p);
  if (need > 0) {
    if (!exec->scratch)
      return CF_ERROR_INVALID;
    st = cf_scratch_reserve (exec->scratch, need);
    if (st != CF_OK)
      return st;
    size_t plane_bytes = scratch_stride (src) * src->height;
    unsigned char *next = (unsigned char *) exec->scratch->data;
    iter.stride = cols.stride = scratch_stride (src);
    if (p->iterations > 1) {
      iter.data = next;
      next += plane_bytes;
    }
    cols.data = ranks = next;
  }

  cudaStream_t stream = (cudaStream_t) exec->stream;
  const CfPlane *in = src;
  for (int i = 0; i < p->iterations && st == CF_OK; i++) {
    /* Alternate so that the last iteration writes dst. */
    const CfPlane *out = (p->iterations - 1 - i) % 2 == 0 ? dst : &iter;
    /* only the last iteration's output may be left unwritten */
    const CfGateTile gate = cf_gate_tile (i + 1 == p->iterations ? p->gate :
        NULL);
    st = median_pass (in, out, &cols, ranks, p, mask, gate, stream);
    in = out;
  }
  return st;
}
