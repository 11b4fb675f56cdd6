/* Benchmark: device-resident cudaconvolve kernel time against the
 * identity-copy floor measured in the same run, and against NPP where it is
 * found at run time: nppiFilterBorder32f (full kernels, same taps),
 * nppiFilterRowBorder32f + nppiFilterColumnBorder32f (separable, through an
 * intermediate frame), and the fixed Sobel, Laplace and Sharpen filters
 * against the presets. Replicate borders everywhere. Prints markdown.
 *   bench_convolve [WIDTHxHEIGHT]   (one size of the general table only,
 *                                    and no presets: for profilers) */
#include "cf_bench_util.h"
#include "convolve.h"
#include "cf_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 30
/* Slower than this (NPP at 31x31): timed once. */
#define SLOW_MS 20.0

typedef int (*NppFilterFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi,
    const float *kernel, CfNppiSize ksize, CfNppiPoint anchor, int border,
    CfNppStreamContext ctx);
typedef int (*NppRowFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi,
    const float *kernel, int taps, int anchor, int border,
    CfNppStreamContext ctx);
typedef int (*NppFixedFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi, int border,
    CfNppStreamContext ctx);
typedef int (*NppMaskFn) (const void *src, int src_step, CfNppiSize size,
    CfNppiPoint offset, void *dst, int dst_step, CfNppiSize roi, int mask,
    int border, CfNppStreamContext ctx);

typedef struct
{
  const char *name;
  int channels, depth;
  unsigned mask;
  int nv12;                     /* a second, half-size 2-channel plane */
  const char *npp;              /* NPP suffix, or NULL */
} Format;

typedef struct
{
  CfBenchFrames luma, chroma, tmp;      /* tmp: NPP's separable passes */
  CfConvolveParams p, pc;       /* pc: p on the chroma plane */
  CfBenchFilter on_luma, on_chroma;
  int nv12;
  CfNppStreamContext ctx;
  void *npp;                    /* the NPP function timed by npp_call */
  void *npp_col;
  int npp_kind;                 /* 0 full, 1 row + column, 2 fixed, 3 mask */
  float *taps, *row, *col;      /* device, for NPP */
  int npp_status;               /* the last failure, 0 if none */
} Run;

static CfStatus
convolve (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_convolve (exec, src, dst, params);
}

static void
run_init (Run * r, int w, int h, const Format * f)
{
  memset (r, 0, sizeof *r);
  r->luma = cf_bench_frames_new (w, h, f->channels, f->depth);
  r->on_luma = (CfBenchFilter) {
  &r->luma, convolve, &r->p};
  r->nv12 = f->nv12;
  if (f->nv12) {
    r->chroma = cf_bench_frames_new (w / 2, h / 2, 2, 8);
    r->on_chroma = (CfBenchFilter) {
    &r->chroma, convolve, &r->pc};
  }
  r->ctx = cf_npp_context ();
}

static void
run_free (Run * r)
{
  cf_bench_frames_free (&r->luma);
  cf_scratch_release (&r->on_luma.scratch);
  if (r->nv12) {
    cf_bench_frames_free (&r->chroma);
    cf_scratch_release (&r->on_chroma.scratch);
  }
  if (r->tmp.count)
    cf_bench_frames_free (&r->tmp);
}

static void
ours (void *c, int i)
{
  Run *r = c;
  if (r->nv12)
    cf_bench_filter_pair (&r->on_luma, &r->on_chroma, i);
  else
    cf_bench_filter (&r->on_luma, i);
}

static double
copy_floor (Run * r)
{
  double ms = cf_bench_copy_ms (&r->luma, REPS);
  if (r->nv12)
    ms += cf_bench_copy_ms (&r->chroma, REPS);
  return ms;
}

static float *
device_floats (const float *host, int n)
{
  void *d;
  cf_bench_check (cf_device_alloc (&d, sizeof (float) * n), "alloc");
  cf_bench_check (cf_copy_2d_async (d, 0, host, 0, sizeof (float) * n, 1,
          cf_bench_stream ()), "taps");
  cf_bench_check (cf_stream_synchronize (cf_bench_stream ()), "taps");
  return d;
}

/* A full kernel of w x h random taps (not of rank 1), or a separable one
 * (a row and a column), or one of rank 1 given in full. */
