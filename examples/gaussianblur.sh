#!/usr/bin/env bash
# cudagaussianblur: a Gaussian blur (SIGMA, default 3; a negative one sharpens).
#   examples/gaussianblur.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# Options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudagaussianblur sigma=${SIGMA:-3}" "$@"
