/* gpu suite: cf_bilateral on the GPU against the plain-C reference.
 *
 * Exact mode: within 1 LSB for every channel layout, 8 and 16 bits, radius
 * 1..15 (and the maximum), elliptic and 1-D windows, both distances, both
 * borders, random frames of awkward sizes, and frames with flat tiles.
 *
 * Separable mode: against the separable reference. Its intermediate is
 * rounded to the sample type; where float and double land on either side
 * of a .5 (about 1 sample in 10^5) the second pass amplifies that 1 LSB by
 * its gain, so nearly every sample is within 1 LSB and none is far off.
 * Then separable against exact, by PSNR, on a noisy test pattern.
 *
 * Joint (cross) bilateral with a guide plane: the GPU against the
 * reference as above (guides of one channel and of the plane's channels,
 * 8 and 16 bits, a subsampled plane's geometry, both distances and modes);
 * with the guide equal to the plane, the reference equals the plain
 * reference exactly and the GPU the plain GPU within 1 LSB.
 *
 * The variants that GPUs with less shared memory per block run (lower
 * tiles, the exact tap list in chunks, separable in two passes) are forced
 * here by capping the shared memory the kernels plan with.
 *
 * CF_TEST_QUICK=1 (or the argument "quick") runs a small subset, for
 * compute-sanitizer. */
#include "cf_test_util.h"
#include "bilateral.h"
#include "bilateral_tuning.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static long passed, failed;
static int quick;
static CfStream stream;
static CfScratch scratch;

static void
verdict (int ok)
{
  if (ok)
    passed++;
  else
    failed++;
}

static void
describe (char *what, size_t n, const CfPlane * s, unsigned mask,
    const CfBilateralParams * p)
{
  snprintf (what, n, "%dx%d c%d d%d mask %x r %d/%d sigma %.2f/%.2f "
      "range %.2f %s %s %s%s", s->width, s->height, s->channels, s->depth,
      mask, p->radius_x, p->radius_y, p->sigma_x, p->sigma_y, p->sigma_range,
      p->mode == CF_BILATERAL_SEPARABLE ? "separable" : "exact",
      p->distance == CF_BILATERAL_JOINT ? "joint" : "per-channel",
      p->border == CF_BORDER_MIRROR ? "mirror" : "clamp",
      p->guide.data ? " guided" : "");
}

/* Runs the GPU filter on src, returns its output in a host plane. */
static CfPlane
gpu_filter (const CfPlane * src, const CfBilateralParams * p, CfStatus * st)
{
  CfExec exec = { 1, stream, &scratch };
  CfPlane dsrc = cf_test_device_upload (src);
  CfPlane ddst = cf_test_device_like (src);
  CfPlane out = cf_test_plane_like (src, 3);
  CfBilateralParams q = *p;

  /* a guide on the host, for the reference: its copy on the device */
  if (p->guide.data)
    q.guide = cf_test_device_upload (&p->guide);
  *st = cf_bilateral (&exec, &dsrc, &ddst, &q);
  if (*st == CF_OK) {
    CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
    cf_test_device_download (&ddst, &out);
  }
  if (p->guide.data)
    cf_test_device_free (&q.guide);
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  return out;
}

static void
check_plane (const CfPlane * src, const CfBilateralParams * p)
{
  char what[200];
  CfPlane ref = cf_test_plane_like (src, 0);
  CfStatus st;
  int max_diff = 0;
  long bad;

  describe (what, sizeof what, src, p->channel_mask, p);
  CF_CHECK (cf_bilateral_ref (src, &ref, p) == CF_OK);
  CfPlane out = gpu_filter (src, p, &st);
  if (st != CF_OK) {
    fprintf (stderr, "FAIL %s: %s (%s)\n", what, cf_status_string (st),
        cf_last_error_string ());
    verdict (0);
  } else if (p->mode == CF_BILATERAL_EXACT || p->radius_x == 0
      || p->radius_y == 0) {
    bad = cf_test_compare (&out, &ref, 1, &max_diff, what);
    if (bad)
      fprintf (stderr, "FAIL %s: %ld samples off, max diff %d\n", what, bad,
          max_diff);
    verdict (!bad);
  } else {
    long samples = (long) src->width * src->height * src->channels;
    bad = cf_test_compare (&out, &ref, 1, &max_diff, "separable (tolerated)");
    if (bad * 1000 > samples || max_diff > 4) {
      fprintf (stderr, "FAIL %s: %ld of %ld samples off by > 1, max diff %d\n",
          what, bad, samples, max_diff);
      verdict (0);
    } else {
      verdict (1);
    }
  }
  cf_test_plane_free (&out);
  cf_test_plane_free (&ref);
}

