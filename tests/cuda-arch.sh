#!/usr/bin/env bash
# The -Dcuda-arch value for a build on this machine, shared by tests/run.sh
# and examples/demo.sh: the first GPU's compute capability (e.g. 90), so
# nvcc builds one architecture, not the seven of the default; "default"
# where this nvcc does not know that GPU (its PTX then runs there); 75
# (Turing, the oldest architecture the default builds) where there is no
# GPU: the elements then run their CPU references, and every .cu file is
# still compiled once.
set -euo pipefail
export PATH=/usr/local/cuda/bin:$PATH
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
  head -n 1 | tr -d '. ' || true)
if [ -z "$arch" ]; then
  echo 75
elif nvcc --list-gpu-code | grep -qx "sm_$arch"; then
  echo "$arch"
else
  echo default
fi
