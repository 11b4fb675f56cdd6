/* unit suite: the Gaussian's window path (its plain-C twin, which the
 * kernel matches within 1 LSB, kernel_gaussian.c) against the direct
 * truncated Gaussian (gaussian_accuracy.h), on noise and on
 * natural-looking frames, 8 and 16 bits, clamp and mirror, radii from the
 * crossover to the largest. The twin is the kernel's arithmetic bit for bit
 * (kernel_gaussian.c checks the kernel against it). */
#include "cf_test_util.h"
#include "gaussian.h"
#include "gaussian_paths.h"
#include "gaussian_accuracy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static CfAccuracy acc;

/* kind 0: noise, 1: natural-looking */
static void
check (int w, int h, int channels, int depth, double sx, double sy,
    CfBorder border, int kind)
{
  cf_gaussian_accuracy (&acc, CF_GAUSSIAN_WINDOW, w, h, channels, depth, sx,
      sy, border, kind ? CF_FRAME_NATURAL : CF_FRAME_NOISE);
}

int
main (void)
{
  static const double sigmas[] = { 4.0, 5.0, 10.0, 20.0, 50.0, 100.0 };
  CfGaussianParams p = { 0 };

  static const CfTestFrame kinds[] = { CF_FRAME_NOISE, CF_FRAME_NATURAL };

  cf_test_seed (25);
  cf_gaussian_accuracy_sweep (&acc, CF_GAUSSIAN_WINDOW, sigmas,
      sizeof sigmas / sizeof sigmas[0], kinds, 2);
  /* Anisotropic, 4 channels with alpha, lines of several segments. */
  check (1400, 90, 4, 8, 30.0, 4.0, CF_BORDER_MIRROR, 1);
  check (200, 1300, 1, 16, 5.0, 60.0, CF_BORDER_CLAMP, 1);
  check (1400, 90, 1, 8, 100.0, 12.0, CF_BORDER_CLAMP, 0);
  /* NV12's chroma: two channels. */
  check (331, 173, 2, 8, 50.0, 7.0, CF_BORDER_MIRROR, 1);
  /* Tiny planes: the window runs over the border many times. */
  check (5, 3, 1, 8, 20.0, 20.0, CF_BORDER_MIRROR, 0);
  check (1, 1, 1, 16, 50.0, 50.0, CF_BORDER_CLAMP, 0);
  printf ("worst: %d LSB on 8 bits, %d on 16 bits\n", acc.worst[0],
      acc.worst[1]);

  /* 8-bit planes take 3 cosines (a step moves by at most 0.26 LSB per
   * axis), 16-bit ones 4. */
  for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
    CfGaussWindow plan;
    int r = cf_gaussian_default_radius (sigmas[g]);
    cf_gw_plan (sigmas[g], r, 8, &plan);
    CF_CHECK (plan.terms == 3 && plan.residual <= 1.0 / 255 / 4);
    cf_gw_plan (sigmas[g], r, 16, &plan);
    CF_CHECK (plan.terms == 4 && plan.residual <= 1e-4);
  }

  /* The automatic choice: direct below the crossover and where the fit is
   * poor (a radius far above 3 sigma); from the crossover the multi-rate
   * path (CF_GM_MIN_RADIUS), the window where that path's fit is poor (a
   * radius well below 3 sigma). */
  p.sigma_x = p.sigma_y = 2.0;
  p.radius_x = p.radius_y = 6;
  CF_CHECK (!cf_gaussian_uses_window (&p, 1));
  p.sigma_x = p.sigma_y = 7.0;
  p.radius_x = p.radius_y = 21;
  CF_CHECK (!cf_gaussian_uses_window (&p, 1));
  CF_CHECK (cf_gaussian_uses_multirate (&p));
  p.radius_x = p.radius_y = 18;
  CF_CHECK (cf_gaussian_uses_window (&p, 1));
  p.sigma_x = p.sigma_y = 20.0;
  p.radius_x = p.radius_y = 60;
  CF_CHECK (!cf_gaussian_uses_window (&p, 1));
  CF_CHECK (cf_gaussian_uses_multirate (&p));
  p.sigma_x = 2.0;
  p.radius_x = 300;
  CF_CHECK (!cf_gaussian_uses_window (&p, 1));
  return cf_test_finish (acc.passed, acc.failed);
}
