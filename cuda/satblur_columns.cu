/* cudasatblur, first stage of a pass: every column's sum over each segment
 * of SEG_ROWS rows (the input read once, in vectors, all rows of a segment
 * in flight at once), then per column the exclusive scan of those sums.
 * The band kernel starts each band's column windows from these prefixes
 * plus at most SEG_ROWS / 2 rows of input. */
#include "satblur_kernels.cuh"

#include <type_traits>

namespace satblur {
namespace {

constexpr int SUM_THREADS = 128;
/* Scan blocks: SCAN_COLS threads across, a column each, by SCAN_PARTS
 * threads down, each on a contiguous part of the segments. */
constexpr int SCAN_COLS = 32;
constexpr int SCAN_PARTS = 32;

/* Segment sums of 8-bit samples fit 16 bits. */
template < typename T > using SegSum = typename std::conditional < sizeof (T)
    == 1, unsigned short, unsigned >::type;
static_assert (SEG_ROWS * 255 < 65536, "8-bit segment sums need 16 bits");

template < typename T, int N > __global__ void
__launch_bounds__ (SUM_THREADS)
segment_sums (const ColumnArgs a)
{
  typedef SegSum < T > S;
  const int start = (blockIdx.x * blockDim.x + threadIdx.x) * N;
  /* Columns past n, up to the pitch, sum to 0. */
  if (start >= a.pitch)
    return;
  const int valid = a.n - start;
  const int y0 = blockIdx.y * SEG_ROWS, rows = min (a.height - y0, SEG_ROWS);
  unsigned s[N];
#pragma unroll
  for (int j = 0; j < N; j++)
    s[j] = 0;
  /* Whole segments of whole vectors: every load issued before the sums
   * wait on them. */
  if (a.vec && valid >= N && rows == SEG_ROWS) {
    Run < T, N > r[SEG_ROWS];
#pragma unroll
    for (int k = 0; k < SEG_ROWS; k++)
      r[k] = load_run < T, N > (cf_row < T > (a.src, a.src_stride, y0 + k) +
          start, N, true);
#pragma unroll
    for (int k = 0; k < SEG_ROWS; k++)
#pragma unroll
      for (int j = 0; j < N; j++)
        s[j] += r[k].get (j);
  } else {
#pragma unroll
    for (int k = 0; k < SEG_ROWS; k++) {
      if (k < rows) {
        const Run < T, N > r = load_run < T, N > (cf_row < T > (a.src,
                a.src_stride, y0 + k) + start, valid, a.vec);
#pragma unroll
        for (int j = 0; j < N; j++)
          s[j] += r.get (j);
      }
    }
  }
  /* N sums, packed as Run < S, N > words and stored in 16-byte vectors. */
  Run < S, N > out = { };
#pragma unroll
  for (int j = 0; j < N; j++)
    out.set (j, s[j]);
  uint4 *dst = (uint4 *) ((S *) a.seg + (size_t) blockIdx.y * a.pitch + start);
#pragma unroll
  for (int k = 0; k < Run < S, N >::WORDS; k += 4)
    dst[k / 4] = make_uint4 (out.w[k], out.w[k + 1], out.w[k + 2],
        out.w[k + 3]);
}

/* Segments a scan thread keeps in registers between its two passes (more
 * are read again from memory): all nine of a 2160-row frame (270 segments
 * over 32 parts). Keeping 16 was slower (RGBA 4K scan 16.6 us against
 * 12.4 at 9, H100). */
constexpr int SCAN_KEEP = 9;

template < typename S > __global__ void
__launch_bounds__ (SCAN_COLS * SCAN_PARTS)
segment_scan (const ColumnArgs a)
{
  __shared__ unsigned part_sums[SCAN_PARTS][SCAN_COLS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * SCAN_COLS + tx;
  const bool active = col < a.pitch;
  const int per = (a.segments + SCAN_PARTS - 1) / SCAN_PARTS;
  const int s0 = min (a.segments, ty * per), s1 = min (a.segments, s0 + per);
  const S *__restrict__ seg = (const S *) a.seg + col;
  unsigned *__restrict__ prefix = a.prefix + col;

  unsigned keep[SCAN_KEEP];
  unsigned sum = 0;
  if (active) {
#pragma unroll
    for (int k = 0; k < SCAN_KEEP; k++)
      if (s0 + k < s1) {
        keep[k] = seg[(size_t) (s0 + k) * a.pitch];
        sum += keep[k];
      }
#pragma unroll 8
    for (int s = s0 + SCAN_KEEP; s < s1; s++)
      sum += seg[(size_t) s * a.pitch];
  }
  part_sums[ty][tx] = sum;
  __syncthreads ();
  if (!active)
    return;
  unsigned run = 0;
  for (int k = 0; k < ty; k++)
    run += part_sums[k][tx];
#pragma unroll
  for (int k = 0; k < SCAN_KEEP; k++)
    if (s0 + k < s1) {
      prefix[(size_t) (s0 + k) * a.pitch] = run;
      run += keep[k];
    }
#pragma unroll 8
  for (int s = s0 + SCAN_KEEP; s < s1; s++) {
    const unsigned v = seg[(size_t) s * a.pitch];
    prefix[(size_t) s * a.pitch] = run;
    run += v;
  }
  /* The last part ends with the whole column. */
  if (ty == SCAN_PARTS - 1)
    prefix[(size_t) a.segments * a.pitch] = run;
}

template < typename T > CfStatus
launch (const ColumnArgs & a, cudaStream_t stream)
{
  const int per_block = SUM_THREADS * COLUMN_RUN;
  dim3 grid ((a.pitch + per_block - 1) / per_block, a.segments);
  segment_sums < T, COLUMN_RUN > <<<grid, SUM_THREADS, 0, stream>>> (a);
  dim3 scan_grid ((a.pitch + SCAN_COLS - 1) / SCAN_COLS);
  segment_scan < SegSum < T > ><<<scan_grid, dim3 (SCAN_COLS, SCAN_PARTS), 0,
      stream>>> (a);
  return cf_launch_status ();
}

}                               /* namespace */

CfStatus
launch_columns (const ColumnArgs & a, int depth, cudaStream_t stream)
{
  if (depth > 8)
    return launch < unsigned short > (a, stream);
  return launch < unsigned char > (a, stream);
}

}                               /* namespace satblur */
