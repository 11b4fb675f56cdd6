/* Unit test (no GPU): the float arithmetic of the variable box blur that
 * the GPU kernels and the reference share (cuda/satvar_shape.h).
 *  - radii: at every strength a map of 8 or 16 bits gives, for radii up
 *    to CF_SATVAR_MAX_RADIUS, a box never passes ceil (radius), the table's
 *    margin (the next box, ax + 1, only where its fraction is not 0), and
 *    full strength is the radius itself;
 *  - weights: each box's weight times its count sums to 1 within a few
 *    float roundings;
 *  - blend: a constant frame (every box sum v times its count) blends to
 *    v exactly, for 8- and 16-bit samples, across radii and fractions,
 *    extreme ones included. */
#include "satvar_shape.h"
#include "cf_test_util.h"

#include <math.h>
#include <stdio.h>

static long passed, failed;

static void
verdict (int ok, const char *what, double a, double b, double c)
{
  if (ok) {
    passed++;
    return;
  }
  if (failed++ < 10)
    printf ("FAIL %s: %g %g %g\n", what, a, b, c);
}

static void
check_radii (double radius, unsigned full)
{
  CfSatVarParams p = { 0 };
  const int margin = (int) ceil (radius);

  p.radius_x = radius;
  p.radius_y = radius / 3.0;
  for (unsigned v = 0; v <= full; v += full > 255 ? 97 : 1) {
    const CfSatVarRadii r = cf_satvar_radii (cf_satvar_scaled (v, full), &p);
    const int need_x = r.ax + (r.fx != 0.0f);
    const int need_y = r.ay + (r.fy != 0.0f);
    verdict (r.fx >= 0.0f && r.fx < 1.0f && r.fy >= 0.0f && r.fy < 1.0f,
        "fraction in [0, 1)", radius, v, r.fx);
    verdict (need_x <= margin && need_y <= (int) ceil (p.radius_y),
        "box within the margin", radius, v, need_x);
  }
  const CfSatVarRadii one = cf_satvar_radii (cf_satvar_scaled (full, full),
      &p);
  verdict (one.ax + one.fx == (float) radius, "full strength", radius,
      one.ax, one.fx);
}

static void
check_blend (int ax, int ay, float fx, float fy)
{
  float k[2][2];
  double total = 0.0;
  static const unsigned values[] = { 0, 1, 127, 255, 1023, 40000, 65535 };

  cf_satvar_weights (ax, ay, fx, fy, k);
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      total += (double) k[j][i] * (2 * (ax + i) + 1) * (2 * (ay + j) + 1);
  verdict (fabs (total - 1.0) < 1e-6, "weights sum to 1", ax, ay, total);

  for (size_t n = 0; n < sizeof values / sizeof values[0]; n++) {
    const unsigned v = values[n], max = v > 255 ? 65535 : 255;
    float sum[2][2];
    for (int j = 0; j < 2; j++)
      for (int i = 0; i < 2; i++)
        sum[j][i] = (float) ((uint64_t) v * (uint64_t) (2 * (ax + i) + 1) *
            (uint64_t) (2 * (ay + j) + 1));
    const unsigned got = cf_satvar_blend (sum, k, max);
    verdict (got == v, "constant frame", ax * 10000.0 + ay, v, got);
  }
}

int
main (void)
{
  static const double radii[] = { 0.25, 1, 1.5, 4.3, 7.999, 44, 44.5,
    100.1, 255.75, 1000.3, CF_SATVAR_MAX_RADIUS
  };
  static const int whole[] = { 0, 1, 2, 5, 44, 127, 512, 1023 };
  static const float fractions[] = { 0.0f, 1e-7f, 0.25f, 0.5f, 0.999999f };

  for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++) {
    check_radii (radii[r], 255);
    check_radii (radii[r], 1023);
    check_radii (radii[r], 65535);
  }
  for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
    for (size_t j = 0; j < sizeof whole / sizeof whole[0]; j++)
      for (size_t a = 0; a < sizeof fractions / sizeof fractions[0]; a++)
        for (size_t b = 0; b < sizeof fractions / sizeof fractions[0]; b++)
          if (fractions[a] != 0.0f || fractions[b] != 0.0f)
            check_blend (whole[i], whole[j], fractions[a], fractions[b]);
  return cf_test_finish (passed, failed);
}
