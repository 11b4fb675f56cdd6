/* v210 unpack and pack (v210.h): one thread per group of six pixels of a
 * row, its 16 bytes read as four words, its samples written to (read from)
 * the planes. The reference is v210_ref.c. */
#include "v210.h"
#include "cf_kernel.cuh"

namespace {

constexpr int THREADS_X = 64;
constexpr int THREADS_Y = 4;

struct Planes {
  unsigned char *luma, *chroma;
  size_t luma_stride, chroma_stride;
  int width, chroma_width, height;
};

Planes
planes (const CfV210 * f, const CfPlane * luma, const CfPlane * chroma)
{
  return Planes { (unsigned char *) luma->data, (unsigned char *) chroma->data,
      luma->stride, chroma->stride, f->width, chroma->width, f->height };
}

/* Where field k of group g of row y lives in the planes; NULL past the
 * width. */
__device__ unsigned short *
field_sample (const Planes & p, int g, int y, int k)
{
  const bool c = cf_v210_is_chroma (k);
  const int x = g * (c ? 3 : 6) + cf_v210_pixel (k);
  if (x >= (c ? p.chroma_width : p.width))
    return nullptr;
  unsigned char *row = c ? p.chroma + y * p.chroma_stride :
      p.luma + y * p.luma_stride;
  return (unsigned short *) row + (c ? 2 * x + cf_v210_channel (k) : x);
}

__global__ void
unpack_kernel (const unsigned char *src, size_t stride, Planes p)
{
  const int g = blockIdx.x * THREADS_X + threadIdx.x;
  const int y = blockIdx.y * THREADS_Y + threadIdx.y;
  if (g * 6 >= p.width || y >= p.height)
    return;
  const uint32_t *in = (const uint32_t *) (src + y * stride) + 4 * g;
  uint32_t word[4];
  for (int w = 0; w < 4; w++)
    word[w] = in[w];
#pragma unroll
  for (int k = 0; k < 12; k++) {
    unsigned short *s = field_sample (p, g, y, k);
    if (s)
      *s = word[k / 3] >> 10 * (k % 3) & 0x3ff;
  }
}

__global__ void
pack_kernel (const unsigned char *src, size_t src_stride, Planes p,
    unsigned char *dst, size_t dst_stride)
{
  const int g = blockIdx.x * THREADS_X + threadIdx.x;
  const int y = blockIdx.y * THREADS_Y + threadIdx.y;
  if (g * 6 >= p.width || y >= p.height)
    return;
  const uint32_t *in = (const uint32_t *) (src + y * src_stride) + 4 * g;
  uint32_t *out = (uint32_t *) (dst + y * dst_stride) + 4 * g;
  uint32_t word[4];
  for (int w = 0; w < 4; w++)
    word[w] = in[w];
#pragma unroll
  for (int k = 0; k < 12; k++) {
    const unsigned short *s = field_sample (p, g, y, k);
    const int shift = 10 * (k % 3);
    if (s)
      word[k / 3] = (word[k / 3] & ~(0x3ffu << shift)) |
          (uint32_t) (*s & 0x3ff) << shift;
  }
  for (int w = 0; w < 4; w++)
    out[w] = word[w];
}

dim3
grid (const CfV210 * f)
{
  return dim3 ((unsigned) ((f->width + 5) / 6 + THREADS_X - 1) / THREADS_X,
      (unsigned) (f->height + THREADS_Y - 1) / THREADS_Y);
}

/* Words are read and written whole: rows and pointers 4-byte aligned. */
bool
aligned (const CfV210 * f)
{
  return ((uintptr_t) f->data | f->stride) % 4 == 0;
}

}                               /* namespace */

extern "C" CfStatus
cf_v210_unpack (const CfExec * exec, const CfV210 * src, const CfPlane * luma,
    const CfPlane * chroma)
{
  if (!exec->on_gpu)
    return cf_v210_unpack_ref (src, luma, chroma);
  CfStatus st = cf_v210_check (src, luma, chroma);
  if (st != CF_OK)
    return st;
  if (!exec->stream || !aligned (src))
    return CF_ERROR_INVALID;
  unpack_kernel <<< grid (src), dim3 (THREADS_X, THREADS_Y), 0,
      (cudaStream_t) exec->stream >>> ((const unsigned char *) src->data,
      src->stride, planes (src, luma, chroma));
  return cf_launch_status ();
}

extern "C" CfStatus
cf_v210_pack (const CfExec * exec, const CfV210 * src, const CfPlane * luma,
    const CfPlane * chroma, const CfV210 * dst)
{
  if (!exec->on_gpu)
    return cf_v210_pack_ref (src, luma, chroma, dst);
  CfStatus st = cf_v210_check (src, luma, chroma);
  if (st == CF_OK)
    st = cf_v210_check (dst, luma, chroma);
  if (st != CF_OK)
    return st;
  if (!exec->stream || !aligned (src) || !aligned (dst))
    return CF_ERROR_INVALID;
  pack_kernel <<< grid (src), dim3 (THREADS_X, THREADS_Y), 0,
      (cudaStream_t) exec->stream >>> ((const unsigned char *) src->data,
      src->stride, planes (src, luma, chroma), (unsigned char *) dst->data,
      dst->stride);
  return cf_launch_status ();
}
