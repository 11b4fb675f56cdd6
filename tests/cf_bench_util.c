#include "cf_bench_util.h"
#include "cf_runtime.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cudaStream_t stream, side;
static cudaEvent_t fork_ev, join_ev;

void
cf_bench_init (void)
{
  if (cf_device_count () < 1) {
    printf ("no CUDA device: benchmark skipped\n");
    exit (77);
  }
  cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags (&side, cudaStreamNonBlocking);
  cudaEventCreateWithFlags (&fork_ev, cudaEventDisableTiming);
  cudaEventCreateWithFlags (&join_ev, cudaEventDisableTiming);
}

CfStream
cf_bench_stream (void)
{
  return (CfStream) stream;
}

void
cf_bench_check (CfStatus st, const char *what)
{
  cudaError_t err = cudaGetLastError ();
  if (st != CF_OK || err != cudaSuccess) {
    fprintf (stderr, "%s failed: %s / %s\n", what, cf_status_string (st),
        cudaGetErrorString (err));
    exit (1);
  }
}

CfBenchFrames
cf_bench_frames_new (int width, int height, int channels, int depth)
{
  int l2 = 0;
  cudaDeviceGetAttribute (&l2, cudaDevAttrL2CacheSize, 0);
  size_t row = (size_t) width * channels * (depth > 8 ? 2 : 1);
  size_t bytes = row * height;
  CfBenchFrames f;
  f.count = (int) ((3 * (size_t) l2) / bytes) + 2;
  if (f.count > 64)
    f.count = 64;
  f.src = calloc (f.count, sizeof (CfPlane));
  f.dst = calloc (f.count, sizeof (CfPlane));
  unsigned char *host = malloc (bytes);
  for (size_t i = 0; i < bytes; i++)
    host[i] = (unsigned char) (rand () >> 7);
  for (int i = 0; i < f.count; i++) {
    CfPlane p = { NULL, 0, width, height, channels, depth };
    f.src[i] = f.dst[i] = p;
    cf_bench_check (cf_device_alloc_2d (&f.src[i].data, &f.src[i].stride, row,
            height), "alloc");
    cf_bench_check (cf_device_alloc_2d (&f.dst[i].data, &f.dst[i].stride, row,
            height), "alloc");
    cudaMemcpy2D (f.src[i].data, f.src[i].stride, host, row, row, height,
        cudaMemcpyHostToDevice);
  }
  free (host);
  return f;
}

void
cf_bench_frames_free (CfBenchFrames * f)
{
  for (int i = 0; i < f->count; i++) {
    cf_device_free (f->src[i].data);
    cf_device_free (f->dst[i].data);
  }
  free (f->src);
  free (f->dst);
}

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return x < y ? -1 : x > y;
}

double
cf_bench_median_ms (CfBenchFn fn, void *ctx, int reps)
{
  cudaEvent_t *ev = malloc (sizeof (cudaEvent_t) * (reps + 1));
  float *ms = malloc (sizeof (float) * reps);
  for (int i = 0; i < 3; i++)
    fn (ctx, i);
  for (int i = 0; i <= reps; i++)
    cudaEventCreate (&ev[i]);
  cudaEventRecord (ev[0], stream);
  for (int i = 0; i < reps; i++) {
    fn (ctx, i);
    cudaEventRecord (ev[i + 1], stream);
  }
  cudaEventSynchronize (ev[reps]);
  cf_bench_check (CF_OK, "timed calls");
  for (int i = 0; i < reps; i++)
    cudaEventElapsedTime (&ms[i], ev[i], ev[i + 1]);
  qsort (ms, reps, sizeof (float), cmp_float);
  double median = ms[reps / 2];
  for (int i = 0; i <= reps; i++)
    cudaEventDestroy (ev[i]);
  free (ev);
  free (ms);
  return median;
}

double
cf_bench_time_ms (CfBenchFn fn, void *ctx, int reps, double slow_ms)
{
  double probe = cf_bench_median_ms (fn, ctx, 1);
  return probe > slow_ms ? probe : cf_bench_median_ms (fn, ctx, reps);
}

/* The side stream waits for what the bench stream has queued (fork), and
 * the bench stream for what the side stream then queued (join). */
static void
fork_side (void)
{
  cudaEventRecord (fork_ev, stream);
  cudaStreamWaitEvent (side, fork_ev, 0);
}

static void
join_side (void)
{
  cudaEventRecord (join_ev, side);
  cudaStreamWaitEvent (stream, join_ev, 0);
}

