/* Regions of interest and the value gate through an element
 * (element_harness.h): the output is the input, bit for bit, everywhere
 * outside the regions and wherever the gate is closed, and inside exactly
 * what the element gives on the whole frame (same backend), or within the
 * element's tolerance of the CPU's (the CUDA backend). Each is checked
 * against the element's own whole-frame output, so the rule needs no
 * reference of its own; packed 4:2:2 frames sample by sample of their
 * luma and their pairs' chroma. */
#include "element_harness.h"
#include "cf_plane_access.h"

#include <string.h>

/* Formats of every plane layout the base class cuts regions of: gray 8 and
 * 16 bits, packed RGBA and AYUV, 4:2:0 semi-planar and planar, and the
 * packed 4:2:2 ones (luma and the pairs' chroma as planes of their own). */
static const gchar *const region_formats[] = { "GRAY8", "GRAY16_LE", "RGBA",
  "NV12", "I420", "AYUV", "YUY2", "UYVY", "v210", NULL
};

/* A frame's samples as planes: its own, or a packed 4:2:2 frame's luma
 * and interleaved chroma (cf_packed_unpack), each with its subsampling. */
typedef struct
{
  GstVideoFrame frame;
  gboolean packed;
  guint n;
  CfPlane plane[GST_VIDEO_MAX_PLANES];
  guint ws[GST_VIDEO_MAX_PLANES], hs[GST_VIDEO_MAX_PLANES];
} Samples;

static void
samples_map (Samples * s, const GstVideoInfo * info, GstBuffer * buf)
{
  fail_unless (gst_video_frame_map (&s->frame, info, buf, GST_MAP_READ));
  s->packed = cf_packed_unpack (&s->frame, s->plane);
  s->n = s->packed ? 2 : GST_VIDEO_INFO_N_PLANES (info);
  for (guint p = 0; p < s->n; p++) {
    if (s->packed) {
      s->ws[p] = p;
      s->hs[p] = 0;
      continue;
    }
    s->plane[p] = cf_frame_plane (&s->frame, p);
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_INFO_COMP_PLANE (info, c) == p) {
        s->ws[p] = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, c);
        s->hs[p] = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, c);
        break;
      }
  }
}

static void
samples_unmap (Samples * s)
{
  if (s->packed)
    cf_packed_free (s->plane);
  gst_video_frame_unmap (&s->frame);
}

/* Whether the sample at (@x, @y) of plane @p of @in is filtered; @data:
 * what decides. */
typedef gboolean (*CfSelected) (gconstpointer data, const Samples * in,
    guint p, gint x, gint y);

/* Fails unless @out is @in wherever @sel says no, and @full (within @tol)
 * wherever it says yes; returns how many samples were selected. */
static gint64
check_composition (GstBuffer * in, GstBuffer * full, GstBuffer * out,
    GstVideoFormat format, gint width, gint height, CfSelected sel,
    gconstpointer data, gint tol, const gchar * what)
{
  GstVideoInfo info;
  Samples si, sf, so;
  gint64 selected = 0;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  samples_map (&si, &info, in);
  samples_map (&sf, &info, full);
  samples_map (&so, &info, out);
  for (guint p = 0; p < si.n; p++) {
    const CfPlane *pi = &si.plane[p], *pf = &sf.plane[p], *po = &so.plane[p];

    for (gint y = 0; y < pi->height; y++)
      for (gint x = 0; x < pi->width; x++) {
        gboolean s = sel (data, &si, p, x, y);

        selected += s;
        for (gint c = 0; c < pi->channels; c++) {
          gint o = cf_get_sample (po, x, y, c);
          gint want = cf_get_sample (s ? pf : pi, x, y, c);

          fail_unless (ABS (o - want) <= (s ? tol : 0), "%s: %s plane %u "
              "(%d, %d) channel %d is %d, not %d (the %s)", what,
              gst_video_format_to_string (format), p, x, y, c, o, want,
              s ? "whole frame's output" : "input");
        }
      }
  }
  samples_unmap (&si);
  samples_unmap (&sf);
  samples_unmap (&so);
  return selected;
}

