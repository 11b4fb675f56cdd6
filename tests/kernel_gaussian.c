/* gpu suite: cf_gaussian_blur on the GPU against the plain-C reference of
 * the same path, on random planes of awkward sizes, every channel layout, 8
 * and 16 bits, both borders, blur and sharpen (amount, threshold), both
 * paths across the crossovers and the direct one above the one-pass
 * kernel's radius; within 1 LSB. Then the window and multi-rate paths on
 * the GPU against the direct truncated Gaussian: at most 1 LSB on 8 bits,
 * 0.1% of the range on 16 (multi-rate: channels outside the mask exact). */
#include "cf_test_util.h"
#include <math.h>
#include "gaussian.h"
#include "separable.h"

#include <stdlib.h>

static CfStatus
run_gaussian (const CfExec * exec, const CfPlane * src, const CfPlane * dst,
    const void *params)
{
  return cf_gaussian_blur (exec, src, dst, params);
}

static long passed, failed;

/* 10- and 12-bit samples in 16 (CfPlane.max): sharpening clamps to the
 * format's full scale. */
static void
check_deep (int w, int h, int channels, unsigned max, double sigma, int sharpen)
{
  char what[160];
  CfGaussianParams p = { sigma, sigma, cf_gaussian_default_radius (sigma),
    cf_gaussian_default_radius (sigma), sharpen, CF_BORDER_CLAMP,
    CF_ALL_CHANNELS (channels)
  };
  CfPlane src = cf_test_plane_new (w, h, channels, 16, 5);
  CfPlane ref;

  cf_test_plane_set_max (&src, max);
  ref = cf_test_plane_like (&src, 0);
  snprintf (what, sizeof what, "%dx%d c%d max 0x%x sigma %.2f%s", w, h,
      channels, max, sigma, sharpen ? " sharpen" : "");
  CF_CHECK (cf_gaussian_blur_ref (&src, &ref, &p) == CF_OK);
  if (cf_test_gpu_vs_ref (run_gaussian, &p, &src, &ref, 1, what))
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
}

static void
check (int w, int h, int channels, int depth, unsigned mask, double sigma,
    int radius, CfBorder border, int sharpen)
{
  char what[160];
  CfGaussianParams p = { sigma, sigma * 0.75, radius, radius / 2 + 1,
    sharpen, border, mask
  };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane ref = cf_test_plane_like (&src, 0);

  snprintf (what, sizeof what, "%dx%d c%d d%d mask %x sigma %.2f r %d/%d %s%s",
      w, h, channels, depth, mask, sigma, p.radius_x, p.radius_y,
      border == CF_BORDER_MIRROR ? "mirror" : "clamp",
      sharpen ? " sharpen" : "");
  CF_CHECK (cf_gaussian_blur_ref (&src, &ref, &p) == CF_OK);
  if (cf_test_gpu_vs_ref (run_gaussian, &p, &src, &ref, 1, what))
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
}

static const char *
path_name (CfGaussianPath path)
{
  return path == CF_GAUSSIAN_MULTIRATE ? "multirate" :
      path == CF_GAUSSIAN_WINDOW ? "window" :
      path == CF_GAUSSIAN_DIRECT ? "direct" : "auto";
}

/* Default radii for sx and sy; the reference is that of the path, or the
 * direct one when `accuracy` (then 0.1% of the range on 16 bits). */
static void
check_path (int w, int h, int channels, int depth, unsigned mask, double sx,
    double sy, CfBorder border, CfGaussianPath path, double amount,
    double threshold, int accuracy)
{
  char what[200];
  CfGaussianParams p = { sx, sy, cf_gaussian_default_radius (sx),
    cf_gaussian_default_radius (sy), amount, border, mask, threshold, path
  };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane ref = cf_test_plane_like (&src, 0);
  int tol = accuracy && depth > 8 ? 65 : 1;
  /* A sample whose detail lies at the threshold is kept by one summation
   * order and sharpened by another: the two differ by about amount x
   * threshold (seen once in 3.7 million samples, 2050x600 RGBA). */
  if (threshold > 0.0)
    tol += (int) ceil (amount * threshold * ((1 << depth) - 1));

  snprintf (what, sizeof what, "%dx%d c%d d%d mask %x sigma %.2f/%.2f r %d/%d "
      "%s %s amount %g threshold %g%s", w, h, channels, depth, mask, sx, sy,
      p.radius_x, p.radius_y, border == CF_BORDER_MIRROR ? "mirror" : "clamp",
      path_name (path), amount, threshold, accuracy ? " vs direct" : "");
  CF_CHECK ((accuracy ? cf_gaussian_blur_direct_ref (&src, &ref, &p) :
          cf_gaussian_blur_ref (&src, &ref, &p)) == CF_OK);
  if (cf_test_gpu_vs_ref (run_gaussian, &p, &src, &ref, tol, what))
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
}

