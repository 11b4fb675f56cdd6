/* Benchmark: device-resident cudamedian kernel time at 3840x2160 against the
 * identity-copy floor and NPP's nppiFilterMedian (interior ROI: NPP has no
 * border mode), for every kernel that takes each window. Prints markdown.
 * GRAY16 runs twice: on full-range noise (the 16-bit histogram's worst case)
 * and on a smooth image with mild noise (what cameras and probes give).
 * Then non-square windows (GRAY8, GRAY16 and RGBA, 1080p and 4K) against
 * their squares, the floor and NPP, with the strip and histogram kernels
 * (and the 1-D radix pass) forced beside AUTO; `bench_median shapes` prints
 * only that table. */
#include "cf_bench_util.h"
#include "median.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 20
/* Slower than this (NPP at large windows): timed once. */
#define SLOW_MS 20.0
#define WIDTH 3840
#define HEIGHT 2160

/* The frame size of the runs (the shapes table also runs at 1080p). */
static int frame_w = WIDTH, frame_h = HEIGHT;

typedef int (*NppMedianFn) (const void *src, int src_step, void *dst,
    int dst_step, CfNppiSize roi, CfNppiSize mask, CfNppiPoint anchor,
    void *buffer, CfNppStreamContext ctx);
typedef int (*NppMedianSizeFn) (CfNppiSize roi, CfNppiSize mask,
    unsigned *bytes, CfNppStreamContext ctx);

typedef struct
{
  const char *name;
  int channels, depth;
  unsigned mask;
  int smooth;
  const char *npp;              /* NPP suffix */
} Format;

typedef struct
{
  CfBenchFrames frames;
  CfMedianParams p;
  CfBenchFilter ours;           /* cf_median of p on frames */
  NppMedianFn npp;
  void *npp_buffer;
  int npp_ready;
  CfNppiSize npp_roi, npp_mask;
  CfNppStreamContext ctx;
} Run;

static CfStatus
median (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_median (exec, src, dst, params);
}

static void
npp_median (void *c, int i)
{
  Run *r = c;
  const CfPlane *s = &r->frames.src[i % r->frames.count];
  const CfPlane *d = &r->frames.dst[i % r->frames.count];
  int rx = r->npp_mask.width / 2, ry = r->npp_mask.height / 2;
  size_t off = ry * s->stride + (size_t) rx * s->channels * (s->depth / 8);
  CfNppiPoint anchor = { rx, ry };
  int st = r->npp ((const char *) s->data + off, (int) s->stride,
      (char *) d->data + off, (int) d->stride, r->npp_roi, r->npp_mask, anchor,
      r->npp_buffer, r->ctx);
  if (st != 0) {
    fprintf (stderr, "nppiFilterMedian failed: %d\n", st);
    exit (1);
  }
}

/* A smooth 16-bit picture with mild noise in every source frame. */
static void
fill_smooth (CfBenchFrames * f)
{
  size_t n = (size_t) frame_w * frame_h;
  uint16_t *host = malloc (n * sizeof (uint16_t));
  for (int y = 0; y < frame_h; y++)
    for (int x = 0; x < frame_w; x++)
      host[(size_t) y * frame_w + x] = (uint16_t) (30000.0 +
          20000.0 * sin (x / 300.0) * cos (y / 200.0) + (rand () % 257) - 128);
  for (int i = 0; i < f->count; i++)
    cf_bench_check (cf_copy_2d_async (f->src[i].data, f->src[i].stride, host,
            frame_w * sizeof (uint16_t), frame_w * sizeof (uint16_t), frame_h,
            cf_bench_stream ()), "upload");
  cf_bench_check (cf_stream_synchronize (cf_bench_stream ()), "upload");
  free (host);
}

/* Frames of the format (the smooth picture where it asks for one). */
static void
run_init (Run * r, const Format * f)
{
  r->frames = cf_bench_frames_new (frame_w, frame_h, f->channels, f->depth);
  if (f->smooth)
    fill_smooth (&r->frames);
  r->ours.frames = &r->frames;
  r->ours.filter = median;
  r->ours.params = &r->p;
}

static void
run_free (Run * r)
{
  cf_device_free (r->npp_buffer);
  cf_bench_frames_free (&r->frames);
  cf_scratch_release (&r->ours.scratch);
}

