/* Benchmark: what the packed 4:2:2 formats cost on the GPU, device
 * resident (no PCIe), at 1920x1080 and 3840x2160: v210's unpack and pack
 * against the copy floor of the same frame, and cudagaussianblur sigma=2
 * done as the element does it in each 4:2:2 format (its passes and
 * parameters, as gst/gstcfpacked.c and the element's filter_plane make
 * them): Y42B (three planes), YUY2 (chroma pass into a temporary, luma pass
 * out of it), I422_10LE (three 16-bit planes) and v210 (unpack, luma,
 * chroma, pack). Prints markdown. */
#include "cf_bench_util.h"
#include "cf_runtime.h"
#include "gaussian.h"
#include "v210.h"

#include <stdio.h>

#define REPS 20

/* One frame's planes (rotating sets) and the call that filters them. */
typedef struct
{
  CfBenchFrames luma, chroma[2];        /* planar: Y, U, V; NV16-like: Y, UV */
  CfBenchFrames packed;         /* YUY2 pairs or v210 groups (as bytes) */
  CfPlane temp_luma, temp_chroma[2];    /* device temporaries */
  int width, height, v210;
  CfGaussianParams full, half;  /* luma's and 4:2:2 chroma's parameters */
  CfScratch scratch;
} Case;

static CfExec
exec_of (Case * c)
{
  CfExec e = { 1, cf_bench_stream (), &c->scratch };
  return e;
}

static void
gauss (Case * c, const CfPlane * s, const CfPlane * d,
    const CfGaussianParams * p, unsigned mask)
{
  CfExec e = exec_of (c);
  CfGaussianParams q = *p;
  q.channel_mask = mask;
  cf_bench_check (cf_gaussian_blur (&e, s, d, &q), "gaussian");
}

/* Y42B or I422_10LE: three planes. */
static void
planar (void *ctx, int i)
{
  Case *c = ctx;
  int k = i % c->luma.count;
  gauss (c, &c->luma.src[k], &c->luma.dst[k], &c->full, 1);
  for (int p = 0; p < 2; p++)
    gauss (c, &c->chroma[p].src[k], &c->chroma[p].dst[k], &c->half, 1);
}

/* YUY2: chroma as 4-byte pairs into the temporary, luma out of it. */
static void
yuy2 (void *ctx, int i)
{
  Case *c = ctx;
  int k = i % c->packed.count;
  CfPlane pairs = c->packed.src[k], luma_dst = c->packed.dst[k];
  CfPlane temp = c->temp_luma, luma_src;
  pairs.width = (c->width + 1) / 2;
  pairs.channels = 4;
  temp.width = pairs.width;
  temp.channels = 4;
  gauss (c, &pairs, &temp, &c->half, 0xA);
  luma_src = temp;
  luma_src.width = luma_dst.width = c->width;
  luma_src.channels = luma_dst.channels = 2;
  gauss (c, &luma_src, &luma_dst, &c->full, 1);
}

static CfV210
v210_of (const CfPlane * bytes, int w, int h)
{
  CfV210 f = { bytes->data, bytes->stride, w, h };
  return f;
}

/* v210: unpack, luma, interleaved chroma, pack. */
static void
v210 (void *ctx, int i)
{
  Case *c = ctx;
  int k = i % c->packed.count;
  CfExec e = exec_of (c);
  CfV210 src = v210_of (&c->packed.src[k], c->width, c->height);
  CfV210 dst = v210_of (&c->packed.dst[k], c->width, c->height);
  cf_bench_check (cf_v210_unpack (&e, &src, &c->temp_luma,
          &c->temp_chroma[0]), "unpack");
  gauss (c, &c->temp_luma, &c->luma.dst[k % c->luma.count], &c->full, 1);
  gauss (c, &c->temp_chroma[0], &c->temp_chroma[1], &c->half, 3);
  cf_bench_check (cf_v210_pack (&e, &src, &c->luma.dst[k % c->luma.count],
          &c->temp_chroma[1], &dst), "pack");
}

static void
unpack_only (void *ctx, int i)
{
  Case *c = ctx;
  CfExec e = exec_of (c);
  CfV210 src = v210_of (&c->packed.src[i % c->packed.count], c->width,
      c->height);
  cf_bench_check (cf_v210_unpack (&e, &src, &c->temp_luma,
          &c->temp_chroma[0]), "unpack");
}

static void
pack_only (void *ctx, int i)
{
  Case *c = ctx;
  CfExec e = exec_of (c);
  int k = i % c->packed.count;
  CfV210 src = v210_of (&c->packed.src[k], c->width, c->height);
  CfV210 dst = v210_of (&c->packed.dst[k], c->width, c->height);
  cf_bench_check (cf_v210_pack (&e, &src, &c->temp_luma, &c->temp_chroma[0],
          &dst), "pack");
}

