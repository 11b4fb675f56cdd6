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

# 1080p on a GPU; a smaller frame where the CPU references do the work.
size="width=1920,height=1080" frames=300
nvidia-smi -L >/dev/null 2>&1 || { size="width=640,height=360"; frames=20; }
elements=$(gst-inspect-1.0 cudafilters | awk '/^ *cuda[a-z]*:/{sub(":","",$1); print $1}')
chain=$(for e in $elements; do printf '%s ! ' "$e"; done)
echo "== videotestsrc ($size) ! ${chain}fakesink"
gst-launch-1.0 videotestsrc num-buffers=$frames ! "video/x-raw,$size" ! \
  $chain fpsdisplaysink video-sink=fakesink text-overlay=false sync=false -v 2>&1 |
  grep -E "WARNING|ERROR|average|Execution ended" | tail -n 4

echo "== before/after pictures"
examples/pictures.sh docs/img
