#!/usr/bin/env bash
# cudasatblur: one box blur (RADIUS, default 8), as fast for any radius.
#   examples/satblur.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# Options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudasatblur radius-x=${RADIUS:-8} radius-y=${RADIUS:-8} passes=1" "$@"
