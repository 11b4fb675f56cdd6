/* Run-time values picking a kernel's template instance: the channel
 * count, a fixed radius. */
#ifndef CF_DISPATCH_CUH
#define CF_DISPATCH_CUH

#include <type_traits>

/* A compile-time int passed to a generic lambda: `decltype (c)::value`. */
template < int N > using CfConst = std::integral_constant < int, N >;

/* launch (CfConst < C > ()) with C = channels (1 to 4; more run as 4): the
 * one place a run-time channel count picks a kernel's template instance. */
template < typename Launch > auto
cf_with_channels (int channels, Launch && launch)
{
  switch (channels) {
    case 1:
      return launch (CfConst < 1 > ());
    case 2:
      return launch (CfConst < 2 > ());
    case 3:
      return launch (CfConst < 3 > ());
    default:
      return launch (CfConst < 4 > ());
  }
}

/* launch (CfConst < R > ()) for the radius r where FIRST <= r <= LAST, else
 * otherwise (): a run-time radius picking a fixed-radius instance. */
template < int FIRST, int LAST, typename Launch, typename Otherwise > auto
cf_with_radius (int r, Launch && launch, Otherwise && otherwise)
{
  if constexpr (FIRST > LAST)
    return otherwise ();
  else if (r == FIRST)
    return launch (CfConst < FIRST > ());
  else
    return cf_with_radius < FIRST + 1, LAST > (r, launch, otherwise);
}

#endif /* CF_DISPATCH_CUH */
