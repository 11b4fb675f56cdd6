/* Plain-C reference box blur: simple enough to trust by reading. Each pass
 * slides a window of 2 rx + 1 border-mapped samples along every row, then a
 * window of 2 ry + 1 row sums down every column; it shares no code with the
 * GPU's summed-area tables but the rounding rule. */
#include "satblur.h"
#include "cf_border.h"
#include "cf_plane_access.h"

#include <math.h>
#include <stdlib.h>

double
cf_satblur_sigma (int radius, int passes)
{
  double w = 2.0 * radius + 1.0;
  return sqrt (passes * (w * w - 1.0) / 12.0);
}

CfStatus
cf_satblur_check (const CfPlane * src, const CfPlane * dst,
    const CfSatBlurParams * p)
{
  CfStatus st = cf_planes_check (src, dst);
  if (st != CF_OK)
    return st;
  if (p->radius_x < 0 || p->radius_x > CF_SATBLUR_MAX_RADIUS
      || p->radius_y < 0 || p->radius_y > CF_SATBLUR_MAX_RADIUS
      || p->passes < 1 || p->passes > CF_SATBLUR_MAX_PASSES
      || (p->border != CF_BORDER_CLAMP && p->border != CF_BORDER_MIRROR))
    return CF_ERROR_INVALID;
  return CF_OK;
}

/* One pass on channel c: in -> out, sums in `rows` (w x h). */
static void
box_pass (const CfPlane * in, const CfPlane * out, int c,
    const CfSatBlurParams * p, uint64_t * rows, uint64_t * cols)
{
  int w = in->width, h = in->height, rx = p->radius_x, ry = p->radius_y;
  uint64_t count = (uint64_t) (2 * rx + 1) * (uint64_t) (2 * ry + 1);

  for (int y = 0; y < h; y++) {
    uint64_t s = 0;
    for (int k = -rx; k <= rx; k++)
      s += cf_get_sample (in, cf_border_index (k, w, p->border), y, c);
    for (int x = 0; x < w; x++) {
      rows[(size_t) y * w + x] = s;
      s += cf_get_sample (in, cf_border_index (x + rx + 1, w, p->border), y, c);
      s -= cf_get_sample (in, cf_border_index (x - rx, w, p->border), y, c);
    }
  }
  for (int x = 0; x < w; x++) {
    cols[x] = 0;
    for (int k = -ry; k <= ry; k++)
      cols[x] += rows[(size_t) cf_border_index (k, h, p->border) * w + x];
  }
  for (int y = 0; y < h; y++) {
    const uint64_t *enter = rows +
        (size_t) cf_border_index (y + ry + 1, h, p->border) * w;
    const uint64_t *leave = rows +
        (size_t) cf_border_index (y - ry, h, p->border) * w;
    for (int x = 0; x < w; x++) {
      /* Round half up, in integers. */
      cf_put_sample (out, x, y, c, (unsigned) ((2 * cols[x] + count) /
              (2 * count)));
      cols[x] += enter[x] - leave[x];
    }
  }
}

CfStatus
cf_satblur_ref (const CfPlane * src, const CfPlane * dst,
    const CfSatBlurParams * p)
{
  CfStatus st = cf_satblur_check (src, dst, p);
  if (st != CF_OK)
    return st;

  int w = src->width, h = src->height;
  CfPlane tmp[2] = { *src, *src };
  tmp[0].data = tmp[1].data = NULL;
  uint64_t *rows = malloc (sizeof (uint64_t) * ((size_t) w * h + w));
  if (!rows)
    return CF_ERROR_OUT_OF_MEMORY;
  /* Intermediate passes: compact planes of the same layout. */
  for (int i = 0; i < 2 && i < p->passes - 1; i++) {
    tmp[i].stride = (size_t) w * src->channels * cf_plane_bytes_per_sample (src);
    tmp[i].data = malloc (tmp[i].stride * h);
    if (!tmp[i].data)
      st = CF_ERROR_OUT_OF_MEMORY;
  }

  for (int c = 0; c < src->channels && st == CF_OK; c++) {
    if (!(p->channel_mask & (1u << c)))
      continue;
    const CfPlane *in = src;
    for (int pass = 0; pass < p->passes; pass++) {
      const CfPlane *out = pass == p->passes - 1 ? dst : &tmp[pass & 1];
      box_pass (in, out, c, p, rows, rows + (size_t) w * h);
      in = out;
    }
  }
  if (st == CF_OK)
    cf_copy_unmasked (src, dst, p->channel_mask);
  free (tmp[0].data);
  free (tmp[1].data);
  free (rows);
  return st;
}
