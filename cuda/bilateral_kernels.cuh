/* Internal to cudabilateral: what its kernel files (bilateral.cu: the
 * exact and the general separable kernels and the host code;
 * bilateral_pairs.cu: the symmetric-pairs separable kernel) share. The
 * block shape, the kernel arguments, how samples sit in shared memory
 * (Pixel), the tile loader and the launcher. */
#ifndef CF_BILATERAL_KERNELS_CUH
#define CF_BILATERAL_KERNELS_CUH

#include "bilateral.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"
#include "gate_tile.cuh"

namespace bilateral {

constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int THREADS = BLOCK_X * BLOCK_Y;
constexpr int TILE_W = BLOCK_X;
/* Output rows per thread, BLOCK_Y apart, of the taller tile: more for one
 * filtered channel (few registers each), which amortises each tap's list
 * entry and the halo over more outputs. The lower tile has half as many,
 * for devices with less shared memory per block. */
template < int F > __host__ __device__ constexpr int
pix_max ()
{
  return F == 1 ? 8 : 4;
}

/* The tile starts at x0 - rx rounded down to a whole 32-bit word, up to 3
 * pixels early. A fixed tile pitch makes the offsets between a thread's
 * pixels immediates: one address add per tap serves all of them. A window
 * without horizontal extent, and the separable kernel's intermediate, take
 * the narrow pitch. */
constexpr int WIDE_PITCH = TILE_W + 2 * CF_BILATERAL_MAX_RADIUS + 4;
constexpr int NARROW_PITCH = TILE_W + 4;
constexpr int MAX_ROWS = 2 * CF_BILATERAL_MAX_RADIUS + 1;
/* Tile rows each thread has in flight at once. */
constexpr int LOAD_BATCH = 4;
/* 0x4B00_00vv is the float 2^23 + v: samples (< 2^16) become floats with
 * one logic op, and differences of such floats are exact. */
constexpr float BIAS = 8388608.0f;

struct Args {
  int rx, ry;
  int half_w[MAX_ROWS];         /* per row dy + ry: the largest |dx| */
  int row_start[MAX_ROWS];      /* per row: the index of its first tap */
  int ntaps;                    /* all but the centre */
  int tap_room;                 /* taps the block's list holds at once */
  float lx[CF_BILATERAL_MAX_RADIUS + 1];
  float ly[CF_BILATERAL_MAX_RADIUS + 1];
  float nk;
  /* sqrt (-nk) and its inverse: one filtered channel is staged pre-scaled,
   * so that log2 wr = -d * d, one FFMA with the spatial term. */
  float scale, inv_scale;
  int channels;
  int pixel_bytes;
  /* Pixels per 32-bit tile load where a pixel's bytes divide 4 and rows
   * are word aligned; 0: a load per sample. */
  int word_pixels;
  int chan[4];                  /* the channel of each filtered slot */
  int chan_shift[4];            /* its bit offset in the pixel's bytes */
  unsigned mask;
  bool copy_others;             /* some channels are not filtered */
  CfBorder border;
  CfGateTile gate;              /* the exact kernel skips gated-out blocks */
};

__device__ __forceinline__ float
fast_exp2 (float x)
{
  float y;
  asm ("ex2.approx.ftz.f32 %0, %1;" : "=f" (y) : "f" (x));
  return y;
}

/* How the F filtered samples of a pixel sit in shared memory, how sample j
 * comes back as a float, the exponent of a tap's weight from the
 * difference d to the centre, and the output from the centre value and the
 * weighted mean of d. Packed samples come out with one byte permute as
 * floats biased by BIAS, whose differences are exact; a single 16-bit
 * channel is stored as that float. */
template < typename T, int F > struct Pixel;

struct Biased {
  static __device__ __forceinline__ float exponent (float d, float lws,
      const Args & a)
  {
    return fmaf (d * a.nk, d, lws);
  }
  static __device__ __forceinline__ float value (float cen, float mean_d,
      const Args &)
  {
    return cen - BIAS + mean_d;
  }
};

/* A single 8-bit channel is stored as the float v * sqrt (-nk), so that a
 * weight's exponent is one FFMA; its rounding (2^-24 relative, 255 at most)
 * stays far below an output LSB. 16 bits stay biased: there the scaled
 * centre would be off by 0.004 LSB, enough to tip the separable
 * intermediate's rounding measurably often. */
template <> struct Pixel <unsigned char, 1 > {
  typedef float S;
  static __device__ __forceinline__ S pack (const unsigned *v, const Args & a)
  {
    return (float) v[0] * a.scale;
  }
  static __device__ __forceinline__ float get (S s, int)
  {
    return s;
  }
  static __device__ __forceinline__ float exponent (float d, float lws,
      const Args &)
  {
    return fmaf (-d, d, lws);
  }
  static __device__ __forceinline__ float value (float cen, float mean_d,
      const Args & a)
  {
    return (cen + mean_d) * a.inv_scale;
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

template <> struct Pixel <unsigned short, 1 >:Biased {
  typedef float S;
  static __device__ __forceinline__ S pack (const unsigned *v, const Args &)
  {
    return __uint_as_float (0x4B000000u | v[0]);
  }
  static __device__ __forceinline__ float get (S s, int)
  {
    return s;
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

template < int F > struct Pixel <unsigned char, F >:Biased {
  typedef unsigned S;
  static __device__ __forceinline__ S pack (const unsigned *v, const Args &)
  {
    unsigned s = 0;
#pragma unroll
    for (int j = 0; j < F; j++)
      s |= v[j] << (8 * j);
    return s;
  }
  static __device__ __forceinline__ float get (S s, int j)
  {
    return __uint_as_float (__byte_perm (s, 0x4B000000u, 0x7540 + j));
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

__device__ __forceinline__ float
biased_half (unsigned word, int k)
{
  return __uint_as_float (__byte_perm (word, 0x4B000000u,
          0x7400 | ((2 * k + 1) << 4) | (2 * k)));
}

template <> struct Pixel <unsigned short, 2 >:Biased {
  typedef unsigned S;
  static __device__ __forceinline__ S pack (const unsigned *v, const Args &)
  {
    return v[0] | v[1] << 16;
  }
  static __device__ __forceinline__ float get (S s, int j)
  {
    return biased_half (s, j);
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a == b;
  }
};

template < int F > struct Pixel <unsigned short, F >:Biased {
  typedef uint2 S;
  static __device__ __forceinline__ S pack (const unsigned *v, const Args &)
  {
    return make_uint2 (v[0] | v[1] << 16, v[2] | (F > 3 ? v[3] << 16 : 0u));
  }
  static __device__ __forceinline__ float get (S s, int j)
  {
    return biased_half (j < 2 ? s.x : s.y, j & 1);
  }
  static __device__ __forceinline__ bool equal (S a, S b)
  {
    return a.x == b.x && a.y == b.y;
  }
};

/* Taps first (8-byte aligned), then the tile; keeps uint2 aligned too. */
__host__ __device__ inline int
taps_slots (int ntaps)
{
  return (ntaps + 1) & ~1;
}

/* The tile's geometry for the block at (x0, y0): column 0 is pixel xa,
 * loads are slots of g pixels (a 32-bit word, or one pixel), slots_x of
 * them per row; x0 is column ox. */
struct TileShape {
  int g, xa, ox, cols, slots_x, rows;
  /* hx: the halo columns on each side, rx unless a kernel wants more */
  __device__ TileShape (const Args & a, int x0, int tile_h, int hx)
  {
    g = a.word_pixels > 0 ? a.word_pixels : 1;
    /* g is 1, 2 or 4, and x0 - hx >= -CF_BILATERAL_MAX_RADIUS */
    xa = ((x0 - hx + 2 * CF_BILATERAL_MAX_RADIUS) & -g) -
        2 * CF_BILATERAL_MAX_RADIUS;
    ox = x0 - xa;
    cols = ox + TILE_W + hx;
    slots_x = (cols + g - 1) / g;
    rows = tile_h + 2 * a.ry;
  }
};

/* Loads the tile and its halo into shared memory through the border mode
 * and says whether all its samples equal `first`. Each thread keeps one
 * slot column (so the border and word decisions are made once) and walks
 * rows, LOAD_BATCH of them in flight. A slot is a 32-bit word of g pixels
 * where it lies inside the row, else its bytes one by one (at the left and
 * right edges), or, where pixels are not word sized, a pixel's samples. */
template < typename T, int F, int PITCH > __device__ __forceinline__ bool
load_tile (const void *src, size_t stride, int width, int height, int y0,
    const TileShape & ts, const Args & a, typename Pixel < T, F >::S * tile,
    typename Pixel < T, F >::S first)
{
  typedef Pixel < T, F > P;
  typedef typename P::S S;
  enum { WORD, BYTES, SAMPLES };
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;
  const int row_step = THREADS / ts.slots_x;
  const int r_first = tid / ts.slots_x;
  const int slot = tid - r_first * ts.slots_x;
  if (r_first >= row_step)
    return true;

  /* Byte offsets in a row: of the word, of each of its bytes, or of each
   * filtered sample. */
  const int gx = ts.xa + slot * ts.g;
  const int kind = a.word_pixels == 0 ? SAMPLES :
      gx >= 0 && gx + ts.g <= width ? WORD : BYTES;
  int off[4];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    if (kind == SAMPLES) {
      off[k] = (cf_border_index (gx, width, a.border) * a.channels +
          a.chan[k < F ? k : 0]) * (int) sizeof (T);
    } else {
      const int p = k / a.pixel_bytes;
      off[k] = cf_border_index (gx + p, width, a.border) * a.pixel_bytes +
          k - p * a.pixel_bytes;
    }
  }
  const unsigned sample_mask = sizeof (T) == 1 ? 0xFFu : 0xFFFFu;
  S *out = tile + slot * ts.g;
  bool same = true;

  for (int r0 = r_first; r0 < ts.rows; r0 += row_step * LOAD_BATCH) {
    unsigned raw[LOAD_BATCH][F];
#pragma unroll
    for (int b = 0; b < LOAD_BATCH; b++) {
      const int r = min (r0 + b * row_step, ts.rows - 1);
      const unsigned char *row = cf_row < unsigned char >(src, stride,
          cf_border_index (y0 - a.ry + r, height, a.border));
      if (kind == WORD) {
        raw[b][0] = *(const unsigned *) (row + off[0]);
      } else if (kind == BYTES) {
        raw[b][0] = row[off[0]] | row[off[1]] << 8 | row[off[2]] << 16 |
            row[off[3]] << 24;
      } else {
#pragma unroll
        for (int j = 0; j < F; j++)
          raw[b][j] = *(const T *) (row + off[j]);
      }
    }
#pragma unroll
    for (int b = 0; b < LOAD_BATCH; b++) {
      const int r = r0 + b * row_step;
      if (r >= ts.rows)
        break;
      /* Up to 4 pixels; the tile's pitch holds the whole last slot. */
#pragma unroll
      for (int p = 0; p < 4; p++) {
        if (p >= ts.g)
          break;
        unsigned v[F];
#pragma unroll
        for (int j = 0; j < F; j++)
          v[j] = kind == SAMPLES ? raw[b][j] :
              (raw[b][0] >> (a.chan_shift[j] + 8 * p * a.pixel_bytes)) &
              sample_mask;
        const S s = P::pack (v, a);
        same &= P::equal (s, first);
        out[r * PITCH + p] = s;
      }
    }
  }
  return same;
}

/* The first pixel of the window of the block at (x0, y0), packed: a tile
 * whose samples all equal it is flat. There every d is 0, the output is
 * the input, and the taps are skipped (exact; e.g. the black outside an
 * ultrasound sector, letterbox bars). */
template < typename T, int F > __device__ __forceinline__
    typename Pixel < T, F >::S
first_pixel (const void *src, size_t stride, int width, int height, int x0,
    int y0, const Args & a)
{
  const T *px = cf_row < T > (src, stride,
      cf_border_index (y0 - a.ry, height, a.border)) +
      (size_t) cf_border_index (x0 - a.rx, width, a.border) * a.channels;
  unsigned v[F];
#pragma unroll
  for (int j = 0; j < F; j++)
    v[j] = px[a.chan[j]];
  return Pixel < T, F >::pack (v, a);
}

/* Where a call runs: the stream and the device's shared-memory limit. */
struct Target {
  cudaStream_t stream;
  size_t limit;
};

template < auto KERNEL > CfStatus
run (const CfPlane * src, const CfPlane * dst, const Args & a, int tile_h,
    size_t smem, const Target & t)
{
  CfStatus st = cf_allow_smem < KERNEL > (smem);
  if (st != CF_OK)
    return st;
  dim3 grid ((src->width + TILE_W - 1) / TILE_W,
      (src->height + tile_h - 1) / tile_h);
  KERNEL <<<grid, dim3 (BLOCK_X, BLOCK_Y), smem, t.stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

/* The symmetric-pairs separable kernel (bilateral_pairs.cu): whether it
 * serves the window of `a` within `limit` bytes of shared memory (one
 * filtered channel, radii up to its compile-time bound), and its launch. */
bool pairs_fit (const Args & a, size_t limit);
template < typename T > CfStatus launch_pairs (const CfPlane * src,
    const CfPlane * dst, const Args & a, const Target & t);

}                               /* namespace bilateral */

#endif /* CF_BILATERAL_KERNELS_CUH */