/* NPP's median on a w x h window, where NPP has one for f. */
static void
npp_prepare (Run * r, const Format * f, int w, int h)
{
  char name[96];
  NppMedianSizeFn get_size;
  unsigned bytes = 0;

  r->npp_ready = 0;
  snprintf (name, sizeof name, "nppiFilterMedian_%s_Ctx", f->npp);
  r->npp = (NppMedianFn) cf_npp_symbol (name);
  snprintf (name, sizeof name, "nppiFilterMedianGetBufferSize_%s_Ctx", f->npp);
  get_size = (NppMedianSizeFn) cf_npp_symbol (name);
  if (!r->npp || !get_size)
    return;
  r->npp_roi.width = frame_w - 2 * (w / 2);
  r->npp_roi.height = frame_h - 2 * (h / 2);
  r->npp_mask.width = w;
  r->npp_mask.height = h;
  if (get_size (r->npp_roi, r->npp_mask, &bytes, r->ctx) != 0)
    return;
  cf_device_free (r->npp_buffer);
  cf_bench_check (cf_device_alloc (&r->npp_buffer, bytes ? bytes : 1),
      "NPP buffer");
  r->npp_ready = 1;
}

/* Time of kernel k on a size x size window, or "-" where it does not run. */
static void
kernel_cell (Run * r, CfMedianMode mode, CfMedianKernel k, int size,
    char *cell, size_t len)
{
  r->p.mode = mode;
  r->p.kernel = k;
  if ((k == CF_MEDIAN_KERNEL_REGISTERS
          && size / 2 > CF_MEDIAN_REGISTERS_MAX_RADIUS)
      || (k == CF_MEDIAN_KERNEL_RANKS
          && (size / 2 < CF_MEDIAN_RANKS_MIN_RADIUS
              || size / 2 > CF_MEDIAN_RANKS_MAX_RADIUS))) {
    snprintf (cell, len, "-");
    return;
  }
  snprintf (cell, len, "%.3f", cf_bench_time_ms (cf_bench_filter, &r->ours,
          REPS, SLOW_MS));
}

/* bench_median FORMAT SIZE [KERNEL] (FORMAT as in the table, "GRAY16
 * smooth" as GRAY16-smooth; KERNEL registers, histogram or ranks, else
 * AUTO): only that case, a few launches (for a profiler or an A/B run). */
static int
profile_one (int argc, char **argv, const Format * formats, size_t n)
{
  /* Indexed by CfMedianKernel. */
  static const char *kernels[] = { "auto", "registers", "histogram",
    "ranks"
  };
  CfMedianKernel kernel = CF_MEDIAN_KERNEL_AUTO;
  for (int k = 1; argc > 3 && k < (int) (sizeof kernels / sizeof *kernels); k++)
    if (strcmp (argv[3], kernels[k]) == 0)
      kernel = (CfMedianKernel) k;
  for (size_t f = 0; f < n; f++) {
    char name[32];
    snprintf (name, sizeof name, "%s", formats[f].name);
    for (char *c = name; *c; c++)
      if (*c == ' ')
        *c = '-';
    if (strcmp (argv[1], name) != 0)
      continue;
    const Format *fm = &formats[f];
    int size = atoi (argv[2]);
    Run r = { 0 };
    CfMedianParams p = { size / 2, size / 2, CF_MEDIAN_EXACT, 1,
      CF_BORDER_CLAMP, fm->mask, kernel
    };
    run_init (&r, fm);
    r.p = p;
    printf ("%s %dx%d %s: %.3f ms\n", fm->name, size, size, kernels[kernel],
        cf_bench_median_ms (cf_bench_filter, &r.ours,
            argc > 4 ? atoi (argv[4]) : 3));
    run_free (&r);
    return 0;
  }
  return 1;
}

/* Time of kernel k (mode m) on r's window, or "-" where cf_median refuses
 * it (a kernel that does not take the window). */
static void
forced_cell (Run * r, CfMedianMode m, CfMedianKernel k, char *cell, size_t len)
{
  CfMedianParams saved = r->p;
  CfExec ex = { 1, cf_bench_stream (), &r->ours.scratch };
  r->p.mode = m;
  r->p.kernel = k;
  if (cf_median (&ex, &r->frames.src[0], &r->frames.dst[0], &r->p) == CF_OK)
    snprintf (cell, len, "%.3f", cf_bench_time_ms (cf_bench_filter, &r->ours,
            REPS, SLOW_MS));
  else
    snprintf (cell, len, "-");
  r->p = saved;
}

