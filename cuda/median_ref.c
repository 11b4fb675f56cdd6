/* Plain-C reference median: gathers every window and sorts it. Each channel
 * is filtered on its own, as a w x h array of samples. */
#include "median.h"
#include "cf_border.h"
#include "cf_plane_access.h"

#include <stdlib.h>
#include <string.h>

static int
compare_samples (const void *a, const void *b)
{
  return (int) *(const uint16_t *) a - (int) *(const uint16_t *) b;
}

static uint16_t
median_of (uint16_t * v, int n)
{
  qsort (v, n, sizeof (uint16_t), compare_samples);
  return v[n / 2];
}

/* The exact median over (2 rx + 1) x (2 ry + 1) windows. */
static void
median_exact (const uint16_t * in, uint16_t * out, int w, int h,
    const CfMedianParams * p, uint16_t * win)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int n = 0;
      for (int dy = -p->radius_y; dy <= p->radius_y; dy++)
        for (int dx = -p->radius_x; dx <= p->radius_x; dx++)
          win[n++] = in[(size_t) cf_border_index (y + dy, h, p->border) * w +
              cf_border_index (x + dx, w, p->border)];
      out[(size_t) y * w + x] = median_of (win, n);
    }
}

/* The separable smoother: medians of columns of 2 ry + 1, then medians of
 * rows of 2 rx + 1 of those. */
static void
median_separable (const uint16_t * in, uint16_t * out, uint16_t * cols,
    int w, int h, const CfMedianParams * p, uint16_t * win)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int n = 0;
      for (int dy = -p->radius_y; dy <= p->radius_y; dy++)
        win[n++] = in[(size_t) cf_border_index (y + dy, h, p->border) * w + x];
      cols[(size_t) y * w + x] = median_of (win, n);
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int n = 0;
      for (int dx = -p->radius_x; dx <= p->radius_x; dx++)
        win[n++] = cols[(size_t) y * w + cf_border_index (x + dx, w,
                p->border)];
      out[(size_t) y * w + x] = median_of (win, n);
    }
}

CfStatus
cf_median_ref (const CfPlane * src, const CfPlane * dst,
    const CfMedianParams * p)
{
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (p->radius_x < 0 || p->radius_x > CF_MEDIAN_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_MEDIAN_MAX_RADIUS
      || p->iterations < 1 || p->iterations > CF_MEDIAN_MAX_ITERATIONS)
    return CF_ERROR_INVALID;

  int w = src->width, h = src->height;
  size_t n = (size_t) w * h;
  uint16_t *a = malloc (n * sizeof (uint16_t));
  uint16_t *b = malloc (n * sizeof (uint16_t));
  uint16_t *cols = malloc (n * sizeof (uint16_t));
  uint16_t *win = malloc ((size_t) (2 * p->radius_x + 1) *
      (2 * p->radius_y + 1) * sizeof (uint16_t));
  if (!a || !b || !cols || !win) {
    free (a);
    free (b);
    free (cols);
    free (win);
    return CF_ERROR_OUT_OF_MEMORY;
  }

  for (int c = 0; c < src->channels; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        a[(size_t) y * w + x] = (uint16_t) cf_get_sample (src, x, y, c);
    for (int i = 0; i < p->iterations; i++) {
      if (p->mode == CF_MEDIAN_SEPARABLE)
        median_separable (a, b, cols, w, h, p, win);
      else
        median_exact (a, b, w, h, p, win);
      uint16_t *t = a;
      a = b;
      b = t;
    }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        cf_put_sample (dst, x, y, c, a[(size_t) y * w + x]);
  }
  cf_copy_unmasked (src, dst, p->channel_mask);
  free (a);
  free (b);
  free (cols);
  free (win);
  return CF_OK;
}
