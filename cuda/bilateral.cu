/* Bilateral filter kernels. The exact filter runs one tiled kernel over
 * any window shape (the ellipse, or a 1-D window where one radius is 0);
 * the separable approximation runs a second kernel that does the
 * horizontal then the vertical 1-D pass in one go, through shared memory,
 * or, where that kernel's tiles do not fit the device's shared memory, two
 * launches of the first with 1-D windows through a scratch plane. For one
 * filtered channel and radii up to 8, a third kernel does the separable
 * passes by symmetric pairs (each weight serves both its ends).
 *
 * A block loads its tile plus halo into shared memory once (32-bit loads
 * where pixels pack into words), with only the filtered channels packed
 * per pixel, and lists the window's taps (offset in the tile, log2 of the
 * spatial weight) beside it. Each thread then walks that list for the
 * pixels it owns in one column. The spatial and range weights multiply as
 * one exp2 of a sum, so a tap costs one or two FP32 operations and one
 * MUFU.EX2 per weight. A 256-entry range table in shared memory was
 * measured 1.4x to 1.7x slower (a warp's random differences hit random
 * banks; docs/cudabilateral.md), and for 16 bits it would quantise. Sums
 * are taken relative to the centre value, so the output is centre +
 * sum (w d) / sum (w), one division per filtered channel; the centre itself
 * weighs exactly 1 and is not in the list.
 *
 * Each kernel comes with two tile heights (outputs per thread); the host
 * picks the tallest whose shared memory fits the device's per-block limit,
 * and where the exact window's tap list does not fit beside even the lower
 * tile, the block walks the list in chunks. */
#include "bilateral.h"
#include "bilateral_tuning.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

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

/* K pixels of one column, BLOCK_Y rows apart in a tile of pitch PITCH:
 * their centre values and the running sums over a list of taps (byte
 * offset in the tile, log2 of ws). */
template < typename T, int F, bool JOINT, int PITCH, int K > struct Column {
  typedef Pixel < T, F > P;
  typedef typename P::S S;
  float cen[K][F], acc[K][F], wsum[K][JOINT ? 1 : F];

  /* The centres' values; the centres weigh 1. */
  __device__ __forceinline__ void start (const S * centre)
  {
#pragma unroll
    for (int k = 0; k < K; k++) {
#pragma unroll
      for (int j = 0; j < F; j++) {
        cen[k][j] = P::get (centre[k * BLOCK_Y * PITCH], j);
        acc[k][j] = 0.0f;
        wsum[k][JOINT ? 0 : j] = 1.0f;
      }
    }
  }

  /* Adds ntaps taps of the list. */
  __device__ __forceinline__ void add (const S * centre,
      const float2 * taps, int ntaps, const Args & a)
  {
#pragma unroll 2
    for (int t = 0; t < ntaps; t++) {
      const float2 tap = taps[t];
      const S *q = (const S *) ((const char *) centre +
          __float_as_int (tap.x));
#pragma unroll
      for (int k = 0; k < K; k++) {
        const S s = q[k * BLOCK_Y * PITCH];
        if (JOINT) {
          float d[F], dd = 0.0f;
#pragma unroll
          for (int j = 0; j < F; j++) {
            d[j] = P::get (s, j) - cen[k][j];
            dd = fmaf (d[j], d[j], dd);
          }
          const float w = fast_exp2 (fmaf (dd, a.nk, tap.y));
#pragma unroll
          for (int j = 0; j < F; j++)
            acc[k][j] = fmaf (w, d[j], acc[k][j]);
          wsum[k][0] += w;
        } else {
#pragma unroll
          for (int j = 0; j < F; j++) {
            const float d = P::get (s, j) - cen[k][j];
            const float w = fast_exp2 (P::exponent (d, tap.y, a));
            acc[k][j] = fmaf (w, d, acc[k][j]);
            wsum[k][j] += w;
          }
        }
      }
    }
  }

  __device__ __forceinline__ void filter (const S * centre,
      const float2 * taps, int ntaps, const Args & a)
  {
    start (centre);
    add (centre, taps, ntaps, a);
  }

  /* Filtered sample j of pixel k, rounded to the sample type. */
  __device__ __forceinline__ T result (int k, int j, const Args & a) const
  {
    return cf_round_to < T > (P::value (cen[k][j],
            __fdividef (acc[k][j], wsum[k][JOINT ? 0 : j]), a));
  }

  /* Pixel k as the tile stores it. */
  __device__ __forceinline__ S packed (int k, const Args & a) const
  {
    unsigned v[F];
#pragma unroll
    for (int j = 0; j < F; j++)
      v[j] = result (k, j, a);
    return P::pack (v, a);
  }

  /* Writes the K pixels at (x, y), (x, y + BLOCK_Y)...; the channels not
   * filtered are copied from src. */
  __device__ __forceinline__ void store (const void *src, size_t src_stride,
      void *dst, size_t dst_stride, int x, int y, int height,
      const Args & a) const
  {
    const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * a.channels;
    T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * a.channels;
#pragma unroll
    for (int k = 0; k < K; k++) {
      if (y + k * BLOCK_Y >= height)
        break;
      if (a.copy_others)
        for (int c = 0; c < a.channels; c++)
          if (!((a.mask >> c) & 1u))
            out[c] = in[c];
#pragma unroll
      for (int j = 0; j < F; j++)
        out[a.chan[j]] = result (k, j, a);
      in = (const T *) ((const char *) in + BLOCK_Y * src_stride);
      out = (T *) ((char *) out + BLOCK_Y * dst_stride);
    }
  }
};

