/* Temporal filter kernels: the noise estimate (block sums of Immerkaer's
 * mask responses, added atomically in 64-bit integers, so the sum is exact
 * and the same as the reference's), then one pass that measures motion
 * (exact integer window sums), blends and writes. The bilateral spatial pass, where on, is
 * cf_bilateral's own kernel into scratch before the blend. */
#include "temporal.h"
#include "temporal_math.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int BX = 32, BY = 8;
/* scratch: the noise sum and count, then the spatial plane */
constexpr size_t SUM_BYTES = 256;

struct Args {
  const void *src, *prev, *spatial;
  void *dst;
  unsigned char *map;
  size_t src_stride, prev_stride, spatial_stride, dst_stride, map_stride;
  int width, height, channels;
  int map_width, map_height, w_sub, h_sub;
  float s, sigma, max;
  CfBorder border;
  unsigned mask, motion, frame;
  int adaptive, map_use;
  const unsigned long long *sum;        /* estimate: sum, count; or NULL */
};

/* The exact sums the motion test takes: 32-bit for 8-bit samples (25
 * pixels x 3 channels x 255^2 fits), 64-bit for 16-bit ones. */
template < typename T > struct Acc;
template <> struct Acc <unsigned char> {
  typedef int sum;
  typedef unsigned sq;
};
template <> struct Acc <unsigned short> {
  typedef long long sum;
  typedef unsigned long long sq;
};

/* Sums @v over the block (BX * BY threads) into *@out, one atomic a block. */
__device__ __forceinline__ void
block_add (unsigned long long v, unsigned long long *out, unsigned long long *warps)
{
  int t = threadIdx.y * BX + threadIdx.x;
  for (int k = 16; k > 0; k >>= 1)
    v += __shfl_down_sync (0xffffffffu, v, k);
  if ((t & 31) == 0)
    warps[t >> 5] = v;
  __syncthreads ();
  if (t == 0) {
    for (int w = 1; w < BX * BY / 32; w++)
      v += warps[w];
    if (v)
      atomicAdd (out, v);
  }
}

/* Immerkaer's sum over the interior samples of the motion channels. A
 * block takes every NOISE_BANDS-th band of rows, so that few blocks add to
 * the one address (same-address atomics serialise). */
constexpr int NOISE_BANDS = 16;

template < typename T > __global__ void
__launch_bounds__ (BX * BY) noise_sum (const void *src, size_t stride,
    int width, int height, int channels, unsigned motion,
    unsigned long long *sum)
{
  __shared__ unsigned long long warps[2][BX * BY / 32];
  int x = blockIdx.x * BX + threadIdx.x;
  unsigned long long s = 0, n = 0;

  for (int y = blockIdx.y * BY + threadIdx.y; y < height;
      y += gridDim.y * BY) {
    if (x < 1 || y < 1 || x + 1 >= width || y + 1 >= height)
      continue;
    const T *r0 = cf_row < T > (src, stride, y - 1);
    const T *r1 = cf_row < T > (src, stride, y);
    const T *r2 = cf_row < T > (src, stride, y + 1);
    for (int c = 0; c < channels; c++) {
      if (!(motion & (1u << c)))
        continue;
      int i = x * channels + c, l = i - channels, r = i + channels;
      /* |v| <= 16 x 65535: an int */
      int v = (int) r0[l] - 2 * (int) r0[i] + (int) r0[r]
          - 2 * ((int) r1[l] - 2 * (int) r1[i] + (int) r1[r])
          + (int) r2[l] - 2 * (int) r2[i] + (int) r2[r];
      s += (unsigned) abs (v);
      n++;
    }
  }
  block_add (s, sum, warps[0]);
  block_add (n, sum + 1, warps[1]);
}

__device__ __forceinline__ int
map_read (const Args & a, int x, int y)
{
  int f8 = 255;
  for (int j = 0; j < 1 << a.h_sub; j++)
    for (int i = 0; i < 1 << a.w_sub; i++) {
      int mx = cf_clamp_index ((x << a.w_sub) + i, a.map_width);
      int my = cf_clamp_index ((y << a.h_sub) + j, a.map_height);
      int v = a.map[(size_t) my * a.map_stride + mx];
      f8 = min (f8, v);
    }
  return f8;
}

