/* unit suite: the Gaussian's multi-rate path (its plain-C twin, which the
 * kernels match within 1 LSB, kernel_gaussian.c) against the direct
 * truncated Gaussian, on noise, full-scale blocks and natural-looking
 * frames, 8 and 16 bits, clamp and mirror, sigmas from the crossover to
 * the largest: max abs error at most 1 LSB on 8 bits, 0.1% of the range
 * on 16. Prints every case's max error (the figures in
 * docs/cudagaussianblur.md). Then the plans and the automatic choice. */
#include "cf_test_util.h"
#include "gaussian.h"
#include "gaussian_paths.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static long passed, failed;
static int worst[2];

/* Full-scale squares: the edges where the truncation shows most. */
static void
blocks (CfPlane * p)
{
  unsigned max = cf_plane_max (p);
  for (int y = 0; y < p->height; y++) {
    unsigned char *row = (unsigned char *) p->data + (size_t) y * p->stride;
    for (int x = 0; x < p->width * p->channels; x++) {
      unsigned v = ((x / p->channels) / 97 + y / 61) % 2 ? max : 0;
      if (p->depth > 8)
        ((unsigned short *) row)[x] = (unsigned short) v;
      else
        row[x] = (unsigned char) v;
    }
  }
}

static const char *const kinds[] = { "noise", "blocks", "natural" };

static void
check (int w, int h, int channels, int depth, double sx, double sy,
    CfBorder border, int kind)
{
  CfGaussianParams p = { sx, sy, cf_gaussian_default_radius (sx),
    cf_gaussian_default_radius (sy), 0, border,
    channels == 4 ? 7 : CF_ALL_CHANNELS (channels), 0.0,
    CF_GAUSSIAN_MULTIRATE
  };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 3);
  CfPlane direct = cf_test_plane_like (&src, 0), multirate =
      cf_test_plane_like (&src, 0);
  int tol = depth > 8 ? 65 : 1, max_diff;
  char what[160];

  if (kind == 1)
    blocks (&src);
  else if (kind == 2)
    cf_test_plane_natural (&src);
  snprintf (what, sizeof what, "%s %dx%d c%d d%d sigma %g/%g r %d/%d %s",
      kinds[kind], w, h, channels, depth, sx, sy, p.radius_x, p.radius_y,
      border == CF_BORDER_MIRROR ? "mirror" : "clamp");
  CF_CHECK (cf_gaussian_blur_direct_ref (&src, &direct, &p) == CF_OK);
  CF_CHECK (cf_gaussian_blur_ref (&src, &multirate, &p) == CF_OK);
  long bad = cf_test_compare (&multirate, &direct, tol, &max_diff, what);
  printf ("%s: max error %d%s\n", what, max_diff, bad ? " FAIL" : "");
  if (max_diff > worst[depth > 8])
    worst[depth > 8] = max_diff;
  if (bad)
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&direct);
  cf_test_plane_free (&multirate);
}

int
main (void)
{
  static const double sigmas[] = { 5.4, 7.0, 10.0, 20.0, 50.0, 100.0 };
  CfGaussianParams p = { 0 };

  cf_test_seed (25);
  for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++)
    for (int kind = 0; kind < 3; kind++)
      for (int depth = 8; depth <= 16; depth += 8)
        check (g % 2 ? 700 : 523, g % 2 ? 331 : 517, 1, depth, sigmas[g],
            sigmas[g], (g + kind) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
            kind);
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
  printf ("worst: %d LSB on 8 bits, %d on 16 bits\n", worst[0], worst[1]);

  /* Every default radius the element makes fits; k grows with sigma. */
  for (int i = 1; i <= 200; i++) {
    CfGaussMultirate plan;
    double sigma = i * 0.5;
    CF_CHECK (cf_gm_plan (sigma, cf_gaussian_default_radius (sigma), &plan));
    CF_CHECK (plan.residual <= CF_GM_MAX_RESIDUAL);
    CF_CHECK (sigma < 5.0 || plan.factor >= 2);
    CF_CHECK (sigma < 100.0 || plan.factor >= 40);
  }

  /* The automatic choice: not below the crossover (radius 30) nor where
   * the fit is poor (a radius far from 3 sigma), multi-rate above. */
  p.sigma_x = p.sigma_y = 7.0;
  p.radius_x = p.radius_y = 21;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  p.sigma_x = p.sigma_y = 20.0;
  p.radius_x = p.radius_y = 60;
  CF_CHECK (cf_gaussian_uses_multirate (&p));
  p.sigma_x = 2.0;
  p.radius_x = 300;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  p.sigma_x = 100.0;
  p.radius_x = 30;
  CF_CHECK (!cf_gaussian_uses_multirate (&p));
  return cf_test_finish (passed, failed);
}
