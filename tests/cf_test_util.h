/* Helpers for the kernel-vs-reference tests: random planes with padded
 * strides, device copies, comparisons. Plain C on top of cuda/. */
#ifndef CF_TEST_UTIL_H
#define CF_TEST_UTIL_H

#include "cf_types.h"

#include <stdio.h>

#define CF_TEST_SKIP 77

/* Exits with CF_TEST_SKIP (meson's "skipped") when there is no GPU. */
void cf_test_require_gpu (void);

/* Deterministic random numbers (xorshift), seeded per test. */
void cf_test_seed (unsigned long long seed);
unsigned cf_test_rand (void);

/* A host plane of random samples whose stride is padded by `pad` bytes
 * (and the padding filled with garbage too). */
CfPlane cf_test_plane_new (int width, int height, int channels, int depth,
    int pad);
/* Gives a 16-bit plane a full scale below 65535 (CfPlane.max: 1023 for
 * 10 bits in the low bits, 0xffc0 in the high ones) and keeps its samples
 * within it (each masked with @max). */
void cf_test_plane_set_max (CfPlane * p, unsigned max);
/* Overwrites a plane with a natural-looking picture: smooth shading,
 * hard-edged blocks, a thin bright line and a little noise. */
void cf_test_plane_natural (CfPlane * p);
/* A host plane of the same geometry filled with a poison value. */
CfPlane cf_test_plane_like (const CfPlane * p, int pad);
void cf_test_plane_free (CfPlane * p);

/* Device plane copies. Their rows are pitched (aligned) unless
 * cf_test_device_unaligned_rows (1) asks for strides that are not a
 * multiple of 4 bytes (but of the sample size). */
void cf_test_device_unaligned_rows (int on);
/* Strides an odd multiple of `bytes` (a multiple of the sample size), not
 * pitched; 0: pitched again. */
void cf_test_device_stride_multiple (int bytes);
CfPlane cf_test_device_upload (const CfPlane * host);
CfPlane cf_test_device_like (const CfPlane * host);
void cf_test_device_download (const CfPlane * dev, const CfPlane * host);
void cf_test_device_free (CfPlane * dev);

/* Number of samples differing by more than tol; *max_diff gets the largest
 * difference. Prints the first mismatch under `what`. */
long cf_test_compare (const CfPlane * a, const CfPlane * b, int tol,
    int *max_diff, const char *what);

/* Runs `gpu` on device copies of src and compares with `ref` (already
 * computed on the host); returns mismatches. */
typedef CfStatus (*CfTestFilter) (const CfExec * exec, const CfPlane * src,
    const CfPlane * dst, const void *params);
long cf_test_gpu_vs_ref (CfTestFilter filter, const void *params,
    const CfPlane * src, const CfPlane * ref, int tol, const char *what);
/* Runs `gpu` on device copies of src into the host plane out (of src's
 * geometry); 0 if the filter failed (printed under `what`). */
int cf_test_gpu_run (CfTestFilter filter, const void *params,
    const CfPlane * src, const CfPlane * out, const char *what);

/* A test's verdict: prints "N passed, N failed" and returns the exit code. */
int cf_test_finish (long passed, long failed);

#define CF_CHECK(cond) do { if (!(cond)) { \
  fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
  exit (1); } } while (0)

#endif /* CF_TEST_UTIL_H */
