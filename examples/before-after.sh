#!/usr/bin/env bash
# Writes one PNG with the input on the left and the filtered frame on the
# right, for the docs and as a quick look at what an element does.
#
#   examples/before-after.sh OUT.png "cudagaussianblur sigma=3" [SOURCE]
#
# SOURCE is a gst-launch fragment producing raw video (default: a test
# pattern). The element runs on the GPU where there is one, else on the CPU
# reference. GST_PLUGIN_PATH must find the plugin (run.sh sets it).
set -euo pipefail
out=${1:?usage: before-after.sh OUT.png "ELEMENT PROPS" [SOURCE]}
filter=${2:?usage: before-after.sh OUT.png "ELEMENT PROPS" [SOURCE]}
source=${3:-"videotestsrc pattern=smpte num-buffers=1 ! video/x-raw,format=RGBA,width=480,height=270"}
# The right half starts where the left one ends: the source's width.
width=$(sed -n 's/.*width=\([0-9]*\).*/\1/p' <<<"$source")
width=${width:-480}

gst-launch-1.0 -q compositor name=mix background=black sink_1::xpos="$width" ! \
  videoconvert ! pngenc snapshot=true ! filesink location="$out" \
  $source ! tee name=t \
  t. ! queue ! videoconvert ! mix.sink_0 \
  t. ! queue ! $filter ! videoconvert ! mix.sink_1
echo "wrote $out (left: input, right: $filter)"
