/* The joint (cross) bilateral on the GPU (bilateral_guided.h): a block
 * loads a tile of the frame and one of the guide (borders mapped) into
 * shared memory, and each thread walks the window of 4 outputs down its
 * column, the range weights from the guide's tile; the window's rows come
 * from a table of half widths, channel counts are template parameters
 * (sums in registers). Where the two tiles pass 48 KB (large radii, many
 * 16-bit channels) a thread per pixel reads its window from global
 * memory instead. Simpler than bilateral.cu's kernels (no tap list, no
 * packed words); the same float weights and the same centre-relative
 * sums, so it agrees with the reference within the exact kernels' 1 LSB. */
#include "bilateral_guided.h"
#include "cf_kernel.cuh"
#include "cf_dispatch.cuh"
#include "cf_runtime.h"

#include <math.h>

namespace {

struct GuidedArgs {
  float lx[CF_BILATERAL_MAX_RADIUS + 1];
  float ly[CF_BILATERAL_MAX_RADIUS + 1];
  int half_w[2 * CF_BILATERAL_MAX_RADIUS + 1];  /* the window's rows */
  float nk;
  int rx, ry;
  unsigned mask;
  float max;                    /* src's full scale */
  CfBorder border;
  int xs, ys;                   /* the guide's shifts */
  int gstep;                    /* the guide's channels: its pixel stride */
};

/* Adds window sample q to the sums, weighed by its guide sample g against
 * the guide's centre g0: one distance over the guide's channels (GC == 1,
 * or JOINT), or one per channel. lws: the spatial weight's log2. */
template < typename T, typename G, int C, int GC, bool JOINT >
__device__ __forceinline__ void
accumulate (const T * q, const G * g, float lws, const float *g0,
    const float *c0, const GuidedArgs & a, float *num, float *den)
{
  if (GC == 1 || JOINT) {
    float dd = 0.0f;
#pragma unroll
    for (int c = 0; c < GC; c++)
      if (GC == 1 || ((a.mask >> c) & 1u)) {
        const float d = cf_sample_float (g[c]) - g0[c];
        dd += d * d;
      }
    const float wt = exp2f (lws + a.nk * dd);
#pragma unroll
    for (int c = 0; c < C; c++) {
      num[c] += wt * (cf_sample_float (q[c]) - c0[c]);
      den[c] += wt;
    }
  } else {
#pragma unroll
    for (int c = 0; c < C; c++) {
      const float d = cf_sample_float (g[c]) - g0[c];
      const float wt = exp2f (lws + a.nk * d * d);
      num[c] += wt * (cf_sample_float (q[c]) - c0[c]);
      den[c] += wt;
    }
  }
}

/* The filtered channels' centre-relative sums normalised, rounded and
 * clamped; the other channels as they were (c0). */
template < typename T, int C > __device__ __forceinline__ void
store (T * out, const float *c0, const float *num, const float *den,
    const GuidedArgs & a)
{
#pragma unroll
  for (int c = 0; c < C; c++)
    out[c] = (a.mask >> c) & 1u ? (T) fminf (fmaxf (c0[c] + num[c] / den[c] +
            0.5f, 0.0f), a.max) : (T) c0[c];
}

/* C channels of src (T), GC of the guide (G): GC == C guides channel by
 * channel (JOINT: one Euclidean distance), GC == 1 < C weighs all channels
 * with the one guide channel. Channel counts are template parameters so
 * that the sums stay in registers. */
template < typename T, typename G, int C, int GC, bool JOINT > __global__ void
__launch_bounds__ (256)
guided (const void *src, size_t ss, void *dst, size_t ds, int w, int h,
    const void *guide, size_t gs, GuidedArgs a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const T *centre = cf_row < T > (src, ss, y) + (size_t) x * C;
  const G *gcentre = cf_row < G > (guide, gs, y << a.ys) + (size_t)
      (x << a.xs) * a.gstep;
  float c0[C], g0[GC], num[C], den[C];
#pragma unroll
  for (int c = 0; c < C; c++) {
    c0[c] = cf_sample_float (centre[c]);
    num[c] = den[c] = 0.0f;
  }
#pragma unroll
  for (int c = 0; c < GC; c++)
    g0[c] = cf_sample_float (gcentre[c]);
  /* away from the borders no index is mapped */
  const bool inside = x >= a.rx && x + a.rx < w && y >= a.ry && y + a.ry < h;
  for (int dy = -a.ry; dy <= a.ry; dy++) {
    const int qy = inside ? y + dy : cf_border_index (y + dy, h, a.border);
    const T *row = cf_row < T > (src, ss, qy);
    const G *grow = cf_row < G > (guide, gs, qy << a.ys);
    const int hw = a.half_w[dy + a.ry];
    const float ly = a.ly[abs (dy)];
    for (int dx = -hw; dx <= hw; dx++) {
      const int qx = inside ? x + dx : cf_border_index (x + dx, w, a.border);
      const T *q = row + (size_t) qx * C;
      const G *g = grow + (size_t) (qx << a.xs) * a.gstep;
      const float lws = a.lx[abs (dx)] + ly;
      accumulate < T, G, C, GC, JOINT > (q, g, lws, g0, c0, a, num, den);
    }
  }
  store < T, C > (cf_row < T > (dst, ds, y) + (size_t) x * C, c0, num, den, a);
}

/* The same filter from a tile in shared memory: a block of 32 x 8
 * threads, PIX outputs each down its column, loads the frame's and the
 * guide's samples of its outputs and their window (borders mapped) once. */
constexpr int TILE_PIX = 4;

template < typename T, typename G, int C, int GC, bool JOINT > __global__ void
__launch_bounds__ (256)
guided_tile (const void *src, size_t ss, void *dst, size_t ds, int w, int h,
    const void *guide, size_t gs, GuidedArgs a)
{
  extern __shared__ unsigned char smem[];
  const int tw = 32 + 2 * a.rx, th = 8 * TILE_PIX + 2 * a.ry;
  T *st = (T *) smem;
  G *gt = (G *) (smem + (((size_t) tw * th * C * sizeof (T) + 15) & ~15));
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8 * TILE_PIX;

  for (int i = threadIdx.y * 32 + threadIdx.x; i < tw * th; i += 256) {
    const int tx = i % tw, ty = i / tw;
    const int sx = cf_border_index (x0 - a.rx + tx, w, a.border);
    const int sy = cf_border_index (y0 - a.ry + ty, h, a.border);
    const T *p = cf_row < T > (src, ss, sy) + (size_t) sx * C;
    const G *g = cf_row < G > (guide, gs, sy << a.ys) + (size_t) (sx << a.xs)
        * a.gstep;
#pragma unroll
    for (int c = 0; c < C; c++)
      st[(size_t) i * C + c] = p[c];
#pragma unroll
    for (int c = 0; c < GC; c++)
      gt[(size_t) i * GC + c] = g[c];
  }
  __syncthreads ();

  const int x = x0 + threadIdx.x;
  for (int k = 0; k < TILE_PIX; k++) {
    const int y = y0 + threadIdx.y + 8 * k;
    if (x >= w || y >= h)
      continue;
    const int ci = (threadIdx.y + 8 * k + a.ry) * tw + threadIdx.x + a.rx;
    float c0[C], g0[GC], num[C], den[C];
#pragma unroll
    for (int c = 0; c < C; c++) {
      c0[c] = cf_sample_float (st[(size_t) ci * C + c]);
      num[c] = den[c] = 0.0f;
    }
#pragma unroll
    for (int c = 0; c < GC; c++)
      g0[c] = cf_sample_float (gt[(size_t) ci * GC + c]);
    for (int dy = -a.ry; dy <= a.ry; dy++) {
      const int hw = a.half_w[dy + a.ry];
      const float ly = a.ly[abs (dy)];
      const int ri = ci + dy * tw;
      for (int dx = -hw; dx <= hw; dx++) {
        const T *q = st + (size_t) (ri + dx) * C;
        const G *g = gt + (size_t) (ri + dx) * GC;
        const float lws = a.lx[abs (dx)] + ly;
        accumulate < T, G, C, GC, JOINT > (q, g, lws, g0, c0, a, num, den);
      }
    }
    store < T, C > (cf_row < T > (dst, ds, y) + (size_t) x * C, c0, num, den, a);
  }
}

/* The tile's bytes, or 0 where it is over 48 KB (then the global kernel). */
template < typename T, typename G, int C, int GC > size_t
tile_bytes (const GuidedArgs & a)
{
  const size_t n = (size_t) (32 + 2 * a.rx) * (8 * TILE_PIX + 2 * a.ry);
  const size_t b = ((n * C * sizeof (T) + 15) & ~(size_t) 15) +
      n * GC * sizeof (G);
  return b <= 48 * 1024 ? b : 0;
}

template < typename T, typename G, int C, int GC, bool JOINT > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const CfPlane * guide,
    const GuidedArgs & a, cudaStream_t stream)
{
  const dim3 block (32, 8);
  const size_t smem = tile_bytes < T, G, C, GC > (a);
  if (smem) {
    const dim3 grid ((src->width + 31) / 32, (src->height + 8 * TILE_PIX -
            1) / (8 * TILE_PIX));
    guided_tile < T, G, C, GC, JOINT > <<<grid, block, smem, stream>>>
        (src->data, src->stride, dst->data, dst->stride, src->width,
        src->height, guide->data, guide->stride, a);
  } else {
    const dim3 grid ((src->width + 31) / 32, (src->height + 7) / 8);
    guided < T, G, C, GC, JOINT > <<<grid, block, 0, stream>>> (src->data,
        src->stride, dst->data, dst->stride, src->width, src->height,
        guide->data, guide->stride, a);
  }
  return cf_launch_status ();
}

