/* The variable box blur's fused path (satvar_paths.h), per pass, in
 * three launches that cover every filtered channel at once:
 *  1. satblur_columns.cu (the fixed box's first stage): each column's
 *     prefix at every SEG_ROWS-row segment boundary, a small table;
 *  2. build: a block per band of rows of the plane grown by the largest
 *     radii (rows and columns border-mapped). It starts each column's
 *     prefix at its band's first row from that table (clamp and mirror
 *     rows as a few prefixes, satblur_window.h), keeps it in shared
 *     memory, adds each row of the band to it and scans the row across
 *     the block (warp shuffles): the summed-area table's row, stored once,
 *     the filtered channels of an entry side by side (32-bit where every
 *     box sum fits: 8-bit samples at any radius here, 16-bit up to radius
 *     127; differences of wrapped prefixes are exact then; else 64-bit),
 *     or three 8-bit channels packed into one 64-bit sum where each of
 *     their box sums fits PACK_BITS bits (radii up to 44: half the bytes);
 *  3. boxes: a thread per pixel (satvar_pixel.cuh), each of its (up to
 *     four) boxes from four fetches of the table.
 * The table is written once and read once per pass (the first version
 * wrote it by rows, scanned it down the columns in three more launches
 * and ran all of that per channel: 5.8-7.4x the fixed box at 4K RGBA). */
#include "satvar_paths.h"
#include "satvar_pixel.cuh"
#include "satblur_kernels.cuh"
#include "satblur_window.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

using satvar_px::BoxArgs;

constexpr int BUILD_THREADS = 512;
constexpr int BOX_W = 32, BOX_H = 8;
/* Grown columns per build thread and round. */
constexpr int PX = 4;
/* Table entry e of a row is at e + OFF: a build thread's PX entries
 * (q PX + 1..) then start on a multiple of PX. */
constexpr int OFF = PX - 1;

/* Three filtered 8-bit channels may share one 64-bit table sum, channel c
 * in bits PACK_BITS c..: the sum of packed samples over a box is then the
 * packed box sums, exactly (modulo 2^64, as wrapped prefixes' differences
 * are), where each box sum is below 2^PACK_BITS. */
constexpr int PACK_BITS = CF_SATVAR_PACK_BITS;

/* Channels of a table entry: the filtered ones, 3 padded to 4 (one vector
 * access a corner). */
__host__ __device__ constexpr int
pad_channels (int f)
{
  return f == 3 ? 4 : f;
}

/* N sums at p (aligned to N of them, N a power of 2 up to 16) from or to
 * v, in vectors of up to 16 bytes. */
template < typename S, int N > __device__ __forceinline__ void
load_vec (const S * p, S (&v)[N])
{
  if constexpr (sizeof (S) == 4 && N % 4 == 0) {
#pragma unroll
    for (int k = 0; k < N; k += 4) {
      const uint4 q = __ldg ((const uint4 *) (p + k));
      v[k] = q.x;
      v[k + 1] = q.y;
      v[k + 2] = q.z;
      v[k + 3] = q.w;
    }
  } else if constexpr (sizeof (S) == 4 && N == 2) {
    const uint2 q = __ldg ((const uint2 *) p);
    v[0] = q.x;
    v[1] = q.y;
  } else if constexpr (sizeof (S) == 8 && N % 2 == 0) {
#pragma unroll
    for (int k = 0; k < N; k += 2) {
      const ulonglong2 q = __ldg ((const ulonglong2 *) (p + k));
      v[k] = q.x;
      v[k + 1] = q.y;
    }
  } else {
#pragma unroll
    for (int k = 0; k < N; k++)
      v[k] = __ldg (p + k);
  }
}

template < typename S, int N > __device__ __forceinline__ void
store_vec (S * p, const S * v)
{
  if constexpr (sizeof (S) == 4 && N % 4 == 0) {
#pragma unroll
    for (int k = 0; k < N; k += 4)
      *(uint4 *) (p + k) = make_uint4 (v[k], v[k + 1], v[k + 2], v[k + 3]);
  } else if constexpr (sizeof (S) == 8 && N % 2 == 0) {
#pragma unroll
    for (int k = 0; k < N; k += 2)
      *(ulonglong2 *) (p + k) = make_ulonglong2 (v[k], v[k + 1]);
  } else {
#pragma unroll
    for (int k = 0; k < N; k++)
      p[k] = v[k];
  }
}

