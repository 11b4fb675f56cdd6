/* Quality benchmark of the temporal filter (cudatemporaldenoise's
 * cf_temporal, its history kept as the element keeps it): synthetic
 * sequences with known clean frames (a textured still background, a band
 * that pans 2 pixels a frame, two objects with sharp edges moving 3 and 4
 * pixels a frame), Gaussian noise of sigma 5, 10 and 25 in 8 bits and
 * multiplicative speckle (gamma, 16 looks) in 16 bits. PSNR against the
 * clean frames, apart on still pixels (never changing) and moving pixels
 * (changed since the last frame, and their neighbours), over the second
 * half of the sequence (the recursion settled), for: the noisy input; the
 * best cudabilateral alone (a grid of sigma-space and sigma-range, best per
 * region); cudatemporaldenoise without its spatial pass, with it (spatial =
 * the best bilateral's range), and cudatemporaldenoise then the best
 * bilateral.
 *
 *   quality_temporal [--gpu] [--size WxH] [--frames N] [--csv FILE]
 *       [--dump FILE] [--only K] [--check]
 *
 * On the CPU by the references (CI, small size), on the GPU by the kernels
 * with --gpu. --csv writes the per-frame PSNR of the whole frame, --dump
 * the last frames side by side as raw GRAY8 (3W x H), --only K runs
 * sequence K (0..3) alone; --check
 * asserts on every sequence: still >= noisy + 8 dB and >= best spatial
 * + 3 dB, moving >= best spatial - 0.5 dB (temporal with its spatial
 * pass), exit 1 otherwise. */
#include "temporal.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 64
#define STRENGTH 0.9

static int W = 128, H = 80, N = 40, use_gpu = 0;
/* --dump: the last frame of each sequence, noisy | best bilateral |
 * temporal, side by side (8-bit: 16-bit frames shifted down) */
static FILE *dump;
static CfStream stream;
static CfScratch scratch;

/* ---- frames ---------------------------------------------------------- */

typedef struct
{
  int depth;
  unsigned max;
  CfPlane f[MAX_FRAMES];
} Seq;

static CfPlane
plane_new (int depth)
{
  CfPlane p = { NULL, (size_t) W * (depth > 8 ? 2 : 1), W, H, 1, depth, 0 };
  p.data = calloc (p.stride, H);
  return p;
}

static double
get (const CfPlane * p, int x, int y)
{
  const unsigned char *r = (const unsigned char *) p->data + y * p->stride;
  return p->depth > 8 ? ((const unsigned short *) r)[x] : r[x];
}

static void
put (const CfPlane * p, int x, int y, double v)
{
  unsigned char *r = (unsigned char *) p->data + y * p->stride;
  double max = p->depth > 8 ? 65535 : 255;
  v = v < 0 ? 0 : (v > max ? max : v);
  if (p->depth > 8)
    ((unsigned short *) r)[x] = (unsigned short) lround (v);
  else
    r[x] = (unsigned char) lround (v);
}

/* The clean picture at frame k, in [0, 1]. */
static double
clean_value (int x, int y, int k)
{
  double v;
  int band0 = H * 3 / 8, band1 = H * 5 / 8;

  /* still background: smooth texture and fine detail */
  v = 0.5 + 0.15 * sin (x * 0.21) * cos (y * 0.17) + 0.1 * sin ((x + 2 * y)
      * 0.6) + 0.05 * cos (x * 1.3 + y * 0.4);
  /* panning band: sharp stripes and blocks moving 2 px a frame */
  if (y >= band0 && y < band1) {
    int u = x + 2 * k;
    v = ((u / 7) % 2 ? 0.7 : 0.3) + 0.1 * sin (u * 0.5) * ((y / 5) % 2 ?
        1 : -1);
  }
  /* objects with sharp edges: a bright square, a dark disc */
  {
    int sx = (W / 8 + 3 * k) % W, sy = H / 8;
    if (x >= sx && x < sx + W / 6 && y >= sy && y < sy + H / 5)
      v = 0.9;
    int cx = (W * 7 / 8 - 4 * k + 4 * W) % W, cy = H * 3 / 4;
    int r = H / 8;
    if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
      v = 0.12;
  }
  return v;
}

