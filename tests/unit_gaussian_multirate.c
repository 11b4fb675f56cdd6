/* unit suite: the Gaussian's multi-rate path (its plain-C twin, which the
 * kernels match within 1 LSB, kernel_gaussian.c) against the direct
 * truncated Gaussian (gaussian_accuracy.h), on noise, full-scale blocks
 * and natural-looking frames, 8 and 16 bits, clamp and mirror, sigmas from
 * the crossover to the largest. Then the plans and the automatic choice. */
#include "cf_test_util.h"
#include "gaussian.h"
#include "gaussian_paths.h"
#include "gaussian_accuracy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static CfAccuracy acc;

static void
check (int w, int h, int channels, int depth, double sx, double sy,
    CfBorder border, CfTestFrame kind)
{
  cf_gaussian_accuracy (&acc, CF_GAUSSIAN_MULTIRATE, w, h, channels, depth,
      sx, sy, border, kind);
}

int
main (void)
{
  static const double sigmas[] = { 5.4, 7.0, 10.0, 20.0, 50.0, 100.0 };
  CfGaussianParams p = { 0 };

  static const CfTestFrame kinds[] = { CF_FRAME_NOISE, CF_FRAME_BLOCKS,
    CF_FRAME_NATURAL
  };

  cf_test_seed (25);
  cf_gaussian_accuracy_sweep (&acc, CF_GAUSSIAN_MULTIRATE, sigmas,
      sizeof sigmas / sizeof sigmas[0], kinds, 3);
  /* Anisotropic, 4 channels with alpha, a small sigma on one axis (k = 1
   * there: the direct filter on that axis). */
  check (1400, 90, 4, 8, 30.0, 4.0, CF_BORDER_MIRROR, 2);
  check (200, 1300, 1, 16, 5.0, 60.0, CF_BORDER_CLAMP, 1);
  check (1400, 90, 1, 8, 100.0, 12.0, CF_BORDER_CLAMP, 0);
  /* NV12's chroma: two channels. */
  check (331, 173, 2, 8, 50.0, 7.0, CF_BORDER_MIRROR, 2);
  /* Tiny planes: the grid reaches over the border many times. */
  check (5, 3, 1, 8, 20.0, 20.0, CF_BORDER_MIRROR, 0);
  check (1, 1, 1, 16, 50.0, 50.0, CF_BORDER_CLAMP, 0);
  check (7, 3, 2, 16, 100.0, 3.0, CF_BORDER_MIRROR, 1);
  printf ("worst: %d LSB on 8 bits, %d on 16 bits\n", acc.worst[0],
      acc.worst[1]);

  /* Every default radius the element makes fits (the kernels' limits on
   * taps and on a's taps a phase included); k grows with sigma. */
  for (int i = 1; i <= 200; i++) {
    CfGaussMultirate plan;
    double sigma = i * 0.5;
    CF_CHECK (cf_gm_plan (sigma, cf_gaussian_default_radius (sigma), &plan));
    CF_CHECK (plan.residual <= CF_GM_MAX_RESIDUAL);
    CF_CHECK (sigma < 5.0 || plan.factor >= 2);
    CF_CHECK (sigma < 100.0 || plan.factor >= 40);
  }
  /* So does any radius from 3 sigma down to the crossover's. */
  for (int i = 16; i <= 200; i += 3)
    for (int radius = CF_GM_MIN_RADIUS; radius <= 3 * i / 2; radius += 7) {
      CfGaussMultirate plan;
      CF_CHECK (cf_gm_plan (i * 0.5, radius, &plan));
    }

  /* The automatic choice: not below the crossover (CF_GM_MIN_RADIUS) nor
   * where the fit is poor (a radius far from 3 sigma), multi-rate above. */
  p.sigma_x = p.sigma_y = 7.0;
  p.radius_x = p.radius_y = 21;
  CF_CHECK (cf_gaussian_uses_multirate (&p));
  p.radius_x = p.radius_y = 18;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  p.radius_x = p.radius_y = CF_GM_MIN_RADIUS - 1;
  p.sigma_x = p.sigma_y = p.radius_x / 3.0;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  p.radius_x = p.radius_y = CF_GM_MIN_RADIUS;
  p.sigma_x = p.sigma_y = p.radius_x / 3.0;
  CF_CHECK (cf_gaussian_uses_multirate (&p));
  p.sigma_x = p.sigma_y = 20.0;
  p.radius_x = p.radius_y = 60;
  CF_CHECK (cf_gaussian_uses_multirate (&p));
  p.sigma_x = 2.0;
  p.radius_x = 300;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  p.sigma_x = 100.0;
  p.radius_x = CF_GM_MIN_RADIUS;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  return cf_test_finish (acc.passed, acc.failed);
}
