#!/usr/bin/env bash
# A webcam denoised over time: cudatemporaldenoise averages each still pixel over past frames and gives moving ones a bilateral pass, so nothing smears.
#   examples/temporaldenoise.sh [-n FRAMES] [-s WxH] [-f FORMAT] [-d auto|decodebin|nvh264dec] [camera|FILE]
# STRENGTH (0.8), NOISE_LEVEL (0: estimated), SPATIAL (0.1) set the element; options and environment (SINK=fakesink, CAMERA, GST_PLUGIN_PATH): run-filter.sh.
set -euo pipefail
EXAMPLE=$0 exec "$(dirname "$0")/run-filter.sh" "cudatemporaldenoise strength=${STRENGTH:-0.8} noise-level=${NOISE_LEVEL:-0} spatial=${SPATIAL:-0.1}" "$@"
