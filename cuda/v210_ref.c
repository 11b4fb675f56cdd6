/* Plain-C v210 unpack and pack (v210.h): simple enough to trust by
 * reading. */
#include "v210.h"
#include "cf_plane_access.h"

void
cf_v210_planes (const CfV210 * frame, CfPlane * luma, CfPlane * chroma)
{
  CfPlane p = { NULL, 0, frame->width, frame->height, 1, 16, 1023 };

  *luma = p;
  p.width = (frame->width + 1) / 2;
  p.channels = 2;
  *chroma = p;
}

static uint32_t
read_word (const CfV210 * f, int x_group, int y, int w)
{
  const unsigned char *b = (const unsigned char *) f->data +
      (size_t) y * f->stride + (size_t) x_group * 16 + 4 * w;
  return b[0] | (uint32_t) b[1] << 8 | (uint32_t) b[2] << 16 |
      (uint32_t) b[3] << 24;
}

static void
write_word (const CfV210 * f, int x_group, int y, int w, uint32_t v)
{
  unsigned char *b = (unsigned char *) f->data + (size_t) y * f->stride +
      (size_t) x_group * 16 + 4 * w;
  for (int i = 0; i < 4; i++)
    b[i] = (unsigned char) (v >> 8 * i);
}

/* The plane of field k and its pixel x there, for group g; NULL where that
 * pixel is past the plane's width. */
static const CfPlane *
field_plane (const CfPlane * luma, const CfPlane * chroma, int g, int k,
    int *x)
{
  const CfPlane *p = cf_v210_is_chroma (k) ? chroma : luma;

  *x = g * (p == luma ? 6 : 3) + cf_v210_pixel (k);
  return *x < p->width ? p : NULL;
}

CfStatus
cf_v210_check (const CfV210 * f, const CfPlane * luma, const CfPlane * chroma)
{
  CfPlane l, c;

  cf_v210_planes (f, &l, &c);
  return f->data && f->width > 0 && f->height > 0
      && f->stride >= cf_v210_row_bytes (f->width)
      && luma->width == l.width && luma->height == l.height
      && luma->channels == 1 && luma->depth == 16
      && chroma->width == c.width && chroma->height == c.height
      && chroma->channels == 2 && chroma->depth == 16
      && luma->data && chroma->data ? CF_OK : CF_ERROR_INVALID;
}

CfStatus
cf_v210_unpack_ref (const CfV210 * src, const CfPlane * luma,
    const CfPlane * chroma)
{
  CfStatus st = cf_v210_check (src, luma, chroma);
  if (st != CF_OK)
    return st;
  for (int y = 0; y < src->height; y++)
    for (int g = 0; g * 6 < src->width; g++)
      for (int k = 0; k < 12; k++) {
        int x;
        const CfPlane *p = field_plane (luma, chroma, g, k, &x);
        if (p)
          cf_put_sample (p, x, y, cf_v210_channel (k),
              read_word (src, g, y, k / 3) >> 10 * (k % 3) & 0x3ff);
      }
  return CF_OK;
}

CfStatus
cf_v210_pack_ref (const CfV210 * src, const CfPlane * luma,
    const CfPlane * chroma, const CfV210 * dst)
{
  CfStatus st = cf_v210_check (src, luma, chroma);
  if (st == CF_OK)
    st = cf_v210_check (dst, luma, chroma);
  if (st != CF_OK)
    return st;
  for (int y = 0; y < src->height; y++)
    for (int g = 0; g * 6 < src->width; g++) {
      uint32_t word[4];
      for (int w = 0; w < 4; w++)
        word[w] = read_word (src, g, y, w);
      for (int k = 0; k < 12; k++) {
        int x, shift = 10 * (k % 3);
        const CfPlane *p = field_plane (luma, chroma, g, k, &x);
        if (p)
          word[k / 3] = (word[k / 3] & ~(0x3ffu << shift)) |
              (cf_get_sample (p, x, y, cf_v210_channel (k)) & 0x3ff) << shift;
      }
      for (int w = 0; w < 4; w++)
        write_word (dst, g, y, w, word[w]);
    }
  return CF_OK;
}
