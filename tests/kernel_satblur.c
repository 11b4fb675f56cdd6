/* gpu suite: cf_satblur on the GPU against the plain-C reference, bit for
 * bit: awkward sizes, every channel layout, 8 and 16 bits, both borders,
 * radii from 0 to larger than the frame, 1 to 3 passes, the 32-bit and
 * 64-bit sum paths, rows longer than a block's runs, rows too wide for
 * shared memory, device planes not aligned for vector access, and 4K
 * frames. One line per failing case, then the verdict. */
#include "cf_test_util.h"
#include "cf_runtime.h"
#include "satblur.h"

#include <stdlib.h>
#include <string.h>

static long passed, failed;
static CfStream stream;
static CfScratch scratch;

/* Index of the first differing sample and how many differ. */
static long
differences (const CfPlane * a, const CfPlane * b, int *fx, int *fy, int *fc)
{
  int bps = cf_plane_bytes_per_sample (a);
  long bad = 0;
  for (int y = 0; y < a->height; y++)
    for (int i = 0; i < a->width * a->channels; i++) {
      const unsigned char *pa = (const unsigned char *) a->data + y * a->stride;
      const unsigned char *pb = (const unsigned char *) b->data + y * b->stride;
      if (memcmp (pa + i * bps, pb + i * bps, bps) == 0)
        continue;
      if (bad++ == 0) {
        *fx = i / a->channels;
        *fy = y;
        *fc = i % a->channels;
      }
    }
  return bad;
}

/* A device copy of a host plane whose pointer and stride are off by one
 * sample from any vector alignment; *base gets what to free. */
static CfPlane
device_unaligned (const CfPlane * host, void **base)
{
  CfPlane d = *host;
  int bps = cf_plane_bytes_per_sample (host);
  size_t row = (size_t) host->width * host->channels * bps;
  d.stride = row + 3 * bps;
  CF_CHECK (cf_device_alloc (base, d.stride * host->height + bps) == CF_OK);
  d.data = (unsigned char *) *base + bps;
  CF_CHECK (cf_copy_2d_async (d.data, d.stride, host->data, host->stride, row,
          host->height, stream) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  return d;
}

/* aligned = 0: device planes at odd offsets (scalar loads and stores). */
static void
check_planes (int w, int h, int channels, int depth, unsigned mask, int rx,
    int ry, int passes, CfBorder border, int aligned)
{
  CfSatBlurParams p = { rx, ry, passes, border, mask };
  CfExec exec = { 1, stream, &scratch };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane ref = cf_test_plane_like (&src, 0);
  CfPlane out = cf_test_plane_like (&src, 3);
  void *src_base = NULL, *dst_base = NULL;
  CfPlane dsrc, ddst;
  if (aligned) {
    dsrc = cf_test_device_upload (&src);
    ddst = cf_test_device_like (&src);
  } else {
    dsrc = device_unaligned (&src, &src_base);
    ddst = device_unaligned (&out, &dst_base);
  }
  char what[160];
  int x = 0, y = 0, c = 0;
  long bad;

  snprintf (what, sizeof what, "%dx%d c%d d%d mask %x r %d/%d passes %d %s%s",
      w, h, channels, depth, mask, rx, ry, passes,
      border == CF_BORDER_MIRROR ? "mirror" : "clamp",
      aligned ? "" : " unaligned");
  CF_CHECK (cf_satblur_ref (&src, &ref, &p) == CF_OK);
  CfStatus st = cf_satblur (&exec, &dsrc, &ddst, &p);
  if (st == CF_OK)
    st = cf_stream_synchronize (stream);
  if (st != CF_OK) {
    printf ("FAIL %s: %s (%s)\n", what, cf_status_string (st),
        cf_last_error_string ());
    failed++;
  } else {
    cf_test_device_download (&ddst, &out);
    bad = differences (&out, &ref, &x, &y, &c);
    if (bad) {
      printf ("FAIL %s: %ld samples differ, first (%d,%d) c%d\n", what, bad,
          x, y, c);
      failed++;
    } else {
      passed++;
    }
  }
  if (aligned) {
    cf_test_device_free (&dsrc);
    cf_test_device_free (&ddst);
  } else {
    cf_device_free (src_base);
    cf_device_free (dst_base);
  }
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&out);
}

