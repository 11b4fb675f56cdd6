/* gpu suite: cf_satvar on the GPU against the plain-C reference, bit for
 * bit (both blend in the same double operations), and the reference
 * against what it must be: with s = 1 and integer radii, cf_satblur's
 * fixed box exactly; with s = 0 (inside a band or an ellipse, alpha 0),
 * the input; so with a radius map of full scale and of 0. Focus bands and
 * ellipses at angles, ramps, an alpha map, radius maps of 8 and 16 bits
 * (random, and a smooth ramp),
 * fractional radii, 1 to 3 passes, both borders, 8 and 16 bits, 1 to 4
 * channels, subsampled planes, odd sizes, 32- and 64-bit tables, and a
 * plane too wide for the fused path's shared memory (the global-table
 * path). Radii up to CF_SATVAR_TILE_MAX_RADIUS run the tile path
 * (cf_satvar) and the table paths (cf_satvar_table) both. One line per
 * failing case, then the verdict. */
#include "cf_test_util.h"
#include "cf_runtime.h"
#include "satvar.h"
#include "satvar_paths.h"
#include "satblur.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static long passed, failed;
static CfStream stream;
static CfScratch scratch;

static void
verdict (long bad, const char *what)
{
  if (bad) {
    failed++;
    fprintf (stderr, "FAIL %s\n", what);
  } else {
    passed++;
  }
}

/* A plane's channels, depth and filtered channels. */
typedef struct
{
  int channels, depth;
  unsigned mask;
} Layout;

/* A radius map of @w x @h: random samples (max 0), or a smooth ramp from 0
 * at the left to @max at the right (fractional radii everywhere). */
static CfPlane
radius_map (int w, int h, int depth, unsigned max)
{
  CfPlane m = cf_test_plane_new (w, h, 1, depth, 5);

  m.max = max;
  for (int y = 0; y < h && max; y++)
    for (int x = 0; x < w; x++) {
      unsigned v = (unsigned) ((double) max * x / (w > 1 ? w - 1 : 1) + 0.5);
      if (depth > 8)
        ((unsigned short *) ((unsigned char *) m.data + y * m.stride))[x] = v;
      else
        ((unsigned char *) m.data + y * m.stride)[x] = v;
    }
  return m;
}

/* A map of @w x @h whose every sample is @v. */
static CfPlane
constant_map (int w, int h, int depth, unsigned v)
{
  CfPlane m = cf_test_plane_new (w, h, 1, depth, 0);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      if (depth > 8)
        ((unsigned short *) ((unsigned char *) m.data + y * m.stride))[x] = v;
      else
        ((unsigned char *) m.data + y * m.stride)[x] = v;
    }
  return m;
}

