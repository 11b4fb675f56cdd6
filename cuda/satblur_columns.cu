/* cudasatblur, first stage of a pass: every column's sum over each segment
 * of seg_rows rows (the input read once, in vectors), then per column the
 * exclusive scan of those sums. The band kernel starts each band's column
 * windows from these prefixes plus at most seg_rows / 2 rows of input. */
#include "satblur_kernels.cuh"

namespace satblur {
namespace {

constexpr int SUM_THREADS = 128;
/* Scan blocks: SCAN_COLS threads across, each on 4 columns, by SCAN_PARTS
 * threads down, each on a contiguous part of the segments. */
constexpr int SCAN_COLS = 32;
constexpr int SCAN_PARTS = 32;

template < typename T, int N > __global__ void
__launch_bounds__ (SUM_THREADS)
segment_sums (const ColumnArgs a)
{
  const int start = (blockIdx.x * blockDim.x + threadIdx.x) * N;
  if (start >= a.n)
    return;
  const int valid = a.n - start;
  const int y0 = blockIdx.y * a.seg_rows, y1 = min (a.height, y0 + a.seg_rows);
  unsigned s[N];
#pragma unroll
  for (int j = 0; j < N; j++)
    s[j] = 0;
#pragma unroll 4
  for (int y = y0; y < y1; y++) {
    const Run < T, N > r = load_run < T, N > (cf_row < T > (a.src,
            a.src_stride, y) + start, valid, a.vec);
#pragma unroll
    for (int j = 0; j < N; j++)
      s[j] += r.get (j);
  }
  /* The pitch holds whole runs, so the last one is stored whole too. */
  uint4 *out = (uint4 *) (a.seg + (size_t) blockIdx.y * a.pitch + start);
#pragma unroll
  for (int j = 0; j < N; j += 4)
    out[j / 4] = make_uint4 (s[j], s[j + 1], s[j + 2], s[j + 3]);
}

__device__ __forceinline__ void
add4 (uint4 & a, const uint4 b)
{
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  a.w += b.w;
}

__global__ void
__launch_bounds__ (SCAN_COLS * SCAN_PARTS)
segment_scan (const ColumnArgs a)
{
  __shared__ uint4 part_sums[SCAN_PARTS][SCAN_COLS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col4 = blockIdx.x * SCAN_COLS + tx, pitch4 = a.pitch / 4;
  /* Whole runs, as the band kernel reads them. */
  const bool active = col4 * 4 < a.run_n;
  const int per = (a.segments + SCAN_PARTS - 1) / SCAN_PARTS;
  const int s0 = min (a.segments, ty * per), s1 = min (a.segments, s0 + per);
  const uint4 *seg = (const uint4 *) a.seg + col4;
  uint4 *prefix = (uint4 *) a.prefix + col4;

  uint4 sum = make_uint4 (0, 0, 0, 0);
  if (active)
    for (int s = s0; s < s1; s++)
      add4 (sum, seg[(size_t) s * pitch4]);
  part_sums[ty][tx] = sum;
  __syncthreads ();
  if (!active)
    return;
  uint4 run = make_uint4 (0, 0, 0, 0);
  for (int k = 0; k < ty; k++)
    add4 (run, part_sums[k][tx]);
  for (int s = s0; s < s1; s++) {
    const uint4 v = seg[(size_t) s * pitch4];
    prefix[(size_t) s * pitch4] = run;
    add4 (run, v);
  }
  /* The last part ends with the whole column. */
  if (ty == SCAN_PARTS - 1)
    prefix[(size_t) a.segments * pitch4] = run;
}

template < typename T, int N > CfStatus
launch (const ColumnArgs & a, cudaStream_t stream)
{
  dim3 grid ((a.n + SUM_THREADS * N - 1) / (SUM_THREADS * N), a.segments);
  segment_sums < T, N > <<<grid, SUM_THREADS, 0, stream>>> (a);
  dim3 scan_grid ((a.run_n + 4 * SCAN_COLS - 1) / (4 * SCAN_COLS));
  segment_scan <<<scan_grid, dim3 (SCAN_COLS, SCAN_PARTS), 0, stream>>> (a);
  return cf_launch_status ();
}

}                               /* namespace */

CfStatus
launch_columns (const ColumnArgs & a, int depth, int channels,
    cudaStream_t stream)
{
  if (depth > 8)
    return channels == 3 ? launch < unsigned short, 12 > (a, stream) :
        launch < unsigned short, 16 > (a, stream);
  return channels == 3 ? launch < unsigned char, 12 > (a, stream) :
      launch < unsigned char, 16 > (a, stream);
}

}                               /* namespace satblur */
