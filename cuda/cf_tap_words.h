/* A row of taps as the operands of integer dot products with 8-bit
 * samples packed in words (cf_dot.cuh). A row of n taps for an output
 * whose leftmost input lies at byte al of a word covers bytes al .. al +
 * n - 1 from that word's start; words[al * stride + g] holds the taps on
 * word g (dp4a: four signed bytes) or on byte pair g (dp2a: two unsigned
 * 16-bit taps), for al = 0 .. 3. The words must start zeroed. */
#ifndef CF_TAP_WORDS_H
#define CF_TAP_WORDS_H

#include <math.h>

/* The fixed-point weights of the 16-bit taps: 15 bits, so that a weight of
 * 1 fits; each weight rounded by at most 2^-16. */
#define CF_TAP_FIXED_BITS 15

/* Whether a tap is an integer in -128..127: a dp4a operand. */
static inline int
cf_tap_is_byte (double t)
{
  return t == floor (t) && t >= -128.0 && t <= 127.0;
}

/* Integer taps in -128..127. */
static inline void
cf_tap_words8 (const int *taps, int n, unsigned *words, int stride)
{
  for (int al = 0; al < 4; al++)
    for (int k = 0; k < n; k++) {
      const int b = al + k;
      words[al * stride + b / 4] |= ((unsigned) taps[k] & 0xffu) <<
          (8 * (b % 4));
    }
}

/* Weights in [0, 1] as 15-bit fixed point. */
static inline void
cf_tap_words16 (const float *weights, int n, unsigned *words, int stride)
{
  for (int al = 0; al < 4; al++)
    for (int k = 0; k < n; k++) {
      const int b = al + k;
      const unsigned t = (unsigned) lrint (ldexp (weights[k],
              CF_TAP_FIXED_BITS));
      words[al * stride + b / 2] |= t << (16 * (b % 2));
    }
}

#endif /* CF_TAP_WORDS_H */
