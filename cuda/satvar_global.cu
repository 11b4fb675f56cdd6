/* The variable box blur's global-table path (satvar_paths.h), kept where
 * the fused one cannot run (a grown row's column prefixes larger than a
 * block's shared memory, or 64-bit tables of planes over 65536 rows, whose
 * 32-bit column prefixes would wrap), per pass and filtered channel:
 *  1. a block per row of the plane grown by the largest radii (rows and
 *     columns border-mapped): its prefix sums, a chunk per thread;
 *  2. the prefixes down the columns, in segments of SEG rows so that every
 *     column has many threads: each segment's sums, their scan per column,
 *     then each segment's prefixes from its start;
 *  3. a thread per pixel and its (up to four) boxes, as on the fused path
 *     (satvar_fused.cu).
 * Passes alternate between dst and a scratch plane. */
#include "satvar.h"
#include "satvar_paths.h"
#include "satvar_shape.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int ROW_THREADS = 256;
constexpr int SEG = 32;         /* rows per segment of the column scan */
constexpr int COL_THREADS = 128;

/* The summed-area table: (rows + 1) rows of pw entries of S, row 0 zero. */
template < typename S > struct Table {
  S *t;
  S *seg;                       /* per segment and column: its sum */
  size_t pw;                    /* w + 2 mx + 1 */
  int mx, my;
  int rows;                     /* h + 2 my */
};

/* Row r + 1 of the table: prefix sums of row r - my of in (border-mapped),
 * extended by mx samples on each side; ROW_THREADS samples at a time, each
 * thread loading and storing one (coalesced), scanned in the block by warp
 * shuffles. */
template < typename T, typename S > __global__ void
__launch_bounds__ (ROW_THREADS)
row_prefix (const void *in, size_t stride, int w, int h, int channels, int c,
    CfBorder border, Table < S > tab)
{
  constexpr int WARPS = ROW_THREADS / 32;
  __shared__ S warp_sums[WARPS];
  const int r = blockIdx.x;
  const T *row = cf_row < T > (in, stride, cf_border_index (r - tab.my, h,
          border));
  const int n = w + 2 * tab.mx;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  S *out = tab.t + (size_t) (r + 1) * tab.pw;
  S carry = 0;

  if (threadIdx.x == 0)
    out[0] = 0;
  for (int i0 = 0; i0 < n; i0 += ROW_THREADS) {
    const int i = i0 + threadIdx.x;
    S v = i < n ? (S) row[(size_t) cf_border_index (i - tab.mx, w, border) *
        channels + c] : 0;
    for (int d = 1; d < 32; d *= 2) {
      S u = __shfl_up_sync (0xffffffffu, v, d);
      if (lane >= d)
        v += u;
    }
    if (lane == 31)
      warp_sums[warp] = v;
    __syncthreads ();
    S before = carry, total = 0;
    for (int k = 0; k < WARPS; k++) {
      S ws = warp_sums[k];
      if (k < warp)
        before += ws;
      total += ws;
    }
    if (i < n)
      out[i + 1] = before + v;
    carry += total;
    __syncthreads ();
  }
}

/* Segment blockIdx.y's sum of each column (table rows 1 + SEG y ...). */
template < typename S > __global__ void
column_segments (Table < S > tab)
{
  const size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= tab.pw)
    return;
  const int r0 = 1 + blockIdx.y * SEG, r1 = min (r0 + SEG, tab.rows + 1);
  S s = 0;
  for (int r = r0; r < r1; r++)
    s += tab.t[(size_t) r * tab.pw + k];
  tab.seg[(size_t) blockIdx.y * tab.pw + k] = s;
}

/* Each column's segment sums turned into the sums before each segment. */
template < typename S > __global__ void
column_scan (Table < S > tab, int segments)
{
  const size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= tab.pw)
    return;
  S run = 0;
  for (int g = 0; g < segments; g++) {
    S *p = tab.seg + (size_t) g * tab.pw + k;
    S v = *p;
    *p = run;
    run += v;
  }
}

/* Segment blockIdx.y's column prefixes, from the sum before it. */
template < typename S > __global__ void
column_prefix (Table < S > tab)
{
  const size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= tab.pw)
    return;
  const int r0 = 1 + blockIdx.y * SEG, r1 = min (r0 + SEG, tab.rows + 1);
  S s = tab.seg[(size_t) blockIdx.y * tab.pw + k];
  if (blockIdx.y == 0)
    tab.t[k] = 0;
  for (int r = r0; r < r1; r++) {
    S *p = tab.t + (size_t) r * tab.pw + k;
    s += *p;
    *p = s;
  }
}

/* The box (2 bx + 1) x (2 by + 1) around (x, y); exact in S's wrap-around
 * arithmetic where every box sum fits S. */
template < typename S > __device__ __forceinline__ uint64_t
box (const Table < S > &tab, int x, int y, int bx, int by)
{
  const S *top = tab.t + (size_t) (y - by + tab.my) * tab.pw;
  const S *bot = tab.t + (size_t) (y + by + tab.my + 1) * tab.pw;
  const int x0 = x - bx + tab.mx, x1 = x + bx + tab.mx + 1;
  return (S) (bot[x1] - bot[x0] - top[x1] + top[x0]);
}