/* Lists the taps [t0, t0 + tap_room) of the window but its centre (byte
 * offset in a tile of pitch PITCH, log2 ws), a window row per warp. */
template < typename S, int PITCH > __device__ __forceinline__ void
list_taps (float2 * taps, int t0, const Args & a)
{
  for (int dy = threadIdx.y - a.ry; dy <= a.ry; dy += BLOCK_Y) {
    const int hw = a.half_w[dy + a.ry];
    const int first = a.row_start[dy + a.ry] - t0;
    const int n = min (2 * hw + (dy != 0), a.tap_room - first);
    const int lane = threadIdx.x;
    for (int i = max (lane, lane - first / BLOCK_X * BLOCK_X); i < n;
        i += BLOCK_X) {
      if (first + i < 0)
        continue;
      const int dx = i - hw + (dy == 0 && i >= hw);
      taps[first + i] =
          make_float2 (__int_as_float ((dy * PITCH + dx) * (int) sizeof (S)),
          a.lx[abs (dx)] + a.ly[abs (dy)]);
    }
  }
}

/* The exact filter over the window of Args, PIX outputs per thread. */
template < typename T, int F, bool JOINT, int PITCH, int PIX > __global__ void
__launch_bounds__ (THREADS)
bilateral_tile (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const Args a)
{
  typedef typename Pixel < T, F >::S S;
  constexpr int TILE_H = BLOCK_Y * PIX;
  extern __shared__ float2 smem[];
  float2 *taps = smem;
  S *tile = (S *) (smem + taps_slots (a.tap_room));
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * TILE_H;
  const TileShape ts (a, x0, TILE_H, a.rx);

  list_taps < S, PITCH > (taps, 0, a);
  const S first = first_pixel < T, F > (src, src_stride, width, height, x0,
      y0, a);
  const bool same = load_tile < T, F, PITCH > (src, src_stride, width, height,
      y0, ts, a, tile, first);
  const bool flat = __syncthreads_and (same);

  Column < T, F, JOINT, PITCH, PIX > col;
  const S *centre = tile + (threadIdx.y + a.ry) * PITCH + threadIdx.x + ts.ox;
  col.start (centre);
  if (!flat) {
    /* The whole list, or where it does not fit, chunk by chunk. */
    for (int t0 = 0;; t0 += a.tap_room) {
      col.add (centre, taps, min (a.tap_room, a.ntaps - t0), a);
      if (t0 + a.tap_room >= a.ntaps)
        break;
      __syncthreads ();
      list_taps < S, PITCH > (taps, t0 + a.tap_room, a);
      __syncthreads ();
    }
  }
  if (x0 + threadIdx.x < width)
    col.store (src, src_stride, dst, dst_stride, x0 + threadIdx.x,
        y0 + threadIdx.y, height, a);
}

