/* The cases every element must pass (element_harness.h), on the entry of
 * the element whose test program this is. */
#include "element_harness.h"

static const CfElementTest *entry;

static const gchar *
border_name (CfBorder border)
{
  return border == CF_BORDER_MIRROR ? "mirror" : "clamp";
}

/* The colour channels of plane @p: the bits of the R, G, B (or Y, U, V)
 * components it holds, by their place in a pixel; not alpha or padding. */
static guint
colour_mask (const GstVideoFormatInfo * finfo, guint p)
{
  guint mask = 0, bytes = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8 ? 2 : 1;

  for (guint c = 0; c < 3 && c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
      c++) {
    guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);

    /* GStreamer 1.22's P01x V offset is 1, a sample count (byte 2) */
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
      mask |= 1u << (offset % bytes ? offset : offset / bytes);
  }
  return mask;
}

GstBuffer *
cf_reference_frame (GstBuffer * in, GstVideoFormat format, gint width,
    gint height, CfBorder border, CfPlaneReference reference,
    gconstpointer params)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstBuffer *out;

  gst_video_info_set_format (&info, format, width, height);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  cf_frame_copy (&fout, &fin);
  for (guint p = 0; !cf_reference_packed (&fin, &fout, border, reference,
          params) && p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    CfPlane src = cf_frame_plane (&fin, p), dst = cf_frame_plane (&fout, p);
    CfRefPlane plane = { p, 0, 0, colour_mask (info.finfo, p), border };
    guint c = 0;

    while (GST_VIDEO_FORMAT_INFO_PLANE (info.finfo, c) != p)
      c++;
    plane.w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (info.finfo, c);
    plane.h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (info.finfo, c);
    fail_unless_equals_int (reference (&src, &dst, &plane, params), CF_OK);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

void
cf_check_reference (const gchar * element, const gchar * props,
    GstVideoFormat format, gint width, gint height, CfBorder border,
    CfPlaneReference reference, gconstpointer params, guint32 seed)
{
  const gchar *name = gst_video_format_to_string (format);
  gchar *launch = g_strdup_printf ("%s %s border-mode=%s backend=cpu",
      element, props, border_name (border));
  GstBuffer *in = cf_random_frame (format, width, height, 0, seed);
  GstBuffer *out = cf_run_one (launch, name, width, height, in);
  GstBuffer *exp = cf_reference_frame (in, format, width, height, border,
      reference, params);
  gint diff = cf_frames_max_diff (out, exp, format, width, height);

  fail_unless (diff == 0, "%s, %s %dx%d: %d from the reference", launch, name,
      width, height, diff);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_buffer_unref (exp);
  g_free (launch);
}

/* Compares row by row: strides may differ. */
gboolean
cf_planes_equal (GstBuffer * a, GstBuffer * b, GstVideoFormat format, gint w,
    gint h, guint p)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;
  gboolean equal = TRUE;

  gst_video_info_set_format (&info, format, w, h);
  fail_unless (gst_video_frame_map (&fa, &info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &info, b, GST_MAP_READ));
  CfPlane pa = cf_frame_plane (&fa, p), pb = cf_frame_plane (&fb, p);
  gsize row = cf_frame_row_bytes (&fa, p);
  for (gint y = 0; y < pa.height && equal; y++)
    equal = memcmp ((guint8 *) pa.data + y * pa.stride,
        (guint8 *) pb.data + y * pb.stride, row) == 0;
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return equal;
}

gint
cf_ref_radius (gint radius, guint sub)
{
  return (radius + (1 << sub) - 1) >> sub;
}

void
cf_ref_axis (gdouble sigma, gint radius, guint sub,
    gint (*default_radius) (gdouble sigma), gdouble * sigma_out,
    gint * radius_out)
{
  *sigma_out = sigma / (1 << sub);
  *radius_out = radius > 0 ? cf_ref_radius (radius, sub) :
      default_radius (*sigma_out);
}

static gchar *
cpu_line (const gchar * props)
{
  return g_strdup_printf ("%s %s backend=cpu", entry->name, props);
}