static void
paths (int step)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {2, 8, 0x3}, {3, 16, 0x7}
  };
  static const double sigmas[] = { 2.0, 3.5, 4.0, 6.0, 12.0, 45.0, 100.0 };
  static const int sizes[][2] = { {1, 1}, {7, 3}, {300, 9}, {129, 301} };
  int n = 0;

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++)
        for (int path = CF_GAUSSIAN_DIRECT; path <= CF_GAUSSIAN_MULTIRATE;
            path++) {
          if (n++ % step)
            continue;
          check_path (sizes[s][0], sizes[s][1], layouts[l].channels,
              layouts[l].depth, layouts[l].mask, sigmas[g],
              sigmas[(g + 2) % 7], (g + l) % 2 ? CF_BORDER_MIRROR :
              CF_BORDER_CLAMP, path, g % 3 ? 0.0 : 0.5 * (g + 1),
              g == 3 ? 0.02 : 0.0, 0);
        }
}

/* The multi-rate path on the GPU against the direct truncated Gaussian
 * (noise, or a natural-looking frame): within 1 LSB on 8 bits and 0.1% of
 * the range on 16, for the blur; sharpening scales the blur's error by its
 * amount, and a threshold moves samples whose detail lies at it. Channels
 * outside the mask must come through exactly. */
static void
check_multirate (int w, int h, int channels, int depth, unsigned mask,
    double sx, double sy, CfBorder border, double amount, double threshold,
    int natural)
{
  char what[200];
  CfGaussianParams p = { sx, sy, cf_gaussian_default_radius (sx),
    cf_gaussian_default_radius (sy), amount, border, mask, threshold,
    CF_GAUSSIAN_MULTIRATE
  };
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 5);
  CfPlane ref = cf_test_plane_like (&src, 0), out = cf_test_plane_like (&src,
      0);
  double scale = amount > 1.0 ? amount : 1.0;
  int tol = (int) floor ((depth > 8 ? 65 : 1) * scale), max_diff = 0;
  long bad = 1;

  if (threshold > 0.0)
    tol += (int) ceil (amount * threshold * ((1 << depth) - 1));
  if (natural)
    cf_test_plane_natural (&src);
  snprintf (what, sizeof what, "multirate vs direct %s %dx%d c%d d%d mask %x "
      "sigma %.2f/%.2f %s amount %g threshold %g", natural ? "natural" :
      "noise", w, h, channels, depth, mask, sx, sy,
      border == CF_BORDER_MIRROR ? "mirror" : "clamp", amount, threshold);
  CF_CHECK (cf_gaussian_blur_direct_ref (&src, &ref, &p) == CF_OK);
  if (cf_test_gpu_run (run_gaussian, &p, &src, &out, what)) {
    bad = cf_test_compare (&out, &ref, tol, &max_diff, what);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        for (int c = 0; c < channels; c++) {
          size_t i = (size_t) x * channels + c;
          if ((mask >> c) & 1u)
            continue;
          if (depth > 8 ? ((unsigned short *) ((char *) out.data + y *
                      out.stride))[i] != ((unsigned short *) ((char *) src.data
                      + y * src.stride))[i] : ((unsigned char *) out.data)[y *
                  out.stride + i] != ((unsigned char *) src.data)[y *
                  src.stride + i])
            bad++;
        }
  }
  printf ("%s: max error %d (tolerance %d)%s\n", what, max_diff, tol,
      bad ? " FAIL" : "");
  if (bad)
    failed++;
  else
    passed++;
  cf_test_plane_free (&src);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&out);
}

/* Across the crossover (sigma 2 and 4: k = 1, the direct filter in the
 * path's kernels), anisotropic, odd sizes, both borders, 1, 2 and 4
 * channels, 8 and 16 bits, sharpening with a threshold. */
static void
multirate (int step)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {2, 8, 0x3}, {4, 8, 0x7}, {4, 16, 0xE}
  };
  static const double sigmas[] = { 2.0, 4.0, 5.5, 10.0, 20.0, 50.0, 100.0 };
  static const int sizes[][2] = { {1, 1}, {7, 3}, {333, 197} };
  const int ns = sizeof sigmas / sizeof sigmas[0];
  int n = 0;

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (int g = 0; g < ns; g++) {
        if (n++ % step)
          continue;
        check_multirate (sizes[s][0], sizes[s][1], layouts[l].channels,
            layouts[l].depth, layouts[l].mask, sigmas[g],
            sigmas[(g + 3 * (l % 2)) % ns], (g + l) % 2 ? CF_BORDER_MIRROR :
            CF_BORDER_CLAMP, g % 3 == 1 ? 0.5 * (1 + l % 3) : 0.0,
            g % 3 == 1 && l % 2 ? 0.02 : 0.0, (g + s) % 2);
      }
}

