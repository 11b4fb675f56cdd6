/* cudafilters: the types every filter of the GStreamer-free API shares.
 *
 * A filter reads one plane and writes another of the same size and layout.
 * The same call runs on the GPU (device pointers, asynchronous on a stream)
 * or as the plain-C reference (host pointers), chosen by CfExec.
 */
#ifndef CF_TYPES_H
#define CF_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The same struct as the driver's CUstream and the runtime's cudaStream_t,
 * so that callers need neither header. NULL is not accepted by the GPU
 * path: never launch on the legacy default stream. */
typedef struct CUstream_st *CfStream;

typedef enum {
  CF_OK = 0,
  CF_ERROR_INVALID,             /* bad plane or parameter */
  CF_ERROR_NO_DEVICE,           /* no CUDA device or driver */
  CF_ERROR_OUT_OF_MEMORY,       /* device or pinned host memory exhausted */
  CF_ERROR_CUDA                 /* any other CUDA failure */
} CfStatus;

const char *cf_status_string (CfStatus status);

/* How samples outside the plane are read. */
typedef enum {
  CF_BORDER_CLAMP = 0,          /* replicate the edge sample: aaa|abc */
  CF_BORDER_MIRROR = 1          /* reflect without repeating the edge: cb|abc */
} CfBorder;

/* One image plane: rows of width pixels, each pixel `channels` interleaved
 * samples of `depth` bits (8 or 16, 16 in host byte order). `stride` is the
 * byte distance between rows, never assumed to be width * channels.
 *
 * `max` is the full scale of a sample where it is less than the container's
 * (1 << depth) - 1: 1023 for 10 bits in the low bits of 16 (I420_10LE),
 * 0xffc0 for 10 bits in the high bits (P010_10LE); 0 means the container's.
 * Range parameters (in units of full scale) scale by it and results are
 * clamped to it; a filter's result in an MSB-aligned format may set the low
 * bits below the format's precision (readers ignore them). */
typedef struct {
  void *data;
  size_t stride;
  int width;
  int height;
  int channels;                 /* 1..4 */
  int depth;                    /* 8 or 16 */
  unsigned max;                 /* full scale; 0: (1 << depth) - 1 */
} CfPlane;

/* Which channels of a plane a filter changes: bit c set means channel c is
 * filtered; a clear bit means channel c is copied unchanged (alpha, padding,
 * chroma when only luma is filtered). */
#define CF_ALL_CHANNELS(channels) ((1u << (channels)) - 1u)

/* Device scratch memory that a filter may need (intermediate passes). It
 * only grows, so once a stream's frame size is known no frame allocates. */
typedef struct {
  void *data;
  size_t size;
} CfScratch;

/* Where and how a filter call runs. */
typedef struct {
  int on_gpu;                   /* 0: plain-C reference on host planes */
  CfStream stream;              /* GPU: the stream every launch goes on */
  CfScratch *scratch;           /* GPU: scratch owned by the caller */
} CfExec;

/* Bytes per sample of a plane. */
static inline int
cf_plane_bytes_per_sample (const CfPlane * p)
{
  return p->depth > 8 ? 2 : 1;
}

/* The full scale of a plane's samples: its largest value. */
static inline unsigned
cf_plane_max (const CfPlane * p)
{
  return p->max ? p->max : (p->depth > 8 ? 65535u : 255u);
}

/* Checks what every filter needs: same geometry, sane depth and channels,
 * strides that hold a row. */
CfStatus cf_planes_check (const CfPlane * src, const CfPlane * dst);

#ifdef __cplusplus
}
#endif
#endif /* CF_TYPES_H */
