/* Benchmark: device-resident cudabilateral kernel time at 3840x2160 against
 * the identity-copy floor and NPP's nppiFilterBilateralGaussBorder (GRAY8;
 * NPP has no 4-channel bilateral) in the same run, on random frames and on
 * an ultrasound-like frame (a random sector on black, whose flat tiles skip
 * their taps). Prints markdown.
 *
 * Separable mode is also timed as two launches of the exact kernel with
 * 1-D windows (what devices with too little shared memory for the one
 * kernel run), to see where each wins, and for one channel through the
 * general one-kernel form instead of the symmetric-pairs kernel (radii up
 * to 8), to compare the two in the same run.
 *
 * bench_bilateral CASE RADIUS runs one case (its row number in the table,
 * from 0) at one radius, for ncu. */
#include "cf_bench_util.h"
#include "bilateral.h"
#include "bilateral_tuning.h"
#include "cf_runtime.h"

#include <stdio.h>
#include <stdlib.h>

#define REPS 21
#define WIDTH 3840
#define HEIGHT 2160
#define SIGMA_RANGE 0.1

typedef int (*NppBilateralFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi, int radius,
    int step_between_pixels, float val_square_sigma, float pos_square_sigma,
    int border, CfNppStreamContext ctx);

static const int radii[] = { 1, 3, 5, 7, 10 };

#define N_RADII ((int) (sizeof radii / sizeof radii[0]))

typedef struct
{
  CfBilateralParams p;
  CfBenchFilter ours;           /* cf_bilateral of p on ours.frames */
  NppBilateralFn npp;
  CfNppStreamContext ctx;
} Run;

static CfStatus
bilateral (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_bilateral (exec, src, dst, params);
}

static void
npp (void *c, int i)
{
  Run *r = c;
  CfPlane *s = &r->ours.frames->src[i % r->ours.frames->count];
  CfPlane *d = &r->ours.frames->dst[i % r->ours.frames->count];
  CfNppiSize size = { s->width, s->height };
  CfNppiPoint o = { 0, 0 };
  double sr = SIGMA_RANGE * 255.0;
  int st = r->npp (s->data, (int) s->stride, size, o, d->data,
      (int) d->stride, size, r->p.radius_x, 1, (float) (sr * sr),
      (float) (r->p.sigma_x * r->p.sigma_x), CF_NPP_BORDER_REPLICATE, r->ctx);
  if (st != 0) {
    fprintf (stderr, "NPP bilateral failed: %d\n", st);
    exit (1);
  }
}

/* Random inside a sector opening from the top centre, 0 outside (about
 * 55% of the frame), as ultrasound frames are. */
static void
blacken_outside_sector (CfBenchFrames * f)
{
  int w = f->src[0].width, h = f->src[0].height;
  unsigned char *host = malloc ((size_t) w * h);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      host[(size_t) y * w + x] = abs (2 * x - w) < 0.9 * w * y / h ?
          (unsigned char) (rand () >> 7) : 0;
  for (int i = 0; i < f->count; i++)
    cf_bench_check (cf_copy_2d_async (f->src[i].data, f->src[i].stride, host,
            w, w, h, cf_bench_stream ()), "upload");
  cf_bench_check (cf_stream_synchronize (cf_bench_stream ()), "upload");
  free (host);
}

/* A table row of a[k] / b[k] for every radius. */
static void
ratio_row (const char *name, const double *a, const double *b)
{
  printf ("| %s |", name);
  for (int k = 0; k < N_RADII; k++)
    printf (" %.2fx |", a[k] / b[k]);
  printf ("\n");
}

/* Taps of our elliptic window (NPP's is the full square). */
static int
window_taps (int r)
{
  int n = 0;
  for (int dy = -r; dy <= r; dy++)
    for (int dx = -r; dx <= r; dx++)
      n += cf_bilateral_in_window (dx, dy, r, r);
  return n;
}

static void
set_radius (Run * r, int radius, CfBilateralMode mode,
    CfBilateralDistance distance, unsigned mask)
{
  CfBilateralParams p = { radius / 2.0, radius / 2.0, radius, radius,
    SIGMA_RANGE, mode, distance, CF_BORDER_CLAMP, mask
  };
  r->p = p;
}

typedef struct
{
  const char *name;
  int channels;
  unsigned mask;
  CfBilateralMode mode;
  CfBilateralDistance distance;
  int sector;                   /* the ultrasound-like frames */
  int two_pass;                 /* separable as two exact 1-D launches */
  int general;                  /* separable without the pairs kernel */
  int depth;                    /* 0: 8 bits */
  int guided;                   /* joint bilateral, a GRAY8 frame as guide */
} Case;

