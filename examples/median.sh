#!/usr/bin/env bash
# cudamedian: a 5x5 median of the luma (SIZE, default 5), the chroma copied.
#   examples/median.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# Options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudamedian size=${SIZE:-5} luma-only=true" "$@"
