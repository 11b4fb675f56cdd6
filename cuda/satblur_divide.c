/* cudafilters: the magic numbers of cudasatblur's rounded division (see
 * satblur_divide.h). */
#include "satblur_divide.h"

int
cf_round_div_magic (unsigned long long count, unsigned long long max_sum,
    CfRoundDiv * d)
{
  const unsigned long long half = count / 2, n_max = max_sum + half;
  if (count == 0 || n_max + 1 >= (1ull << 32))
    return 0;
  for (int k = 32; k < 64; k++) {
    const unsigned __int128 p = (unsigned __int128) 1 << k, top = 0xffffffffu;
    const unsigned __int128 up = (p + count - 1) / count;
    /* At most 2^32 - 1: count 1 takes that, with the sum incremented. */
    const unsigned __int128 down = p / count < top ? p / count : top;
    d->shift = k - 32;
    /* floor (n up / p) = floor (n / count) while n (up count - p) < p. */
    if (up <= top && n_max * (up * count - p) < p) {
      d->magic = (unsigned) up;
      d->add = (unsigned) half;
      return 1;
    }
    /* floor ((n + 1) down / p) = floor (n / count) while (n + 1) (p - down
     * count) <= p. */
    if ((n_max + 1) * (p - down * count) <= p) {
      d->magic = (unsigned) down;
      d->add = (unsigned) half + 1;
      return 1;
    }
    if (up > top)
      break;
  }
  return 0;
}
