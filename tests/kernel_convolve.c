/* gpu suite: cf_convolve on the GPU against the plain-C reference: random
 * kernels 1x1 to 31x31, square and rectangular, full, separable (given as
 * a row and a column) and full of rank 1 (split by the plan), the presets'
 * taps, divisors, offsets and absolute values, GRAY8, GRAY16, RGBA (alpha
 * copied), NV12's chroma plane, RGB 16-bit, 10- and 12-bit planes, odd
 * sizes, both borders; integer taps (byte dot products on 8-bit planes)
 * up to the largest sums. The GPU sums in float (exactly in integers for
 * integer taps on 8-bit planes), the reference in double over the divided
 * float taps: within 1 LSB at 8 bits, 2 at 16 (the taps are scaled so
 * that sums stay within the range). */
#include "cf_test_util.h"
#include "convolve.h"
#include "separable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static CfStatus
run_convolve (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_convolve (exec, src, dst, params);
}

static long passed, failed;

/* A random tap in [lo, 1), in steps of 1/64. */
static float
rand_tap (float lo)
{
  return lo + (1.0f - lo) * (float) (cf_test_rand () % 64) / 64.0f;
}

static const char *
kind_name (int kind)
{
  static const char *names[] = { "full", "separable", "rank-1 full" };
  return names[kind];
}

/* A random kernel of w x h taps: kind 0 full, 1 separable, 2 full of rank
 * 1. Mode (0..4) picks the rest: 0 positive taps, divisor = their sum;
 * 1 mixed signs, divisor = the sum of |taps|; 2 as 1 plus an offset;
 * 3 as 1, absolute; 4 positive taps, divisor twice their sum plus an
 * offset. */
static void
random_kernel (CfConvolveParams * p, int w, int h, int kind, int mode)
{
  float lo = mode == 0 || mode == 4 ? 0.0f : -1.0f;
  double abs_sum = 0.0;

  p->width = w;
  p->height = h;
  p->separable = kind == 1;
  for (int x = 0; x < w; x++)
    p->row[x] = rand_tap (lo);
  for (int y = 0; y < h; y++)
    p->col[y] = rand_tap (lo);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float t = kind == 2 ? p->col[y] * p->row[x] : rand_tap (lo);
      p->taps[y * w + x] = t;
      abs_sum += kind == 1 ? fabs (p->col[y] * p->row[x]) : fabs (t);
    }
  /* all-zero taps would divide by 1: keep the kernel meaningful */
  if (abs_sum == 0.0) {
    p->taps[(h / 2) * w + w / 2] = p->row[w / 2] = p->col[h / 2] = 1.0f;
    abs_sum = 1.0;
  }
  p->divisor = mode == 0 ? 0.0 : mode == 4 ? 2.0 * abs_sum : abs_sum;
  p->offset = mode == 2 ? 0.25 : mode == 4 ? -0.1 : 0.0;
  p->absolute = mode == 3;
}

/* A random k x k kernel of integer taps in [lo, hi] (8-bit planes run
 * them as exact byte dot products): full, or separable with integer rows
 * and columns (their products stay within [-121, 121]); mode as
 * random_kernel's, but 3 divides by a quarter of the sum of |taps| so that
 * results clamp. */
static void
integer_kernel (CfConvolveParams * p, int k, int lo, int hi, int kind,
    int mode)
{
  double abs_sum = 0.0;

  lo = mode == 0 || mode == 4 ? 0 : lo;
  p->width = p->height = k;
  p->separable = kind == 1;
  for (int i = 0; i < k; i++) {
    p->row[i] = (float) (lo + (int) (cf_test_rand () % (hi - lo + 1)));
    p->col[i] = (float) (lo + (int) (cf_test_rand () % (hi - lo + 1)));
    if (kind == 1) {
      p->row[i] = fmaxf (fminf (p->row[i], 11.0f), -11.0f);
      p->col[i] = fmaxf (fminf (p->col[i], 11.0f), -11.0f);
    }
  }
  for (int i = 0; i < k * k; i++) {
    p->taps[i] = kind == 1 ? p->col[i / k] * p->row[i % k] :
        (float) (lo + (int) (cf_test_rand () % (hi - lo + 1)));
    abs_sum += fabs (p->taps[i]);
  }
  if (abs_sum == 0.0) {
    p->taps[(k / 2) * k + k / 2] = p->row[k / 2] = p->col[k / 2] = 1.0f;
    abs_sum = 1.0;
  }
  p->divisor = mode == 0 ? 0.0 : mode == 3 ? abs_sum / 4 : mode == 4 ?
      2.0 * abs_sum : abs_sum;
  p->offset = mode == 2 ? 0.25 : mode == 4 ? -0.1 : 0.0;
  p->absolute = mode == 3;
}

