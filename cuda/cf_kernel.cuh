/* Internal helpers for the .cu files: sample conversion, rounding, errors,
 * the per-device shared-memory opt-in. */
#ifndef CF_KERNEL_CUH
#define CF_KERNEL_CUH

#include "cf_types.h"
#include "cf_border.h"

#include <cuda_runtime.h>
#include <atomic>
#include <stdint.h>

/* Maps a CUDA error to a CfStatus and remembers it for messages. */
CfStatus cf_status_from_cuda (cudaError_t err);

/* Devices whose per-device state the .cu files cache; others still work,
 * without the cache. */
#define CF_MAX_DEVICES 64

/* Threads one multiprocessor holds, for the architecture being compiled:
 * a __launch_bounds__ minimum of blocks must fit them, or ptxas ignores it
 * with a warning (an error under werror). 1024 on Turing, 2048 on A100,
 * H100 and B200, 1536 on the others (and in the host pass, which has no
 * __CUDA_ARCH__). */
__host__ __device__ constexpr int
cf_sm_threads (void)
{
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return 1024;
#elif defined (__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || \
    __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030)
  return 2048;
#else
  return 1536;
#endif
}

/* A __launch_bounds__ minimum of blocks: @wanted blocks of @threads, or as
 * many as one multiprocessor holds where that is fewer. */
__host__ __device__ constexpr int
cf_min_blocks (int wanted, int threads)
{
  return wanted < cf_sm_threads () / threads ? wanted :
      cf_sm_threads () / threads;
}

/* The shared memory a block may have on the current device, static and
 * dynamic together (its opt-in limit; the runtime caches the attribute,
 * so asking per frame is cheap). */
CfStatus cf_smem_optin (size_t * bytes);

/* How many blocks of @bytes of shared memory each (static and dynamic) a
 * multiprocessor of the current device holds, by shared memory alone. */
CfStatus cf_smem_blocks_per_sm (size_t bytes, int *blocks);

/* Lets `kernel` use up to `bytes` of dynamic shared memory (capped at what
 * the device allows beside the kernel's static shared memory) on `device`,
 * in every context of that device. */
cudaError_t cf_allow_dynamic_smem (const void *kernel, int device,
    size_t bytes);

/* Before launching KERNEL with `smem` bytes of dynamic shared memory:
 * static and dynamic together past 48 KB must be opted in, done here once
 * per device (for all of its contexts: GStreamer may make several on one
 * device), to all the device allows. The kernel's static size is not
 * known here, so any dynamic shared memory opts in: under 48 KB it may
 * still pass the limit beside the static. A launch needing more than the
 * device allows still fails, as it should. */
template < auto KERNEL > CfStatus
cf_allow_smem (size_t smem)
{
  static std::atomic < bool > allowed[CF_MAX_DEVICES];
  int dev;
  if (smem == 0)
    return CF_OK;
  cudaError_t err = cudaGetDevice (&dev);
  if (err == cudaSuccess && dev < CF_MAX_DEVICES
      && allowed[dev].load (std::memory_order_acquire))
    return CF_OK;
  if (err == cudaSuccess)
    err = cf_allow_dynamic_smem ((const void *) KERNEL, dev, SIZE_MAX);
  if (err == cudaSuccess && dev < CF_MAX_DEVICES)
    allowed[dev].store (true, std::memory_order_release);
  return cf_status_from_cuda (err);
}

/* The status of the launches queued since the last check. */
static inline CfStatus
cf_launch_status (void)
{
  return cf_status_from_cuda (cudaGetLastError ());
}

template < typename T > struct CfSampleMax;
template <> struct CfSampleMax <unsigned char> {
  static constexpr float value = 255.0f;
};
template <> struct CfSampleMax <unsigned short> {
  static constexpr float value = 65535.0f;
};

/* v + 0.5 clamped to the sample range: truncated, v rounded to nearest as
 * cf_round_clamp does. */
template < typename T > __device__ __forceinline__ float
cf_round_up_clamped (float v)
{
  return fminf (fmaxf (v + 0.5f, 0.0f), CfSampleMax < T >::value);
}

template < typename T > __device__ __forceinline__ T
cf_round_to (float v)
{
  return (T) cf_round_up_clamped < T > (v);
}

/* A sample (below 2^23) as a float, without the int-to-float conversion,
 * a quarter-rate instruction that bounds kernels converting many samples:
 * the sample becomes the low mantissa bits of 2^23, which is subtracted. */
__device__ __forceinline__ float
cf_sample_float (unsigned v)
{
  return __uint_as_float (0x4B000000u | v) - 8388608.0f;
}

template < typename T > __device__ __forceinline__ const T *
cf_row (const void *base, size_t stride, int y)
{
  return (const T *) ((const unsigned char *) base + (size_t) y * stride);
}

template < typename T > __device__ __forceinline__ T *
cf_row (void *base, size_t stride, int y)
{
  return (T *) ((unsigned char *) base + (size_t) y * stride);
}

#endif /* CF_KERNEL_CUH */