/* Rectangles (frame pixels, already clipped) scaled outward to a plane. */
typedef struct
{
  guint n;
  GstVideoRectangle r[4];
} Rects;

static gboolean
in_rects (gconstpointer data, const Samples * in, guint p, gint x, gint y)
{
  const Rects *rects = data;
  guint ws = in->ws[p], hs = in->hs[p];

  for (guint i = 0; i < rects->n; i++) {
    const GstVideoRectangle *r = &rects->r[i];

    if (x >= r->x >> ws && x < (r->x + r->w + (1 << ws) - 1) >> ws
        && y >= r->y >> hs && y < (r->y + r->h + (1 << hs) - 1) >> hs)
      return TRUE;
  }
  return FALSE;
}

/* The gate: [min, max] on luma (YUV) or the mean of R, G, B. */
typedef struct
{
  guint min, max;
  const Rects *rects;           /* and within these, if set */
} Gate;

static gboolean
gate_open (gconstpointer data, const Samples * in, guint p, gint x, gint y)
{
  const Gate *g = data;
  const GstVideoFormatInfo *finfo = in->frame.info.finfo;
  guint n = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) ? 3 : 1, sum = 0;
  gint lx = x << in->ws[p], ly = y << in->hs[p];

  if (g->rects && !in_rects (g->rects, in, p, x, y))
    return FALSE;
  if (in->packed) {
    sum = cf_get_sample (&in->plane[0], lx, ly, 0);
  } else {
    for (guint c = 0; c < n; c++) {
      const CfPlane *pl = &in->plane[GST_VIDEO_FORMAT_INFO_PLANE (finfo, c)];

      sum += cf_get_sample (pl, lx, ly,
          GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) / (pl->depth / 8));
    }
  }
  return sum >= n * g->min && sum <= n * g->max;
}

gint64
cf_check_rect (GstBuffer * in, GstBuffer * full, GstBuffer * out,
    GstVideoFormat format, gint width, gint height,
    const GstVideoRectangle * rect, const gchar * what)
{
  Rects rects = { 1, {*rect} };

  return check_composition (in, full, out, format, width, height, in_rects,
      &rects, 0, what);
}

static gchar *
launch_line (const CfElementTest * e, const gchar * backend, CfBorder border,
    const gchar * extra)
{
  return g_strdup_printf ("%s %s border-mode=%s backend=%s %s", e->name,
      e->props, border == CF_BORDER_MIRROR ? "mirror" : "clamp", backend,
      extra);
}

/* @e with @props on @in, the whole frame on the CPU. */
static GstBuffer *
whole_frame (const CfElementTest * e, const gchar * props,
    const gchar * format, gint w, gint h, CfBorder border, GstBuffer * in)
{
  gchar *whole = g_strdup_printf ("%s %s border-mode=%s backend=cpu",
      e->name, props, border == CF_BORDER_MIRROR ? "mirror" : "clamp");
  GstBuffer *full = cf_run_one (whole, format, w, h, in);

  g_free (whole);
  return full;
}

/* @e with @props and @extra on @in, in @backend, checked against @full
 * (its whole frame, whole_frame ()). */
static gint64
check_against (const CfElementTest * e, const gchar * backend,
    const gchar * props, const gchar * format, gint w, gint h,
    CfBorder border, GstBuffer * in, GstBuffer * full, CfSelected sel,
    gconstpointer data, const gchar * extra, gint tol)
{
  gchar *part = g_strdup_printf ("%s %s border-mode=%s backend=%s %s",
      e->name, props, border == CF_BORDER_MIRROR ? "mirror" : "clamp",
      backend, extra);
  GstBuffer *out = cf_run_one (part, format, w, h, in);
  gint64 n = check_composition (in, full, out,
      gst_video_format_from_string (format), w, h, sel, data, tol, part);

  gst_buffer_unref (out);
  g_free (part);
  return n;
}

/* check_against () the whole frame computed here. */
static gint64
check_case (const CfElementTest * e, const gchar * backend,
    const gchar * props, const gchar * format, gint w, gint h,
    CfBorder border, GstBuffer * in, CfSelected sel, gconstpointer data,
    const gchar * extra, gint tol)
{
  GstBuffer *full = whole_frame (e, props, format, w, h, border, in);
  gint64 n = check_against (e, backend, props, format, w, h, border, in,
      full, sel, data, extra, tol);

  gst_buffer_unref (full);
  return n;
}

