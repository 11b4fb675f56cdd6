#!/usr/bin/env bash
# A cheap wide blur: three box passes of radius 16 (RADIUS) approximate a Gaussian of sigma 16.5, at the cost of any radius.
#   examples/wide-blur.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# Options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudasatblur radius-x=${RADIUS:-16} radius-y=${RADIUS:-16} passes=3" "$@"
