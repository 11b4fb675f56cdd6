/* gpu suite: cf_gate_select on the GPU against the plain-C reference, bit
 * for bit, and the reference against the rule itself: every pixel whose
 * gate value lies outside [min, max] is the input's, every other one is
 * left as the filter wrote it. Awkward sizes, 1 to 4 channels, 8 and 16
 * bits, luma gates of subsampled planes (shifts 1 and 2), gates of one
 * channel and of the mean of three. One line per failing case, then the
 * verdict. */
#include "cf_test_util.h"
#include "cf_runtime.h"
#include "gate.h"

#include <stdlib.h>
#include <string.h>

static long passed, failed;
static CfStream stream;

static unsigned
get (const CfPlane * p, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) p->data + y * p->stride;
  return p->depth > 8 ? ((const unsigned short *) row)[x * p->channels + c] :
      row[x * p->channels + c];
}

/* The rule, written out: 0 when @out is what it must be. */
static long
rule_violations (const CfPlane * src, const CfPlane * filtered,
    const CfPlane * out, const CfGate * g)
{
  long bad = 0;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      double sum = 0;
      int n = 0;
      for (int c = 0; c < g->plane.channels; c++)
        if (g->mask & (1u << c)) {
          sum += get (&g->plane, x << g->x_shift, y << g->y_shift, c);
          n++;
        }
      int inside = sum / n >= g->min && sum / n <= g->max;
      for (int c = 0; c < src->channels; c++)
        bad += get (out, x, y, c) != get (inside ? filtered : src, x, y, c);
    }
  return bad;
}

static void
check (int w, int h, int channels, int depth, int gate_channels,
    unsigned mask, int xs, int ys, unsigned min, unsigned max)
{
  CfExec exec = { 1, stream, NULL };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 3);
  CfPlane filtered = cf_test_plane_new (w, h, channels, depth, 1);
  CfPlane ref = cf_test_plane_like (&src, 0);
  CfPlane luma = cf_test_plane_new (w << xs, h << ys, gate_channels, depth, 5);
  CfPlane out = cf_test_plane_like (&src, 2);
  CfGate g = { luma, mask, xs, ys, min, max };
  CfPlane dsrc = cf_test_device_upload (&src);
  CfPlane ddst = cf_test_device_upload (&filtered);
  CfPlane dluma = cf_test_device_upload (&luma);
  CfGate dg = { dluma, mask, xs, ys, min, max };
  char what[160];
  int diff = 0;
  long bad;

  /* odd luma sizes: the last chroma pixel's luma is still inside */
  if (xs && w > 1)
    luma.width = dluma.width = dg.plane.width = g.plane.width =
        ((w - 1) << xs) + 1;
  snprintf (what, sizeof what, "%dx%d c%d d%d gate c%d mask %x shift %d/%d "
      "[%u, %u]", w, h, channels, depth, gate_channels, mask, xs, ys, min,
      max);
  for (int y = 0; y < h; y++)
    memcpy ((char *) ref.data + y * ref.stride,
        (char *) filtered.data + y * filtered.stride,
        (size_t) w * channels * (depth / 8));
  CF_CHECK (cf_gate_select_ref (&src, &ref, &g) == CF_OK);
  bad = rule_violations (&src, &filtered, &ref, &g);
  if (bad)
    fprintf (stderr, "FAIL reference %s: %ld samples break the rule\n", what,
        bad);
  CF_CHECK (cf_gate_select (&exec, &dsrc, &ddst, &dg) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&ddst, &out);
  bad += cf_test_compare (&ref, &out, 0, &diff, what);
  if (bad)
    failed++;
  else
    passed++;
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  cf_test_device_free (&dluma);
  cf_test_plane_free (&src);
  cf_test_plane_free (&filtered);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&luma);
  cf_test_plane_free (&out);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {641, 67},
  {4097, 9}
  };
  int quick = getenv ("CF_TEST_QUICK") != NULL;

  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  cf_test_seed (2804);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int w = sizes[s][0], h = sizes[s][1];
    /* gray: a band in the middle, below, above, everything, nothing */
    check (w, h, 1, 8, 1, 1, 0, 0, 60, 180);
    check (w, h, 1, 8, 1, 1, 0, 0, 0, 100);
    check (w, h, 1, 16, 1, 1, 0, 0, 20000, 65535);
    check (w, h, 1, 16, 1, 1, 0, 0, 0, 65535);
    check (w, h, 1, 8, 1, 1, 0, 0, 200, 100 + 100);
    /* RGBA: the mean of R, G, B (alpha not counted); BGRx, xRGB */
    check (w, h, 4, 8, 4, 0x7, 0, 0, 90, 160);
    check (w, h, 4, 16, 4, 0xE, 0, 0, 10000, 40000);
    check (w, h, 3, 8, 3, 0x7, 0, 0, 128, 255);
    /* AYUV: luma is channel 1 of the plane itself */
    check (w, h, 4, 8, 4, 0x2, 0, 0, 16, 120);
    if (quick && s > 2)
      continue;
    /* 4:2:0 chroma (NV12's UV, I420's U) gated by luma; 4:2:2, 4:1:0 */
    check (w, h, 2, 8, 1, 1, 1, 1, 50, 200);
    check (w, h, 1, 16, 1, 1, 1, 1, 1000, 30000);
    check (w, h, 1, 8, 1, 1, 1, 0, 0, 127);
    check (w, h, 2, 16, 1, 1, 2, 2, 30000, 60000);
  }
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
