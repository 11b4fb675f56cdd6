#!/usr/bin/env bash
# The main job: builds cudafilters (installing missing build dependencies),
# runs a pipeline through every element and writes before/after pictures to
# docs/img/. On the GPU where there is one, else on the CPU reference.
#   examples/demo.sh [extra meson setup options, e.g. -Dcuda-arch=90]
set -euo pipefail
cd "$(dirname "$0")/.."
tests/deps.sh
export PATH=/usr/local/cuda/bin:$PATH
[ -d build ] || meson setup build "$@"
ninja -C build
export GST_PLUGIN_PATH=$PWD/build/gst

echo "== a 1080p pipeline through every element"
elements=$(gst-inspect-1.0 cudafilters | awk '/^ *cuda[a-z]*:/{sub(":","",$1); print $1}')
chain=$(for e in $elements; do printf '%s ! ' "$e"; done)
gst-launch-1.0 videotestsrc num-buffers=60 ! video/x-raw,width=1920,height=1080 ! \
  $chain fpsdisplaysink video-sink=fakesink text-overlay=false sync=false -v 2>&1 |
  grep -E "WARNING|ERROR|average|Execution ended" | tail -n 4

echo "== before/after pictures"
examples/pictures.sh docs/img
