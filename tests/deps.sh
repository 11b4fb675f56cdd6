#!/usr/bin/env bash
# Installs what building and testing cudafilters needs on Debian/Ubuntu, if it
# is missing: GStreamer 1.22+ development packages (core, base, bad for the
# CUDA helper library), gst-check, the tools and plugins the examples use,
# meson and ninja. The CUDA toolkit (nvcc) must already be installed
# (/usr/local/cuda); no NVIDIA driver or GPU is needed to build or test.
set -euo pipefail
pkgs="libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
      libgstreamer-plugins-bad1.0-dev gstreamer1.0-tools
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good
      gstreamer1.0-plugins-bad meson ninja-build pkg-config"
missing=$(for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -q --no-install-recommends $missing
fi
if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "note: add /usr/local/cuda/bin to PATH (done for this build)" >&2
  else
    echo "error: the CUDA toolkit (nvcc) is required: install CUDA 12 or 13" >&2
    exit 1
  fi
fi
