/* Benchmark: device-resident cudagaussianblur kernel time against the
 * identity-copy floor and NPP's Gaussians at 4K: sigma sweep, fixed masks, crossover. Prints markdown. */
#include "cf_bench_util.h"
#include "gaussian.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 30
#define SLOW_MS 5.0             /* slower than this: timed once */

typedef int (*NppGaussFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi, int mask,
    int border, CfNppStreamContext ctx);
typedef int (*NppGaussAdvFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi, int taps,
    const float *kernel, int border, CfNppStreamContext ctx);

typedef struct
{
  const char *name;
  int channels, depth;
  unsigned mask;
  int nv12;                     /* a second, half-size 2-channel plane */
  const char *npp_suffix;       /* NPP variant, or NULL */
} Format;

typedef struct
{
  CfBenchFrames luma, chroma;
  CfGaussianParams p, pc;
  CfBenchFilter blur_luma, blur_chroma; /* p on luma, pc on chroma */
  int nv12;
  int mask_width;               /* NPP */
  NppGaussFn npp;
  NppGaussAdvFn npp_adv;
  float *taps;                  /* device, 2r+1 */
  CfNppStreamContext ctx;
} Run;

static CfStatus
blur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_gaussian_blur (exec, src, dst, params);
}

/* Frames of w x h, with a half-size 2-channel chroma plane for NV12. */
static void
run_init (Run * r, int w, int h, int channels, int depth, int nv12)
{
  r->luma = cf_bench_frames_new (w, h, channels, depth);
  r->blur_luma.frames = &r->luma;
  r->blur_luma.filter = blur;
  r->blur_luma.params = &r->p;
  r->nv12 = nv12;
  if (nv12) {
    r->chroma = cf_bench_frames_new (w / 2, h / 2, 2, 8);
    r->blur_chroma.frames = &r->chroma;
    r->blur_chroma.filter = blur;
    r->blur_chroma.params = &r->pc;
  }
}

static void
run_free (Run * r)
{
  cf_bench_frames_free (&r->luma);
  cf_scratch_release (&r->blur_luma.scratch);
  if (r->nv12) {
    cf_bench_frames_free (&r->chroma);
    cf_scratch_release (&r->blur_chroma.scratch);
  }
}

/* Every plane of frame i. */
static void
ours (void *c, int i)
{
  Run *r = c;
  if (r->nv12)
    cf_bench_filter_pair (&r->blur_luma, &r->blur_chroma, i);
  else
    cf_bench_filter (&r->blur_luma, i);
}

static CfNppiSize
npp_size (const CfPlane * p)
{
  CfNppiSize s = { p->width, p->height };
  return s;
}

static void
npp_mask (void *c, int i)
{
  Run *r = c;
  CfPlane *s = &r->luma.src[i % r->luma.count], *d =
      &r->luma.dst[i % r->luma.count];
  CfNppiPoint o = { 0, 0 };
  r->npp (s->data, (int) s->stride, npp_size (s), o, d->data, (int) d->stride,
      npp_size (s), cf_npp_mask_size (r->mask_width), CF_NPP_BORDER_REPLICATE,
      r->ctx);
}

static void
npp_advanced (void *c, int i)
{
  Run *r = c;
  CfPlane *s = &r->luma.src[i % r->luma.count], *d =
      &r->luma.dst[i % r->luma.count];
  CfNppiPoint o = { 0, 0 };
  r->npp_adv (s->data, (int) s->stride, npp_size (s), o, d->data,
      (int) d->stride, npp_size (s), 2 * r->p.radius_x + 1, r->taps,
      CF_NPP_BORDER_REPLICATE, r->ctx);
}

static double
copy_floor (Run * r)
{
  double ms = cf_bench_copy_ms (&r->luma, REPS);
  if (r->nv12)
    ms += cf_bench_copy_ms (&r->chroma, REPS);
  return ms;
}

/* Full 2r+1 taps on the device, for NPP's advanced Gaussian. */
static float *
device_taps (double sigma, int radius)
{
  float half[CF_GAUSSIAN_MAX_RADIUS + 1], full[2 * CF_GAUSSIAN_MAX_RADIUS + 1];
  void *d;
  cf_gaussian_weights (sigma, radius, half);
  for (int k = -radius; k <= radius; k++)
    full[k + radius] = half[abs (k)];
  cf_bench_check (cf_device_alloc (&d, sizeof (float) * (2 * radius + 1)),
      "alloc");
  cf_bench_check (cf_copy_2d_async (d, 0, full, 0,
          sizeof (float) * (2 * radius + 1), 1, cf_bench_stream ()), "taps");
  cf_bench_check (cf_stream_synchronize (cf_bench_stream ()), "taps");
  return d;
}

static void
set_params (Run * r, double sigma, int radius, CfGaussianPath path)
{
  CfGaussianParams p = { sigma, sigma, radius, radius, 0, CF_BORDER_CLAMP,
    r->p.channel_mask, 0.0, path
  };
  r->p = p;
  r->pc = p;
  r->pc.sigma_x = r->pc.sigma_y = sigma / 2;
  r->pc.radius_x = r->pc.radius_y = cf_gaussian_default_radius (sigma / 2);
  r->pc.channel_mask = 3;
}

