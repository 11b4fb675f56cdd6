#!/usr/bin/env bash
# The test command: installs missing build dependencies, configures and builds
# into build/ (all default CUDA architectures), and runs every test suite.
# Without a GPU the gpu suite is skipped (exit 77) and the element tests run
# on the CPU backend; with one they compare CUDA with the CPU reference too.
#   tests/run.sh [extra meson setup options, e.g. -Dcuda-arch=90]
set -euo pipefail
cd "$(dirname "$0")/.."
tests/deps.sh
export PATH=/usr/local/cuda/bin:$PATH
if [ -d build ]; then
  meson setup --reconfigure build "$@" >/dev/null
else
  meson setup build "$@"
fi
ninja -C build
meson test -C build --print-errorlogs