static CfBilateralParams
params (int rx, int ry, double sigma_range, CfBilateralMode mode,
    CfBilateralDistance distance, CfBorder border, unsigned mask)
{
  CfBilateralParams p = { rx > 0 ? rx / 2.0 : 1.0, ry > 0 ? ry / 2.0 : 1.0,
    rx, ry, sigma_range, mode, distance, border, mask
  };
  return p;
}

static void
check (int w, int h, int channels, int depth, const CfBilateralParams * p)
{
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  check_plane (&src, p);
  cf_test_plane_free (&src);
}

/* A plane of @channels guided by a random guide of @gch channels and
 * @gdepth bits, read with @shift (a subsampled plane's geometry). */
static void
check_guided (int w, int h, int channels, int depth, int gch, int gdepth,
    int shift, CfBilateralParams p)
{
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane guide = cf_test_plane_new (((w - 1) << shift) + 1,
      ((h - 1) << shift) + 1, gch, gdepth, 3);

  p.guide = guide;
  p.guide_x_shift = p.guide_y_shift = shift;
  check_plane (&src, &p);
  cf_test_plane_free (&guide);
  cf_test_plane_free (&src);
}

/* A guide equal to the plane: the reference is the plain one exactly, the
 * GPU the plain GPU within 1 LSB (a different kernel). */
static void
check_guide_is_src (int w, int h, int channels, int depth, CfBilateralParams p)
{
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane plain = cf_test_plane_like (&src, 0), guided = cf_test_plane_like
      (&src, 0);
  CfBilateralParams g = p;
  char what[240], gpu[260];
  int diff = 0;
  CfStatus st;

  g.guide = src;
  describe (what, sizeof what, &src, p.channel_mask, &g);
  CF_CHECK (cf_bilateral_ref (&src, &plain, &p) == CF_OK);
  CF_CHECK (cf_bilateral_ref (&src, &guided, &g) == CF_OK);
  verdict (!cf_test_compare (&plain, &guided, 0, &diff, what));
  CfPlane a = gpu_filter (&src, &p, &st);
  CF_CHECK (st == CF_OK);
  CfPlane b = gpu_filter (&src, &g, &st);
  CF_CHECK (st == CF_OK);
  snprintf (gpu, sizeof gpu, "GPU guide = src: %s", what);
  verdict (!cf_test_compare (&a, &b, 1, &diff, gpu));
  cf_test_plane_free (&a);
  cf_test_plane_free (&b);
  cf_test_plane_free (&plain);
  cf_test_plane_free (&guided);
  cf_test_plane_free (&src);
}

/* A plane that is constant but for a random square and a random band, so
 * that whole tiles are flat (the kernel skips their taps): flat, edge and
 * textured tiles must all match. Unfiltered channels stay random. */
static void
check_flat (int channels, int depth, unsigned mask, CfBilateralMode mode)
{
  CfPlane src = cf_test_plane_new (300, 400, channels, depth, 3);
  CfBilateralParams p = params (5, 5, 0.1, mode, CF_BILATERAL_JOINT,
      CF_BORDER_CLAMP, mask);
  for (int y = 0; y < src.height; y++)
    for (int x = 0; x < src.width; x++)
      for (int c = 0; c < channels; c++) {
        int textured = (x > 90 && x < 131 && y > 40 && y < 81) || y == 120;
        if (!(mask & (1u << c)) || textured)
          continue;
        unsigned char *row = (unsigned char *) src.data + y * src.stride;
        if (depth > 8)
          ((unsigned short *) row)[x * channels + c] = 4000 + 700 * c;
        else
          row[x * channels + c] = 17 + 40 * c;
      }
  check_plane (&src, &p);
  cf_test_plane_free (&src);
}

