/* gpu suite: cf_gate_select on the GPU against the plain-C reference, bit
 * for bit, and the reference against the rule itself: every pixel whose
 * gate value lies outside [min, max] is the input's, every other one is
 * left as the filter wrote it. Awkward sizes, 1 to 4 channels, 8 and 16
 * bits, luma gates of subsampled planes (shifts 1 and 2), gates of one
 * channel and of the mean of three. Then the filters with a gate on
 * frames with wide gated-out areas: cudamedian's register and strip
 * kernels (they skip gated-out blocks) with the gate pass, and
 * cudabilateral (which applies the gate itself: no gate pass after it),
 * against the reference with the gate pass. Then cudabilateral's gate
 * against its own ungated output (check_fused). One line per failing
 * case, then the verdict. */
#include "cf_test_util.h"
#include "cf_runtime.h"
#include "gate.h"
#include "median.h"
#include "bilateral.h"
#include "bilateral_tuning.h"

#include <stdlib.h>
#include <string.h>

static long passed, failed;
static CfStream stream;

static unsigned
get (const CfPlane * p, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) p->data + y * p->stride;
  return p->depth > 8 ? ((const unsigned short *) row)[x * p->channels + c] :
      row[x * p->channels + c];
}

/* The rule, written out: 0 when @out is what it must be. */
static long
rule_violations (const CfPlane * src, const CfPlane * filtered,
    const CfPlane * out, const CfGate * g)
{
  long bad = 0;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      double sum = 0;
      int n = 0;
      for (int c = 0; c < g->plane.channels; c++)
        if (g->mask & (1u << c)) {
          sum += get (&g->plane, x << g->x_shift, y << g->y_shift, c);
          n++;
        }
      int inside = sum / n >= g->min && sum / n <= g->max;
      for (int c = 0; c < src->channels; c++)
        bad += get (out, x, y, c) != get (inside ? filtered : src, x, y, c);
    }
  return bad;
}

static void
check (int w, int h, int channels, int depth, int gate_channels,
    unsigned mask, int xs, int ys, unsigned min, unsigned max)
{
  CfExec exec = { 1, stream, NULL };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 3);
  CfPlane filtered = cf_test_plane_new (w, h, channels, depth, 1);
  CfPlane ref = cf_test_plane_like (&src, 0);
  CfPlane luma = cf_test_plane_new (w << xs, h << ys, gate_channels, depth, 5);
  CfPlane out = cf_test_plane_like (&src, 2);
  CfGate g = { luma, mask, xs, ys, min, max };
  CfPlane dsrc = cf_test_device_upload (&src);
  CfPlane ddst = cf_test_device_upload (&filtered);
  CfPlane dluma = cf_test_device_upload (&luma);
  CfGate dg = { dluma, mask, xs, ys, min, max };
  char what[160];
  int diff = 0;
  long bad;

  /* odd luma sizes: the last chroma pixel's luma is still inside */
  if (xs && w > 1)
    luma.width = dluma.width = dg.plane.width = g.plane.width =
        ((w - 1) << xs) + 1;
  snprintf (what, sizeof what, "%dx%d c%d d%d gate c%d mask %x shift %d/%d "
      "[%u, %u]", w, h, channels, depth, gate_channels, mask, xs, ys, min,
      max);
  for (int y = 0; y < h; y++)
    memcpy ((char *) ref.data + y * ref.stride,
        (char *) filtered.data + y * filtered.stride,
        (size_t) w * channels * (depth / 8));
  CF_CHECK (cf_gate_select_ref (&src, &ref, &g) == CF_OK);
  bad = rule_violations (&src, &filtered, &ref, &g);
  if (bad)
    fprintf (stderr, "FAIL reference %s: %ld samples break the rule\n", what,
        bad);
  CF_CHECK (cf_gate_select (&exec, &dsrc, &ddst, &dg) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&ddst, &out);
  bad += cf_test_compare (&ref, &out, 0, &diff, what);
  if (bad)
    failed++;
  else
    passed++;
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  cf_test_device_free (&dluma);
  cf_test_plane_free (&src);
  cf_test_plane_free (&filtered);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&luma);
  cf_test_plane_free (&out);
}

/* A plane with a dark left part and bright stripes, so that whole blocks
 * are gated out and others are mixed. */
