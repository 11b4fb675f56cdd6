#!/usr/bin/env bash
# Ultrasound persistence on the synthetic GRAY16_LE B-mode sequence of
# ultrasound.sh: cudatemporaldenoise mode=persistence blends every frame
# with the last output by a fixed weight (PERSISTENCE, default 0.6), as
# ultrasound consoles do; then a light cudabilateral. Arguments, outputs
# and environment: ultrasound.sh.
#
#   examples/ultrasound-persistence.sh [-n FRAMES] [-s WxH] [-p PNG] [OUTDIR]
set -euo pipefail
DENOISE="cudatemporaldenoise mode=persistence strength=${PERSISTENCE:-0.6} ! cudabilateral sigma-space=2 sigma-range=0.05" \
  exec "$(dirname "$0")/ultrasound.sh" "$@"