/* ms of our filter on every plane with the given path (slow ones timed
 * once). */
static double
ours_ms (Run * r, double sigma, CfGaussianPath path)
{
  set_params (r, sigma, cf_gaussian_default_radius (sigma), path);
  return cf_bench_time_ms (ours, r, REPS, SLOW_MS);
}

static void
load_npp (Run * r, const Format * f)
{
  char name[96];
  r->npp = NULL;
  r->npp_adv = NULL;
  if (!f->npp_suffix)
    return;
  snprintf (name, sizeof name, "nppiFilterGaussBorder_%s_Ctx", f->npp_suffix);
  r->npp = (NppGaussFn) cf_npp_symbol (name);
  snprintf (name, sizeof name, "nppiFilterGaussAdvancedBorder_%s_Ctx",
      f->npp_suffix);
  r->npp_adv = (NppGaussAdvFn) cf_npp_symbol (name);
}

/* bench_gaussian FORMAT WIDTH HEIGHT SIGMA: only that case, a few launches
 * (for a profiler). */
static int
profile_one (char **argv, const Format * formats, size_t n)
{
  for (size_t f = 0; f < n; f++) {
    if (strcmp (argv[1], formats[f].name) != 0)
      continue;
    Run r = { 0 };
    double sigma = atof (argv[4]);
    run_init (&r, atoi (argv[2]), atoi (argv[3]), formats[f].channels,
        formats[f].depth, 0);
    r.p.channel_mask = formats[f].mask;
    printf ("%s %sx%s sigma %g: %.3f ms\n", argv[1], argv[2], argv[3], sigma,
        ours_ms (&r, sigma, CF_GAUSSIAN_AUTO));
    run_free (&r);
    return 0;
  }
  return 1;
}

/* One run's setup for a format at 4K. */
static void
run_format (Run * r, const Format * fm)
{
  memset (r, 0, sizeof *r);
  run_init (r, 3840, 2160, fm->channels, fm->depth, fm->nv12);
  r->ctx = cf_npp_context ();
  r->p.channel_mask = fm->mask;
  load_npp (r, fm);
}

static void
sweep (const Format * formats, size_t nformats)
{
  static const double sigmas[] = { 0.8, 1, 1.5, 2, 5, 8, 10, 20, 50, 100 };

  printf ("### Sigma sweep, 3840x2160 (radius = ceil(3 sigma), clamp "
      "border; auto = what the element runs)\n\n");
  cf_bench_table ("format | sigma | radius | path | auto ms | copy floor ms | "
      "auto/floor | direct ms | window ms | multirate ms | multirate/floor | "
      "NPP same taps ms | NPP/auto");
  for (size_t f = 0; f < nformats; f++) {
    const Format *fm = &formats[f];
    Run r;
    run_format (&r, fm);
    double floor_ms = copy_floor (&r);
    for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
      int radius = cf_gaussian_default_radius (sigmas[g]);
      double ms = ours_ms (&r, sigmas[g], CF_GAUSSIAN_AUTO);
      const char *path =
          cf_gaussian_prefers_direct (&r.p, fm->depth, fm->channels) ?
          "direct" : cf_gaussian_uses_multirate (&r.p) ? "multirate" :
          cf_gaussian_uses_window (&r.p, fm->channels) ? "window" : "direct";
      double direct = ours_ms (&r, sigmas[g], CF_GAUSSIAN_DIRECT);
      double win = ours_ms (&r, sigmas[g], CF_GAUSSIAN_WINDOW);
      double mr = ours_ms (&r, sigmas[g], CF_GAUSSIAN_MULTIRATE);
      char npp[32] = "-", ratio[32] = "-";
      /* NPP's general filter takes 0.14 s a frame at sigma 20 RGBA. */
      if (r.npp_adv && radius <= 60) {
        set_params (&r, sigmas[g], radius, CF_GAUSSIAN_AUTO);
        r.taps = device_taps (sigmas[g], radius);
        double n = cf_bench_time_ms (npp_advanced, &r, REPS, SLOW_MS);
        snprintf (npp, sizeof npp, "%.3f", n);
        snprintf (ratio, sizeof ratio, "%.2f", n / ms);
        cf_device_free (r.taps);
      }
      printf ("| %s | %g | %d | %s | %.3f | %.3f | %.2f | %.3f | %.3f | "
          "%.3f | %.2f | %s | %s |\n", fm->name, sigmas[g], radius, path, ms,
          floor_ms, ms / floor_ms, direct, win, mr, mr / floor_ms, npp, ratio);
      fflush (stdout);
    }
    run_free (&r);
  }
}

/* Direct, window and multi-rate around the crossovers (CF_GW_MIN_RADIUS,
 * CF_GM_MIN_RADIUS). */