static void
set_kernel (Run * r, int w, int h, int kind, unsigned mask)
{
  CfConvolveParams *p = &r->p;
  memset (p, 0, sizeof *p);
  p->width = w;
  p->height = h;
  p->separable = kind == 1;
  for (int x = 0; x < w; x++)
    p->row[x] = 1.0f + (float) (rand () % 7);
  for (int y = 0; y < h; y++)
    p->col[y] = 1.0f + (float) (rand () % 7);
  for (int i = 0; i < w * h; i++)
    p->taps[i] = kind == 2 ? p->col[i / w] * p->row[i % w] :
        (float) (rand () % 9) - 2.0f;
  p->border = CF_BORDER_CLAMP;
  p->channel_mask = mask;
  r->pc = *p;
  r->pc.channel_mask = 3;
}

static void
npp_call (void *c, int i)
{
  Run *r = c;
  CfPlane *s = &r->luma.src[i % r->luma.count];
  CfPlane *d = &r->luma.dst[i % r->luma.count];
  CfNppiSize size = { s->width, s->height };
  CfNppiPoint o = { 0, 0 }, anchor = { r->p.width / 2, r->p.height / 2 };
  CfNppiSize k = { r->p.width, r->p.height };
  int st;

  switch (r->npp_kind) {
    case 0:
      st = ((NppFilterFn) r->npp) (s->data, (int) s->stride, size, o, d->data,
          (int) d->stride, size, r->taps, k, anchor, CF_NPP_BORDER_REPLICATE,
          r->ctx);
      break;
    case 1:{
      CfPlane *t = &r->tmp.dst[i % r->tmp.count];
      st = ((NppRowFn) r->npp) (s->data, (int) s->stride, size, o, t->data,
          (int) t->stride, size, r->row, r->p.width, r->p.width / 2,
          CF_NPP_BORDER_REPLICATE, r->ctx);
      if (st >= 0)
        st = ((NppRowFn) r->npp_col) (t->data, (int) t->stride, size, o,
            d->data, (int) d->stride, size, r->col, r->p.height,
            r->p.height / 2, CF_NPP_BORDER_REPLICATE, r->ctx);
      break;
    }
    case 2:
      st = ((NppFixedFn) r->npp) (s->data, (int) s->stride, size, o, d->data,
          (int) d->stride, size, CF_NPP_BORDER_REPLICATE, r->ctx);
      break;
    default:
      st = ((NppMaskFn) r->npp) (s->data, (int) s->stride, size, o, d->data,
          (int) d->stride, size, cf_npp_mask_size (3),
          CF_NPP_BORDER_REPLICATE, r->ctx);
      break;
  }
  if (st < 0)                   /* NPP's errors; > 0 are warnings */
    r->npp_status = st;
}

/* NPP's time and its ratio to ours, or its error status. */
static void
npp_result (Run * r, double npp_ms, double ours_ms, char *ms, char *ratio)
{
  if (r->npp_status) {
    snprintf (ms, 32, "NPP error %d", r->npp_status);
    r->npp_status = 0;
    return;
  }
  snprintf (ms, 32, "%.3f", npp_ms);
  snprintf (ratio, 32, "%.2f", npp_ms / ours_ms);
}

static void *
npp_find (const char *base, const char *suffix)
{
  char name[96];
  if (!suffix)
    return NULL;
  snprintf (name, sizeof name, "%s_%s_Ctx", base, suffix);
  return cf_npp_symbol (name);
}

/* NPP's time for the kernel in r->p, the kind it takes; "-" where NPP or
 * the variant is missing (or the format is NV12). */
static void
npp_time (Run * r, const Format * f, int kind, double ours_ms, char *ms,
    char *ratio)
{
  strcpy (ms, "-");
  strcpy (ratio, "-");
  if (f->nv12)
    return;
  r->npp_kind = kind == 1 ? 1 : 0;
  if (kind == 1) {
    r->npp = npp_find ("nppiFilterRowBorder32f", f->npp);
    r->npp_col = npp_find ("nppiFilterColumnBorder32f", f->npp);
    if (!r->npp || !r->npp_col)
      return;
    r->tmp = cf_bench_frames_new (r->luma.src[0].width,
        r->luma.src[0].height, f->channels, f->depth);
    r->row = device_floats (r->p.row, r->p.width);
    r->col = device_floats (r->p.col, r->p.height);
  } else {
    if (!(r->npp = npp_find ("nppiFilterBorder32f", f->npp)))
      return;
    r->taps = device_floats (r->p.taps, r->p.width * r->p.height);
  }
  npp_result (r, cf_bench_time_ms (npp_call, r, REPS, SLOW_MS), ours_ms, ms,
      ratio);
  cf_device_free (r->taps);
  cf_device_free (r->row);
  cf_device_free (r->col);
  r->taps = r->row = r->col = NULL;
  if (r->tmp.count)
    cf_bench_frames_free (&r->tmp);
  memset (&r->tmp, 0, sizeof r->tmp);
}