template < typename T, typename S > __global__ void
boxes (const void *src, size_t src_stride, void *out, size_t out_stride,
    int w, int h, int channels, int c, unsigned max, CfSatVarParams p,
    Table < S > tab)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const float s = p.source == CF_SATVAR_ALPHA ?
      cf_satvar_scaled (cf_row < T > (src, src_stride, y)[(size_t) x *
          channels + p.alpha_channel], max) : p.source == CF_SATVAR_MAP ?
      cf_satvar_map_strength (&p, x, y) : cf_satvar_shape_strength (&p, x, y);
  const CfSatVarRadii r = cf_satvar_radii (s, &p);
  const int ax = r.ax, ay = r.ay;
  const float fx = r.fx, fy = r.fy;
  uint64_t sum[2][2] = { {0, 0}, {0, 0} };
  unsigned v;

  sum[0][0] = box (tab, x, y, ax, ay);
  if (fx == 0.0f && fy == 0.0f) {
    v = cf_satvar_box_mean (sum[0][0], ax, ay);
  } else {
    if (fx != 0.0f)
      sum[0][1] = box (tab, x, y, ax + 1, ay);
    if (fy != 0.0f)
      sum[1][0] = box (tab, x, y, ax, ay + 1);
    if (fx != 0.0f && fy != 0.0f)
      sum[1][1] = box (tab, x, y, ax + 1, ay + 1);
    const float fsum[2][2] = { {(float) sum[0][0], (float) sum[0][1]},
    {(float) sum[1][0], (float) sum[1][1]}
    };
    float k[2][2];
    cf_satvar_weights (ax, ay, fx, fy, k);
    v = cf_satvar_blend (fsum, k, max);
  }
  cf_row < T > (out, out_stride, y)[(size_t) x * channels + c] = (T) v;
}

template < typename T, typename S > CfStatus
run_pass (const CfPlane * src, const CfPlane * in, const CfPlane * out,
    const CfSatVarParams * p, const Table < S > &tab, cudaStream_t stream)
{
  const int w = in->width, h = in->height;
  const int segments = (tab.rows + SEG - 1) / SEG;
  const unsigned col_blocks = (unsigned) ((tab.pw + COL_THREADS - 1) /
      COL_THREADS);
  const dim3 block (32, 8), grid ((w + 31) / 32, (h + 7) / 8);
  for (int c = 0; c < in->channels; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    row_prefix < T, S > <<<tab.rows, ROW_THREADS, 0, stream>>> (in->data,
        in->stride, w, h, in->channels, c, p->border, tab);
    column_segments < S > <<<dim3 (col_blocks, segments), COL_THREADS, 0,
        stream>>> (tab);
    column_scan < S > <<<col_blocks, COL_THREADS, 0, stream>>> (tab,
        segments);
    column_prefix < S > <<<dim3 (col_blocks, segments), COL_THREADS, 0,
        stream>>> (tab);
    boxes < T, S > <<<grid, block, 0, stream>>> (src->data, src->stride,
        out->data, out->stride, w, h, in->channels, c, cf_plane_max (in),
        *p, tab);
  }
  return cf_launch_status ();
}

/* Every pass with a table of S in @scratch. */
template < typename S > CfStatus
run (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * p)
{
  cudaStream_t stream = (cudaStream_t) exec->stream;
  const size_t row = (size_t) src->width * src->channels *
      cf_plane_bytes_per_sample (src);
  Table < S > tab;
  tab.mx = (int) ceil (p->radius_x);
  tab.my = (int) ceil (p->radius_y);
  tab.pw = (size_t) src->width + 2 * tab.mx + 1;
  tab.rows = src->height + 2 * tab.my;
  const int segments = (tab.rows + SEG - 1) / SEG;
  const size_t table = ((tab.pw * (tab.rows + 1) * sizeof (S)) + 255) &
      ~(size_t) 255;
  const size_t seg = ((tab.pw * segments * sizeof (S)) + 255) & ~(size_t) 255;
  CfStatus st = cf_scratch_reserve (exec->scratch, table + seg +
      cf_satvar_tmp_bytes (src, p->passes));
  if (st != CF_OK)
    return st;
  tab.t = (S *) exec->scratch->data;
  tab.seg = (S *) ((unsigned char *) exec->scratch->data + table);

  /* the channels no pass writes (measured: all channels in one launch
   * each, a table per channel, was slower: 0.77 against 0.68 ms at 4K
   * RGBA, 0.089 against 0.072 ms at 1080p GRAY16) */
  if ((p->channel_mask & CF_ALL_CHANNELS (src->channels)) !=
      CF_ALL_CHANNELS (src->channels))
    st = cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
        row, src->height, stream);
  if (st != CF_OK)
    return st;
  return cf_satvar_passes (src, dst, (unsigned char *) exec->scratch->data +
      table + seg, p->passes, [&](const CfPlane * in, const CfPlane * out) {
        return src->depth > 8 ?
            run_pass < unsigned short, S > (src, in, out, p, tab, stream) :
            run_pass < unsigned char, S > (src, in, out, p, tab, stream);
      });
}

}                               /* namespace */

extern "C" CfStatus
cf_satvar_global (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfSatVarParams * p, int wide)
{
  return wide ? run < uint64_t > (exec, src, dst, p) :
      run < uint32_t > (exec, src, dst, p);
}
