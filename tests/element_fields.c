/* Interlaced video through an element (element_harness.h): each field of
 * an interleaved frame (or of a mixed-mode frame flagged interlaced) is
 * filtered as a picture of its own, never mixed with the other; a
 * mixed-mode frame not flagged is filtered whole; an alternate buffer
 * (where the element's template takes format:Interlaced caps) is one
 * field, filtered as it comes. The reference runs on each field copied out
 * as a frame of half the height. With a device, the interleaved case runs
 * on the CUDA backend too (packed 4:2:2 and v210 included), within the
 * element's CUDA-against-CPU tolerance. */
#include "element_harness.h"

void
cf_copy_field (GstVideoFrame * frame, GstVideoFrame * field, guint p, guint f,
    gboolean to_field)
{
  CfPlane whole = cf_frame_plane (frame, p), half = cf_frame_plane (field, p);
  gsize bytes = cf_frame_row_bytes (frame, p);

  for (gint y = 0; y < half.height && 2 * y + (gint) f < whole.height; y++) {
    guint8 *a = (guint8 *) whole.data + (2 * y + f) * whole.stride;
    guint8 *b = (guint8 *) half.data + y * half.stride;

    memcpy (to_field ? b : a, to_field ? a : b, bytes);
  }
}

/* @in (@format, @width x @height, @height a multiple of 4 so that a field
 * of a 4:2:0 frame is a 4:2:0 frame) filtered field by field by the
 * reference for @params. */
static GstBuffer *
reference_by_field (const CfElementTest * e, gconstpointer params,
    GstBuffer * in, GstVideoFormat format, gint width, gint height)
{
  GstVideoInfo info, finfo;
  GstVideoFrame fin, fout;
  GstBuffer *out;

  gst_video_info_set_format (&info, format, width, height);
  gst_video_info_set_format (&finfo, format, width, height / 2);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_WRITE));
  for (guint f = 0; f < 2; f++) {
    GstBuffer *field_in = gst_buffer_new_allocate (NULL, finfo.size, NULL);
    GstBuffer *field_out;
    GstVideoFrame ff;

    fail_unless (gst_video_frame_map (&ff, &finfo, field_in, GST_MAP_WRITE));
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
      cf_copy_field (&fin, &ff, p, f, TRUE);
    gst_video_frame_unmap (&ff);
    field_out = cf_reference_frame (field_in, format, width, height / 2,
        CF_BORDER_CLAMP, e->reference, params);
    fail_unless (gst_video_frame_map (&ff, &finfo, field_out, GST_MAP_READ));
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
      cf_copy_field (&fout, &ff, p, f, FALSE);
    gst_video_frame_unmap (&ff);
    gst_buffer_unref (field_in);
    gst_buffer_unref (field_out);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return out;
}

/* Runs the element with @props on @in with caps of interlace-mode @mode
 * (cf_run_interlaced), on @backend. */
static GstBuffer *
run_interlaced_on (const CfElementTest * e, const gchar * props,
    const gchar * mode, GstVideoFormat format, gint width, gint height,
    GstBuffer * in, const gchar * backend)
{
  gchar *launch = g_strdup_printf ("%s %s border-mode=clamp backend=%s",
      e->name, props, backend);
  GstBuffer *out = cf_run_interlaced (launch, mode,
      gst_video_format_to_string (format), width, height, in);

  g_free (launch);
  return out;
}

static GstBuffer *
run_interlaced (const CfElementTest * e, const gchar * props,
    const gchar * mode, GstVideoFormat format, gint width, gint height,
    GstBuffer * in)
{
  return run_interlaced_on (e, props, mode, format, width, height, in, "cpu");
}

/* The difference the element's CUDA-against-CPU case allows in @format
 * (its first variant's; 0 without one). */
static gint
cuda_tolerance (const CfElementTest * e, const gchar * format)
{
  const gchar *const *formats = e->cuda_formats ? e->cuda_formats :
      cf_cuda_test_formats;
  guint i = 0;
  gint max_diff = 0;

  if (!e->cuda_props)
    return 0;
  while (formats[i] && g_strcmp0 (formats[i], format) != 0)
    i++;
  g_free (e->cuda_props (formats[i] ? i : 0, 0, 0, &max_diff));
  return max_diff;
}

/* Whether @element's sink template takes alternate (one field a buffer)
 * video: caps with the format:Interlaced feature. */
