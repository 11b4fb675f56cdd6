/* Benchmark: the value gate (gate-min, gate-max) on a real-looking
 * ultrasound frame (examples/us-speckle: a B-mode sector, black outside
 * the fan, a dark cyst, speckle), 1920x1080, GRAY16_LE and GRAY8 (its high
 * bytes). Four gates: the darkest 30% of the frame (the black outside
 * the sector first: seed 004's shadow areas; ties make it 61%), the
 * darkest 30% of the sector (speckle: scattered over it), its brightest
 * 30%, and the sector's darkest pixels up to 30% of the frame (the issue's
 * "30% of pixels in range", all of them speckle). Device-resident kernel
 * time of
 *   - the filter ungated,
 *   - gated: cudamedian skipping gated-out blocks, then the gate pass;
 *     cudabilateral applying the gate itself (its kernel filters only the
 *     pixels in range and copies the others, no gate pass),
 * against the identity copy (the floor); speed-up = ungated / gated.
 * Prints markdown.
 *   bench_gate FRAME.raw   (one 1920x1080 GRAY16_LE frame; without it a
 *                           synthetic stand-in: a dark fan-less half) */
#include "cf_bench_util.h"
#include "gate.h"
#include "median.h"
#include "bilateral.h"
#include "cf_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 30
#define WIDTH 1920
#define HEIGHT 1080

typedef struct
{
  CfBenchFrames *frames;
  const char *filter;           /* "median" or "bilateral" */
  CfMedianParams m;
  CfBilateralParams b;
  int gated;
  unsigned min, max;
  CfScratch scratch;
} Run;

static void
run_one (void *ctx, int i)
{
  Run *r = ctx;
  const CfPlane *s = &r->frames->src[i % r->frames->count];
  const CfPlane *d = &r->frames->dst[i % r->frames->count];
  CfExec exec = { 1, cf_bench_stream (), &r->scratch };
  CfGate g = { *s, 1, 0, 0, r->min, r->max };
  const CfGate *gate = r->gated ? &g : NULL;

  if (r->filter[0] == 'm') {
    CfMedianParams p = r->m;
    p.gate = gate;
    cf_bench_check (cf_median (&exec, s, d, &p), "median");
  } else {
    CfBilateralParams p = r->b;
    p.gate = gate;
    cf_bench_check (cf_bilateral (&exec, s, d, &p), "bilateral");
  }
  /* cudamedian leaves the gate to the caller */
  if (r->gated && r->filter[0] == 'm')
    cf_bench_check (cf_gate_select (&exec, s, d, &g), "gate");
}

/* The frame at @depth bits into every source frame, and its histogram. */
static void
load_frame (CfBenchFrames * f, const uint16_t * frame16, int depth,
    long *hist)
{
  size_t n = (size_t) WIDTH * HEIGHT;
  int bps = depth / 8;
  unsigned char *host = malloc (n * bps);

  memset (hist, 0, sizeof (long) * 65536);
  for (size_t i = 0; i < n; i++) {
    unsigned v = depth > 8 ? frame16[i] : frame16[i] >> 8;
    if (depth > 8)
      ((uint16_t *) host)[i] = v;
    else
      host[i] = v;
    hist[v]++;
  }
  for (int i = 0; i < f->count; i++)
    cf_bench_check (cf_copy_2d_async (f->src[i].data, f->src[i].stride, host,
            (size_t) WIDTH * bps, (size_t) WIDTH * bps, HEIGHT,
            cf_bench_stream ()), "upload");
  cf_bench_check (cf_stream_synchronize (cf_bench_stream ()), "upload");
  free (host);
}

/* The smallest value v >= @from with hist[from..v] >= @share of @total. */
static unsigned
quantile (const long *hist, unsigned from, double share, long total)
{
  long below = 0;
  unsigned v;
  for (v = from; v < 65535; v++) {
    below += hist[v];
    if (below >= (long) (share * total))
      break;
  }
  return v;
}