static void
check (int w, int h, int channels, int depth, unsigned mask,
    const CfConvolveParams * kernel, const char *name, CfBorder border)
{
  char what[200];
  CfConvolveParams p = *kernel;
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane ref = cf_test_plane_like (&src, 0);

  p.border = border;
  p.channel_mask = mask;
  snprintf (what, sizeof what, "%dx%d c%d d%d mask %x kernel %dx%d %s "
      "divisor %g offset %g%s %s", w, h, channels, depth, mask, p.width,
      p.height, name, p.divisor, p.offset, p.absolute ? " absolute" : "",
      border == CF_BORDER_MIRROR ? "mirror" : "clamp");
  CF_CHECK (cf_convolve_ref (&src, &ref, &p) == CF_OK);
  if (cf_test_gpu_vs_ref (run_convolve, &p, &src, &ref, depth > 8 ? 2 : 1,
          what))
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
}

/* 10- and 12-bit samples in 16 (CfPlane.max): results clamp to the
 * format's full scale, and the offset is in its units. */
static void
check_deep (int w, int h, int channels, unsigned max,
    const CfConvolveParams * kernel, const char *name)
{
  char what[200];
  CfConvolveParams p = *kernel;
  CfPlane src = cf_test_plane_new (w, h, channels, 16, 5);
  CfPlane ref;

  cf_test_plane_set_max (&src, max);
  ref = cf_test_plane_like (&src, 0);
  p.border = CF_BORDER_MIRROR;
  p.channel_mask = CF_ALL_CHANNELS (channels);
  snprintf (what, sizeof what, "%dx%d c%d max 0x%x kernel %dx%d %s "
      "offset %g%s", w, h, channels, max, p.width, p.height, name, p.offset,
      p.absolute ? " absolute" : "");
  CF_CHECK (cf_convolve_ref (&src, &ref, &p) == CF_OK);
  if (cf_test_gpu_vs_ref (run_convolve, &p, &src, &ref, 2, what))
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
}