static unsigned long long rng = 88172645463325252ull;
static double
uniform (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static double
normal (void)
{
  return sqrt (-2 * log (uniform ())) * cos (2 * M_PI * uniform ());
}

/* sigma > 0: Gaussian of sigma (8 bits); sigma < 0: speckle, 16 looks. */
static void
make (Seq * clean, Seq * noisy, int depth, double sigma)
{
  double full = depth > 8 ? 65535 : 255;
  clean->depth = noisy->depth = depth;
  for (int k = 0; k < N; k++) {
    clean->f[k] = plane_new (depth);
    noisy->f[k] = plane_new (depth);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        double c = clean_value (x, y, k) * full, n;
        put (&clean->f[k], x, y, c);
        c = get (&clean->f[k], x, y);
        if (sigma > 0) {
          n = c + sigma * normal ();
        } else {
          double g = 0;
          for (int l = 0; l < 16; l++)
            g -= log (uniform ());
          n = c * g / 16;
        }
        put (&noisy->f[k], x, y, n);
      }
  }
}

static void
seq_free (Seq * s)
{
  for (int k = 0; k < N; k++) {
    free (s->f[k].data);
    s->f[k].data = NULL;
  }
}

/* Region masks per frame: 1 still (never changes), 2 moving (changed since
 * the last frame, dilated by 1), 0 neither. */
