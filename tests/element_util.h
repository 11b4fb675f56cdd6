/* Helpers for the gst-check element tests: random frames (optionally with
 * padded strides described by GstVideoMeta), plane access, comparisons. */
#ifndef CF_ELEMENT_UTIL_H
#define CF_ELEMENT_UTIL_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cf_types.h"

/* The formats of the pad templates, as GstVideoFormat values. */
GArray *cf_template_formats (const gchar * element);

/* A harness around `launch` (e.g. "cudagaussianblur sigma=2 backend=cpu")
 * with fixed caps of the given format and size on both sides. */
GstHarness *cf_harness_new (const gchar * launch, const gchar * format,
    gint width, gint height);

/* A frame of random bytes; with pad > 0, each plane's stride is padded by
 * pad bytes and a GstVideoMeta describes the layout. */
GstBuffer *cf_random_frame (GstVideoFormat format, gint width, gint height,
    guint pad, guint32 seed);

/* Plane `p` of a mapped frame as a CfPlane (host memory). */
CfPlane cf_frame_plane (GstVideoFrame * frame, guint p);

/* The bytes of a row of plane @p of @frame that hold its pixels. */
gsize cf_frame_row_bytes (GstVideoFrame * frame, guint p);

/* Copies the rows of every plane of @src into @dst (of the same format and
 * size), cf_frame_row_bytes () each: unlike gst_video_frame_copy (), the
 * whole of an odd width's last YUY2 pair too. */
void cf_frame_copy (GstVideoFrame * dst, GstVideoFrame * src);

/* Largest per-sample difference between two buffers of the same format
 * (strides may differ), over the samples of the channels in `mask` of each
 * plane (all when mask is 0). v210: over every 10-bit field of the row's
 * groups, and 1024 where the unused top bits of a word differ; YUY2, UYVY,
 * YVYU: over every byte of the row's pairs. */
gint cf_frames_max_diff (GstBuffer * a, GstBuffer * b, GstVideoFormat format,
    gint width, gint height);

/* Whether the alpha samples of two buffers are identical. */
gboolean cf_frames_alpha_equal (GstBuffer * a, GstBuffer * b,
    GstVideoFormat format, gint width, gint height);

/* Pushes `in` through a harness around `launch` (caps of the given format
 * and size) and returns the one buffer that comes out. */
GstBuffer *cf_run_one (const gchar * launch, const gchar * format, gint width,
    gint height, GstBuffer * in);

/* The same with caps of interlace-mode `mode` (alternate: with the
 * format:Interlaced feature, `in` one field). */
GstBuffer *cf_run_interlaced (const gchar * launch, const gchar * mode,
    const gchar * format, gint width, gint height, GstBuffer * in);

/* Largest difference between `element props backend=cuda` and the same on
 * the CPU, on one random frame (rows padded by `pad` bytes). */
gint cf_cuda_vs_cpu (const gchar * element, const gchar * props,
    const gchar * format, gint width, gint height, guint pad, guint32 seed);

/* Whether a test that runs through a list of formats runs @format: yes,
 * unless CF_TEST_FORMATS (formats separated by commas) is set and does not
 * name it (a GPU run short of time). */
gboolean cf_test_format_wanted (const gchar * format);

/* Whether a CUDA device is present (element tests then also run the CUDA
 * backend against the CPU one). */
gboolean cf_have_gpu (void);

/* Gives element @name of @bin a CUDA context of its own on device 0 (a
 * GstContext set on it), as an element on another device, or one an
 * application keeps apart, has. Needs a GPU. */
void cf_set_own_cuda_context (GstElement * bin, const gchar * name);

/* A packed 4:2:2 frame's samples (YUY2, UYVY, YVYU, v210; element_packed.c)
 * as a luma plane and an interleaved chroma plane of half the width (as
 * NV16's or P210's, 10-bit samples in 16 bits for v210), in new memory
 * (cf_packed_free), and TRUE; FALSE for other formats. */
gboolean cf_packed_unpack (GstVideoFrame * frame, CfPlane planes[2]);

/* Writes the samples of @planes (as cf_packed_unpack made them) into the
 * packed rows of @frame, leaving every bit that is no pixel's sample. */
void cf_packed_pack (CfPlane planes[2], GstVideoFrame * frame);

void cf_packed_free (CfPlane planes[2]);

/* Rows @f, @f + 2... of plane @p of @frame copied to (@to_field) or from
 * plane @p of @field, a frame of half the height (element_fields.c). */
void cf_copy_field (GstVideoFrame * frame, GstVideoFrame * field, guint p,
    guint f, gboolean to_field);

/* Fails unless @out is @in outside @rect (frame pixels, scaled outward on
 * a subsampled plane; a packed 4:2:2 frame's luma and pairs' chroma as
 * planes) and @full inside it, exactly; returns how many samples are
 * inside (element_regions.c). */
gint64 cf_check_rect (GstBuffer * in, GstBuffer * full, GstBuffer * out,
    GstVideoFormat format, gint width, gint height,
    const GstVideoRectangle * rect, const gchar * what);

/* Random cases (element_random.c). A random frame size: mostly small (the
 * CPU reference runs every case), one in eight wide or tall, one in eight
 * tiny. */
void cf_random_size (GRand * r, gint * width, gint * height);

/* Appends the base class's random settings to @s: border, frames in
 * flight, and in one case of five a region of interest, in one of five a
 * value gate. */
void cf_random_base_props (GString * s, GRand * r, GstVideoFormat format,
    gint width, gint height);

/* The unsigned value of environment variable @name, or @fallback. */
guint cf_env_uint (const gchar * name, guint fallback);

#endif /* CF_ELEMENT_UTIL_H */