/* ------------------------------------------------------------------ */
/* Separable against exact, on a picture where that means something.    */

static double
gauss_noise (void)
{
  double u = (cf_test_rand () + 1.0) / 4294967297.0;
  double v = cf_test_rand () / 4294967296.0;
  return sqrt (-2.0 * log (u)) * cos (2.0 * M_PI * v);
}

/* A test pattern (gradient, bars, a disc) plus Gaussian noise of sigma 12
 * (8-bit units); the channels differ so that colour edges exist. */
static CfPlane
noisy_pattern (int w, int h, int channels)
{
  CfPlane p = cf_test_plane_new (w, h, channels, 8, 0);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < channels; c++) {
        double v = 40.0 + 120.0 * x / w;
        if ((x / 40 + c) % 3 == 0 && y < h / 2)
          v += 80.0;
        if ((x - w / 2) * (x - w / 2) + (y - 3 * h / 4) * (y - 3 * h / 4) <
            (h / 5) * (h / 5))
          v = 220.0 - 60.0 * c;
        v += 12.0 * gauss_noise ();
        ((unsigned char *) p.data)[(size_t) y * p.stride + x * channels + c] =
            (unsigned char) (v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
      }
  return p;
}

static double
psnr (const CfPlane * a, const CfPlane * b, unsigned mask)
{
  double se = 0.0;
  long n = 0;
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      for (int c = 0; c < a->channels; c++) {
        if (!(mask & (1u << c)))
          continue;
        size_t i = (size_t) x * a->channels + c;
        double d = (double) ((unsigned char *) a->data)[y * a->stride + i] -
            ((unsigned char *) b->data)[y * b->stride + i];
        se += d * d;
        n++;
      }
  return se == 0.0 ? 99.0 : 10.0 * log10 (255.0 * 255.0 * n / se);
}

static void
check_separable_psnr (int channels, unsigned mask, int radius,
    CfBilateralDistance distance)
{
  CfPlane src = noisy_pattern (640, 360, channels);
  CfPlane exact = cf_test_plane_like (&src, 0);
  CfBilateralParams p = params (radius, radius, 0.12, CF_BILATERAL_EXACT,
      distance, CF_BORDER_CLAMP, mask);
  CfStatus st;

  CF_CHECK (cf_bilateral_ref (&src, &exact, &p) == CF_OK);
  p.mode = CF_BILATERAL_SEPARABLE;
  CfPlane sep = gpu_filter (&src, &p, &st);
  CF_CHECK (st == CF_OK);
  double db = psnr (&sep, &exact, mask), noisy = psnr (&src, &exact, mask);
  /* The approximation must be far closer to the exact filter than the
   * noisy input is (the reference measures 43.5-44.8 dB here, the input
   * 28-29 dB). */
  int ok = db >= 40.0 && db > noisy + 10.0;
  printf ("separable vs exact: %d channel(s) %s radius %d: PSNR %.2f dB "
      "(input vs exact %.2f dB)%s\n", channels,
      distance == CF_BILATERAL_JOINT ? "joint" : "per-channel", radius, db,
      noisy, ok ? "" : "  FAIL");
  verdict (ok);
  cf_test_plane_free (&src);
  cf_test_plane_free (&exact);
  cf_test_plane_free (&sep);
}

/* ------------------------------------------------------------------ */
/* One filtered channel at radii up to 8: the symmetric-pairs kernel,   */
/* and at radius 4 the general one-kernel form forced in its place.     */

