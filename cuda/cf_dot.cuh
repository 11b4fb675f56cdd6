/* Integer dot products of taps with 8-bit samples packed in words, as the
 * small-mask kernel and the separable engine's rows run them on 8-bit
 * planes (the tap words: cf_tap_words.h). */
#ifndef CF_DOT_CUH
#define CF_DOT_CUH

/* acc + the dot product of a word's four unsigned bytes with four signed
 * ones (cf_tap_words8). */
__device__ __forceinline__ int
cf_dot4 (unsigned samples, unsigned taps, int acc)
{
  int d;
  asm ("dp4a.u32.s32 %0, %1, %2, %3;":"=r" (d):"r" (samples), "r" (taps),
      "r" (acc));
  return d;
}

/* acc + the dot product of two unsigned 16-bit taps (cf_tap_words16) with
 * two unsigned bytes of a word: bytes 0 and 1 (HALF 0) or 2 and 3 (HALF
 * 1). */
template < int HALF > __device__ __forceinline__ int
cf_dot2 (unsigned taps, unsigned samples, int acc)
{
  int d;
  if (HALF)
    asm ("dp2a.hi.u32.u32 %0, %1, %2, %3;":"=r" (d):"r" (taps),
        "r" (samples), "r" (acc));
  else
    asm ("dp2a.lo.u32.u32 %0, %1, %2, %3;":"=r" (d):"r" (taps),
        "r" (samples), "r" (acc));
  return d;
}

#endif /* CF_DOT_CUH */
