/* The Gaussian's multi-rate path (gaussian_paths.h): its plans (shared
 * with the kernels), the automatic choice, and the plain-C twin of the
 * kernels' three stages. */
#include "gaussian_paths.h"
#include "cf_plane_access.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* s1 = S1_FRACTION sigma, k = floor (s1 / S1_PER_FACTOR), reach = ceil
 * (REACH s1): measured in the fit's residual, a k of 1.25 s1 keeps the
 * decimation's own error below the truncation's; a narrower s1 follows the
 * kernel's jump at the radius more closely but needs more taps. */
#define S1_FRACTION 0.35
#define S1_PER_FACTOR 0.8
#define REACH 3.5

/* Solves g x = b for the symmetric positive definite g (n x n, Cholesky,
 * factored in place once: `factored`). */
static void
cholesky_solve (int n, double g[CF_GM_MAX_TAPS][CF_GM_MAX_TAPS], double *b,
    int factored)
{
  if (!factored)
    for (int j = 0; j < n; j++) {
      double d = g[j][j];
      for (int k = 0; k < j; k++)
        d -= g[j][k] * g[j][k];
      g[j][j] = sqrt (d);
      for (int i = j + 1; i < n; i++) {
        double s = g[i][j];
        for (int k = 0; k < j; k++)
          s -= g[i][k] * g[j][k];
        g[i][j] = s / g[j][j];
      }
    }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < i; k++)
      b[i] -= g[i][k] * b[k];
    b[i] /= g[i][i];
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++)
      b[i] -= g[k][i] * b[k];
    b[i] /= g[i][i];
  }
}

static int
make_plan (double sigma, int radius, CfGaussMultirate * g)
{
  float w[CF_GAUSSIAN_MAX_RADIUS + 1] = { 1.0f };
  double a[CF_GM_MAX_REACH + 1], gram[CF_GM_MAX_TAPS][CF_GM_MAX_TAPS];
  /* a Gaussian truncated far inside 3 sigma is fitted as the narrower one
   * it resembles (the residual then says whether that is close enough) */
  double se = fmin (sigma, radius / 3.0), s1 = S1_FRACTION * se, sum = 0.0;
  int k = (int) floor (s1 / S1_PER_FACTOR), reach;

  memset (g, 0, sizeof *g);
  if (k < 1 || radius == 0)
    k = 1;
  /* not a multiple of 4 from 8 up: the row kernel's lanes, k samples
   * apart in shared memory, then fall in distinct banks, or two in one */
  if (k >= 8 && k % 4 == 0)
    k--;
  if (k > CF_GM_MAX_FACTOR)
    return 0;
  reach = k == 1 ? 0 : (int) ceil (REACH * s1);
  if (reach > CF_GM_MAX_REACH)
    return 0;
  g->factor = k;
  g->reach = reach;
  g->first = -((reach + radius) / k);
  g->taps = (k - 1 + reach + radius) / k - g->first + 1;
  if (g->taps > CF_GM_MAX_TAPS || 2 * reach / k + 1 > CF_GM_MAX_PHASE_TAPS)
    return 0;
  if (radius > 0)
    cf_gaussian_weights (sigma, radius, w);
  for (int u = 0; u <= reach; u++) {
    a[u] = k == 1 ? 1.0 : exp (-0.5 * u * u / (s1 * s1));
    sum += u ? 2.0 * a[u] : a[u];
  }
  for (int u = 0; u <= reach; u++) {
    g->analysis[u] = (float) (a[u] / sum);
    a[u] = g->analysis[u];      /* the fit sees the floats the kernels use */
  }

  /* Basis m is a (t + (first + m) k - p): the Gram matrix is the same for
   * every phase, a's autocorrelation at lags of k. */
  const int n = g->taps;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int lag = abs (i - j) * k;
      double s = 0.0;
      for (int u = -reach; u <= reach; u++)
        if (abs (u + lag) <= reach)
          s += a[abs (u)] * a[abs (u + lag)];
      gram[i][j] = s;
    }
  for (int i = 0; i < n; i++)
    gram[i][i] *= 1.0 + 1e-12;  /* distant phases' tails: keep it definite */

  g->residual = 0.0;
  for (int p = 0; p < k; p++) {
    double h[CF_GM_MAX_TAPS], hsum = 0.0;
    /* <basis m, w>: t = u - (first + m) k + p for each tap u of a */
    for (int m = 0; m < n; m++) {
      double s = 0.0;
      for (int u = -reach; u <= reach; u++) {
        int t = u - (g->first + m) * k + p;
        if (abs (t) <= radius)
          s += a[abs (u)] * w[abs (t)];
      }
      h[m] = s;
    }
    cholesky_solve (n, gram, h, p > 0);
    for (int m = 0; m < n; m++)
      hsum += h[m];
    for (int m = 0; m < n; m++)
      g->synthesis[p][m] = (float) (h[m] / hsum);

    /* The effective kernel against w, over every t either reaches. */
    enum { SPAN = 2 * (CF_GM_MAX_TAPS * CF_GM_MAX_FACTOR + CF_GM_MAX_REACH) };
    static __thread double kern[SPAN + 1];
    const int off = SPAN / 2;
    memset (kern, 0, sizeof kern);
    for (int m = 0; m < n; m++)
      for (int u = -reach; u <= reach; u++)
        kern[off + u - (g->first + m) * k + p] +=
            (double) g->synthesis[p][m] * a[abs (u)];
    double res = 0.0;
    for (int t = -off; t <= off; t++)
      res += fabs (kern[off + t] - (abs (t) <= radius ? w[abs (t)] : 0.0));
    if (res > g->residual)
      g->residual = res;
  }
  return 1;
}

