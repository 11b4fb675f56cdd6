/* Unit test (no GPU): the tap words of cuda/cf_tap_words.h, which the
 * small-mask kernel and the separable engine's rows feed to dp4a and dp2a
 * on 8-bit samples. Emulates both instructions on the host and checks, for
 * every row length 1..31, every byte offset of the first input (0..3) and
 * random and extreme taps and samples, that the dot products over the words
 * a row spans give the row's sum exactly (integer taps) or the sum of the
 * 15-bit fixed-point weights (each within 2^-16 of the weight). */
#include "cf_tap_words.h"
#include "cf_test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_N 31
#define WORDS8 ((3 + MAX_N - 1) / 4 + 1)
#define WORDS16 ((3 + MAX_N - 1) / 2 + 1)

static long passed, failed;

/* dp4a.u32.s32: four unsigned sample bytes times four signed tap bytes */
static long long
dp4a (unsigned samples, unsigned taps)
{
  long long s = 0;
  for (int i = 0; i < 4; i++)
    s += (long long) ((samples >> (8 * i)) & 0xffu) *
        (signed char) ((taps >> (8 * i)) & 0xffu);
  return s;
}

/* dp2a.lo/hi.u32.u32: two unsigned 16-bit taps times sample bytes 0, 1
 * (half 0) or 2, 3 (half 1) */
static long long
dp2a (unsigned taps, unsigned samples, int half)
{
  long long s = 0;
  for (int i = 0; i < 2; i++)
    s += (long long) ((taps >> (16 * i)) & 0xffffu) *
        ((samples >> (8 * (2 * half + i))) & 0xffu);
  return s;
}

static void
expect (long long got, long long want, const char *what, int n, int al)
{
  if (got == want) {
    passed++;
    return;
  }
  if (failed++ < 10)
    printf ("MISMATCH %s n %d offset %d: %lld, want %lld\n", what, n, al,
        got, want);
}

/* The words of bytes b[0 ..], little-endian as the GPU loads them. */
static unsigned
word (const unsigned char *b, int g)
{
  return b[4 * g] | b[4 * g + 1] << 8 | b[4 * g + 2] << 16 |
      (unsigned) b[4 * g + 3] << 24;
}

static void
check_integer (const int *taps, int n, const unsigned char *b)
{
  unsigned tw[4][WORDS8];
  memset (tw, 0, sizeof tw);
  cf_tap_words8 (taps, n, &tw[0][0], WORDS8);
  for (int al = 0; al < 4; al++) {
    long long got = 0, want = 0;
    for (int g = 0; g <= (al + n - 1) / 4; g++)
      got += dp4a (word (b, g), tw[al][g]);
    for (int k = 0; k < n; k++)
      want += (long long) taps[k] * b[al + k];
    expect (got, want, "dp4a", n, al);
  }
}

static void
check_fixed (const float *w, int n, const unsigned char *b)
{
  unsigned tw[4][WORDS16];
  long long fixed[MAX_N];
  memset (tw, 0, sizeof tw);
  cf_tap_words16 (w, n, &tw[0][0], WORDS16);
  for (int k = 0; k < n; k++) {
    fixed[k] = lrint (ldexp (w[k], CF_TAP_FIXED_BITS));
    /* each weight within half a unit of the last bit */
    expect (fabs (ldexp ((double) fixed[k], -CF_TAP_FIXED_BITS) - w[k]) <=
        ldexp (1.0, -CF_TAP_FIXED_BITS - 1), 1, "fixed weight", n, k);
  }
  for (int al = 0; al < 4; al++) {
    long long got = 0, want = 0;
    for (int q = al / 2; q <= (al + n - 1) / 2; q++)
      got += dp2a (tw[al][q], word (b, q / 2), q % 2);
    for (int k = 0; k < n; k++)
      want += fixed[k] * b[al + k];
    expect (got, want, "dp2a", n, al);
  }
}

int
main (void)
{
  unsigned char b[4 * WORDS16 + 4];
  int taps[MAX_N];
  float w[MAX_N];

  cf_test_seed (4242);
  for (int n = 1; n <= MAX_N; n++)
    for (int round = 0; round < 200; round++) {
      const int extreme = round % 4;
      for (size_t i = 0; i < sizeof b; i++)
        b[i] = extreme == 1 ? 255 : (unsigned char) cf_test_rand ();
      double sum = 0.0;
      for (int k = 0; k < n; k++) {
        taps[k] = extreme == 1 ? (round % 8 == 1 ? -128 : 127) :
            (int) (cf_test_rand () % 256) - 128;
        /* nonnegative weights summing to 1, a centre weight of 1 included */
        w[k] = extreme == 2 ? (k == n / 2) :
            (float) (cf_test_rand () % 1000 + 1);
        sum += w[k];
      }
      for (int k = 0; k < n; k++)
        w[k] = (float) (w[k] / sum);
      check_integer (taps, n, b);
      check_fixed (w, n, b);
    }
  return cf_test_finish (passed, failed);
}