/* Radii 1 and 2: the small-mask kernel (pitched device planes are
 * aligned), every layout, odd widths, warps over the row's end, a centre
 * weight of almost 1 (the largest fixed-point tap on 8-bit planes). */
static void
small (int step)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {4, 8, 0xE}, {3, 8, 0x7},
    {2, 8, 0x3}, {4, 16, 0x7}, {3, 16, 0x7}, {2, 16, 0x3}
  };
  static const double sigmas[][2] = { {0.3, 0.3}, {0.6, 0.6}, {0.6, 0.3},
  {0.3, 0.55}, {0.1, 0.2}
  };
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {130, 131},
  {4097, 9}, {61, 40}
  };
  int n = 0;

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
        if (n++ % step)
          continue;
        check_path (sizes[s][0], sizes[s][1], layouts[l].channels,
            layouts[l].depth, layouts[l].mask, sigmas[g][0], sigmas[g][1],
            (g + s) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
            CF_GAUSSIAN_AUTO, g == 2 ? 1.5 : 0.0, l == 1 ? 0.01 : 0.0, 0);
      }
}

/* Fails the case just run unless it ran on tensor cores exactly where
 * `tensor` says (cf_separable_passes_run, cleared before the case). */
static void
expect_tensor (int tensor, const char *set, int r, size_t layout)
{
  if (!(cf_separable_passes_run () & CF_SEPARABLE_TENSOR) != !tensor) {
    fprintf (stderr, "%s, radius %d, layout %zu: tensor cores %s\n", set, r,
        layout, tensor ? "not used" : "used");
    failed++;
  }
}

/* Radii 4 to 8: the separable engine's vector path on planes it takes (1,
 * 2 or 4 channels, rows aligned to 4 samples), the tile kernel on the
 * others (three channels, 16-bit rows at 4-byte steps); both borders, the
 * unsharp step on some, sizes across the engine's strips and chunks. */
static void
engine_or_tile (int step, int *n)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
    int stride;
  } layouts[] = {
    {1, 8, 0x1, 0}, {2, 8, 0x3, 0}, {4, 8, 0x7, 0}, {4, 8, 0xF, 16},
    {1, 16, 0x1, 0}, {4, 16, 0x7, 0}, {3, 8, 0x7, 0}, {1, 16, 0x1, 4},
    {3, 16, 0x5, 0}
  };

  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (int r = 4; r <= 8; r++) {
      if ((*n)++ % step)
        continue;
      /* 8-bit blurs on the engine's vector path run on tensor cores where
       * the device has them; 16 bits, three channels and the unsharp step
       * do not */
      const int tensor = layouts[l].depth == 8 && layouts[l].channels != 3
          && r != 6 && cf_separable_tensor_capable ();
      cf_separable_passes_run ();
      cf_test_device_stride_multiple (layouts[l].stride);
      check_path (131 + 37 * r, 45 + 3 * (int) l, layouts[l].channels,
          layouts[l].depth, layouts[l].mask, (r - 0.5) / 3.0, (r + l) % 3 ?
          (r - 0.5) / 3.0 : 1.0, (r + l) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
          CF_GAUSSIAN_AUTO, r == 6 ? 1.0 : 0.0, 0.0, 0);
      expect_tensor (tensor, "engine or tile", r, l);
    }
  cf_test_device_stride_multiple (0);
}

/* Radii 16 to 32 of one-channel 8-bit blurs: the separable engine on
 * tensor cores (the radius padded up to a multiple of 4 with zero taps)
 * where the device has them and the rows are aligned to 4 samples, the
 * multi-rate path elsewhere (two and four channels, rows at odd 2-byte
 * steps, the unsharp step, radius 33); each within 1 LSB of its reference
 * (the direct one for one filtered channel, whichever path ran).
 * Heights below the radius and above a segment of several chunks,
 * anisotropic radii, both borders. */