static CfPlane
dark_and_bright (int w, int h, int channels, int depth)
{
  CfPlane p = cf_test_plane_new (w, h, channels, depth, 2);
  unsigned full = depth > 8 ? 65535 : 255;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w * channels; x++) {
      unsigned v = cf_test_rand () % (full / 4);
      if (x / channels > w / 3 && (y / 5) % 3 != 0)
        v += full / 2;
      if (depth > 8)
        ((unsigned short *) ((char *) p.data + y * p.stride))[x] = v;
      else
        ((unsigned char *) p.data + y * p.stride)[x] = v;
    }
  return p;
}

typedef CfStatus (*GatedFilter) (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const void *params, const CfGate * gate);

static CfStatus
median_gated (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params, const CfGate * gate)
{
  CfMedianParams p = *(const CfMedianParams *) params;
  p.gate = gate;
  return cf_median (exec, src, dst, &p);
}

static CfStatus
bilateral_gated (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const void *params, const CfGate * gate)
{
  CfBilateralParams p = *(const CfBilateralParams *) params;
  p.gate = gate;
  return cf_bilateral (exec, src, dst, &p);
}

/* @filter with a gate on the plane's own values (channels @mask), then
 * the gate pass unless the filter applies the gate itself (@self_gated),
 * on the GPU, against the same on the CPU, within @tol. */
static void
check_filter (const char *name, GatedFilter filter, const void *params,
    int w, int h, int channels, int depth, unsigned mask, unsigned min,
    unsigned max, int tol, int self_gated)
{
  static CfScratch scratch;
  CfExec exec = { 1, stream, &scratch }, cpu = { 0, NULL, NULL };
  CfPlane src = dark_and_bright (w, h, channels, depth);
  CfPlane ref = cf_test_plane_like (&src, 0);
  CfPlane out = cf_test_plane_like (&src, 1);
  CfPlane dsrc = cf_test_device_upload (&src);
  CfPlane ddst = cf_test_device_like (&src);
  CfGate g = { src, mask, 0, 0, min, max }, dg = { dsrc, mask, 0, 0, min, max };
  char what[160];
  int diff = 0;

  snprintf (what, sizeof what, "%s %dx%d c%d d%d gate mask %x [%u, %u]",
      name, w, h, channels, depth, mask, min, max);
  CF_CHECK (filter (&cpu, &src, &ref, params, &g) == CF_OK);
  if (!self_gated)
    CF_CHECK (cf_gate_select_ref (&src, &ref, &g) == CF_OK);
  CF_CHECK (filter (&exec, &dsrc, &ddst, params, &dg) == CF_OK);
  if (!self_gated)
    CF_CHECK (cf_gate_select (&exec, &dsrc, &ddst, &dg) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&ddst, &out);
  if (cf_test_compare (&ref, &out, tol, &diff, what))
    failed++;
  else
    passed++;
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&out);
}

static void
check_filters (int w, int h, int quick)
{
  static const struct { int channels; unsigned mask; } layouts[] = {
    {1, 1}, {4, 0x7}, {2, 0x1}
  };
  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (int depth = 8; depth <= 16; depth += 8) {
      unsigned full = depth > 8 ? 65535 : 255;
      unsigned fmask = CF_ALL_CHANNELS (layouts[l].channels);
      int ch = layouts[l].channels;
      for (int r = 1; r <= (quick ? 2 : 3); r++)
        for (int it = 1; it <= 2; it++) {
          CfMedianParams m = { r, r, CF_MEDIAN_EXACT, it,
            (r + it) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, fmask,
            CF_MEDIAN_KERNEL_AUTO, NULL
          };
          check_filter ("median", median_gated, &m, w, h, ch, depth,
              layouts[l].mask, 0, full / 3, 0, 0);
          check_filter ("median", median_gated, &m, w, h, ch, depth,
              layouts[l].mask, full / 3, full, 0, 0);
        }
      /* a 3 x 9 window: the strip kernel (AUTO), then the histogram */
      CfMedianParams hm = { 1, 4, CF_MEDIAN_EXACT, 1, CF_BORDER_MIRROR, fmask,
        CF_MEDIAN_KERNEL_AUTO, NULL
      };
      check_filter ("median 3x9", median_gated, &hm, w, h, ch, depth,
          layouts[l].mask, 0, full / 3, 0, 0);
      hm.kernel = CF_MEDIAN_KERNEL_HISTOGRAM;
      check_filter ("median 3x9 histogram", median_gated, &hm, w, h, ch,
          depth, layouts[l].mask, 0, full / 3, 0, 0);
      CfBilateralParams b = { 2.0, 2.0, 4, 4, 0.1, CF_BILATERAL_EXACT,
        CF_BILATERAL_PER_CHANNEL, CF_BORDER_CLAMP, fmask, NULL
      };
      check_filter ("bilateral", bilateral_gated, &b, w, h, ch, depth,
          layouts[l].mask, 0, full / 3, 1, 1);
      b.radius_x = 0;
      b.border = CF_BORDER_MIRROR;
      check_filter ("bilateral", bilateral_gated, &b, w, h, ch, depth,
          layouts[l].mask, full / 4, full, 1, 1);
    }
}

