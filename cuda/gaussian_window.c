/* The Gaussian's window path: the fit (shared with the kernel) and the
 * plain-C twin of the kernel, the same steps (cf_gw_step) in the kernel's
 * pass order with its 16-bit intermediate. */
#include "gaussian_paths.h"
#include "cf_plane_access.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NB (CF_GW_TERMS + 1)

/* Solves the n x n system a x = b (partial pivoting); x in b. */
static void
solve (int n, double a[NB][NB], double *b)
{
  for (int i = 0; i < n; i++) {
    int p = i;
    for (int j = i + 1; j < n; j++)
      if (fabs (a[j][i]) > fabs (a[p][i]))
        p = j;
    for (int k = 0; k < n; k++) {
      double t = a[i][k];
      a[i][k] = a[p][k];
      a[p][k] = t;
    }
    double t = b[i];
    b[i] = b[p];
    b[p] = t;
    for (int j = i + 1; j < n; j++) {
      double f = a[j][i] / a[i][i];
      for (int k = i; k < n; k++)
        a[j][k] -= f * a[i][k];
      b[j] -= f * b[i];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++)
      b[i] -= a[i][k] * b[k];
    b[i] /= a[i][i];
  }
}

/* Least-squares fit of w[|n|], |n| <= r, by 1 and cos (pi k n / period),
 * k = 1..terms; returns the L1 residual, coefficients in c. The terms are
 * even: n and -n count once, twice weighted. */
static double
fit (const float *w, int r, int terms, double period, double *c)
{
  double basis[CF_GAUSSIAN_MAX_RADIUS + 1][NB];
  double a[NB][NB] = { {0} };
  int n = terms + 1;
  memset (c, 0, sizeof (double) * NB);
  for (int m = 0; m <= r; m++) {
    double twice = m ? 2.0 : 1.0;
    for (int k = 0; k < n; k++)
      basis[m][k] = cos (M_PI * k * m / period);
    for (int i = 0; i < n; i++) {
      c[i] += twice * basis[m][i] * w[m];
      for (int j = 0; j < n; j++)
        a[i][j] += twice * basis[m][i] * basis[m][j];
    }
  }
  solve (n, a, c);
  double residual = 0.0;
  for (int m = 0; m <= r; m++) {
    double f = 0.0;
    for (int k = 0; k < n; k++)
      f += c[k] * basis[m][k];
    residual += (m ? 2.0 : 1.0) * fabs (f - w[m]);
  }
  return residual;
}

static void
make_plan (double sigma, int radius, int max_terms, CfGaussWindow * plan)
{
  float w[CF_GAUSSIAN_MAX_RADIUS + 1];
  double best[NB] = { 1.0 }, best_period = 1.0;
  /* r + 1 distinct |n|: at most r cosines beside the box. */
  int terms = radius < max_terms ? radius : max_terms;

  memset (plan, 0, sizeof *plan);
  plan->radius = radius;
  plan->terms = terms;
  if (radius > 0) {
    cf_gaussian_weights (sigma, radius, w);
    plan->residual = INFINITY;
    /* The period is free: the one that fits best, from r + 1 to 1.3 (r + 1). */
    for (int i = 0; i <= 6; i++) {
      double c[NB], period = (radius + 1) * (1.0 + 0.05 * i);
      double res = fit (w, radius, terms, period, c);
      if (res < plan->residual) {
        plan->residual = res;
        memcpy (best, c, sizeof best);
        best_period = period;
      }
    }
  }
  plan->a0 = (float) best[0];
  for (int k = 0; k < CF_GW_TERMS; k++) {
    double om = M_PI * (k + 1) / best_period, phi = om * (radius + 0.5);
    double a = k < terms ? best[k + 1] : 0.0;
    plan->cr[k] = (float) cos (om);
    plan->sn[k] = (float) sin (om);
    plan->c[k] = (float) cos (phi);
    plan->s[k] = (float) sin (phi);
    plan->al[k] = (float) (a * cos (om / 2));
    plan->be[k] = (float) (-a * sin (om / 2));
  }
}

/* Fitting takes about 0.1 ms at radius 300, once a frame and plane too
 * many: each thread keeps its last few plans. */
#define CACHED 4
static void
cached_plan (double sigma, int radius, int max_terms, CfGaussWindow * plan)
{
  static __thread struct {
    double sigma;
    int max_terms;
    CfGaussWindow plan;
  } cache[CACHED];
  static __thread int used, next;

  for (int i = 0; i < used; i++)
    if (cache[i].sigma == sigma && cache[i].plan.radius == radius
        && cache[i].max_terms == max_terms) {
      *plan = cache[i].plan;
      return;
    }
  make_plan (sigma, radius, max_terms, plan);
  cache[next].sigma = sigma;
  cache[next].max_terms = max_terms;
  cache[next].plan = *plan;
  next = (next + 1) % CACHED;
  if (used < CACHED)
    used++;
}

