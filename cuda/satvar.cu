/* The variable box blur on the GPU (satvar.h). Per pass and filtered
 * channel, three launches on the caller's stream:
 *  1. a block per row of the plane grown by the largest radii (rows and
 *     columns border-mapped): its prefix sums, a chunk per thread;
 *  2. a thread per column: the prefixes down the columns, which makes the
 *     summed-area table (64-bit, so any box of 16-bit samples is exact);
 *  3. a thread per pixel: its strength, its radii, and each of its (up to
 *     four) boxes from four fetches of the table - the same cost for every
 *     radius.
 * Passes alternate between dst and a scratch plane. */
#include "satvar.h"
#include "satvar_shape.h"
#include "cf_kernel.cuh"
#include "cf_runtime.h"

namespace {

constexpr int ROW_THREADS = 256;

struct Table {
  uint64_t *t;                  /* (h + 2 my + 1) rows of pw entries */
  size_t pw;                    /* w + 2 mx + 1 */
  int mx, my;
};

/* Row r + 1 of the table: prefix sums of row r - my of in (border-mapped),
 * extended by mx samples on each side. */
template < typename T > __global__ void
__launch_bounds__ (ROW_THREADS)
row_prefix (const void *in, size_t stride, int w, int h, int channels, int c,
    CfBorder border, Table tab)
{
  __shared__ uint64_t totals[ROW_THREADS];
  const int r = blockIdx.x;
  const T *row = cf_row < T > (in, stride, cf_border_index (r - tab.my, h,
          border));
  const int n = w + 2 * tab.mx;
  const int chunk = (n + ROW_THREADS - 1) / ROW_THREADS;
  const int i0 = threadIdx.x * chunk, i1 = min (i0 + chunk, n);
  uint64_t *out = tab.t + (size_t) (r + 1) * tab.pw;
  uint64_t s = 0;

  for (int i = i0; i < i1; i++)
    s += row[(size_t) cf_border_index (i - tab.mx, w, border) * channels + c];
  totals[threadIdx.x] = s;
  __syncthreads ();
  if (threadIdx.x == 0) {
    uint64_t run = 0;
    for (int k = 0; k < ROW_THREADS; k++) {
      uint64_t v = totals[k];
      totals[k] = run;
      run += v;
    }
  }
  __syncthreads ();
  s = totals[threadIdx.x];
  if (threadIdx.x == 0)
    out[0] = 0;
  for (int i = i0; i < i1; i++) {
    s += row[(size_t) cf_border_index (i - tab.mx, w, border) * channels + c];
    out[i + 1] = s;
  }
}

/* The table's columns summed down its rows (row 0 is zero). */
__global__ void
column_prefix (Table tab, int rows)
{
  const size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= tab.pw)
    return;
  uint64_t s = 0;
  tab.t[k] = 0;
  for (int r = 1; r <= rows; r++) {
    uint64_t *p = tab.t + (size_t) r * tab.pw + k;
    s += *p;
    *p = s;
  }
}

/* The box (2 bx + 1) x (2 by + 1) around (x, y). */
__device__ __forceinline__ uint64_t
box (const Table & tab, int x, int y, int bx, int by)
{
  const uint64_t *top = tab.t + (size_t) (y - by + tab.my) * tab.pw;
  const uint64_t *bot = tab.t + (size_t) (y + by + tab.my + 1) * tab.pw;
  const int x0 = x - bx + tab.mx, x1 = x + bx + tab.mx + 1;
  return bot[x1] - bot[x0] - top[x1] + top[x0];
}