/* The summed-area table of the grown plane: (rows + 1) rows of entries
 * 0..cols, each the sums of the filtered channels (pad_channels of them);
 * row 0 and entry 0 of each row 0; entry (t, i) sums grown rows < t and
 * grown columns < i. */
template < typename S > struct Sat {
  S *t;
  size_t pitch;                 /* elements of a row */
  int mx, my;
  int cols, rows;               /* w + 2 mx, h + 2 my */
};

struct BuildArgs {
  const void *src;
  size_t stride;
  int w, h, channels;
  CfBorder border;
  int chan[4];                  /* filtered channels, in order */
  const unsigned *col_prefix;   /* satblur's ColumnArgs.prefix */
  int col_pitch;
  int band_rows;
};

/* P(r): sample xs's column summed over rows 0..r-1 of src, from the
 * prefix at the nearer segment boundary and at most SEG_ROWS / 2 rows
 * (exact below 2^32, so in S too); every load issued at once. */
template < typename T, typename S > __device__ __forceinline__ S
column_p (const BuildArgs & a, int r, int xs)
{
  constexpr int HALF = satblur::SEG_ROWS / 2;
  const int s = r / satblur::SEG_ROWS, lo = s * satblur::SEG_ROWS;
  const int hi = min (a.h, lo + satblur::SEG_ROWS);
  const bool forward = r - lo <= hi - r;
  const S v = a.col_prefix[(size_t) (forward ? s : s + 1) * a.col_pitch +
      xs];
  const int y0 = forward ? lo : r, n = forward ? r - lo : hi - r;
  S add = 0;
#pragma unroll
  for (int k = 0; k < HALF; k++)
    if (k < n)
      add += cf_row < T > (a.src, a.stride, y0 + k)[xs];
  return forward ? v + add : v - add;
}

/* Table channel f's sample at p: filtered channel f's, or with PACK the
 * three filtered channels packed. */
template < typename T, typename S, bool PACK > __device__ __forceinline__ S
table_sample (const T * p, const BuildArgs & a, int f)
{
  if constexpr (PACK)
    return (S) p[a.chan[0]] | (S) p[a.chan[1]] << PACK_BITS |
        (S) p[a.chan[2]] << 2 * PACK_BITS;
  else
    return (S) p[a.chan[f]];
}

/* column_p of table channel f, at sample xs of its pixel. */
template < typename T, typename S, bool PACK > __device__ __forceinline__ S
table_column_p (const BuildArgs & a, int r, int xs, int f)
{
  if constexpr (PACK)
    return column_p < T, S > (a, r, xs + a.chan[0]) +
        (column_p < T, S > (a, r, xs + a.chan[1]) << PACK_BITS) +
        (column_p < T, S > (a, r, xs + a.chan[2]) << 2 * PACK_BITS);
  else
    return column_p < T, S > (a, r, xs + a.chan[f]);
}

/* Rows t0..t1 - 1 of the grown plane (a band) into table rows t0 + 1..t1.
 * A round of the block covers blockDim.x x PX grown columns, thread tid
 * the PX from (q = round's first chunk + tid) x PX: their column prefixes
 * in shared memory (laid out so that a warp's 32 chunks use 32 banks; no
 * other thread touches them), their sums along the row in registers, the
 * row's carry by warp shuffles. Its PX table entries (FP channels each)
 * are one aligned run of 16 x FP bytes (32-bit sums): vector stores.
 * F: the table's channels (the filtered ones, or with PACK 1). */