/* cudabilateral's gate (cf_bilateral applies CfBilateralParams.gate
 * itself; the exact kernel filters only the pixels in range): every
 * gated-out sample is the input's and every other one the GPU's ungated
 * filter's, bit for bit (the rule, against the ungated output), and the
 * whole is the reference then the reference gate pass, within 1. Gates:
 * none in range, all, a scattered 30% (a noise gate plane), coherent
 * areas (the frame's own dark part and stripes), flat areas (a constant
 * left half, in range), a luma gate plane of twice the size (shift 1). */
enum
{ FUSED_NONE, FUSED_ALL, FUSED_SCATTERED, FUSED_COHERENT, FUSED_FLAT,
  FUSED_SUBSAMPLED, FUSED_KINDS
};

static void
check_fused (int w, int h, int channels, int depth, unsigned gmask,
    int kind, const CfBilateralParams * params, const char *name)
{
  static const char *kinds[] = { "none", "all", "scattered 30%", "coherent",
    "flat", "luma x2"
  };
  static CfScratch scratch;
  CfExec exec = { 1, stream, &scratch }, cpu = { 0, NULL, NULL };
  unsigned full = depth > 8 ? 65535 : 255;
  CfPlane src = kind == FUSED_COHERENT ? dark_and_bright (w, h, channels,
      depth) : cf_test_plane_new (w, h, channels, depth, 2);
  CfPlane gp = { 0 };
  CfGate g = { src, gmask, 0, 0, 0, full };
  int own = 1;

  if (kind == FUSED_FLAT)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w / 2 * channels; x++) {
        if (depth > 8)
          ((unsigned short *) ((char *) src.data + y * src.stride))[x] =
              full / 5;
        else
          ((unsigned char *) src.data + y * src.stride)[x] = full / 5;
      }
  switch (kind) {
    case FUSED_NONE:
      gp = cf_test_plane_new (w, h, 1, depth, 0);
      for (int y = 0; y < h; y++)
        memset ((char *) gp.data + y * gp.stride, 0, gp.stride);
      g.min = 1;
      break;
    case FUSED_SCATTERED:
      gp = cf_test_plane_new (w, h, 1, depth, 1);
      g.max = full * 3 / 10;
      break;
    case FUSED_COHERENT:
      g.max = full / 3;
      break;
    case FUSED_FLAT:
      g.max = full / 2;
      break;
    case FUSED_SUBSAMPLED:
      gp = cf_test_plane_new (2 * w, 2 * h, 1, depth, 3);
      g.x_shift = g.y_shift = 1;
      g.min = full / 2;
      break;
  }
  if (gp.data) {
    own = 0;
    g.plane = gp;
    g.mask = 1;
  }

  CfPlane ref = cf_test_plane_like (&src, 0);
  CfPlane ungated = cf_test_plane_like (&src, 1);
  CfPlane out = cf_test_plane_like (&src, 2);
  CfPlane dsrc = cf_test_device_upload (&src);
  CfPlane dgp = own ? dsrc : cf_test_device_upload (&gp);
  CfPlane dungated = cf_test_device_like (&src);
  CfPlane dout = cf_test_device_like (&src);
  CfGate dg = g;
  CfBilateralParams p = *params;
  char what[200];
  int diff = 0;
  long bad;

  dg.plane = dgp;
  snprintf (what, sizeof what, "fused %s %dx%d c%d d%d mask %x r %d/%d "
      "%s gate %s [%u, %u]", name, w, h, channels, depth, p.channel_mask,
      p.radius_x, p.radius_y, p.border == CF_BORDER_MIRROR ? "mirror" :
      "clamp", kinds[kind], g.min, g.max);
  p.gate = &g;
  CF_CHECK (cf_bilateral (&cpu, &src, &ref, &p) == CF_OK);
  p.gate = &dg;
  CF_CHECK (cf_bilateral (&exec, &dsrc, &dout, &p) == CF_OK);
  p.gate = NULL;
  CF_CHECK (cf_bilateral (&exec, &dsrc, &dungated, &p) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&dout, &out);
  cf_test_device_download (&dungated, &ungated);
  bad = rule_violations (&src, &ungated, &out, &g);
  if (bad)
    fprintf (stderr, "FAIL %s: %ld samples differ from the ungated kernel "
        "then the gate pass\n", what, bad);
  if (p.mode == CF_BILATERAL_SEPARABLE && p.radius_x > 0 && p.radius_y > 0) {
    /* as kernel_bilateral tolerates the separable filter: the rounded
     * intermediate may tip, at most 0.1% of the samples off by 2 to 4 */
    long off = cf_test_compare (&ref, &out, 1, &diff, "separable (tolerated)");
    if (off * 1000 > (long) w * h * channels || diff > 4) {
      fprintf (stderr, "FAIL %s: %ld samples off by > 1, max diff %d\n",
          what, off, diff);
      bad++;
    }
  } else {
    bad += cf_test_compare (&ref, &out, 1, &diff, what);
  }
  if (bad)
    failed++;
  else
    passed++;
  cf_test_device_free (&dsrc);
  if (!own)
    cf_test_device_free (&dgp);
  cf_test_device_free (&dungated);
  cf_test_device_free (&dout);
  cf_test_plane_free (&src);
  if (!own)
    cf_test_plane_free (&gp);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&ungated);
  cf_test_plane_free (&out);
}

