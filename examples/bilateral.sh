#!/usr/bin/env bash
# cudabilateral: edge-preserving smoothing (SIGMA_SPACE pixels, SIGMA_RANGE of full scale).
#   examples/bilateral.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# Options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudabilateral sigma-space=${SIGMA_SPACE:-3} sigma-range=${SIGMA_RANGE:-0.1}" "$@"