template < typename T, typename S, int F, int C, bool PACK > __global__ void
__launch_bounds__ (BUILD_THREADS, 2)
build (const BuildArgs a, const Sat < S > sat)
{
  constexpr int FP = pad_channels (F);
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ S warp_sums[2][32][F];
  S *col = (S *) smem;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int warps = blockDim.x >> 5;
  const int chunks = (sat.cols + PX - 1) / PX;
  const int t0 = blockIdx.x * a.band_rows;
  const int t1 = min (sat.rows, t0 + a.band_rows);
  /* the prefix of column q PX + j, channel f */
#define COL(q, j, f) col[((j) * F + (f)) * chunks + (q)]

  /* The grown rows above t0, -my..t0 - my - 1 of src extended: E(t0 - my)
   * - E(-my) in prefixes of src's columns (satblur_window.h). */
  CfSatWindow win = { {a.h, a.h - 1, 1, 0, 0}, {0, 0, 0, 0, 0} };
  cf_sat_add_extended (&win, t0 - sat.my, a.h, a.border, 1, 3);
  cf_sat_add_extended (&win, -sat.my, a.h, a.border, -1, 4);
  for (int q = tid; q < chunks; q += blockDim.x)
#pragma unroll 1
    for (int j = 0; j < PX; j++) {
      const int i = min (q * PX + j, sat.cols - 1);
      const int xs = cf_border_index (i - sat.mx, a.w, a.border) *
          a.channels;
#pragma unroll
      for (int f = 0; f < F; f++) {
        S v = 0;
#pragma unroll
        for (int k = 0; k < CF_SAT_TERMS; k++)
          if (win.w[k] != 0 && win.t[k] > 0)
            v += (S) (long long) win.w[k] * table_column_p < T, S,
                PACK > (a, win.t[k], xs, f);
        COL (q, j, f) = v;
      }
    }
  if (blockIdx.x == 0)
    for (int i = tid; i <= sat.cols; i += blockDim.x)
#pragma unroll
      for (int f = 0; f < FP; f++)
        sat.t[(i + OFF) * FP + f] = 0;

  /* warp_sums alternates between rounds, across rows too: one barrier per
   * round. */
  int buf = 0;
  for (int t = t0; t < t1; t++) {
    const T *row = cf_row < T > (a.src, a.stride, cf_border_index (t -
            sat.my, a.h, a.border));
    S *out = sat.t + (size_t) (t + 1) * sat.pitch;
    S carry[F];
#pragma unroll
    for (int f = 0; f < F; f++)
      carry[f] = 0;
    if (tid == 0)
#pragma unroll
      for (int f = 0; f < FP; f++)
        out[OFF * FP + f] = 0;
    for (int q0 = 0; q0 < chunks; q0 += blockDim.x, buf ^= 1) {
      const int q = q0 + tid;
      S v[PX][FP], tot[F], incl[F];
#pragma unroll
      for (int f = 0; f < F; f++)
        tot[f] = 0;
#pragma unroll
      for (int j = 0; j < PX; j++) {
        const int i = q * PX + j;
#pragma unroll
        for (int f = 0; f < FP; f++)
          v[j][f] = 0;
        if (i < sat.cols) {
          const T *p = row + cf_border_index (i - sat.mx, a.w, a.border) *
              C;
#pragma unroll
          for (int f = 0; f < F; f++) {
            const S c = COL (q, j, f) + table_sample < T, S, PACK > (p, a,
                f);
            COL (q, j, f) = c;
            tot[f] += c;
            v[j][f] = tot[f];
          }
        }
      }
#pragma unroll
      for (int f = 0; f < F; f++) {
        incl[f] = satblur::warp_inclusive_scan < S > (tot[f], lane);
        if (lane == 31)
          warp_sums[buf][warp][f] = incl[f];
      }
      __syncthreads ();
      S before[F];
#pragma unroll
      for (int f = 0; f < F; f++) {
        const S ws = lane < warps ? warp_sums[buf][lane][f] : 0;
        const S wi = satblur::warp_inclusive_scan < S > (ws, lane);
        before[f] = carry[f] + __shfl_sync (0xffffffffu, wi - ws, warp) +
            incl[f] - tot[f];
        carry[f] += __shfl_sync (0xffffffffu, wi, 31);
      }
#pragma unroll
      for (int j = 0; j < PX; j++)
#pragma unroll
        for (int f = 0; f < F; f++)
          v[j][f] += before[f];
      /* entries q PX + 1.. at (q PX + 1 + OFF) FP = (q + 1) PX FP */
      S *dst = out + (size_t) (q + 1) * PX * FP;
      if (q * PX + PX <= sat.cols) {
        store_vec < S, PX * FP > (dst, &v[0][0]);
      } else {
#pragma unroll
        for (int j = 0; j < PX; j++)
          if (q * PX + j < sat.cols)
#pragma unroll
            for (int f = 0; f < FP; f++)
              dst[j * FP + f] = v[j][f];
      }
    }
  }
#undef COL
}

/* A corner of the table: FP sums at row r, entry e. */
template < typename S, int FP > __device__ __forceinline__ void
corner (const Sat < S > &sat, int r, int e, S (&v)[FP])
{
  load_vec < S, FP > (sat.t + (size_t) r * sat.pitch + (size_t) (e + OFF) *
      FP, v);
}

/* The sums over the box (2 bx + 1) x (2 by + 1) around (x, y), every
 * channel. */
