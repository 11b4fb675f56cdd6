/* The Gaussian for radii 1 and 2 in one pass, without shared memory: a
 * thread owns a quad (4 consecutive samples of a row) down a strip of ROWS
 * rows. Each row's quad is loaded once (one 32- or 64-bit load) and its
 * neighbours' samples come from the neighbouring lanes (warp shuffles); the
 * H lanes at each end of a warp only supply those halo samples. The row is
 * filtered horizontally in registers and the last 2R + 1 filtered rows are
 * kept in registers for the vertical taps, so a strip reads its rows once,
 * plus 2R halo rows (mostly L2 hits), and writes each output once. */
#include "gaussian_paths.h"
#include "cf_kernel.cuh"
#include "cf_border_near.cuh"
#include "small_mask_args.h"

#include <type_traits>

namespace {

constexpr int THREADS = 256;
constexpr int ROWS = 16;


/* A quad as loaded: 4 samples packed in 32 (8-bit) or 64 bits (16-bit). */
template < typename T > struct Raw;
template <> struct Raw <unsigned char> {
  unsigned w;
  __device__ void load (const unsigned char *p) {
    w = *(const unsigned *) p;
  }
  __device__ void set (int i, unsigned v) {
    w = i ? w | (v << (8 * i)) : v;
  }
  __device__ float get (int i) const {
    return (float) ((w >> (8 * i)) & 0xffu);
  }
  __device__ Raw shfl_up (int d) const {
    return { __shfl_up_sync (0xffffffffu, w, d) };
  }
  __device__ Raw shfl_down (int d) const {
    return { __shfl_down_sync (0xffffffffu, w, d) };
  }
};
template <> struct Raw <unsigned short> {
  unsigned lo, hi;
  __device__ void load (const unsigned short *p) {
    uint2 v = *(const uint2 *) p;
    lo = v.x;
    hi = v.y;
  }
  __device__ void set (int i, unsigned v) {
    unsigned &h = i < 2 ? lo : hi;
    h = (i & 1) ? h | (v << 16) : v;
  }
  __device__ float get (int i) const {
    return (float) (((i < 2 ? lo : hi) >> (16 * (i & 1))) & 0xffffu);
  }
  __device__ Raw shfl_up (int d) const {
    return { __shfl_up_sync (0xffffffffu, lo, d),
        __shfl_up_sync (0xffffffffu, hi, d) };
  }
  __device__ Raw shfl_down (int d) const {
    return { __shfl_down_sync (0xffffffffu, lo, d),
        __shfl_down_sync (0xffffffffu, hi, d) };
  }
};

/* Samples [s0, s0 + 4) of a row, those outside it through the border. */
template < typename T, int C > __device__ __forceinline__ Raw < T >
load_quad (const T * row, int s0, int width, CfBorder border)
{
  Raw < T > r;
  if (s0 >= 0 && s0 + 4 <= width * C) {
    r.load (row + s0);
    return r;
  }
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int px = cf_floor_div (s0 + i, C);
    r.set (i, row[cf_border_index (px, width, border) * C + s0 + i - px * C]);
  }
  return r;
}