static unsigned char *
regions (const Seq * clean)
{
  unsigned char *m = calloc ((size_t) W * H, N);
  unsigned char *ever = calloc ((size_t) W * H, 1);

  for (int k = 1; k < N; k++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        if (get (&clean->f[k], x, y) != get (&clean->f[k - 1], x, y))
          for (int j = -2; j <= 2; j++)
            for (int i = -2; i <= 2; i++) {
              int qx = x + i, qy = y + j;
              if (qx < 0 || qy < 0 || qx >= W || qy >= H)
                continue;
              ever[qy * W + qx] = 1;
              if (abs (i) <= 1 && abs (j) <= 1)
                m[(size_t) k * W * H + qy * W + qx] = 2;
            }
  for (int k = 0; k < N; k++)
    for (int i = 0; i < W * H; i++)
      if (!ever[i])
        m[(size_t) k * W * H + i] = 1;
  free (ever);
  return m;
}

/* PSNR of frames [N/2, N), or of frame k alone when k >= 0, in each
 * region: v[0] every pixel, v[1] still, v[2] moving. */
static void
psnr3 (const Seq * a, const Seq * clean, const unsigned char *m, int k,
    double v[3])
{
  double se[3] = { 0 }, full = a->depth > 8 ? 65535 : 255;
  long n[3] = { 0 };
  for (int f = k >= 0 ? k : N / 2; f < (k >= 0 ? k + 1 : N); f++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int r = m[(size_t) f * W * H + y * W + x];
        double d = get (&a->f[f], x, y) - get (&clean->f[f], x, y);
        se[0] += d * d;
        n[0]++;
        if (r) {
          se[r] += d * d;
          n[r]++;
        }
      }
  for (int r = 0; r < 3; r++)
    v[r] = n[r] ? 10 * log10 (full * full / (se[r] / n[r])) : 0;
}

static double
psnr (const Seq * a, const Seq * clean, const unsigned char *m, int region,
    int k)
{
  double v[3];
  psnr3 (a, clean, m, k, v);
  return v[region];
}

/* ---- filters, on the CPU or the GPU ------------------------------------ */

static CfPlane
device_of (const CfPlane * h)
{
  CfPlane d = *h;
  if (cf_device_alloc_2d (&d.data, &d.stride, h->stride, H) != CF_OK)
    exit (2);
  return d;
}

static void
copy (const CfPlane * dst, const CfPlane * src)
{
  if (cf_copy_2d_async (dst->data, dst->stride, src->data, src->stride,
          src->stride < dst->stride ? src->stride : dst->stride, H,
          stream) != CF_OK || cf_stream_synchronize (stream) != CF_OK)
    exit (2);
}

static void
check (CfStatus st, const char *what)
{
  if (st == CF_OK && use_gpu)
    st = cf_stream_synchronize (stream);
  if (st != CF_OK) {
    fprintf (stderr, "%s: %s (%s)\n", what, cf_status_string (st),
        use_gpu ? cf_last_error_string () : "reference");
    exit (2);
  }
}

static CfBilateralParams
bilateral_params (double sigma_space, double sigma_range)
{
  CfBilateralParams b = { 0 };
  b.sigma_x = b.sigma_y = sigma_space;
  b.radius_x = b.radius_y = cf_bilateral_default_radius (sigma_space);
  b.sigma_range = sigma_range;
  b.mode = CF_BILATERAL_EXACT;
  b.distance = CF_BILATERAL_JOINT;
  b.channel_mask = 1;
  return b;
}

/* out = bilateral of every frame of in. */
static void
bilateral_seq (const Seq * in, Seq * out, const CfBilateralParams * b)
{
  out->depth = in->depth;
  for (int k = 0; k < N; k++) {
    out->f[k] = plane_new (in->depth);
    if (!use_gpu) {
      check (cf_bilateral_ref (&in->f[k], &out->f[k], b), "bilateral");
      continue;
    }
    CfExec exec = { 1, stream, &scratch };
    CfPlane s = device_of (&in->f[k]), d = device_of (&in->f[k]);
    copy (&s, &in->f[k]);
    check (cf_bilateral (&exec, &s, &d, b), "bilateral");
    copy (&out->f[k], &d);
    cf_device_free (s.data);
    cf_device_free (d.data);
  }
}

/* out = the temporal filter over the sequence, the first frame passed
 * through (the element's restart), each next against the last output. */
static void
temporal_seq (const Seq * in, Seq * out, double noise, double spatial)
{
  CfTemporalParams p = { 0 };
  CfPlane map = { 0 };

  p.mode = CF_TEMPORAL_ADAPTIVE;
  p.strength = STRENGTH;
  p.noise = noise;
  p.channel_mask = p.motion_mask = 1;
  if (spatial > 0)
    p.spatial = bilateral_params (CF_TEMPORAL_SPATIAL_SIGMA, spatial);
  out->depth = in->depth;
  out->f[0] = plane_new (in->depth);
  memcpy (out->f[0].data, in->f[0].data, in->f[0].stride * H);
  for (int k = 1; k < N; k++) {
    out->f[k] = plane_new (in->depth);
    p.frame = k;
    if (!use_gpu) {
      check (cf_temporal_ref (&in->f[k], &out->f[k - 1], &out->f[k], &map,
              &p), "temporal");
      continue;
    }
    CfExec exec = { 1, stream, &scratch };
    CfPlane s = device_of (&in->f[k]), pv = device_of (&in->f[k]);
    CfPlane d = device_of (&in->f[k]);
    copy (&s, &in->f[k]);
    copy (&pv, &out->f[k - 1]);
    check (cf_temporal (&exec, &s, &pv, &d, &map, &p), "temporal");
    copy (&out->f[k], &d);
    cf_device_free (s.data);
    cf_device_free (pv.data);
    cf_device_free (d.data);
  }
}

/* ---- the benchmark ------------------------------------------------------- */

typedef struct
{
  const char *name;
  int depth;
  double sigma;                 /* < 0: speckle */
} Noise;

static int
run (const Noise * nz, FILE * csv)
{
  static const double spaces[] = { 1.0, 1.5, 2.0, 3.0 };
  static const double ranges[] = { 0.02, 0.04, 0.06, 0.08, 0.12, 0.16, 0.24,
    0.32
  };
  Seq clean, noisy, tmp, tbest;
  unsigned char *m;
  double best[3] = { -1, -1, -1 }, best_range[3] = { 0 }, best_space[3] = { 0 };
  /* speckle (16 looks: a standard deviation of 1/4 of the mean): that of
   * a grey of 0.42 of full scale (darker than the mean), so that motion
   * over dark areas is seen */
  double noise = nz->sigma > 0 ? nz->sigma : 0.42 * 65535 / 4;
  int ok = 1;

  make (&clean, &noisy, nz->depth, nz->sigma * (nz->depth > 8 ? 257 : 1));
  m = regions (&clean);
  for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++)
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
      CfBilateralParams b = bilateral_params (spaces[s], ranges[r]);
      double v3[3];
      bilateral_seq (&noisy, &tmp, &b);
      psnr3 (&tmp, &clean, m, -1, v3);
      for (int region = 0; region < 3; region++) {
        double v = v3[region];
        if (v > best[region]) {
          best[region] = v;
          best_range[region] = ranges[r];
          best_space[region] = spaces[s];
        }
      }
      seq_free (&tmp);
    }
  double n_still = psnr (&noisy, &clean, m, 1, -1);
  double n_moving = psnr (&noisy, &clean, m, 2, -1);
  printf ("| %s | noisy | %.2f | %.2f |\n", nz->name, n_still, n_moving);
  printf ("| %s | best bilateral (still: %.1f/%.2f, moving: %.1f/%.2f) | "
      "%.2f | %.2f |\n", nz->name, best_space[1], best_range[1],
      best_space[2], best_range[2], best[1], best[2]);

  /* the temporal filter alone, with its spatial pass, and then the best
   * bilateral (over all pixels) */
  temporal_seq (&noisy, &tmp, noise, 0);
  printf ("| %s | temporal, spatial=0 | %.2f | %.2f |\n", nz->name,
      psnr (&tmp, &clean, m, 1, -1), psnr (&tmp, &clean, m, 2, -1));
  seq_free (&tmp);
  temporal_seq (&noisy, &tbest, noise, best_range[2]);
  double t_still = psnr (&tbest, &clean, m, 1, -1);
  double t_moving = psnr (&tbest, &clean, m, 2, -1);
  printf ("| %s | temporal, spatial=%.2f | %.2f | %.2f |\n", nz->name,
      best_range[2], t_still, t_moving);
  {
    /* the bilateral after it: the best of a small grid, over all pixels */
    static const double post_spaces[] = { 1.0, 1.5 };
    static const double post_ranges[] = { 0.02, 0.04, 0.08, 0.16 };
    double post = -1, ps = 0, pr = 0;
    Seq tb;
    for (size_t s = 0; s < 2; s++)
      for (size_t r = 0; r < 4; r++) {
        CfBilateralParams b = bilateral_params (post_spaces[s], post_ranges[r]);
        bilateral_seq (&tbest, &tb, &b);
        double v = psnr (&tb, &clean, m, 0, -1);
        if (v > post) {
          post = v;
          ps = post_spaces[s];
          pr = post_ranges[r];
        }
        seq_free (&tb);
      }
    CfBilateralParams b = bilateral_params (ps, pr);
    bilateral_seq (&tbest, &tb, &b);
    printf ("| %s | temporal, spatial=%.2f, then bilateral %.1f/%.2f | %.2f "
        "| %.2f |\n", nz->name, best_range[2], ps, pr,
        psnr (&tb, &clean, m, 1, -1), psnr (&tb, &clean, m, 2, -1));
    if (csv) {
      Seq bl;
      CfBilateralParams bb = bilateral_params (best_space[0], best_range[0]);
      bilateral_seq (&noisy, &bl, &bb);
      for (int k = 0; k < N; k++)
        fprintf (csv, "%s,%d,%.3f,%.3f,%.3f,%.3f\n", nz->name, k,
            psnr (&noisy, &clean, m, 0, k), psnr (&bl, &clean, m, 0, k),
            psnr (&tbest, &clean, m, 0, k), psnr (&tb, &clean, m, 0, k));
      seq_free (&bl);
    }
    seq_free (&tb);
  }
  if (dump) {
    CfBilateralParams b = bilateral_params (best_space[0], best_range[0]);
    Seq bl;
    const Seq *panels[3] = { &noisy, &bl, &tbest };
    bilateral_seq (&noisy, &bl, &b);
    for (int y = 0; y < H; y++)
      for (int i = 0; i < 3; i++)
        for (int x = 0; x < W; x++) {
          double v = get (&panels[i]->f[N - 1], x, y);
          fputc ((int) (nz->depth > 8 ? v / 257 : v), dump);
        }
    seq_free (&bl);
  }
  if (t_still < n_still + 8 || t_still < best[1] + 3) {
    printf ("FAIL %s: still %.2f dB: noisy %.2f + 8, best spatial %.2f + 3\n",
        nz->name, t_still, n_still, best[1]);
    ok = 0;
  }
  if (t_moving < best[2] - 0.5) {
    printf ("FAIL %s: moving %.2f dB below best spatial %.2f - 0.5\n",
        nz->name, t_moving, best[2]);
    ok = 0;
  }
  seq_free (&tbest);
  seq_free (&clean);
  seq_free (&noisy);
  free (m);
  return ok;
}

