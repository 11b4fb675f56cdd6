#!/usr/bin/env bash
# Runs one filter fragment (an element, or a chain of them) on a camera, or on
# a file through a decoder, and shows the result. The per-element scripts
# beside this one (gaussianblur.sh, median.sh, ...) call it.
#
#   examples/run-filter.sh "FILTER" [-n FRAMES] [-s WxH] [-f FORMAT] [-d DECODER] [camera|FILE]
#
#   camera     v4l2src on $CAMERA (default: the first /dev/video*); without
#              one, a live videotestsrc (CAMERA=none forces it)
#   FILE       filesrc ! decodebin; with -d nvh264dec: parsebin ! h264parse !
#              nvh264dec (H.264 only). With -d auto (the default) decodebin
#              prefers nvh264dec when nvcodec has it.
#   -n FRAMES  stop after FRAMES frames (default: run until Ctrl-C or the
#              file ends; Ctrl-C sends EOS, so files the sink writes close)
#   -s WxH     scale to WxH first;  -f FORMAT  convert to FORMAT first
#
# Environment: SINK (default autovideosink; e.g. SINK=fakesink headless, or
# SINK="pngenc ! multifilesink location=out/%03d.png"), GST_PLUGIN_PATH
# (default: build/gst of this repository), CAMERA, PATTERN (videotestsrc).
set -euo pipefail
set -f   # no globbing of the fragments below (caps, %03d)
usage() {
  echo "usage: ${EXAMPLE:-$0 \"FILTER\"} [-n FRAMES] [-s WxH] [-f FORMAT]" \
    "[-d auto|decodebin|nvh264dec] [camera|FILE]" >&2
  exit 2
}
root=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/gst}

[ $# -ge 1 ] || usage
filter=$1
shift
frames="" size="" format="" decoder=auto
while getopts "n:s:f:d:h" opt; do
  case $opt in
    n) frames=$OPTARG ;;
    s) size=$OPTARG ;;
    f) format=$OPTARG ;;
    d) decoder=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
input=${1:-camera}
have() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

# The source: raw video in system memory, or CUDA memory from nvh264dec.
if [ "$input" = camera ]; then
  cam=${CAMERA:-$(ls /dev/video* 2>/dev/null | head -n 1 || true)}
  if [ -n "$cam" ] && [ "$cam" != none ] && [ -e "$cam" ]; then
    src=(v4l2src "device=$cam" ${frames:+num-buffers=$frames} ! videoconvert)
  else
    echo "no camera: using a live test pattern" >&2
    src=(videotestsrc is-live=true "pattern=${PATTERN:-ball}"
      ${frames:+num-buffers=$frames} ! videoconvert)
  fi
else
  [ -r "$input" ] || { echo "cannot read $input" >&2; usage; }
  case $decoder in
    nvh264dec)
      src=(filesrc "location=$input" ! parsebin ! h264parse ! nvh264dec) ;;
    auto|decodebin)
      if [ "$decoder" = auto ] && have nvh264dec; then
        export GST_PLUGIN_FEATURE_RANK=nvh264dec:MAX${GST_PLUGIN_FEATURE_RANK:+,$GST_PLUGIN_FEATURE_RANK}
      fi
      src=(filesrc "location=$input" ! decodebin ! videoconvert) ;;
    *) usage ;;
  esac
  # identity's eos-after=N passes N - 1 buffers and ends the stream on the Nth
  [ -z "$frames" ] || src+=(! identity "eos-after=$((frames + 1))")
fi
[ -z "$size" ] || src+=(! videoscale ! "video/x-raw,width=${size%x*},height=${size#*x}")
[ -z "$format" ] || src+=(! videoconvert ! "video/x-raw,format=$format")
sink=${SINK:-autovideosink}

echo "+ gst-launch-1.0 -e ${src[*]} ! $filter ! videoconvert ! $sink" >&2
# $filter and $sink are split into words on purpose: they are fragments.
exec gst-launch-1.0 -e "${src[@]}" ! $filter ! videoconvert ! $sink