/* The separable filter in one kernel, PIX outputs per thread: the
 * horizontal 1-D pass over the tile and its vertical halo, rounded to the
 * sample type into a second tile (`mid`, as the reference's intermediate
 * plane), then the vertical 1-D pass over that. The frame is read and
 * written once; the halo rows' horizontal pass is done by both blocks that
 * need it. */
template < typename T, int F, bool JOINT, int PIX > __global__ void
__launch_bounds__ (THREADS)
bilateral_separable (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const Args a)
{
  typedef typename Pixel < T, F >::S S;
  constexpr int TILE_H = BLOCK_Y * PIX;
  extern __shared__ float2 smem[];
  float2 *taps_h = smem;
  float2 *taps_v = taps_h + taps_slots (2 * a.rx);
  S *tile = (S *) (taps_v + taps_slots (2 * a.ry));
  S *mid = tile + WIDE_PITCH * (TILE_H + 2 * a.ry);
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * TILE_H;
  const TileShape ts (a, x0, TILE_H, a.rx);
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;

  /* Both windows but their centres: -r..-1, 1..r. */
  for (int i = tid; i < 2 * a.rx; i += THREADS) {
    const int dx = i < a.rx ? i - a.rx : i - a.rx + 1;
    taps_h[i] = make_float2 (__int_as_float (dx * (int) sizeof (S)),
        a.lx[abs (dx)]);
  }
  for (int i = tid; i < 2 * a.ry; i += THREADS) {
    const int dy = i < a.ry ? i - a.ry : i - a.ry + 1;
    taps_v[i] = make_float2 (__int_as_float (dy * NARROW_PITCH *
            (int) sizeof (S)), a.ly[abs (dy)]);
  }

  const S first = first_pixel < T, F > (src, src_stride, width, height, x0,
      y0, a);
  const bool same = load_tile < T, F, WIDE_PITCH > (src, src_stride, width,
      height, y0, ts, a, tile, first);
  const bool flat = __syncthreads_and (same);
  const int ntaps_h = flat ? 0 : 2 * a.rx;

  const S *tile_col = tile + threadIdx.x + ts.ox;
  S *mid_col = mid + threadIdx.x;
  /* Rows ry .. ry + TILE_H - 1, PIX per thread, then the 2 ry halo rows
   * one at a time. */
  {
    Column < T, F, JOINT, WIDE_PITCH, PIX > h;
    const int r = a.ry + threadIdx.y;
    h.filter (tile_col + r * WIDE_PITCH, taps_h, ntaps_h, a);
#pragma unroll
    for (int k = 0; k < PIX; k++)
      mid_col[(r + k * BLOCK_Y) * NARROW_PITCH] = h.packed (k, a);
  }
  for (int m = threadIdx.y; m < 2 * a.ry; m += BLOCK_Y) {
    Column < T, F, JOINT, WIDE_PITCH, 1 > h;
    const int r = m < a.ry ? m : m + TILE_H;
    h.filter (tile_col + r * WIDE_PITCH, taps_h, ntaps_h, a);
    mid_col[r * NARROW_PITCH] = h.packed (0, a);
  }
  __syncthreads ();

  Column < T, F, JOINT, NARROW_PITCH, PIX > v;
  v.filter (mid_col + (a.ry + threadIdx.y) * NARROW_PITCH, taps_v,
      flat ? 0 : 2 * a.ry, a);
  if (x0 + threadIdx.x < width)
    v.store (src, src_stride, dst, dst_stride, x0 + threadIdx.x,
        y0 + threadIdx.y, height, a);
}