static void
wide_tensor (int step, int *n)
{
  static const struct
  {
    int channels;
    unsigned mask;
    int stride;
  } layouts[] = {
    {1, 0x1, 0}, {1, 0x1, 4}, {1, 0x1, 12}, {2, 0x3, 0}, {2, 0x2, 0},
    {1, 0x1, 2}, {4, 0x7, 0}, {4, 0x4, 0}
  };
  static const int radii[] = { 16, 17, 19, 22, 24, 27, 29, 32, 33 };
  static const int heights[] = { 600, 5, 97, 1 };

  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++) {
      if ((*n)++ % step)
        continue;
      const int r = radii[i], sharpen = i == 3 && l < 2;
      const int tensor = layouts[l].channels == 1 && r <= 32 && !sharpen
          && layouts[l].stride != 2 && cf_separable_tensor_capable ();
      cf_separable_passes_run ();
      cf_test_device_stride_multiple (layouts[l].stride);
      check_path (67 + 131 * (int) i + 7 * (int) l, heights[(i + l) % 4],
          layouts[l].channels, 8, layouts[l].mask, (r - 0.5) / 3.0,
          (i + l) % 3 ? (r - 0.5) / 3.0 : 1.0,
          (i + l) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
          CF_GAUSSIAN_AUTO, sharpen ? 1.0 : 0.0, 0.0, 0);
      expect_tensor (tensor, "wide tensor", r, l);
    }
  cf_test_device_stride_multiple (0);
}

/* The vector kernel's edges (small_mask.cuh): widths 1..40 around its
 * vector (8 samples), heights 1..5, every channel count at 8 and 16 bits,
 * radii 1, 2 and 3 (1 and 2 the vector kernel's, 3 the separable
 * engine's where its vector path takes the plane, the tile kernel's
 * elsewhere), both borders, pitched strides and
 * odd multiples of 16, 8 (the vector kernel, not pitched; 8-bit only at
 * 8) and 4 bytes (the older kernels). */
