#!/usr/bin/env bash
# A chain split over two hosts, each filtering on its own GPU: the sender
# runs the first element and sends the raw frames over TCP in GDP (caps,
# timestamps and EOS travel with them); the receiver runs the rest. Within
# each host the elements hand frames over on the GPU; between the hosts the
# frames cross the network once.
#   on host B, first:  examples/two-hosts.sh receive PORT
#   on host A:         examples/two-hosts.sh send HOST PORT [-n FRAMES] [-s WxH]
# SINK replaces the receiver's display (e.g. "fakesink"). GST_PLUGIN_PATH
# must point at the plugin on both hosts.
set -euo pipefail
usage() { sed -n '2,11p' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
role=$1
shift
frames=-1 size=1280x720
if [ "$role" = send ]; then
  [ $# -ge 2 ] || usage
  host=$1 port=$2
  shift 2
else
  port=$1
  shift
fi
while getopts "n:s:" opt; do
  case $opt in
    n) frames=$OPTARG ;;
    s) size=$OPTARG ;;
    *) usage ;;
  esac
done
case $role in
  send)
    exec gst-launch-1.0 -q videotestsrc num-buffers="$frames" ! \
      "video/x-raw,format=GRAY16_LE,width=${size%x*},height=${size#*x},framerate=30/1" ! \
      cudamedian size=3 ! gdppay ! tcpclientsink host="$host" port="$port"
    ;;
  receive)
    # shellcheck disable=SC2086 # SINK is a pipeline fragment
    # ends when the sender does (EOS travels in GDP)
    exec gst-launch-1.0 -q tcpserversrc host=0.0.0.0 port="$port" ! \
      gdpdepay ! cudabilateral sigma-range=0.05 ! cudagaussianblur sigma=1 ! \
      ${SINK:-videoconvert ! autovideosink}
    ;;
  *) usage ;;
esac