/* A region inside, one touching the top-left corner, one leaving the
 * bottom-right, one to the edges (width and height 0), one outside. */
static void
roi_cases (const CfElementTest * e, const gchar * backend,
    const gchar * props, const gchar * format, gint w, gint h,
    CfBorder border, gint tol)
{
  const gint at[][4] = { {w / 4, h / 3, w / 3 + 1, h / 4 + 1},
  {0, 0, w / 2 + 1, 3}, {w - 5, h - 3, 20, 20}, {w / 2 + 1, h / 2, 0, 0},
  {w + 2, 1, 5, 5}, {1, 1, 1, 1}
  };
  GstBuffer *in = cf_random_frame (gst_video_format_from_string (format), w,
      h, 0, 7 + w);
  GstBuffer *full = whole_frame (e, props, format, w, h, border, in);

  for (guint i = 0; i < G_N_ELEMENTS (at); i++) {
    gint x = at[i][0], y = at[i][1];
    gint rw = at[i][2] ? at[i][2] : w - x, rh = at[i][3] ? at[i][3] : h - y;
    Rects rects = { 1, {{x, y, MIN (rw, w - x), MIN (rh, h - y)}
        }
    };
    gchar *extra = g_strdup_printf ("roi-x=%d roi-y=%d roi-width=%d "
        "roi-height=%d", x, y, at[i][2], at[i][3]);

    if (x >= w || y >= h)
      rects.n = 0;
    check_against (e, backend, props, format, w, h, border, in, full,
        in_rects, &rects, extra, tol);
    g_free (extra);
  }
  gst_buffer_unref (full);
  gst_buffer_unref (in);
}

GST_START_TEST (test_roi_rectangles)
{
  const CfElementTest *e = cf_harness_entry ();

  for (guint f = 0; region_formats[f]; f++)
    for (guint b = 0; b < 2; b++) {
      roi_cases (e, "cpu", e->props, region_formats[f], 37, 23, b, 0);
      roi_cases (e, "cpu", e->props, region_formats[f], 6, 4, b, 0);
    }
}

GST_END_TEST;

/* Metas of two types, overlapping, one leaving the frame: roi-meta filters
 * all of them, roi-meta-type=face the faces only; a frame without a meta
 * comes out as it went in. */
GST_START_TEST (test_roi_metas)
{
  const CfElementTest *e = cf_harness_entry ();
  const gint w = 41, h = 27;

  for (guint f = 0; region_formats[f]; f++) {
    GstVideoFormat format = gst_video_format_from_string (region_formats[f]);
    GstBuffer *in = cf_random_frame (format, w, h, 0, 99 + f);
    GstBuffer *bare = cf_random_frame (format, w, h, 0, 5);
    Rects all = { 3, {{3, 2, 10, 8}, {9, 6, 12, 5}, {30, 20, 11, 7}
        }
    };
    Rects faces = { 2, {{3, 2, 10, 8}, {30, 20, 11, 7}
        }
    };
    Rects none = { 0 };

    gst_buffer_add_video_region_of_interest_meta (in, "face", 3, 2, 10, 8);
    gst_buffer_add_video_region_of_interest_meta (in, "plate", 9, 6, 12, 5);
    gst_buffer_add_video_region_of_interest_meta (in, "face", 30, 20, 40, 40);
    for (guint b = 0; b < 2; b++) {
      check_case (e, "cpu", e->props, region_formats[f], w, h, b, in,
          in_rects, &all, "roi-meta=true", 0);
      check_case (e, "cpu", e->props, region_formats[f], w, h, b, in,
          in_rects, &faces, "roi-meta=true roi-meta-type=face", 0);
      check_case (e, "cpu", e->props, region_formats[f], w, h, b, bare,
          in_rects, &none, "roi-meta=true", 0);
    }
    gst_buffer_unref (in);
    gst_buffer_unref (bare);
  }
}

GST_END_TEST;