static void
set_tuning (const Case * c)
{
  CfBilateralTuning t = { 0, c->two_pass, c->general };
  cf_bilateral_set_tuning (&t);
}

/* One case at one radius: frames, a warm-up, the median. */
static int
profile_one (const Case * c, int radius)
{
  Run run = {.ours = {.filter = bilateral,.params = &run.p} };
  CfBenchFrames frames;

  cf_bench_init ();
  frames = cf_bench_frames_new (WIDTH, HEIGHT, c->channels,
      c->depth ? c->depth : 8);
  if (c->sector)
    blacken_outside_sector (&frames);
  run.ours.frames = &frames;
  set_radius (&run, radius, c->mode, c->distance, c->mask);
  /* guided alone: another frame of the same layout as guide */
  if (c->guided)
    run.p.guide = frames.src[frames.count - 1];
  set_tuning (c);
  printf ("%s r=%d: %.3f ms\n", c->name, radius,
      cf_bench_median_ms (cf_bench_filter, &run.ours, REPS));
  cf_scratch_release (&run.ours.scratch);
  cf_bench_frames_free (&frames);
  return 0;
}

int
main (int argc, char **argv)
{
  static const Case cases[] = {
    {"exact GRAY8", 1, 1, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT},
    {"separable GRAY8", 1, 1, CF_BILATERAL_SEPARABLE, CF_BILATERAL_JOINT},
    {"exact RGBA joint", 4, 7, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT},
    {"exact RGBA per-channel", 4, 7, CF_BILATERAL_EXACT,
        CF_BILATERAL_PER_CHANNEL},
    {"separable RGBA joint", 4, 7, CF_BILATERAL_SEPARABLE,
        CF_BILATERAL_JOINT},
    {"separable RGBA per-channel", 4, 7, CF_BILATERAL_SEPARABLE,
        CF_BILATERAL_PER_CHANNEL},
    {"exact GRAY8, sector on black", 1, 1, CF_BILATERAL_EXACT,
        CF_BILATERAL_JOINT, 1},
    {"separable GRAY8, two passes", 1, 1, CF_BILATERAL_SEPARABLE,
        CF_BILATERAL_JOINT, 0, 1},
    {"separable RGBA joint, two passes", 4, 7, CF_BILATERAL_SEPARABLE,
        CF_BILATERAL_JOINT, 0, 1},
    {"exact GRAY16", 1, 1, CF_BILATERAL_EXACT, CF_BILATERAL_JOINT, 0, 0, 0,
        16},
    {"separable GRAY16", 1, 1, CF_BILATERAL_SEPARABLE, CF_BILATERAL_JOINT, 0,
        0, 0, 16},
    {"separable GRAY8, general kernel", 1, 1, CF_BILATERAL_SEPARABLE,
        CF_BILATERAL_JOINT, 0, 0, 1},
    {"separable GRAY16, general kernel", 1, 1, CF_BILATERAL_SEPARABLE,
        CF_BILATERAL_JOINT, 0, 0, 1, 16},
    {"exact GRAY8, GRAY8 guide", 1, 1, CF_BILATERAL_EXACT,
        CF_BILATERAL_JOINT, 0, 0, 0, 0, 1},
    {"exact RGBA joint, GRAY8 guide", 4, 7, CF_BILATERAL_EXACT,
        CF_BILATERAL_JOINT, 0, 0, 0, 0, 1},
    {"exact GRAY16, GRAY8 guide", 1, 1, CF_BILATERAL_EXACT,
        CF_BILATERAL_JOINT, 0, 0, 0, 16, 1},
  };
  enum
  { N_CASES = sizeof cases / sizeof cases[0] };
  double ms[N_CASES][N_RADII], npp_ms[N_RADII], floor_gray, floor_rgba;
  CfBenchFrames gray, gray16, rgba, sector;
  Run run = {.ours = {.filter = bilateral,.params = &run.p} };

  if (argc == 3) {
    int c = atoi (argv[1]), radius = atoi (argv[2]);
    if (c < 0 || c >= N_CASES || radius < 1 || radius > CF_BILATERAL_MAX_RADIUS) {
      fprintf (stderr, "usage: %s [CASE 0..%d RADIUS 1..%d]\n", argv[0],
          N_CASES - 1, CF_BILATERAL_MAX_RADIUS);
      return 2;
    }
    return profile_one (&cases[c], radius);
  }
  cf_bench_init ();
  run.npp = (NppBilateralFn)
      cf_bench_npp_banner ("nppiFilterBilateralGaussBorder_8u_C1R_Ctx");
  run.ctx = cf_npp_context ();

  gray = cf_bench_frames_new (WIDTH, HEIGHT, 1, 8);
  gray16 = cf_bench_frames_new (WIDTH, HEIGHT, 1, 16);
  rgba = cf_bench_frames_new (WIDTH, HEIGHT, 4, 8);
  sector = cf_bench_frames_new (WIDTH, HEIGHT, 1, 8);
  blacken_outside_sector (&sector);
  floor_gray = cf_bench_copy_ms (&gray, REPS);
  floor_rgba = cf_bench_copy_ms (&rgba, REPS);

  for (int c = 0; c < N_CASES; c++)
    for (int k = 0; k < N_RADII; k++) {
      run.ours.frames = cases[c].sector ? &sector : cases[c].depth ?
          &gray16 : cases[c].channels == 1 ? &gray : &rgba;
      set_radius (&run, radii[k], cases[c].mode, cases[c].distance,
          cases[c].mask);
      /* another frame of the gray set: the guide's reads are not the
       * frame's */
      if (cases[c].guided)
        run.p.guide = gray.src[gray.count - 1];
      set_tuning (&cases[c]);
      ms[c][k] = cf_bench_median_ms (cf_bench_filter, &run.ours, REPS);
    }
  set_tuning (&cases[0]);
  for (int k = 0; k < N_RADII; k++) {
    npp_ms[k] = 0.0;
    if (!run.npp)
      continue;
    run.ours.frames = &gray;
    set_radius (&run, radii[k], CF_BILATERAL_EXACT, CF_BILATERAL_JOINT, 1);
    npp_ms[k] = cf_bench_median_ms (npp, &run, REPS);
  }

  printf ("### Kernel time, %dx%d, sigma-space = radius / 2, sigma-range = "
      "%.2f, clamp border (median of %d, ms)\n\n", WIDTH, HEIGHT, SIGMA_RANGE,
      REPS);
  printf ("| case |");
  for (int k = 0; k < N_RADII; k++)
    printf (" r=%d |", radii[k]);
  printf ("\n|---|");
  for (int k = 0; k < N_RADII; k++)
    printf ("---|");
  printf ("\n| taps, exact (NPP) |");
  for (int k = 0; k < N_RADII; k++)
    printf (" %d (%d) |", window_taps (radii[k]),
        (2 * radii[k] + 1) * (2 * radii[k] + 1));
  printf ("\n");
  for (int c = 0; c < N_CASES; c++) {
    printf ("| %s |", cases[c].name);
    for (int k = 0; k < N_RADII; k++)
      printf (" %.3f |", ms[c][k]);
    printf ("\n");
  }
  if (run.npp) {
    printf ("| NPP GRAY8 |");
    for (int k = 0; k < N_RADII; k++)
      printf (" %.3f |", npp_ms[k]);
    printf ("\n");
    ratio_row ("NPP / exact GRAY8", npp_ms, ms[0]);
  }
  ratio_row ("exact / separable GRAY8", ms[0], ms[1]);
  ratio_row ("exact / separable GRAY16", ms[9], ms[10]);
  ratio_row ("exact / separable RGBA joint", ms[2], ms[4]);
  ratio_row ("exact / separable RGBA per-channel", ms[3], ms[5]);
  printf ("\nCopy floor (device to device, same frames): GRAY8 %.3f ms, "
      "RGBA %.3f ms\n\n", floor_gray, floor_rgba);

  /* radii[2] = 5, radii[3] = 7 */
  printf ("### Targets\n\n| target | measured | met |\n|---|---|---|\n");
  if (run.npp)
    for (int k = 2; k <= 3; k++)
      printf ("| exact GRAY8 >= 3x NPP, r=%d | %.2fx | %s |\n", radii[k],
          npp_ms[k] / ms[0][k], npp_ms[k] / ms[0][k] >= 3.0 ? "yes" : "NO");
  else
    printf ("| exact GRAY8 >= 3x NPP, r=5 and 7 | NPP not found | - |\n");
  for (int c = 2; c <= 3; c++)
    printf ("| %s r=5 < 1 ms | %.3f ms | %s |\n", cases[c].name, ms[c][2],
        ms[c][2] < 1.0 ? "yes" : "NO");
  /* exact and separable rows of the same format and distance */
  static const int pairs[][2] = { {0, 1}, {2, 4}, {3, 5} };
  for (int i = 0; i < 3; i++) {
    double x = ms[pairs[i][0]][3] / ms[pairs[i][1]][3];
    printf ("| separable >= 4x exact, %s r=7 | %.2fx | %s |\n",
        cases[pairs[i][0]].name + 6, x, x >= 4.0 ? "yes" : "NO");
  }

  cf_scratch_release (&run.ours.scratch);
  cf_bench_frames_free (&gray);
  cf_bench_frames_free (&gray16);
  cf_bench_frames_free (&rgba);
  cf_bench_frames_free (&sector);
  return 0;
}
