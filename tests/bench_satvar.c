/* Benchmark: cudasatblur's per-pixel radius (cf_satvar: a vignette ellipse,
 * a tilt-shift band, and a radius map of a second stream (radius-map=
 * stream: an 8-bit map of the frame's size, a radial ramp), fractional
 * radii) against the fixed-radius box
 * (cf_satblur) of the same largest radius and the identity-copy floor, at
 * 3840x2160 RGBA and 1920x1080 GRAY16_LE, one pass, clamp border; ratio =
 * per-pixel / fixed; the map again on the table paths (cf_satvar_table,
 * which radii above CF_SATVAR_TILE_MAX_RADIUS take anyway).
 * Device-resident kernel time, medians. Prints markdown. */
#include "cf_bench_util.h"
#include "satblur.h"
#include "satvar.h"
#include "satvar_paths.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

/* The table paths, where cf_satvar would take the tile path. */
static CfStatus
table (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_satvar_table (exec, src, dst, params);
}

/* A GRAY8 radius map of @w x @h on the device: 0 at the centre, growing
 * to 255 at the corners (a smooth ramp: fractional radii everywhere). */
static CfPlane
device_map (int w, int h)
{
  CfPlane m = { NULL, 0, w, h, 1, 8, 0 };
  unsigned char *host = malloc ((size_t) w * h);
  double far = sqrt ((double) w * w + (double) h * h) / 2;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      host[(size_t) y * w + x] = (unsigned char) (255.0 *
          sqrt ((x - w / 2.0) * (x - w / 2.0) + (y - h / 2.0) * (y - h /
                  2.0)) / far);
  cf_bench_check (cf_device_alloc_2d (&m.data, &m.stride, w, h), "map");
  cf_bench_check (cf_copy_2d_async (m.data, m.stride, host, w, w, h,
          cf_bench_stream ()), "map upload");
  cf_bench_check (cf_stream_synchronize (cf_bench_stream ()), "map sync");
  free (host);
  return m;
}

int
main (void)
{
  static const struct
  {
    int w, h, channels, depth;
    unsigned mask;
    const char *name;
  } formats[] = {
    {3840, 2160, 4, 8, 0x7, "RGBA 3840x2160"},
    {1920, 1080, 1, 16, 0x1, "GRAY16_LE 1920x1080"},
  };
  static const int radii[] = { 4, 8, 12, 16, 24, 32, 64, 256 };

  cf_bench_init ();
  cf_bench_table ("format | radius | copy ms | fixed ms | ellipse ms | "
      "band ms | map ms | table map ms | ellipse / fixed | band / fixed | "
      "map / fixed");
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    CfBenchFrames frames = cf_bench_frames_new (formats[f].w, formats[f].h,
        formats[f].channels, formats[f].depth);
    double copy = cf_bench_copy_ms (&frames, REPS);
    CfPlane map = device_map (formats[f].w, formats[f].h);
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
      CfSatVarParams mp = ep;
      mp.source = CF_SATVAR_MAP;
      mp.map = map;
      CfBenchFilter a = { &frames, fixed, &fp }, b = { &frames, variable, &ep },
          c = { &frames, variable, &bp }, d = { &frames, variable, &mp },
          e = { &frames, table, &mp };
      double ms[5] = {
        cf_bench_median_ms (cf_bench_filter, &a, REPS),
        cf_bench_median_ms (cf_bench_filter, &b, REPS),
        cf_bench_median_ms (cf_bench_filter, &c, REPS),
        cf_bench_median_ms (cf_bench_filter, &d, REPS),
        cf_bench_median_ms (cf_bench_filter, &e, REPS),
      };
      printf ("%s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2fx | "
          "%.2fx | %.2fx\n", formats[f].name, rad, copy, ms[0], ms[1], ms[2],
          ms[3], ms[4], ms[1] / ms[0], ms[2] / ms[0], ms[3] / ms[0]);
      cf_scratch_release (&a.scratch);
      cf_scratch_release (&b.scratch);
      cf_scratch_release (&c.scratch);
      cf_scratch_release (&d.scratch);
      cf_scratch_release (&e.scratch);
    }
    cf_device_free (map.data);
    cf_bench_frames_free (&frames);
  }
  return 0;
}
