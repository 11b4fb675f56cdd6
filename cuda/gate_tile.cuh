/* The value gate (gate.h) inside a filter's kernel: a block whose output
 * pixels are all gated out skips its work. It needs to write nothing
 * there: the caller's gate pass (cf_gate_select) puts the input back over
 * every gated-out pixel afterwards. Only a filter's last pass may skip (an
 * earlier one's output is read around the pixels it serves). */
#ifndef CF_GATE_TILE_CUH
#define CF_GATE_TILE_CUH

#include "gate.h"
#include "cf_kernel.cuh"

struct CfGateTile {
  const void *data;             /* NULL: no gate, nothing skipped */
  size_t stride;
  int channels;
  unsigned mask;
  int xs, ys;
  unsigned lo, hi;              /* n min, n max: bounds of the channel sum */
};

/* The kernel-side gate of @gate (NULL: none). */
static inline CfGateTile
cf_gate_tile (const CfGate * gate)
{
  CfGateTile t = { };
  if (!gate)
    return t;
  unsigned n = __builtin_popcount (gate->mask);
  t.data = gate->plane.data;
  t.stride = gate->plane.stride;
  t.channels = gate->plane.channels;
  t.mask = gate->mask;
  t.xs = gate->x_shift;
  t.ys = gate->y_shift;
  t.lo = n * gate->min;
  t.hi = n * gate->max;
  return t;
}

/* Whether the gate lets pixel (x, y) be filtered. */
template < typename T > __device__ __forceinline__ bool
cf_gate_open_at (const CfGateTile & g, int x, int y)
{
  const T *p = cf_row < T > (g.data, g.stride, y << g.ys) +
      (size_t) (x << g.xs) * g.channels;
  unsigned sum = 0;
  for (int c = 0; c < g.channels; c++)
    if (g.mask & (1u << c))
      sum += p[c];
  return sum >= g.lo && sum <= g.hi;
}

/* Whether every pixel of [x0, x1) x [y0, y1) (clipped to width x height)
 * is gated out. Every thread of the block must call it (it synchronises
 * them); all get the same answer. */
template < typename T > __device__ __forceinline__ bool
cf_gate_block_closed (const CfGateTile & g, int x0, int y0, int x1, int y1,
    int width, int height)
{
  if (!g.data)
    return false;
  x1 = min (x1, width);
  y1 = min (y1, height);
  const int w = x1 - x0, n = w > 0 && y1 > y0 ? w * (y1 - y0) : 0;
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  bool open = false;
  for (int i = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
      threadIdx.x; i < n && !open; i += threads)
    open = cf_gate_open_at < T > (g, x0 + i % w, y0 + i / w);
  return !__syncthreads_or (open);
}

#endif /* CF_GATE_TILE_CUH */
