/* The joint (cross) bilateral on the GPU (bilateral_guided.h): a thread
 * per output pixel walks its window straight from global memory (through
 * the caches), reading the range weights' samples from the guide. It is
 * the plain form of the tiled kernels of bilateral.cu, which read the
 * range from the frame's own tile and would need a second tile for the
 * guide; the same float weights and the same centre-relative sums, so it
 * agrees with the reference within the exact kernels' 1 LSB. */
#include "bilateral_guided.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

#include <math.h>

namespace {

struct GuidedArgs {
  float lx[CF_BILATERAL_MAX_RADIUS + 1];
  float ly[CF_BILATERAL_MAX_RADIUS + 1];
  float nk;
  int rx, ry;
  int channels;
  unsigned mask;
  unsigned max;                 /* src's full scale */
  CfBorder border;
  bool gray;                    /* one guide channel weighs them all */
  bool joint;
  int gch, xs, ys;              /* the guide's channels and shifts */
};

template < typename G > __device__ __forceinline__ float
guide_at (const void *guide, size_t stride, int x, int y, int c,
    const GuidedArgs & a)
{
  return cf_sample_float (cf_row < G > (guide, stride, y << a.ys)[(size_t)
          (x << a.xs) * a.gch + c]);
}

template < typename T, typename G > __global__ void
guided (const void *src, size_t ss, void *dst, size_t ds, int w, int h,
    const void *guide, size_t gs, GuidedArgs a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const T *centre = cf_row < T > (src, ss, y) + (size_t) x * a.channels;
  float c0[4], g0[4], num[4] = { 0, 0, 0, 0 }, den[4] = { 0, 0, 0, 0 };

  for (int c = 0; c < a.channels; c++) {
    c0[c] = cf_sample_float (centre[c]);
    g0[c] = guide_at < G > (guide, gs, x, y, a.gray ? 0 : c, a);
  }
  const long long rx2 = (long long) a.rx * a.rx, ry2 = (long long) a.ry * a.ry;
  for (int dy = -a.ry; dy <= a.ry; dy++) {
    const int qy = cf_border_index (y + dy, h, a.border);
    const T *row = cf_row < T > (src, ss, qy);
    for (int dx = -a.rx; dx <= a.rx; dx++) {
      /* the ellipse of cf_bilateral_in_window */
      if (dx * dx * ry2 + dy * dy * rx2 > rx2 * ry2)
        continue;
      const int qx = cf_border_index (x + dx, w, a.border);
      const T *q = row + (size_t) qx * a.channels;
      const float lws = a.lx[abs (dx)] + a.ly[abs (dy)];
      if (a.joint) {
        float dd = 0.0f;
        for (int c = 0; c < a.channels; c++)
          if ((a.mask >> c) & 1u) {
            float d = guide_at < G > (guide, gs, qx, qy, a.gray ? 0 : c, a) -
                g0[c];
            dd = a.gray ? d * d : dd + d * d;
          }
        const float wt = exp2f (lws + a.nk * dd);
        for (int c = 0; c < a.channels; c++)
          if ((a.mask >> c) & 1u) {
            num[c] += wt * (cf_sample_float (q[c]) - c0[c]);
            den[c] += wt;
          }
      } else {
        for (int c = 0; c < a.channels; c++)
          if ((a.mask >> c) & 1u) {
            float d = guide_at < G > (guide, gs, qx, qy, c, a) - g0[c];
            float wt = exp2f (lws + a.nk * d * d);
            num[c] += wt * (cf_sample_float (q[c]) - c0[c]);
            den[c] += wt;
          }
      }
    }
  }
  T *out = cf_row < T > (dst, ds, y) + (size_t) x * a.channels;
  for (int c = 0; c < a.channels; c++)
    out[c] = (a.mask >> c) & 1u ? (T) fminf (fmaxf (c0[c] + num[c] / den[c] +
            0.5f, 0.0f), (float) a.max) : centre[c];
}

template < typename T > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const CfPlane * guide,
    const GuidedArgs & a, cudaStream_t stream)
{
  const dim3 block (32, 8), grid ((src->width + 31) / 32,
      (src->height + 7) / 8);
  if (guide->depth > 8)
    guided < T, unsigned short > <<<grid, block, 0, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        guide->data, guide->stride, a);
  else
    guided < T, unsigned char > <<<grid, block, 0, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        guide->data, guide->stride, a);
  return cf_launch_status ();
}

CfStatus
pass (const CfPlane * src, const CfPlane * dst, const CfBilateralParams * p,
    const CfBilateralWeights * w, int rx, int ry, cudaStream_t stream)
{
  GuidedArgs a;
  for (int k = 0; k <= CF_BILATERAL_MAX_RADIUS; k++) {
    a.lx[k] = w->lx[k];
    a.ly[k] = w->ly[k];
  }
  a.nk = w->nk;
  a.rx = rx;
  a.ry = ry;
  a.channels = src->channels;
  a.mask = p->channel_mask & CF_ALL_CHANNELS (src->channels);
  a.max = cf_plane_max (dst);
  a.border = p->border;
  a.gray = p->guide.channels != src->channels;
  a.joint = p->distance == CF_BILATERAL_JOINT || a.gray;
  a.gch = p->guide.channels;
  a.xs = p->guide_x_shift;
  a.ys = p->guide_y_shift;
  return src->depth > 8 ?
      launch < unsigned short > (src, dst, &p->guide, a, stream) :
      launch < unsigned char > (src, dst, &p->guide, a, stream);
}

}                               /* namespace */

CfStatus
cf_bilateral_guided (const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p, const CfBilateralWeights * w,
    CfScratch * scratch, CfStream s)
{
  cudaStream_t stream = (cudaStream_t) s;
  if (!(p->mode == CF_BILATERAL_SEPARABLE && p->radius_x > 0
          && p->radius_y > 0))
    return pass (src, dst, p, w, p->radius_x, p->radius_y, stream);
  /* rows into scratch, rounded to the sample type as the reference's */
  if (!scratch)
    return CF_ERROR_INVALID;
  CfPlane tmp = *src;
  tmp.stride = ((size_t) src->width * src->channels *
      cf_plane_bytes_per_sample (src) + 255) & ~(size_t) 255;
  CfStatus st = cf_scratch_reserve (scratch, tmp.stride * src->height);
  if (st != CF_OK)
    return st;
  tmp.data = scratch->data;
  st = pass (src, &tmp, p, w, p->radius_x, 0, stream);
  return st == CF_OK ? pass (&tmp, dst, p, w, 0, p->radius_y, stream) : st;
}