constexpr int R = CF_TEMPORAL_R;
constexpr int TW = BX + 2 * R, TH = BY + 2 * R;

/* One block: BX x BY pixels. Where it measures, the differences of the
 * motion channels of the tile and its halo (border-mapped) go to shared
 * memory as per-pixel sums of d and d^2, summed along rows then columns,
 * so each pixel reads 2 x (2R + 1) values, not 2 x (2R + 1)^2. */
template < typename T > __global__ void
__launch_bounds__ (BX * BY) blend (Args a)
{
  typedef typename Acc < T >::sum S;
  typedef typename Acc < T >::sq Q;
  __shared__ S d1[TH][TW];
  __shared__ Q d2[TH][TW];
  __shared__ S h1[TH][BX];
  __shared__ Q h2[TH][BX];
  int tx = threadIdx.x, ty = threadIdx.y, t = ty * BX + tx;
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int x = x0 + tx, y = y0 + ty;
  int measure = a.adaptive && a.map_use != CF_TEMPORAL_MAP_READ;
  float sigma = a.sigma;
  int f8 = 255;

  if (measure) {                /* the same for the whole launch */
    int nm = __popc (a.motion);
    for (int k = t; k < TW * TH; k += BX * BY) {
      int ky = k / TW, kx = k - ky * TW;
      int qx = cf_border_index (x0 + kx - R, a.width, a.border);
      int qy = cf_border_index (y0 + ky - R, a.height, a.border);
      const T *sr = cf_row < T > (a.src, a.src_stride, qy);
      const T *pr = cf_row < T > (a.prev, a.prev_stride, qy);
      S v1 = 0;
      Q v2 = 0;
      for (int c = 0; c < a.channels; c++) {
        if (!(a.motion & (1u << c)))
          continue;
        int d = (int) __ldg (&sr[qx * a.channels + c]) -
            (int) __ldg (&pr[qx * a.channels + c]);
        v1 += d;
        v2 += (Q) ((long long) d * d);
      }
      d1[ky][kx] = v1;
      d2[ky][kx] = v2;
    }
    __syncthreads ();
    for (int k = t; k < TH * BX; k += BX * BY) {
      int ky = k / BX, kx = k - ky * BX;
      S v1 = 0;
      Q v2 = 0;
      for (int i = 0; i <= 2 * R; i++) {
        v1 += d1[ky][kx + i];
        v2 += d2[ky][kx + i];
      }
      h1[ky][kx] = v1;
      h2[ky][kx] = v2;
    }
    __syncthreads ();
    if (a.sum)
      sigma = cf_temporal_sigma_from_sum (a.sum[0], a.sum[1]);
    S v1 = 0;
    Q v2 = 0;
    for (int j = 0; j <= 2 * R; j++) {
      v1 += h1[ty + j][tx];
      v2 += h2[ty + j][tx];
    }
    f8 = cf_temporal_f8 ((long long) v1, (unsigned long long) v2,
        (2 * R + 1) * (2 * R + 1) * nm, sigma);
  }
  if (x >= a.width || y >= a.height)
    return;
  if (a.adaptive && a.map_use == CF_TEMPORAL_MAP_READ)
    f8 = map_read (a, x, y);
  if (a.adaptive && a.map_use == CF_TEMPORAL_MAP_WRITE)
    a.map[(size_t) y * a.map_stride + x] = (unsigned char) f8;
  float f = (float) f8 / 255.0f;

  const T *sr = cf_row < T > (a.src, a.src_stride, y);
  const T *pr = cf_row < T > (a.prev, a.prev_stride, y);
  const T *spr = cf_row < T > (a.spatial, a.spatial_stride, y);
  T *dr = cf_row < T > (a.dst, a.dst_stride, y);
  for (int c = 0; c < a.channels; c++) {
    int i = x * a.channels + c;
    unsigned cur = sr[i];
    if (!(a.mask & (1u << c))) {
      dr[i] = (T) cur;
      continue;
    }
    unsigned past = pr[i];
    float v = cf_temporal_blend (f, a.s, (float) cur, (float) past,
        (float) spr[i]);
    dr[i] = (T) cf_temporal_quantise (v, cf_temporal_dither (x, y, c, cur,
            a.frame), a.max);
  }
}

