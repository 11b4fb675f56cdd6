#!/usr/bin/env bash
# Every picture in the docs, from the commands below (docs say which file
# comes from which line). Needs GST_PLUGIN_PATH to find the plugin.
#   examples/pictures.sh OUTDIR
set -euo pipefail
out=${1:-docs/img}
mkdir -p "$out"
here=$(dirname "$0")
have() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

have cudagaussianblur && {
  "$here/before-after.sh" "$out/cudagaussianblur.png" "cudagaussianblur sigma=3"
  "$here/before-after.sh" "$out/cudagaussianblur-sharpen.png" "cudagaussianblur sigma=-2" \
    "videotestsrc pattern=pinwheel num-buffers=1 ! video/x-raw,format=RGBA,width=480,height=270 ! cudagaussianblur sigma=1.5"
}
have cudamedian && "$here/before-after.sh" "$out/cudamedian.png" "cudamedian size=5" \
  "videotestsrc pattern=smpte num-buffers=1 ! video/x-raw,format=GRAY8,width=480,height=270"
have cudasatblur && {
  "$here/before-after.sh" "$out/cudasatblur-1.png" "cudasatblur radius-x=8 radius-y=8 passes=1"
  "$here/before-after.sh" "$out/cudasatblur-3.png" "cudasatblur radius-x=8 radius-y=8 passes=3"
}
have cudabilateral && "$here/before-after.sh" "$out/cudabilateral.png" "cudabilateral"
# The ultrasound chain (examples/ultrasound.sh): one synthetic B-mode frame,
# input | cudamedian size=5 ! cudabilateral.
have cudamedian && have cudabilateral && {
  us=$(mktemp -d)
  "$here/ultrasound.sh" -n 1 -p "$out/ultrasound.png" "$us" >/dev/null
  rm -rf "$us"
}
true