/* The separable filter for one filtered channel and radii up to PAIR_R,
 * by symmetric pairs. The weight between samples p and q is the same for
 * output p and for output q (same distance, and (-d) * (-d) == d * d), so
 * a thread that owns RUN consecutive outputs of a row (horizontal pass) or
 * of a column (vertical pass) computes each pair inside its run once, for
 * both ends, from values held in registers: per output r + r (r + 1) /
 * (2 RUN) exponentials instead of 2r (10.5 instead of 14 at radius 7), no
 * tap list and no per-tap shared-memory load. The pairs unroll over the
 * compile-time PAIR_R, the radius being a uniform guard. As in the fused
 * kernel, a block loads its tile with the halo (always PAIR_R columns),
 * rounds the horizontal pass of the tile's and the halo's rows into a
 * second tile, and runs the vertical pass over that. */
constexpr int RUN = 8;
/* = RUN: no pair within the radius has both ends outside a run. */
constexpr int PAIR_R = RUN;
constexpr int SPAN = RUN + 2 * PAIR_R;  /* a run's values, halo included */
/* Two runs of RUN rows per thread in the vertical pass: the halo rows'
 * horizontal pass (2 ry rows per tile) is spread over twice the outputs of
 * one run (measured at radius 7: 0.074 against 0.078 ms with one run). */
constexpr int RUNS_Y = 2;
constexpr int PAIRS_TILE_H = RUNS_Y * BLOCK_Y * RUN;
constexpr int RUNS_X = TILE_W / RUN;
/* Holds x0 - PAIR_R .. x0 + TILE_W + PAIR_R - 1; 4 mod 8 floats, so that
 * the 16-byte loads of a warp's 8 rows x 4 runs hit every bank once per
 * quarter warp. NARROW_PITCH (the intermediate) is 4 mod 8 too. */
constexpr int PAIRS_PITCH = TILE_W + 2 * PAIR_R + 4;

/* x rounded as cf_round_to rounds it (x + 0.5, clamped, truncated), as
 * the float 2^23 + result: its low bits are the integer, and minus 2^23
 * it is the value, with no conversion instruction. */
template < typename T > __device__ __forceinline__ float
round_biased (float x)
{
  return __fadd_rd (fminf (fmaxf (x + 0.5f, 0.0f), CfSampleMax < T >::value),
      BIAS);
}

/* RUN consecutive outputs: v[PAIR_R + k] is output k's value, v[i] the
 * value at offset i - PAIR_R - k from it, as Pixel < T, 1 > stores it. */
template < typename T, bool VERTICAL > struct PairRun {
  typedef Pixel < T, 1 > P;
  float acc[RUN], wsum[RUN];

  __device__ __forceinline__ void filter (const float (&v)[SPAN], int r,
      const Args & a)
  {
#pragma unroll
    for (int k = 0; k < RUN; k++) {
      acc[k] = 0.0f;
      wsum[k] = 1.0f;
    }
#pragma unroll
    for (int d = 1; d <= PAIR_R; d++) {
      if (d > r)
        break;
      const float lws = VERTICAL ? a.ly[d] : a.lx[d];
      /* The pairs (i, i + d) with at least one end in the run. */
#pragma unroll
      for (int i = PAIR_R - d; i < PAIR_R + RUN; i++) {
        const float dv = v[i + d] - v[i];
        const float w = fast_exp2 (P::exponent (dv, lws, a));
        if (i >= PAIR_R) {
          acc[i - PAIR_R] = fmaf (w, dv, acc[i - PAIR_R]);
          wsum[i - PAIR_R] += w;
        }
        if (i + d < PAIR_R + RUN) {
          acc[i + d - PAIR_R] = fmaf (-w, dv, acc[i + d - PAIR_R]);
          wsum[i + d - PAIR_R] += w;
        }
      }
    }
  }

  /* Output k rounded to the sample type, biased (round_biased). */
  __device__ __forceinline__ float result (int k, float cen,
      const Args & a) const
  {
    return round_biased < T > (P::value (cen, __fdividef (acc[k], wsum[k]),
            a));
  }

  /* Output k as the tile stores it. */
  __device__ __forceinline__ float packed (int k, float cen,
      const Args & a) const
  {
    const float b = result (k, cen, a);
    return sizeof (T) == 1 ? (b - BIAS) * a.scale : b;
  }
};

