/* The reference on packed 4:2:2 frames (YUY2, UYVY, YVYU, v210), for
 * element_harness.c: the frame read with GStreamer's own unpacking into a
 * luma plane and an interleaved chroma plane of half the width (as NV16's
 * or P210's), each filtered by the element's reference as such a plane
 * would be, and written back into a copy of the input, so that every bit
 * that is no pixel's sample (v210's top bits and last group's missing
 * pixels, an odd width's last Y) stays the input's. */
#include "element_harness.h"

static void
set (const CfPlane * p, gint x, gint y, gint c, guint v)
{
  guint8 *row = (guint8 *) p->data + y * p->stride;

  if (p->depth > 8)
    ((guint16 *) row)[x * p->channels + c] = v;
  else
    row[x * p->channels + c] = v;
}

static guint
get (const CfPlane * p, gint x, gint y, gint c)
{
  const guint8 *row = (const guint8 *) p->data + y * p->stride;

  return p->depth > 8 ? ((const guint16 *) row)[x * p->channels + c] :
      row[x * p->channels + c];
}

/* Sample @value of @plane (0 luma, 1 chroma), pixel @x, channel @c into a
 * v210 row. */
static void
put_v210 (guint8 * row, guint plane, gint x, guint c, guint value)
{
  gint k = plane ? 4 * (x % 3) + 2 * c : 2 * (x % 6) + 1;
  guint8 *word = row + (plane ? x / 3 : x / 6) * 16 + 4 * (k / 3);
  guint shift = 10 * (k % 3);
  guint32 v = GST_READ_UINT32_LE (word);

  GST_WRITE_UINT32_LE (word, (v & ~(0x3ffu << shift)) | value << shift);
}

/* Pixel @x, channel @c of @plane into a row of an 8-bit packed format. */
static void
put_8bit (const GstVideoFormatInfo * finfo, guint8 * row, guint plane,
    gint x, guint c, guint value)
{
  guint comp = plane ? GST_VIDEO_COMP_U + c : GST_VIDEO_COMP_Y;

  row[x * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp) +
      GST_VIDEO_FORMAT_INFO_POFFSET (finfo, comp)] = value;
}

gboolean
cf_packed_unpack (GstVideoFrame * f, CfPlane planes[2])
{
  const GstVideoFormatInfo *finfo = f->info.finfo;
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (f);
  gboolean v210 = format == GST_VIDEO_FORMAT_v210;
  gint w = GST_VIDEO_FRAME_WIDTH (f), h = GST_VIDEO_FRAME_HEIGHT (f);
  gint depth = v210 ? 16 : 8, bps = depth / 8;
  guint8 *line;

  if (format != GST_VIDEO_FORMAT_YUY2 && format != GST_VIDEO_FORMAT_UYVY
      && format != GST_VIDEO_FORMAT_YVYU && !v210)
    return FALSE;
  for (guint p = 0; p < 2; p++) {
    CfPlane pl = { NULL, 0, p ? (w + 1) / 2 : w, h, p ? 2 : 1, depth,
      v210 ? 1023 : 0
    };
    pl.stride = (gsize) pl.width * pl.channels * bps;
    pl.data = g_malloc0 (pl.stride * h);
    planes[p] = pl;
  }
  /* AYUV or AYUV64 pixels: each pixel's chroma is its pair's */
  line = g_malloc (((gsize) w + 8) * 4 * bps);
  for (gint y = 0; y < h; y++) {
    gpointer data[GST_VIDEO_MAX_PLANES] = { GST_VIDEO_FRAME_PLANE_DATA (f,
          0)
    };
    finfo->unpack_func (finfo, GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE, line, data,
        f->info.stride, 0, y, w);
    /* Y of every pixel, U and V of the first of each pair */
    for (gint x = 0; x < w; x++)
      for (guint c = 1; c < 4; c++)
        if (c == 1 || x % 2 == 0)
          set (&planes[c > 1], c == 1 ? x : x / 2, y, c > 1 ? c - 2 : 0,
              v210 ? ((guint16 *) line)[4 * x + c] >> 6 : line[4 * x + c]);
  }
  g_free (line);
  return TRUE;
}

void
cf_packed_pack (CfPlane planes[2], GstVideoFrame * f)
{
  gboolean v210 = GST_VIDEO_FRAME_FORMAT (f) == GST_VIDEO_FORMAT_v210;

  for (gint y = 0; y < planes[0].height; y++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (f, 0);
    for (guint p = 0; p < 2; p++)
      for (gint x = 0; x < planes[p].width; x++)
        for (gint c = 0; c < planes[p].channels; c++) {
          guint v = get (&planes[p], x, y, c);
          if (v210)
            put_v210 (row, p, x, c, v);
          else
            put_8bit (f->info.finfo, row, p, x, c, v);
        }
  }
}

void
cf_packed_free (CfPlane planes[2])
{
  for (guint p = 0; p < 2; p++)
    g_free (planes[p].data);
}

gboolean
cf_reference_packed (GstVideoFrame * fin, GstVideoFrame * fout,
    CfBorder border, CfPlaneReference reference, gconstpointer params)
{
  CfPlane in[2], out[2];

  if (!cf_packed_unpack (fin, in))
    return FALSE;
  /* a plane the reference leaves alone stays the input's */
  for (guint p = 0; p < 2; p++) {
    CfRefPlane plane = { p, p, 0, p ? 3 : 1, border };

    out[p] = in[p];
    out[p].data = g_memdup2 (in[p].data, in[p].stride * in[p].height);
    fail_unless_equals_int (reference (&in[p], &out[p], &plane, params), CF_OK);
  }
  cf_packed_pack (out, fout);
  cf_packed_free (in);
  cf_packed_free (out);
  return TRUE;
}