template < typename T > CfStatus
launch (const CfExec * exec, const CfPlane * src, const CfPlane * prev,
    const CfPlane * dst, const CfPlane * map, const CfTemporalParams * p)
{
  int adaptive = p->mode == CF_TEMPORAL_ADAPTIVE;
  int spatial_on = adaptive && p->spatial.sigma_range > 0.0;
  int estimate = adaptive && p->map_use != CF_TEMPORAL_MAP_READ
      && !(p->noise > 0.0);
  CfStatus st = CF_OK;
  dim3 block (BX, BY), grid ((src->width + BX - 1) / BX,
      (src->height + BY - 1) / BY);
  Args a = { };

  if (spatial_on || estimate)
    st = cf_scratch_reserve (exec->scratch, SUM_BYTES +
        (spatial_on ? src->stride * src->height : 0));
  if (st != CF_OK)
    return st;

  a.src = src->data;
  a.src_stride = src->stride;
  a.prev = prev->data;
  a.prev_stride = prev->stride;
  a.spatial = src->data;
  a.spatial_stride = src->stride;
  a.dst = dst->data;
  a.dst_stride = dst->stride;
  a.width = src->width;
  a.height = src->height;
  a.channels = src->channels;
  a.s = (float) p->strength;
  a.sigma = p->noise > CF_TEMPORAL_MIN_SIGMA ? (float) p->noise :
      CF_TEMPORAL_MIN_SIGMA;
  a.max = (float) cf_plane_max (dst);
  a.border = p->border;
  a.mask = p->channel_mask;
  a.motion = p->motion_mask;
  a.frame = p->frame;
  a.adaptive = adaptive;
  a.map_use = p->map_use;
  if (adaptive && p->map_use != CF_TEMPORAL_MAP_NONE) {
    a.map = (unsigned char *) map->data;
    a.map_stride = map->stride;
    a.map_width = map->width;
    a.map_height = map->height;
    a.w_sub = p->map_w_sub;
    a.h_sub = p->map_h_sub;
  }

  if (estimate) {
    unsigned long long *sum = (unsigned long long *) exec->scratch->data;
    st = cf_status_from_cuda (cudaMemsetAsync (sum, 0, 2 * sizeof (*sum),
            exec->stream));
    if (st != CF_OK)
      return st;
    dim3 bands (grid.x, grid.y < NOISE_BANDS ? grid.y : NOISE_BANDS);
    noise_sum < T > <<<bands, block, 0, exec->stream >>> (src->data,
        src->stride, src->width, src->height, src->channels, p->motion_mask,
        sum);
    a.sum = sum;
  }
  if (spatial_on) {
    CfPlane tmp = *src;
    CfExec bexec = { 1, exec->stream, NULL };   /* exact mode needs none */

    tmp.data = (unsigned char *) exec->scratch->data + SUM_BYTES;
    st = cf_bilateral (&bexec, src, &tmp, &p->spatial);
    if (st != CF_OK)
      return st;
    a.spatial = tmp.data;
  }
  blend < T > <<<grid, block, 0, exec->stream >>> (a);
  return cf_launch_status ();
}

}                               /* namespace */

extern "C" CfStatus
cf_temporal (const CfExec * exec, const CfPlane * src, const CfPlane * prev,
    const CfPlane * dst, const CfPlane * map, const CfTemporalParams * params)
{
  CfStatus st = cf_temporal_check (src, prev, dst, map, params);
  if (st != CF_OK)
    return st;
  if (!exec || !exec->on_gpu)
    return cf_temporal_ref (src, prev, dst, map, params);
  if (!exec->stream || !exec->scratch)
    return CF_ERROR_INVALID;
  return src->depth > 8 ?
      launch < unsigned short > (exec, src, prev, dst, map, params) :
      launch < unsigned char > (exec, src, prev, dst, map, params);
}
