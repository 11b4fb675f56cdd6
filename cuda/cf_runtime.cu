/* CUDA runtime services behind cf_runtime.h. */
#include "cf_runtime.h"
#include "cf_kernel.cuh"

static __thread cudaError_t last_error = cudaSuccess;

CfStatus
cf_status_from_cuda (cudaError_t err)
{
  if (err == cudaSuccess)
    return CF_OK;
  last_error = err;
  cudaGetLastError ();          /* clear the sticky-free error state */
  switch (err) {
    case cudaErrorMemoryAllocation:
      return CF_ERROR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
      return CF_ERROR_NO_DEVICE;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidPitchValue:
      return CF_ERROR_INVALID;
    default:
      return CF_ERROR_CUDA;
  }
}

CfStatus
cf_smem_optin (size_t * bytes)
{
  int dev, optin = 0;
  cudaError_t err = cudaGetDevice (&dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  *bytes = err == cudaSuccess ? (size_t) optin : 0;
  return cf_status_from_cuda (err);
}

CfStatus
cf_smem_blocks_per_sm (size_t bytes, int *blocks)
{
  int dev, sm = 0, reserved = 0;
  cudaError_t err = cudaGetDevice (&dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&sm,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute (&reserved,
        cudaDevAttrReservedSharedMemoryPerBlock, dev);
  *blocks = err == cudaSuccess ? (int) ((size_t) sm / (bytes + reserved)) :
      0;
  return cf_status_from_cuda (err);
}

cudaError_t
cf_allow_dynamic_smem (const void *kernel, int device, size_t bytes)
{
  int optin = 0;
  cudaFuncAttributes fa;
  cudaKernel_t k;
  cudaError_t err = cudaDeviceGetAttribute (&optin,
      cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (err == cudaSuccess)
    err = cudaFuncGetAttributes (&fa, kernel);
  if (err == cudaSuccess)
    err = cudaGetKernel (&k, kernel);
  if (err == cudaSuccess) {
    /* dynamic + static must fit the opt-in limit */
    const size_t most = (size_t) optin - fa.sharedSizeBytes;
    err = cudaKernelSetAttributeForDevice (k,
        cudaFuncAttributeMaxDynamicSharedMemorySize,
        (int) (bytes < most ? bytes : most), device);
  }
  return err;
}

extern "C" const char *
cf_status_string (CfStatus status)
{
  switch (status) {
    case CF_OK:
      return "ok";
    case CF_ERROR_INVALID:
      return "invalid plane or parameter";
    case CF_ERROR_NO_DEVICE:
      return "no CUDA device";
    case CF_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case CF_ERROR_CUDA:
      return "CUDA error";
  }
  return "unknown error";
}

extern "C" const char *
cf_last_error_string (void)
{
  return cudaGetErrorString (last_error);
}

extern "C" CfStatus
cf_planes_check (const CfPlane * src, const CfPlane * dst)
{
  if (!src || !dst || !src->data || !dst->data)
    return CF_ERROR_INVALID;
  if (src->width < 1 || src->height < 1 || src->width != dst->width
      || src->height != dst->height)
    return CF_ERROR_INVALID;
  if ((src->depth != 8 && src->depth != 16) || src->depth != dst->depth)
    return CF_ERROR_INVALID;
  if (src->max > (src->depth > 8 ? 65535u : 255u) || dst->max != src->max)
    return CF_ERROR_INVALID;
  if (src->channels < 1 || src->channels > 4 || src->channels != dst->channels)
    return CF_ERROR_INVALID;
  size_t row = (size_t) src->width * src->channels * cf_plane_bytes_per_sample (src);
  if (src->stride < row || dst->stride < row)
    return CF_ERROR_INVALID;
  return CF_OK;
}

extern "C" int
cf_device_count (void)
{
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return n;
}

extern "C" CfStatus
cf_stream_create (CfStream * stream)
{
  cudaStream_t s = NULL;
  CfStatus st = cf_status_from_cuda (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  *stream = st == CF_OK ? (CfStream) s : NULL;
  return st;
}

extern "C" void
cf_stream_destroy (CfStream stream)
{
  if (stream)
    cudaStreamDestroy ((cudaStream_t) stream);
}

extern "C" CfStatus
cf_stream_synchronize (CfStream stream)
{
  return cf_status_from_cuda (cudaStreamSynchronize ((cudaStream_t) stream));
}

extern "C" CfStatus
cf_event_create (CfEvent * event)
{
  *event = NULL;
  return cf_status_from_cuda (cudaEventCreateWithFlags ((cudaEvent_t *) event,
          cudaEventDisableTiming));
}

extern "C" void
cf_event_destroy (CfEvent event)
{
  if (event)
    cudaEventDestroy ((cudaEvent_t) event);
}

extern "C" CfStatus
cf_event_record (CfEvent event, CfStream stream)
{
  return cf_status_from_cuda (cudaEventRecord ((cudaEvent_t) event,
          (cudaStream_t) stream));
}

extern "C" CfStatus
cf_stream_wait_event (CfStream stream, CfEvent event)
{
  return cf_status_from_cuda (cudaStreamWaitEvent ((cudaStream_t) stream,
          (cudaEvent_t) event, 0));
}

extern "C" CfStatus
cf_device_alloc_2d (void **ptr, size_t * stride, size_t row_bytes, int rows)
{
  *ptr = NULL;
  return cf_status_from_cuda (cudaMallocPitch (ptr, stride, row_bytes, (size_t) rows));
}

extern "C" CfStatus
cf_device_alloc (void **ptr, size_t bytes)
{
  *ptr = NULL;
  return cf_status_from_cuda (cudaMalloc (ptr, bytes));
}

extern "C" void
cf_device_free (void *ptr)
{
  if (ptr)
    cudaFree (ptr);
}

extern "C" CfStatus
cf_host_alloc_pinned (void **ptr, size_t bytes)
{
  *ptr = NULL;
  return cf_status_from_cuda (cudaHostAlloc (ptr, bytes, cudaHostAllocPortable));
}

extern "C" void
cf_host_free_pinned (void *ptr)
{
  if (ptr)
    cudaFreeHost (ptr);
}

extern "C" CfStatus
cf_host_register (void *ptr, size_t bytes)
{
  return cf_status_from_cuda (cudaHostRegister (ptr, bytes, cudaHostRegisterPortable));
}

extern "C" void
cf_host_unregister (void *ptr)
{
  /* a failure must not linger as the thread's last error, which the next
   * kernel launch check would report as its own */
  if (ptr && cudaHostUnregister (ptr) != cudaSuccess)
    cudaGetLastError ();
}

extern "C" CfStatus
cf_copy_2d_async (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row_bytes, int rows, CfStream stream)
{
  return cf_status_from_cuda (cudaMemcpy2DAsync (dst, dst_stride, src, src_stride,
          row_bytes, (size_t) rows, cudaMemcpyDefault, (cudaStream_t) stream));
}

extern "C" CfStatus
cf_scratch_reserve (CfScratch * scratch, size_t bytes)
{
  if (scratch->size >= bytes)
    return CF_OK;
  cf_scratch_release (scratch);
  CfStatus st = cf_device_alloc (&scratch->data, bytes);
  if (st == CF_OK)
    scratch->size = bytes;
  return st;
}

extern "C" void
cf_scratch_release (CfScratch * scratch)
{
  cf_device_free (scratch->data);
  scratch->data = NULL;
  scratch->size = 0;
}