/* Loads the pairs kernel's tile (columns x0 - PAIR_R .. x0 + TILE_W +
 * PAIR_R - 1) of a one-channel plane with word-aligned rows, for a block
 * whose tile lies inside the image: no border mapping, a 32-bit word of
 * pixels per load, stored as the kernel's floats 16 or 8 bytes at a time.
 * Says whether every sample equals the tile's first. */
template < typename T > __device__ __forceinline__ bool
load_inner_tile (const void *src, size_t stride, int x0, int y0, int rows,
    const Args & a, float *tile)
{
  constexpr int G = 4 / sizeof (T);     /* pixels per word */
  constexpr int SLOTS = (TILE_W + 2 * PAIR_R) / G;
  const unsigned char *base = cf_row < unsigned char >(src, stride,
      y0 - a.ry) + (x0 - PAIR_R) * (int) sizeof (T);
  /* the first sample in every slot of the word */
  const unsigned first = *(const T *) base * (G == 4 ? 0x01010101u :
      0x00010001u);
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;
  bool same = true;

#pragma unroll 4
  for (int i = tid; i < SLOTS * rows; i += THREADS) {
    const int r = i / SLOTS, slot = i - r * SLOTS;
    const unsigned w = *(const unsigned *) (base + (size_t) r * stride +
        4 * slot);
    same &= w == first;
    float *out = tile + r * PAIRS_PITCH + G * slot;
    if (G == 4) {
      float f[4];
#pragma unroll
      for (int p = 0; p < 4; p++)
        f[p] = (__uint_as_float (__byte_perm (w, 0x4B000000u, 0x7540 + p)) -
            BIAS) * a.scale;
      *(float4 *) out = make_float4 (f[0], f[1], f[2], f[3]);
    } else {
      *(float2 *) out = make_float2 (biased_half (w, 0), biased_half (w, 1));
    }
  }
  return same;
}

/* At most 64 registers, for 4 blocks per SM (the tile's shared memory
 * allows 4 on the H100; unbounded, 78 registers allow 3: 0.077 against
 * 0.074 ms at radius 7). */
