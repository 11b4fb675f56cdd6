/* cf_convolve_plan: what the GPU and the reference both run, so that they
 * differ only by float rounding. */
#include "convolve.h"

#include <math.h>
#include <string.h>

/* A full kernel of rank 1 is col (x) row: two passes of width + height
 * taps instead of one of width x height. Exact rank 1 up to float
 * rounding of the given taps (1e-6 of the largest). The row is the
 * kernel's row through its largest tap, as given (integer taps keep an
 * integer row, which 8-bit planes sum exactly), the column its ratios. */
static int
split_rank1 (const CfConvolveParams * p, double *row, double *col)
{
  int w = p->width, h = p->height, pr = 0, pc = 0;
  double max = 0.0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (fabs (p->taps[y * w + x]) > max) {
        max = fabs (p->taps[y * w + x]);
        pr = y;
        pc = x;
      }
  if (max == 0.0)
    return 0;
  for (int x = 0; x < w; x++)
    row[x] = p->taps[pr * w + x];
  for (int y = 0; y < h; y++)
    col[y] = p->taps[y * w + pc] / (double) p->taps[pr * w + pc];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (fabs (p->taps[y * w + x] - col[y] * row[x]) > 1e-6 * max)
        return 0;
  return 1;
}

static int
side_ok (int n)
{
  return n >= 1 && n <= CF_CONVOLVE_MAX_SIDE && (n & 1);
}

CfStatus
cf_convolve_plan (const CfConvolveParams * p, unsigned full_scale,
    CfConvolvePlan * plan)
{
  double row[CF_CONVOLVE_MAX_SIDE], col[CF_CONVOLVE_MAX_SIDE], sum = 0.0;
  int w = p->width, h = p->height, separable = p->separable;

  if (!side_ok (w) || !side_ok (h) || !isfinite (p->divisor)
      || !isfinite (p->offset))
    return CF_ERROR_INVALID;
  memset (plan, 0, sizeof *plan);
  if (separable) {
    for (int x = 0; x < w; x++)
      row[x] = p->row[x];
    for (int y = 0; y < h; y++)
      col[y] = p->col[y];
  } else {
    separable = split_rank1 (p, row, col);
  }
  if (separable) {
    double sr = 0.0, sc = 0.0;
    for (int x = 0; x < w; x++)
      sr += row[x];
    for (int y = 0; y < h; y++)
      sc += col[y];
    sum = sr * sc;
  } else {
    for (int i = 0; i < w * h; i++)
      sum += p->taps[i];
  }
  double div = p->divisor != 0.0 ? p->divisor : (sum != 0.0 ? sum : 1.0);

  plan->width = w;
  plan->height = h;
  plan->separable = separable;
  if (separable) {
    for (int x = 0; x < w; x++)
      plan->row[x] = (float) row[x];
    for (int y = 0; y < h; y++)
      plan->col[y] = (float) (col[y] / div);
  } else {
    for (int i = 0; i < w * h; i++)
      plan->taps[i] = (float) (p->taps[i] / div);
  }
  plan->offset = (float) (p->offset * full_scale);
  plan->absolute = p->absolute;
  plan->divisor = div;
  return CF_OK;
}

int
cf_convolve_is_identity (const CfConvolveParams * p)
{
  CfConvolvePlan plan;

  if (cf_convolve_plan (p, 255, &plan) != CF_OK || plan.offset != 0.0f)
    return 0;
  for (int y = 0; y < plan.height; y++)
    for (int x = 0; x < plan.width; x++) {
      float tap = plan.separable ? plan.row[x] * plan.col[y] :
          plan.taps[y * plan.width + x];
      int centre = x == plan.width / 2 && y == plan.height / 2;
      if (tap != (centre ? 1.0f : 0.0f))
        return 0;
    }
  return 1;
}
