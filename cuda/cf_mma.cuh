/* Tensor-core helpers (warp-wide PTX), as the separable engine's passes on
 * 8-bit planes run them: a 16 x 16 by 16 x 8 half-precision multiply-add
 * into floats, a 16 x 32 by 32 x 8 byte one into integers, and the
 * shared-memory matrix loads that feed them. Fragment layouts: PTX ISA,
 * "Matrix Fragments for mma.m16n8k16" and "... mma.m16n8k32". Device code
 * for Ampere and later (the callers check); earlier targets trap. */
#ifndef CF_MMA_CUH
#define CF_MMA_CUH

#include <cuda_fp16.h>

/* Two floats as the halves of one word, lo in the low half (an operand
 * register of mma). */
__device__ __forceinline__ unsigned
cf_half2_bits (float lo, float hi)
{
  const __half2 h = __floats2half2_rn (lo, hi);
  return *(const unsigned *) &h;
}

/* d += A B: A 16 x 16 (a[0] rows g, cols 2t, 2t + 1; a[1] rows g + 8;
 * a[2], a[3] the same at cols + 8), B 16 x 8 (b0 rows 2t, 2t + 1 of col g,
 * b1 rows + 8), d 16 x 8 (d[0], d[1] row g, cols 2t, 2t + 1; d[2], d[3]
 * row g + 8), g = lane / 4, t = lane % 4. Ampere and later. */
__device__ __forceinline__ void
cf_mma_16816 (float (&d)[4], const unsigned (&a)[4], unsigned b0,
    unsigned b1)
{
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      :"+f" (d[0]), "+f" (d[1]), "+f" (d[2]), "+f" (d[3])
      :"r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0), "r" (b1));
#else
  __trap ();                    /* the callers check for Ampere or later */
#endif
}

/* d += A B in integers: A 16 x 32 unsigned bytes (a[0] row g, bytes 4t ..
 * 4t + 3; a[1] row g + 8; a[2], a[3] the same at bytes + 16), B 32 x 8
 * bytes, signed (SIGNED_B) or not (b0 rows 4t .. 4t + 3 of col g, b1 rows
 * + 16), d as cf_mma_16816's. Ampere and later. */
template < bool SIGNED_B > __device__ __forceinline__ void
cf_mma_16832_u8 (int (&d)[4], const unsigned (&a)[4], unsigned b0,
    unsigned b1)
{
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (SIGNED_B)
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        :"+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
        :"r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0),
        "r" (b1));
  else
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        :"+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
        :"r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0),
        "r" (b1));
#else
  __trap ();
#endif
}

/* Four 8 x 8 matrices of 16-bit elements from shared memory: lane l gives
 * the address of row l % 8 of matrix l / 8 (16 bytes, aligned); r[i] then
 * holds, for lane (g, t), elements 2t and 2t + 1 of row g of matrix i
 * (bytes 4t .. 4t + 3 of a row of 16 bytes: mma's A fragment of bytes),
 * or with TRANS elements (2t, g) and (2t + 1, g) (a matrix stored as rows
 * k of 8 columns n: mma's B fragment of halves). */
template < bool TRANS > __device__ __forceinline__ void
cf_ldmatrix_x4 (unsigned (&r)[4], unsigned shared_addr)
{
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (TRANS)
    asm volatile ("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
        "{%0, %1, %2, %3}, [%4];"
        :"=r" (r[0]), "=r" (r[1]), "=r" (r[2]), "=r" (r[3])
        :"r" (shared_addr):"memory");
  else
    asm volatile ("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
        "{%0, %1, %2, %3}, [%4];"
        :"=r" (r[0]), "=r" (r[1]), "=r" (r[2]), "=r" (r[3])
        :"r" (shared_addr):"memory");
#else
  __trap ();
#endif
}

#endif /* CF_MMA_CUH */