static void
check (int w, int h, int channels, int depth, unsigned mask, int rx, int ry,
    int passes, CfBorder border)
{
  check_planes (w, h, channels, depth, mask, rx, ry, passes, border, 1);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {4097, 9},
  {9, 300}, {130, 131}, {641, 67}
  };
  static const struct { int channels, depth; unsigned mask; } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {4, 8, 0xE}, {3, 8, 0x7},
    {2, 8, 0x3}, {4, 16, 0x7}, {3, 16, 0x7}
  };
  /* -1: larger than the frame (twice its larger side, plus one). */
  static const int radii[][2] = { {0, 1}, {1, 0}, {1, 1}, {3, 2}, {7, 15},
  {40, 40}, {-1, 2}, {-1, -1}
  };
  /* CF_TEST_QUICK=1 (for compute-sanitizer) keeps every third case and
   * leaves out the 4K frames. */
  int quick = getenv ("CF_TEST_QUICK") != NULL, n = 0;

  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  cf_test_seed (4321);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++)
        for (int b = 0; b < 2; b++) {
          int w = sizes[s][0], h = sizes[s][1];
          int big = 2 * (w > h ? w : h) + 1;
          if (quick && n++ % 3)
            continue;
          check (w, h, layouts[l].channels, layouts[l].depth,
              layouts[l].mask, radii[r][0] < 0 ? big : radii[r][0],
              radii[r][1] < 0 ? big : radii[r][1], 1 + (int) ((s + l + r) % 3),
              b ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
        }
  /* Radius 0 on both axes: a copy. */
  check (31, 7, 4, 8, 0x7, 0, 0, 3, CF_BORDER_CLAMP);
  /* Scalar loads and stores: planes off every vector alignment. */
  for (int l = 0; l < (int) (sizeof layouts / sizeof layouts[0]); l++)
    check_planes (67, 45, layouts[l].channels, layouts[l].depth,
        layouts[l].mask, 3 + l, 2 * l, 1 + l % 3,
        l % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, 0);
  /* Box sums past 32 bits: 64-bit row prefixes, 16 and 8 bits. */
  check (300, 200, 1, 16, 1, 150, 120, 2, CF_BORDER_CLAMP);
  check (301, 199, 4, 16, 0xB, 400, 90, 1, CF_BORDER_MIRROR);
  check (50, 40, 1, 8, 1, 2100, 2100, 1, CF_BORDER_MIRROR);
  check (50, 40, 2, 8, 3, 2100, 2100, 3, CF_BORDER_CLAMP);
  /* The largest boxes of 32-bit sums (count x max + count / 2 < 2^32),
   * divided in integers. */
  check (60, 50, 1, 8, 1, 2047, 2047, 1, CF_BORDER_CLAMP);
  check (300, 280, 1, 16, 1, 128, 127, 2, CF_BORDER_MIRROR);
  /* Prefix rows too large for shared memory, kept in global scratch. */
  check (8000, 5, 4, 16, 0x7, 3000, 20, 1, CF_BORDER_CLAMP);
  check (32767, 3, 4, 8, 0xF, 9000, 1, 2, CF_BORDER_MIRROR);
  /* The largest radius. */
  check (20, 10, 1, 16, 1, CF_SATBLUR_MAX_RADIUS, CF_SATBLUR_MAX_RADIUS, 1,
      CF_BORDER_MIRROR);
  check (20, 10, 3, 8, 7, CF_SATBLUR_MAX_RADIUS, 0, 2, CF_BORDER_CLAMP);
  if (!quick) {
    /* Rows of several rounds of a block (window sums in global memory),
     * tall enough that the bands are replanned for the capped number of
     * blocks that such memory allows. */
    check (4100, 600, 4, 8, 0x7, 5, 37, 1, CF_BORDER_CLAMP);
    check (4100, 300, 4, 16, 0xF, 2, 1, 2, CF_BORDER_MIRROR);
    check (5000, 400, 1, 8, 1, 12, 30, 2, CF_BORDER_MIRROR);
    check (4500, 300, 1, 16, 1, 3, 9, 1, CF_BORDER_CLAMP);
    check (3840, 2160, 1, 8, 1, 500, 500, 3, CF_BORDER_CLAMP);
    check (3840, 2160, 4, 8, 0x7, 31, 31, 1, CF_BORDER_MIRROR);
    check (3840, 2160, 1, 16, 1, 7, 200, 2, CF_BORDER_MIRROR);
    check (3840, 2160, 1, 16, 1, 500, 500, 1, CF_BORDER_CLAMP);
    check (3840, 2160, 4, 16, 0xF, 127, 127, 1, CF_BORDER_CLAMP);
  }
  cf_scratch_release (&scratch);
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