/* cudamedian width x height (ultrasound speckle: longer along the beam),
 * exact, in the first @n formats at 1080p and 4K: AUTO, the strip and
 * histogram kernels forced (and the 1-D radix pass, mode separable, for a
 * 1-D window), against the square of the longer side, the copy floor and
 * NPP's median of the same window. */
static void
non_square (const Format * formats, size_t n)
{
  static const int shapes[][2] = { {1, 3}, {3, 1}, {3, 9}, {9, 3}, {3, 23},
  {23, 3}, {5, 15}, {5, 23}, {3, 31}, {1, 31}, {31, 1}
  };
  static const int frames[][2] = { {1920, 1080}, {3840, 2160} };

  printf ("\n### Non-square windows, exact, clamp border, milliseconds "
      "(median of %d)\n\n", REPS);
  cf_bench_table ("format | frame | window | auto | strip | histogram | "
      "1-D radix | square | square ms | auto / square | copy floor | "
      "auto / floor | NPP | NPP / auto");
  for (size_t f = 0; f < n; f++)
    for (size_t z = 0; z < 2; z++) {
      Run r = { 0 };
      frame_w = frames[z][0];
      frame_h = frames[z][1];
      run_init (&r, &formats[f]);
      r.ctx = cf_npp_context ();
      double floor_ms = cf_bench_copy_ms (&r.frames, REPS);
      for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        int w = shapes[i][0], h = shapes[i][1], side = w > h ? w : h;
        CfMedianParams p = { w / 2, h / 2, CF_MEDIAN_EXACT, 1,
          CF_BORDER_CLAMP, formats[f].mask, CF_MEDIAN_KERNEL_AUTO
        };
        CfMedianParams sq = p;
        char npp[32] = "-", ratio[32] = "-", strip[32], hist[32], radix[32];
        double ms, sq_ms;

        r.p = p;
        ms = cf_bench_time_ms (cf_bench_filter, &r.ours, REPS, SLOW_MS);
        forced_cell (&r, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_STRIP, strip,
            sizeof strip);
        forced_cell (&r, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_HISTOGRAM, hist,
            sizeof hist);
        if (w == 1 || h == 1)
          forced_cell (&r, CF_MEDIAN_SEPARABLE, CF_MEDIAN_KERNEL_AUTO, radix,
              sizeof radix);
        else
          snprintf (radix, sizeof radix, "-");
        sq.radius_x = sq.radius_y = side / 2;
        r.p = sq;
        sq_ms = cf_bench_time_ms (cf_bench_filter, &r.ours, REPS, SLOW_MS);
        npp_prepare (&r, &formats[f], w, h);
        if (r.npp_ready) {
          double t = cf_bench_time_ms (npp_median, &r, REPS, SLOW_MS);
          snprintf (npp, sizeof npp, "%.3f", t);
          snprintf (ratio, sizeof ratio, "%.1fx", t / ms);
        }
        printf ("| %s | %dx%d | %dx%d | %.3f | %s | %s | %s | %dx%d | %.3f | "
            "%.2f | %.3f | %.1fx | %s | %s |\n", formats[f].name, frame_w,
            frame_h, w, h, ms, strip, hist, radix, side, side, sq_ms,
            ms / sq_ms, floor_ms, ms / floor_ms, npp, ratio);
        fflush (stdout);
      }
      run_free (&r);
    }
  frame_w = WIDTH;
  frame_h = HEIGHT;
}

/* The formats of the shapes table: GRAY8, GRAY16 (noise) and RGBA. */
static void
non_square_formats (const Format * formats)
{
  const Format shape_formats[] = { formats[0], formats[1], formats[3] };
  non_square (shape_formats, 3);
}

