/* gpu suite: cf_temporal on the GPU against the plain-C reference, exactly
 * (within 1 LSB where the spatial pass, a bilateral filter, is blended
 * in: adaptive mode with a range sigma): awkward sizes, every channel layout, 8, 10 and 16 bits, both
 * modes, the spatial pass on and off, the noise level given and estimated,
 * both borders, and chroma planes steered by a luma plane's map (I420-,
 * NV12- and Y444-like pairs). Each case runs a sequence of frames (a still
 * picture with noise and a block that changes, so that both the recursion
 * and the motion test are taken), each step from the reference's previous
 * output, so that every step is checked on its own; the luma map is
 * compared exactly. One line per failing case, then the verdict. */
#include "cf_test_util.h"
#include "cf_runtime.h"
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

#define FRAMES 4

static long passed, failed;
static CfStream stream;
static CfScratch scratch;

static unsigned
get (const CfPlane * p, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) p->data + y * p->stride;
  return p->depth > 8 ? ((const unsigned short *) row)[x * p->channels + c] :
      row[x * p->channels + c];
}

static void
put (const CfPlane * p, int x, int y, int c, unsigned v)
{
  unsigned char *row = (unsigned char *) p->data + y * p->stride;
  if (p->depth > 8)
    ((unsigned short *) row)[x * p->channels + c] = (unsigned short) v;
  else
    row[x * p->channels + c] = (unsigned char) v;
}

/* Frame @k of a sequence: @base plus noise of about 4% of full scale, and
 * a block (a quarter of the frame, moving with k) of new random samples. */
static void
frame (const CfPlane * base, const CfPlane * out, int k)
{
  unsigned max = cf_plane_max (base);
  int amp = (int) (max / 25) + 1;
  int bx = (k * base->width) / 5, by = (k * base->height) / 7;

  for (int y = 0; y < base->height; y++)
    for (int x = 0; x < base->width; x++)
      for (int c = 0; c < base->channels; c++) {
        long v = (long) get (base, x, y, c) + (long) (cf_test_rand () %
            (2 * amp + 1)) - amp;
        if (x >= bx && x < bx + base->width / 2 && y >= by
            && y < by + base->height / 2)
          v = cf_test_rand () % (max + 1);
        v = v < 0 ? 0 : (v > (long) max ? (long) max : v);
        if (max == 0xffc0)
          v &= 0xffc0;
        put (out, x, y, c, (unsigned) v);
      }
}

static int
max_diff (const CfPlane * a, const CfPlane * b, int *fx, int *fy)
{
  int worst = 0;
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      for (int c = 0; c < a->channels; c++) {
        int d = abs ((int) get (a, x, y, c) - (int) get (b, x, y, c));
        if (d > worst) {
          worst = d;
          *fx = x;
          *fy = y;
        }
      }
  return worst;
}

/* A plane pair: plane 0 (@channels0, its luma or all colour channels
 * measured) and, where @chroma_channels, a chroma plane subsampled by
 * (@ws, @hs) steered by plane 0's map. */
typedef struct
{
  int w, h, channels, depth;
  unsigned max, mask, motion;
  int chroma_channels, ws, hs;
} Layout;

static CfPlane
plane_new (int w, int h, int channels, int depth, unsigned max)
{
  CfPlane p = cf_test_plane_new (w, h, channels, depth, 3);
  if (max)
    cf_test_plane_set_max (&p, max);
  return p;
}

/* One plane through FRAMES steps on both paths, each step within @tol;
 * @map as the case says. */