/* GPU against the reference on @src. */
static void
check_frame (const CfPlane * frame, unsigned mask, const CfSatVarParams * p,
    const char *name)
{
  CfExec exec = { 1, stream, &scratch };
  const CfPlane src = *frame;
  const int w = src.width, h = src.height;
  const int channels = src.channels, depth = src.depth;
  CfPlane ref = cf_test_plane_like (&src, 0);
  CfPlane out = cf_test_plane_like (&src, 1);
  CfPlane dsrc = cf_test_device_upload (&src);
  CfPlane ddst = cf_test_device_like (&src);
  CfSatVarParams q = *p;
  CfPlane map = { 0 }, dmap = { 0 };
  char what[200];
  int diff = 0;

  q.channel_mask = mask;
  if (p->source == CF_SATVAR_MAP) {
    map = radius_map (((w - 1) << p->x_shift) + 1, ((h - 1) << p->y_shift) +
        1, p->map.depth, p->map.max);
    dmap = cf_test_device_upload (&map);
    q.map = map;
  }
  snprintf (what, sizeof what, "%s %dx%d c%d d%d mask %x r %.2f/%.2f "
      "passes %d %s", name, w, h, channels, depth, mask, p->radius_x,
      p->radius_y, p->passes, p->border ? "mirror" : "clamp");
  CF_CHECK (cf_satvar_ref (&src, &ref, &q) == CF_OK);
  q.map = dmap;
  CF_CHECK (cf_satvar (&exec, &dsrc, &ddst, &q) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&ddst, &out);
  verdict (cf_test_compare (&ref, &out, 0, &diff, what), what);
  /* radii the tile path takes: the table paths too */
  if (ceil (q.radius_x) <= CF_SATVAR_TILE_MAX_RADIUS
      && ceil (q.radius_y) <= CF_SATVAR_TILE_MAX_RADIUS) {
    CfPlane dtab = cf_test_device_like (&src);
    strncat (what, ", table path", sizeof what - strlen (what) - 1);
    CF_CHECK (cf_satvar_table (&exec, &dsrc, &dtab, &q) == CF_OK);
    CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
    cf_test_device_download (&dtab, &out);
    verdict (cf_test_compare (&ref, &out, 0, &diff, what), what);
    cf_test_device_free (&dtab);
  }
  if (map.data) {
    cf_test_device_free (&dmap);
    cf_test_plane_free (&map);
  }
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  cf_test_plane_free (&ref);
  cf_test_plane_free (&out);
}

/* The same on a random frame. */
static void
check (int w, int h, int channels, int depth, unsigned mask,
    const CfSatVarParams * p, const char *name)
{
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 3);

  check_frame (&src, mask, p, name);
  cf_test_plane_free (&src);
}

/* Three filtered 8-bit channels share one 64-bit table sum where each box
 * sum fits 21 bits: up to radius 44. At 44 and 45 (not packed), on random
 * and on white frames (every box sum its largest: a carry out of a
 * channel's bits would show in the next channel). */
static void
check_packing (void)
{
  CfSatVarParams p = { 44, 44, 1, CF_BORDER_MIRROR, 0x7, CF_SATVAR_ELLIPSE,
    0, 0, 60, 40, 10, 8, 1, 0, 25, 0
  };
  CfPlane white = cf_test_plane_new (131, 97, 4, 8, 4);

  memset (white.data, 0xFF, white.stride * white.height);
  for (int r = 44; r <= 45; r++) {
    p.radius_x = p.radius_y = r;
    p.source = CF_SATVAR_ELLIPSE;
    check (131, 97, 4, 8, 0x7, &p, "ellipse, packed table limit");
    check (131, 97, 3, 8, 0x7, &p, "ellipse, packed table limit, RGB");
    check_frame (&white, 0x7, &p, "ellipse, packed table limit, white");
    p.source = CF_SATVAR_BAND;
    p.radius_x = r - 0.5;
    check_frame (&white, 0x7, &p, "band, packed table limit, white");
  }
  cf_test_plane_free (&white);
}

/* The tile path's largest margin on white frames (every box sum its
 * largest, and the table's prefixes wrap: a carry out of a channel's bits
 * would show in the next channel) and on random ones, for each way it packs an entry:
 * 8-bit samples 1 to 4 channels (three a 64-bit word), 16-bit 1 to 4 (two
 * a word); a quarter above it runs the table paths. */
static void
check_tile_limits (void)
{
  static const Layout layouts[] = {
    {1, 8, 0x1}, {2, 8, 0x3}, {4, 8, 0x7}, {4, 8, 0xF}, {1, 16, 0x1},
    {2, 16, 0x3}, {4, 16, 0xF}
  };
  const double m = CF_SATVAR_TILE_MAX_RADIUS;
  const double radii[][2] = { {m, m}, {m - 0.5, m}, {m, 0.5}, {m + 0.25, 3}
  };
  CfSatVarParams p = { m, m, 1, CF_BORDER_MIRROR, 0, CF_SATVAR_BAND,
    0, 0, 60, 40, 10, 8, 1, 0, 25, 0
  };

  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
    CfPlane white = cf_test_plane_new (131, 97, layouts[l].channels,
        layouts[l].depth, 4);

    memset (white.data, 0xFF, white.stride * white.height);
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++) {
      p.radius_x = radii[r][0];
      p.radius_y = radii[r][1];
      p.border = r % 2 ? CF_BORDER_CLAMP : CF_BORDER_MIRROR;
      check_frame (&white, layouts[l].mask, &p, "band, tile limit, white");
      check (131, 97, layouts[l].channels, layouts[l].depth,
          layouts[l].mask, &p, "band, tile limit");
    }
    cf_test_plane_free (&white);
  }
}

