/* gpu suite: cf_median on the GPU against the plain-C reference, bit for
 * bit: every kernel on every window it takes (exact 3x3 to 31x31 and a few
 * larger, rectangles: the strip kernel's thin windows 1x3 to 5x23 in both
 * orientations, random ones; the separable smoother to 121), every channel
 * layout, 8 and 16 bits, both borders, iterations, awkward sizes and
 * sample values (ties, narrow 16-bit ranges). CF_TEST_QUICK=1 runs a small
 * subset (for compute-sanitizer). */
#include "cf_test_util.h"
#include "median.h"

#include <stdlib.h>
#include <string.h>

static CfStatus
run_median (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_median (exec, src, dst, params);
}

static long passed, failed;

typedef struct
{
  int channels, depth;
  unsigned mask;
} Layout;

static const Layout layouts[] = {
  {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {4, 8, 0xE}, {3, 8, 0x7},
  {2, 8, 0x2}, {4, 16, 0x7}, {3, 16, 0x5}, {2, 16, 0x3}, {1, 8, 0x0}
};

/* How the random samples are shaped: full range, few values (many ties),
 * a narrow 16-bit band across a few coarse histogram bins, or a steep ramp
 * with mild noise (the median moves by about a window row every row). */
enum
{ VALUES_FULL, VALUES_TIES, VALUES_BAND, VALUES_RAMP };

static void
shape_values (CfPlane * p, int values)
{
  for (int y = 0; y < p->height; y++) {
    unsigned char *row = (unsigned char *) p->data + (size_t) y * p->stride;
    for (int i = 0; i < p->width * p->channels; i++) {
      if (p->depth > 8) {
        uint16_t *v = (uint16_t *) row + i;
        if (values == VALUES_TIES)
          *v &= 0x0303;
        else if (values == VALUES_BAND)
          *v = 30000 + (*v & 1023);
        else if (values == VALUES_RAMP)
          *v = (uint16_t) (y * 300 + i * 7 + (*v & 63));
      } else if (values == VALUES_RAMP) {
        row[i] = (unsigned char) (y * 3 + (row[i] & 3));
      } else if (values != VALUES_FULL) {
        row[i] &= 3;
      }
    }
  }
}

static const char *
kernel_name (CfMedianKernel k)
{
  return k == CF_MEDIAN_KERNEL_REGISTERS ? "registers" :
      k == CF_MEDIAN_KERNEL_HISTOGRAM ? "histogram" :
      k == CF_MEDIAN_KERNEL_RANKS ? "ranks" :
      k == CF_MEDIAN_KERNEL_STRIP ? "strip" : "auto";
}

static void
check (int w, int h, const Layout * l, int rx, int ry, CfMedianMode mode,
    CfMedianKernel kernel, int iterations, CfBorder border, int values)
{
  char what[200];
  CfMedianParams p = { rx, ry, mode, iterations, border, l->mask, kernel };
  CfPlane src = cf_test_plane_new (w, h, l->channels, l->depth, 3);
  CfPlane ref = cf_test_plane_like (&src, 0);

  shape_values (&src, values);
  snprintf (what, sizeof what, "%dx%d c%d d%d mask %x window %dx%d %s %s "
      "x%d %s values %d", w, h, l->channels, l->depth, l->mask, 2 * rx + 1,
      2 * ry + 1, mode == CF_MEDIAN_SEPARABLE ? "separable" : "exact",
      kernel_name (kernel), iterations,
      border == CF_BORDER_MIRROR ? "mirror" : "clamp", values);
  CF_CHECK (cf_median_ref (&src, &ref, &p) == CF_OK);
  if (cf_test_gpu_vs_ref (run_median, &p, &src, &ref, 0, what))
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
}

/* Progress: the counts after each part (the whole run takes minutes). */
static void
part_done (const char *part)
{
  printf ("%s: %ld passed, %ld failed so far\n", part, passed, failed);
  fflush (stdout);
}

/* Parameters the GPU path must refuse before launching anything. */
static void
check_invalid (void)
{
  static CfScratch scratch;
  CfPlane a = { &scratch, 16, 4, 4, 1, 8 }, b = a;
  CfExec exec = { 1, (CfStream) & scratch, &scratch };
  const CfMedianParams bad[] = {
    {CF_MEDIAN_REGISTERS_MAX_RADIUS + 1, CF_MEDIAN_REGISTERS_MAX_RADIUS + 1,
        CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_REGISTERS},
    {1, 2, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_REGISTERS},
    {2, 2, CF_MEDIAN_SEPARABLE, 1, CF_BORDER_CLAMP, 1,
        CF_MEDIAN_KERNEL_REGISTERS},
    {CF_MEDIAN_RANKS_MIN_RADIUS - 1, CF_MEDIAN_RANKS_MIN_RADIUS - 1,
        CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_RANKS},
    {CF_MEDIAN_RANKS_MAX_RADIUS + 1, CF_MEDIAN_RANKS_MAX_RADIUS + 1,
        CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_RANKS},
    {6, 5, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_RANKS},
    {1, 1, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_STRIP},
    {1, CF_MEDIAN_STRIP_MAX_LONG_RADIUS + 1, CF_MEDIAN_EXACT, 1,
        CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_STRIP},
    {CF_MEDIAN_STRIP_MAX_LONG_RADIUS_5 + 1, 2, CF_MEDIAN_EXACT, 1,
        CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_STRIP},
    {3, 7, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, CF_MEDIAN_KERNEL_STRIP},
    {1, 4, CF_MEDIAN_SEPARABLE, 1, CF_BORDER_CLAMP, 1,
        CF_MEDIAN_KERNEL_STRIP},
    {CF_MEDIAN_MAX_RADIUS + 1, 1, CF_MEDIAN_EXACT, 1, CF_BORDER_CLAMP, 1, 0},
    {1, 1, CF_MEDIAN_EXACT, 0, CF_BORDER_CLAMP, 1, 0},
    {1, 1, CF_MEDIAN_EXACT, CF_MEDIAN_MAX_ITERATIONS + 1, CF_BORDER_CLAMP, 1,
        0},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (cf_median (&exec, &a, &b, &bad[i]) == CF_ERROR_INVALID)
      passed++;
    else {
      fprintf (stderr, "FAIL invalid parameters %zu accepted\n", i);
      failed++;
    }
  }
}

int
main (void)
{
  /* 300 x 37: GRAY8 blocks away from both edges (no border lookups). */
  static const int sizes[][2] = { {1, 1}, {7, 3}, {37, 29}, {130, 19},
  {300, 37}
  };
  const size_t n_layouts = sizeof layouts / sizeof layouts[0];
  const int quick = getenv ("CF_TEST_QUICK") != NULL;

  cf_test_require_gpu ();
  cf_test_seed (4242);
  check_invalid ();

  /* The register kernels (3 x 3 and 2 x 2-sharing) on every window they
   * take, every layout; the quick subset skips the middle sizes. */
  for (int r = 1; r <= CF_MEDIAN_REGISTERS_MAX_RADIUS; r++)
    for (size_t l = 0; l < n_layouts; l++)
      for (size_t s = 0; s < 5; s++) {
        if (quick && (s == 2 || s == 3))
          continue;
        check (sizes[s][0], sizes[s][1], &layouts[l], r, r, CF_MEDIAN_EXACT,
            CF_MEDIAN_KERNEL_REGISTERS, 1, (l + s) & 1 ? CF_BORDER_MIRROR :
            CF_BORDER_CLAMP, (int) (l + s + r) % 3);
      }

  part_done ("register kernels");

  /* The histogram kernel on every square window 3..31, every layout. */
  for (int r = 1; r <= 15; r += quick ? 7 : 1)
    for (size_t l = 0; l < n_layouts; l++)
      check (r > 8 ? 53 : 37, r > 8 ? 41 : 29, &layouts[l], r, r,
          CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_HISTOGRAM, 1,
          (l + r) & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, (int) (l + r) % 3);
  part_done ("histogram kernel");

  /* The rank kernel on every window it takes, every layout, on frames one
   * tile high and two wide; a third of them also on frames of several
   * tiles in both directions (140 x 150), with partial tiles at the right
   * and bottom. */
  for (int r = CF_MEDIAN_RANKS_MIN_RADIUS;
      r <= CF_MEDIAN_RANKS_MAX_RADIUS; r += quick ? 5 : 1)
    for (size_t l = 0; l < n_layouts; l++)
      for (int big = 0; big < 2; big++)
        if (!big || quick || (l + r) % 3 == 0)
          check (big ? 140 : 33 + r, big ? 150 : 21, &layouts[l], r, r,
              CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_RANKS, 1,
              (l + r + big) & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
              (int) (l + r + big) % 4);
  part_done ("rank kernel");

  /* The strip kernel on every window it takes, tall and wide, three cases
   * each: the layouts, sizes, borders and sample shapes in turn. Sizes from
   * one pixel to several blocks each way (a tall block is 64 rows of 64
   * pixels, a wide one 32 rows of 128 pixels for one channel), odd widths.
   * The quick subset runs one case of every third window. */
  static const int strip_sizes[][2] = { {1, 1}, {7, 3}, {37, 29},
  {131, 70}, {301, 141}, {3, 37}, {260, 9}
  };
  long n_strip = 0;
  for (int s = 0; s <= CF_MEDIAN_STRIP_MAX_SHORT_RADIUS; s++)
    for (int l = s + 1; l <= (s < CF_MEDIAN_STRIP_MAX_SHORT_RADIUS ?
            CF_MEDIAN_STRIP_MAX_LONG_RADIUS :
            CF_MEDIAN_STRIP_MAX_LONG_RADIUS_5); l++)
      for (int tall = 0; tall < 2; tall++)
        for (int c = 0; c < 3; c++) {
          long i = n_strip++;
          const int *size = strip_sizes[i % 7];
          if (quick && (c > 0 || (l + s + tall) % 3 != 0))
            continue;
          check (size[0], size[1], &layouts[i % n_layouts], tall ? s : l,
              tall ? l : s, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_STRIP,
              1 + (c == 2 && l < 4), (i / 7) & 1 ? CF_BORDER_MIRROR :
              CF_BORDER_CLAMP, (int) (i % 4));
        }
  part_done ("strip kernel");

  /* Random rectangles on AUTO (whichever kernel it picks), every layout in
   * turn, both borders. */
  for (int i = 0; i < (quick ? 6 : 40); i++) {
    int rx = (int) (cf_test_rand () % 9), ry = (int) (cf_test_rand () % 9);
    if (i % 3 == 0)
      rx = (int) (cf_test_rand () % 3);
    check (5 + (int) (cf_test_rand () % 150), 3 + (int) (cf_test_rand () % 90),
        &layouts[i % n_layouts], rx, ry, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_AUTO,
        1, i & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, i % 4);
  }
  part_done ("random rectangles");

  /* Non-square windows (cudamedian width x height) on AUTO (the strip
   * kernel), and every one forced onto the histogram; both borders, both
   * depths. The quick subset keeps 1x3, 3x9 and 1x31. */
  static const int shapes[][2] = { {1, 3}, {3, 1}, {3, 9}, {9, 3}, {3, 23},
  {5, 15}, {1, 31}, {31, 1}
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    if (quick && i != 0 && i != 2 && i != 6)
      continue;
    for (size_t l = 0; l < 4; l++)
      for (int k = 0; k < 2; k++)
        check (67 + (int) i, 45, &layouts[(i + l) % n_layouts],
            shapes[i][0] / 2, shapes[i][1] / 2, CF_MEDIAN_EXACT,
            k ? CF_MEDIAN_KERNEL_HISTOGRAM : CF_MEDIAN_KERNEL_AUTO, 1 + k,
            (i + l + k) & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
            (int) (i + l) % 4);
  }
  part_done ("non-square windows");
  if (quick)
    return cf_test_finish (passed, failed);

  /* Larger exact windows (on frames small enough for the sorting
   * reference), rectangles (subsampled chroma), 1-D windows, strips taller
   * than one block, the 16-bit fine-bin rebuilds. */
  static const struct
  {
    int rx, ry, w, h;
  } windows[] = {
    {20, 20, 45, 140}, {30, 22, 40, 100}, {60, 60, 6, 40}, {1, 2, 71, 150},
    {2, 1, 71, 150}, {0, 3, 71, 150}, {5, 0, 71, 150}, {7, 2, 71, 150}
  };
  for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
    for (size_t l = 0; l < (windows[i].rx < 20 ? 4 : 2); l++)
      check (windows[i].w, windows[i].h, windows[i].rx < 20 ?
          &layouts[(i + l) % n_layouts] : &layouts[l],
          windows[i].rx, windows[i].ry, CF_MEDIAN_EXACT, CF_MEDIAN_KERNEL_AUTO,
          1, (i + l) & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, (int) l % 3);

  /* AUTO on every size 3..31 and a 1x1 window (a copy). */
  for (int r = 0; r <= 15; r++)
    check (45, 33, &layouts[r % n_layouts], r, r, CF_MEDIAN_EXACT,
        CF_MEDIAN_KERNEL_AUTO, 1, r & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
        VALUES_FULL);

  /* The separable smoother, up to 121, and 1-D windows. */
  static const int smooth[][2] = { {1, 1}, {2, 2}, {5, 5}, {15, 15},
  {30, 30}, {60, 60}, {3, 0}, {0, 4}, {6, 2}
  };
  for (size_t i = 0; i < sizeof smooth / sizeof smooth[0]; i++)
    for (size_t l = 0; l < n_layouts; l++)
      check (i == 5 ? 100 : 77, i == 5 ? 70 : 45, &layouts[l], smooth[i][0],
          smooth[i][1], CF_MEDIAN_SEPARABLE, CF_MEDIAN_KERNEL_AUTO, 1,
          (i + l) & 1 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, (int) l % 3);

  /* Iterations ping-pong through scratch. */
  for (int it = 2; it <= 4; it++)
    for (size_t l = 0; l < 3; l++) {
      check (61, 47, &layouts[l], 1, 1, CF_MEDIAN_EXACT,
          CF_MEDIAN_KERNEL_AUTO, it, CF_BORDER_CLAMP, VALUES_FULL);
      check (61, 47, &layouts[l], 6, 6, CF_MEDIAN_EXACT,
          CF_MEDIAN_KERNEL_AUTO, it, CF_BORDER_MIRROR, VALUES_BAND);
      check (61, 47, &layouts[l], 4, 3, CF_MEDIAN_SEPARABLE,
          CF_MEDIAN_KERNEL_AUTO, it, CF_BORDER_CLAMP, VALUES_FULL);
    }

  /* Large frames (the sorting reference is slow). */
  check (3840, 2160, &layouts[0], 1, 1, CF_MEDIAN_EXACT,
      CF_MEDIAN_KERNEL_AUTO, 1, CF_BORDER_CLAMP, VALUES_FULL);
  check (1920, 1080, &layouts[1], 2, 2, CF_MEDIAN_EXACT,
      CF_MEDIAN_KERNEL_AUTO, 1, CF_BORDER_MIRROR, VALUES_FULL);
  check (512, 288, &layouts[6], 2, 2, CF_MEDIAN_EXACT,
      CF_MEDIAN_KERNEL_HISTOGRAM, 1, CF_BORDER_CLAMP, VALUES_BAND);
  /* The 16-bit kernel's 32-output blocks over several strips, with fine-bin
   * rebuilds shared by a warp. */
  check (200, 150, &layouts[6], 10, 10, CF_MEDIAN_EXACT,
      CF_MEDIAN_KERNEL_HISTOGRAM, 1, CF_BORDER_MIRROR, VALUES_BAND);
  return cf_test_finish (passed, failed);
}
