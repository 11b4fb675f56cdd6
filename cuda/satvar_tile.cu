/* The variable box blur's tile path (satvar_paths.h): one launch a pass,
 * no table in global memory. A block owns a TILE_W x TH tile of output
 * pixels (TH 32; from a vertical margin of TALL_FROM on, whichever of
 * 64, 56 and 32 keeps the most threads on a multiprocessor, tile_height:
 * the taller the tile, the smaller the margins' share of it); it reads
 * the tile grown by the margins (the largest radii, rounded up: at most
 * TILE_MAX_MARGIN) from the pass's input through the border mode and
 * builds that grown tile's summed-area table in shared memory: each grown
 * column summed down (its rows in Tile::RUNS runs, a thread each, the
 * loads coalesced along the row and, where a row's samples are one load,
 * LOOK rows' loads in flight at once), then each row across (four threads
 * a row, an odd pitch keeping the rows in different banks).
 * The filtered channels of an entry share words: 21 bits a channel for
 * 8-bit samples (three a 64-bit word), 32 for 16-bit ones (two), one
 * 32-bit word for a single channel. The prefixes may wrap (modulo the
 * word): a box's sum, the difference of four of them, is still exact
 * wherever it fits its channel's bits, which every box up to the largest
 * margin does.
 * Then each thread makes TH / Tile::THREADS_Y pixels down its column of
 * the tile (satvar_pixel.cuh), its boxes from four shared-memory corners
 * each. The grown tile re-reads the neighbours' margins (from L2); the
 * global table of satvar_fused.cu is written and read once instead, which
 * is what larger margins take. */
#include "satvar_paths.h"
#include "satvar_pixel.cuh"
#include "cf_runtime.h"

#include <math.h>
#include <type_traits>