/* Fitting takes a few hundred microseconds at sigma 100, once a frame and
 * plane too many: each thread keeps its last few plans. */
#define CACHED 4
int
cf_gm_plan (double sigma, int radius, CfGaussMultirate * plan)
{
  static __thread struct {
    double sigma;
    int radius, ok;
    CfGaussMultirate plan;
  } cache[CACHED];
  static __thread int used, next;

  for (int i = 0; i < used; i++)
    if (cache[i].sigma == sigma && cache[i].radius == radius) {
      *plan = cache[i].plan;
      return cache[i].ok;
    }
  int ok = make_plan (sigma, radius, plan);
  cache[next].sigma = sigma;
  cache[next].radius = radius;
  cache[next].ok = ok;
  cache[next].plan = *plan;
  next = (next + 1) % CACHED;
  if (used < CACHED)
    used++;
  return ok;
}

int
cf_gaussian_uses_multirate (const CfGaussianParams * p)
{
  CfGaussMultirate gx, gy;
  if (p->path != CF_GAUSSIAN_AUTO && p->path != CF_GAUSSIAN_MULTIRATE)
    return 0;
  if (p->path == CF_GAUSSIAN_AUTO && p->radius_x < CF_GM_MIN_RADIUS
      && p->radius_y < CF_GM_MIN_RADIUS)
    return 0;
  return cf_gm_plan (p->sigma_x, p->radius_x, &gx)
      && cf_gm_plan (p->sigma_y, p->radius_y, &gy)
      && gx.residual <= CF_GM_MAX_RESIDUAL && gy.residual <= CF_GM_MAX_RESIDUAL;
}

/* Stage 1 on one line of n samples (stride apart): the grid samples
 * D (first) .. D (first + count - 1). */
static void
decimate (const CfGaussMultirate * g, const float *in, size_t stride, int n,
    CfBorder border, float *out, int count)
{
  for (int i = 0; i < count; i++) {
    int x = (g->first + i) * g->factor;
    float s = g->analysis[0] * in[cf_border_index (x, n, border) * stride];
    for (int u = 1; u <= g->reach; u++)
      s += g->analysis[u] * (in[cf_border_index (x + u, n, border) * stride]
          + in[cf_border_index (x - u, n, border) * stride]);
    out[i] = s;
  }
}

/* Stage 2 at position x of a line: grid samples `grid` apart. */
static float
reconstruct (const CfGaussMultirate * g, const float *grid, size_t stride,
    int x)
{
  const float *h = g->synthesis[x % g->factor];
  const float *d = grid + (size_t) (x / g->factor) * stride;
  float s = 0.0f;
  for (int m = 0; m < g->taps; m++)
    s += h[m] * d[m * stride];
  return s;
}

/* Rows decimated (H x gw), then columns (gh x gw), then columns and rows
 * reconstructed, finished and rounded. */
CfStatus
cf_gm_blur_ref (const CfPlane * src, const CfPlane * dst,
    const CfGaussianParams * p)
{
  CfGaussMultirate gx, gy;
  if (!cf_gm_plan (p->sigma_x, p->radius_x, &gx)
      || !cf_gm_plan (p->sigma_y, p->radius_y, &gy))
    return CF_ERROR_INVALID;
  const int w = src->width, h = src->height;
  const int gw = cf_gm_grid (&gx, w), gh = cf_gm_grid (&gy, h);
  const float max = (float) cf_plane_max (dst);
  float *line = malloc (sizeof (float) * w);
  float *rows = malloc (sizeof (float) * h * gw);
  float *grid = malloc (sizeof (float) * gh * gw);
  float *cols = malloc (sizeof (float) * gw);
  float *column = malloc (sizeof (float) * gh);
  CfStatus st = line && rows && grid && cols && column ? CF_OK :
      CF_ERROR_OUT_OF_MEMORY;

  for (int c = 0; st == CF_OK && c < src->channels; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++)
        line[x] = (float) cf_get_sample (src, x, y, c);
      decimate (&gx, line, 1, w, p->border, rows + (size_t) y * gw, gw);
    }
    for (int i = 0; i < gw; i++) {
      decimate (&gy, rows + i, gw, h, p->border, column, gh);
      for (int j = 0; j < gh; j++)
        grid[(size_t) j * gw + i] = column[j];
    }
    for (int y = 0; y < h; y++) {
      for (int i = 0; i < gw; i++)
        cols[i] = reconstruct (&gy, grid + i, gw, y);
      for (int x = 0; x < w; x++) {
        float v = cf_gaussian_finish ((float) cf_get_sample (src, x, y, c),
            reconstruct (&gx, cols, 1, x), (float) p->sharpen,
            (float) (p->threshold * max));
        cf_put_sample (dst, x, y, c, cf_round_clamp_to (v, (unsigned) max));
      }
    }
  }
  if (st == CF_OK)
    cf_copy_unmasked (src, dst, p->channel_mask);
  free (line);
  free (rows);
  free (grid);
  free (cols);
  free (column);
  return st;
}