template < typename T, int C, int R > __global__ void
__launch_bounds__ (THREADS)
gaussian_small (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const CfMaskArgs a)
{
  constexpr int H = (R * C + 3) / 4;    /* halo quads each side */
  constexpr int OUT = 32 - 2 * H;       /* quads a warp writes */
  constexpr int N = 4 * (2 * H + 1);    /* samples a lane sees */
  const int lane = threadIdx.x % 32;
  const int warp = (blockIdx.x * THREADS + threadIdx.x) / 32;
  const int samples = width * C;
  if (warp * OUT * 4 >= samples)
    return;                     /* the whole warp */
  const int s0 = (warp * OUT - H + lane) * 4;
  const int y0 = blockIdx.y * ROWS;
  const bool writes = lane >= H && lane < 32 - H && s0 < samples;
  const bool whole = s0 + 4 <= samples;

  float h[2 * R + 1][4] = { };  /* filtered rows y - 2R .. y */
  float in[R + 1][4] = { };     /* unfiltered rows y - R .. y */
#pragma unroll
  for (int j = 0; j < ROWS + 2 * R; j++) {
    const int y = y0 - R + j;
    if (y - R >= height)
      break;                    /* uniform: no output row left */
    const T *row = cf_row < T > (src, src_stride,
        cf_border_index (y, height, a.border));
    const Raw < T > mine = load_quad < T, C > (row, s0, width, a.border);
    float v[N];
#pragma unroll
    for (int i = 0; i < 4; i++)
      v[4 * H + i] = mine.get (i);
#pragma unroll
    for (int k = 1; k <= H; k++) {
      const Raw < T > left = mine.shfl_up (k), right = mine.shfl_down (k);
#pragma unroll
      for (int i = 0; i < 4; i++) {
        v[4 * (H - k) + i] = left.get (i);
        v[4 * (H + k) + i] = right.get (i);
      }
    }
    /* Shift the windows by a row. */
#pragma unroll
    for (int t = 0; t < 2 * R; t++)
#pragma unroll
      for (int i = 0; i < 4; i++)
        h[t][i] = h[t + 1][i];
#pragma unroll
    for (int t = 0; t < R; t++)
#pragma unroll
      for (int i = 0; i < 4; i++)
        in[t][i] = in[t + 1][i];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int c = 4 * H + i;
      float acc = a.wx[0] * v[c];
#pragma unroll
      for (int t = 1; t <= R; t++)
        acc += a.wx[t] * (v[c - t * C] + v[c + t * C]);
      h[2 * R][i] = acc;
      in[R][i] = v[c];
    }
    const int yo = y - R;       /* the row whose window is now complete */
    if (j < 2 * R || yo >= height || !writes)
      continue;
    T res[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      float acc = a.wy[0] * h[R][i];
#pragma unroll
      for (int t = 1; t <= R; t++)
        acc += a.wy[t] * (h[R - t][i] + h[R + t][i]);
      const bool filtered = (a.mask >> ((s0 + i) % C)) & 1u;
      res[i] = filtered ? (T) fminf (cf_round_up_clamped < T >
          (cf_gaussian_finish (in[0][i], acc, a.amount, a.threshold)),
          a.max) : (T) in[0][i];
    }
    T *out = cf_row < T > (dst, dst_stride, yo) + s0;
    if (whole) {
      typedef typename std::conditional < sizeof (T) == 1, uchar4,
          ushort4 >::type Q;
      *(Q *) out = Q { res[0], res[1], res[2], res[3] };
    } else {
#pragma unroll
      for (int i = 0; i < 4; i++)
        if (s0 + i < samples)
          out[i] = res[i];
    }
  }
}

template < typename T, int C, int R > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const CfMaskArgs & a,
    cudaStream_t stream)
{
  constexpr int H = (R * C + 3) / 4;
  const int quads = (src->width * C + 3) / 4;
  const int warps = (quads + 32 - 2 * H - 1) / (32 - 2 * H);
  dim3 grid ((warps * 32 + THREADS - 1) / THREADS,
      (src->height + ROWS - 1) / ROWS);
  gaussian_small < T, C, R > <<<grid, THREADS, 0, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T, int R > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const CfMaskArgs & a, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch < T, 1, R > (src, dst, a, stream);
    case 2:
      return launch < T, 2, R > (src, dst, a, stream);
    case 3:
      return launch < T, 3, R > (src, dst, a, stream);
    default:
      return launch < T, 4, R > (src, dst, a, stream);
  }
}

template < typename T > CfStatus
launch_radius (const CfPlane * src, const CfPlane * dst, int r,
    const CfMaskArgs & a, cudaStream_t stream)
{
  return r <= 1 ? launch_channels < T, 1 > (src, dst, a, stream) :
      launch_channels < T, 2 > (src, dst, a, stream);
}

}                               /* namespace */

extern "C" CfStatus
cf_gaussian_small (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * p)
{
  const CfMaskArgs a = cf_mask_args_gaussian (dst, p);
  const int r = p->radius_x > p->radius_y ? p->radius_x : p->radius_y;
  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch_radius < unsigned short > (src, dst, r, a, stream) :
      launch_radius < unsigned char > (src, dst, r, a, stream);
}