static const struct
{
  int channels, depth;
  unsigned mask;
} layouts[] = {
  {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {2, 8, 0x3}, {3, 16, 0x7},
  {4, 8, 0xE}
};

#define N_LAYOUTS (sizeof layouts / sizeof layouts[0])

/* The presets' taps, divisors, offsets and absolute values (as
 * gstcudaconvolve.c sets them). */
static void
presets (int step, int *n)
{
  static const struct
  {
    const char *name;
    float taps[9];
    double offset;
    int absolute;
  } list[] = {
    {"sharpen", {0, -1, 0, -1, 5, -1, 0, -1, 0}, 0, 0},
    {"laplacian", {-1, -1, -1, -1, 8, -1, -1, -1, -1}, 0, 1},
    {"sobel-x", {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 0, 1},
    {"sobel-y", {-1, -2, -1, 0, 0, 0, 1, 2, 1}, 0, 1},
    {"emboss", {2, 0, 0, 0, -1, 0, 0, 0, -1}, 0.5, 0},
    {"box", {1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 0},
  };
  static const int sizes[][2] = { {1, 1}, {33, 17}, {130, 131} };

  for (size_t k = 0; k < sizeof list / sizeof list[0]; k++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (size_t l = 0; l < N_LAYOUTS; l++) {
        CfConvolveParams p = { 3, 3 };
        if ((*n)++ % step)
          continue;
        memcpy (p.taps, list[k].taps, sizeof list[k].taps);
        p.offset = list[k].offset;
        p.absolute = list[k].absolute;
        check (sizes[s][0], sizes[s][1], layouts[l].channels,
            layouts[l].depth, layouts[l].mask, &p, list[k].name,
            (s + l) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
      }
}

/* The vector kernel's edges (small_mask.cuh): widths 1..40 around its
 * vector (8 samples), heights 1..5, every channel count at 8 and 16 bits,
 * 3x3, 5x5 and 7x7 (the vector kernel's with integer taps on 8 bits),
 * both borders, pitched strides and odd multiples of 16,
 * 8 (the vector kernel, not pitched; 8-bit only at 8) and 4 bytes (the
 * register kernel). */
static void
vector_edges (int step, int *n)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } edge_layouts[] = {
    {1, 8, 0x1}, {2, 8, 0x3}, {3, 8, 0x5}, {4, 8, 0x7}, {4, 8, 0xB},
    {1, 16, 0x1}, {2, 16, 0x2}, {3, 16, 0x7}, {4, 16, 0xE}
  };
  static const int strides[] = { 0, 16, 8, 4 };
  static CfConvolveParams p;

  for (int w = 1; w <= 40; w++)
    for (size_t l = 0; l < sizeof edge_layouts / sizeof edge_layouts[0]; l++)
      for (int k = 3; k <= 7; k += 2) {
        if ((*n)++ % step)
          continue;
        /* integer taps on every other width of 8-bit layouts */
        if (edge_layouts[l].depth == 8 && w % 2)
          integer_kernel (&p, k, -128, 127, w % 4 == 1, *n % 5);
        else
          random_kernel (&p, k, k, (w + k) % 3, *n % 5);
        cf_test_device_stride_multiple (strides[(w + l + k / 2) % 4]);
        check (w, 1 + (int) (w + l) % 5, edge_layouts[l].channels,
            edge_layouts[l].depth, edge_layouts[l].mask, &p,
            kind_name ((w + k) % 3), (w + k / 2) % 2 ? CF_BORDER_MIRROR :
            CF_BORDER_CLAMP);
      }
  cf_test_device_stride_multiple (0);
}

/* Integer taps on 8-bit planes (the vector kernel's byte dot products, to
 * 7x7): small and full ranges, full and separable, every mode, every 8-bit
 * layout, both borders; then the largest sums (every tap 127 or -128,
 * dividing by 1), which clamp. */
static void
integer_taps (int step, int *n)
{
  static const struct
  {
    int channels;
    unsigned mask;
  } l8[] = { {1, 0x1}, {2, 0x3}, {2, 0x2}, {4, 0x7}, {4, 0xF}, {4, 0xE},
  {3, 0x7}
  };
  static const int sizes[][2] = { {1, 1}, {9, 2}, {33, 17}, {130, 131},
  {257, 45}
  };
  static CfConvolveParams p;

  for (size_t l = 0; l < sizeof l8 / sizeof l8[0]; l++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int k = 3; k <= 7; k += 2) {
        if ((*n)++ % step)
          continue;
        if (s % 2)
          integer_kernel (&p, k, -3, 6, (int) (l + s) % 2, *n % 5);
        else
          integer_kernel (&p, k, -128, 127, (int) (l + s) % 2, *n % 5);
        check (sizes[s][0], sizes[s][1], l8[l].channels, 8, l8[l].mask, &p,
            p.separable ? "integer separable" : "integer full",
            (l + s + k / 2) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
      }
  for (int v = 0; v < 6; v++) {
    if ((*n)++ % step)
      continue;
    memset (&p, 0, sizeof p);
    p.width = p.height = v < 4 ? 5 : 7;
    for (int i = 0; i < p.width * p.height; i++)
      p.taps[i] = v % 2 ? -128.0f : 127.0f;
    p.divisor = 1.0;
    p.absolute = v >= 2;
    check (67, 19, v == 4 ? 2 : v % 2 ? 1 : 4, 8, v == 4 ? 0x3 : v % 2 ?
        0x1 : 0xF, &p, "integer extreme", v % 2 ? CF_BORDER_MIRROR :
        CF_BORDER_CLAMP);
  }
}

/* Separable kernels whose row taps are integers on 8-bit planes of 1, 2
 * and 4 channels from 9 taps: the separable engine sums its rows by byte dot
 * products (cuda/separable.cu, integer rows); columns random or integer,
 * sizes across a strip's and a chunk's edges, both borders, the largest
 * row sums (every row tap 127 or -128). */
static void
integer_rows (int step, int *n)
{
  static const int sizes[][2] = { {1, 1}, {45, 37}, {257, 45}, {2050, 600} };
  static const int sides[] = { 9, 15, 21, 31 };
  static CfConvolveParams p;

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
      if ((*n)++ % step)
        continue;
      const int w = sides[k], h = sides[(k + s) % 4], mode = (int) (s + k) % 5;
      double rows = 0.0, cols = 0.0;
      random_kernel (&p, w, h, 1, mode);
      for (int x = 0; x < w; x++) {
        p.row[x] = (float) ((int) (cf_test_rand () % (s % 2 ? 256 : 9)) -
            (s % 2 ? 128 : 2));
        rows += fabs (p.row[x]);
      }
      for (int y = 0; y < h; y++)
        cols += fabs (p.col[y]);
      /* random_kernel's divisor for these rows */
      p.divisor = mode == 0 ? 0.0 : (mode == 4 ? 2.0 : 1.0) * rows * cols;
      /* one channel, two (NV12's chroma; one of them copied) or four
       * (RGBA; alpha copied or filtered) */
      static const int channels[] = { 1, 2, 4 }, masks[][2] = { {0x1, 0x1},
      {0x3, 0x2}, {0x7, 0xf}
      };
      const int c = (int) (s + k) % 3;
      check (sizes[s][0], sizes[s][1], channels[c], 8, masks[c][k % 2], &p,
          "integer rows", (s + k) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
    }
  /* channels, mask, every row tap 127 (0) or -128 (1), absolute, border */
  static const int extreme[][5] = { {1, 0x1, 0, 0, CF_BORDER_CLAMP},
  {2, 0x3, 1, 1, CF_BORDER_MIRROR}, {4, 0xf, 1, 0, CF_BORDER_CLAMP},
  {4, 0x7, 0, 1, CF_BORDER_MIRROR}
  };
  for (size_t v = 0; v < sizeof extreme / sizeof extreme[0]; v++) {
    if ((*n)++ % step)
      continue;
    memset (&p, 0, sizeof p);
    p.width = p.height = 31;
    p.separable = 1;
    for (int i = 0; i < 31; i++) {
      p.row[i] = extreme[v][2] ? -128.0f : 127.0f;
      p.col[i] = i % 2 ? 1.0f : -1.0f;
    }
    p.divisor = 1.0;
    p.absolute = extreme[v][3];
    check (300, 70, extreme[v][0], 8, extreme[v][1], &p,
        "integer rows extreme", (CfBorder) extreme[v][4]);
  }
}

/* Separable kernels on 8-bit planes that the engine's columns pass runs on
 * tensor cores (cuda/separable.cu, tensor_columns): integer row taps from 7
 * on, a gain (the absolute taps' sums multiplied) of at most 1, no unsharp
 * step; radii 3 to 15 on either axis, sizes across a strip's and a chunk's
 * edges, one, two and four channels, every channel filtered, alpha copied,
 * channels copied at run time, offsets, absolute values, both borders,
 * rows whose 16-byte stores are unaligned (a stride of an odd number of
 * 4-byte words), and the largest row sums (every row tap 127). */
static void
tensor_columns (int step, int *n)
{
  static const int sizes[][2] = { {1, 1}, {45, 37}, {257, 45}, {1031, 333} };
  static const int sides[][2] = { {7, 7}, {31, 31}, {31, 9}, {11, 25},
  {19, 19}, {31, 7}
  };
  static const int channels[] = { 4, 1, 2 };
  static const unsigned masks[][4] = { {0xF, 0x7, 0x5, 0x8},
  {0x1, 0x1, 0x1, 0x1}, {0x3, 0x2, 0x3, 0x1}
  };
  static CfConvolveParams p;

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
      if ((*n)++ % step)
        continue;
      const int v = (int) (s * 6 + k), extreme = v % 7 == 6;
      double rows = 0.0, cols = 0.0;
      memset (&p, 0, sizeof p);
      p.width = sides[k][0];
      p.height = sides[k][1];
      p.separable = 1;
      for (int x = 0; x < p.width; x++)
        rows += p.row[x] = extreme ? 127.0f : (float) (cf_test_rand () % 8);
      if (rows == 0.0)
        rows = p.row[p.width / 2] = 1.0f;
      for (int y = 0; y < p.height; y++)
        cols += p.col[y] = rand_tap (0.0f);
      if (cols == 0.0)
        cols = p.col[p.height / 2] = 1.0f;
      /* divisor: the sum (gain 1), or twice it with an offset, or the sum
       * with a negative offset and absolute values */
      p.divisor = v % 3 == 1 ? 2.0 * rows * cols : 0.0;
      p.offset = v % 3 == 1 ? 0.2 : v % 3 == 2 ? -0.3 : 0.0;
      p.absolute = v % 3 == 2;
      cf_test_device_stride_multiple (v % 2 ? 4 : 0);
      cf_separable_passes_run ();
      check (sizes[s][0], sizes[s][1], channels[v % 3], 8,
          masks[v % 3][v / 3 % 4], &p, "tensor columns",
          v % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
      /* the path this set is for, wherever the device has it */
      if (cf_separable_tensor_capable ()
          && !(cf_separable_passes_run () & CF_SEPARABLE_TENSOR)) {
        fprintf (stderr, "tensor columns, case %d: not on tensor cores\n", v);
        failed++;
      }
    }
  cf_test_device_stride_multiple (0);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {130, 131},
  {257, 45}
  };
  static const int shapes[][2] = { {1, 1}, {3, 3}, {5, 5}, {7, 3}, {3, 7},
  {1, 9}, {9, 1}, {13, 5}, {15, 15}, {31, 31}, {31, 1}, {1, 31}
  };
  static CfConvolveParams p;

  /* CF_TEST_QUICK=1 (for compute-sanitizer) keeps every third case. */
  int step = getenv ("CF_TEST_QUICK") ? 3 : 1, n = 0;

  cf_test_require_gpu ();
  cf_test_seed (2718);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < N_LAYOUTS; l++)
      for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int kind = 0; kind < 3; kind++) {
          if (n++ % step)
            continue;
          random_kernel (&p, shapes[k][0], shapes[k][1], kind, n % 5);
          check (sizes[s][0], sizes[s][1], layouts[l].channels,
              layouts[l].depth, layouts[l].mask, &p, kind_name (kind),
              n % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
        }
  presets (step, &n);
  vector_edges (step, &n);
  /* The vector kernel's rows a thread by plane size (cuda/small_mask.cu):
   * 3x3 on one- and two-channel 8-bit planes takes 1 row below 2^21
   * samples, 2 from there (widths ending inside a vector). */
  cf_test_device_stride_multiple (8);
  for (int c = 1; c <= 2; c++)
    for (int integer = 0; integer < 2; integer++) {
      if (n++ % step)
        continue;
      if (integer)
        integer_kernel (&p, 3, -3, 6, 0, n % 5);
      else
        random_kernel (&p, 3, 3, 0, n % 5);
      check (2053 / c, 1031, c, 8, c == 1 ? 0x1 : 0x3, &p, integer ?
          "integer" : kind_name (0), c == 1 ? CF_BORDER_CLAMP :
          CF_BORDER_MIRROR);
    }
  cf_test_device_stride_multiple (0);
  integer_taps (step, &n);
  integer_rows (step, &n);
  tensor_columns (step, &n);
  /* every square separable size (each is compiled on its own) */
  for (int k = 1; k <= CF_CONVOLVE_MAX_SIDE; k += 2)
    for (int l = 0; l < 3; l++) {
      if (n++ % step)
        continue;
      random_kernel (&p, k, k, 1 + l % 2, l);
      check (45, 37, layouts[l].channels, layouts[l].depth, layouts[l].mask,
          &p, kind_name (1 + l % 2), l ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
    }
  /* Frames large enough that each strip segment of the separable engine
   * spans several 32-row chunks (the row buffer moves up between them),
   * a last strip partly outside the plane, square and rectangular. */
  for (size_t l = 0; l < N_LAYOUTS; l++) {
    if (n++ % step)
      continue;
    random_kernel (&p, 31, l % 2 ? 5 : 31, 1 + l % 2, (int) l);
    check (2050, 600, layouts[l].channels, layouts[l].depth, layouts[l].mask,
        &p, kind_name (1 + l % 2), l % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
  }
  /* Two engines' edges. The separable engine's vector path (kinds 1 and
   * 2): every channel filtered (RGBA without a copied channel, 16-bit),
   * one of two (the other copied), a width that ends inside a 4-sample
   * vector, and strips that end inside the plane or beyond it by less than
   * the halo. The lane path (kind 0, wide full kernels): every channel
   * count and depth, all channels filtered or some copied, 8 and 16 pixels
   * a lane (below and from 9 taps across), widths ending inside a 32- or
   * 64-pixel tile, heights inside a 32-row one. */
  {
    static const struct
    {
      int w, h, channels, depth;
      unsigned mask;
      int kw, kh, kind;
    } edges[] = {
      {131, 70, 4, 8, 0xF, 31, 31, 1}, {67, 41, 4, 16, 0xF, 9, 21, 2},
      {130, 66, 2, 8, 0x1, 31, 3, 1}, {129, 35, 2, 16, 0x2, 5, 31, 2},
      {255, 97, 1, 8, 0x1, 31, 31, 1}, {259, 33, 1, 16, 0x1, 17, 29, 2},
      {62, 130, 4, 8, 0x7, 31, 1, 1}, {33, 200, 4, 8, 0xE, 1, 31, 2},
      {97, 45, 4, 8, 0xF, 5, 7, 0}, {70, 33, 4, 16, 0x7, 9, 3, 0},
      {131, 70, 3, 8, 0x5, 17, 11, 0}, {45, 65, 2, 8, 0x3, 7, 25, 0},
      {66, 31, 2, 16, 0x2, 31, 5, 0}, {129, 63, 1, 8, 0x1, 11, 11, 0},
      {200, 40, 1, 16, 0x1, 23, 31, 0}, {33, 97, 4, 8, 0xE, 31, 31, 0},
    };
    for (size_t v = 0; v < sizeof edges / sizeof edges[0]; v++) {
      if (n++ % step)
        continue;
      random_kernel (&p, edges[v].kw, edges[v].kh, edges[v].kind, (int) v % 5);
      check (edges[v].w, edges[v].h, edges[v].channels, edges[v].depth,
          edges[v].mask, &p, kind_name (edges[v].kind),
          v % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
    }
  }
  /* Separable kernels on rows not aligned to 4 samples: the engine's
   * blocked taps instead of the vector path */
  cf_test_device_unaligned_rows (1);
  for (size_t l = 0; l < N_LAYOUTS; l++) {
    if (n++ % step)
      continue;
    random_kernel (&p, l % 2 ? 7 : 31, l % 3 ? 31 : 11, 1 + l % 2, (int) l);
    check (75, 67, layouts[l].channels, layouts[l].depth, layouts[l].mask,
        &p, kind_name (1 + l % 2), l % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
  }
  cf_test_device_unaligned_rows (0);
  /* 3x3 and 5x5 on rows that are not word-aligned: the tiled kernel
   * instead of the register one */
  cf_test_device_unaligned_rows (1);
  for (size_t l = 0; l < N_LAYOUTS; l++)
    for (int k = 3; k <= 5; k += 2)
      for (int kind = 0; kind < 2; kind++) {
        if (n++ % step)
          continue;
        random_kernel (&p, k, k, kind, n % 5);
        check (33, 17, layouts[l].channels, layouts[l].depth,
            layouts[l].mask, &p, kind_name (kind),
            n % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP);
      }
  cf_test_device_unaligned_rows (0);
  /* I420_10LE, P010_10LE and P012_LE planes (chroma: two channels) */
  random_kernel (&p, 3, 3, 0, 2);
  check_deep (67, 35, 1, 0x3ff, &p, "full");
  random_kernel (&p, 5, 5, 1, 3);
  check_deep (67, 35, 2, 0xffc0, &p, "separable");
  random_kernel (&p, 7, 3, 0, 2);
  check_deep (67, 35, 1, 0xfff0, &p, "full");
  /* Large frames (left out under compute-sanitizer, CF_TEST_QUICK=1). */
  if (getenv ("CF_TEST_QUICK"))
    return cf_test_finish (passed, failed);
  random_kernel (&p, 3, 3, 0, 1);
  check (3840, 2160, 1, 8, 1, &p, "full", CF_BORDER_CLAMP);
  random_kernel (&p, 5, 5, 0, 0);
  check (3840, 2160, 4, 8, 7, &p, "full", CF_BORDER_MIRROR);
  /* integer taps on four-channel planes of 2^24 samples and more (more
   * rows a thread there) */
  integer_kernel (&p, 3, -128, 127, 0, 1);
  check (3840, 2160, 4, 8, 7, &p, "integer full", CF_BORDER_CLAMP);
  integer_kernel (&p, 5, -3, 6, 1, 2);
  check (2048, 2048, 4, 8, 0xF, &p, "integer separable", CF_BORDER_MIRROR);
  integer_kernel (&p, 7, -128, 127, 0, 3);
  check (3840, 2160, 1, 8, 1, &p, "integer full", CF_BORDER_MIRROR);
  integer_kernel (&p, 7, -3, 6, 0, 0);
  check (1920, 1080, 2, 8, 3, &p, "integer full", CF_BORDER_CLAMP);
  integer_kernel (&p, 7, -128, 127, 0, 1);
  check (3840, 2160, 4, 8, 7, &p, "integer full", CF_BORDER_MIRROR);
  random_kernel (&p, 15, 15, 0, 3);
  check (1920, 1080, 1, 16, 1, &p, "full", CF_BORDER_CLAMP);
  random_kernel (&p, 31, 31, 1, 2);
  check (3840, 2160, 1, 16, 1, &p, "separable", CF_BORDER_MIRROR);
  return cf_test_finish (passed, failed);
}