template < typename S, int FP > __device__ __forceinline__ void
sat_box (const Sat < S > &sat, int x, int y, int bx, int by, S (&s)[FP])
{
  S a[FP], b[FP], c[FP], d[FP];
  const int top = y - by + sat.my, bot = y + by + sat.my + 1;
  const int x0 = x - bx + sat.mx, x1 = x + bx + sat.mx + 1;
  corner < S, FP > (sat, bot, x1, a);
  corner < S, FP > (sat, bot, x0, b);
  corner < S, FP > (sat, top, x1, c);
  corner < S, FP > (sat, top, x0, d);
#pragma unroll
  for (int f = 0; f < FP; f++)
    s[f] = a[f] - b[f] - c[f] + d[f];
}

/* Filtered channel f's sum in a table entry's sums v. */
template < typename S, bool PACK, int N > __device__ __forceinline__ uint64_t
channel_sum (const S (&v)[N], int f)
{
  if constexpr (PACK)
    return (v[0] >> PACK_BITS * f) & ((1ull << PACK_BITS) - 1);
  else
    return v[f];
}

/* channel_sum rounded to float, as the reference's (float) of the sum:
 * packed sums (below 2^21) exactly, without a conversion instruction. */
template < typename S, bool PACK, int N > __device__ __forceinline__ float
channel_float (const S (&v)[N], int f)
{
  if constexpr (PACK)
    return cf_sample_float ((unsigned) channel_sum < S, PACK > (v, f));
  else if constexpr (sizeof (S) == 4)
    return __uint2float_rn (v[f]);
  else
    return __ull2float_rn (v[f]);
}

/* The global table's boxes for satvar_px::pixel: FP sums an entry, or with
 * PACK the three filtered channels in one. */
template < typename S, int FP, bool PACK > struct TableBoxes {
  typedef S Sums[FP];
  Sat < S > sat;
  __device__ void sums (int x, int y, const CfSatVarRadii & r,
      Sums (&s)[2][2]) const
  {
    sat_box < S, FP > (sat, x, y, r.ax, r.ay, s[0][0]);
    if (r.fx != 0.0f)
      sat_box < S, FP > (sat, x, y, r.ax + 1, r.ay, s[0][1]);
    if (r.fy != 0.0f)
      sat_box < S, FP > (sat, x, y, r.ax, r.ay + 1, s[1][0]);
    if (r.fx != 0.0f && r.fy != 0.0f)
      sat_box < S, FP > (sat, x, y, r.ax + 1, r.ay + 1, s[1][1]);
  }
  __device__ static uint64_t sum (const Sums & v, int f)
  {
    return channel_sum < S, PACK > (v, f);
  }
  __device__ static float sum_float (const Sums & v, int f)
  {
    return channel_float < S, PACK > (v, f);
  }
  __device__ static float count_rcp (int a)
  {
    return cf_satvar_count_rcp (a);
  }
};

/* A thread a pixel. F: the filtered channels; the table's entries hold FP
 * sums of them, or with PACK one. */
template < typename T, typename S, int C, int F, bool PACK > __global__ void
__launch_bounds__ (BOX_W * BOX_H)
fused_boxes (const BoxArgs a, const CfSatVarParams p, const Sat < S > sat)
{
  constexpr int FP = PACK ? 1 : pad_channels (F);
  const int x = blockIdx.x * BOX_W + threadIdx.x;
  const int y = blockIdx.y * BOX_H + threadIdx.y;
  if (x < a.w && y < a.h)
    satvar_px::pixel < T, C, F > (a, p, x, y, TableBoxes < S, FP, PACK > {
        sat});
}

template < typename T, typename S, int F, int C, bool PACK = false > CfStatus
launch_build_c (const BuildArgs & a, const Sat < S > &sat, int blocks,
    int threads, size_t smem, cudaStream_t stream)
{
  CfStatus st = cf_allow_smem < build < T, S, F, C, PACK > >(smem);
  if (st != CF_OK)
    return st;
  build < T, S, F, C, PACK > <<<blocks, threads, smem, stream>>> (a, sat);
  return cf_launch_status ();
}

template < typename T, typename S, int F > CfStatus
launch_build (const BuildArgs & a, const Sat < S > &sat, int blocks,
    int threads, size_t smem, cudaStream_t stream)
{
  switch (a.channels) {
    case 1:
      return launch_build_c < T, S, F, 1 > (a, sat, blocks, threads, smem,
          stream);
    case 2:
      if constexpr (F <= 2)
        return launch_build_c < T, S, F, 2 > (a, sat, blocks, threads, smem,
            stream);
      break;
    case 3:
      if constexpr (F <= 3)
        return launch_build_c < T, S, F, 3 > (a, sat, blocks, threads, smem,
            stream);
      break;
    default:
      break;
  }
  return launch_build_c < T, S, F, 4 > (a, sat, blocks, threads, smem,
      stream);
}