static void
general (const Format * formats, int n_formats, const char *only)
{
  static const int sizes[][2] = { {1920, 1080}, {3840, 2160} };
  static const struct
  {
    int w, h, kind;
    const char *name;
  } kernels[] = {
    {3, 3, 0, "3x3"}, {5, 5, 0, "5x5"}, {7, 7, 0, "7x7"},
    {15, 15, 0, "15x15"}, {31, 31, 0, "31x31"},
    {31, 31, 1, "31 + 31 separable"}, {31, 31, 2, "31x31 rank 1 (split)"},
    {3, 3, 2, "3x3 rank 1 (split)"},
  };

  printf ("### General kernels (clamp border)\n\n");
  cf_bench_table ("size | format | kernel | ours ms | copy floor ms | "
      "ours/floor | NPP same taps ms | NPP/ours");
  for (int s = 0; s < 2; s++)
    for (int f = 0; f < n_formats; f++) {
      Run r;
      int w = sizes[s][0], h = sizes[s][1];
      char size[32];
      snprintf (size, sizeof size, "%dx%d", w, h);
      if (only && strcmp (only, size))
        continue;
      run_init (&r, w, h, &formats[f]);
      double floor_ms = copy_floor (&r);
      for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        char npp[32], ratio[32];
        set_kernel (&r, kernels[k].w, kernels[k].h, kernels[k].kind,
            formats[f].mask);
        double ms = cf_bench_median_ms (ours, &r, REPS);
        npp_time (&r, &formats[f], kernels[k].kind, ms, npp, ratio);
        printf ("| %dx%d | %s | %s | %.3f | %.3f | %.2f | %s | %s |\n", w, h,
            formats[f].name, kernels[k].name, ms, floor_ms, ms / floor_ms,
            npp, ratio);
      }
      run_free (&r);
    }
}

/* The presets against NPP's fixed filters of the same size (NPP's sharpen
 * mask is (-1 x 8, 16) / 8, ours 5 - 4 neighbours; NPP's Laplace 3x3 is
 * the same 8-neighbour mask). */
static void
presets (const Format * formats, int n_formats)
{
  static const struct
  {
    const char *name;
    float taps[9];
    int absolute;
    const char *npp;
    int npp_kind;
  } list[] = {
    {"sobel-x", {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 1, "nppiFilterSobelVertBorder",
        2},
    {"sobel-y", {-1, -2, -1, 0, 0, 0, 1, 2, 1}, 1,
        "nppiFilterSobelHorizBorder", 2},
    {"laplacian", {-1, -1, -1, -1, 8, -1, -1, -1, -1}, 1,
        "nppiFilterLaplaceBorder", 3},
    {"sharpen", {0, -1, 0, -1, 5, -1, 0, -1, 0}, 0,
        "nppiFilterSharpenBorder", 2},
  };

  printf ("\n### Presets against NPP's fixed filters, 3840x2160\n\n");
  cf_bench_table ("format | preset | ours ms | copy floor ms | ours/floor | "
      "NPP fixed ms | NPP/ours");
  for (int f = 0; f < n_formats; f++) {
    Run r;
    run_init (&r, 3840, 2160, &formats[f]);
    double floor_ms = copy_floor (&r);
    for (size_t k = 0; k < sizeof list / sizeof list[0]; k++) {
      char npp[32] = "-", ratio[32] = "-";
      set_kernel (&r, 3, 3, 0, formats[f].mask);
      memcpy (r.p.taps, list[k].taps, sizeof list[k].taps);
      r.p.absolute = list[k].absolute;
      r.pc = r.p;
      r.pc.channel_mask = 3;
      double ms = cf_bench_median_ms (ours, &r, REPS);
      r.npp = formats[f].nv12 ? NULL : npp_find (list[k].npp, formats[f].npp);
      r.npp_kind = list[k].npp_kind;
      if (r.npp) {
        npp_result (&r, cf_bench_median_ms (npp_call, &r, REPS), ms, npp,
            ratio);
      }
      printf ("| %s | %s | %.3f | %.3f | %.2f | %s | %s |\n", formats[f].name,
          list[k].name, ms, floor_ms, ms / floor_ms, npp, ratio);
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
  int n = sizeof formats / sizeof formats[0];

  cf_bench_init ();
  srand (7);
  cf_bench_npp_banner ("nppiFilterBorder32f_8u_C1R_Ctx");
  general (formats, n, argc > 1 ? argv[1] : NULL);
  if (argc == 1)
    presets (formats, n);
  cf_bench_nv12_floors (3840, 2160, REPS);
  return 0;
}