static gboolean
takes_alternate (const gchar * element)
{
  GstElementFactory *f = gst_element_factory_find (element);
  gboolean takes = FALSE;

  fail_unless (f != NULL);
  for (const GList * l = gst_element_factory_get_static_pad_templates (f); l;
      l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps = gst_static_caps_get (&t->static_caps);

    for (guint i = 0; t->direction == GST_PAD_SINK
        && i < gst_caps_get_size (caps); i++)
      takes |= gst_caps_features_contains (gst_caps_get_features (caps, i),
          GST_CAPS_FEATURE_FORMAT_INTERLACED);
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  return takes;
}

/* interlace-mode=alternate: a buffer is one field (half the height), a
 * picture of its own, filtered as it comes. */
static void
check_alternate (const CfElementTest * e, const CfRefCase * c,
    GstVideoFormat format, gint width, gint height)
{
  GstBuffer *in = cf_random_frame (format, width, height / 2, 0, 77);
  GstBuffer *exp = cf_reference_frame (in, format, width, height / 2,
      CF_BORDER_CLAMP, e->reference, c->params);
  GstBuffer *out, *plain;
  GstVideoInfo alt, half;

  /* only where a field buffer is laid out as a progressive frame of half
   * the height (GRAY8, P010_10LE: GStreamer pads 4:2:0 planar fields) */
  gst_video_info_set_interlaced_format (&alt, format,
      GST_VIDEO_INTERLACE_MODE_ALTERNATE, width, height);
  gst_video_info_set_format (&half, format, width, height / 2);
  if (alt.size != half.size || memcmp (alt.offset, half.offset,
          sizeof alt.offset) != 0) {
    gst_buffer_unref (in);
    gst_buffer_unref (exp);
    return;
  }
  GST_BUFFER_FLAG_SET (in, GST_VIDEO_BUFFER_FLAG_TOP_FIELD);
  out = run_interlaced (e, c->props, "alternate", format, width, height, in);
  /* compared as a progressive frame of the field's size (its layout):
   * the memory without the alternate GstVideoMeta */
  plain = gst_buffer_new ();
  fail_unless (gst_buffer_copy_into (plain, out, GST_BUFFER_COPY_MEMORY, 0,
          -1));
  gst_buffer_unref (out);
  out = plain;
  fail_unless (cf_frames_max_diff (out, exp, format, width, height / 2) == 0,
      "%s %s alternate: not the field filtered as a picture", e->name,
      gst_video_format_to_string (format));
  gst_buffer_unref (in);
  gst_buffer_unref (exp);
  gst_buffer_unref (out);
}

void
cf_check_fields (const CfElementTest * e)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_v210
  };
  const gint w = 33, h = 20;

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    const gchar *name = gst_video_format_to_string (formats[i]);
    GstBuffer *in = cf_random_frame (formats[i], w, h, 0, 40 + i);
    GstBuffer *fields = NULL, *whole = NULL, *out;
    const CfRefCase *c = e->ref_cases;

    /* the first case that filters across rows: its fields differ from
     * the whole frame's filtering, so the test means something */
    for (; c->props; c++) {
      fields = reference_by_field (e, c->params, in, formats[i], w, h);
      whole = cf_reference_frame (in, formats[i], w, h, CF_BORDER_CLAMP,
          e->reference, c->params);
      if (cf_frames_max_diff (fields, whole, formats[i], w, h) > 0)
        break;
      gst_buffer_unref (fields);
      gst_buffer_unref (whole);
    }
    fail_unless (c->props != NULL, "%s: no case of %s filters fields and "
        "frame apart", name, e->name);

    out = run_interlaced (e, c->props, "interleaved", formats[i], w, h, in);
    fail_unless (cf_frames_max_diff (out, fields, formats[i], w, h) == 0,
        "%s %s interleaved: not filtered by field", e->name, name);
    gst_buffer_unref (out);
    /* with a device, the CUDA backend splits the fields the same way */
    if (cf_have_gpu ()) {
      gint diff, tolerance = cuda_tolerance (e, name);

      out = run_interlaced_on (e, c->props, "interleaved", formats[i], w, h,
          in, "cuda");
      diff = cf_frames_max_diff (out, fields, formats[i], w, h);
      GST_INFO ("%s %s interleaved on CUDA: max diff %d", e->name, name, diff);
      fail_unless (diff <= tolerance, "%s %s interleaved on CUDA: differs "
          "from the fields filtered apart by %d, more than %d", e->name, name,
          diff, tolerance);
      gst_buffer_unref (out);
    }

    /* mixed: only a buffer flagged interlaced has fields */
    out = run_interlaced (e, c->props, "mixed", formats[i], w, h, in);
    fail_unless (cf_frames_max_diff (out, whole, formats[i], w, h) == 0,
        "%s %s mixed, not flagged interlaced: not filtered whole", e->name,
        name);
    gst_buffer_unref (out);
    in = gst_buffer_make_writable (in);
    GST_BUFFER_FLAG_SET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED);
    out = run_interlaced (e, c->props, "mixed", formats[i], w, h, in);
    fail_unless (cf_frames_max_diff (out, fields, formats[i], w, h) == 0,
        "%s %s mixed, flagged interlaced: not filtered by field", e->name,
        name);
    gst_buffer_unref (out);
    if (takes_alternate (e->name))
      check_alternate (e, c, formats[i], w, h);
    gst_buffer_unref (in);
    gst_buffer_unref (fields);
    gst_buffer_unref (whole);
  }
}
