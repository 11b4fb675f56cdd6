#!/usr/bin/env bash
# A denoiser: cudamedian removes impulses, then cudabilateral smooths what is left but keeps edges.
#   examples/denoise.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# Options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudamedian size=3 ! cudabilateral sigma-space=${SIGMA_SPACE:-2} sigma-range=${SIGMA_RANGE:-0.08}" "$@"
