#!/usr/bin/env bash
# GStreamer's C style (the options of gst-indent), for gst/ and tests/.
#   tests/gst-indent.sh FILE...      reformats in place (needs GNU indent)
set -euo pipefail
for f in "$@"; do
  indent --braces-on-if-line --case-brace-indentation0 --case-indentation2 \
    --braces-after-struct-decl-line --line-length80 --no-tabs --cuddle-else \
    --dont-line-up-parentheses --continuation-indentation4 --honour-newlines \
    --tab-size8 --indent-level2 --leave-preprocessor-space "$f"
  rm -f "$f~"
done