namespace {

using satvar_px::BoxArgs;

constexpr int TILE_W = 64;
/* The vertical margin from which a tile may be taller than 32 rows. */
constexpr int TALL_FROM = 9;
constexpr int TILE_MAX_MARGIN = CF_SATVAR_TILE_MAX_RADIUS;
/* The largest margin at which two blocks a multiprocessor are enough to
 * take the tile path (above it three; cf_satvar_tile). */
constexpr int TWO_BLOCKS_UP_TO = 24;
/* Threads a run of every grown column's rows (one a column), and a row. */
constexpr int COLUMN_THREADS = 128;
constexpr int ROW_THREADS = 4;
/* Rows a column thread loads before it sums them (the sums are a chain:
 * rows loaded one at a time each wait a load's latency), where a row's
 * samples are one load: one filtered channel, or a pixel of one 32-bit
 * word (H100: 1080p GRAY16_LE map 0.031 -> 0.026 ms, 4K RGBA map 0.141 ->
 * 0.133). Other planes load a row's channels one by one, a row at a time
 * (two rows ahead spilled or was slower). */
constexpr int LOOK = 6;
static_assert (TILE_W + 2 * TILE_MAX_MARGIN <= COLUMN_THREADS,
    "a thread for each grown column");

/* The threads of a tile @th rows high: 8 rows of them in the taller
 * tiles, else 4. */
__host__ __device__ constexpr int
tile_threads (int th)
{
  return TILE_W * (th > 32 ? 8 : 4);
}

/* A tile TH rows high: its threads, and the runs a grown column's rows
 * are summed in. */
template < int TH > struct Tile {
  static constexpr int THREADS = tile_threads (TH);
  static constexpr int THREADS_Y = THREADS / TILE_W;
  static constexpr int RUNS = THREADS / COLUMN_THREADS;
  /* the largest vertical margin: a thread for each grown row's part */
  static constexpr int MAX_MY = (THREADS / ROW_THREADS - TH) / 2;
};
static_assert (Tile < 32 >::MAX_MY >= TALL_FROM - 1 &&
    Tile < 56 >::MAX_MY >= TILE_MAX_MARGIN &&
    Tile < 64 >::MAX_MY >= TILE_MAX_MARGIN, "margins the tiles take");

/* How a tile's table packs the filtered channels (F) of an entry of
 * samples of @bytes into words: bits a channel, channels a word, words an
 * entry, bytes a word. */
__host__ __device__ constexpr int
pack_bits (int bytes, int F)
{
  return F == 1 || bytes > 1 ? 32 : 21;
}

__host__ __device__ constexpr int
pack_per_word (int bytes, int F)
{
  return F == 1 ? 1 : 64 / pack_bits (bytes, F);
}

__host__ __device__ constexpr int
pack_words (int bytes, int F)
{
  return (F + pack_per_word (bytes, F) - 1) / pack_per_word (bytes, F);
}

__host__ __device__ constexpr int
word_bytes (int F)
{
  return F == 1 ? 4 : 8;
}

template < typename T, int F > struct Packing {
  typedef typename std::conditional < word_bytes (F) == 4, uint32_t,
      uint64_t >::type W;
  static constexpr int BITS = pack_bits (sizeof (T), F);
  static constexpr int PER = pack_per_word (sizeof (T), F);
  static constexpr int WORDS = pack_words (sizeof (T), F);
};

/* The largest box sum fits a channel's bits. */
static_assert ((2 * TILE_MAX_MARGIN + 1) * (2 * TILE_MAX_MARGIN + 1) * 255 <
    (1 << 21) && (uint64_t) (2 * TILE_MAX_MARGIN + 1) * (2 * TILE_MAX_MARGIN +
        1) * 65535 <= UINT32_MAX, "box sums fit their bits");

struct TileArgs {
  int mx, my;                   /* margins */
  int pitch;                    /* words of a table row: odd */
  int th;                       /* the tile's rows: 32, 56 or 64 */
  int chan[4];                  /* filtered channels, in order */
};

/* The shared table's boxes for satvar_px::pixel. Entry (t, i) of word k
 * sums the grown tile's rows < t and columns < i; (ox, oy): the plane's
 * pixel at grown column and row 0. */
template < typename T, int F > struct TileBoxes {
  typedef Packing < T, F > P;
  typedef typename P::W Sums[P::WORDS];
  const typename P::W * t;
  const float *rcp;             /* cf_satvar_count_rcp (0..MAX_MARGIN + 1) */
  int pitch, plane;             /* words of a row, of a word's table */
  int ox, oy;
  /* The boxes' corners: rows t0 and b0 of the box (ax, ay), one further
   * out for ay + 1; columns c0 and c1, one further out for ax + 1. */
  __device__ void sums (int x, int y, const CfSatVarRadii & r,
      Sums (&s)[2][2]) const
  {
    const int t0 = (y - r.ay - oy) * pitch, b0 = (y + r.ay + 1 - oy) * pitch;
    const int c0 = x - r.ax - ox, c1 = x + r.ax + 1 - ox;
#pragma unroll
    for (int k = 0; k < P::WORDS; k++) {
      const typename P::W * top = t + k * plane + t0, *bot = t + k * plane +
          b0;
      s[0][0][k] = bot[c1] - bot[c0] - top[c1] + top[c0];
      if (r.fx != 0.0f)
        s[0][1][k] = bot[c1 + 1] - bot[c0 - 1] - top[c1 + 1] + top[c0 - 1];
      if (r.fy != 0.0f) {
        top -= pitch;
        bot += pitch;
        s[1][0][k] = bot[c1] - bot[c0] - top[c1] + top[c0];
        if (r.fx != 0.0f)
          s[1][1][k] = bot[c1 + 1] - bot[c0 - 1] - top[c1 + 1] +
              top[c0 - 1];
      }
    }
  }
  __device__ float count_rcp (int a) const
  {
    return rcp[a];
  }
  __device__ static uint64_t sum (const Sums & v, int f)
  {
    return ((uint64_t) v[f / P::PER] >> P::BITS * (f % P::PER)) &
        ((1ull << P::BITS) - 1);
  }
  /* exact below 2^23 (8-bit sums) without a conversion instruction */
  __device__ static float sum_float (const Sums & v, int f)
  {
    const unsigned s = (unsigned) sum (v, f);
    return sizeof (T) == 1 ? cf_sample_float (s) : __uint2float_rn (s);
  }
};

/* Threads of a tile kernel a multiprocessor must hold: 2048 (32
 * registers: a 1080p plane in one wave on an H100) with one filtered
 * channel or two of 8 bits, 1536 (40 registers) with more, where 32 would
 * spill. */
__host__ __device__ constexpr int
sm_threads (int bytes, int F)
{
  return F == 1 || (F == 2 && bytes == 1) ? 2048 : 1536;
}

/* Those threads in blocks, no more than a multiprocessor holds. */
template < typename T, int F, int TH > __host__ __device__ constexpr int
min_blocks ()
{
  constexpr int threads = Tile < TH >::THREADS;
  return cf_min_blocks (sm_threads (sizeof (T), F) / threads, threads);
}

template < typename T, int C, int F, int TH > __global__ void
__launch_bounds__ (Tile < TH >::THREADS, (min_blocks < T, F, TH > ()))
tile_kernel (const BoxArgs a, const CfSatVarParams p, const TileArgs g)
{
  typedef Tile < TH > S;
  typedef Packing < T, F > P;
  typedef typename P::W W;
  constexpr unsigned SAMPLE_MASK = (1u << 8 * sizeof (T)) - 1u;
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ float rcp[TILE_MAX_MARGIN + 2];
  W *t = (W *) smem;
  const int cols = TILE_W + 2 * g.mx, rows = TH + 2 * g.my;
  const int plane = (rows + 1) * g.pitch;
  const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * TH;
  const int tid = threadIdx.y * TILE_W + threadIdx.x;

  /* Down each grown column: its prefix at entries (1.., c + 1), the
   * column's rows in S::RUNS runs, a thread each; each run's total is
   * kept (then summed over the runs above it) for the rows below it. */
  __shared__ W above[P::WORDS][S::RUNS - 1][COLUMN_THREADS];
  const int run_rows = (rows + S::RUNS - 1) / S::RUNS;
  {
    const int c = tid % COLUMN_THREADS, run = tid / COLUMN_THREADS;
    if (c < cols) {
      const size_t xs = (size_t) cf_border_index (x0 - g.mx + c, a.w,
          p.border) * C;
      const int r_begin = run * run_rows;
      const int r_end = min (rows, r_begin + run_rows);
      W sum[P::WORDS] = { };
      if (F == 1 || (C * sizeof (T) == 4 && a.vec_in)) {
        /* a row's samples in one load: LOOK rows loaded, then summed */
        for (int r = r_begin; r < r_end; r += LOOK) {
          unsigned v[LOOK];
#pragma unroll
          for (int j = 0; j < LOOK; j++) {
            const T *px = cf_row < T > (a.in, a.in_stride,
                cf_border_index (y0 - g.my + min (r + j, r_end - 1), a.h,
                    p.border)) + xs;
            v[j] = F == 1 ? px[g.chan[0]] : *(const unsigned *) px;
          }
#pragma unroll
          for (int j = 0; j < LOOK; j++)
            if (r + j < r_end) {
#pragma unroll
              for (int f = 0; f < F; f++)
                sum[f / P::PER] += (W) (F == 1 ? v[j] : v[j] >> 8 *
                    sizeof (T) * g.chan[f] & SAMPLE_MASK) << P::BITS *
                    (f % P::PER);
#pragma unroll
              for (int k = 0; k < P::WORDS; k++)
                t[k * plane + (r + j + 1) * g.pitch + c + 1] = sum[k];
            }
        }
      } else {
#pragma unroll 4
        for (int r = r_begin; r < r_end; r++) {
          const T *px = cf_row < T > (a.in, a.in_stride,
              cf_border_index (y0 - g.my + r, a.h, p.border)) + xs;
#pragma unroll
          for (int f = 0; f < F; f++)
            sum[f / P::PER] += (W) px[g.chan[f]] << P::BITS * (f % P::PER);
#pragma unroll
          for (int k = 0; k < P::WORDS; k++)
            t[k * plane + (r + 1) * g.pitch + c + 1] = sum[k];
        }
      }
      if (run < S::RUNS - 1)
#pragma unroll
        for (int k = 0; k < P::WORDS; k++)
          above[k][run][c] = sum[k];
    }
  }
  /* row 0 and column 0 */
  for (int i = tid; i <= cols + rows; i += S::THREADS)
#pragma unroll
    for (int k = 0; k < P::WORDS; k++)
      t[k * plane + (i <= cols ? i : (i - cols) * g.pitch)] = 0;
  if (tid < TILE_MAX_MARGIN + 2)
    rcp[tid] = cf_satvar_count_rcp (tid);
  __syncthreads ();
  /* each run's total becomes the sum of the runs above the next */
  if constexpr (S::RUNS > 2) {
    for (int i = tid; i < P::WORDS * cols; i += S::THREADS) {
      W *total = &above[i / cols][0][i % cols];
      for (int j = 1; j < S::RUNS - 1; j++)
        total[j * COLUMN_THREADS] += total[(j - 1) * COLUMN_THREADS];
    }
    __syncthreads ();
  }

  /* Along each grown row, ROW_THREADS threads a row (adjacent lanes): each
   * sums its span of the row (adding the totals of the runs above a row's
   * to its entries), the lanes' spans are scanned by shuffles, then each
   * adds the spans before its own. */
  {
    const int r = tid / ROW_THREADS + 1, q = tid % ROW_THREADS;
    const int span = (cols + ROW_THREADS - 1) / ROW_THREADS;
    const int c0 = q * span + 1, c1 = min (cols, c0 + span - 1);
    const int run = S::RUNS == 2 ? r - 1 >= run_rows : (r - 1) / run_rows;
    const bool mine = r <= rows;
#pragma unroll
    for (int k = 0; k < P::WORDS; k++) {
      W *e = t + k * plane + r * g.pitch;
      W sum = 0;
      if (mine)
        for (int c = c0; c <= c1; c++) {
          sum += e[c] + (run > 0 ? above[k][S::RUNS == 2 ? 0 : run - 1][c -
                  1] : 0);
          e[c] = sum;
        }
      W before = sum;
#pragma unroll
      for (int d = 1; d < ROW_THREADS; d <<= 1) {
        const W v = __shfl_up_sync (0xffffffffu, before, d, ROW_THREADS);
        if (q >= d)
          before += v;
      }
      before -= sum;
      if (mine && q > 0)
        for (int c = c0; c <= c1; c++)
          e[c] += before;
    }
  }
  __syncthreads ();

  const TileBoxes < T, F > boxes = { t, rcp, g.pitch, plane, x0 - g.mx,
    y0 - g.my
  };
  const int x = x0 + threadIdx.x;
  if (x >= a.w)
    return;
  for (int y = y0 + threadIdx.y; y < min (a.h, y0 + TH); y += S::THREADS_Y)
    satvar_px::pixel < T, C, F > (a, p, x, y, boxes);
}

/* Dynamic shared memory of a block: the grown tile's table. */
size_t
tile_smem (int bytes, int F, const TileArgs & g)
{
  return (size_t) pack_words (bytes, F) * (g.th + 2 * g.my + 1) *
      g.pitch * word_bytes (F);
}

/* Its static shared memory (the runs' totals, the reciprocals), with room
 * for their alignment. */
size_t
tile_static_smem (int bytes, int F, const TileArgs & g)
{
  const int runs = tile_threads (g.th) / COLUMN_THREADS;
  return (size_t) pack_words (bytes, F) * (runs - 1) * COLUMN_THREADS *
      word_bytes (F) + (TILE_MAX_MARGIN + 2) * sizeof (float) + 16;
}

/* Blocks of @g's tile a multiprocessor holds by their shared memory. */
CfStatus
tile_blocks (int bytes, int F, const TileArgs & g, int *blocks)
{
  return cf_smem_blocks_per_sm (tile_smem (bytes, F, g) +
      tile_static_smem (bytes, F, g), blocks);
}

/* Sets g->th: 32 rows below vertical margin TALL_FROM; from it the tile
 * of 64, 56 or (up to Tile < 32 >::MAX_MY) 32 rows that keeps the most
 * threads on a multiprocessor (its blocks by shared memory, at least two,
 * times its threads, up to what the kernels' registers allow: sm_threads),
 * the taller where they tie. H200, 4K RGBA map: radius 12 64 rows 0.148 ms
 * (56: 0.151, 32: 0.152), radius 16 56 rows 0.163 (64: 0.179, 32: 0.180),
 * radius 24 64 rows 0.181 (56: 0.189); 1080p GRAY16_LE radius 16 64 rows
 * 0.026 (56: 0.030, 32: 0.029). *blocks: the blocks of the chosen tile a
 * multiprocessor holds by shared memory. */
CfStatus
tile_height (int bytes, int F, TileArgs * g, int *blocks)
{
  static const int heights[] = { 64, 56, 32 };
  const int most = sm_threads (bytes, F);
  int best = -1;
  g->th = 32;
  if (g->my < TALL_FROM)
    return tile_blocks (bytes, F, *g, blocks);
  for (int i = 0; i < 3; i++) {
    TileArgs t = *g;
    int n;
    t.th = heights[i];
    if (g->my > (t.th == 32 ? Tile < 32 >::MAX_MY : TILE_MAX_MARGIN))
      continue;
    CfStatus st = tile_blocks (bytes, F, t, &n);
    if (st != CF_OK)
      return st;
    const int threads = n < 2 ? 0 : min (most, n * tile_threads (t.th));
    if (threads > best) {
      best = threads;
      g->th = t.th;
      *blocks = n;
    }
  }
  return CF_OK;
}

template < typename T, int C, int F, int TH > CfStatus
launch_tile (const BoxArgs & a, const CfSatVarParams & p, const TileArgs & g,
    cudaStream_t stream)
{
  const size_t smem = tile_smem (sizeof (T), F, g);
  CfStatus st = cf_allow_smem < tile_kernel < T, C, F, TH > >(smem);
  if (st != CF_OK)
    return st;
  const dim3 grid ((a.w + TILE_W - 1) / TILE_W, (a.h + TH - 1) / TH);
  tile_kernel < T, C, F, TH > <<<grid, dim3 (TILE_W, Tile < TH >::THREADS_Y),
      smem, stream>>> (a, p, g);
  return cf_launch_status ();
}

template < typename T, int C, int F > CfStatus
launch_cf (const BoxArgs & a, const CfSatVarParams & p, const TileArgs & g,
    cudaStream_t stream)
{
  switch (g.th) {
    case 64:
      return launch_tile < T, C, F, 64 > (a, p, g, stream);
    case 56:
      return launch_tile < T, C, F, 56 > (a, p, g, stream);
    default:
      return launch_tile < T, C, F, 32 > (a, p, g, stream);
  }
}

template < typename T, int C > CfStatus
launch_c (const BoxArgs & a, const CfSatVarParams & p, const TileArgs & g,
    int F, cudaStream_t stream)
{
  if constexpr (C >= 4)
    if (F == 4)
      return launch_cf < T, C, 4 > (a, p, g, stream);
  if constexpr (C >= 3)
    if (F == 3)
      return launch_cf < T, C, 3 > (a, p, g, stream);
  if constexpr (C >= 2)
    if (F == 2)
      return launch_cf < T, C, 2 > (a, p, g, stream);
  return launch_cf < T, C, 1 > (a, p, g, stream);
}

template < typename T > CfStatus
tile_pass (const CfPlane * src, const CfPlane * in, const CfPlane * out,
    const CfSatVarParams * p, const TileArgs & g, int F, cudaStream_t stream)
{
  const BoxArgs a = satvar_px::box_args < T > (src, in, out, p);
  switch (in->channels) {
    case 1:
      return launch_c < T, 1 > (a, *p, g, F, stream);
    case 2:
      return launch_c < T, 2 > (a, *p, g, F, stream);
    case 3:
      return launch_c < T, 3 > (a, *p, g, F, stream);
    default:
      return launch_c < T, 4 > (a, *p, g, F, stream);
  }
}

}                               /* namespace */

