/* The direct Gaussian for radii whose halos do not fit the separable
 * engine's shared memory (cf_separable_fits): rows into a float
 * scratch frame, then columns into dst, one thread per sample, every tap
 * read through L1. Slow (it is what the window path replaces), but it is
 * the direct truncated Gaussian at every radius. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int THREADS = 256;

struct Taps {
  float w[CF_GAUSSIAN_MAX_RADIUS + 1];
  int r;
};

template < typename T > __global__ void
__launch_bounds__ (THREADS)
wide_rows (const void *__restrict__ src, size_t stride, float *__restrict__ tmp,
    int width, int height, int channels, unsigned mask, CfBorder border,
    const Taps t)
{
  const int samples = width * channels;
  const int s = blockIdx.x * THREADS + threadIdx.x, y = blockIdx.y;
  if (s >= samples)
    return;
  const int c = s % channels, x = s / channels;
  if (!((mask >> c) & 1u))
    return;
  const T *in = cf_row < T > (src, stride, y) + c;
  float acc = t.w[0] * (float) in[x * channels];
  for (int k = 1; k <= t.r; k++)
    acc += t.w[k] * ((float) in[cf_border_index (x - k, width, border) *
            channels] + (float) in[cf_border_index (x + k, width,
                border) * channels]);
  tmp[(size_t) y * samples + s] = acc;
}

template < typename T > __global__ void
__launch_bounds__ (THREADS)
wide_columns (const float *__restrict__ tmp, const void *__restrict__ src,
    size_t src_stride, void *__restrict__ dst, size_t dst_stride, int width,
    int height, int channels, unsigned mask, CfBorder border, float amount,
    float threshold, float max, const Taps t)
{
  const int samples = width * channels;
  const int s = blockIdx.x * THREADS + threadIdx.x, y = blockIdx.y;
  if (s >= samples)
    return;
  const T in = cf_row < T > (src, src_stride, y)[s];
  T *out = cf_row < T > (dst, dst_stride, y) + s;
  if (!((mask >> (s % channels)) & 1u)) {
    *out = in;
    return;
  }
  const float *col = tmp + s;
  float acc = t.w[0] * col[(size_t) y * samples];
  for (int k = 1; k <= t.r; k++)
    acc += t.w[k] * (col[(size_t) cf_border_index (y - k, height,
                border) * samples] + col[(size_t) cf_border_index (y + k,
                height, border) * samples]);
  *out = (T) fminf (cf_round_up_clamped < T > (cf_gaussian_finish ((float) in,
              acc, amount, threshold)), max);
}

void
taps (double sigma, int radius, Taps * t)
{
  t->w[0] = 1.0f;
  t->r = radius;
  if (radius > 0)
    cf_gaussian_weights (sigma, radius, t->w);
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, float *tmp,
    const CfGaussianParams * p, cudaStream_t stream)
{
  Taps tx, ty;
  const int c = src->channels, samples = src->width * c;
  const float max = (float) cf_plane_max (dst);
  taps (p->sigma_x, p->radius_x, &tx);
  taps (p->sigma_y, p->radius_y, &ty);
  dim3 grid ((samples + THREADS - 1) / THREADS, src->height);
  wide_rows < T > <<<grid, THREADS, 0, stream>>> (src->data, src->stride, tmp,
      src->width, src->height, c, p->channel_mask, p->border, tx);
  wide_columns < T > <<<grid, THREADS, 0, stream>>> (tmp, src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, c,
      p->channel_mask, p->border, (float) p->sharpen,
      (float) (p->threshold * max), max, ty);
  return cf_launch_status ();
}

}                               /* namespace */

extern "C" CfStatus
cf_gaussian_scratch (const CfExec * exec, size_t bytes, void **data)
{
  if (!exec->scratch)
    return CF_ERROR_INVALID;
  CfStatus st = cf_scratch_reserve (exec->scratch, bytes);
  *data = exec->scratch->data;
  return st;
}

extern "C" CfStatus
cf_gaussian_wide (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * p)
{
  void *tmp;
  CfStatus st = cf_gaussian_scratch (exec,
      sizeof (float) * src->width * src->channels * src->height, &tmp);
  if (st != CF_OK)
    return st;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch < unsigned short > (src, dst, (float *) tmp, p, stream) :
      launch < unsigned char > (src, dst, (float *) tmp, p, stream);
}