template < typename T > __global__ void
boxes (const void *src, size_t src_stride, void *out, size_t out_stride,
    int w, int h, int channels, int c, unsigned max, CfSatVarParams p,
    Table tab)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const double s = p.source == CF_SATVAR_ALPHA ?
      (double) cf_row < T > (src, src_stride, y)[(size_t) x * channels +
      p.alpha_channel] / (double) max : cf_satvar_shape_strength (&p, x, y);
  const double rx = CF_DMUL (s, p.radius_x), ry = CF_DMUL (s, p.radius_y);
  const int ax = (int) floor (rx), ay = (int) floor (ry);
  const double fx = CF_DADD (rx, -(double) ax);
  const double fy = CF_DADD (ry, -(double) ay);
  uint64_t sum[2][2] = { {0, 0}, {0, 0} };
  unsigned v;

  sum[0][0] = box (tab, x, y, ax, ay);
  if (fx == 0.0 && fy == 0.0) {
    v = cf_satvar_box_mean (sum[0][0], ax, ay);
  } else {
    if (fx != 0.0)
      sum[0][1] = box (tab, x, y, ax + 1, ay);
    if (fy != 0.0)
      sum[1][0] = box (tab, x, y, ax, ay + 1);
    if (fx != 0.0 && fy != 0.0)
      sum[1][1] = box (tab, x, y, ax + 1, ay + 1);
    v = cf_satvar_blend (sum, ax, ay, fx, fy, max);
  }
  cf_row < T > (out, out_stride, y)[(size_t) x * channels + c] = (T) v;
}

template < typename T > CfStatus
run_pass (const CfPlane * src, const CfPlane * in, const CfPlane * out,
    const CfSatVarParams * p, const Table & tab, cudaStream_t stream)
{
  const int w = in->width, h = in->height;
  const int rows = h + 2 * tab.my;
  const dim3 block (32, 8), grid ((w + 31) / 32, (h + 7) / 8);
  for (int c = 0; c < in->channels; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    row_prefix < T > <<<rows, ROW_THREADS, 0, stream>>> (in->data,
        in->stride, w, h, in->channels, c, p->border, tab);
    column_prefix <<<(unsigned) ((tab.pw + 127) / 128), 128, 0, stream>>>
        (tab, rows);
    boxes < T > <<<grid, block, 0, stream>>> (src->data, src->stride,
        out->data, out->stride, w, h, in->channels, c, cf_plane_max (in), *p,
        tab);
  }
  return cf_launch_status ();
}

}                               /* namespace */

extern "C" CfStatus
cf_satvar (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const CfSatVarParams * p)
{
  if (!exec->on_gpu)
    return cf_satvar_ref (src, dst, p);
  CfStatus st = cf_satvar_check (src, dst, p);
  if (st != CF_OK)
    return st;
  if (!exec->stream || !exec->scratch)
    return CF_ERROR_INVALID;

  cudaStream_t stream = (cudaStream_t) exec->stream;
  const size_t row = (size_t) src->width * src->channels *
      cf_plane_bytes_per_sample (src);
  Table tab;
  tab.mx = (int) ceil (p->radius_x);
  tab.my = (int) ceil (p->radius_y);
  tab.pw = (size_t) src->width + 2 * tab.mx + 1;
  const size_t table = tab.pw * (src->height + 2 * tab.my + 1) *
      sizeof (uint64_t);
  const size_t tmp_stride = (row + 255) & ~(size_t) 255;
  st = cf_scratch_reserve (exec->scratch, table +
      (p->passes > 1 ? tmp_stride * src->height : 0));
  if (st != CF_OK)
    return st;
  tab.t = (uint64_t *) exec->scratch->data;
  CfPlane tmp = *src;
  tmp.data = (unsigned char *) exec->scratch->data + table;
  tmp.stride = tmp_stride;

  /* the channels no pass writes */
  st = cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride, row,
      src->height, stream);
  const CfPlane *in = src;
  for (int i = 0; i < p->passes && st == CF_OK; i++) {
    const CfPlane *out = (p->passes - 1 - i) % 2 == 0 ? dst : &tmp;
    st = src->depth > 8 ?
        run_pass < unsigned short > (src, in, out, p, tab, stream) :
        run_pass < unsigned char > (src, in, out, p, tab, stream);
    in = out;
  }
  return st;
}
