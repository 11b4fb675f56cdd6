#!/usr/bin/env bash
# The main job: builds cudafilters (installing missing build dependencies),
# runs a pipeline through every element and writes before/after pictures.
# On the GPU where there is one, else on the CPU reference.
#
# A new build folder targets this machine's GPU, or with none one
# architecture (tests/cuda-arch.sh): a few minutes on 2 CPUs, where all
# seven architectures of a plain `meson setup` take a quarter of an hour.
# Everything it writes goes into the build folder, build/ (or $CF_BUILD_DIR):
# the pictures into its img/, unless CF_PICTURES names another folder
# (CF_PICTURES=docs/img refreshes the docs' pictures).
#   examples/demo.sh [extra meson setup options, e.g. -Dcuda-arch=default]
set -euo pipefail
cd "$(dirname "$0")/.."
tests/deps.sh
export PATH=/usr/local/cuda/bin:$PATH
build=${CF_BUILD_DIR:-build}
[ -d "$build" ] || meson setup "$build" -Dcuda-arch="$(tests/cuda-arch.sh)" "$@"
ninja -C "$build"
build=$(cd "$build" && pwd)
export GST_PLUGIN_PATH=$build/gst US_SPECKLE=$build/examples/us-speckle

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
examples/pictures.sh "${CF_PICTURES:-$build/img}"