int
main (int argc, char **argv)
{
  static const Format formats[] = {
    {"GRAY8", 1, 8, 0x1, 0, "8u_C1R"},
    {"GRAY16", 1, 16, 0x1, 0, "16u_C1R"},
    {"GRAY16 smooth", 1, 16, 0x1, 1, "16u_C1R"},
    {"RGBA", 4, 8, 0x7, 0, "8u_AC4R"},
  };
  /* Windows and the targets, as multiples of NPP's speed (0: none
   * set). */
  static const struct
  {
    int size;
    double target;
  } sizes[] = { {3, 1.5}, {5, 3}, {7, 6}, {9, 0}, {11, 15}, {13, 0}, {15, 0},
  {21, 50}, {31, 0}
  };

  cf_bench_init ();
  if (argc == 2 && strcmp (argv[1], "shapes") == 0) {
    non_square_formats (formats);
    return 0;
  }
  if (argc >= 3)
    return profile_one (argc, argv, formats,
        sizeof formats / sizeof formats[0]);
  cf_bench_npp_banner ("nppiFilterMedian_8u_C1R_Ctx");
  printf ("### cudamedian, %dx%d, clamp border, milliseconds (median of %d)"
      "\n\n", WIDTH, HEIGHT, REPS);
  cf_bench_table ("format | window | auto | registers | histogram | ranks | "
      "separable | copy floor | NPP | NPP/auto | target");
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    const Format *fm = &formats[f];
    Run r = { 0 };
    run_init (&r, fm);
    r.ctx = cf_npp_context ();
    double floor_ms = cf_bench_copy_ms (&r.frames, REPS);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int size = sizes[s].size;
      CfMedianParams p = { size / 2, size / 2, CF_MEDIAN_EXACT, 1,
        CF_BORDER_CLAMP, fm->mask, CF_MEDIAN_KERNEL_AUTO
      };
      char regs[32], hist[32], ranks[32], sep[32], npp[32] = "-",
          ratio[32] = "-", target[32] = "-";
      r.p = p;
      kernel_cell (&r, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_REGISTERS, size,
          regs, sizeof regs);
      kernel_cell (&r, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_HISTOGRAM, size,
          hist, sizeof hist);
      kernel_cell (&r, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_RANKS, size,
          ranks, sizeof ranks);
      kernel_cell (&r, CF_MEDIAN_SEPARABLE, CF_MEDIAN_KERNEL_AUTO, size,
          sep, sizeof sep);
      r.p = p;
      double ms = cf_bench_time_ms (cf_bench_filter, &r.ours, REPS, SLOW_MS);
      npp_prepare (&r, fm, size, size);
      if (r.npp_ready) {
        double n = cf_bench_time_ms (npp_median, &r, REPS, SLOW_MS);
        snprintf (npp, sizeof npp, "%.3f", n);
        snprintf (ratio, sizeof ratio, "%.1fx", n / ms);
      }
      if (sizes[s].target > 0)
        snprintf (target, sizeof target, "%gx", sizes[s].target);
      printf ("| %s | %dx%d | %.3f | %s | %s | %s | %s | %.3f | %s | %s | "
          "%s |\n", fm->name, size, size, ms, regs, hist, ranks, sep, floor_ms,
          npp, ratio, target);
      fflush (stdout);
    }
    run_free (&r);
  }

  printf ("\n### Large windows, separable and iterations, GRAY8\n\n");
  cf_bench_table ("window | mode | iterations | ms");
  {
    Run r = { 0 };
    static const int big[] = { 41, 61, 81, 121 };
    run_init (&r, &formats[0]);
    for (size_t b = 0; b < 4; b++)
      for (int m = 0; m < 2; m++) {
        CfMedianParams p = { big[b] / 2, big[b] / 2, m, 1, CF_BORDER_CLAMP, 1,
          CF_MEDIAN_KERNEL_AUTO
        };
        r.p = p;
        printf ("| %dx%d | %s | 1 | %.3f |\n", big[b], big[b],
            m ? "separable" : "exact", cf_bench_time_ms (cf_bench_filter,
                &r.ours, REPS, SLOW_MS));
      }
    CfMedianParams p2 = { 1, 1, CF_MEDIAN_EXACT, 2, CF_BORDER_CLAMP, 1,
      CF_MEDIAN_KERNEL_AUTO
    };
    r.p = p2;
    printf ("| 3x3 | exact | 2 | %.3f |\n", cf_bench_time_ms (cf_bench_filter,
            &r.ours, REPS, SLOW_MS));
    run_free (&r);
  }

  non_square_formats (formats);
  return 0;
}