/* Vertical margins on both sides of the tile path's switch to taller
 * tiles (9), those of its 56-row tiles (15 and 16 on 8-byte entries) and
 * up to its largest, at tile-crossing sizes: each filtered channel
 * layout, every source, both borders, horizontal margins from 1 to the
 * largest (its tables and the table paths both checked). */
static void
check_tall_tiles (void)
{
  static const Layout layouts[] = {
    {1, 8, 0x1}, {2, 8, 0x3}, {4, 8, 0x7}, {3, 8, 0x7}, {1, 16, 0x1},
    {2, 16, 0x2}, {4, 16, 0xF}
  };
  /* {30, 8}: three filtered 8-bit channels' table just under 48 KB, past
   * it with the static shared memory */
  static const double radii[][2] = { {8, 8}, {5.5, 8.5}, {12.25, 9},
  {16, 16}, {0.5, 20.5}, {31.75, 24}, {2, 32}, {32, 31.5}, {30, 8},
  {16, 15}
  };

  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++) {
      const int w = r % 2 ? 197 : 130, h = r % 2 ? 141 : 67;
      CfSatVarParams p = { radii[r][0], radii[r][1], 1 + (int) r % 2,
        (l + r) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP,
        layouts[l].mask, (CfSatVarSource) (r % 5), 0, 0, w * 0.4, h * 0.6,
        w * 0.25, h * 0.2, cos (0.5), sin (0.5), 0.3 * h, 0
      };
      if (p.source == CF_SATVAR_ALPHA && (layouts[l].channels == 1
              || layouts[l].mask == CF_ALL_CHANNELS (layouts[l].channels)))
        p.source = CF_SATVAR_MAP;
      if (p.source == CF_SATVAR_ALPHA)  /* the first unfiltered channel */
        p.alpha_channel = __builtin_ctz (~layouts[l].mask);
      if (p.source == CF_SATVAR_MAP) {
        p.map.channels = 1;
        p.map.depth = 8;
      }
      check (w, h, layouts[l].channels, layouts[l].depth, layouts[l].mask,
          &p, "tall tiles");
    }
}

/* cf_satvar on the GPU of @src with @p (its map on the host, uploaded
 * here) equals @want. */
static void
check_gpu_equals (const CfPlane * src, const CfPlane * want,
    const CfSatVarParams * p, const char *what)
{
  CfExec exec = { 1, stream, &scratch };
  CfPlane dsrc = cf_test_device_upload (src);
  CfPlane ddst = cf_test_device_like (src);
  CfPlane dmap = cf_test_device_upload (&p->map);
  CfPlane out = cf_test_plane_like (src, 0);
  CfSatVarParams q = *p;
  char gpu[200];
  int diff = 0;

  q.map = dmap;
  snprintf (gpu, sizeof gpu, "GPU: %s", what);
  CF_CHECK (cf_satvar (&exec, &dsrc, &ddst, &q) == CF_OK);
  CF_CHECK (cf_stream_synchronize (stream) == CF_OK);
  cf_test_device_download (&ddst, &out);
  verdict (cf_test_compare (want, &out, 0, &diff, gpu), gpu);
  cf_test_device_free (&dsrc);
  cf_test_device_free (&ddst);
  cf_test_device_free (&dmap);
  cf_test_plane_free (&out);
}