GST_START_TEST (test_reference_at_odd_sizes)
{
  for (guint s = 0; entry->ref_sizes[s].width; s++)
    for (guint c = 0; entry->ref_cases[c].props; c++)
      for (guint f = 0; entry->ref_formats[f]; f++)
        for (guint b = 0; b < 2; b++)
          cf_check_reference (entry->name, entry->ref_cases[c].props,
              gst_video_format_from_string (entry->ref_formats[f]),
              entry->ref_sizes[s].width, entry->ref_sizes[s].height,
              b ? CF_BORDER_MIRROR : CF_BORDER_CLAMP, entry->reference,
              entry->ref_cases[c].params, s * 1000 + c * 10 + f);
}

GST_END_TEST;

GST_START_TEST (test_every_template_format)
{
  GArray *formats = cf_template_formats (entry->name);
  gchar *launch = cpu_line (entry->props);

  fail_unless (formats->len >= 15);
  for (guint i = 0; i < formats->len; i++) {
    GstVideoFormat f = g_array_index (formats, GstVideoFormat, i);
    const gchar *name = gst_video_format_to_string (f);
    GstBuffer *in = cf_random_frame (f, 33, 17, 0, i);
    GstBuffer *out = cf_run_one (launch, name, 33, 17, in);

    fail_unless (cf_frames_max_diff (in, out, f, 33, 17) > 0,
        "%s %s: random data unchanged", entry->name, name);
    fail_unless (cf_frames_alpha_equal (in, out, f, 33, 17),
        "%s %s: alpha changed", entry->name, name);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  g_array_unref (formats);
  g_free (launch);
}

GST_END_TEST;

/* The same picture in compact rows and in rows padded through GstVideoMeta
 * gives the same output. */
GST_START_TEST (test_padded_strides)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
    GST_VIDEO_FORMAT_v210
  };
  gchar *launch = cpu_line (entry->props);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    const gchar *name = gst_video_format_to_string (formats[i]);
    GstBuffer *compact = cf_random_frame (formats[i], 31, 13, 0, 7);
    GstBuffer *padded = cf_random_frame (formats[i], 31, 13, 24, 8);
    GstVideoInfo info;
    GstVideoFrame fc, fp;

    gst_video_info_set_format (&info, formats[i], 31, 13);
    fail_unless (gst_video_frame_map (&fc, &info, compact, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fp, &info, padded, GST_MAP_WRITE));
    cf_frame_copy (&fp, &fc);
    gst_video_frame_unmap (&fc);
    gst_video_frame_unmap (&fp);

    GstBuffer *a = cf_run_one (launch, name, 31, 13, compact);
    GstBuffer *b = cf_run_one (launch, name, 31, 13, padded);
    gint diff = cf_frames_max_diff (a, b, formats[i], 31, 13);
    fail_unless (diff == 0, "%s %s: padded rows differ by %d", launch, name,
        diff);
    gst_buffer_unref (compact);
    gst_buffer_unref (padded);
    gst_buffer_unref (a);
    gst_buffer_unref (b);
  }
  g_free (launch);
}

GST_END_TEST;

static void
push_frames (GstHarness * hrn, guint n, guint32 seed)
{
  for (guint i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (hrn,
            cf_random_frame (GST_VIDEO_FORMAT_NV12, 64, 48, 0, seed + i)),
        GST_FLOW_OK);
}

/* One frame in flight, so that every frame is out before the flush comes
 * (element_streaming.c drops frames in flight at a flush). */
GST_START_TEST (test_eos_and_flush_keep_every_frame)
{
  gchar *props = g_strdup_printf ("%s frames-in-flight=1", entry->props);
  gchar *launch = cpu_line (props);
  GstHarness *hrn = cf_harness_new (launch, "NV12", 64, 48);
  GstSegment segment;
  GstEvent *ev;
  gboolean saw_eos = FALSE;

  push_frames (hrn, 10, 0);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (hrn, gst_event_new_flush_stop (TRUE)));
  /* flush-stop resets the segment: send one again before more data */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_segment (&segment)));
  push_frames (hrn, 5, 100);
  fail_unless (gst_harness_push_event (hrn, gst_event_new_eos ()));

  fail_unless_equals_int (gst_harness_buffers_received (hrn), 15);
  while ((ev = gst_harness_try_pull_event (hrn))) {
    saw_eos |= GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (saw_eos, "%s: no EOS", entry->name);
  gst_harness_teardown (hrn);
  g_free (launch);
  g_free (props);
}

GST_END_TEST;