/* Gates in the middle, below and above, alone and within a region. */
GST_START_TEST (test_value_gate)
{
  const CfElementTest *e = cf_harness_entry ();
  const gint w = 33, h = 21;

  for (guint f = 0; region_formats[f]; f++) {
    GstVideoFormat format = gst_video_format_from_string (region_formats[f]);
    guint scale = strstr (region_formats[f], "16") ? 257 : 1;
    GstBuffer *in = cf_random_frame (format, w, h, 0, 3 + f);
    Rects rect = { 1, {{5, 4, 20, 9}
        }
    };
    const Gate gates[] = { {60 * scale, 180 * scale, NULL},
    {0, 100 * scale, NULL}, {150 * scale, 65535, NULL},
    {120 * scale, 110 * scale, NULL},
    {40 * scale, 200 * scale, &rect}
    };

    for (guint g = 0; g < G_N_ELEMENTS (gates); g++)
      for (guint b = 0; b < 2; b++) {
        gchar *extra = g_strdup_printf ("gate-min=%u gate-max=%u%s",
            gates[g].min, gates[g].max, gates[g].rects ? " roi-x=5 roi-y=4 "
            "roi-width=20 roi-height=9" : "");
        gint64 n = check_case (e, "cpu", e->props, region_formats[f], w, h,
            b, in, gate_open, &gates[g], extra, 0);

        fail_unless ((n > 0) == (gates[g].min <= gates[g].max), "%s: the "
            "gate let %" G_GINT64_FORMAT " pixels through", extra, n);
        g_free (extra);
      }
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

/* roi-* and gate-* set while PLAYING apply from the next frame. */
GST_START_TEST (test_regions_change_live)
{
  const CfElementTest *e = cf_harness_entry ();
  gchar *launch = launch_line (e, "cpu", CF_BORDER_CLAMP, "");
  GstHarness *hrn = cf_harness_new (launch, "GRAY8", 30, 20);
  GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_GRAY8, 30, 20, 0, 11);
  GstBuffer *full = cf_run_one (launch, "GRAY8", 30, 20, in);
  Rects rect = { 1, {{4, 5, 10, 6}} }, whole = { 1, {{0, 0, 30, 20}} };
  GstElement *el = gst_harness_find_element (hrn, e->name);
  GstBuffer *out[3];

  out[0] = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  gst_util_set_object_arg (G_OBJECT (el), "roi-x", "4");
  gst_util_set_object_arg (G_OBJECT (el), "roi-y", "5");
  gst_util_set_object_arg (G_OBJECT (el), "roi-width", "10");
  gst_util_set_object_arg (G_OBJECT (el), "roi-height", "6");
  out[1] = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  gst_util_set_object_arg (G_OBJECT (el), "roi-width", "0");
  gst_util_set_object_arg (G_OBJECT (el), "roi-x", "0");
  gst_util_set_object_arg (G_OBJECT (el), "roi-y", "0");
  gst_util_set_object_arg (G_OBJECT (el), "roi-height", "0");
  out[2] = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  check_composition (in, full, out[0], GST_VIDEO_FORMAT_GRAY8, 30, 20,
      in_rects, &whole, 0, "before");
  check_composition (in, full, out[1], GST_VIDEO_FORMAT_GRAY8, 30, 20,
      in_rects, &rect, 0, "roi set while playing");
  check_composition (in, full, out[2], GST_VIDEO_FORMAT_GRAY8, 30, 20,
      in_rects, &whole, 0, "roi unset while playing");
  for (guint i = 0; i < 3; i++)
    gst_buffer_unref (out[i]);
  gst_buffer_unref (full);
  gst_buffer_unref (in);
  gst_object_unref (el);
  gst_harness_teardown (hrn);
  g_free (launch);
}

GST_END_TEST;

/* Interleaved frames: each field is filtered on its own, a region takes
 * each field's rows of it (so, in frame rows, the same rectangle); a gate
 * on gray frames. */
GST_START_TEST (test_regions_interlaced)
{
  const CfElementTest *e = cf_harness_entry ();
  static const gchar *const formats[] = { "GRAY8", "I420", "NV12", NULL };
  const gint w = 30, h = 24;

  for (guint f = 0; formats[f]; f++) {
    GstVideoFormat format = gst_video_format_from_string (formats[f]);
    GstBuffer *in = cf_random_frame (format, w, h, 0, 31 + f);
    gchar *whole = launch_line (e, "cpu", CF_BORDER_CLAMP, "");
    gchar *part = launch_line (e, "cpu", CF_BORDER_CLAMP, "roi-x=5 roi-y=3 "
        "roi-width=13 roi-height=9");
    gchar *gated = launch_line (e, "cpu", CF_BORDER_CLAMP, "gate-min=40 "
        "gate-max=170");
    GstBuffer *full = cf_run_interlaced (whole, "interleaved", formats[f], w, h,
        in);
    GstBuffer *out = cf_run_interlaced (part, "interleaved", formats[f], w, h,
        in);
    Rects rect = { 1, {{5, 3, 13, 9}
        }
    };
    Gate gate = { 40, 170, NULL };

    check_composition (in, full, out, format, w, h, in_rects, &rect, 0, part);
    gst_buffer_unref (out);
    if (f == 0) {
      out = cf_run_interlaced (gated, "interleaved", formats[f], w, h, in);
      check_composition (in, full, out, format, w, h, gate_open, &gate, 0,
          gated);
      gst_buffer_unref (out);
    }
    gst_buffer_unref (full);
    gst_buffer_unref (in);
    g_free (whole);
    g_free (part);
    g_free (gated);
  }
}

GST_END_TEST;

/* With a device: regions, metas and gates on the GPU against the CPU's
 * whole frame, within the tolerance of the element's first CUDA variant;
 * outside, the input bit for bit. */
GST_START_TEST (test_regions_cuda)
{
  const CfElementTest *e = cf_harness_entry ();
  const gchar *const *formats = e->cuda_formats ? e->cuda_formats :
      cf_cuda_test_formats;

  if (!cf_have_gpu ())
    return;
  for (guint i = 0, n = 0; formats[i]; i++) {
    gint tol;
    gchar *props;
    gboolean wanted = FALSE;

    /* AYUV's layout is RGBA's: the CPU cases have it */
    for (guint f = 0; region_formats[f]; f++)
      wanted |= g_str_equal (formats[i], region_formats[f])
          && !g_str_equal (formats[i], "AYUV");
    if (!wanted)
      continue;
    props = e->cuda_props (i, 1, 0, &tol);
    for (guint b = 0; b < 2; b++) {
      GstVideoFormat format = gst_video_format_from_string (formats[i]);
      guint scale = strstr (formats[i], "16") ? 257 : 1;
      GstBuffer *in = cf_random_frame (format, 97, 61, 0, 21 + i);
      Rects metas = { 2, {{3, 2, 40, 30}, {30, 20, 67, 41}
          }
      };
      Gate gate = { 50 * scale, 170 * scale, NULL };
      gchar *gated = g_strdup_printf ("gate-min=%u gate-max=%u", gate.min,
          gate.max);

      roi_cases (e, "cuda", props, formats[i], 97, 61, b, tol);
      /* a larger frame once (the CPU's whole frame takes long) */
      if (b == 0 && n++ == 0)
        roi_cases (e, "cuda", props, formats[i], 640, 361, b, tol);
      gst_buffer_add_video_region_of_interest_meta (in, "face", 3, 2, 40, 30);
      gst_buffer_add_video_region_of_interest_meta (in, "face", 30, 20, 90, 90);
      check_case (e, "cuda", props, formats[i], 97, 61, b, in, in_rects,
          &metas, "roi-meta=true", tol);
      check_case (e, "cuda", props, formats[i], 97, 61, b, in, gate_open,
          &gate, gated, tol);
      g_free (gated);
      gst_buffer_unref (in);
    }
    g_free (props);
  }
}

GST_END_TEST;

void
cf_add_region_tests (TCase * tc)
{
  tcase_add_test (tc, test_roi_rectangles);
  tcase_add_test (tc, test_roi_metas);
  tcase_add_test (tc, test_value_gate);
  tcase_add_test (tc, test_regions_change_live);
  tcase_add_test (tc, test_regions_interlaced);
  tcase_add_test (tc, test_regions_cuda);
}
