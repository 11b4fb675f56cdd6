/* Bilateral filter kernels. The exact filter runs one tiled kernel over
 * any window shape (the ellipse, or a 1-D window where one radius is 0);
 * the separable approximation runs a second kernel that does the
 * horizontal then the vertical 1-D pass in one go, through shared memory,
 * or, where that kernel's tiles do not fit the device's shared memory, two
 * launches of the first with 1-D windows through a scratch plane. For one
 * filtered channel and radii up to 8, a third kernel does the separable
 * passes by symmetric pairs (each weight serves both its ends:
 * bilateral_pairs.cu). What the kernels share is in bilateral_kernels.cuh.
 * With a guide plane (joint bilateral) the filter is bilateral_guided.cu's.
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
#include "bilateral_kernels.cuh"
#include "bilateral_tuning.h"
#include "bilateral_guided.h"

using namespace bilateral;

namespace {

/* K pixels of one column, BLOCK_Y rows apart in a tile of pitch PITCH:
 * their centre values and the running sums over a list of taps (byte
 * offset in the tile, log2 of ws). */
template < typename T, int F, bool JOINT, int PITCH, int K > struct Column {
  typedef Pixel < T, F > P;
  typedef typename P::S S;
  float cen[K][F], acc[K][F], wsum[K][JOINT ? 1 : F];

  /* Pixel k's centre value s; the centre weighs 1. */
  __device__ __forceinline__ void start_one (int k, S s)
  {
#pragma unroll
    for (int j = 0; j < F; j++) {
      cen[k][j] = P::get (s, j);
      acc[k][j] = 0.0f;
      wsum[k][JOINT ? 0 : j] = 1.0f;
    }
  }

  /* The centres' values. */
  __device__ __forceinline__ void start (const S * centre)
  {
#pragma unroll
    for (int k = 0; k < K; k++)
      start_one (k, centre[k * BLOCK_Y * PITCH]);
  }

  /* Adds to pixel k the tap of sample s and log2 ws lws. */
  __device__ __forceinline__ void tap (int k, S s, float lws, const Args & a)
  {
    if (JOINT) {
      float d[F], dd = 0.0f;
#pragma unroll
      for (int j = 0; j < F; j++) {
        d[j] = P::get (s, j) - cen[k][j];
        dd = fmaf (d[j], d[j], dd);
      }
      const float w = fast_exp2 (fmaf (dd, a.nk, lws));
#pragma unroll
      for (int j = 0; j < F; j++)
        acc[k][j] = fmaf (w, d[j], acc[k][j]);
      wsum[k][0] += w;
    } else {
#pragma unroll
      for (int j = 0; j < F; j++) {
        const float d = P::get (s, j) - cen[k][j];
        const float w = fast_exp2 (P::exponent (d, lws, a));
        acc[k][j] = fmaf (w, d, acc[k][j]);
        wsum[k][j] += w;
      }
    }
  }

  /* Adds ntaps taps of the list. */
  __device__ __forceinline__ void add (const S * centre,
      const float2 * taps, int ntaps, const Args & a)
  {
#pragma unroll 2
    for (int t = 0; t < ntaps; t++) {
      const float2 tp = taps[t];
      const S *q = (const S *) ((const char *) centre +
          __float_as_int (tp.x));
#pragma unroll
      for (int k = 0; k < K; k++)
        tap (k, q[k * BLOCK_Y * PITCH], tp.y, a);
    }
  }

  /* The same for K pixels anywhere in the tile, each from its own centre
   * (the gated kernel's listed pixels), U taps in flight. */
  template < int U > __device__ __forceinline__ void add_scattered (const S *
      const *centre, const float2 * taps, int ntaps, const Args & a)
  {
#pragma unroll (U)
    for (int t = 0; t < ntaps; t++) {
      const float2 tp = taps[t];
      const int off = __float_as_int (tp.x);
#pragma unroll
      for (int k = 0; k < K; k++)
        tap (k, *(const S *) ((const char *) centre[k] + off), tp.y, a);
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
      put (k, in, out, a);
      in = (const T *) ((const char *) in + BLOCK_Y * src_stride);
      out = (T *) ((char *) out + BLOCK_Y * dst_stride);
    }
  }

  /* Writes pixel k to out; the channels not filtered come from in. */
  __device__ __forceinline__ void put (int k, const T * in, T * out,
      const Args & a) const
  {
    if (a.copy_others)
      for (int c = 0; c < a.channels; c++)
        if (!((a.mask >> c) & 1u))
          out[c] = in[c];
#pragma unroll
    for (int j = 0; j < F; j++)
      out[a.chan[j]] = result (k, j, a);
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

  if (cf_gate_block_closed < T > (a.gate, x0, y0, x0 + TILE_W, y0 + TILE_H,
          width, height))
    return;
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

/* Pixel (x, y) of src into dst, every channel (a gated-out pixel). */
template < typename T > __device__ __forceinline__ void
copy_pixel (const void *src, size_t src_stride, void *dst, size_t dst_stride,
    int x, int y, int channels)
{
  const T *in = cf_row < T > (src, src_stride, y) + (size_t) x * channels;
  T *out = cf_row < T > (dst, dst_stride, y) + (size_t) x * channels;
  for (int c = 0; c < channels; c++)
    out[c] = in[c];
}

/* K listed pixels of the gated kernel, entries i, i + THREADS, ... of the
 * block's list (tile row * TILE_W + column), filtered over the whole tap
 * list and stored. */
template < typename T, int F, bool JOINT, int PITCH, int K, int U >
    __device__ __forceinline__ void
filter_listed (const unsigned short *list, int i, const typename Pixel < T,
    F >::S * origin, const float2 * taps, const void *src, size_t src_stride,
    void *dst, size_t dst_stride, int x0, int y0, const Args & a)
{
  typedef typename Pixel < T, F >::S S;
  Column < T, F, JOINT, PITCH, K > col;
  const S *centre[K];
  int px[K], py[K];
#pragma unroll
  for (int k = 0; k < K; k++) {
    const int e = list[i + k * THREADS];
    px[k] = e % TILE_W;
    py[k] = e / TILE_W;
    centre[k] = origin + py[k] * PITCH + px[k];
    col.start_one (k, *centre[k]);
  }
  col.template add_scattered < U > (centre, taps, a.ntaps, a);
#pragma unroll
  for (int k = 0; k < K; k++) {
    const int x = x0 + px[k], y = y0 + py[k];
    col.put (k, cf_row < T > (src, src_stride, y) + (size_t) x * a.channels,
        cf_row < T > (dst, dst_stride, y) + (size_t) x * a.channels, a);
  }
}

/* The exact filter with the value gate applied in the same launch, work
 * in proportion to the pixels in range. Each thread tests the gate at its
 * PIX output pixels (one column, BLOCK_Y rows apart, as bilateral_tile's)
 * and copies the gated-out ones from src; the block lists the others in
 * shared memory (a ballot per row of a warp, one atomic per warp), loads
 * its tile as bilateral_tile does, and then its threads share out the
 * list, each entry i to thread i % THREADS, two pixels at a time where a
 * thread has two left (the tap list read once for both).
 * A pixel's arithmetic is bilateral_tile's, tap for tap: the output equals
 * the ungated kernel's followed by the gate pass. A block with no pixel in
 * range loads nothing; a flat tile's pixels are copied. Needs the whole
 * tap list in shared memory (tap_room == ntaps) and a.gate set. */
template < typename T, int F, bool JOINT, int PITCH, int PIX, int U1,
    int U2 > __global__ void
__launch_bounds__ (THREADS, 4)
bilateral_tile_gated (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const Args a)
{
  typedef typename Pixel < T, F >::S S;
  constexpr int TILE_H = BLOCK_Y * PIX;
  extern __shared__ float2 smem[];
  float2 *taps = smem;
  S *tile = (S *) (smem + taps_slots (a.ntaps));
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * TILE_H;
  const TileShape ts (a, x0, TILE_H, a.rx);
  int *listed = (int *) (tile + PITCH * ts.rows);
  unsigned short *list = (unsigned short *) (listed + 1);
  const int tid = threadIdx.y * BLOCK_X + threadIdx.x;
  const int x = x0 + threadIdx.x;

  if (tid == 0)
    *listed = 0;
  unsigned open = 0;
  if (a.gate.channels == 1 && a.channels == 1 && a.gate.xs == 0
      && a.gate.ys == 0) {
    /* one sample a pixel and its own gate pixel (gray, a luma plane): all
     * the loads in flight at once, then the tests and the copies */
    T g[PIX], v[PIX];
#pragma unroll
    for (int k = 0; k < PIX; k++) {
      const int y = y0 + threadIdx.y + k * BLOCK_Y;
      if (x < width && y < height) {
        g[k] = cf_row < T > (a.gate.data, a.gate.stride, y)[x];
        v[k] = cf_row < T > (src, src_stride, y)[x];
      }
    }
#pragma unroll
    for (int k = 0; k < PIX; k++) {
      const int y = y0 + threadIdx.y + k * BLOCK_Y;
      if (x < width && y < height) {
        if (g[k] >= a.gate.lo && g[k] <= a.gate.hi)
          open |= 1u << k;
        else
          cf_row < T > (dst, dst_stride, y)[x] = v[k];
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < PIX; k++) {
      const int y = y0 + threadIdx.y + k * BLOCK_Y;
      if (x < width && y < height) {
        if (cf_gate_open_at < T > (a.gate, x, y))
          open |= 1u << k;
        else
          copy_pixel < T > (src, src_stride, dst, dst_stride, x, y,
              a.channels);
      }
    }
  }
  __syncthreads ();
  /* A warp is a row of the block: its rows k in list order. */
  unsigned row_bits[PIX];
  int total = 0, base = 0;
#pragma unroll
  for (int k = 0; k < PIX; k++) {
    row_bits[k] = __ballot_sync (0xFFFFFFFFu, (open >> k) & 1u);
    total += __popc (row_bits[k]);
  }
  if (threadIdx.x == 0 && total > 0)
    base = atomicAdd (listed, total);
  base = __shfl_sync (0xFFFFFFFFu, base, 0);
  const unsigned below = (1u << threadIdx.x) - 1u;
#pragma unroll
  for (int k = 0; k < PIX; k++) {
    if ((open >> k) & 1u)
      list[base + __popc (row_bits[k] & below)] =
          (threadIdx.y + k * BLOCK_Y) * TILE_W + threadIdx.x;
    base += __popc (row_bits[k]);
  }
  __syncthreads ();
  const int n = *listed;
  if (n == 0)
    return;

  list_taps < S, PITCH > (taps, 0, a);
  const S first = first_pixel < T, F > (src, src_stride, width, height, x0,
      y0, a);
  const bool same = load_tile < T, F, PITCH > (src, src_stride, width, height,
      y0, ts, a, tile, first);
  if (__syncthreads_and (same)) {
    /* every d is 0: the filter gives the input */
#pragma unroll
    for (int k = 0; k < PIX; k++)
      if ((open >> k) & 1u)
        copy_pixel < T > (src, src_stride, dst, dst_stride, x,
            y0 + threadIdx.y + k * BLOCK_Y, a.channels);
    return;
  }

  const S *origin = tile + a.ry * PITCH + ts.ox;
  int i = tid;
  for (; i + THREADS < n; i += 2 * THREADS)
    filter_listed < T, F, JOINT, PITCH, 2, U2 > (list, i, origin, taps, src,
        src_stride, dst, dst_stride, x0, y0, a);
  if (i < n)
    filter_listed < T, F, JOINT, PITCH, 1, U1 > (list, i, origin, taps, src,
        src_stride, dst, dst_stride, x0, y0, a);
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

CfBilateralTuning tuning;

/* The dynamic shared memory a block may have on the current device: its
 * opt-in limit, under the tuning cap. */
CfStatus
shared_limit (size_t * limit)
{
  size_t bytes;
  CfStatus st = cf_smem_optin (&bytes);
  if (st != CF_OK)
    return st;
  *limit = tuning.shared_limit > 0 && tuning.shared_limit < bytes ?
      tuning.shared_limit : bytes;
  return CF_OK;
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

/* The gated exact filter (bilateral_tile_gated), on the lower tile (half
 * bilateral_tile's taller one: at 1080p GRAY16 r 8 with 12% in range,
 * 0.055 ms against 0.060 with the taller and up to four pixels a thread,
 * 0.063 with up to two; twice the blocks share out the pixels in range),
 * where it fits the device with the whole tap list and the block's pixel
 * list; *done false where not (the caller then runs bilateral_tile and the
 * gate pass). */
template < typename T, int F, bool JOINT, int PITCH > CfStatus
launch_tile_gated (const CfPlane * src, const CfPlane * dst, Args a,
    const Target & t, bool * done)
{
  typedef typename Pixel < T, F >::S S;
  constexpr int PIX = pix_max < F > () / 2;
  const size_t smem = sizeof (float2) * taps_slots (a.ntaps) +
      sizeof (S) * PITCH * (BLOCK_Y * PIX + 2 * a.ry) + sizeof (int) +
      sizeof (unsigned short) * TILE_W * BLOCK_Y * PIX;

  a.tap_room = a.ntaps;
  *done = smem <= t.limit;
  if (!*done)
    return CF_OK;
  /* One filtered channel: 16 taps of a lone pixel, 8 of a pair in flight
   * (the list walks are latency bound: at 1080p GRAY16 r 8, 30% in range,
   * 0.098 ms with 2 and 2, 0.094 with 4 and 2, 0.089 with 8 and 4, 0.087
   * with 16 and 8, no better with 32). More channels: 2 and 2, as measured
   * before (not tuned). */
  constexpr int U1 = F == 1 ? 16 : 2, U2 = F == 1 ? 8 : 2;
  return run < bilateral_tile_gated < T, F, JOINT, PITCH, PIX, U1, U2 > >
      (src, dst, a, BLOCK_Y * PIX, smem, t);
}

template < typename T, int F, bool JOINT > CfStatus
launch_exact_gated (const CfPlane * src, const CfPlane * dst, const Args & a,
    const Target & t, bool * done)
{
  return a.rx == 0 ?
      launch_tile_gated < T, F, JOINT, NARROW_PITCH > (src, dst, a, t, done) :
      launch_tile_gated < T, F, JOINT, WIDE_PITCH > (src, dst, a, t, done);
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
  bool *gate_applied;           /* set where the kernel applied p->gate */
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
  if (!separable) {
    a.gate = cf_gate_tile (p->gate);
    if (p->gate) {
      CfStatus st = launch_exact_gated < T, F, JOINT > (c.src, c.dst, a, c.t,
          c.gate_applied);
      if (st != CF_OK || *c.gate_applied)
        return st;
    }
    return launch_exact < T, F, JOINT > (c.src, c.dst, a, c.t);
  }
  if (F == 1 && !tuning.two_pass_separable && !tuning.general_separable
      && pairs_fit (a, c.t.limit))
    return launch_pairs < T > (c.src, c.dst, a, c.t);
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
  CfStatus st = CF_OK;

  if (p->gate) {
    st = cf_gate_check (src, dst, p->gate);
    if (st != CF_OK)
      return st;
  }
  if (!exec->on_gpu) {
    st = cf_bilateral_ref (src, dst, p);
    if (st == CF_OK && p->gate)
      st = cf_gate_select_ref (src, dst, p->gate);
    return st;
  }

  st = cf_bilateral_check (src, dst, p);
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
  cf_bilateral_weights (p, cf_plane_max (p->guide.data ? &p->guide : src),
      &w);
  bool gate_applied = false;
  if (p->guide.data) {
    /* with a guide: the plain kernel of bilateral_guided.cu */
    st = cf_bilateral_guided (src, dst, p, &w, exec->scratch, exec->stream);
  } else {
    /* A 1-D window is the same filter either way. */
    bool separable = p->mode == CF_BILATERAL_SEPARABLE && p->radius_x > 0
        && p->radius_y > 0;
    Call c = { src, dst, p, &w, exec->scratch, {stream, 0}, &gate_applied };
    st = shared_limit (&c.t.limit);
    if (st != CF_OK)
      return st;
    int filtered = __builtin_popcount (p->channel_mask &
        CF_ALL_CHANNELS (src->channels));
    st = src->depth > 8 ?
        filter_depth < unsigned short > (c, filtered, separable) :
        filter_depth < unsigned char > (c, filtered, separable);
  }
  /* the paths that do not gate in the kernel: the gate pass */
  if (st == CF_OK && p->gate && !gate_applied)
    st = cf_gate_select (exec, src, dst, p->gate);
  return st;
}

extern "C" void
cf_bilateral_set_tuning (const CfBilateralTuning * t)
{
  tuning = *t;
}