static void
check_pairs (void)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {2, 8, 0x1}, {4, 16, 0x4}
  };
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {97, 45},
  {130, 31}, {5, 70}, {67, 129}
  };
  static const double ranges[] = { 0.02, 0.1, 0.3, 1.0 };
  CfBilateralTuning t = { 0 };

  for (int general = 0; general < 2; general++) {
    t.general_separable = general;
    cf_bilateral_set_tuning (&t);
    for (int r = 1; r <= 8; r += quick ? 3 : 1)
      for (int l = 0; l < 4; l++) {
        /* every third window asymmetric, up to 8 on the other axis */
        int ry = (r + l) % 3 == 0 ? 9 - r : r;
        CfBilateralParams p = params (r, ry, ranges[(r + l) % 4],
            CF_BILATERAL_SEPARABLE, 0, (r + l) & 1, layouts[l].mask);
        int s = (r + 2 * l) % 7;
        if (general && r != 4)
          continue;
        check (sizes[s][0], sizes[s][1], layouts[l].channels,
            layouts[l].depth, &p);
      }
  }
  t.general_separable = 0;
  cf_bilateral_set_tuning (&t);

  /* Frames with tiles inside the image (the kernel's direct word loads),
   * one-channel planes of both depths, both borders. */
  for (int r = 2; r <= 8; r += quick ? 6 : 3)
    for (int l = 0; l < 2; l++) {
      CfBilateralParams p = params (r, r, 0.1, CF_BILATERAL_SEPARABLE, 0,
          (r + l) & 1, 1);
      check (300, 400, 1, layouts[l].depth, &p);
    }
}

/* ------------------------------------------------------------------ */
/* Smaller GPUs' variants, forced by a cap on shared memory.            */

static void
check_limited (const int *layout_list, int n, int w, int h, int radius,
    size_t limit, int two_pass)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {2, 8, 0x3}, {4, 16, 0xF},
    {3, 16, 0x7}, {2, 16, 0x3}
  };
  CfBilateralTuning t = { limit, two_pass };

  cf_bilateral_set_tuning (&t);
  printf ("shared memory cap %zu bytes (0: the device's)%s: radius %d\n",
      limit, two_pass ? ", separable in two passes" : "", radius);
  for (int i = 0; i < n; i++) {
    int l = layout_list[i];
    for (int m = two_pass; m < 2; m++) {
      CfBilateralParams p = params (radius, radius, 0.2, m, (i + m) & 1,
          i & 1, layouts[l].mask);
      check (w, h, layouts[l].channels, layouts[l].depth, &p);
    }
  }
  t.shared_limit = 0;
  t.two_pass_separable = 0;
  cf_bilateral_set_tuning (&t);
}

static void
check_small_devices (void)
{
  static const int all[] = { 0, 1, 2, 3, 4, 5, 6 }, few[] = { 0, 4 };
  /* 4-byte slots only: 16-bit planes of 3-4 filtered channels need more
   * than 40 KB for their lower tile at radius 32. */
  static const int slim[] = { 0, 2, 3 };
  const int *list = quick ? few : all;
  const int n = quick ? 2 : 7;

  /* Turing (64 KB): one-channel planes take the lower tile at radius 32,
   * 16-bit 3-4 channel planes the tap list in chunks and separable in two
   * passes; Ampere consumer and Ada GPUs (99 KB). */
  check_limited (list, n, 70, 41, CF_BILATERAL_MAX_RADIUS, 64 * 1024, 0);
  if (!quick) {
    check_limited (list, n, 97, 45, 27, 64 * 1024, 0);
    check_limited (list, n, 70, 41, CF_BILATERAL_MAX_RADIUS, 99 * 1024, 0);
  }
  /* Tap lists of 320 taps and fewer beside the tile. */
  check_limited (slim, quick ? 1 : 3, 70, 41, CF_BILATERAL_MAX_RADIUS,
      40 * 1024, 0);
  /* Separable in two passes where the one kernel would fit. */
  check_limited (list, n, 97, 45, 3, 0, 1);
  if (!quick)
    check_limited (list, n, 130, 31, 10, 0, 1);
}

