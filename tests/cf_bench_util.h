/* Benchmark helpers: rotating device frames (so a frame is not served from
 * L2), CUDA-event timing with medians, the identity-copy floor, and NPP
 * loaded at run time (the build machine has none). */
#ifndef CF_BENCH_UTIL_H
#define CF_BENCH_UTIL_H

#include "cf_types.h"

/* Enough device frame pairs of this geometry to exceed the L2 three times. */
typedef struct
{
  int count;
  CfPlane *src;
  CfPlane *dst;
} CfBenchFrames;

void cf_bench_init (void);      /* exits 77 without a GPU */
CfStream cf_bench_stream (void);
CfBenchFrames cf_bench_frames_new (int width, int height, int channels,
    int depth);
void cf_bench_frames_free (CfBenchFrames * f);

/* Median milliseconds of `reps` calls of fn (ctx, i) on the bench stream,
 * each timed with events, i rotating over the frames; after warm-up. */
typedef void (*CfBenchFn) (void *ctx, int i);
double cf_bench_median_ms (CfBenchFn fn, void *ctx, int reps);

/* The same, but one probe call only where that one takes more than
 * slow_ms (NPP at large windows). */
double cf_bench_time_ms (CfBenchFn fn, void *ctx, int reps, double slow_ms);

/* The floor: a device-to-device copy of frame i (read + write once). */
double cf_bench_copy_ms (CfBenchFrames * f, int reps);
/* Prints the NV12 copy floor of a width x height frame both ways: the
 * planes copied in turn (the benchmarks' floor) and on two streams. */
void cf_bench_nv12_floors (int width, int height, int reps);

/* A filter of cuda/ on the rotating frames: call i runs filter on frame
 * pair i % count, on the bench stream with its own scratch (which the
 * caller releases). cf_bench_filter () is its CfBenchFn. */
typedef struct
{
  CfBenchFrames *frames;
  CfStatus (*filter) (const CfExec * exec, const CfPlane * src,
      const CfPlane * dst, const void *params);
  const void *params;
  CfScratch scratch;
} CfBenchFilter;
void cf_bench_filter (void *filter, int i);
/* cf_bench_filter of @first, and of @second on a second stream beside
 * it, as the elements filter a frame's planes after the first. */
void cf_bench_filter_pair (void *first, void *second, int i);

/* Prints a markdown table's header row and rule: columns "a | b | c". */
void cf_bench_table (const char *columns);

/* Prints whether NPP has `symbol`, and returns it (NULL: not found). */
void *cf_bench_npp_banner (const char *symbol);

/* NPP: a symbol from libnppif/libnppc (any version), or NULL. */
void *cf_npp_symbol (const char *name);

/* NPP's stream context, filled for the bench stream. */
typedef struct
{
  CfStream hStream;
  int nCudaDeviceId;
  int nMultiProcessorCount;
  int nMaxThreadsPerMultiProcessor;
  int nMaxThreadsPerBlock;
  size_t nSharedMemPerBlock;
  int nCudaDevAttrComputeCapabilityMajor;
  int nCudaDevAttrComputeCapabilityMinor;
  unsigned int nStreamFlags;
  int nReserved0;
} CfNppStreamContext;
typedef struct
{
  int width, height;
} CfNppiSize;
typedef struct
{
  int x, y;
} CfNppiPoint;
#define CF_NPP_BORDER_REPLICATE 2
#define CF_NPP_BORDER_MIRROR 4

/* NppiMaskSize of a square mask of odd width 3..15; -1 for other widths. */
int cf_npp_mask_size (int width);

CfNppStreamContext cf_npp_context (void);

/* Checks the last launch; aborts the benchmark on an error. */
void cf_bench_check (CfStatus st, const char *what);

#endif /* CF_BENCH_UTIL_H */
