/* Tensor-core helpers (warp-wide PTX): a 16 x 16 by 16 x 8 half-precision
 * multiply-add into floats and the shared-memory matrix load that feeds its
 * B operand, as the separable engine's columns pass on 8-bit planes runs
 * them. Fragment layouts: PTX ISA, "Matrix Fragments for mma.m16n8k16".
 * Turing (sm_75) has no m16n8k16 for halves: two m16n8k8 there. */
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
 * row g + 8), g = lane / 4, t = lane % 4. */
__device__ __forceinline__ void
cf_mma_16816 (float (&d)[4], const unsigned (&a)[4], unsigned b0,
    unsigned b1)
{
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      :"+f" (d[0]), "+f" (d[1]), "+f" (d[2]), "+f" (d[3])
      :"r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0), "r" (b1));
#elif !defined (__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
  asm ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
      :"+f" (d[0]), "+f" (d[1]), "+f" (d[2]), "+f" (d[3])
      :"r" (a[0]), "r" (a[1]), "r" (b0));
  asm ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
      :"+f" (d[0]), "+f" (d[1]), "+f" (d[2]), "+f" (d[3])
      :"r" (a[2]), "r" (a[3]), "r" (b1));
#else
  __trap ();                    /* the callers check for Turing or later */
#endif
}

/* Four 8 x 8 matrices of halves from shared memory, transposed: lane l
 * gives the address of row l % 8 of matrix l / 8 (16 bytes, aligned);
 * r[i] then holds, for lane (g, t), elements (2t, g) and (2t + 1, g) of
 * matrix i: stored as rows k of 8 columns n, that is mma's B fragment. */
__device__ __forceinline__ void
cf_ldmatrix_x4_trans (unsigned (&r)[4], unsigned shared_addr)
{
#if !defined (__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
  asm volatile ("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
      "{%0, %1, %2, %3}, [%4];"
      :"=r" (r[0]), "=r" (r[1]), "=r" (r[2]), "=r" (r[3])
      :"r" (shared_addr):"memory");
#else
  __trap ();
#endif
}

#endif /* CF_MMA_CUH */
