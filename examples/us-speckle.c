/* us-speckle: a synthetic B-mode-like ultrasound sequence, 16-bit gray, for
 * the denoising examples (no external data).
 *
 * A fan-shaped sector seen from a probe at the top. The tissue has a bright
 * layer under the skin, a dark (anechoic) cyst, a bright inclusion, a column
 * of point reflectors and a vessel whose wall pulses from frame to frame.
 * Its echo amplitude is the square root of the echogenicity times Rayleigh
 * speckle (the magnitude of a complex Gaussian field drawn on the beam/depth
 * grid, so the grain widens with depth as in a real sector scan, and
 * partially renewed each frame), plus a noise floor; then log compression
 * over 50 dB to 0..65535, as a scanner displays it.
 *
 * With -l, a linear-array image instead: parallel beams filling the whole
 * frame (no black outside a sector), and an acoustic shadow (a dark column)
 * below the inclusion, as behind a calcification or bone.
 *
 *   us-speckle [-l] [-W width] [-H height] [-n frames] [-s seed] [-o FILE]
 *
 * Writes raw GRAY16_LE frames, one after the other, to FILE or stdout, e.g.
 *   us-speckle -n 30 | gst-launch-1.0 fdsrc ! rawvideoparse format=gray16-le \
 *     width=512 height=384 framerate=15/1 ! ...
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NB 96                  /* beams across the sector */
#define NS 150                  /* samples along a beam */
#define HALF_ANGLE 0.65         /* radians, about 37 degrees */
#define DYNAMIC_RANGE_DB 50.0

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double
uniform (void)                  /* xorshift64*, (0, 1) */
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return ((rng * 2685821657736338717ull >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss (void)                    /* Box-Muller */
{
  return sqrt (-2.0 * log (uniform ())) * cos (2.0 * M_PI * uniform ());
}

static double
blob (double dx, double dy, double s)
{
  return exp (-(dx * dx + dy * dy) / (2.0 * s * s));
}

/* Echogenicity (1 = plain tissue) at pixel (x, y) of frame t. */
static double
echogenicity (double x, double y, int w, int h, int t, int linear)
{
  double e = 1.0 + 0.25 * sin (x * 0.031 + y * 0.017);  /* slow texture */
  double depth = y / h;
  if (depth > 0.10 && depth < 0.16)
    e = 3.0;                    /* the layer under the skin */
  if (hypot (x - 0.33 * w, y - 0.62 * h) < 0.075 * h)
    e = 0.003;                  /* cyst */
  if (hypot (x - 0.68 * w, y - 0.74 * h) < 0.06 * h)
    e = 5.0;                    /* inclusion */
  else if (linear && y > 0.74 * h && fabs (x - 0.68 * w) < 0.05 * h)
    e *= 0.02;                  /* its shadow */
  /* The vessel: a dark lumen in a bright wall, its radius pulsing. */
  double rv = 0.08 * h * (1.0 + 0.18 * sin (2.0 * M_PI * t / 12.0));
  double dv = hypot (x - 0.52 * w, (y - 0.40 * h) * 1.3);
  if (dv < rv)
    e = 0.005;
  else if (dv < rv + 4.0)
    e = 12.0;
  return e;
}

int
main (int argc, char **argv)
{
  int w = 512, h = 384, frames = 30, linear = 0, opt;
  const char *out = NULL;
  while ((opt = getopt (argc, argv, "lW:H:n:s:o:h")) != -1) {
    switch (opt) {
      case 'l': linear = 1; break;
      case 'W': w = atoi (optarg); break;
      case 'H': h = atoi (optarg); break;
      case 'n': frames = atoi (optarg); break;
      case 's': rng ^= strtoull (optarg, NULL, 0) * 0xD1B54A32D192ED03ull; break;
      case 'o': out = optarg; break;
      default:
        fprintf (stderr, "usage: us-speckle [-l] [-W width] [-H height] "
            "[-n frames] [-s seed] [-o FILE]\n");
        return 2;
    }
  }
  if (w < 16 || h < 16 || frames < 1) {
    fprintf (stderr, "us-speckle: need width, height >= 16, frames >= 1\n");
    return 2;
  }
  FILE *f = out ? fopen (out, "wb") : stdout;
  if (!f) {
    perror (out);
    return 1;
  }

  /* The probe sits just above the top edge; the sector fills the height. */
  double ax = 0.5 * w, ay = -0.04 * h, r0 = 0.08 * h, r1 = h - ay - 2.0;
  if (r1 * sin (HALF_ANGLE) > 0.49 * w)
    r1 = 0.49 * w / sin (HALF_ANGLE);
  /* The complex speckle field on the beam x sample grid. */
  static double fi[NB][NS], fq[NB][NS];
  for (int b = 0; b < NB; b++)
    for (int s = 0; s < NS; s++)
      fi[b][s] = gauss (), fq[b][s] = gauss ();
  uint16_t *row = malloc ((size_t) w * sizeof *row);
  /* The amplitude shown white: plain tissue near the probe (mean amplitude
   * 1.25) comes out at 0.6 of the range. */
  double ref = 1.25 * pow (10.0, 0.4 * DYNAMIC_RANGE_DB / 20.0);

  for (int t = 0; t < frames; t++) {
    if (t > 0)                  /* renew 36 % of the speckle's power */
      for (int b = 0; b < NB; b++)
        for (int s = 0; s < NS; s++) {
          fi[b][s] = 0.8 * fi[b][s] + 0.6 * gauss ();
          fq[b][s] = 0.8 * fq[b][s] + 0.6 * gauss ();
        }
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        double dx = x - ax, dy = y - ay, r = hypot (dx, dy), bf, sf;
        if (linear) {           /* beam x, depth y */
          bf = (double) x / (w - 1) * (NB - 1);
          sf = (double) y / (h - 1) * (NS - 1);
          r = r0 + y * (r1 - r0) / (h - 1);
        } else {
          double th = atan2 (dx, dy);
          if (fabs (th) > HALF_ANGLE || r < r0 || r > r1) {
            row[x] = 0;
            continue;
          }
          bf = (th + HALF_ANGLE) / (2 * HALF_ANGLE) * (NB - 1);
          sf = (r - r0) / (r1 - r0) * (NS - 1);
        }
        /* bilinear I and Q between the four nearest grid points */
        int b = (int) bf, s = (int) sf;
        b = b > NB - 2 ? NB - 2 : b;
        s = s > NS - 2 ? NS - 2 : s;
        double u = bf - b, v = sf - s;
        double i = (1 - u) * ((1 - v) * fi[b][s] + v * fi[b][s + 1]) +
            u * ((1 - v) * fi[b + 1][s] + v * fi[b + 1][s + 1]);
        double q = (1 - u) * ((1 - v) * fq[b][s] + v * fq[b][s + 1]) +
            u * ((1 - v) * fq[b + 1][s] + v * fq[b + 1][s + 1]);
        /* bilinear weights lower the variance; 1.6 brings it back */
        double a = 1.6 * hypot (i, q) * sqrt (echogenicity (x, y, w, h, t, linear));
        /* point reflectors: coherent, not speckled */
        for (int p = 0; p < 5; p++)
          a += 25.0 * blob ((dx - 0.12 * w) / 2.5, y - (0.25 + 0.13 * p) * h,
              1.2);
        a *= exp (-0.4 * r / r1);       /* attenuation left by the TGC */
        a += 0.04 * hypot (gauss (), gauss ());       /* noise floor */
        double db = 20.0 * log10 (a / ref + 1e-12);
        double d = (db + DYNAMIC_RANGE_DB) / DYNAMIC_RANGE_DB;
        d = d < 0 ? 0 : d > 1 ? 1 : d;
        uint16_t v16 = (uint16_t) lrint (d * 65535.0);
        memcpy (&row[x], (uint8_t[2]) { v16 & 0xff, v16 >> 8 }, 2);    /* LE */
      }
      if (fwrite (row, sizeof *row, w, f) != (size_t) w) {
        perror ("us-speckle: write");
        return 1;
      }
    }
  }
  free (row);
  return fclose (f) == 0 ? 0 : 1;
}