template < typename T, typename S, int C, int F, bool PACK = false > CfStatus
launch_boxes (const BoxArgs & a, const CfSatVarParams & p,
    const Sat < S > &sat, cudaStream_t stream)
{
  const dim3 block (BOX_W, BOX_H);
  const dim3 grid ((a.w + BOX_W - 1) / BOX_W, (a.h + BOX_H - 1) / BOX_H);
  fused_boxes < T, S, C, F, PACK > <<<grid, block, 0, stream>>> (a, p, sat);
  return cf_launch_status ();
}

/* The packed table's build and boxes (three filtered 8-bit channels). */
CfStatus
launch_packed (const BuildArgs & b, const BoxArgs & a,
    const CfSatVarParams & p, const Sat < uint64_t > &sat, int blocks,
    int threads, size_t smem, cudaStream_t stream)
{
  CfStatus st = b.channels == 3 ?
      launch_build_c < unsigned char, uint64_t, 1, 3, true > (b, sat, blocks,
      threads, smem, stream) :
      launch_build_c < unsigned char, uint64_t, 1, 4, true > (b, sat, blocks,
      threads, smem, stream);
  if (st != CF_OK)
    return st;
  return b.channels == 3 ?
      launch_boxes < unsigned char, uint64_t, 3, 3, true > (a, p, sat,
      stream) : launch_boxes < unsigned char, uint64_t, 4, 3, true > (a, p,
      sat, stream);
}

template < typename T, typename S, int C > CfStatus
launch_boxes_f (const BoxArgs & a, const CfSatVarParams & p,
    const Sat < S > &sat, int F, cudaStream_t stream)
{
  if constexpr (C >= 4)
    if (F == 4)
      return launch_boxes < T, S, C, 4 > (a, p, sat, stream);
  if constexpr (C >= 3)
    if (F == 3)
      return launch_boxes < T, S, C, 3 > (a, p, sat, stream);
  if constexpr (C >= 2)
    if (F == 2)
      return launch_boxes < T, S, C, 2 > (a, p, sat, stream);
  return launch_boxes < T, S, C, 1 > (a, p, sat, stream);
}

/* One pass of the fused path, in -> out; pack: the packed table (8-bit,
 * three filtered channels, S 64-bit). */
template < typename T, typename S > CfStatus
fused_pass (const CfPlane * src, const CfPlane * in, const CfPlane * out,
    const CfSatVarParams * p, satblur::ColumnArgs col, BuildArgs b,
    const Sat < S > &sat, int F, bool pack, int blocks, int threads,
    size_t smem, cudaStream_t stream)
{
  col.src = b.src = in->data;
  col.src_stride = b.stride = in->stride;
  col.vec = (uintptr_t) in->data % satblur::vector_bytes (satblur::COLUMN_RUN
      * sizeof (T)) == 0 && in->stride % satblur::vector_bytes
      (satblur::COLUMN_RUN * sizeof (T)) == 0;
  CfStatus st = satblur::launch_columns (col, in->depth, stream);
  if (st != CF_OK)
    return st;

  const BoxArgs a = satvar_px::box_args < T > (src, in, out, p);
  if constexpr (sizeof (T) == 1 && sizeof (S) == 8)
    if (pack)
      return launch_packed (b, a, *p, sat, blocks, threads, smem, stream);
  switch (F) {
    case 1:
      st = launch_build < T, S, 1 > (b, sat, blocks, threads, smem, stream);
      break;
    case 2:
      st = launch_build < T, S, 2 > (b, sat, blocks, threads, smem, stream);
      break;
    case 3:
      st = launch_build < T, S, 3 > (b, sat, blocks, threads, smem, stream);
      break;
    default:
      st = launch_build < T, S, 4 > (b, sat, blocks, threads, smem, stream);
      break;
  }
  if (st != CF_OK)
    return st;
  switch (in->channels) {
    case 1:
      return launch_boxes_f < T, S, 1 > (a, *p, sat, F, stream);
    case 2:
      return launch_boxes_f < T, S, 2 > (a, *p, sat, F, stream);
    case 3:
      return launch_boxes_f < T, S, 3 > (a, *p, sat, F, stream);
    default:
      return launch_boxes_f < T, S, 4 > (a, *p, sat, F, stream);
  }
}

