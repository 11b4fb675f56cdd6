/* A box window over a border-extended line, as a few prefix sums of the
 * line itself: what lets a summed-area table serve clamp and mirror borders
 * exactly, for any radius. Shared by the kernels and their host code.
 *
 * With P(t) = f(0) + ... + f(t-1) the plain prefix of a line of n samples
 * and b() the border mapping, the extended prefix E(k) = sum of f(b(j)) for
 * 0 <= j < k (minus the sum over k <= j < 0 when k < 0) is, for
 *   clamp:  k <= 0: k P(1);  0 < k <= n: P(k);  k > n: P(n) + (k-n) f(n-1)
 *   mirror: k = q (2n-2) + r, 0 <= r < 2n-2, one period summing to
 *           P(n) + P(n-1) - P(1):  q period + (r <= n ? P(r) :
 *           P(n) + P(n-1) - P(2n-1-r))
 * and the window [x-r, x+r] sums to E(x+r+1) - E(x-r): weights on at most
 * five prefixes, P(n), P(n-1), P(1) and two free ones. */
#ifndef CF_SATBLUR_WINDOW_H
#define CF_SATBLUR_WINDOW_H

#include "cf_border.h"

#define CF_SAT_TERMS 5

/* sum = w[0] P(t[0]) + ... + w[4] P(t[4]); P(0) = 0. The weights are exact
 * integers; the caller multiplies in its own modular width. */
typedef struct {
  int t[CF_SAT_TERMS];
  int w[CF_SAT_TERMS];
} CfSatWindow;

/* Adds sign E(k) to win (slots 0..2 fixed, `slot` the free one). */
CF_HD void
cf_sat_add_extended (CfSatWindow * win, int k, int n, CfBorder border,
    int sign, int slot)
{
  if (border == CF_BORDER_MIRROR && n > 1) {
    int period = 2 * n - 2;
    int q = k >= 0 ? k / period : -((period - 1 - k) / period);
    int r = k - q * period;
    win->w[0] += sign * q;
    win->w[1] += sign * q;
    win->w[2] -= sign * q;
    if (r <= n) {
      win->t[slot] = r;
      win->w[slot] = sign;
    } else {
      win->w[0] += sign;
      win->w[1] += sign;
      win->t[slot] = 2 * n - 1 - r;
      win->w[slot] = -sign;
    }
  } else if (k <= 0) {
    /* Also mirror of one sample: every index maps to it. */
    win->w[2] += sign * k;
  } else if (k <= n) {
    win->t[slot] = k;
    win->w[slot] = sign;
  } else {
    win->w[0] += sign * (k - n + 1);
    win->w[1] -= sign * (k - n);
  }
}

/* The window of radius r around x on a line of n samples. */
CF_HD CfSatWindow
cf_sat_window (int x, int r, int n, CfBorder border)
{
  CfSatWindow win = { {n, n - 1, 1, 0, 0}, {0, 0, 0, 0, 0} };
  cf_sat_add_extended (&win, x + r + 1, n, border, 1, 3);
  cf_sat_add_extended (&win, x - r, n, border, -1, 4);
  return win;
}

/* Whether the window lies inside the line: then it is P(x+r+1) - P(x-r). */
CF_HD int
cf_sat_inside (int x, int r, int n)
{
  return x - r >= 0 && x + r + 1 <= n;
}

#endif /* CF_SATBLUR_WINDOW_H */
