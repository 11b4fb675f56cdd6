/* Microbenchmark of cuda/small_mask.cuh's variants (vector bytes VB, rows a
 * thread ROWS) at 3840x2160 (or a size given) against the device-to-device
 * copy (the floor), on rotating frames; every variant's output checked
 * against a plain C++ reference. Built by meson on request (ninja
 * tests/micro_small_mask), run by hand on a GPU (`micro_small_mask [WIDTH
 * HEIGHT]`); a variant is added to variants () below.
 * Earlier results (H100, 2026-11-26, ms / copy floor at 4K), with lanes 0
 * and 31 loading their own halo words and each row loaded as it was
 * filtered: 16-byte vectors on 8-bit samples 4.4-12x; 8-byte ones, ROWS 4:
 * GRAY8 3x3 1.58-1.71x, 5x5 2.5-3.0x, RGBA 3x3 1.43-1.68x, 5x5 3.8-4.3x;
 * 16-bit 16-byte vectors, ROWS 4: 3x3 0.93-1.03x, 5x5 1.42-1.63x; ROWS 8
 * and 16 lost everywhere; rows loaded AHEAD rows early level or slower;
 * 4-byte vectors on 8-bit samples 1.75-3.6x (slower everywhere).
 * Then (same day, night session) the kernel as it is now: warps
 * overlapping by a vector each side (no lane loads a halo of its own) and
 * every row of the strip loaded before filtering. In one run against the
 * old kernel at ROWS 4: GRAY8 full 3x3 0.0217 -> 0.0185 ms (1.34x the
 * copy) at ROWS 2, Gaussian 3x3 0.0237 -> 0.0218, RGBA full 3x3 0.0613 ->
 * 0.0504, Gaussian 3x3 0.0717 -> 0.0548, full 5x5 0.161 -> 0.086,
 * Gaussian 5x5 0.183 -> 0.093, GRAY16 3x3 level or 7-9% faster, NV12
 * chroma full 3x3 0.0148 -> 0.0129; ROWS 1 and 3 were within 5% of 2
 * (RGBA 3x3 4% faster at 3), 16-byte vectors on 8-bit samples still
 * slower (1.5-5x). The overlap alone (rows loaded as before) gave most of
 * the 5x5 gains and about half of the 3x3 ones. On 16-bit samples neither
 * paid (the full 5x5 1.2x slower on an H200, with 72 registers against
 * 64), so they keep the former layout. The
 * Gaussian's separable mode (2R + 1 filtered rows in registers) was slower
 * than its full mask on every plane and was removed; "gauss" below is the
 * Gaussian's mask run as a full one.
 * 2026-11-27: "integer" (byte taps, dp4a) and "gauss fixed" (15-bit
 * fixed-point taps, dp2a) run the kernel's integer variants, with 7x7
 * masks on 8-bit planes; figures in docs/cudaconvolve.md, "Integer taps"
 * and "7x7 integer kernels on the vector kernel".
 */
#include "small_mask.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>

using namespace cf_small_mask;

/* The Gaussian's masks (outer products of half kernels, no offset),
 * random full ones with an offset, random integer ones (-2..6, as
 * bench_convolve's) divided by their sum on the byte-tap variant, or the
 * Gaussian's on the fixed-point variant (small_mask_args.h). */