int
main (int argc, char **argv)
{
  static const Noise noises[] = {
    {"GRAY8 sigma 5", 8, 5}, {"GRAY8 sigma 10", 8, 10},
    {"GRAY8 sigma 25", 8, 25}, {"GRAY16_LE speckle 16 looks", 16, -1},
  };
  int do_check = 0, ok = 1, only = -1;
  FILE *csv = NULL;

  for (int a = 1; a < argc; a++) {
    if (!strcmp (argv[a], "--gpu"))
      use_gpu = 1;
    else if (!strcmp (argv[a], "--check"))
      do_check = 1;
    else if (!strcmp (argv[a], "--size") && a + 1 < argc)
      sscanf (argv[++a], "%dx%d", &W, &H);
    else if (!strcmp (argv[a], "--frames") && a + 1 < argc)
      N = atoi (argv[++a]);
    else if (!strcmp (argv[a], "--dump") && a + 1 < argc)
      dump = fopen (argv[++a], "wb");
    else if (!strcmp (argv[a], "--only") && a + 1 < argc)
      only = atoi (argv[++a]);
    else if (!strcmp (argv[a], "--csv") && a + 1 < argc)
      csv = fopen (argv[++a], "w");
    else {
      fprintf (stderr, "usage: %s [--gpu] [--size WxH] [--frames N] "
          "[--csv FILE] [--dump FILE] [--only K] [--check]\n", argv[0]);
      return 2;
    }
  }
  if (N < 4 || N > MAX_FRAMES || W < 16 || H < 16)
    return 2;
  if (use_gpu && (cf_device_count () < 1 || cf_stream_create (&stream)))
    return 77;
  printf ("### Temporal denoising quality, %dx%d, %d frames, strength %.2f, "
      "PSNR (dB) of frames %d-%d (%s)\n\n", W, H, N, STRENGTH, N / 2, N - 1,
      use_gpu ? "GPU" : "CPU reference");
  printf ("| noise | method | still | moving |\n|---|---|---|---|\n");
  if (csv)
    fprintf (csv, "noise,frame,noisy,bilateral,temporal,temporal+bilateral\n");
  for (size_t i = 0; i < sizeof noises / sizeof noises[0]; i++)
    if (only < 0 || (size_t) only == i)
      ok &= run (&noises[i], csv);
  if (csv)
    fclose (csv);
  if (dump)
    fclose (dump);
  if (use_gpu) {
    cf_scratch_release (&scratch);
    cf_stream_destroy (stream);
  }
  return do_check && !ok ? 1 : 0;
}