static double
share_in (const long *hist, unsigned min, unsigned max)
{
  long in = 0;
  for (unsigned v = min; v <= max; v++)
    in += hist[v];
  return (double) in / ((double) WIDTH * HEIGHT);
}

static uint16_t *
read_frame (const char *path)
{
  size_t n = (size_t) WIDTH * HEIGHT;
  uint16_t *frame = malloc (n * sizeof *frame);
  FILE *f = path ? fopen (path, "rb") : NULL;

  if (f && fread (frame, sizeof *frame, n, f) == n) {
    fclose (f);
    printf ("frame: %s\n\n", path);
    return frame;
  }
  if (f)
    fclose (f);
  printf ("frame: synthetic (no us-speckle frame given)\n\n");
  srand (28);
  for (size_t i = 0; i < n; i++)
    frame[i] = (i % WIDTH < WIDTH / 2 ? 0 : 20000) + rand () % 20000;
  return frame;
}

int
main (int argc, char **argv)
{
  static long hist[65536];
  uint16_t *frame;

  cf_bench_init ();
  frame = read_frame (argc > 1 ? argv[1] : NULL);
  cf_bench_table ("format | filter | gate [min, max] (share of the frame in) "
      "| copy ms | ungated ms | gated ms | speed-up");
  for (int depth = 16; depth >= 8; depth -= 8) {
    CfBenchFrames f = cf_bench_frames_new (WIDTH, HEIGHT, 1, depth);
    load_frame (&f, frame, depth, hist);
    long total = (long) WIDTH * HEIGHT, fan = total - hist[0];
    unsigned full = depth > 8 ? 65535 : 255;
    /* the black outside the sector and the darkest 30% of the frame; the
     * darkest 30% of the sector (speckle: scattered); its brightest 30%;
     * the sector's darkest 30% of the frame */
    const struct { unsigned min, max; } gates[] = {
      {0, quantile (hist, 0, 0.3, total)},
      {1, quantile (hist, 1, 0.3, fan)},
      {quantile (hist, 1, 0.7, fan) + 1, full},
      {1, quantile (hist, 1, 0.3, total)},
    };
    double copy = cf_bench_copy_ms (&f, REPS);
    Run runs[] = {
      {&f, "median", {1, 1, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1}},
      {&f, "median", {2, 2, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1}},
      {&f, "median", {1, 4, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1}},
      {&f, "bilateral", {0},
          {2.0, 2.0, 4, 4, 0.1, CF_BILATERAL_EXACT,
              CF_BILATERAL_PER_CHANNEL, CF_BORDER_CLAMP, 1}},
      {&f, "bilateral", {0},
          {4.0, 4.0, 8, 8, 0.1, CF_BILATERAL_EXACT,
              CF_BILATERAL_PER_CHANNEL, CF_BORDER_CLAMP, 1}},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++)
      for (size_t g = 0; g < sizeof gates / sizeof gates[0]; g++) {
        Run *r = &runs[k];
        double ms[2];
        char name[64];

        r->min = gates[g].min;
        r->max = gates[g].max;
        for (int v = 0; v < 2; v++) {
          r->gated = v;
          ms[v] = cf_bench_median_ms (run_one, r, REPS);
        }
        if (r->filter[0] == 'm')
          snprintf (name, sizeof name, "median %dx%d", 2 * r->m.radius_x + 1,
              2 * r->m.radius_y + 1);
        else
          snprintf (name, sizeof name, "bilateral exact r%d", r->b.radius_x);
        printf ("%s | %s | [%u, %u] (%.0f%%) | %.3f | %.3f | %.3f | "
            "%.2fx\n", depth > 8 ? "GRAY16_LE" : "GRAY8", name, r->min,
            r->max, 100 * share_in (hist, r->min, r->max), copy, ms[0],
            ms[1], ms[0] / ms[1]);
        cf_scratch_release (&r->scratch);
      }
    cf_bench_frames_free (&f);
  }
  free (frame);
  return 0;
}