extern "C" CfStatus
cf_satvar_tile (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p, int *fits)
{
  cudaStream_t stream = (cudaStream_t) exec->stream;
  const int C = src->channels;
  const unsigned mask = p->channel_mask & CF_ALL_CHANNELS (C);
  const int F = __builtin_popcount (mask);
  TileArgs g = { };

  g.mx = (int) ceil (p->radius_x);
  g.my = (int) ceil (p->radius_y);
  g.pitch = (TILE_W + 2 * g.mx + 1) | 1;
  for (int c = 0, f = 0; c < C; c++)
    if ((mask >> c) & 1u)
      g.chan[f++] = c;
  const int bps = cf_plane_bytes_per_sample (src);
  int per_sm = 0;
  CfStatus st = tile_height (bps, F, &g, &per_sm);
  if (st != CF_OK)
    return st;
  /* one block a multiprocessor is slower than the table paths (H200, 4K
   * RGBA radius 32: 0.387 ms against 0.250), and two above margin 24
   * (1080p two 8-bit channels, radius 28 on 56-row tiles: 0.078 against
   * 0.063; radius 24 on 64-row tiles: 0.057 against 0.064); two blocks of
   * a multiprocessor are each within a block's opt-in limit */
  *fits = g.mx <= TILE_MAX_MARGIN && g.my <= TILE_MAX_MARGIN &&
      per_sm >= (max (g.mx, g.my) > TWO_BLOCKS_UP_TO ? 3 : 2);
  if (!*fits)
    return CF_OK;
  st = cf_scratch_reserve (exec->scratch, cf_satvar_tmp_bytes (src,
          p->passes));
  if (st != CF_OK)
    return st;
  return cf_satvar_passes (src, dst, exec->scratch->data, p->passes,
      [&](const CfPlane * in, const CfPlane * out) {
        return bps > 1 ? tile_pass < unsigned short > (src, in, out, p, g, F,
            stream) : tile_pass < unsigned char > (src, in, out, p, g, F,
            stream);
      });
}
