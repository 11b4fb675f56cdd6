/* Benchmark: device-resident cudasatblur kernel time by radius against the
 * identity-copy floor and NPP's nppiFilterBoxBorder, 3840x2160 GRAY8, RGBA
 * and GRAY16, clamp border. Prints markdown. */
#include "cf_bench_util.h"
#include "satblur.h"
#include "cf_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 21
/* NPP's time grows with the box: fewer repetitions once it is slow, none
 * once the next box would take longer than NPP_MAX_MS (if it grows with the
 * area). */
#define NPP_SLOW_MS 20.0
#define NPP_MAX_MS 400.0

typedef int (*NppBoxFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi,
    CfNppiSize mask, CfNppiPoint anchor, int border, CfNppStreamContext ctx);

typedef struct
{
  CfBenchFrames frames;
  CfSatBlurParams p;
  CfBenchFilter ours;           /* cf_satblur of p on frames */
  NppBoxFn npp;
  CfNppStreamContext ctx;
} Run;

static CfStatus
satblur (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_satblur (exec, src, dst, params);
}

static void
run_init (Run * r, int channels, int depth)
{
  r->frames = cf_bench_frames_new (3840, 2160, channels, depth);
  r->ours.frames = &r->frames;
  r->ours.filter = satblur;
  r->ours.params = &r->p;
}

static void
run_free (Run * r)
{
  cf_bench_frames_free (&r->frames);
  cf_scratch_release (&r->ours.scratch);
}

static void
npp_box (void *c, int i)
{
  Run *r = c;
  const CfPlane *s = &r->frames.src[i % r->frames.count];
  const CfPlane *d = &r->frames.dst[i % r->frames.count];
  CfNppiSize size = { s->width, s->height };
  CfNppiSize mask = { 2 * r->p.radius_x + 1, 2 * r->p.radius_y + 1 };
  CfNppiPoint origin = { 0, 0 }, anchor = { r->p.radius_x, r->p.radius_y };
  int err = r->npp (s->data, (int) s->stride, size, origin, d->data,
      (int) d->stride, size, mask, anchor, CF_NPP_BORDER_REPLICATE, r->ctx);
  if (err < 0) {
    fprintf (stderr, "nppiFilterBoxBorder: error %d\n", err);
    exit (1);
  }
}

/* bench_satblur FORMAT RADIUS PASSES: only that case, 4K (for a profiler,
 * or to compare builds). */
static int
profile_one (char **argv, const char *name, int channels, int depth,
    unsigned mask)
{
  Run r = { 0 };
  CfSatBlurParams p = { atoi (argv[2]), atoi (argv[2]), atoi (argv[3]),
    CF_BORDER_CLAMP, mask
  };
  run_init (&r, channels, depth);
  r.p = p;
  printf ("%s radius %s passes %s: %.3f ms\n", name, argv[2], argv[3],
      cf_bench_median_ms (cf_bench_filter, &r.ours, REPS));
  run_free (&r);
  return 0;
}

int
main (int argc, char **argv)
{
  static const struct
  {
    const char *name, *npp;
    int channels, depth;
    unsigned mask;
  } formats[] = {
    {"GRAY8", "nppiFilterBoxBorder_8u_C1R_Ctx", 1, 8, 0x1},
    {"RGBA", "nppiFilterBoxBorder_8u_C4R_Ctx", 4, 8, 0xF},
    {"GRAY16", "nppiFilterBoxBorder_16u_C1R_Ctx", 1, 16, 0x1},
  };
  static const int radii[] = { 1, 3, 7, 15, 31, 63, 127, 500 };

  cf_bench_init ();
  if (argc == 4) {
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
      if (strcmp (argv[1], formats[f].name) == 0)
        return profile_one (argv, formats[f].name, formats[f].channels,
            formats[f].depth, formats[f].mask);
    fprintf (stderr, "usage: %s [GRAY8|RGBA|GRAY16 RADIUS PASSES]\n", argv[0]);
    return 1;
  }
  cf_bench_npp_banner (formats[0].npp);
  printf ("### Kernel time by radius, 3840x2160, clamp border (ms, median "
      "of %d)\n\n", REPS);
  cf_bench_table ("format | radius | box | passes | ours ms | copy floor ms | "
      "ours/floor | ours/radius 1 | NPP ms | NPP/ours");
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    Run r = { 0 };
    run_init (&r, formats[f].channels, formats[f].depth);
    r.npp = (NppBoxFn) cf_npp_symbol (formats[f].npp);
    r.ctx = cf_npp_context ();
    double floor_ms = cf_bench_copy_ms (&r.frames, REPS);
    for (int passes = 1; passes <= 3; passes += 2) {
      double first = 0.0, npp_next = 0.0;
      for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
        CfSatBlurParams p = { radii[k], radii[k], passes, CF_BORDER_CLAMP,
          formats[f].mask
        };
        char npp[32] = "-", ratio[32] = "-";
        r.p = p;
        double ms = cf_bench_median_ms (cf_bench_filter, &r.ours, REPS);
        if (k == 0)
          first = ms;
        if (r.npp && passes == 1 && npp_next < NPP_MAX_MS) {
          double n = cf_bench_time_ms (npp_box, &r, REPS, NPP_SLOW_MS);
          snprintf (npp, sizeof npp, "%.3f", n);
          snprintf (ratio, sizeof ratio, "%.1f", n / ms);
          if (k + 1 < sizeof radii / sizeof radii[0]) {
            double grow = (2.0 * radii[k + 1] + 1) / (2.0 * radii[k] + 1);
            npp_next = n * grow * grow;
          }
        } else if (r.npp && passes == 1) {
          snprintf (npp, sizeof npp, "skipped");
        }
        printf ("| %s | %d | %dx%d | %d | %.3f | %.3f | %.2f | %.2f | %s | "
            "%s |\n", formats[f].name, radii[k], 2 * radii[k] + 1,
            2 * radii[k] + 1, passes, ms, floor_ms, ms / floor_ms,
            ms / first, npp, ratio);
      }
    }
    run_free (&r);
  }
  return 0;
}