enum Mode { GAUSS = 0, FULL = 1, INTEGER = 2, FIXED = 3 };

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf (stderr, "%s: %s\n", #x, cudaGetErrorString (e_)); exit (1); } } while (0)

constexpr int NF = 6;           /* rotating frames: more than L2 holds */
constexpr int REPS = 30;

struct Frames {
  void *src[NF], *dst[NF];
  size_t ss, ds;
  int w, h, c, bps;
};

static Frames
frames (int w, int h, int c, int bps)
{
  Frames f;
  f.w = w;
  f.h = h;
  f.c = c;
  f.bps = bps;
  std::vector < unsigned char >host ((size_t) w * c * bps * h);
  srand (5);
  for (auto & b:host)
    b = rand () & 0xff;
  for (int i = 0; i < NF; i++) {
    CK (cudaMallocPitch (&f.src[i], &f.ss, (size_t) w * c * bps, h));
    CK (cudaMallocPitch (&f.dst[i], &f.ds, (size_t) w * c * bps, h));
    CK (cudaMemcpy2D (f.src[i], f.ss, host.data (), (size_t) w * c * bps,
            (size_t) w * c * bps, h, cudaMemcpyHostToDevice));
  }
  return f;
}

template < typename F > static double
median_ms (F fn)
{
  cudaEvent_t a, b;
  CK (cudaEventCreate (&a));
  CK (cudaEventCreate (&b));
  for (int i = 0; i < NF * 2; i++)
    fn (i % NF);
  std::vector < float >t;
  for (int r = 0; r < REPS; r++) {
    CK (cudaEventRecord (a));
    for (int i = 0; i < NF; i++)
      fn (i);
    CK (cudaEventRecord (b));
    CK (cudaEventSynchronize (b));
    float ms;
    CK (cudaEventElapsedTime (&ms, a, b));
    t.push_back (ms / NF);
  }
  std::sort (t.begin (), t.end ());
  return t[REPS / 2];
}

static double
copy_ms (const Frames & f)
{
  return median_ms ([&](int i) {
        CK (cudaMemcpy2DAsync (f.dst[i], f.ds, f.src[i], f.ss,
                (size_t) f.w * f.c * f.bps, f.h, cudaMemcpyDeviceToDevice));
      });
}

/* Plain reference in double (clamp border), as the filters' references. */
template < typename T > static std::vector < T >
reference (const Frames & f, const CfMaskArgs & a, int R, int mode)
{
  const int w = f.w, h = f.h, C = f.c, K = 2 * R + 1;
  std::vector < T > in ((size_t) w * C * h), out ((size_t) w * C * h);
  CK (cudaMemcpy2D (in.data (), (size_t) w * C * sizeof (T), f.src[0], f.ss,
          (size_t) w * C * sizeof (T), h, cudaMemcpyDeviceToHost));
  const double mx = a.max;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < C; c++) {
        const double centre = in[((size_t) y * w + x) * C + c];
        if (!((a.mask >> c) & 1)) {
          out[((size_t) y * w + x) * C + c] = (T) centre;
          continue;
        }
        double s = 0;
        for (int ky = 0; ky < K; ky++)
          for (int kx = 0; kx < K; kx++) {
            int yy = std::min (std::max (y + ky - R, 0), h - 1);
            int xx = std::min (std::max (x + kx - R, 0), w - 1);
            double t = mode == GAUSS || mode == FIXED ? (double) a.wx[abs (kx - R)] *
                a.wy[abs (ky - R)] : a.taps[ky * K + kx];
            s += t * in[((size_t) yy * w + xx) * C + c];
          }
        if (mode == FULL || mode == INTEGER) {
          s += a.offset;
          if (a.absolute)
            s = fabs (s);
        }
        out[((size_t) y * w + x) * C + c] =
            (T) std::min (std::max (std::floor (s + 0.5), 0.0), mx);
      }
  return out;
}

template < typename T > static int
check (const Frames & f, int slot, const std::vector < T > &ref)
{
  const int w = f.w, h = f.h, C = f.c;
  std::vector < T > out ((size_t) w * C * h);
  CK (cudaDeviceSynchronize ());
  CK (cudaMemcpy2D (out.data (), (size_t) w * C * sizeof (T), f.dst[slot],
          f.ds, (size_t) w * C * sizeof (T), h, cudaMemcpyDeviceToHost));
  long bad = 0;
  int worst = 0;
  for (size_t i = 0; i < out.size (); i++) {
    int d = abs ((int) out[i] - (int) ref[i]);
    worst = std::max (worst, d);
    bad += d > 1;
  }
  return bad ? worst : 0;
}

template < typename T, int C, int R, int VB, int ROWS, int TAPS = 0,
    unsigned CMASK = (C == 4 ? 7u : 0xFu) > static void
variant (int mode, const char *fmt, const Frames & f, const CfMaskArgs & a, double floor,
    const std::vector < T > &ref)
{
  auto fn =[&](int i) {
    launch < T, C, R, VB, ROWS, CMASK, false, TAPS > (f.src[i], f.ss,
        f.dst[i], f.ds, f.w, f.h, a, 0);
  };
  CK (cudaMemset2D (f.dst[0], f.ds, 0, (size_t) f.w * C * sizeof (T), f.h));
  fn (0);
  CK (cudaGetLastError ());
  int bad = check < T > (f, 0, ref);
  double ms = median_ms (fn);
  cudaFuncAttributes at;
  CK (cudaFuncGetAttributes (&at, kernel < T, C, R, VB, ROWS, CMASK, false,
          TAPS >));
  printf ("| %s | %s %dx%d | VB %d ROWS %d | %.4f | %.4f | %.2f | %d | %s |\n",
      fmt, mode == GAUSS ? "gauss" : mode == FULL ? "full" : mode ==
      INTEGER ? "integer" : "gauss fixed",
      2 * R + 1, 2 * R + 1, VB, ROWS,
      ms, floor, ms / floor, at.numRegs, bad ? "MISMATCH" : "ok");
  if (bad)
    printf ("  worst difference %d\n", bad);
  fflush (stdout);
}

template < typename T, int C, int R > static void
variants (int mode, const char *fmt, const Frames & f, const CfMaskArgs & a,
    double floor)
{
  auto ref = reference < T > (f, a, R, mode);
  /* 16-byte vectors on 8-bit samples lost everywhere (the results above) */
  constexpr int VB = sizeof (T) == 1 ? 8 : 16;
  if (mode == INTEGER || mode == FIXED) {
    if constexpr (sizeof (T) == 1) {
      if (mode == INTEGER) {
        variant < T, C, R, VB, 1, 8 > (mode, fmt, f, a, floor, ref);
        variant < T, C, R, VB, 2, 8 > (mode, fmt, f, a, floor, ref);
        variant < T, C, R, VB, 3, 8 > (mode, fmt, f, a, floor, ref);
        variant < T, C, R, VB, 4, 8 > (mode, fmt, f, a, floor, ref);
      } else {
        variant < T, C, R, VB, 1, 16 > (mode, fmt, f, a, floor, ref);
        variant < T, C, R, VB, 2, 16 > (mode, fmt, f, a, floor, ref);
        variant < T, C, R, VB, 3, 16 > (mode, fmt, f, a, floor, ref);
        variant < T, C, R, VB, 4, 16 > (mode, fmt, f, a, floor, ref);
      }
    }
    return;
  }
  if constexpr (R <= 2) {
    variant < T, C, R, VB, 1 > (mode, fmt, f, a, floor, ref);
    variant < T, C, R, VB, 2 > (mode, fmt, f, a, floor, ref);
    variant < T, C, R, VB, 4 > (mode, fmt, f, a, floor, ref);
  }
}

