/* The value gate on the GPU (gate.h): a thread per pixel reads its gate
 * pixel and, where the gate is closed, copies its input pixel over the
 * filter's output. */
#include "gate.h"
#include "cf_kernel.cuh"

namespace {

struct GateArgs {
  const void *src;
  size_t src_stride;
  void *dst;
  size_t dst_stride;
  const void *gate;
  size_t gate_stride;
  int width, height, channels, gate_channels;
  unsigned mask, n;
  int xs, ys;
  unsigned min, max;
};

template < typename T > __global__ void
gate_kernel (GateArgs a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= a.width || y >= a.height)
    return;
  const T *g = cf_row < T > (a.gate, a.gate_stride, y << a.ys) +
      (size_t) (x << a.xs) * a.gate_channels;
  unsigned sum = 0;
  for (int c = 0; c < a.gate_channels; c++)
    if (a.mask & (1u << c))
      sum += g[c];
  if (sum >= a.n * a.min && sum <= a.n * a.max)
    return;
  const T *s = cf_row < T > (a.src, a.src_stride, y) + (size_t) x * a.channels;
  T *d = cf_row < T > (a.dst, a.dst_stride, y) + (size_t) x * a.channels;
  for (int c = 0; c < a.channels; c++)
    d[c] = s[c];
}

/* Pixel bytes outside the rectangle copied, a thread per pixel. */
__global__ void
outside_kernel (const unsigned char *src, size_t src_stride,
    unsigned char *dst, size_t dst_stride, int width, int height, int bytes,
    int x0, int y0, int x1, int y1)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height || (x >= x0 && x < x1 && y >= y0 && y < y1))
    return;
  const unsigned char *s = src + (size_t) y * src_stride + (size_t) x * bytes;
  unsigned char *d = dst + (size_t) y * dst_stride + (size_t) x * bytes;
  for (int b = 0; b < bytes; b++)
    d[b] = s[b];
}

}                               /* namespace */

extern "C" CfStatus
cf_copy_outside (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, int x, int y, int w, int h)
{
  if (!exec->on_gpu)
    return cf_copy_outside_ref (src, dst, x, y, w, h);
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (!exec->stream)
    return CF_ERROR_INVALID;
  const dim3 block (32, 8);
  const dim3 grid ((src->width + 31) / 32, (src->height + 7) / 8);
  outside_kernel <<<grid, block, 0, (cudaStream_t) exec->stream>>> (
      (const unsigned char *) src->data, src->stride,
      (unsigned char *) dst->data, dst->stride, src->width, src->height,
      src->channels * cf_plane_bytes_per_sample (src), x, y, x + w, y + h);
  return cf_launch_status ();
}

extern "C" CfStatus
cf_gate_select (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfGate * gate)
{
  if (!exec->on_gpu)
    return cf_gate_select_ref (src, dst, gate);
  CfStatus st = cf_gate_check (src, dst, gate);
  if (st != CF_OK)
    return st;
  if (!exec->stream)
    return CF_ERROR_INVALID;

  GateArgs a;
  a.src = src->data;
  a.src_stride = src->stride;
  a.dst = dst->data;
  a.dst_stride = dst->stride;
  a.gate = gate->plane.data;
  a.gate_stride = gate->plane.stride;
  a.width = src->width;
  a.height = src->height;
  a.channels = src->channels;
  a.gate_channels = gate->plane.channels;
  a.mask = gate->mask;
  a.n = __builtin_popcount (gate->mask);
  a.xs = gate->x_shift;
  a.ys = gate->y_shift;
  /* 4 channels of 65535 fit 32 bits */
  a.min = gate->min;
  a.max = gate->max;

  const dim3 block (32, 8);
  const dim3 grid ((src->width + 31) / 32, (src->height + 7) / 8);
  cudaStream_t s = (cudaStream_t) exec->stream;
  if (src->depth > 8)
    gate_kernel < unsigned short ><<<grid, block, 0, s>>> (a);
  else
    gate_kernel < unsigned char ><<<grid, block, 0, s>>> (a);
  return cf_launch_status ();
}
