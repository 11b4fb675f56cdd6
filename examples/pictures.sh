#!/usr/bin/env bash
# The docs' pictures that come from scripts (docs/examples.md says which
# file comes from which line), written into OUTDIR: docs/img refreshes
# them. Needs GST_PLUGIN_PATH to find the plugin.
#   examples/pictures.sh OUTDIR
set -euo pipefail
out=${1:?usage: pictures.sh OUTDIR (docs/img refreshes the docs pictures)}
mkdir -p "$out"
here=$(dirname "$0")
have() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

have cudagaussianblur && {
  "$here/before-after.sh" "$out/cudagaussianblur.png" "cudagaussianblur sigma=3"
  "$here/before-after.sh" "$out/cudagaussianblur-sharpen.png" "cudagaussianblur sigma=-2" \
    "videotestsrc pattern=pinwheel num-buffers=1 ! video/x-raw,format=RGBA,width=480,height=270 ! cudagaussianblur sigma=1.5"
}
have cudasatblur && {
  "$here/before-after.sh" "$out/cudasatblur-1.png" "cudasatblur radius-x=8 radius-y=8 passes=1"
  "$here/before-after.sh" "$out/cudasatblur-3.png" "cudasatblur radius-x=8 radius-y=8 passes=3"
}
# Tilt-shift: a sharp band, the radius growing away from it.
have cudasatblur && "$here/before-after.sh" "$out/cudasatblur-tilt-shift.png" \
  "cudasatblur radius-x=8 radius-y=8 passes=2 focus=band focus-y=0.6 focus-height=0.1 focus-ramp=60 focus-angle=-8" \
  "videotestsrc pattern=pinwheel num-buffers=1 ! video/x-raw,format=RGBA,width=480,height=270"
# Privacy masking: the "face" regions of ROI metas blurred, the "plate" one
# left alone (examples/privacy-blur.c tags the frames).
pb=${PRIVACY_BLUR:-$here/../build/examples/privacy-blur}
have cudagaussianblur && [ -x "$pb" ] && "$pb" --frames 1 --output "$out/privacy-blur.png"
# The gate on an ultrasound frame: input | cudabilateral | the same gated
# to the dark values (seed 004's shadow areas: bright tissue stays sharp).
have cudabilateral && {
  us=$(mktemp -d)
  gen=${US_SPECKLE:-$here/../build/examples/us-speckle}
  [ -x "$gen" ] || { gen=$us/us-speckle; cc -O2 -o "$gen" "$here/us-speckle.c" -lm; }
  "$gen" -W 512 -H 384 -n 1 -o "$us/in.raw"
  raw="filesrc location=$us/in.raw ! rawvideoparse format=gray16-le width=512 height=384 framerate=1/1"
  bl="cudabilateral sigma-space=3 sigma-range=0.15"
  gst-launch-1.0 -q compositor name=mix background=black sink_1::xpos=512 \
    sink_2::xpos=1024 ! videoconvert ! pngenc snapshot=true ! \
    filesink location="$out/cudabilateral-gate.png" $raw ! tee name=t \
    t. ! queue ! videoconvert ! mix.sink_0 t. ! queue ! $bl ! videoconvert ! mix.sink_1 \
    t. ! queue ! $bl gate-min=1 gate-max=32000 ! videoconvert ! mix.sink_2
  echo "wrote $out/cudabilateral-gate.png (input | $bl | gate-min=1 gate-max=32000)"
  rm -rf "$us"
}
# One picture per cudaconvolve preset (small frames: quick on the CPU).
have cudaconvolve && {
  gray="videotestsrc pattern=pinwheel num-buffers=1 ! video/x-raw,format=GRAY8,width=320,height=180"
  "$here/before-after.sh" "$out/cudaconvolve-sharpen.png" "cudaconvolve preset=sharpen" \
    "videotestsrc pattern=pinwheel num-buffers=1 ! video/x-raw,format=RGBA,width=320,height=180 ! cudagaussianblur sigma=1"
  for p in laplacian sobel-x sobel-y; do
    "$here/before-after.sh" "$out/cudaconvolve-$p.png" "cudaconvolve preset=$p" "$gray"
  done
  "$here/before-after.sh" "$out/cudaconvolve-emboss.png" "cudaconvolve preset=emboss" \
    "videotestsrc pattern=smpte num-buffers=1 ! video/x-raw,format=I420,width=320,height=180"
  "$here/before-after.sh" "$out/cudaconvolve-box.png" "cudaconvolve preset=box" \
    "videotestsrc pattern=snow num-buffers=1 ! video/x-raw,format=GRAY8,width=320,height=180"
}
# The ultrasound chain (examples/ultrasound.sh): one synthetic B-mode frame,
# input | cudamedian size=5 ! cudabilateral.
have cudamedian && have cudabilateral && {
  us=$(mktemp -d)
  "$here/ultrasound.sh" -n 1 -p "$out/ultrasound.png" "$us" >/dev/null
  echo "wrote $out/ultrasound.png (left: input, right: cudamedian ! cudabilateral)"
  rm -rf "$us"
}
# cudatemporaldenoise: the last frame of a synthetic sequence with noise of
# sigma 25 (noisy | best bilateral | temporal with its spatial pass) and
# PSNR by frame, from tests/quality_temporal (the filters' references,
# which the GPU matches within 1 LSB).
q=${QUALITY_TEMPORAL:-$here/../build/tests/quality_temporal}
[ -x "$q" ] && {
  tq=$(mktemp -d)
  "$q" --only 2 --size 320x180 --frames 40 --dump "$tq/f.raw" --csv "$tq/psnr.csv" >/dev/null
  gst-launch-1.0 -q filesrc location="$tq/f.raw" ! rawvideoparse format=gray8 \
    width=960 height=180 framerate=1/1 ! videoconvert ! pngenc ! \
    filesink location="$out/cudatemporaldenoise.png"
  python3 "$here/plot-psnr.py" "$tq/psnr.csv" "$out/cudatemporaldenoise-psnr.svg"
  echo "wrote $out/cudatemporaldenoise.png (noisy | best bilateral | temporal) and cudatemporaldenoise-psnr.svg"
  rm -rf "$tq"
}
true
