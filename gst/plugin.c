/* The cudafilters plugin: registers every element. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudagaussianblur.h"
#include "gstcudabilateral.h"
#include "gstcudamedian.h"
#include "gstcudasatblur.h"
#include "gstcudaconvolve.h"
#include "gstcudatemporaldenoise.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = FALSE;

  ok |= GST_ELEMENT_REGISTER (cudagaussianblur, plugin);
  ok |= GST_ELEMENT_REGISTER (cudabilateral, plugin);
  ok |= GST_ELEMENT_REGISTER (cudamedian, plugin);
  ok |= GST_ELEMENT_REGISTER (cudasatblur, plugin);
  ok |= GST_ELEMENT_REGISTER (cudaconvolve, plugin);
  ok |= GST_ELEMENT_REGISTER (cudatemporaldenoise, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudafilters,
    "Video filters on NVIDIA GPUs through CUDA: Gaussian, bilateral, median, "
    "summed-area-table box blur, general convolution and temporal "
    "denoising", plugin_init,
    VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