template < typename T > __global__ void
__launch_bounds__ (THREADS, 4)
bilateral_pairs (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const Args a)
{
  extern __shared__ float2 smem[];
  float *tile = (float *) smem;
  float *mid = tile + PAIRS_PITCH * (PAIRS_TILE_H + 2 * a.ry);
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * PAIRS_TILE_H;
  const TileShape ts (a, x0, PAIRS_TILE_H, PAIR_R);
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;

  bool same;
  if (a.channels == 1 && a.word_pixels > 0 && x0 >= PAIR_R
      && x0 + TILE_W + PAIR_R <= width && y0 >= a.ry
      && y0 + PAIRS_TILE_H + a.ry <= height) {
    same = load_inner_tile < T > (src, src_stride, x0, y0, ts.rows, a, tile);
  } else {
    const float first = first_pixel < T, 1 > (src, src_stride, width,
        height, x0, y0, a);
    same = load_tile < T, 1, PAIRS_PITCH > (src, src_stride, width, height,
        y0, ts, a, tile, first);
  }
  const bool flat = __syncthreads_and (same);

  /* Horizontal: runs of RUN outputs over the tile's and the halo's rows,
   * rounded into mid (column k is the tile's column PAIR_R + k). */
  for (int q = tid; q < RUNS_X * ts.rows; q += THREADS) {
    const int row = q / RUNS_X, x = q % RUNS_X * RUN;
    const float4 *in = (const float4 *) (tile + row * PAIRS_PITCH + x);
    float v[SPAN];
#pragma unroll
    for (int m = 0; m < SPAN / 4; m++) {
      const float4 f = in[m];
      v[4 * m] = f.x;
      v[4 * m + 1] = f.y;
      v[4 * m + 2] = f.z;
      v[4 * m + 3] = f.w;
    }
    PairRun < T, false > h;
    h.filter (v, flat ? 0 : a.rx, a);
    float4 *out = (float4 *) (mid + row * NARROW_PITCH + x);
#pragma unroll
    for (int m = 0; m < RUN / 4; m++)
      out[m] = make_float4 (h.packed (4 * m, v[PAIR_R + 4 * m], a),
          h.packed (4 * m + 1, v[PAIR_R + 4 * m + 1], a),
          h.packed (4 * m + 2, v[PAIR_R + 4 * m + 2], a),
          h.packed (4 * m + 3, v[PAIR_R + 4 * m + 3], a));
  }
  __syncthreads ();

  /* Vertical: column threadIdx.x, runs of RUN consecutive rows. */
  const int ry = flat ? 0 : a.ry;
  const int x = x0 + threadIdx.x;
  if (x >= width)
    return;
#pragma unroll 1
  for (int part = 0; part < RUNS_Y; part++) {
    const int r0 = RUN * (threadIdx.y + BLOCK_Y * part);  /* in the tile */
    const int top = a.ry + r0 - PAIR_R;      /* mid row of v[0] */
    float v[SPAN];
#pragma unroll
    for (int i = 0; i < SPAN; i++)
      v[i] = i >= PAIR_R - ry && i < PAIR_R + RUN + ry ?
          mid[(top + i) * NARROW_PITCH + threadIdx.x] : 0.0f;
    PairRun < T, true > col;
    col.filter (v, ry, a);

    const int y = y0 + r0, n = min (RUN, height - y);
    if (a.copy_others)
      for (int k = 0; k < n; k++) {
        const T *in = cf_row < T > (src, src_stride, y + k) + (size_t) x *
            a.channels;
        T *out = cf_row < T > (dst, dst_stride, y + k) + (size_t) x *
            a.channels;
        for (int c = 0; c < a.channels; c++)
          if (c != a.chan[0])
            out[c] = in[c];
      }
    unsigned char *out = (unsigned char *) (cf_row < T > (dst, dst_stride,
            y) + (size_t) x * a.channels + a.chan[0]);
#pragma unroll
    for (int k = 0; k < RUN; k++) {
      if (k >= n)
        break;
      *(T *) (out + k * dst_stride) = (T) (__float_as_uint (col.result (k,
                  v[PAIR_R + k], a)) & 0xFFFFu);
    }
  }
}

CfBilateralTuning tuning;

/* The dynamic shared memory a block may have on the current device: its
 * opt-in limit (a cached attribute: cheap), under the tuning cap. */
