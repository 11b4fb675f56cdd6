/* Two-input elements (a side pad: cudasatblur's radius_sink,
 * cudabilateral's guide_sink): the checks every one of them must pass,
 * on the CPU backend, through two GstHarness on one element (one on the
 * main sink pad and the source pad, one on the side pad):
 *   - frames paired with side frames by running time (the newest at or
 *     before the frame's time; a slower side stream reused; a frame
 *     earlier than every side frame takes the first);
 *   - a frame waits for its side frame, and a flush or a state change to
 *     NULL ends that wait (no hang); radius-wait / guide-wait=false never
 *     waits;
 *   - side EOS keeps the last side frame; main EOS goes downstream and the
 *     side pad then answers GST_FLOW_EOS;
 *   - side caps of another size refused (not negotiated, an error message
 *     naming both sizes);
 *   - no side pad, or none before the first side frame: the element's
 *     output without a side stream;
 *   - the latency query: the larger of the two streams' minimum;
 *   - a region of interest: inside, the whole frame's output.
 * Every output is compared, exactly, with the element's reference for its
 * frame and side frame. */
#ifndef CF_ELEMENT_SIDE_H
#define CF_ELEMENT_SIDE_H

#include "element_util.h"

typedef struct
{
  const gchar *launch;          /* element and properties, backend=cpu */
  const gchar *no_wait;         /* the property that never waits */
  const gchar *pad;             /* the side pad's name */
  const gchar *format;          /* of the frames */
  const gchar *side_format;     /* of the side frames */
  gint width, height;
  /* The expected output for @in with the side frame @side (NULL: none). */
  GstBuffer *(*expected) (GstBuffer * in, GstBuffer * side);
} CfSideTest;

void cf_side_check_pairing (const CfSideTest * t);
void cf_side_check_wait_and_flush (const CfSideTest * t);
void cf_side_check_eos (const CfSideTest * t);
void cf_side_check_caps_refused (const CfSideTest * t);
void cf_side_check_without_side (const CfSideTest * t);
/* The side stream's upstream latency combined with the frames' (both
 * live: the larger minimum). */
void cf_side_check_latency (const CfSideTest * t);
/* Within a region of interest (roi-*) the output is the whole frame's
 * with the same side frame (the side plane offset to the region's view,
 * chroma planes too), outside it the input. */
void cf_side_check_region (const CfSideTest * t);

#endif /* CF_ELEMENT_SIDE_H */
