/* Separable Gaussian in one pass over the frame: each block filters the rows
 * of its tile plus a vertical halo into shared memory (horizontal pass), then
 * the columns out of shared memory (vertical pass). The intermediate never
 * touches device memory, so the frame is read once and written once (plus
 * the halos, mostly from L2). Input rows are staged in shared memory as
 * float, so each sample is converted once, not once per tap. Each thread
 * computes several outputs, so a shared-memory value feeds several taps;
 * radii 1 to 8 (the same on both axes) are compiled with the radius known,
 * fully unrolled. */
#include "gaussian.h"
#include "cf_kernel.cuh"

namespace {

constexpr int THREADS = 256;
constexpr int TILE_SAMPLES = 64;        /* shared-memory row width, in samples */
constexpr int TILE_ROWS = 64;
constexpr int H_OUT = 4;                /* horizontal outputs per thread */
constexpr int V_OUT = 16;               /* vertical outputs per thread */
constexpr int H_THREADS_PER_ROW = TILE_SAMPLES / H_OUT;
constexpr int CHUNK_ROWS = THREADS / H_THREADS_PER_ROW;        /* 16 */
constexpr int STAGE_ROWS = THREADS / TILE_SAMPLES;     /* rows staged at once */
constexpr int MAX_FIXED_RADIUS = 8;

struct GaussArgs {
  float wx[CF_GAUSSIAN_MAX_RADIUS + 1];
  float wy[CF_GAUSSIAN_MAX_RADIUS + 1];
  int rx, ry;
  int sharpen;
  CfBorder border;
  unsigned mask;
};

/* Pixels across a tile: as many as fit in TILE_SAMPLES, a multiple of H_OUT
 * (64, 32, 20, 16 for 1..4 channels). */
template < int C > __host__ __device__ constexpr int
tile_pixels ()
{
  return TILE_SAMPLES / C / H_OUT * H_OUT;
}

/* Shared memory: CHUNK_ROWS staged input rows (the tile plus rx pixels each
 * side), then the horizontally filtered rows of the tile and its halo. */
__host__ __device__ inline int
staged_row_floats (int rx, int channels)
{
  return TILE_SAMPLES + 2 * rx * channels;
}

inline size_t
smem_bytes (int rx, int ry, int channels)
{
  return sizeof (float) * (CHUNK_ROWS * staged_row_floats (rx, channels) +
      TILE_SAMPLES * (TILE_ROWS + 2 * ry));
}

/* R > 0: both radii are R, known at compile time; R == 0: a.rx, a.ry. */
template < typename T, int C, int R > __global__ void
__launch_bounds__ (THREADS)
gaussian_tile (const void *__restrict__ src, size_t src_stride,
    void *__restrict__ dst, size_t dst_stride, int width, int height,
    const GaussArgs a)
{
  constexpr int TILE_PX = tile_pixels < C > ();
  constexpr int TILE_S = TILE_PX * C;
  const int rx = R ? R : a.rx;
  const int ry = R ? R : a.ry;
  extern __shared__ float smem[];
  const int staged = staged_row_floats (rx, C);
  float *chunk = smem;
  float *hrows = smem + CHUNK_ROWS * staged;

  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * TILE_PX;
  const int y0 = blockIdx.y * TILE_ROWS;
  const int out_rows = min (TILE_ROWS, height - y0);
  const int in_rows = out_rows + 2 * ry;
  const int seg = TILE_S + 2 * rx * C;

  /* Horizontal: thread (hrow, g) filters H_OUT pixels of channel hc. */
  const int hrow = tid / H_THREADS_PER_ROW;
  const int g = tid % H_THREADS_PER_ROW;
  const int hc = g % C;
  const int hpx = g / C * H_OUT;
  const bool h_active = hpx < TILE_PX;
  const bool h_filtered = h_active && ((a.mask >> hc) & 1u);

  /* Every thread runs the same loop count, so the barriers are uniform. */
  for (int base = 0; base < in_rows; base += CHUNK_ROWS) {
#pragma unroll
    for (int k = 0; k < CHUNK_ROWS / STAGE_ROWS; k++) {
      const int cr = k * STAGE_ROWS + tid / TILE_SAMPLES;
      if (base + cr >= in_rows)
        break;
      const T *in = cf_row < T > (src, src_stride,
          cf_border_index (y0 - ry + base + cr, height, a.border));
      for (int j = tid % TILE_SAMPLES; j < seg; j += TILE_SAMPLES) {
        int px = cf_border_index (x0 - rx + j / C, width, a.border);
        chunk[cr * staged + j] = (float) in[px * C + j % C];
      }
    }
    __syncthreads ();
    if (base + hrow < in_rows && h_active) {
      float acc[H_OUT];
      const float *p = chunk + hrow * staged + (rx + hpx) * C + hc;
#pragma unroll
      for (int o = 0; o < H_OUT; o++)
        acc[o] = h_filtered ? a.wx[0] * p[o * C] : 0.0f;
      if (h_filtered) {
#pragma unroll
        for (int t = 1; t <= rx; t++) {
          const float w = a.wx[t];
#pragma unroll
          for (int o = 0; o < H_OUT; o++)
            acc[o] += w * (p[(o - t) * C] + p[(o + t) * C]);
        }
      }
      float *h = hrows + (base + hrow) * TILE_SAMPLES + hpx * C + hc;
#pragma unroll
      for (int o = 0; o < H_OUT; o++)
        h[o * C] = acc[o];
    }
    __syncthreads ();
  }

  /* Vertical: thread (column vs, rows vr0..vr0+V_OUT-1). */
  const int vs = tid % TILE_SAMPLES;
  const int vr0 = tid / TILE_SAMPLES * V_OUT;
  const int x = x0 + vs / C;
  const int c = vs % C;
  if (vs >= TILE_S || x >= width || vr0 >= out_rows)
    return;
  const bool filtered = (a.mask >> c) & 1u;
  float acc[V_OUT];
  if (filtered) {
    const float *col = hrows + (vr0 + ry) * TILE_SAMPLES + vs;
#pragma unroll
    for (int o = 0; o < V_OUT; o++)
      acc[o] = a.wy[0] * col[o * TILE_SAMPLES];
#pragma unroll
    for (int t = 1; t <= ry; t++) {
      const float w = a.wy[t];
#pragma unroll
      for (int o = 0; o < V_OUT; o++)
        acc[o] += w * (col[(o - t) * TILE_SAMPLES] +
            col[(o + t) * TILE_SAMPLES]);
    }
  }
#pragma unroll
  for (int o = 0; o < V_OUT; o++) {
    if (vr0 + o >= out_rows)
      break;
    const T *in = cf_row < T > (src, src_stride, y0 + vr0 + o);
    T *out = cf_row < T > (dst, dst_stride, y0 + vr0 + o);
    const int s = x * C + c;
    if (!filtered)
      out[s] = in[s];
    else
      out[s] = cf_round_to < T > (a.sharpen ?
          2.0f * (float) in[s] - acc[o] : acc[o]);
  }
}

template < typename T, int C, int R > CfStatus
launch (const CfPlane * src, const CfPlane * dst, const GaussArgs & a,
    cudaStream_t stream)
{
  size_t smem = smem_bytes (a.rx, a.ry, C);
  if (smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute (gaussian_tile < T, C, R >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
    if (err != cudaSuccess)
      return cf_status_from_cuda (err);
  }
  constexpr int TILE_PX = tile_pixels < C > ();
  dim3 grid ((src->width + TILE_PX - 1) / TILE_PX,
      (src->height + TILE_ROWS - 1) / TILE_ROWS);
  gaussian_tile < T, C, R > <<<grid, THREADS, smem, stream>>> (src->data,
      src->stride, dst->data, dst->stride, src->width, src->height, a);
  return cf_launch_status ();
}

template < typename T, int C > CfStatus
launch_radius (const CfPlane * src, const CfPlane * dst, const GaussArgs & a,
    cudaStream_t stream)
{
  switch (a.rx == a.ry ? a.rx : 0) {
    case 1:
      return launch < T, C, 1 > (src, dst, a, stream);
    case 2:
      return launch < T, C, 2 > (src, dst, a, stream);
    case 3:
      return launch < T, C, 3 > (src, dst, a, stream);
    case 4:
      return launch < T, C, 4 > (src, dst, a, stream);
    case 5:
      return launch < T, C, 5 > (src, dst, a, stream);
    case 6:
      return launch < T, C, 6 > (src, dst, a, stream);
    case 7:
      return launch < T, C, 7 > (src, dst, a, stream);
    case MAX_FIXED_RADIUS:
      return launch < T, C, MAX_FIXED_RADIUS > (src, dst, a, stream);
    default:
      return launch < T, C, 0 > (src, dst, a, stream);
  }
}

template < typename T > CfStatus
launch_channels (const CfPlane * src, const CfPlane * dst,
    const GaussArgs & a, cudaStream_t stream)
{
  switch (src->channels) {
    case 1:
      return launch_radius < T, 1 > (src, dst, a, stream);
    case 2:
      return launch_radius < T, 2 > (src, dst, a, stream);
    case 3:
      return launch_radius < T, 3 > (src, dst, a, stream);
    default:
      return launch_radius < T, 4 > (src, dst, a, stream);
  }
}

}                               /* namespace */

extern "C" CfStatus
cf_gaussian_blur (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const CfGaussianParams * p)
{
  if (!exec->on_gpu)
    return cf_gaussian_blur_ref (src, dst, p);

  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (p->radius_x < 0 || p->radius_x > CF_GAUSSIAN_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_GAUSSIAN_MAX_RADIUS
      || !exec->stream)
    return CF_ERROR_INVALID;

  GaussArgs a = { };
  a.wx[0] = a.wy[0] = 1.0f;
  if (p->radius_x > 0)
    cf_gaussian_weights (p->sigma_x, p->radius_x, a.wx);
  if (p->radius_y > 0)
    cf_gaussian_weights (p->sigma_y, p->radius_y, a.wy);
  a.rx = p->radius_x;
  a.ry = p->radius_y;
  a.sharpen = p->sharpen;
  a.border = p->border;
  a.mask = p->channel_mask;

  cudaStream_t stream = (cudaStream_t) exec->stream;
  return src->depth > 8 ?
      launch_channels < unsigned short > (src, dst, a, stream) :
      launch_channels < unsigned char > (src, dst, a, stream);
}
