/* See gaussian_accuracy.h. */
#include "gaussian_accuracy.h"
#include "cf_test_util.h"

#include <stdio.h>
#include <stdlib.h>

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

void
cf_gaussian_accuracy (CfAccuracy * acc, CfGaussianPath path, int w, int h,
    int channels, int depth, double sx, double sy, CfBorder border,
    CfTestFrame kind)
{
  static const char *const kinds[] = { "noise", "blocks", "natural" };
  CfGaussianParams p = { sx, sy, cf_gaussian_default_radius (sx),
    cf_gaussian_default_radius (sy), 0, border,
    channels == 4 ? 7 : CF_ALL_CHANNELS (channels), 0.0, path
  };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 3);
  CfPlane direct = cf_test_plane_like (&src, 0), fast =
      cf_test_plane_like (&src, 0);
  int tol = depth > 8 ? 65 : 1, max_diff;
  char what[160];

  if (kind == CF_FRAME_BLOCKS)
    blocks (&src);
  else if (kind == CF_FRAME_NATURAL)
    cf_test_plane_natural (&src);
  snprintf (what, sizeof what, "%s %dx%d c%d d%d sigma %g/%g r %d/%d %s",
      kinds[kind], w, h, channels, depth, sx, sy, p.radius_x, p.radius_y,
      border == CF_BORDER_MIRROR ? "mirror" : "clamp");
  CF_CHECK (cf_gaussian_blur_direct_ref (&src, &direct, &p) == CF_OK);
  CF_CHECK (cf_gaussian_blur_ref (&src, &fast, &p) == CF_OK);
  long bad = cf_test_compare (&fast, &direct, tol, &max_diff, what);
  printf ("%s: max error %d%s\n", what, max_diff, bad ? " FAIL" : "");
  if (max_diff > acc->worst[depth > 8])
    acc->worst[depth > 8] = max_diff;
  if (bad)
    acc->failed++;
  else
    acc->passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&direct);
  cf_test_plane_free (&fast);
}

void
cf_gaussian_accuracy_sweep (CfAccuracy * acc, CfGaussianPath path,
    const double *sigmas, size_t n_sigmas, const CfTestFrame * kinds,
    int n_kinds)
{
  for (size_t g = 0; g < n_sigmas; g++)
    for (int k = 0; k < n_kinds; k++)
      for (int depth = 8; depth <= 16; depth += 8)
        cf_gaussian_accuracy (acc, path, g % 2 ? 700 : 523, g % 2 ? 331 : 517,
            1, depth, sigmas[g], sigmas[g], (g + k) % 2 ? CF_BORDER_MIRROR :
            CF_BORDER_CLAMP, kinds[k]);
}