/* The instance for src's and the guide's channels. */
template < typename T, typename G, int C > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const CfPlane * guide, const GuidedArgs & a, bool joint,
    cudaStream_t stream)
{
  if (C == 1 || guide->channels != C)
    return launch < T, G, C, 1, false > (src, dst, guide, a, stream);
  return joint ? launch < T, G, C, C, true > (src, dst, guide, a, stream) :
      launch < T, G, C, C, false > (src, dst, guide, a, stream);
}

template < typename T, typename G > CfStatus
launch_types (const CfPlane * src, const CfPlane * dst,
    const CfPlane * guide, const GuidedArgs & a, bool joint,
    cudaStream_t stream)
{
  return cf_with_channels (src->channels, [&](auto c) {
        return launch_channels < T, G, decltype (c)::value > (src, dst, guide,
            a, joint, stream);
      });
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
  for (int dy = -ry; dy <= ry; dy++) {
    int hw = 0;
    while (hw < rx && cf_bilateral_in_window (hw + 1, dy, rx, ry))
      hw++;
    a.half_w[dy + ry] = hw;
  }
  a.nk = w->nk;
  a.rx = rx;
  a.ry = ry;
  a.mask = p->channel_mask & CF_ALL_CHANNELS (src->channels);
  a.max = (float) cf_plane_max (dst);
  a.border = p->border;
  a.xs = p->guide_x_shift;
  a.ys = p->guide_y_shift;
  a.gstep = p->guide.channels;
  const bool joint = p->distance == CF_BILATERAL_JOINT;
  const bool deep = src->depth > 8, gdeep = p->guide.depth > 8;
  return deep ? (gdeep ?
      launch_types < unsigned short, unsigned short > (src, dst, &p->guide, a,
          joint, stream) :
      launch_types < unsigned short, unsigned char > (src, dst, &p->guide, a,
          joint, stream)) : (gdeep ?
      launch_types < unsigned char, unsigned short > (src, dst, &p->guide, a,
          joint, stream) :
      launch_types < unsigned char, unsigned char > (src, dst, &p->guide, a,
          joint, stream));
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
