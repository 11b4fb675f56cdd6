/* Unit test (no GPU): the temporal filter's rounding does not split two
 * runs apart. Two persistence recursions of the plain-C reference over the
 * same noisy still sequence, one of whose previous outputs is moved by a
 * level at some samples once (as a 1-LSB step of another backend would
 * move it), stay within that level frame after frame: the dither
 * (cuda/temporal_math.h) is the same for both, so the step s d + the same
 * dither rounds at most d apart. With a dither of their own each (the
 * previous output hashed in) the gap grew by a level a frame toward
 * 1 / (1 - s). 8- and 16-bit samples, strengths 0.8 to 0.99. */
#include "temporal.h"
#include "cf_plane_access.h"
#include "cf_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 96
#define H 64
#define FRAMES 60

/* @base with noise of about @amp levels either way, new every call. */
static void
noisy (const CfPlane * base, const CfPlane * out, int amp, unsigned max)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int v =
          (int) cf_get_sample (base, x, y,
          0) + (int) (cf_test_rand () % (2 * amp + 1))
          - amp;

      cf_put_sample (out, x, y, 0,
          v < 0 ? 0 : ((unsigned) v > max ? max : (unsigned) v));
    }
}

static int
max_diff (const CfPlane * a, const CfPlane * b)
{
  int worst = 0;

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int d =
          abs ((int) cf_get_sample (a, x, y, 0) - (int) cf_get_sample (b, x, y,
              0));

      worst = d > worst ? d : worst;
    }
  return worst;
}

/* One case: FRAMES frames, run b's history moved by a level at one sample
 * in 50 after frame 5; returns the largest gap after that. */
static int
run (int depth, double strength)
{
  unsigned max = depth > 8 ? 65535 : 255;
  CfPlane base = cf_test_plane_new (W, H, 1, depth, 0);
  CfPlane cur = cf_test_plane_like (&base, 0);
  CfPlane out[2][2], none = { 0 };
  CfTemporalParams p = { 0 };
  int worst = 0;

  p.mode = CF_TEMPORAL_PERSISTENCE;
  p.strength = strength;
  p.channel_mask = p.motion_mask = 1;
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 2; k++)
      out[r][k] = cf_test_plane_like (&base, 0);
  noisy (&base, &out[0][0], (int) (max / 50), max);
  memcpy (out[1][0].data, out[0][0].data, out[0][0].stride * H);
  for (int k = 1; k < FRAMES; k++) {
    const CfPlane *prev[2] = { &out[0][(k - 1) % 2], &out[1][(k - 1) % 2] };

    noisy (&base, &cur, (int) (max / 50), max);
    if (k == 5)
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          if (cf_test_rand () % 50 == 0) {
            unsigned v = cf_get_sample (prev[1], x, y, 0);

            cf_put_sample (prev[1], x, y, 0, v == max ? v - 1 : v + 1);
          }
    p.frame = (unsigned) k;
    for (int r = 0; r < 2; r++)
      CF_CHECK (cf_temporal_ref (&cur, prev[r], &out[r][k % 2], &none,
              &p) == CF_OK);
    if (k >= 5) {
      int d = max_diff (&out[0][k % 2], &out[1][k % 2]);

      worst = d > worst ? d : worst;
    }
  }
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 2; k++)
      cf_test_plane_free (&out[r][k]);
  cf_test_plane_free (&cur);
  cf_test_plane_free (&base);
  return worst;
}

int
main (void)
{
  static const double strengths[] = { 0.8, 0.9, 0.95, 0.99 };
  long passed = 0, failed = 0;

  cf_test_seed (20261128);
  for (int depth = 8; depth <= 16; depth += 8)
    for (unsigned i = 0; i < sizeof strengths / sizeof strengths[0]; i++) {
      int d = run (depth, strengths[i]);

      if (d <= 1) {
        passed++;
      } else {
        failed++;
        printf ("FAIL %d-bit strength %.2f: the runs drifted %d apart\n",
            depth, strengths[i], d);
      }
    }
  return cf_test_finish (passed, failed);
}