static CfMaskArgs
args (int R, int mode, unsigned mask, float max, int C)
{
  CfMaskArgs a = { };
  const double sigma = R == 1 ? 0.5 : R == 2 ? 2.0 / 3.0 : 1.0;
  double w[CF_MASK_MAX_R + 1], sum = 0;
  for (int t = 0; t <= R; t++)
    sum += (t ? 2 : 1) * (w[t] = exp (-t * t / (2 * sigma * sigma)));
  for (int t = 0; t <= R; t++)
    a.wx[t] = a.wy[t] = (float) (w[t] / sum);
  const int K = 2 * R + 1;
  srand (11);
  float tsum = 0;
  for (int i = 0; i < K * K; i++)
    tsum += fabsf (a.taps[i] = (float) (rand () % 64 - 20) / 64.0f);
  for (int i = 0; i < K * K; i++)
    a.taps[i] = mode == GAUSS || mode == FIXED ? a.wy[abs (i / K - R)] * a.wx[abs (i % K - R)] :
        a.taps[i] / tsum;
  if (mode == INTEGER) {
    int it[CF_MASK_MAX_K * CF_MASK_MAX_K], isum = 0;
    for (int i = 0; i < K * K; i++)
      isum += it[i] = rand () % 9 - 2;
    isum = isum ? isum : 1;
    for (int i = 0; i < K * K; i++)
      a.taps[i] = (float) it[i] / isum;
    a.scale = (float) (1.0 / isum);
    cf_mask_tap_words (&a, it, K);
  }
  if (mode == FIXED)
    cf_mask_fixed_tap_words (&a, K);
  a.offset = mode == FULL || mode == INTEGER ? 0.1f * max : 0.0f;
  a.max = max;
  a.border = CF_BORDER_CLAMP;
  a.mask = mask;
  return a;
}

template < typename T, int C > static void
format (const char *fmt, int w, int h, unsigned mask, bool gauss)
{
  Frames f = frames (w, h, C, sizeof (T));
  const double floor = copy_ms (f);
  const float max = sizeof (T) == 1 ? 255.0f : 65535.0f;
  if (gauss) {
    variants < T, C, 1 > (GAUSS, fmt, f, args (1, GAUSS, mask, max, C), floor);
    variants < T, C, 2 > (GAUSS, fmt, f, args (2, GAUSS, mask, max, C), floor);
    variants < T, C, 1 > (FIXED, fmt, f, args (1, FIXED, mask, max, C), floor);
    variants < T, C, 2 > (FIXED, fmt, f, args (2, FIXED, mask, max, C), floor);
  }
  variants < T, C, 1 > (FULL, fmt, f, args (1, FULL, mask, max, C), floor);
  variants < T, C, 2 > (FULL, fmt, f, args (2, FULL, mask, max, C), floor);
  variants < T, C, 1 > (INTEGER, fmt, f, args (1, INTEGER, mask, max, C),
      floor);
  variants < T, C, 2 > (INTEGER, fmt, f, args (2, INTEGER, mask, max, C),
      floor);
  /* 7x7: integer taps on 8-bit planes only */
  if constexpr (sizeof (T) == 1) {
    variants < T, C, 3 > (INTEGER, fmt, f, args (3, INTEGER, mask, max, C),
        floor);
    variants < T, C, 3 > (FIXED, fmt, f, args (3, FIXED, mask, max, C),
        floor);
  }
  for (int i = 0; i < NF; i++) {
    cudaFree (f.src[i]);
    cudaFree (f.dst[i]);
  }
}

int
main (int argc, char **argv)
{
  /* the luma plane's size; chroma is half of it each way */
  const int w = argc > 2 ? atoi (argv[1]) : 3840;
  const int h = argc > 2 ? atoi (argv[2]) : 2160;
  printf ("%dx%d\n\n| format | mask | variant | ms | copy ms | /floor | regs | check |\n"
      "|---|---|---|---|---|---|---|---|\n", w, h);
  format < unsigned char, 1 > ("GRAY8", w, h, 1, true);
  format < unsigned short, 1 > ("GRAY16", w, h, 1, true);
  format < unsigned char, 4 > ("RGBA", w, h, 7, true);
  format < unsigned char, 2 > ("NV12-UV", w / 2, h / 2, 3, false);
  return 0;
}