/* ------------------------------------------------------------------ */

/* Parameters the API refuses, and the cases that are a plain copy. */
static void
check_edges (void)
{
  CfPlane src = cf_test_plane_new (19, 7, 4, 8, 0);
  CfBilateralParams bad[] = {
    params (CF_BILATERAL_MAX_RADIUS + 1, 1, 0.1, 0, 0, 0, 7),
    params (2, -1, 0.1, 0, 0, 0, 7),
    params (2, 2, 0.0, 0, 0, 0, 7),
    params (2, 2, 0.1, 5, 0, 0, 7),
    params (2, 2, 0.1, 0, 0, 0, 7),
  };
  CfStatus st;

  bad[4].sigma_x = 0.0;         /* a radius without a sigma */
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CfPlane out = gpu_filter (&src, &bad[i], &st);
    if (st != CF_ERROR_INVALID)
      fprintf (stderr, "FAIL invalid parameters %zu accepted\n", i);
    verdict (st == CF_ERROR_INVALID);
    cf_test_plane_free (&out);
  }

  /* Nothing to filter, or a centre-only window: the input, exactly. */
  CfBilateralParams copies[] = {
    params (3, 3, 0.1, 0, 0, 0, 0),
    params (0, 0, 0.1, 0, 1, 1, 7),
    params (0, 0, 0.1, 1, 0, 0, 0xF),
  };
  for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++) {
    int max_diff;
    CfPlane out = gpu_filter (&src, &copies[i], &st);
    long off = st == CF_OK ? cf_test_compare (&out, &src, 0, &max_diff,
        "copy case") : 1;
    if (off)
      fprintf (stderr, "FAIL copy case %zu: %s\n", i, cf_status_string (st));
    verdict (!off);
    cf_test_plane_free (&out);
  }
  cf_test_plane_free (&src);
}

