/* The element-test harness: the cases every cudafilters element must pass,
 * written once. An element's test file describes the element in a
 * CfElementTest (its entry: settings, its reference, property ranges, the
 * CUDA comparison) and builds its suite with cf_element_suite (), which
 * holds the shared cases; the file adds only the tests of its own:
 *
 *   - the reference at odd sizes, exactly, in both border modes
 *   - every template format (frames changed, alpha untouched)
 *   - padded strides (GstVideoMeta) give the compact rows' output
 *   - EOS and flush keep every frame; state cycling; caps change
 *   - unsupported caps refused; backend=cuda an error without a GPU
 *   - identity settings pass buffers through
 *   - properties changed while PLAYING apply from the next frame
 *   - property ranges, flags, defaults, values set and read back
 *   - with a GPU, the CUDA backend against the CPU one
 *   - regions of interest (roi-*, metas) and the value gate (gate-*):
 *     outside, the input; inside, the whole frame's output
 *
 * CPU backend everywhere; the CUDA comparison where a GPU is. */
#ifndef CF_ELEMENT_HARNESS_H
#define CF_ELEMENT_HARNESS_H

#include "element_util.h"

/* What the reference needs to know of a plane beyond its samples, as the
 * base class tells an element's filter_plane. */
typedef struct
{
  guint index;                  /* plane number in the frame */
  guint w_sub, h_sub;           /* log2 of its subsampling */
  guint channel_mask;           /* its colour channels: not alpha, padding */
  CfBorder border;
} CfRefPlane;

/* The element's reference: filters plane @plane of a frame (src into dst)
 * for @params, as the element would; a plane it leaves alone stays a copy
 * of the input. */
typedef CfStatus (*CfPlaneReference) (const CfPlane * src, const CfPlane * dst,
    const CfRefPlane * plane, gconstpointer params);

/* Element properties, and what the reference gets for them. */
typedef struct
{
  const gchar *props;
  gconstpointer params;
} CfRefCase;

/* A property and what it must be. */
typedef struct
{
  const gchar *name;
  gdouble min, max;             /* int and double properties: the range */
  const gchar *value;           /* set, then read back */
  const gchar *default_value;   /* NULL: not checked */
  const gchar *reads;           /* what value reads back as (NULL: value) */
} CfPropertyCase;

typedef struct
{
  gint width, height;
} CfSize;

typedef struct
{
  const gchar *name;
  const gchar *props;           /* settings that change every frame */
  const gchar *identity[3];     /* settings that pass buffers through */
  /* A live change: the first frame's settings, those set while PLAYING,
   * then identity settings set while PLAYING. */
  const gchar *live_from, *live_to, *live_identity;

  /* The reference at odd sizes: each case in each format at each size,
   * in both border modes, equal to what @reference makes. */
  CfPlaneReference reference;
  const CfRefCase *ref_cases;   /* ends with {NULL} */
  const gchar *const *ref_formats;      /* ends with NULL */
  const CfSize *ref_sizes;      /* ends with {0, 0} */

  const CfPropertyCase *properties;     /* ends with {NULL} */

  /* With a GPU, backend=cuda against backend=cpu, in each format at each
   * size (the last with rows padded by 40 bytes): the settings of variant
   * @k (0, 1... until NULL, freed by the caller) and the largest
   * difference allowed. */
  const gchar *const *cuda_formats;     /* ends with NULL; NULL: the
                                         * formats of cf_cuda_test_formats */
  const CfSize *cuda_sizes;     /* ends with {0, 0}; NULL: 1x1, 7x3,
                                 * 4097x9, 640x361 */
  gchar *(*cuda_props) (guint format, guint size, guint k, gint * max_diff);

  /* With a GPU, random cases of backend=cuda against backend=cpu
   * (element_random.c): appends random settings of the element for a
   * frame of @format to @props, and sets the largest difference allowed. */
  void (*random_props) (GRand * rand, GstVideoFormat format, GString * props,
      gint * max_diff);
} CfElementTest;

/* The formats the CUDA-against-CPU case runs in unless an entry names its
 * own: every plane layout and depth of the templates (packed 3 and 4
 * channels, semi-planar and planar chroma, 8, 10 and 16 bits). */
extern const gchar *const cf_cuda_test_formats[];

/* The suite of an element: the shared cases for @entry (which must
 * outlive the suite), then the element's own tests, each given as
 * CF_OWN_TEST (name of its GST_START_TEST), then NULL. */
Suite *
cf_element_suite (const CfElementTest * entry, ...)
    G_GNUC_NULL_TERMINATED;
#define CF_OWN_TEST(test) (test), #test

/* The entry of the suite being run, for the shared cases in other files. */
const CfElementTest *cf_harness_entry (void);

/* The shared cases of regions of interest and the value gate
 * (element_regions.c). */
void cf_add_region_tests (TCase * tc);

/* The random cases of backend=cuda against backend=cpu, a test case of
 * their own, "random cuda against cpu" (element_random.c). */
void cf_add_random_test (Suite * s);

/* Whether plane @p of @a and @b (of the given format and size) holds the
 * same samples. */
     gboolean cf_planes_equal (GstBuffer * a, GstBuffer * b,
    GstVideoFormat format, gint width, gint height, guint p);

/* A radius on a plane subsampled by 2^@sub, rounded up so that a
 * subsampled plane is filtered wherever the full one is: how every element
 * scales its radii. */
     gint cf_ref_radius (gint radius, guint sub);

/* A spatial sigma and its radius (0: @default_radius of the scaled sigma)
 * on a plane subsampled by 2^@sub. */
     void cf_ref_axis (gdouble sigma, gint radius, guint sub,
    gint (*default_radius) (gdouble sigma), gdouble * sigma_out,
    gint * radius_out);

/* @in (of the given format and size) filtered plane by plane by
 * @reference, in a new buffer. */
     GstBuffer *cf_reference_frame (GstBuffer * in, GstVideoFormat format,
    gint width, gint height, CfBorder border, CfPlaneReference reference,
    gconstpointer params);

/* For a packed 4:2:2 frame (YUY2, UYVY, YVYU, v210): @fout (a copy of
 * @fin) filtered by @reference as a luma plane and an interleaved chroma
 * plane of half the width, and TRUE; FALSE for other formats
 * (element_packed.c). */
     gboolean cf_reference_packed (GstVideoFrame * fin, GstVideoFrame * fout,
    CfBorder border, CfPlaneReference reference, gconstpointer params);

/* Runs "@element @props backend=cpu" on a random frame and checks that it
 * equals the reference for @params, exactly. */
     void cf_check_reference (const gchar * element, const gchar * props,
    GstVideoFormat format, gint width, gint height, CfBorder border,
    CfPlaneReference reference, gconstpointer params, guint32 seed);

/* Interlaced frames through @e (its first reference case that filters
 * across rows): interleaved and mixed-flagged frames filtered field by
 * field, exactly as the reference filters each field alone; mixed frames
 * not flagged filtered whole (element_fields.c). */
     void cf_check_fields (const CfElementTest * e);

#endif /* CF_ELEMENT_HARNESS_H */
