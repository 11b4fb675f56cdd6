/* Benchmark: a region of interest of 10% of the frame against the whole
 * frame, device-resident, as the base class issues it (gst/gstcfregions.c):
 * the filter on a view of the region grown by its reach, then the input
 * copied around the region (cf_copy_outside, one launch). 3840x2160 RGBA and
 * 1920x1080 GRAY16_LE; cudabilateral (exact, radius 4), cudamedian (5x5)
 * and cudagaussianblur (sigma 3); against the identity copy. Prints
 * markdown. */
#include "cf_bench_util.h"
#include "bilateral.h"
#include "median.h"
#include "gaussian.h"
#include "gate.h"
#include "cf_runtime.h"

#include <stdio.h>
#include <string.h>

#define REPS 21

typedef struct
{
  CfBenchFrames *frames;
  const char *name;
  int reach;
  CfBilateralParams b;
  CfMedianParams m;
  CfGaussianParams g;
  int roi;                      /* 0: the whole frame */
  int x, y, w, h;               /* the region */
  CfScratch scratch;
} Run;

static CfPlane
view (const CfPlane * p, int x, int y, int w, int h)
{
  CfPlane v = *p;
  v.data = (char *) p->data + (size_t) y * p->stride +
      (size_t) x * p->channels * (p->depth / 8);
  v.width = w;
  v.height = h;
  return v;
}

static void
run_one (void *ctx, int i)
{
  Run *r = ctx;
  const CfPlane *s = &r->frames->src[i % r->frames->count];
  const CfPlane *d = &r->frames->dst[i % r->frames->count];
  CfExec exec = { 1, cf_bench_stream (), &r->scratch };
  int gx = 0, gy = 0, gw = s->width, gh = s->height;
  CfPlane sv = *s, dv = *d;

  if (r->roi) {
    gx = r->x - r->reach;
    gy = r->y - r->reach;
    gw = r->w + 2 * r->reach;
    gh = r->h + 2 * r->reach;
    sv = view (s, gx, gy, gw, gh);
    dv = view (d, gx, gy, gw, gh);
  }
  if (r->name[0] == 'b')
    cf_bench_check (cf_bilateral (&exec, &sv, &dv, &r->b), "bilateral");
  else if (r->name[0] == 'm')
    cf_bench_check (cf_median (&exec, &sv, &dv, &r->m), "median");
  else
    cf_bench_check (cf_gaussian_blur (&exec, &sv, &dv, &r->g), "gaussian");
  if (r->roi)
    cf_bench_check (cf_copy_outside (&exec, s, d, r->x, r->y, r->w, r->h),
        "outside");
}

int
main (void)
{
  static const struct { int w, h, channels, depth; unsigned mask;
    const char *name; } formats[] = {
    {3840, 2160, 4, 8, 0x7, "RGBA 3840x2160"},
    {1920, 1080, 1, 16, 0x1, "GRAY16_LE 1920x1080"},
  };

  cf_bench_init ();
  cf_bench_table ("format | filter | copy ms | whole frame ms | ROI 10% ms | "
      "ROI / whole");
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    CfBenchFrames frames = cf_bench_frames_new (formats[f].w, formats[f].h,
        formats[f].channels, formats[f].depth);
    double copy_ms = cf_bench_copy_ms (&frames, REPS);
    unsigned m = formats[f].mask;
    Run runs[] = {
      {&frames, "bilateral exact r4", 4, {2.0, 2.0, 4, 4, 0.1,
              CF_BILATERAL_EXACT, CF_BILATERAL_PER_CHANNEL, CF_BORDER_CLAMP,
          m}},
      {&frames, "median 5x5", 2, {0}, {2, 2, CF_MEDIAN_EXACT, 1,
          CF_BORDER_CLAMP, m}},
      {&frames, "gaussian sigma 3", 9, {0}, {0}, {3.0, 3.0, 9, 9}},
    };
    runs[2].g.border = CF_BORDER_CLAMP;
    runs[2].g.channel_mask = m;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
      Run *r = &runs[k];
      double ms[2];
      /* 10% of the area: 0.316 of each side, centred */
      r->w = formats[f].w * 316 / 1000;
      r->h = formats[f].h * 316 / 1000;
      r->x = (formats[f].w - r->w) / 2;
      r->y = (formats[f].h - r->h) / 2;
      for (int v = 0; v < 2; v++) {
        r->roi = v;
        ms[v] = cf_bench_median_ms (run_one, r, REPS);
      }
      printf ("%s | %s | %.3f | %.3f | %.3f | %.2f\n", formats[f].name,
          r->name, copy_ms, ms[0], ms[1], ms[1] / ms[0]);
      cf_scratch_release (&r->scratch);
    }
    cf_bench_frames_free (&frames);
  }
  return 0;
}