static int
run_plane (const char *what, const CfPlane * base, const CfTemporalParams * p,
    int tol, CfPlane * map_ref, CfPlane * map_dev, int *worst_map)
{
  CfExec exec = { 1, stream, &scratch };
  CfPlane cur = cf_test_plane_like (base, 1);
  CfPlane prev = cf_test_plane_like (base, 2);
  CfPlane ref = cf_test_plane_like (base, 0);
  CfPlane got = cf_test_plane_like (base, 0);
  int worst = 0, x = 0, y = 0;

  frame (base, &prev, 0);
  for (int k = 1; k < FRAMES; k++) {
    frame (base, &cur, k);
    CfPlane dcur = cf_test_device_upload (&cur);
    CfPlane dprev = cf_test_device_upload (&prev);
    CfPlane ddst = cf_test_device_like (&cur);
    CfTemporalParams pk = *p;
    pk.frame = k;
    CF_CHECK (cf_temporal_ref (&cur, &prev, &ref, map_ref, &pk) == CF_OK);
    CfStatus st = cf_temporal (&exec, &dcur, &dprev, &ddst, map_dev, &pk);
    if (st == CF_OK)
      st = cf_stream_synchronize (stream);
    if (st != CF_OK) {
      printf ("FAIL %s frame %d: %s (%s)\n", what, k, cf_status_string (st),
          cf_last_error_string ());
      worst = 1000000;
    } else {
      cf_test_device_download (&ddst, &got);
      int d = max_diff (&got, &ref, &x, &y);
      if (d > tol)
        printf ("FAIL %s frame %d: off by %d at (%d,%d)\n", what, k, d, x, y);
      worst = d > worst ? d : worst;
      if (p->map_use == CF_TEMPORAL_MAP_WRITE) {
        CfPlane m = cf_test_plane_like (map_ref, 0);
        cf_test_device_download (map_dev, &m);
        int dm = max_diff (&m, map_ref, &x, &y);
        if (dm)
          printf ("FAIL %s frame %d: map off by %d at (%d,%d)\n", what, k, dm,
              x, y);
        *worst_map = dm > *worst_map ? dm : *worst_map;
        cf_test_plane_free (&m);
      }
    }
    cf_test_device_free (&dcur);
    cf_test_device_free (&dprev);
    cf_test_device_free (&ddst);
    /* the next step starts from the reference's output */
    memcpy (prev.data, ref.data, ref.stride * ref.height);
    prev.stride = ref.stride;
  }
  cf_test_plane_free (&cur);
  cf_test_plane_free (&prev);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&got);
  return worst;
}

