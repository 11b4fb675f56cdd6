#!/usr/bin/env bash
# The test command (CI runs it): installs missing build dependencies,
# configures and builds into build/ (or $CF_BUILD_DIR), and runs every test
# suite. Without a GPU the gpu suite is skipped (exit 77) and the element
# tests run on the CPU backend; with one they also compare CUDA with the CPU
# reference.
#
# The build targets the GPU in this machine, or with none one architecture
# (tests/cuda-arch.sh), with warnings as errors (werror: nvcc and ptxas
# included); `meson setup build` alone builds every architecture.
#   tests/run.sh [extra meson setup options]
set -euo pipefail
cd "$(dirname "$0")/.."
tests/deps.sh
export PATH=/usr/local/cuda/bin:$PATH
build=${CF_BUILD_DIR:-build}
arch=$(tests/cuda-arch.sh)
if [ -d "$build" ]; then
  meson setup --reconfigure "$build" -Dcuda-arch="$arch" -Dwerror=true "$@" >/dev/null
else
  meson setup "$build" -Dcuda-arch="$arch" -Dwerror=true "$@"
fi
ninja -C "$build"
status=0
meson test -C "$build" --print-errorlogs || status=$?
# One closing line for whoever reads the log: "N passed, N failed, N skipped".
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
r = [json.loads(l)["result"] for l in open(sys.argv[1]) if l.strip()]
print(f"{r.count('OK')} passed, {sum(x in ('FAIL', 'TIMEOUT', 'ERROR') for x in r)} failed, {r.count('SKIP')} skipped")
PY
exit $status