static void
check_fused_all (int w, int h, int quick)
{
  static const struct
  {
    int channels;
    unsigned fmask, gmask;
  } layouts[] = {
    {1, 1, 1}, {4, 0x7, 0x7}, {2, 0x1, 0x1}, {3, 0x7, 0x2}
  };
  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (int depth = 8; depth <= 16; depth += 8) {
      int ch = layouts[l].channels;
      CfBilateralParams wins[] = {
        {2.0, 2.0, 4, 4, 0.1, CF_BILATERAL_EXACT, CF_BILATERAL_PER_CHANNEL,
            CF_BORDER_CLAMP, layouts[l].fmask},
        {1.0, 1.5, 0, 3, 0.2, CF_BILATERAL_EXACT, CF_BILATERAL_PER_CHANNEL,
            CF_BORDER_MIRROR, layouts[l].fmask},
        {1.5, 1.0, 3, 1, 0.15, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT,
            CF_BORDER_MIRROR, layouts[l].fmask},
      };
      for (int k = 0; k < FUSED_KINDS; k++)
        for (size_t v = 0; v < sizeof wins / sizeof wins[0]; v++) {
          if (quick && (v + k + l) % 3 != 0)
            continue;
          check_fused (w, h, ch, depth, layouts[l].gmask, k, &wins[v], "exact");
        }
    }
}

/* The gate where the gated kernel does not apply: the separable
 * filter, the lower tile under a shared-memory cap (40 KB), and a tap list too
 * long for the gated kernel beside its tile (28 KB: the ungated kernel in chunks,
 * then the gate pass inside cf_bilateral). */
static void
check_fused_paths (int w, int h)
{
  CfBilateralParams sep = { 2.0, 2.0, 4, 4, 0.1, CF_BILATERAL_SEPARABLE,
    CF_BILATERAL_PER_CHANNEL, CF_BORDER_CLAMP, 1
  };
  CfBilateralParams wide = { 8.0, 8.0, 16, 16, 0.1, CF_BILATERAL_EXACT,
    CF_BILATERAL_PER_CHANNEL, CF_BORDER_MIRROR, 1
  };
  CfBilateralTuning t = { 0 };
  for (int depth = 8; depth <= 16; depth += 8) {
    check_fused (w, h, 1, depth, 1, FUSED_SCATTERED, &sep, "separable");
    check_fused (w, h, 4, depth, 0x7, FUSED_COHERENT, &sep, "separable");
    t.shared_limit = 28 * 1024;
    cf_bilateral_set_tuning (&t);
    check_fused (w, h, 1, depth, 1, FUSED_SCATTERED, &wide, "28 KB cap");
    check_fused (w, h, 1, depth, 1, FUSED_FLAT, &wide, "28 KB cap");
    t.shared_limit = 40 * 1024;
    cf_bilateral_set_tuning (&t);
    check_fused (w, h, 1, depth, 1, FUSED_SCATTERED, &wide, "40 KB cap");
    check_fused (w, h, 4, depth, 0x7, FUSED_COHERENT, &wide, "40 KB cap");
    t.shared_limit = 0;
    cf_bilateral_set_tuning (&t);
    check_fused (w, h, 1, depth, 1, FUSED_SCATTERED, &wide, "exact r16");
  }
}

