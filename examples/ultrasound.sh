#!/usr/bin/env bash
# An ultrasound capture chain on a synthetic 16-bit B-mode sequence
# (us-speckle: speckle over a sector, a cyst, point reflectors, a pulsing
# vessel), denoised by cudamedian then cudabilateral. Writes to OUTDIR:
#   input.raw                 the GRAY16_LE frames (us-speckle's output)
#   input-NNN.png             each input frame, 16-bit PNG
#   denoised-NNN.png          each denoised frame, 16-bit PNG
#   side-by-side.y4m          input | denoised, the whole sequence (and .webm
#                             where vp8enc is installed)
#   side-by-side.png          input | denoised, the first frame (or -p PNG)
#
#   examples/ultrasound.sh [-n FRAMES] [-s WxH] [-p PNG] [OUTDIR]
#
# FRAMES defaults to 30 at 512x384, OUTDIR to ultrasound-out. DENOISE
# overrides the chain. GST_PLUGIN_PATH defaults to build/gst, US_SPECKLE to
# build/examples/us-speckle (compiled with cc into OUTDIR when missing).
set -euo pipefail
usage() { echo "usage: $0 [-n FRAMES] [-s WxH] [-p PNG] [OUTDIR]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/gst}
frames=30 size=512x384 picture=""
while getopts "n:s:p:h" opt; do
  case $opt in
    n) frames=$OPTARG ;;
    s) size=$OPTARG ;;
    p) picture=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
out=${1:-ultrasound-out}
w=${size%x*} h=${size#*x}
# speckle is longer along the beam (vertical here) than across it
denoise=${DENOISE:-"cudamedian width=3 height=9 ! cudabilateral sigma-space=3 sigma-range=0.08"}
mkdir -p "$out"

gen=${US_SPECKLE:-$root/build/examples/us-speckle}
if [ ! -x "$gen" ]; then
  gen=$out/us-speckle
  cc -O2 -o "$gen" "$root/examples/us-speckle.c" -lm
fi
"$gen" -W "$w" -H "$h" -n "$frames" -o "$out/input.raw"
raw="filesrc location=$out/input.raw ! rawvideoparse format=gray16-le width=$w height=$h framerate=15/1"

webm=()
if gst-inspect-1.0 vp8enc >/dev/null 2>&1 && gst-inspect-1.0 webmmux >/dev/null 2>&1; then
  webm=(v. ! queue ! vp8enc deadline=1 target-bitrate=4000000 ! webmmux ! filesink "location=$out/side-by-side.webm")
fi
rm -f "$out"/input-*.png "$out"/denoised-*.png
set -f
echo "+ $raw ! $denoise (PNGs, videos in $out)" >&2
gst-launch-1.0 -q $raw ! tee name=t \
  t. ! queue ! videoconvert ! pngenc ! multifilesink "location=$out/input-%03d.png" \
  t. ! queue ! videoconvert ! mix.sink_0 \
  t. ! queue ! $denoise ! tee name=d \
  d. ! queue ! videoconvert ! pngenc ! multifilesink "location=$out/denoised-%03d.png" \
  d. ! queue ! videoconvert ! mix.sink_1 \
  compositor name=mix sink_1::xpos="$w" ! videoconvert ! video/x-raw,format=I420 ! tee name=v \
  v. ! queue ! y4menc ! filesink "location=$out/side-by-side.y4m" "${webm[@]}"
set +f
"$root/examples/before-after.sh" "${picture:-$out/side-by-side.png}" "$denoise" "$raw"
ls "$out"/denoised-*.png | wc -l | xargs echo "denoised frames:"
