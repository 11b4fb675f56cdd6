/* One output pixel of the variable box blur, for the GPU paths that keep
 * a summed-area table (satvar_fused.cu: the whole plane's in global
 * memory; satvar_tile.cu: a tile's in shared memory): its strength (a
 * shape's, alpha's or the radius map's), its radii, the blend's weights
 * once (cf_satvar_weights), then per channel each of its (up to four)
 * boxes from the table, the same cost for every radius; a pixel of radius
 * 0 is its input. It writes the whole pixel (the unfiltered channels
 * copied from the pass's input). */
#ifndef CF_SATVAR_PIXEL_CUH
#define CF_SATVAR_PIXEL_CUH

#include "satvar_shape.h"
#include "cf_kernel.cuh"

namespace satvar_px {

struct BoxArgs {
  const void *src;              /* the element's input: alpha */
  size_t src_stride;
  const void *in;               /* this pass's input */
  size_t in_stride;
  void *out;
  size_t out_stride;
  int w, h;
  unsigned mask, max;
  bool vec_in, vec_out;         /* whole pixels in one aligned load, store */
  float radius_x, radius_y;     /* the parameters' radii, as float */
  unsigned full;                /* alpha's or the map's full scale, */
  float full_rcp;               /* and cf_satvar_full_rcp of it */
};

/* The pixel arguments of one pass, in -> out, of the blur of src. */
template < typename T > BoxArgs
box_args (const CfPlane * src, const CfPlane * in, const CfPlane * out,
    const CfSatVarParams * p)
{
  BoxArgs a;
  const size_t px = (size_t) in->channels * sizeof (T);
  a.src = src->data;
  a.src_stride = src->stride;
  a.in = in->data;
  a.in_stride = in->stride;
  a.out = out->data;
  a.out_stride = out->stride;
  a.w = in->width;
  a.h = in->height;
  a.mask = p->channel_mask & CF_ALL_CHANNELS (in->channels);
  a.max = cf_plane_max (in);
  a.vec_in = (px == 4 || px == 8) && (uintptr_t) in->data % px == 0
      && in->stride % px == 0;
  a.vec_out = (px == 4 || px == 8) && (uintptr_t) out->data % px == 0
      && out->stride % px == 0;
  a.radius_x = (float) p->radius_x;
  a.radius_y = (float) p->radius_y;
  a.full = p->source == CF_SATVAR_MAP ? cf_satvar_map_full (p) : a.max;
  a.full_rcp = cf_satvar_full_rcp (a.full);
  return a;
}

/* cf_satvar_box_mean, exactly, without a 64-bit division: a float estimate
 * of the quotient (within 1 of its floor: quotients are at most 65535),
 * corrected, then the half-up rounding from the remainder. */
__device__ __forceinline__ unsigned
box_mean (uint64_t sum, int ax, int ay)
{
  const long long n = (long long) (2 * ax + 1) * (2 * ay + 1);
  long long q = (long long) __float2uint_rz (__fmul_rz ((float) sum,
          __frcp_rn ((float) n)));
  long long rem = (long long) sum - q * n;
  while (rem < 0) {
    q--;
    rem += n;
  }
  while (rem >= n) {
    q++;
    rem -= n;
  }
  return (unsigned) q + (2 * rem >= n);
}

/* Element f of v, f < N not known at compile time, without local memory. */
template < typename V, int N > __device__ __forceinline__ V
pick (const V (&v)[N], int f)
{
  V r = v[0];
#pragma unroll
  for (int k = 1; k < N; k++)
    if (f == k)
      r = v[k];
  return r;
}

/* Row y of a plane (y >= 0: no sign extension in the address). */
template < typename T > __device__ __forceinline__ T *
row_of (const void *data, size_t stride, int y)
{
  return (T *) ((const char *) data + (size_t) (unsigned) y * stride);
}

/* The pixel's strength: the shape's, alpha's or the map's (the sample
 * times the reciprocal of its full scale, prepared in BoxArgs). */
template < typename T, int C > __device__ __forceinline__ float
strength (const BoxArgs & a, const CfSatVarParams & p, int x, int y)
{
  if (p.source == CF_SATVAR_ALPHA)
    return cf_satvar_scaled_rcp (row_of < const T > (a.src, a.src_stride,
            y)[(unsigned) x * C + p.alpha_channel], a.full, a.full_rcp);
  if (p.source == CF_SATVAR_MAP)
    return cf_satvar_scaled_rcp (cf_satvar_map_sample (&p, x, y), a.full,
        a.full_rcp);
  return cf_satvar_shape_strength (&p, x, y);
}

/* Pixel (x, y) of the plane (inside it). Boxes: a table of the pass's
 * input; Boxes::Sums one entry's sums of every filtered channel (an array
 * type); boxes.sums (x, y, r, s) the sums s[j][i] of the boxes (2 (r.ax +
 * i) + 1) x (2 (r.ay + j) + 1) around (x, y) that the radii r need (i = 1
 * where r.fx is not 0, j = 1 where r.fy is not 0); Boxes::sum (s, f)
 * filtered channel f's sum and Boxes::sum_float (s, f) that sum rounded to
 * float; boxes.count_rcp (a) cf_satvar_count_rcp (a). F: the filtered
 * channels. */
template < typename T, int C, int F, class Boxes > __device__
__forceinline__ void
pixel (const BoxArgs & a, const CfSatVarParams & p, int x, int y,
    const Boxes & boxes)
{
  const T *in = row_of < const T > (a.in, a.in_stride, y) + (unsigned) x * C;
  T px[C];
  /* the copied channels' samples; all of them where the radius is 0 */
  if constexpr (F < C)
#pragma unroll
    for (int c = 0; c < C; c++)
      px[c] = in[c];
  const CfSatVarRadii r = cf_satvar_radii_of (strength < T, C > (a, p, x, y),
      a.radius_x, a.radius_y);
  /* Radius 0: the box of the pixel alone, its input. */
  if (r.ax == 0 && r.ay == 0 && r.fx == 0.0f && r.fy == 0.0f) {
    if constexpr (F == C)
#pragma unroll
      for (int c = 0; c < C; c++)
        px[c] = in[c];
  } else {
    unsigned o[F];
    typename Boxes::Sums b[2][2] = { };
    boxes.sums (x, y, r, b);
    if (r.fx == 0.0f && r.fy == 0.0f) {
#pragma unroll
      for (int f = 0; f < F; f++)
        o[f] = box_mean (Boxes::sum (b[0][0], f), r.ax, r.ay);
    } else {
      const float rx[2] = { boxes.count_rcp (r.ax),
        boxes.count_rcp (r.ax + 1)
      };
      const float ry[2] = { boxes.count_rcp (r.ay),
        boxes.count_rcp (r.ay + 1)
      };
      float k[2][2];
      cf_satvar_weights_rcp (rx, ry, r.fx, r.fy, k);
#pragma unroll
      for (int f = 0; f < F; f++) {
        const float sum[2][2] = {
          {Boxes::sum_float (b[0][0], f), Boxes::sum_float (b[0][1], f)},
          {Boxes::sum_float (b[1][0], f), Boxes::sum_float (b[1][1], f)}
        };
        o[f] = cf_satvar_blend (sum, k, a.max);
      }
    }
#pragma unroll
    for (int c = 0; c < C; c++)
      if ((a.mask >> c) & 1u)
        px[c] = (T) pick < unsigned, F > (o, __popc (a.mask & ((1u << c) -
                    1u)));
  }
  T *out = row_of < T > (a.out, a.out_stride, y) + (unsigned) x * C;
  if constexpr (C * sizeof (T) == 4) {
    if (a.vec_out) {
      unsigned v;
      memcpy (&v, px, 4);
      *(unsigned *) out = v;
      return;
    }
  }
  if constexpr (C * sizeof (T) == 8) {
    if (a.vec_out) {
      uint2 v;
      memcpy (&v, px, 8);
      *(uint2 *) out = v;
      return;
    }
  }
#pragma unroll
  for (int c = 0; c < C; c++)
    out[c] = px[c];
}

}                               /* namespace satvar_px */

#endif /* CF_SATVAR_PIXEL_CUH */