static CfPlane
device_plane (int w, int h, int channels, int depth)
{
  CfPlane p = { NULL, 0, w, h, channels, depth, depth > 8 ? 1023 : 0 };
  cf_bench_check (cf_device_alloc_2d (&p.data, &p.stride,
          (size_t) w * channels * (depth / 8), h), "alloc");
  return p;
}

static void
set_max (CfBenchFrames * f, unsigned max)
{
  for (int i = 0; i < f->count; i++)
    f->src[i].max = f->dst[i].max = max;
}

static void
bench_size (int w, int h)
{
  int pairs = (w + 1) / 2;
  Case c8 = { 0 }, c10 = { 0 };
  Case *cases[] = { &c8, &c10 };

  for (int d = 0; d < 2; d++) {
    Case *c = cases[d];
    int depth = d ? 16 : 8;
    c->width = w;
    c->height = h;
    c->v210 = d;
    c->full.sigma_x = c->full.sigma_y = 2.0;
    c->full.radius_x = c->full.radius_y = cf_gaussian_default_radius (2.0);
    c->half = c->full;
    c->half.sigma_x = 1.0;
    c->half.radius_x = cf_gaussian_default_radius (1.0);
    c->luma = cf_bench_frames_new (w, h, 1, depth);
    for (int p = 0; p < 2; p++)
      c->chroma[p] = cf_bench_frames_new (pairs, h, 1, depth);
    if (d) {
      set_max (&c->luma, 1023);
      set_max (&c->chroma[0], 1023);
      set_max (&c->chroma[1], 1023);
      c->packed = cf_bench_frames_new ((int) ((cf_v210_row_bytes (w) + 127) /
              128 * 128), h, 1, 8);
      c->temp_luma = device_plane (w, h, 1, 16);
      for (int p = 0; p < 2; p++)
        c->temp_chroma[p] = device_plane (pairs, h, 2, 16);
    } else {
      c->packed = cf_bench_frames_new (pairs * 4, h, 1, 8);
      c->temp_luma = device_plane (pairs * 4, h, 1, 8);
    }
  }

  double floor8 = cf_bench_copy_ms (&c8.packed, REPS);
  double floor10 = cf_bench_copy_ms (&c10.packed, REPS);
  double y42b = cf_bench_median_ms (planar, &c8, REPS);
  double yuy2_ms = cf_bench_median_ms (yuy2, &c8, REPS);
  double i422 = cf_bench_median_ms (planar, &c10, REPS);
  double v210_ms = cf_bench_median_ms (v210, &c10, REPS);
  double unpack = cf_bench_median_ms (unpack_only, &c10, REPS);
  double pack = cf_bench_median_ms (pack_only, &c10, REPS);

  printf ("| %dx%d | Y42B, three planes | %.3f | - | %.3f |\n", w, h, y42b,
      floor8);
  printf ("| %dx%d | YUY2, chroma then luma through a temporary | %.3f | "
      "%.2f | %.3f |\n", w, h, yuy2_ms, yuy2_ms / y42b, floor8);
  printf ("| %dx%d | I422_10LE, three planes | %.3f | - | %.3f |\n", w, h,
      i422, floor10);
  printf ("| %dx%d | v210, unpack + luma + chroma + pack | %.3f | %.2f | "
      "%.3f |\n", w, h, v210_ms, v210_ms / i422, floor10);
  printf ("| %dx%d | v210 unpack alone | %.3f | - | %.3f |\n", w, h, unpack,
      floor10);
  printf ("| %dx%d | v210 pack alone | %.3f | - | %.3f |\n", w, h, pack,
      floor10);
  fflush (stdout);
  for (int d = 0; d < 2; d++) {
    Case *c = cases[d];
    cf_bench_frames_free (&c->luma);
    cf_bench_frames_free (&c->chroma[0]);
    cf_bench_frames_free (&c->chroma[1]);
    cf_bench_frames_free (&c->packed);
    cf_device_free (c->temp_luma.data);
    cf_device_free (c->temp_chroma[0].data);
    cf_device_free (c->temp_chroma[1].data);
    cf_scratch_release (&c->scratch);
  }
}

int
main (void)
{
  cf_bench_init ();
  printf ("### Packed 4:2:2, cudagaussianblur sigma=2 as the element runs "
      "it, device resident, milliseconds (median of %d)\n\n", REPS);
  cf_bench_table ("size | format and passes | ms | / planar of the same "
      "depth | copy floor of the packed frame");
  bench_size (1920, 1080);
  bench_size (3840, 2160);
  return 0;
}