static void
check (const Layout * l, CfTemporalMode mode, double strength, double noise,
    double spatial, CfBorder border)
{
  CfTemporalParams p = { 0 };
  CfPlane base = plane_new (l->w, l->h, l->channels, l->depth, l->max);
  CfPlane map_ref = { 0 }, map_dev = { 0 };
  char what[200];
  int worst, worst_map = 0;
  /* only the spatial pass (exp on the GPU's approximation) may round
   * otherwise than the reference */
  const int tol = mode == CF_TEMPORAL_ADAPTIVE && spatial > 0.0 ? 1 : 0;

  p.mode = mode;
  p.strength = strength;
  p.noise = noise;
  p.border = border;
  p.channel_mask = l->mask;
  p.motion_mask = l->motion;
  if (spatial > 0.0) {
    p.spatial.sigma_x = p.spatial.sigma_y = 1.5;
    p.spatial.radius_x = p.spatial.radius_y = 3;
    p.spatial.sigma_range = spatial;
    p.spatial.mode = CF_BILATERAL_EXACT;
    p.spatial.distance = CF_BILATERAL_JOINT;
    p.spatial.border = border;
    p.spatial.channel_mask = l->mask;
  }
  if (l->chroma_channels) {
    map_ref = cf_test_plane_new (l->w, l->h, 1, 8, 0);
    map_dev = cf_test_device_upload (&map_ref);
    p.map_use = CF_TEMPORAL_MAP_WRITE;
  }
  snprintf (what, sizeof what, "%dx%d c%d d%d max %u mask %x motion %x %s "
      "s %.2f noise %.1f spatial %.2f %s chroma c%d sub %d/%d", l->w, l->h,
      l->channels, l->depth, l->max, l->mask, l->motion,
      mode ? "persistence" : "adaptive", strength, noise, spatial,
      border ? "mirror" : "clamp", l->chroma_channels, l->ws, l->hs);
  worst = run_plane (what, &base, &p, tol, &map_ref, &map_dev, &worst_map);
  if (l->chroma_channels) {
    /* the chroma plane reads the map the last luma frame wrote */
    int cw = (l->w + (1 << l->ws) - 1) >> l->ws;
    int ch = (l->h + (1 << l->hs) - 1) >> l->hs;
    CfPlane cbase = plane_new (cw, ch, l->chroma_channels, l->depth, l->max);
    CfTemporalParams cp = p;
    char cwhat[220];

    cp.channel_mask = CF_ALL_CHANNELS (l->chroma_channels);
    cp.spatial.channel_mask = cp.channel_mask;
    cp.spatial.sigma_x /= 1 << l->ws;
    cp.spatial.sigma_y /= 1 << l->hs;
    cp.map_use = CF_TEMPORAL_MAP_READ;
    cp.map_w_sub = l->ws;
    cp.map_h_sub = l->hs;
    cp.motion_mask = 0;
    snprintf (cwhat, sizeof cwhat, "%s (chroma)", what);
    int wc = run_plane (cwhat, &cbase, &cp, tol, &map_ref, &map_dev,
        &worst_map);
    worst = wc > worst ? wc : worst;
    cf_test_plane_free (&cbase);
    cf_test_plane_free (&map_ref);
    cf_test_device_free (&map_dev);
  }
  if (worst > tol || worst_map)
    failed++;
  else
    passed++;
  cf_test_plane_free (&base);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {4097, 9},
  {9, 300}, {130, 131}
  };
  /* channels, depth, max, mask, motion, chroma planes */
  static const Layout layouts[] = {
    {0, 0, 1, 8, 0, 0x1, 0x1, 0, 0, 0},
    {0, 0, 1, 16, 0, 0x1, 0x1, 0, 0, 0},
    {0, 0, 4, 8, 0, 0x7, 0x7, 0, 0, 0}, /* RGBA */
    {0, 0, 3, 8, 0, 0x7, 0x7, 0, 0, 0}, /* RGB */
    {0, 0, 4, 8, 0, 0xE, 0x2, 0, 0, 0}, /* AYUV: Y measured */
    {0, 0, 1, 8, 0, 0x1, 0x1, 2, 1, 1}, /* NV12 */
    {0, 0, 1, 8, 0, 0x1, 0x1, 1, 1, 1}, /* I420 */
    {0, 0, 1, 16, 1023, 0x1, 0x1, 1, 1, 0},     /* I422_10LE */
    {0, 0, 1, 16, 0xffc0, 0x1, 0x1, 2, 1, 1},   /* P010 */
    {0, 0, 1, 16, 0, 0x1, 0x1, 1, 0, 0},        /* Y444_16LE */
  };
  static const struct
  {
    CfTemporalMode mode;
    double s, noise, spatial;
  }
  params[] = {
    {CF_TEMPORAL_ADAPTIVE, 0.8, 0.0, 0.0},
    {CF_TEMPORAL_ADAPTIVE, 0.8, 6.0, 0.1},
    {CF_TEMPORAL_ADAPTIVE, 0.5, 0.0, 0.25},
    {CF_TEMPORAL_ADAPTIVE, 1.0, 2000.0, 0.0},
    {CF_TEMPORAL_PERSISTENCE, 0.6, 0.0, 0.1},
    {CF_TEMPORAL_PERSISTENCE, 0.95, 3.0, 0.0},
  };
  /* CF_TEST_QUICK=1 (for compute-sanitizer) keeps every fourth case. */
  int quick = getenv ("CF_TEST_QUICK") != NULL, n = 0;

  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  cf_test_seed (2626);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (size_t k = 0; k < sizeof params / sizeof params[0]; k++) {
        Layout lay = layouts[l];
        if (quick && n++ % 4)
          continue;
        lay.w = sizes[s][0];
        lay.h = sizes[s][1];
        check (&lay, params[k].mode, params[k].s, params[k].noise,
            params[k].spatial, (s + k) % 2 ? CF_BORDER_MIRROR :
            CF_BORDER_CLAMP);
      }
  /* a 4K luma plane with its NV12 chroma, once */
  if (!quick) {
    Layout big = { 3840, 2160, 1, 8, 0, 0x1, 0x1, 2, 1, 1 };
    check (&big, CF_TEMPORAL_ADAPTIVE, 0.8, 0.0, 0.0, CF_BORDER_CLAMP);
  }
  cf_scratch_release (&scratch);
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