CfStatus
shared_limit (size_t * limit)
{
  int dev, bytes = 0;
  cudaError_t err = cudaGetDevice (&dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&bytes,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);
  *limit = tuning.shared_limit > 0 && tuning.shared_limit < (size_t) bytes ?
      tuning.shared_limit : (size_t) bytes;
  return CF_OK;
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

/* The exact filter: the taller tile with the whole tap list where they fit
 * the device, else the lower tile, with the list in chunks if need be. */
template < typename T, int F, bool JOINT, int PITCH > CfStatus
launch_tile (const CfPlane * src, const CfPlane * dst, Args a,
    const Target & t)
{
  typedef typename Pixel < T, F >::S S;
  constexpr int HI = pix_max < F > (), LO = HI / 2;
  const size_t list = sizeof (float2) * taps_slots (a.ntaps);
  const size_t tile_hi = sizeof (S) * PITCH * (BLOCK_Y * HI + 2 * a.ry);
  const size_t tile_lo = sizeof (S) * PITCH * (BLOCK_Y * LO + 2 * a.ry);

  a.tap_room = a.ntaps;
  if (tile_hi + list <= t.limit)
    return run < bilateral_tile < T, F, JOINT, PITCH, HI > > (src, dst, a,
        BLOCK_Y * HI, tile_hi + list, t);
  if (tile_lo + list > t.limit) {
    a.tap_room = tile_lo < t.limit ?
        (int) ((t.limit - tile_lo) / sizeof (float2)) & ~1 : 0;
    if (a.tap_room < 2)
      return CF_ERROR_INVALID;  /* less than any GPU of sm_75 up has */
  }
  return run < bilateral_tile < T, F, JOINT, PITCH, LO > > (src, dst, a,
      BLOCK_Y * LO, tile_lo + sizeof (float2) * taps_slots (a.tap_room), t);
}

template < typename T, int F, bool JOINT > CfStatus
launch_exact (const CfPlane * src, const CfPlane * dst, const Args & a,
    const Target & t)
{
  return a.rx == 0 ?
      launch_tile < T, F, JOINT, NARROW_PITCH > (src, dst, a, t) :
      launch_tile < T, F, JOINT, WIDE_PITCH > (src, dst, a, t);
}

/* The separable kernel's shared memory with pix outputs per thread. */
template < typename T, int F > size_t
separable_smem (const Args & a, int pix)
{
  return sizeof (float2) * (taps_slots (2 * a.rx) + taps_slots (2 * a.ry)) +
      sizeof (typename Pixel < T, F >::S) * (WIDE_PITCH + NARROW_PITCH) *
      (BLOCK_Y * pix + 2 * a.ry);
}

/* The fused separable kernel with the taller tile where it fits, else the
 * lower one (the caller checked that one fits). */
template < typename T, int F, bool JOINT > CfStatus
launch_separable (const CfPlane * src, const CfPlane * dst, const Args & a,
    const Target & t)
{
  constexpr int HI = pix_max < F > (), LO = HI / 2;
  const size_t hi = separable_smem < T, F > (a, HI);
  if (hi <= t.limit)
    return run < bilateral_separable < T, F, JOINT, HI > > (src, dst, a,
        BLOCK_Y * HI, hi, t);
  return run < bilateral_separable < T, F, JOINT, LO > > (src, dst, a,
      BLOCK_Y * LO, separable_smem < T, F > (a, LO), t);
}

/* One call: planes, parameters, weights, scratch and target. */
struct Call {
  const CfPlane *src, *dst;
  const CfBilateralParams *p;
  const CfBilateralWeights *w;
  CfScratch *scratch;
  Target t;
};

/* The kernel arguments for the window of radii (rx, ry). */
void
make_args (const CfPlane * src, const CfBilateralParams * p,
    const CfBilateralWeights * w, int rx, int ry, Args * a)
{
  *a = Args ();
  a->rx = rx;
  a->ry = ry;
  for (int dy = -ry; dy <= ry; dy++) {
    int hw = 0;
    while (hw < rx && cf_bilateral_in_window (hw + 1, dy, rx, ry))
      hw++;
    a->half_w[dy + ry] = hw;
    a->row_start[dy + ry] = a->ntaps;
    a->ntaps += 2 * hw + (dy != 0);
  }
  for (int k = 0; k <= CF_BILATERAL_MAX_RADIUS; k++) {
    a->lx[k] = w->lx[k];
    a->ly[k] = w->ly[k];
  }
  a->nk = w->nk;
  /* Below 1e-30, exp2 (nk d^2) is 1.0f for every 16-bit d either way. */
  a->scale = (float) sqrt (fmax (-w->nk, 1e-30));
  a->inv_scale = 1.0f / a->scale;
  a->channels = src->channels;
  a->pixel_bytes = src->channels * cf_plane_bytes_per_sample (src);
  a->word_pixels = 4 % a->pixel_bytes == 0
      && ((uintptr_t) src->data | src->stride) % 4 == 0 ?
      4 / a->pixel_bytes : 0;
  a->mask = p->channel_mask & CF_ALL_CHANNELS (src->channels);
  a->copy_others = a->mask != CF_ALL_CHANNELS (src->channels);
  a->border = p->border;
  int filtered = 0;
  for (int c = 0; c < src->channels; c++)
    if ((a->mask >> c) & 1u) {
      a->chan_shift[filtered] = 8 * c * cf_plane_bytes_per_sample (src);
      a->chan[filtered++] = c;
    }
}

/* The exact filter; or the separable one: by symmetric pairs for one
 * filtered channel and small radii, else in one kernel where its tiles fit
 * the device, else in two passes of the exact kernel with 1-D windows
 * through scratch. */
template < typename T, int F, bool JOINT > CfStatus
filter (const Call & c, bool separable)
{
  const CfBilateralParams *p = c.p;
  Args a;

  make_args (c.src, p, c.w, p->radius_x, p->radius_y, &a);
  if (!separable)
    return launch_exact < T, F, JOINT > (c.src, c.dst, a, c.t);
  if constexpr (F == 1) {
    const size_t smem = sizeof (float) * (PAIRS_PITCH + NARROW_PITCH) *
        (PAIRS_TILE_H + 2 * a.ry);
    if (!tuning.two_pass_separable && !tuning.general_separable
        && a.rx <= PAIR_R && a.ry <= PAIR_R && smem <= c.t.limit)
      return run < bilateral_pairs < T > > (c.src, c.dst, a, PAIRS_TILE_H,
          smem, c.t);
  }
  if (!tuning.two_pass_separable
      && separable_smem < T, F > (a, pix_max < F > () / 2) <= c.t.limit)
    return launch_separable < T, F, JOINT > (c.src, c.dst, a, c.t);

  /* Rows into scratch (a plane like src, rounded to its sample type as
   * the fused kernel's intermediate is), then the columns of scratch. */
  if (!c.scratch)
    return CF_ERROR_INVALID;
  CfPlane tmp = *c.src;
  tmp.stride = ((size_t) c.src->width * c.src->channels *
      cf_plane_bytes_per_sample (c.src) + 255) & ~(size_t) 255;
  CfStatus st = cf_scratch_reserve (c.scratch, tmp.stride * c.src->height);
  if (st != CF_OK)
    return st;
  tmp.data = c.scratch->data;
  make_args (c.src, p, c.w, p->radius_x, 0, &a);
  st = launch_exact < T, F, JOINT > (c.src, &tmp, a, c.t);
  if (st != CF_OK)
    return st;
  make_args (&tmp, p, c.w, 0, p->radius_y, &a);
  return launch_exact < T, F, JOINT > (&tmp, c.dst, a, c.t);
}

template < typename T > CfStatus
filter_depth (const Call & c, int filtered, bool separable)
{
  /* One filtered channel: joint and per-channel are the same filter. */
  const bool joint = c.p->distance == CF_BILATERAL_JOINT;
  switch (filtered) {
    case 1:
      return filter < T, 1, false > (c, separable);
    case 2:
      return joint ? filter < T, 2, true > (c, separable) :
          filter < T, 2, false > (c, separable);
    case 3:
      return joint ? filter < T, 3, true > (c, separable) :
          filter < T, 3, false > (c, separable);
    default:
      return joint ? filter < T, 4, true > (c, separable) :
          filter < T, 4, false > (c, separable);
  }
}

}                               /* namespace */

