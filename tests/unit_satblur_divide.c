/* Unit test (no GPU): cudasatblur's magic numbers for the rounded division
 * of 32-bit box sums (cuda/satblur_divide.h) give floor ((s + count / 2) /
 * count) exactly, and are found for every count whose sums fit. Checks
 * every odd count up to 2^17 + 1, both sample depths' limits and the box
 * counts of a grid of radii, each at the sums where a quotient or the
 * rounding changes (where an inexact magic fails first) and at the ends. */
#include "satblur_divide.h"
#include "cf_test_util.h"

#include <stdio.h>

static long passed, failed;

static void
check_sum (unsigned long long count, unsigned long long s, const CfRoundDiv * d)
{
  const unsigned long long want = (s + count / 2) / count;
  const unsigned got = cf_round_div ((unsigned) s, d);
  if (got == want) {
    passed++;
    return;
  }
  if (failed++ < 10)
    printf ("MISMATCH count %llu sum %llu: %u, want %llu\n", count, s, got,
        want);
}

/* The quotient steps where s + count / 2 crosses a multiple of count. */
static void
check_step (unsigned long long count, unsigned long long q,
    unsigned long long max_sum, const CfRoundDiv * d)
{
  const unsigned long long half = count / 2;
  if (q * count < half)
    return;
  const unsigned long long edge = q * count - half;
  for (unsigned long long s = edge > 0 ? edge - 1 : 0; s <= edge + 1; s++)
    if (s <= max_sum)
      check_sum (count, s, d);
}

static void
check_count (unsigned long long count, unsigned long long max_sample)
{
  const unsigned long long max_sum = count * max_sample;
  const int fits = max_sum + count / 2 + 1 < (1ull << 32);
  CfRoundDiv d;
  if (cf_round_div_magic (count, max_sum, &d) != fits) {
    if (failed++ < 10)
      printf ("MISMATCH count %llu max %llu: found %d, want %d\n", count,
          max_sample, !fits, fits);
    return;
  }
  passed++;
  if (!fits)
    return;
  const unsigned long long top = (max_sum + count / 2) / count;
  check_sum (count, 0, &d);
  check_sum (count, max_sum, &d);
  for (unsigned long long q = 1; q <= 3 && q <= top; q++) {
    check_step (count, q, max_sum, &d);
    check_step (count, top + 1 - q, max_sum, &d);
  }
  for (int k = 0; k < 4; k++)
    check_step (count, 1 + cf_test_rand () % top, max_sum, &d);
}

int
main (void)
{
  const unsigned long long depths[] = { 255, 65535 };
  cf_test_seed (5);
  for (int i = 0; i < 2; i++) {
    const unsigned long long m = depths[i];
    /* The largest count whose sums (plus the rounding) fit 32 bits. */
    const unsigned long long limit = ((1ull << 32) - 2) / (m + 1);
    for (unsigned long long c = 1; c <= (1u << 17) + 1; c += 2)
      check_count (c, m);
    for (unsigned long long c = (limit - 64) | 1; c <= limit + 64; c += 2)
      check_count (c, m);
  }
  for (unsigned long long rx = 0; rx <= 2100; rx += 7)
    for (unsigned long long ry = 0; ry <= 2100; ry += 13) {
      check_count ((2 * rx + 1) * (2 * ry + 1), 255);
      check_count ((2 * rx + 1) * (2 * ry + 1), 65535);
    }
  return cf_test_finish (passed, failed);
}
