/* gpu suite: v210 unpack and pack on the GPU against the plain-C
 * reference, bit for bit, at widths that are and are not a multiple of 6,
 * rows padded or not; first (on the CPU too) the reference against a
 * group built by hand, and pack of unpack giving back every bit of the
 * frame (the unused ones included). */
#include "cf_test_util.h"
#include "cf_runtime.h"
#include "v210.h"

#include <stdlib.h>
#include <string.h>

static long passed, failed;

static void
verdict (int ok, const char *what)
{
  if (ok)
    passed++;
  else if (failed++ < 20)
    fprintf (stderr, "FAIL %s\n", what);
}

/* A random frame: the bytes of its groups as an 8-bit plane. */
static CfV210
frame_new (int w, int h, int pad, CfPlane * bytes)
{
  size_t row = (cf_v210_row_bytes (w) + 127) / 128 * 128;
  *bytes = cf_test_plane_new ((int) row, h, 1, 8, pad);
  CfV210 f = { bytes->data, bytes->stride, w, h };
  return f;
}

static CfPlane
plane_new (const CfPlane * geometry)
{
  CfPlane p = cf_test_plane_new (geometry->width, geometry->height,
      geometry->channels, 16, 8);
  cf_test_plane_set_max (&p, 1023);
  return p;
}

static int
bytes_equal (const CfV210 * a, const CfV210 * b)
{
  for (int y = 0; y < a->height; y++)
    if (memcmp ((const char *) a->data + y * a->stride,
            (const char *) b->data + y * b->stride,
            cf_v210_row_bytes (a->width)))
      return 0;
  return 1;
}

/* Pixels 0..5 of a group: Y 1..6, U 101.., V 201..; top bits 0b10. */
static void
check_layout (void)
{
  static const uint32_t words[4] = {
    101 | 1 << 10 | 201 << 20 | 2u << 30, 2 | 102 << 10 | 3 << 20 | 2u << 30,
    202 | 4 << 10 | 103 << 20 | 2u << 30, 5 | 203 << 10 | 6 << 20 | 2u << 30
  };
  unsigned char bytes[16];
  uint16_t y[6], uv[6];
  for (int i = 0; i < 16; i++)
    bytes[i] = (unsigned char) (words[i / 4] >> 8 * (i % 4));
  CfV210 f = { bytes, 16, 6, 1 };
  CfPlane luma, chroma;
  cf_v210_planes (&f, &luma, &chroma);
  luma.data = y;
  luma.stride = sizeof y;
  chroma.data = uv;
  chroma.stride = sizeof uv;
  int ok = cf_v210_unpack_ref (&f, &luma, &chroma) == CF_OK;
  for (int i = 0; i < 6; i++)
    ok = ok && y[i] == i + 1 && uv[i] == (i % 2 ? 201 : 101) + i / 2;
  verdict (ok, "reference unpack of a group built by hand");
}

/* The reference alone: pack (unpack (f)) == f, every bit. */
static void
check_round_trip (int w, int h, int pad)
{
  CfPlane sb, db, luma, chroma;
  CfV210 src = frame_new (w, h, pad, &sb);
  CfV210 dst = frame_new (w, h, 0, &db);
  char what[96];
  cf_v210_planes (&src, &luma, &chroma);
  luma = plane_new (&luma);
  chroma = plane_new (&chroma);
  snprintf (what, sizeof what, "round trip %dx%d pad %d", w, h, pad);
  verdict (cf_v210_unpack_ref (&src, &luma, &chroma) == CF_OK
      && cf_v210_pack_ref (&src, &luma, &chroma, &dst) == CF_OK
      && bytes_equal (&src, &dst), what);
  cf_test_plane_free (&sb);
  cf_test_plane_free (&db);
  cf_test_plane_free (&luma);
  cf_test_plane_free (&chroma);
}

/* GPU unpack, and GPU pack of other planes, against the reference. */
static void
check_gpu (CfStream stream, int w, int h, int pad)
{
  CfExec exec = { 1, stream, NULL };
  CfPlane sb, rb, lg, cg, luma, chroma;
  CfV210 src = frame_new (w, h, pad, &sb);
  CfV210 ref = frame_new (w, h, 0, &rb);
  char what[96];
  cf_v210_planes (&src, &luma, &chroma);
  CfPlane lr = plane_new (&luma), cr = plane_new (&chroma);
  lg = plane_new (&luma);
  cg = plane_new (&chroma);

  CfPlane dsb = cf_test_device_upload (&sb), ddb = cf_test_device_like (&sb);
  CfPlane dl = cf_test_device_like (&lr), dc = cf_test_device_like (&cr);
  CfV210 dsrc = { dsb.data, dsb.stride, w, h };
  CfV210 ddst = { ddb.data, ddb.stride, w, h };
  CF_CHECK (cf_v210_unpack_ref (&src, &lr, &cr) == CF_OK);
  CF_CHECK (cf_v210_unpack (&exec, &dsrc, &dl, &dc) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&dl, &lg);
  cf_test_device_download (&dc, &cg);
  snprintf (what, sizeof what, "unpack %dx%d pad %d", w, h, pad);
  verdict (cf_test_compare (&lr, &lg, 0, &(int) { 0 }, what) == 0
      && cf_test_compare (&cr, &cg, 0, &(int) { 0 }, what) == 0, what);

  /* other samples: the planes of another frame */
  CfPlane ob;
  CfV210 other = frame_new (w, h, 0, &ob);
  CF_CHECK (cf_v210_unpack_ref (&other, &lr, &cr) == CF_OK);
  CF_CHECK (cf_v210_pack_ref (&src, &lr, &cr, &ref) == CF_OK);
  cf_test_device_free (&dl);
  cf_test_device_free (&dc);
  dl = cf_test_device_upload (&lr);
  dc = cf_test_device_upload (&cr);
  CF_CHECK (cf_v210_pack (&exec, &dsrc, &dl, &dc, &ddst) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  CfPlane out = cf_test_plane_like (&sb, 0);
  cf_test_device_download (&ddb, &out);
  CfV210 got = { out.data, out.stride, w, h };
  snprintf (what, sizeof what, "pack %dx%d pad %d", w, h, pad);
  verdict (bytes_equal (&ref, &got), what);

  CfPlane *planes[] = { &sb, &rb, &lr, &cr, &lg, &cg, &ob, &out };
  for (size_t i = 0; i < sizeof planes / sizeof planes[0]; i++)
    cf_test_plane_free (planes[i]);
  CfPlane *dev[] = { &dsb, &ddb, &dl, &dc };
  for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
    cf_test_device_free (dev[i]);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {2, 3}, {5, 2}, {6, 1}, {7, 5},
  {11, 4}, {13, 3}, {47, 9}, {48, 2}, {1279, 7}, {1920, 17}, {3840, 2160}
  };
  int quick = getenv ("CF_TEST_QUICK") != NULL;
  size_t n = sizeof sizes / sizeof sizes[0] - (quick ? 1 : 0);
  CfStream stream;

  cf_test_seed (210);
  check_layout ();
  for (size_t s = 0; s < n; s++)
    for (int pad = 0; pad <= 40; pad += 40)
      check_round_trip (sizes[s][0], sizes[s][1], pad);
  if (failed)
    return cf_test_finish (passed, failed);
  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  for (size_t s = 0; s < n; s++)
    for (int pad = 0; pad <= 40; pad += 40)
      check_gpu (stream, sizes[s][0], sizes[s][1], pad);
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