extern "C" CfStatus
cf_bilateral (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfBilateralParams * p)
{
  if (!exec->on_gpu)
    return cf_bilateral_ref (src, dst, p);

  CfStatus st = cf_bilateral_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (!exec->stream)
    return CF_ERROR_INVALID;

  cudaStream_t stream = (cudaStream_t) exec->stream;
  size_t row_bytes = (size_t) src->width * src->channels *
      cf_plane_bytes_per_sample (src);
  /* A centre-only window, or nothing to filter: the output is the input. */
  if ((p->radius_x == 0 && p->radius_y == 0)
      || !(p->channel_mask & CF_ALL_CHANNELS (src->channels)))
    return cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
        row_bytes, src->height, exec->stream);

  CfBilateralWeights w;
  cf_bilateral_weights (p, src->depth, &w);
  /* A 1-D window is the same filter either way. */
  bool separable = p->mode == CF_BILATERAL_SEPARABLE && p->radius_x > 0
      && p->radius_y > 0;
  Call c = { src, dst, p, &w, exec->scratch, {stream, 0} };
  st = shared_limit (&c.t.limit);
  if (st != CF_OK)
    return st;
  int filtered = __builtin_popcount (p->channel_mask &
      CF_ALL_CHANNELS (src->channels));
  return src->depth > 8 ?
      filter_depth < unsigned short > (c, filtered, separable) :
      filter_depth < unsigned char > (c, filtered, separable);
}

extern "C" void
cf_bilateral_set_tuning (const CfBilateralTuning * t)
{
  tuning = *t;
}