/* cf_copy_outside against its reference: rectangles inside, at the
 * edges, covering everything and outside the plane. */
static void
check_outside (int w, int h, int channels, int depth)
{
  const int rects[][4] = { {1, 1, w / 2, h / 2}, {0, 0, w, h}, {0, 0, 1, 1},
  {w / 3, 0, w, h}, {w + 3, h + 3, 2, 2}
  };
  CfExec exec = { 1, stream, NULL };
  for (size_t k = 0; k < sizeof rects / sizeof rects[0]; k++) {
    CfPlane src = cf_test_plane_new (w, h, channels, depth, 3);
    CfPlane ref = cf_test_plane_new (w, h, channels, depth, 0);
    CfPlane out = cf_test_plane_like (&src, 1);
    CfPlane dsrc = cf_test_device_upload (&src);
    CfPlane ddst = cf_test_device_upload (&ref);
    char what[120];
    int diff = 0;
    snprintf (what, sizeof what, "outside %dx%d c%d d%d rect %d,%d %dx%d", w,
        h, channels, depth, rects[k][0], rects[k][1], rects[k][2],
        rects[k][3]);
    CF_CHECK (cf_copy_outside_ref (&src, &ref, rects[k][0], rects[k][1],
            rects[k][2], rects[k][3]) == CF_OK);
    CF_CHECK (cf_copy_outside (&exec, &dsrc, &ddst, rects[k][0], rects[k][1],
            rects[k][2], rects[k][3]) == CF_OK);
    CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
    cf_test_device_download (&ddst, &out);
    if (cf_test_compare (&ref, &out, 0, &diff, what))
      failed++;
    else
      passed++;
    cf_test_device_free (&dsrc);
    cf_test_device_free (&ddst);
    cf_test_plane_free (&src);
    cf_test_plane_free (&ref);
    cf_test_plane_free (&out);
  }
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {641, 67},
  {4097, 9}
  };
  int quick = getenv ("CF_TEST_QUICK") != NULL;

  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  cf_test_seed (2804);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int w = sizes[s][0], h = sizes[s][1];
    /* gray: a band in the middle, below, above, everything, nothing */
    check (w, h, 1, 8, 1, 1, 0, 0, 60, 180);
    check (w, h, 1, 8, 1, 1, 0, 0, 0, 100);
    check (w, h, 1, 16, 1, 1, 0, 0, 20000, 65535);
    check (w, h, 1, 16, 1, 1, 0, 0, 0, 65535);
    check (w, h, 1, 8, 1, 1, 0, 0, 200, 100 + 100);
    /* RGBA: the mean of R, G, B (alpha not counted); BGRx, xRGB */
    check (w, h, 4, 8, 4, 0x7, 0, 0, 90, 160);
    check (w, h, 4, 16, 4, 0xE, 0, 0, 10000, 40000);
    check (w, h, 3, 8, 3, 0x7, 0, 0, 128, 255);
    /* AYUV: luma is channel 1 of the plane itself */
    check (w, h, 4, 8, 4, 0x2, 0, 0, 16, 120);
    if (quick && s > 2)
      continue;
    /* 4:2:0 chroma (NV12's UV, I420's U) gated by luma; 4:2:2, 4:1:0 */
    check (w, h, 2, 8, 1, 1, 1, 1, 50, 200);
    check (w, h, 1, 16, 1, 1, 1, 1, 1000, 30000);
    check (w, h, 1, 8, 1, 1, 1, 0, 0, 127);
    check (w, h, 2, 16, 1, 1, 2, 2, 30000, 60000);
  }
  check_outside (1, 1, 1, 8);
  check_outside (37, 23, 4, 8);
  check_outside (641, 67, 2, 16);
  check_outside (33, 17, 3, 16);
  check_filters (7, 3, quick);
  check_filters (300, 131, quick);
  if (!quick)
    check_filters (1921, 270, 0);
  {
    static const int fused_sizes[][2] = { {1, 1}, {7, 3}, {33, 17},
    {300, 131}, {641, 67}
    };
    for (size_t s = 0; s < sizeof fused_sizes / sizeof fused_sizes[0]; s++)
      check_fused_all (fused_sizes[s][0], fused_sizes[s][1], quick);
    if (!quick)
      check_fused_all (1921, 270, 0);
    check_fused_paths (97, 75);
  }
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
