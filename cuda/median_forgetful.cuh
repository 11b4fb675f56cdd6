/* Forgetful selection on packed pairs of 16-bit samples (seed 001, after
 * McGuire), shared by the register kernels: of n values keep n / 2 + 2,
 * drop the minimum and the maximum (neither can be the median), take the
 * next value, until the median is the middle of the last 3. Every min/max
 * is one VIMNMX.U16x2 on sm_90 serving both halves of a register. */
#ifndef CF_MEDIAN_FORGETFUL_CUH
#define CF_MEDIAN_FORGETFUL_CUH

__device__ __forceinline__ void
cf_median_sort2 (unsigned &a, unsigned &b)
{
  unsigned lo = __vminu2 (a, b);
  b = __vmaxu2 (a, b);
  a = lo;
}

/* Moves the minimum of v[0..S) to v[0] and the maximum to v[S - 1]: sort
 * pairs, then the minimum is among the pair minima (even indices, and the
 * unpaired last one) and the maximum among the pair maxima and that last. */
template < int S > __device__ __forceinline__ void
cf_median_min_max (unsigned *v)
{
#pragma unroll
  for (int i = 0; i + 1 < S; i += 2)
    cf_median_sort2 (v[i], v[i + 1]);
#pragma unroll
  for (int i = 2; i < S; i += 2)
    cf_median_sort2 (v[0], v[i]);
#pragma unroll
  for (int i = 1; i < S - 1; i += 2)
    cf_median_sort2 (v[i], v[S - 1]);
}

/* COUNT forgetful steps on the S live values v[0..S): each drops the
 * extremes and takes load (first + step) in place of the minimum, leaving
 * S - COUNT live values. */
template < int S, int COUNT, typename Load > __device__ __forceinline__ void
cf_median_forget (unsigned *v, const Load & load, int first)
{
  if constexpr (COUNT > 0) {
    cf_median_min_max < S > (v);
    v[0] = load (first);
    cf_median_forget < S - 1, COUNT - 1 > (v, load, first + 1);
  }
}

#endif /* CF_MEDIAN_FORGETFUL_CUH */