static void
crossover (const Format * formats, size_t nformats)
{
  printf ("\n### Crossover, 3840x2160: direct / window / multirate ms by "
      "radius\n\n");
  cf_bench_table ("format | r 12 | r 15 | r 16 | r 20 | r 24 | r 27 | r 30 | "
      "r 32 | r 45 | r 60 | r 127 | r 300");
  for (size_t f = 0; f < nformats; f++) {
    static const int radii[] = { 12, 15, 16, 20, 24, 27, 30, 32, 45, 60, 127,
      300
    };
    Run r;
    run_format (&r, &formats[f]);
    printf ("| %s |", formats[f].name);
    for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++)
      printf (" %.3f / %.3f / %.3f |", ours_ms (&r, radii[k] / 3.0,
              CF_GAUSSIAN_DIRECT), ours_ms (&r, radii[k] / 3.0,
              CF_GAUSSIAN_WINDOW), ours_ms (&r, radii[k] / 3.0,
              CF_GAUSSIAN_MULTIRATE));
    printf ("\n");
    fflush (stdout);
    run_free (&r);
  }
}

/* One path alone (window or multi-rate) at every sigma the sweep takes
 * from 2 up (a short run: no direct path, no NPP). */
static void
path_only (const Format * formats, size_t nformats, CfGaussianPath path)
{
  static const double sigmas[] = { 2, 5, 10, 20, 50, 100 };
  const char *name = path == CF_GAUSSIAN_WINDOW ? "window" : "multirate";

  printf ("### %s path, 3840x2160 (radius = ceil(3 sigma), clamp "
      "border)\n\n", name);
  char columns[96];
  snprintf (columns, sizeof columns, "format | sigma | radius | %s ms | "
      "copy floor ms | %s/floor", name, name);
  cf_bench_table (columns);
  for (size_t f = 0; f < nformats; f++) {
    Run r;
    run_format (&r, &formats[f]);
    double floor_ms = copy_floor (&r);
    for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
      double ms = ours_ms (&r, sigmas[g], path);
      printf ("| %s | %g | %d | %.3f | %.3f | %.2f |\n", formats[f].name,
          sigmas[g], cf_gaussian_default_radius (sigmas[g]), ms, floor_ms,
          ms / floor_ms);
      fflush (stdout);
    }
    run_free (&r);
  }
}

/* NPP's fixed masks against ours with the same width. */
static void
fixed_masks (const Format * formats, size_t nformats)
{
  printf ("\n### Against NPP's fixed Gaussian masks, 3840x2160 (equal "
      "widths)\n\n");
  cf_bench_table ("format | mask | ours ms | copy floor ms | ours/floor | "
      "NPP mask ms | NPP/ours");
  for (size_t f = 0; f < nformats; f++) {
    const Format *fm = &formats[f];
    Run r;
    run_format (&r, fm);
    double floor_ms = copy_floor (&r);
    for (int m = 3; m <= 7; m += 2) {
      int radius = m / 2;
      set_params (&r, radius / 3.0 > 0.5 ? radius / 3.0 : 0.5, radius,
          CF_GAUSSIAN_AUTO);
      double ms = cf_bench_median_ms (ours, &r, REPS);
      char npp[32] = "-", ratio[32] = "-";
      if (r.npp) {
        r.mask_width = m;
        double n = cf_bench_median_ms (npp_mask, &r, REPS);
        snprintf (npp, sizeof npp, "%.3f", n);
        snprintf (ratio, sizeof ratio, "%.2f", n / ms);
      }
      printf ("| %s | %dx%d | %.3f | %.3f | %.2f | %s | %s |\n", fm->name, m,
          m, ms, floor_ms, ms / floor_ms, npp, ratio);
    }
    run_free (&r);
  }
}

int
main (int argc, char **argv)
{
  static const Format formats[] = {
    {"GRAY8", 1, 8, 1, 0, "8u_C1R"},
    {"GRAY16", 1, 16, 1, 0, "16u_C1R"},
    {"RGBA", 4, 8, 7, 0, "8u_C4R"},
    {"NV12", 1, 8, 1, 1, NULL},
  };
  const size_t n = sizeof formats / sizeof formats[0];

  cf_bench_init ();
  if (argc == 5)
    return profile_one (argv, formats, 3);
  cf_bench_npp_banner ("nppiFilterGaussBorder_8u_C1R_Ctx");
  /* bench_gaussian crossover|masks|window|multirate: that table only. */
  if (argc == 2 && strcmp (argv[1], "crossover") == 0)
    crossover (formats, n);
  else if (argc == 2 && strcmp (argv[1], "window") == 0)
    path_only (formats, n, CF_GAUSSIAN_WINDOW);
  else if (argc == 2 && strcmp (argv[1], "multirate") == 0)
    path_only (formats, n, CF_GAUSSIAN_MULTIRATE);
  else if (argc == 2 && strcmp (argv[1], "masks") == 0)
    fixed_masks (formats, 3);
  else {
    sweep (formats, n);
    fixed_masks (formats, 3);
    crossover (formats, n);
  }
  cf_bench_nv12_floors (3840, 2160, REPS);
  return 0;
}
