#include "cf_test_util.h"
#include "cf_runtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng_state = 88172645463325252ull;
static CfStream test_stream;

void
cf_test_require_gpu (void)
{
  if (cf_device_count () < 1) {
    printf ("no CUDA device: skipped\n");
    exit (CF_TEST_SKIP);
  }
  CF_CHECK (cf_stream_create (&test_stream) == CF_OK);
}

void
cf_test_seed (unsigned long long seed)
{
  rng_state = seed ? seed : 88172645463325252ull;
}

unsigned
cf_test_rand (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned) (rng_state >> 16);
}

static size_t
row_bytes (const CfPlane * p)
{
  return (size_t) p->width * p->channels * cf_plane_bytes_per_sample (p);
}

CfPlane
cf_test_plane_new (int width, int height, int channels, int depth, int pad)
{
  CfPlane p = { NULL, 0, width, height, channels, depth };
  p.stride = row_bytes (&p) + pad;
  p.data = malloc (p.stride * height);
  CF_CHECK (p.data);
  unsigned char *b = p.data;
  for (size_t i = 0; i < p.stride * height; i++)
    b[i] = (unsigned char) cf_test_rand ();
  return p;
}

void
cf_test_plane_set_max (CfPlane * p, unsigned max)
{
  CF_CHECK (p->depth == 16);
  p->max = max;
  for (int y = 0; y < p->height; y++) {
    uint16_t *row = (uint16_t *) ((unsigned char *) p->data + y * p->stride);
    for (int i = 0; i < p->width * p->channels; i++)
      row[i] &= max;
  }
}

void
cf_test_plane_natural (CfPlane * p)
{
  unsigned max = cf_plane_max (p);
  for (int y = 0; y < p->height; y++) {
    unsigned char *row = (unsigned char *) p->data + (size_t) y * p->stride;
    for (int x = 0; x < p->width * p->channels; x++) {
      int px = x / p->channels;
      double v = 0.45 + 0.2 * sin (px / 37.0 + y / 53.0) +
          0.1 * cos (px / 11.0 - y / 23.0);
      if ((px / 97 + y / 61) % 3 == 0)
        v += 0.3;               /* blocks with sharp edges */
      if (abs (px - 2 * y) < 4)
        v = 1.0;                /* a thin bright line */
      v += ((int) (cf_test_rand () % 17) - 8) / 255.0;
      v = v < 0 ? 0 : (v > 1 ? 1 : v);
      if (p->depth > 8)
        ((unsigned short *) row)[x] = (unsigned short) (v * max + 0.5);
      else
        row[x] = (unsigned char) (v * max + 0.5);
    }
  }
}

CfPlane
cf_test_plane_like (const CfPlane * src, int pad)
{
  CfPlane p = *src;
  p.stride = row_bytes (src) + pad;
  p.data = malloc (p.stride * p.height);
  CF_CHECK (p.data);
  memset (p.data, 0xA5, p.stride * p.height);
  return p;
}

void
cf_test_plane_free (CfPlane * p)
{
  free (p->data);
  p->data = NULL;
}

static int device_unaligned_rows, device_stride_multiple;

void
cf_test_device_unaligned_rows (int on)
{
  device_unaligned_rows = on;
}

void
cf_test_device_stride_multiple (int bytes)
{
  device_stride_multiple = bytes;
}