size_t
align256 (size_t x)
{
  return (x + 255) & ~(size_t) 255;
}

/* Every pass on the fused path; *fits = false (nothing queued) where it
 * cannot run. pack: the packed table (S 64-bit). */
template < typename S > CfStatus
run_fused (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * p, bool pack, bool *fits)
{
  cudaStream_t stream = (cudaStream_t) exec->stream;
  const int w = src->width, h = src->height, C = src->channels;
  const int bps = cf_plane_bytes_per_sample (src);
  const unsigned mask = p->channel_mask & CF_ALL_CHANNELS (C);
  const int F = __builtin_popcount (mask);

  *fits = !(sizeof (S) > 4 && !pack && h > 65536);
  if (!*fits)
    return CF_OK;

  Sat < S > sat;
  sat.mx = (int) ceil (p->radius_x);
  sat.my = (int) ceil (p->radius_y);
  sat.cols = w + 2 * sat.mx;
  sat.rows = h + 2 * sat.my;
  const int TF = pack ? 1 : F, FP = pack ? 1 : pad_channels (F);
  sat.pitch = (((size_t) sat.cols + 1 + OFF + 31) & ~(size_t) 31) * FP;

  int dev, optin, sms;
  cudaError_t err = cudaGetDevice (&dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
  if (err != cudaSuccess)
    return cf_status_from_cuda (err);
  /* the column prefixes, beside the warp sums */
  const size_t smem = (size_t) TF * PX * ((sat.cols + PX - 1) / PX) *
      sizeof (S);
  *fits = smem + 2 * 32 * 4 * sizeof (S) <= (size_t) optin;
  if (!*fits)
    return CF_OK;

  satblur::ColumnArgs col = { };
  const int N = satblur::run_samples (C), runs = (w * C + N - 1) / N;
  col.n = w * C;
  col.height = h;
  col.segments = (h + satblur::SEG_ROWS - 1) / satblur::SEG_ROWS;
  col.pitch = (runs * N + 63) & ~63;

  int threads = ((sat.cols + PX - 1) / PX + 31) & ~31;
  threads = threads > BUILD_THREADS ? BUILD_THREADS : threads;
  /* two blocks a multiprocessor, each band's start costing a few column
   * prefixes */
  const int want = 2 * sms;
  BuildArgs b = { };
  b.w = w;
  b.h = h;
  b.channels = C;
  b.border = p->border;
  for (int c = 0, f = 0; c < C; c++)
    if ((mask >> c) & 1u)
      b.chan[f++] = c;
  b.col_pitch = col.pitch;
  b.band_rows = (sat.rows + want - 1) / want;
  const int blocks = (sat.rows + b.band_rows - 1) / b.band_rows;

  const size_t seg_bytes = align256 ((size_t) col.segments * col.pitch *
      (bps == 1 ? 2 : 4));
  const size_t pre_bytes = align256 ((size_t) (col.segments + 1) *
      col.pitch * 4);
  const size_t sat_bytes = align256 (sat.pitch * (sat.rows + 1) *
      sizeof (S));
  CfStatus st = cf_scratch_reserve (exec->scratch, seg_bytes + pre_bytes +
      sat_bytes + cf_satvar_tmp_bytes (src, p->passes));
  if (st != CF_OK)
    return st;
  unsigned char *scratch = (unsigned char *) exec->scratch->data;
  col.seg = scratch;
  col.prefix = (unsigned *) (scratch + seg_bytes);
  b.col_prefix = col.prefix;
  sat.t = (S *) (scratch + seg_bytes + pre_bytes);
  return cf_satvar_passes (src, dst, scratch + seg_bytes + pre_bytes +
      sat_bytes, p->passes, [&](const CfPlane * in, const CfPlane * out) {
        return src->depth > 8 ?
            fused_pass < unsigned short, S > (src, in, out, p, col, b, sat, F,
            false, blocks, threads, smem, stream) :
            fused_pass < unsigned char, S > (src, in, out, p, col, b, sat, F,
            pack, blocks, threads, smem, stream);
      });
}

}                               /* namespace */

extern "C" CfStatus
cf_satvar_fused (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p, int wide, int pack,
    int *fits)
{
  bool ok;
  CfStatus st = wide || pack ?
      run_fused < uint64_t > (exec, src, dst, p, pack, &ok) :
      run_fused < uint32_t > (exec, src, dst, p, false, &ok);
  *fits = ok;
  return st;
}