int
main (int argc, char **argv)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {4, 8, 0xE}, {4, 8, 0xF},
    {3, 8, 0x7}, {2, 8, 0x3}, {2, 8, 0x1}, {4, 16, 0x7}, {3, 16, 0x7},
    {2, 16, 0x3}
  };
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {97, 45},
  {130, 31}, {5, 70}
  };
  static const double ranges[] = { 0.02, 0.1, 0.3, 1.0 };
  const int nl = sizeof layouts / sizeof layouts[0];
  const int ns = sizeof sizes / sizeof sizes[0];

  quick = (argc > 1 && !strcmp (argv[1], "quick")) || getenv ("CF_TEST_QUICK");
  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  cf_test_seed (4321);

  /* Exact, radius 1..15: every layout at every radius, with the size,
   * distance, border, range and window shape rotating. */
  for (int r = 1; r <= 15; r += quick ? 4 : 1)
    for (int l = 0; l < nl; l++) {
      int ry = l % 3 == 0 ? (r + 1) / 2 : r;
      CfBilateralParams p = params (r, ry, ranges[(r + 2 * l) % 4],
          CF_BILATERAL_EXACT, (r + l) & 1, (r / 2 + l) & 1,
          layouts[l].mask);
      int s = quick ? (r + l) % 3 : (3 * r + l) % ns;
      check (sizes[s][0], sizes[s][1], layouts[l].channels, layouts[l].depth,
          &p);
    }

  /* 1-D windows (separable mode with one radius 0), and the largest radius
   * (shared memory beyond 48 KB for 16-bit 4-channel planes), exact and
   * separable. */
  for (int l = 0; l < nl; l += quick ? 4 : 1) {
    CfBilateralParams h = params (9, 0, 0.1, 0, l & 1, 0, layouts[l].mask);
    CfBilateralParams v = params (0, 12, 0.1, 0, l & 1, 1, layouts[l].mask);
    CfBilateralParams big = params (CF_BILATERAL_MAX_RADIUS,
        CF_BILATERAL_MAX_RADIUS, 0.2, 0, 1, l & 1, layouts[l].mask);
    check (97, 45, layouts[l].channels, layouts[l].depth, &h);
    check (33, 70, layouts[l].channels, layouts[l].depth, &v);
    if (!quick || l == 0) {
      check (70, 41, layouts[l].channels, layouts[l].depth, &big);
      big.mode = CF_BILATERAL_SEPARABLE;
      check (70, 41, layouts[l].channels, layouts[l].depth, &big);
    }
  }

  /* Separable against the separable reference. */
  static const int sep_layouts[] = { 0, 1, 2, 6, 8 };
  static const int sep_radii[] = { 1, 3, 7, 15 };
  for (size_t l = 0; l < sizeof sep_layouts / sizeof sep_layouts[0]; l++)
    for (size_t r = 0; r < sizeof sep_radii / sizeof sep_radii[0]; r++) {
      int li = sep_layouts[l], rad = sep_radii[r];
      CfBilateralParams p = params (rad, rad, 0.1, CF_BILATERAL_SEPARABLE,
          (int) (l + r) & 1, (int) r & 1, layouts[li].mask);
      if (quick && r > 1)
        continue;
      check (sizes[3 + (l + r) % 2][0], sizes[3 + (l + r) % 2][1],
          layouts[li].channels, layouts[li].depth, &p);
    }

  /* deep formats: sigma-range in units of their full scale (CfPlane.max) */
  for (int m = 0; m < 2; m++) {
    CfBilateralParams deep = params (3, 3, 0.1, m, 0, 0, 1);
    CfPlane src = cf_test_plane_new (67, 35, 1, 16, 5);

    cf_test_plane_set_max (&src, m ? 0xffc0 : 0x3ff);
    check_plane (&src, &deep);
    cf_test_plane_free (&src);
  }

  /* joint (cross) bilateral with a guide */
  for (int l = 0; l < nl; l += quick ? 3 : 1)
    for (int k = 0; k < 4; k++) {
      CfBilateralParams p = params (1 + (l + 2 * k) % 6, 1 + (l + k) % 4,
          ranges[(l + k) % 4], k == 3 ? CF_BILATERAL_SEPARABLE :
          CF_BILATERAL_EXACT, (l + k) & 1, k & 1, layouts[l].mask);
      int s = 1 + (l + k) % (ns - 1);
      /* a guide of one channel (k even) or of the plane's; 8 or 16 bits;
       * k = 2 with a subsampled plane's geometry */
      check_guided (sizes[s][0], sizes[s][1], layouts[l].channels,
          layouts[l].depth, k % 2 ? layouts[l].channels : 1,
          (l + k) % 2 ? 16 : 8, k == 2, p);
      if (k < 2)
        check_guide_is_src (sizes[s][0], sizes[s][1], layouts[l].channels,
            layouts[l].depth, p);
    }

  check_pairs ();
  check_edges ();
  check_small_devices ();
  for (int l = 0; l < nl; l += quick ? 5 : 1)
    for (int m = 0; m < 2; m++)
      check_flat (layouts[l].channels, layouts[l].depth, layouts[l].mask, m);

  if (!quick) {
    CfBilateralParams gray = params (3, 3, 0.1, 0, 0, 0, 1);
    CfBilateralParams rgba = params (2, 2, 0.1, 0, 1, 1, 7);
    CfBilateralParams sep = params (7, 7, 0.1, CF_BILATERAL_SEPARABLE, 0, 1,
        1);
    check (3840, 2160, 1, 8, &gray);
    check (1921, 1081, 4, 8, &rgba);
    check (1921, 1081, 1, 8, &sep);
    for (int r = 3; r <= 7; r += 2) {
      check_separable_psnr (1, 1, r, CF_BILATERAL_PER_CHANNEL);
      check_separable_psnr (4, 7, r, CF_BILATERAL_JOINT);
      check_separable_psnr (4, 7, r, CF_BILATERAL_PER_CHANNEL);
    }
  }

  cf_scratch_release (&scratch);
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
