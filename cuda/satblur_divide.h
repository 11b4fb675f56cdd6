/* cudafilters: cudasatblur's rounded division of a box sum by the box's
 * pixel count in 32-bit integers, as one multiply-high and a shift. The
 * host finds the numbers once per call; the band kernel and the unit test
 * apply them with the same cf_round_div (). */
#ifndef CF_SATBLUR_DIVIDE_H
#define CF_SATBLUR_DIVIDE_H

#include "cf_border.h"              /* CF_HD */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned magic;               /* below 2^32 */
  unsigned add;                 /* added to the sum before the multiply */
  int shift;                    /* applied to the product's high 32 bits */
} CfRoundDiv;

/* Sets d so that cf_round_div (s, d) = floor ((s + count / 2) / count),
 * which is s / count rounded half up for the odd counts of a box, for every
 * s <= max_sum: d->magic is 2^K / count either rounded up, or rounded down
 * with the sum incremented; at K = 32 + floor (log2 count) one of the two
 * is exact for every 32-bit dividend (Robison, "N-bit unsigned division via
 * N-bit multiply-add", 2005). Returns 0, and leaves d unspecified, only when
 * max_sum + count / 2 + 1 does not fit 32 bits (the sums then need 64). */
int cf_round_div_magic (unsigned long long count, unsigned long long max_sum,
    CfRoundDiv * d);

#ifdef __cplusplus
}
#endif

/* The quotient: the high word of (s + add) x magic (a multiply-high on the
 * GPU), shifted. */
CF_HD unsigned
cf_round_div (unsigned s, const CfRoundDiv * d)
{
  return (unsigned) (((unsigned long long) (s + d->add) * d->magic) >> 32) >>
      d->shift;
}

#endif /* CF_SATBLUR_DIVIDE_H */