static void
vector_edges (int step, int *n)
{
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {2, 8, 0x3}, {3, 8, 0x5}, {4, 8, 0x7}, {4, 8, 0xB},
    {1, 16, 0x1}, {2, 16, 0x2}, {3, 16, 0x7}, {4, 16, 0xE}
  };
  static const int strides[] = { 0, 16, 8, 4 };

  for (int w = 1; w <= 40; w++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (int r = 1; r <= 3; r++) {
        if ((*n)++ % step)
          continue;
        cf_test_device_stride_multiple (strides[(w + l + r) % 4]);
        check_path (w, 1 + (int) (w + l) % 5, layouts[l].channels,
            layouts[l].depth, layouts[l].mask, 0.3 * r, w % 3 ? 0.3 * r :
            0.3 * (r == 3 ? 1 : 3 - r),
            (w + r) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
            CF_GAUSSIAN_AUTO, w % 7 ? 0.0 : 1.0, 0.0, 0);
      }
  cf_test_device_stride_multiple (0);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {4097, 9},
  {130, 131}, {641, 67}
  };
  static const struct
  {
    int channels, depth;
    unsigned mask;
  } layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {4, 8, 0xE}, {3, 8, 0x7},
    {2, 8, 0x3}, {4, 16, 0x7}, {3, 16, 0x7}
  };
  static const double sigmas[] = { 0.5, 1.0, 2.0, 5.0, 10.0, 20.0 };

  /* CF_TEST_QUICK=1 (for compute-sanitizer) keeps every third case. */
  int step = getenv ("CF_TEST_QUICK") ? 3 : 1, n = 0;

  cf_test_require_gpu ();
  cf_test_seed (1234);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (size_t g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
        if (n++ % step)
          continue;
        int r = cf_gaussian_default_radius (sigmas[g]);
        check (sizes[s][0], sizes[s][1], layouts[l].channels,
            layouts[l].depth, layouts[l].mask, sigmas[g], r,
            (g & 1) ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, g == 2);
      }
  /* The largest radius, an explicit radius, and 4K frames (left out under
   * compute-sanitizer, CF_TEST_QUICK=1, where they would take minutes). */
  check (300, 200, 1, 8, 1, 40.0, CF_GAUSSIAN_MAX_RADIUS, CF_BORDER_MIRROR, 0);
  check (300, 200, 4, 16, 7, 3.0, 4, CF_BORDER_CLAMP, 1);
  /* a radius of the wide tensor-core kernels whose weights are 1 and 0
   * (sigma far below the radius): not a fixed-point row they can take */
  check (300, 60, 1, 8, 1, 0.01, 20, CF_BORDER_CLAMP, 0);
  /* I420_10LE, P010_10LE and P012_LE planes (chroma: two channels) */
  check_deep (67, 35, 1, 0x3ff, 2.0, 1);
  check_deep (67, 35, 2, 0xffc0, 2.0, 1);
  check_deep (67, 35, 1, 0xfff0, 1.0, 1);
  check_deep (67, 35, 1, 0x3ff, 3.0, 0);
  paths (step);
  multirate (step);
  small (step);
  vector_edges (step, &n);
  engine_or_tile (step, &n);
  wide_tensor (step, &n);
  /* The separable engine with segments of several 32-row chunks: a fixed
   * radius, blocked taps (radius above 15) and unequal radii. */
  check_path (2050, 600, 1, 8, 1, 4.0, 4.0, CF_BORDER_CLAMP,
      CF_GAUSSIAN_DIRECT, 0.0, 0.0, 0);
  check_path (2050, 600, 4, 8, 7, 7.0, 3.0, CF_BORDER_MIRROR,
      CF_GAUSSIAN_DIRECT, 1.0, 0.01, 0);
  check_path (2050, 600, 2, 16, 3, 2.0, 8.0, CF_BORDER_CLAMP,
      CF_GAUSSIAN_DIRECT, 0.0, 0.0, 0);
  /* 8-bit planes of 1, 2 and 4 channels: the engine's fixed-point rows */
  check_path (2050, 600, 2, 8, 3, 5.0, 3.0, CF_BORDER_MIRROR,
      CF_GAUSSIAN_DIRECT, 0.0, 0.0, 0);
  check_path (1031, 333, 1, 8, 1, 3.0, 5.0, CF_BORDER_CLAMP,
      CF_GAUSSIAN_DIRECT, 0.0, 0.0, 0);
  check_path (2050, 600, 4, 8, 7, 5.0, 2.0, CF_BORDER_CLAMP,
      CF_GAUSSIAN_DIRECT, 0.0, 0.0, 0);
  check_path (1031, 333, 4, 8, 15, 1.5, 5.0, CF_BORDER_MIRROR,
      CF_GAUSSIAN_DIRECT, 0.0, 0.0, 0);
  if (getenv ("CF_TEST_QUICK"))
    return cf_test_finish (passed, failed);
  /* The window path against the direct truncated Gaussian, large frames. */
  check_path (1920, 1080, 1, 8, 1, 20.0, 20.0, CF_BORDER_CLAMP,
      CF_GAUSSIAN_WINDOW, 0.0, 0.0, 1);
  check_path (1920, 1080, 1, 16, 1, 100.0, 100.0, CF_BORDER_MIRROR,
      CF_GAUSSIAN_WINDOW, 0.0, 0.0, 1);
  check_path (1280, 720, 4, 8, 7, 6.0, 40.0, CF_BORDER_MIRROR,
      CF_GAUSSIAN_WINDOW, 0.0, 0.0, 1);
  /* The multi-rate path against the direct truncated Gaussian, large
   * frames of several blocks in every stage. */
  check_multirate (2050, 600, 1, 8, 0x1, 50.0, 50.0, CF_BORDER_MIRROR, 0.0,
      0.0, 1);
  check_multirate (2050, 600, 1, 16, 0x1, 100.0, 30.0, CF_BORDER_CLAMP, 0.0,
      0.0, 1);
  check_multirate (2050, 600, 4, 8, 0x7, 20.0, 7.0, CF_BORDER_MIRROR, 1.0,
      0.02, 0);
  check_multirate (2050, 600, 2, 16, 0x3, 10.0, 16.0, CF_BORDER_CLAMP, 0.0,
      0.0, 0);
  check_path (3840, 2160, 1, 8, 1, 50.0, 50.0, CF_BORDER_MIRROR,
      CF_GAUSSIAN_AUTO, 1.0, 0.0, 0);
  check (3840, 2160, 1, 8, 1, 2.0, 6, CF_BORDER_CLAMP, 0);
  check (3840, 2160, 4, 8, 7, 5.0, 15, CF_BORDER_MIRROR, 0);
  /* radii 1 and 2 on four-channel planes of 2^24 samples and more (the
   * vector kernel's integer taps take more rows a thread there) */
  check (3840, 2160, 4, 8, 7, 0.5, 1, CF_BORDER_CLAMP, 0);
  check (2048, 2048, 4, 8, 0xF, 0.6, 2, CF_BORDER_MIRROR, 0);
  /* radius 3 on the separable engine (its tensor-core passes), a large
   * plane */
  check (3840, 2160, 1, 8, 1, 0.8, 3, CF_BORDER_MIRROR, 0);
  check (3840, 2160, 4, 8, 0xF, 1.0, 3, CF_BORDER_CLAMP, 0);
  return cf_test_finish (passed, failed);
}
