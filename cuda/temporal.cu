/* Temporal filter kernels: the noise estimate (a block sum of Immerkaer's
 * mask responses, added atomically in 64-bit integers, so the sum is exact
 * and the same as the reference's), then one pass that measures motion,
 * blends and writes. The bilateral spatial pass, where on, is
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
  unsigned mask, motion;
  int adaptive, map_use;
  const unsigned long long *sum;        /* estimate: sum, count; or NULL */
};

template < typename T > __global__ void
noise_sum (const void *src, size_t stride, int width, int height,
    int channels, unsigned motion, unsigned long long *sum)
{
  __shared__ unsigned long long block_sum[BX * BY];
  __shared__ unsigned long long block_count[BX * BY];
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  int t = threadIdx.y * BX + threadIdx.x;
  unsigned long long s = 0, n = 0;

  if (x >= 1 && y >= 1 && x + 1 < width && y + 1 < height)
    for (int c = 0; c < channels; c++) {
      if (!(motion & (1u << c)))
        continue;
      long long r = 0;
      for (int j = -1; j <= 1; j++) {
        const T *row = cf_row < T > (src, stride, y + j);
        int w0 = j ? 1 : -2;
        r += w0 * (long long) row[(x - 1) * channels + c]
            - 2 * w0 * (long long) row[x * channels + c]
            + w0 * (long long) row[(x + 1) * channels + c];
      }
      s += (unsigned long long) (r < 0 ? -r : r);
      n++;
    }
  block_sum[t] = s;
  block_count[t] = n;
  __syncthreads ();
  for (int k = BX * BY / 2; k > 0; k >>= 1) {
    if (t < k) {
      block_sum[t] += block_sum[t + k];
      block_count[t] += block_count[t + k];
    }
    __syncthreads ();
  }
  if (t == 0 && block_count[0]) {
    atomicAdd (sum, block_sum[0]);
    atomicAdd (sum + 1, block_count[0]);
  }
}

template < typename T > __device__ __forceinline__ int
measure (const Args & a, int x, int y, float sigma)
{
  unsigned long long ssd = 0;
  long long sum = 0;
  int n = 0;

  for (int j = -CF_TEMPORAL_R; j <= CF_TEMPORAL_R; j++) {
    int qy = cf_border_index (y + j, a.height, a.border);
    const T *sr = cf_row < T > (a.src, a.src_stride, qy);
    const T *pr = cf_row < T > (a.prev, a.prev_stride, qy);
    for (int i = -CF_TEMPORAL_R; i <= CF_TEMPORAL_R; i++) {
      int qx = cf_border_index (x + i, a.width, a.border);
      for (int c = 0; c < a.channels; c++) {
        if (!(a.motion & (1u << c)))
          continue;
        long long d = (long long) __ldg (&sr[qx * a.channels + c]) -
            (long long) __ldg (&pr[qx * a.channels + c]);
        sum += d;
        ssd += (unsigned long long) (d * d);
        n++;
      }
    }
  }
  return cf_temporal_f8 (sum, ssd, n, sigma);
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

template < typename T > __global__ void
blend (Args a)
{
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  if (x >= a.width || y >= a.height)
    return;

  float sigma = a.sum ? cf_temporal_sigma_from_sum (a.sum[0], a.sum[1]) :
      a.sigma;
  int f8 = 255;
  if (a.adaptive && a.map_use == CF_TEMPORAL_MAP_READ)
    f8 = map_read (a, x, y);
  else if (a.adaptive)
    f8 = measure < T > (a, x, y, sigma);
  if (a.adaptive && a.map_use == CF_TEMPORAL_MAP_WRITE)
    a.map[(size_t) y * a.map_stride + x] = (unsigned char) f8;
  float f = (float) f8 / 255.0f;

  const T *sr = cf_row < T > (a.src, a.src_stride, y);
  const T *pr = cf_row < T > (a.prev, a.prev_stride, y);
  const T *spr = cf_row < T > (a.spatial, a.spatial_stride, y);
  T *dr = cf_row < T > (a.dst, a.dst_stride, y);
  for (int c = 0; c < a.channels; c++) {
    int i = x * a.channels + c;
    float cur = sr[i];
    if (!(a.mask & (1u << c))) {
      dr[i] = (T) cur;
      continue;
    }
    unsigned past = pr[i];
    float v = cf_temporal_blend (f, a.s, cur, (float) past, (float) spr[i]);
    dr[i] = (T) cf_temporal_quantise (v, cf_temporal_dither (x, y, c,
            (unsigned) sr[i], past), a.max);
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
    noise_sum < T > <<<grid, block, 0, exec->stream >>> (src->data,
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