GST_START_TEST (test_state_cycling_and_caps_change)
{
  gchar *launch = cpu_line (entry->props);
  GstHarness *hrn = cf_harness_new (launch, "I420", 32, 32);
  GstBuffer *out;

  for (guint i = 0; i < 3; i++) {
    fail_unless_equals_int (gst_element_set_state (hrn->element,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (hrn->element,
            GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
    gst_harness_set_caps_str (hrn,
        "video/x-raw,format=I420,width=32,height=32,framerate=30/1",
        "video/x-raw,format=I420,width=32,height=32,framerate=30/1");
    out = gst_harness_push_and_pull (hrn,
        cf_random_frame (GST_VIDEO_FORMAT_I420, 32, 32, 0, i));
    fail_unless (out != NULL);
    gst_buffer_unref (out);
  }
  /* A new format and size mid-stream. */
  gst_harness_set_caps_str (hrn,
      "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1",
      "video/x-raw,format=RGBA,width=23,height=5,framerate=30/1");
  out = gst_harness_push_and_pull (hrn,
      cf_random_frame (GST_VIDEO_FORMAT_RGBA, 23, 5, 0, 9));
  fail_unless_equals_int (gst_buffer_get_size (out), 23 * 5 * 4);
  gst_buffer_unref (out);
  gst_harness_teardown (hrn);
  g_free (launch);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_caps_are_refused)
{
  GstCaps *y41b = gst_caps_from_string ("video/x-raw,format=Y41B,width=16,"
      "height=16,framerate=30/1");
  GstCaps *gray = gst_caps_from_string ("video/x-raw,format=GRAY8,width=16,"
      "height=16,framerate=30/1");
  GstElement *el = gst_element_factory_make (entry->name, NULL);
  GstPad *sink = gst_element_get_static_pad (el, "sink");

  fail_if (gst_pad_query_accept_caps (sink, y41b));
  fail_unless (gst_pad_query_accept_caps (sink, gray));
  gst_object_unref (sink);
  gst_object_unref (el);
  gst_caps_unref (y41b);
  gst_caps_unref (gray);
}

GST_END_TEST;

/* Without a device, backend=cuda fails at start with a clear error (with
 * one, test_cuda_backend compares its frames with the CPU's). */
GST_START_TEST (test_cuda_backend_without_gpu_is_an_error)
{
  if (cf_have_gpu ())
    return;
  GstElement *el = gst_element_factory_make (entry->name, NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;

  gst_util_set_object_arg (G_OBJECT (el), "backend", "cuda");
  gst_element_set_bus (el, bus);
  fail_unless_equals_int (gst_element_set_state (el, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "CUDA") != NULL, "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (el, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (el);
}

GST_END_TEST;

GST_START_TEST (test_identity_is_passthrough)
{
  fail_unless (entry->identity[0] != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (entry->identity) && entry->identity[i];
      i++) {
    gchar *launch = cpu_line (entry->identity[i]);
    GstHarness *hrn = cf_harness_new (launch, "RGBA", 16, 8);
    GstBuffer *in = cf_random_frame (GST_VIDEO_FORMAT_RGBA, 16, 8, 0, 1);
    GstBuffer *out = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));

    fail_unless (out == in, "%s did not pass the buffer through", launch);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (hrn);
    g_free (launch);
  }
}

GST_END_TEST;

/* Sets "name=value ..." on the element of @hrn, as gst-launch would. */
static void
set_props (GstHarness * hrn, const gchar * props)
{
  GstElement *el = gst_harness_find_element (hrn, entry->name);
  gchar **settings = g_strsplit (props, " ", -1);

  for (guint i = 0; settings[i]; i++) {
    gchar **kv = g_strsplit (settings[i], "=", 2);

    gst_util_set_object_arg (G_OBJECT (el), kv[0], kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (settings);
  gst_object_unref (el);
}

/* What the element gives for @in with @props (and @more) set from the
 * start. */
static GstBuffer *
static_output (const gchar * props, const gchar * more, GstBuffer * in)
{
  gchar *launch = g_strdup_printf ("%s %s %s backend=cpu", entry->name,
      props, more);
  GstBuffer *out = cf_run_one (launch, "GRAY8", 40, 30, in);

  g_free (launch);
  return out;
}

/* Properties set while PLAYING apply from the next frame, as if they had
 * been set from the start; identity settings then pass buffers through,
 * and setting the change again filters again. */
GST_START_TEST (test_live_property_change)
{
  const GstVideoFormat f = GST_VIDEO_FORMAT_GRAY8;
  const gchar *name = entry->name;
  gchar *launch = cpu_line (entry->live_from);
  GstHarness *hrn = cf_harness_new (launch, "GRAY8", 40, 30);
  GstBuffer *in = cf_random_frame (f, 40, 30, 0, 3);
  GstBuffer *out1 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  GstBuffer *exp1 = static_output (entry->live_from, "", in);

  set_props (hrn, entry->live_to);
  GstBuffer *out2 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  GstBuffer *exp2 = static_output (entry->live_from, entry->live_to, in);

  fail_unless_equals_int (cf_frames_max_diff (out1, exp1, f, 40, 30), 0);
  fail_unless_equals_int (cf_frames_max_diff (out2, exp2, f, 40, 30), 0);
  fail_unless (cf_frames_max_diff (out1, out2, f, 40, 30) > 0,
      "%s: %s changed nothing", name, entry->live_to);

  set_props (hrn, entry->live_identity);
  GstBuffer *out3 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  fail_unless (out3 == in, "%s: %s while playing did not pass through",
      name, entry->live_identity);

  set_props (hrn, entry->live_from);
  set_props (hrn, entry->live_to);
  GstBuffer *out4 = gst_harness_push_and_pull (hrn, gst_buffer_ref (in));
  fail_unless_equals_int (cf_frames_max_diff (out4, exp2, f, 40, 30), 0);

  gst_buffer_unref (out1);
  gst_buffer_unref (out2);
  gst_buffer_unref (out3);
  gst_buffer_unref (out4);
  gst_buffer_unref (exp1);
  gst_buffer_unref (exp2);
  gst_buffer_unref (in);
  gst_harness_teardown (hrn);
  g_free (launch);
}

GST_END_TEST;

/* Whether @v holds what @text says for @spec, as gst-launch reads it. */
static gboolean
value_is (GParamSpec * spec, const GValue * v, const gchar * text)
{
  GValue want = G_VALUE_INIT;
  gboolean same;

  g_value_init (&want, G_PARAM_SPEC_VALUE_TYPE (spec));
  fail_unless (gst_value_deserialize (&want, text), "%s: cannot read \"%s\"",
      spec->name, text);
  same = gst_value_compare (v, &want) == GST_VALUE_EQUAL;
  g_value_unset (&want);
  return same;
}

/* The range of an int or double property, as doubles; FALSE for others. */
static gboolean
numeric_range (GParamSpec * spec, gdouble * min, gdouble * max)
{
  if (G_IS_PARAM_SPEC_INT (spec)) {
    *min = G_PARAM_SPEC_INT (spec)->minimum;
    *max = G_PARAM_SPEC_INT (spec)->maximum;
  } else if (G_IS_PARAM_SPEC_DOUBLE (spec)) {
    *min = G_PARAM_SPEC_DOUBLE (spec)->minimum;
    *max = G_PARAM_SPEC_DOUBLE (spec)->maximum;
  } else {
    return FALSE;
  }
  return TRUE;
}

/* Each property is controllable and mutable while PLAYING, has its range
 * (out-of-range values are clamped by the spec, never stored as is) and
 * default, and keeps a value set on it (or reads it back as it should). */
GST_START_TEST (test_property_ranges)
{
  GstElement *el = gst_element_factory_make (entry->name, NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (el);

  fail_unless (entry->properties[0].name != NULL);
  for (const CfPropertyCase * p = entry->properties; p->name; p++) {
    GParamSpec *spec = g_object_class_find_property (klass, p->name);
    GValue v = G_VALUE_INIT, d = G_VALUE_INIT;
    gdouble min, max;

    fail_unless (spec != NULL, "no property %s", p->name);
    fail_unless (spec->flags & GST_PARAM_CONTROLLABLE, "%s", p->name);
    fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING, "%s", p->name);
    if (numeric_range (spec, &min, &max)) {
      fail_unless_equals_float (min, p->min);
      fail_unless_equals_float (max, p->max);
      g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (spec));
      g_value_init (&d, G_TYPE_DOUBLE);
      g_value_set_double (&d, p->max + 1000.0);
      fail_unless (g_value_transform (&d, &v));
      fail_unless (g_param_value_validate (spec, &v), "%s", p->name);
      fail_unless (g_value_transform (&v, &d));
      fail_unless_equals_float (g_value_get_double (&d), p->max);
      g_value_unset (&v);
      g_value_unset (&d);
    }
    if (p->default_value)
      fail_unless (value_is (spec, g_param_spec_get_default_value (spec),
              p->default_value), "%s: default not %s", p->name,
          p->default_value);
    if (p->value) {
      const gchar *reads = p->reads ? p->reads : p->value;

      gst_util_set_object_arg (G_OBJECT (el), p->name, p->value);
      g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (spec));
      g_object_get_property (G_OBJECT (el), p->name, &v);
      fail_unless (value_is (spec, &v, reads), "%s: set %s, read %s, not %s",
          p->name, p->value, gst_value_serialize (&v), reads);
      g_value_unset (&v);
    }
  }
  gst_object_unref (el);
}

GST_END_TEST;

const gchar *const cf_cuda_test_formats[] = { "RGBA", "NV12", "I420",
  "GRAY16_LE", "GRAY8", "AYUV", "Y444_16LE", "BGR", "P010_10LE", "I420_10LE",
  "Y444_10LE", "YUY2", "UYVY", "v210", NULL
};

/* With a device, backend=cuda gives the CPU's frames within each
 * variant's tolerance (in the formats cf_test_format_wanted keeps). */
GST_START_TEST (test_cuda_backend)
{
  static const CfSize default_sizes[] = { {1, 1}, {7, 3}, {4097, 9},
  {640, 361}, {0}
  };
  const gchar *const *formats = entry->cuda_formats ? entry->cuda_formats :
      cf_cuda_test_formats;
  const CfSize *sizes = entry->cuda_sizes ? entry->cuda_sizes : default_sizes;
  guint last = 0;

  if (!cf_have_gpu ())
    return;                     /* the test above checks the error */
  while (sizes[last + 1].width)
    last++;
  for (guint i = 0; formats[i]; i++)
    for (guint s = 0; s <= last; s++) {
      gint w = sizes[s].width, h = sizes[s].height;
      gint max_diff;
      gchar *props;

      if (!cf_test_format_wanted (formats[i]))
        continue;
      for (guint k = 0; (props = entry->cuda_props (i, s, k, &max_diff)); k++) {
        gint diff = cf_cuda_vs_cpu (entry->name, props, formats[i],
            w, h, s == last ? 40 : 0, i);

        fail_unless (diff <= max_diff, "%s %s %dx%d: CUDA and CPU differ by "
            "%d, more than %d", props, formats[i], w, h, diff, max_diff);
        g_free (props);
      }
    }
}

GST_END_TEST;

/* Interlaced frames: each field filtered on its own (element_fields.c). */
GST_START_TEST (test_fields_filtered_apart)
{
  cf_check_fields (entry);
}

GST_END_TEST;

const CfElementTest *
cf_harness_entry (void)
{
  return entry;
}

Suite *
cf_element_suite (const CfElementTest * e, ...)
{
  Suite *s = suite_create (e->name);
  TCase *tc = tcase_create ("every element"), *own = tcase_create (e->name);
  TCase *cuda = tcase_create ("cuda against cpu");
  TFun test;
  va_list tests;

  entry = e;
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_reference_at_odd_sizes);
  tcase_add_test (tc, test_every_template_format);
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_eos_and_flush_keep_every_frame);
  tcase_add_test (tc, test_state_cycling_and_caps_change);
  tcase_add_test (tc, test_unsupported_caps_are_refused);
  tcase_add_test (tc, test_cuda_backend_without_gpu_is_an_error);
  tcase_add_test (tc, test_identity_is_passthrough);
  tcase_add_test (tc, test_live_property_change);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_fields_filtered_apart);
  cf_add_region_tests (tc);
  /* two pipelines per format, size and variant (about 200 on a GPU), each
   * with its own CUDA start: minutes, not CK_DEFAULT_TIMEOUT's two */
  tcase_set_timeout (cuda, 900);
  tcase_add_test (cuda, test_cuda_backend);
  cf_add_random_test (s);
  suite_add_tcase (s, cuda);
  suite_add_tcase (s, own);
  va_start (tests, e);
  while ((test = va_arg (tests, TFun)))
    _tcase_add_test (own, test, va_arg (tests, const gchar *), 0, 0, 0, 1);
  va_end (tests);
  return s;
}