static void
filter_on (CfBenchFilter * f, int i, cudaStream_t on)
{
  CfExec ex = { 1, (CfStream) on, &f->scratch };
  int k = i % f->frames->count;
  cf_bench_check (f->filter (&ex, &f->frames->src[k], &f->frames->dst[k],
          f->params), "filter");
}

void
cf_bench_filter (void *filter, int i)
{
  filter_on (filter, i, stream);
}

/* @second on a second stream beside @first, as the elements filter the
 * planes after the first (gstcfslots.c). */
void
cf_bench_filter_pair (void *first, void *second, int i)
{
  fork_side ();
  filter_on (second, i, side);
  filter_on (first, i, stream);
  join_side ();
}

void
cf_bench_table (const char *columns)
{
  printf ("| %s |\n|", columns);
  for (const char *c = columns; c; c = strchr (c + 1, '|'))
    printf ("---|");
  printf ("\n");
}

void *
cf_bench_npp_banner (const char *symbol)
{
  void *fn = cf_npp_symbol (symbol);
  printf ("NPP: %s\n\n", fn ? "found" : "not found");
  return fn;
}

typedef struct
{
  CfBenchFrames *a, *b;
} CopyPair;

static void
copy_plane (const CfBenchFrames * f, int i, cudaStream_t on)
{
  const CfPlane *s = &f->src[i % f->count], *d = &f->dst[i % f->count];
  cudaMemcpy2DAsync (d->data, d->stride, s->data, s->stride,
      (size_t) s->width * s->channels * (s->depth > 8 ? 2 : 1), s->height,
      cudaMemcpyDeviceToDevice, on);
}

/* Both planes' copies at once, on two streams. */
static void
copy_pair (void *ctx, int i)
{
  CopyPair *c = ctx;
  fork_side ();
  copy_plane (c->b, i, side);
  copy_plane (c->a, i, stream);
  join_side ();
}

void
cf_bench_nv12_floors (int width, int height, int reps)
{
  CfBenchFrames luma = cf_bench_frames_new (width, height, 1, 8);
  CfBenchFrames chroma = cf_bench_frames_new (width / 2, height / 2, 2, 8);
  CopyPair both = { &luma, &chroma };
  double in_turn = cf_bench_copy_ms (&luma, reps) +
      cf_bench_copy_ms (&chroma, reps);
  double forked = cf_bench_median_ms (copy_pair, &both, reps);

  printf ("\nNV12 %dx%d copy floor: planes in turn %.4f ms (the tables' "
      "floor), planes on two streams %.4f ms\n", width, height, in_turn,
      forked);
  cf_bench_frames_free (&luma);
  cf_bench_frames_free (&chroma);
}

static void
copy_frame (void *ctx, int i)
{
  copy_plane (ctx, i, stream);
}

double
cf_bench_copy_ms (CfBenchFrames * f, int reps)
{
  return cf_bench_median_ms (copy_frame, f, reps);
}

void *
cf_npp_symbol (const char *name)
{
  static void *libs[2];
  static int tried;
  static const char *names[2][4] = {
    {"libnppif.so.13", "libnppif.so.12", "libnppif.so", NULL},
    {"libnppc.so.13", "libnppc.so.12", "libnppc.so", NULL},
  };
  if (!tried) {
    tried = 1;
    for (int l = 0; l < 2; l++)
      for (int i = 0; names[l][i] && !libs[l]; i++)
        libs[l] = dlopen (names[l][i], RTLD_NOW | RTLD_GLOBAL);
  }
  for (int l = 0; l < 2; l++)
    if (libs[l]) {
      void *sym = dlsym (libs[l], name);
      if (sym)
        return sym;
    }
  return NULL;
}

CfNppStreamContext
cf_npp_context (void)
{
  CfNppStreamContext c = { 0 };
  struct cudaDeviceProp prop;
  cudaGetDevice (&c.nCudaDeviceId);
  cudaGetDeviceProperties (&prop, c.nCudaDeviceId);
  c.hStream = (CfStream) stream;
  c.nMultiProcessorCount = prop.multiProcessorCount;
  c.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  c.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  c.nSharedMemPerBlock = prop.sharedMemPerBlock;
  c.nCudaDevAttrComputeCapabilityMajor = prop.major;
  c.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  cudaStreamGetFlags (stream, &c.nStreamFlags);
  return c;
}

int
cf_npp_mask_size (int width)
{
  switch (width) {
    case 3:
      return 200;
    case 5:
      return 201;
    case 7:
      return 400;
    case 9:
      return 500;
    case 11:
      return 600;
    case 13:
      return 700;
    case 15:
      return 800;
    default:
      return -1;
  }
}