CfPlane
cf_test_device_like (const CfPlane * host)
{
  CfPlane d = *host;
  if (device_unaligned_rows) {
    int bps = cf_plane_bytes_per_sample (host);
    d.stride = row_bytes (host) + bps;
    while (d.stride % 4 == 0)
      d.stride += bps;
    CF_CHECK (cf_device_alloc (&d.data, d.stride * d.height) == CF_OK);
  } else if (device_stride_multiple) {
    size_t m = device_stride_multiple;
    d.stride = (row_bytes (host) + m - 1) / m * m;
    if (d.stride / m % 2 == 0)
      d.stride += m;
    CF_CHECK (cf_device_alloc (&d.data, d.stride * d.height) == CF_OK);
  } else
    CF_CHECK (cf_device_alloc_2d (&d.data, &d.stride, row_bytes (host),
            host->height) == CF_OK);
  /* Poison, so an unwritten output sample shows up as a mismatch. */
  void *tmp = malloc (d.stride * d.height);
  memset (tmp, 0x5A, d.stride * d.height);
  CF_CHECK (cf_copy_2d_async (d.data, d.stride, tmp, d.stride, d.stride,
          d.height, test_stream) == CF_OK);
  CF_CHECK (cf_stream_synchronize (test_stream) == CF_OK);
  free (tmp);
  return d;
}

CfPlane
cf_test_device_upload (const CfPlane * host)
{
  CfPlane d = cf_test_device_like (host);
  CF_CHECK (cf_copy_2d_async (d.data, d.stride, host->data, host->stride,
          row_bytes (host), host->height, test_stream) == CF_OK);
  CF_CHECK (cf_stream_synchronize (test_stream) == CF_OK);
  return d;
}

void
cf_test_device_download (const CfPlane * dev, const CfPlane * host)
{
  CF_CHECK (cf_copy_2d_async (host->data, host->stride, dev->data,
          dev->stride, row_bytes (host), host->height, test_stream) == CF_OK);
  CF_CHECK (cf_stream_synchronize (test_stream) == CF_OK);
}

void
cf_test_device_free (CfPlane * dev)
{
  cf_device_free (dev->data);
  dev->data = NULL;
}

static unsigned
sample (const CfPlane * p, int x, int y, int c)
{
  const unsigned char *row =
      (const unsigned char *) p->data + (size_t) y * p->stride;
  if (p->depth > 8)
    return ((const unsigned short *) row)[(size_t) x * p->channels + c];
  return row[(size_t) x * p->channels + c];
}

long
cf_test_compare (const CfPlane * a, const CfPlane * b, int tol, int *max_diff,
    const char *what)
{
  long bad = 0;
  *max_diff = 0;
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      for (int c = 0; c < a->channels; c++) {
        int d = abs ((int) sample (a, x, y, c) - (int) sample (b, x, y, c));
        if (d > *max_diff)
          *max_diff = d;
        if (d > tol && bad++ == 0)
          fprintf (stderr, "MISMATCH %s at (%d,%d) channel %d: %u vs %u\n",
              what, x, y, c, sample (a, x, y, c), sample (b, x, y, c));
      }
  return bad;
}

int
cf_test_gpu_run (CfTestFilter filter, const void *params,
    const CfPlane * src, const CfPlane * out, const char *what)
{
  static CfScratch scratch;
  CfExec exec = { 1, test_stream, &scratch };
  CfPlane dsrc = cf_test_device_upload (src);
  CfPlane ddst = cf_test_device_like (src);

  CfStatus st = filter (&exec, &dsrc, &ddst, params);
  if (st != CF_OK)
    fprintf (stderr, "FAIL %s: %s (%s)\n", what, cf_status_string (st),
        cf_last_error_string ());
  else {
    CF_CHECK (cf_stream_synchronize (test_stream) == CF_OK);
    cf_test_device_download (&ddst, out);
  }
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  return st == CF_OK;
}

long
cf_test_gpu_vs_ref (CfTestFilter filter, const void *params,
    const CfPlane * src, const CfPlane * ref, int tol, const char *what)
{
  CfPlane out = cf_test_plane_like (src, 3);
  int max_diff;
  long bad = 1;

  if (cf_test_gpu_run (filter, params, src, &out, what)) {
    bad = cf_test_compare (&out, ref, tol, &max_diff, what);
    if (bad)
      fprintf (stderr, "FAIL %s: %ld samples off, max diff %d\n", what, bad,
          max_diff);
  }
  cf_test_plane_free (&out);
  return bad;
}

int
cf_test_finish (long passed, long failed)
{
  printf ("%ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}