/* The reference at s = 1 with integer radii equals cf_satblur_ref; at s =
 * 0 it is the input. */
static void
check_rule (int w, int h, int channels, int depth, int rx, int ry,
    int passes, CfBorder border)
{
  CfPlane src = cf_test_plane_new (w, h, channels, depth, 0);
  CfPlane a = cf_test_plane_like (&src, 0), b = cf_test_plane_like (&src, 0);
  unsigned mask = CF_ALL_CHANNELS (channels);
  CfSatVarParams v = { rx, ry, passes, border, mask, CF_SATVAR_CONSTANT };
  CfSatBlurParams f = { rx, ry, passes, border, mask };
  char what[160];
  int diff = 0;

  snprintf (what, sizeof what, "constant = satblur %dx%d c%d d%d r %d/%d "
      "passes %d", w, h, channels, depth, rx, ry, passes);
  CF_CHECK (cf_satvar_ref (&src, &a, &v) == CF_OK);
  CF_CHECK (cf_satblur_ref (&src, &b, &f) == CF_OK);
  verdict (cf_test_compare (&a, &b, 0, &diff, what), what);
  /* a band thicker than the frame: s = 0 everywhere */
  v.source = CF_SATVAR_BAND;
  v.cx = w / 2.0;
  v.cy = h / 2.0;
  v.cos_a = 1.0;
  v.half_h = 4.0 * h;
  v.ramp = 10.0;
  snprintf (what, sizeof what, "s = 0 is the input %dx%d", w, h);
  CF_CHECK (cf_satvar_ref (&src, &a, &v) == CF_OK);
  verdict (cf_test_compare (&a, &src, 0, &diff, what), what);
  /* radius maps of full scale and of 0, 8 and 16 bits */
  for (int d = 8; d <= 16; d += 8) {
    CfPlane full = constant_map (w, h, d, d > 8 ? 65535 : 255);
    CfPlane zero = constant_map (w, h, d, 0);

    v.source = CF_SATVAR_MAP;
    v.map = full;
    snprintf (what, sizeof what, "full map = satblur %dx%d c%d d%d map %d",
        w, h, channels, depth, d);
    CF_CHECK (cf_satvar_ref (&src, &a, &v) == CF_OK);
    verdict (cf_test_compare (&a, &b, 0, &diff, what), what);
    check_gpu_equals (&src, &b, &v, what);
    v.map = zero;
    snprintf (what, sizeof what, "map of 0 is the input %dx%d map %d", w, h, d);
    CF_CHECK (cf_satvar_ref (&src, &a, &v) == CF_OK);
    verdict (cf_test_compare (&a, &src, 0, &diff, what), what);
    check_gpu_equals (&src, &src, &v, what);
    cf_test_plane_free (&full);
    cf_test_plane_free (&zero);
  }
  cf_test_plane_free (&src);
  cf_test_plane_free (&a);
  cf_test_plane_free (&b);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {130, 131},
  {641, 67}
  };
  static const Layout layouts[] = {
    {1, 8, 0x1}, {1, 16, 0x1}, {4, 8, 0x7}, {2, 8, 0x3}, {4, 16, 0xE},
    {3, 8, 0x7}
  };
  int quick = getenv ("CF_TEST_QUICK") != NULL, n = 0;

  cf_test_require_gpu ();
  CF_CHECK (cf_stream_create (&stream) == CF_OK);
  cf_test_seed (2028);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (int k = 0; k < 8; k++) {
        int w = sizes[s][0], h = sizes[s][1];
        double angle = 0.3 * k;
        CfSatVarParams p = { 2.5 + k, 1.0 + 0.75 * k, 1 + (int) (s + k) % 3,
          (s + l + k) % 2 ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, 0,
          (CfSatVarSource) (k < 6 ? k % 4 : CF_SATVAR_MAP), 0, 0, w * 0.4,
          h * 0.6, w * 0.25, h * 0.2, cos (angle), sin (angle), 0.2 * w, 0
        };
        if (quick && n++ % 3)
          continue;
        if (p.source == CF_SATVAR_ALPHA) {
          if (layouts[l].channels == 1 || layouts[l].mask ==
              CF_ALL_CHANNELS (layouts[l].channels))
            p.source = CF_SATVAR_ELLIPSE;
          else
            p.alpha_channel = layouts[l].mask & 1 ? 3 : 0;
        }
        if (k >= 6) {
          /* a random map of 8 bits (k = 6), a ramp of 16 bits below full
           * scale (k = 7) */
          p.map.channels = 1;
          p.map.depth = k == 6 ? 8 : 16;
          p.map.max = k == 6 ? 0 : 1023;
          p.x_shift = p.y_shift = (int) s % 2;
        }
        if (k == 5) {
          /* a subsampled plane's geometry, a hard edge */
          p.x_shift = p.y_shift = 1;
          p.ramp = 0.0;
        }
        check (w, h, layouts[l].channels, layouts[l].depth, layouts[l].mask,
            &p, p.source == CF_SATVAR_BAND ? "band" : p.source ==
            CF_SATVAR_ELLIPSE ? "ellipse" : p.source == CF_SATVAR_ALPHA ?
            "alpha" : p.source == CF_SATVAR_MAP ? "map" : "constant");
      }
  /* radii larger than the frame, the largest radius */
  {
    CfSatVarParams p = { 40.5, 33.25, 2, CF_BORDER_MIRROR, 1,
      CF_SATVAR_ELLIPSE, 0, 0, 10, 5, 6, 3, 1, 0, 7, 0
    };
    check (21, 11, 1, 16, 1, &p, "ellipse, radii past the frame");
    p.radius_x = p.radius_y = CF_SATVAR_MAX_RADIUS;
    p.border = CF_BORDER_CLAMP;
    check (30, 20, 1, 8, 1, &p, "ellipse, the largest radius");
    /* 16-bit boxes past 32 bits: the 64-bit table */
    p.radius_x = 200.5;
    p.radius_y = 150.25;
    p.cx = 150;
    p.cy = 100;
    p.half_w = 40;
    p.half_h = 30;
    p.ramp = 60;
    check (300, 200, 1, 16, 1, &p, "ellipse, 64-bit table");
    p.passes = 1;
    check (301, 201, 4, 16, 0x7, &p, "ellipse, 64-bit table, RGBA64");
  }
  check_packing ();
  check_tile_limits ();
  check_tall_tiles ();
  if (!quick) {
    CfSatVarParams p = { 4.3, 3.6, 1, CF_BORDER_CLAMP, 0x7,
      CF_SATVAR_BAND, 0, 0, 1920, 1080, 0, 200, cos (0.2), sin (0.2), 300, 0
    };
    check (3840, 2160, 4, 8, 0x7, &p, "4K tilt-shift");
    p.source = CF_SATVAR_ELLIPSE;
    p.half_w = 1200;
    p.half_h = 700;
    check (1920, 1080, 1, 16, 1, &p, "1080p vignette");
    /* grown rows whose column prefixes (4 channels, 32-bit) pass a block's
     * shared memory: the global-table path */
    CfSatVarParams q = { CF_SATVAR_MAX_RADIUS, 2.5, 1, CF_BORDER_MIRROR,
      0xF, CF_SATVAR_ELLIPSE, 0, 0, 6500, 2, 3000, 2, 1, 0, 2000, 0
    };
    check (13001, 3, 4, 8, 0xF, &q, "ellipse, the global-table path");
  }
  for (int b = 0; b < 2; b++) {
    check_rule (33, 17, 1, 8, 3, 2, 1, b);
    check_rule (33, 17, 4, 16, 5, 0, 3, b);
    check_rule (7, 3, 2, 8, 9, 9, 2, b);
  }
  cf_scratch_release (&scratch);
  cf_stream_destroy (stream);
  return cf_test_finish (passed, failed);
}
