/* cudafilters: v210 (10-bit 4:2:2, six pixels in four little-endian 32-bit
 * words) to planes the filters read, and back.
 *
 * A group of 16 bytes holds pixels 6g..6g+5: word 0 is U0 Y0 V0, word 1
 * Y1 U1 Y2, word 2 V1 Y3 U2, word 3 Y4 V2 Y5 (10 bits each from bit 0, the
 * top 2 bits unused). Unpacked, luma is a plane of `width` 16-bit samples
 * (1 channel) and chroma one of (width + 1) / 2 pixels of U and V (2
 * channels), both with their 10 bits in the low bits (CfPlane.max 1023),
 * so that chroma is filtered as a semi-planar 4:2:2 format's is. */
#ifndef CF_V210_H
#define CF_V210_H

#include "cf_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define CF_V210_FN __host__ __device__ static inline
#else
#define CF_V210_FN static inline
#endif

/* Field k (0..11: word k / 3, bits 10 (k % 3) up) of a group: which plane
 * it belongs to (0 luma, 1 chroma), and its pixel and channel there,
 * counted from the group's first pixel of that plane (6 luma, 3 chroma). */
CF_V210_FN int
cf_v210_is_chroma (int k)
{
  return k % 2 == 0;
}

CF_V210_FN int
cf_v210_pixel (int k)
{
  return k % 2 ? k / 2 : k / 4;
}

CF_V210_FN int
cf_v210_channel (int k)
{
  return k % 2 ? 0 : (k / 2) % 2;
}

/* A v210 frame: `width` pixels a row, rows `stride` bytes apart (a
 * multiple of 4). */
typedef struct {
  void *data;
  size_t stride;
  int width;
  int height;
} CfV210;

/* Bytes of a row's groups: 16 for every 6 pixels, the last one partly. */
static inline size_t
cf_v210_row_bytes (int width)
{
  return (size_t) (width + 5) / 6 * 16;
}

/* The planes a v210 frame unpacks to, geometry only (data and stride
 * unset). */
void cf_v210_planes (const CfV210 * frame, CfPlane * luma, CfPlane * chroma);

/* Whether frame f and planes luma and chroma (with data) fit together. */
CfStatus cf_v210_check (const CfV210 * f, const CfPlane * luma,
    const CfPlane * chroma);

/* Unpacks src into luma and chroma (from cf_v210_planes, with data and
 * stride). */
CfStatus cf_v210_unpack (const CfExec * exec, const CfV210 * src,
    const CfPlane * luma, const CfPlane * chroma);

/* Packs luma and chroma into dst; every bit that is not a sample of a pixel
 * inside the width (the top 2 bits of each word, the samples of a last
 * group's missing pixels) is src's. dst may be src. */
CfStatus cf_v210_pack (const CfExec * exec, const CfV210 * src,
    const CfPlane * luma, const CfPlane * chroma, const CfV210 * dst);

CfStatus cf_v210_unpack_ref (const CfV210 * src, const CfPlane * luma,
    const CfPlane * chroma);
CfStatus cf_v210_pack_ref (const CfV210 * src, const CfPlane * luma,
    const CfPlane * chroma, const CfV210 * dst);

#ifdef __cplusplus
}
#endif
#endif /* CF_V210_H */
