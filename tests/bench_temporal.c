/* Benchmark: device-resident cudatemporaldenoise kernel time against the
 * copy floor of its traffic: it reads the current and the previous frame
 * and writes one, 1.5 times an identity copy's bytes, so the floor is 1.5 x
 * a device-to-device copy of the frame measured in the same run. 4K NV12
 * (the luma plane writing the map its chroma plane reads), 4K RGBA and
 * 1080p GRAY16_LE; the spatial pass off and on, the noise level given and
 * estimated. Prints markdown. */
#include "cf_bench_util.h"
#include "temporal.h"
#include "cf_runtime.h"

#include <stdio.h>
#include <stdlib.h>

#define REPS 21

typedef struct
{
  CfBenchFrames planes[2];      /* plane 0, and NV12's chroma */
  int n_planes;
  CfPlane map;
  CfTemporalParams p;
  CfScratch scratch;
} Run;

static void
params_for (CfTemporalParams * t, int plane, unsigned mask, double noise,
    double spatial)
{
  CfTemporalParams p = { 0 };

  p.mode = CF_TEMPORAL_ADAPTIVE;
  p.strength = 0.8;
  p.noise = noise;
  p.channel_mask = mask;
  p.motion_mask = plane ? 0 : mask;
  if (spatial > 0) {
    p.spatial.sigma_x = p.spatial.sigma_y = CF_TEMPORAL_SPATIAL_SIGMA /
        (plane ? 2 : 1);
    p.spatial.radius_x = p.spatial.radius_y =
        cf_bilateral_default_radius (p.spatial.sigma_x);
    p.spatial.sigma_range = spatial;
    p.spatial.mode = CF_BILATERAL_EXACT;
    p.spatial.distance = CF_BILATERAL_JOINT;
    p.spatial.channel_mask = mask;
  }
  *t = p;
}

/* Frame i: src i, prev i + 1 (another frame of the ring), dst i. */
static void
temporal (void *ctx, int i)
{
  Run *r = ctx;
  CfExec exec = { 1, cf_bench_stream (), &r->scratch };
  double noise = r->p.noise, spatial = r->p.spatial.sigma_range;

  for (int k = 0; k < r->n_planes; k++) {
    CfBenchFrames *f = &r->planes[k];
    CfTemporalParams p;

    params_for (&p, k, k ? 0x3 : r->p.channel_mask, noise, spatial);
    p.frame = i;
    if (r->n_planes > 1) {
      p.map_use = k ? CF_TEMPORAL_MAP_READ : CF_TEMPORAL_MAP_WRITE;
      p.map_w_sub = p.map_h_sub = k;
    }
    cf_bench_check (cf_temporal (&exec, &f->src[i % f->count],
            &f->src[(i + 1) % f->count], &f->dst[i % f->count], &r->map, &p),
        "cf_temporal");
  }
}

int
main (void)
{
  static const struct
  {
    const char *name;
    int w, h, channels, depth;
    unsigned mask;
    int nv12;
  } formats[] = {
    {"NV12 3840x2160", 3840, 2160, 1, 8, 0x1, 1},
    {"RGBA 3840x2160", 3840, 2160, 4, 8, 0x7, 0},
    {"GRAY16_LE 1920x1080", 1920, 1080, 1, 16, 0x1, 0},
  };
  static const struct
  {
    double noise, spatial;
  } settings[] = { {8, 0}, {0, 0}, {8, 0.1}, {0, 0.1} };

  cf_bench_init ();
  printf ("### cudatemporaldenoise kernel time (ms, median of %d) against "
      "the floor of its traffic (1.5 x a device copy of the frame)\n\n", REPS);
  cf_bench_table ("format | noise-level | spatial | ours ms | copy ms | "
      "floor ms (1.5 x copy) | ours/floor");
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    Run r = { 0 };
    double copy;

    r.n_planes = formats[f].nv12 ? 2 : 1;
    r.planes[0] = cf_bench_frames_new (formats[f].w, formats[f].h,
        formats[f].channels, formats[f].depth);
    if (r.n_planes > 1)
      r.planes[1] = cf_bench_frames_new (formats[f].w / 2, formats[f].h / 2,
          2, 8);
    r.map = r.planes[0].src[0];
    cf_bench_check (cf_device_alloc_2d (&r.map.data, &r.map.stride,
            formats[f].w, formats[f].h), "alloc");
    r.map.channels = 1;
    r.map.depth = 8;
    copy = cf_bench_copy_ms (&r.planes[0], REPS);
    if (r.n_planes > 1)
      copy += cf_bench_copy_ms (&r.planes[1], REPS);
    for (size_t s = 0; s < sizeof settings / sizeof settings[0]; s++) {
      double ms;

      params_for (&r.p, 0, formats[f].mask, settings[s].noise,
          settings[s].spatial);
      ms = cf_bench_median_ms (temporal, &r, REPS);
      printf ("%s | %s | %.2f | %.3f | %.3f | %.3f | %.2f\n", formats[f].name,
          settings[s].noise > 0 ? "8" : "auto", settings[s].spatial, ms, copy,
          1.5 * copy, ms / (1.5 * copy));
    }
    cf_device_free (r.map.data);
    for (int k = 0; k < r.n_planes; k++)
      cf_bench_frames_free (&r.planes[k]);
    cf_scratch_release (&r.scratch);
  }
  return 0;
}
