/* Benchmark: cudasatblur's per-pixel radius (cf_satvar: a vignette ellipse
 * and a tilt-shift band, fractional radii) against the fixed-radius box
 * (cf_satblur) of the same largest radius and the identity-copy floor, at
 * 3840x2160 RGBA and 1920x1080 GRAY16_LE, one pass, clamp border; ratio =
 * per-pixel / fixed. Device-resident kernel time, medians. Prints
 * markdown. */
#include "cf_bench_util.h"
#include "satblur.h"
#include "satvar.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdio.h>

#define REPS 15

static CfStatus
fixed (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_satblur (exec, src, dst, params);
}

static CfStatus
variable (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_satvar (exec, src, dst, params);
}

int
main (void)
{
  static const struct { int w, h, channels, depth; unsigned mask;
    const char *name; } formats[] = {
    {3840, 2160, 4, 8, 0x7, "RGBA 3840x2160"},
    {1920, 1080, 1, 16, 0x1, "GRAY16_LE 1920x1080"},
  };
  static const int radii[] = { 4, 16, 64, 256 };

  cf_bench_init ();
  cf_bench_table ("format | radius | copy ms | fixed ms | ellipse ms | "
      "band ms | ellipse / fixed | band / fixed");
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    CfBenchFrames frames = cf_bench_frames_new (formats[f].w, formats[f].h,
        formats[f].channels, formats[f].depth);
    double copy = cf_bench_copy_ms (&frames, REPS);
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++) {
      int rad = radii[r];
      CfSatBlurParams fp = { rad, rad, 1, CF_BORDER_CLAMP, formats[f].mask };
      CfSatVarParams ep = { rad, rad, 1, CF_BORDER_CLAMP, formats[f].mask,
        CF_SATVAR_ELLIPSE, 0, 0, formats[f].w / 2.0, formats[f].h / 2.0,
        formats[f].w * 0.3, formats[f].h * 0.3, 1, 0, formats[f].h * 0.25, 0
      };
      CfSatVarParams bp = ep;
      bp.source = CF_SATVAR_BAND;
      bp.half_h = formats[f].h * 0.1;
      bp.cos_a = cos (0.2);
      bp.sin_a = sin (0.2);
      CfBenchFilter a = { &frames, fixed, &fp }, b = { &frames, variable, &ep },
          c = { &frames, variable, &bp };
      double ms[3] = {
        cf_bench_median_ms (cf_bench_filter, &a, REPS),
        cf_bench_median_ms (cf_bench_filter, &b, REPS),
        cf_bench_median_ms (cf_bench_filter, &c, REPS),
      };
      printf ("%s | %d | %.3f | %.3f | %.3f | %.3f | %.2fx | %.2fx\n",
          formats[f].name, rad, copy, ms[0], ms[1], ms[2], ms[1] / ms[0],
          ms[2] / ms[0]);
      cf_scratch_release (&a.scratch);
      cf_scratch_release (&b.scratch);
      cf_scratch_release (&c.scratch);
    }
    cf_bench_frames_free (&frames);
  }
  return 0;
}