void
cf_gw_plan (double sigma, int radius, int depth, CfGaussWindow * plan)
{
  if (depth <= 8) {
    cached_plan (sigma, radius, 3, plan);
    if (plan->residual <= CF_GW_MAX_RESIDUAL)
      return;
  }
  cached_plan (sigma, radius, CF_GW_TERMS, plan);
}

void
cf_gw_scale_output (CfGaussWindow * plan, float scale)
{
  plan->a0 *= scale;
  for (int k = 0; k < CF_GW_TERMS; k++) {
    plan->al[k] *= scale;
    plan->be[k] *= scale;
  }
}

int
cf_gaussian_uses_window (const CfGaussianParams * p, int channels)
{
  CfGaussWindow gx, gy;
  /* The filtered channels decide, so that a view with other channels
   * between the filtered ones (packed 4:2:2 luma) and the plane of those
   * samples alone take the same path. */
  unsigned filtered = p->channel_mask & CF_ALL_CHANNELS (channels);
  int min = (filtered & (filtered - 1)) ? CF_GW_MIN_RADIUS_MULTI :
      CF_GW_MIN_RADIUS;
  if (p->path != CF_GAUSSIAN_AUTO)
    return p->path == CF_GAUSSIAN_WINDOW;
  if ((p->radius_x < min && p->radius_y < min)
      || cf_gaussian_uses_multirate (p))
    return 0;
  cf_gw_plan (p->sigma_x, p->radius_x, 16, &gx);
  cf_gw_plan (p->sigma_y, p->radius_y, 16, &gy);
  return gx.residual <= CF_GW_MAX_RESIDUAL && gy.residual <= CF_GW_MAX_RESIDUAL;
}

/* One line of n samples through the window, cut into segments as the
 * kernel cuts it. */
static void
line (const CfGaussWindow * g, const float *in, int n, CfBorder border,
    float *out)
{
  int r = g->radius, seg = CF_GW_SEGMENT;
  for (int x0 = 0; x0 < n; x0 += seg) {
    int x1 = x0 + seg < n ? x0 + seg : n;
    CfGwState s = { 0 };
    for (int x = x0 - 2 * r - 1; x < x0; x++)
      cf_gw_step (&s, g, g->terms, in[cf_border_index (x + r + 1, n,
                  border)], 0.0f);
    for (int x = x0; x < x1; x++) {
      out[x] = cf_gw_value (&s, g, g->terms);
      cf_gw_step (&s, g, g->terms, in[cf_border_index (x + r + 1, n,
                  border)], in[cf_border_index (x - r, n, border)]);
    }
  }
}

/* The kernel's order: columns into a 16-bit intermediate scaled to
 * 0..65535, then rows. */
CfStatus
cf_gw_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  int w = src->width, h = src->height, n = w > h ? w : h;
  CfGaussWindow gx, gy;
  float *cols = malloc (sizeof (float) * w * h);
  float *a = malloc (sizeof (float) * n), *b = malloc (sizeof (float) * n);
  float max = (float) cf_plane_max (dst), scale = 65535.0f / max;
  CfStatus st = cols && a && b ? CF_OK : CF_ERROR_OUT_OF_MEMORY;

  cf_gw_plan (p->sigma_y, p->radius_y, src->depth, &gy);
  cf_gw_plan (p->sigma_x, p->radius_x, src->depth, &gx);
  cf_gw_scale_output (&gy, scale);
  cf_gw_scale_output (&gx, 1.0f / scale);
  for (int c = 0; st == CF_OK && c < src->channels; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    for (int x = 0; x < w; x++) {
      for (int y = 0; y < h; y++)
        a[y] = (float) cf_get_sample (src, x, y, c);
      line (&gy, a, h, p->border, b);
      for (int y = 0; y < h; y++)
        cols[(size_t) y * w + x] = (float) cf_gw_quantize (b[y]);
    }
    for (int y = 0; y < h; y++) {
      line (&gx, cols + (size_t) y * w, w, p->border, b);
      for (int x = 0; x < w; x++) {
        float v = cf_gaussian_finish ((float) cf_get_sample (src, x, y, c),
            b[x], (float) p->sharpen, (float) (p->threshold * max));
        cf_put_sample (dst, x, y, c, cf_round_clamp_to (v, (unsigned) max));
      }
    }
  }
  if (st == CF_OK)
    cf_copy_unmasked (src, dst, p->channel_mask);
  free (cols);
  free (a);
  free (b);
  return st;
}
