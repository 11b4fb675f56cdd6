#!/usr/bin/env bash
# Everything that needs a GPU, in one go, for the device host (see
# docs/development.md): the gpu and element suites, compute-sanitizer
# (memcheck, racecheck) on the kernel tests, every benchmark, a pipeline
# through each element on the CUDA backend, and chains and concurrent
# streams through gst-launch (stress). Logs go to $OUT (default
# /tmp/cf-out).
#   tests/gpu-check.sh [BUILD_DIR] [tests|sanitize|bench|pipeline|stress ...]
set -u
build=${1:-build}
shift || true
steps=${*:-tests sanitize bench pipeline stress}
out=${OUT:-/tmp/cf-out}
mkdir -p "$out"
[ -f .gstrt/env.sh ] && source .gstrt/env.sh
export GST_PLUGIN_PATH=$PWD/$build/gst
nvidia-smi -L 2>&1 | tee "$out/device.txt"
status=0

for step in $steps; do
  case $step in
    tests)
      # The test binaries run directly, JOBS at a time (default 8), each under
      # TEST_TIMEOUT seconds (default 600): the GPU host's meson may differ
      # from the one that configured the build ("build.dat references
      # functions or classes that don't exist"), and CF_TEST_FORMATS keeps
      # the element tests' CUDA-against-CPU cases short.
      export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-600}
      rm -f /tmp/cf-test-*.log
      run_test () {
        name=$(basename "$1")
        GST_REGISTRY_1_0=/tmp/cf-registry-$name.bin timeout "${TEST_TIMEOUT:-600}" "$1" \
          > "/tmp/cf-test-$name.log" 2>&1
        rc=$?
        [ $rc -eq 0 ] || [ $rc -eq 77 ] && verdict=ok || verdict=FAIL
        echo "$verdict $name rc=$rc"
      }
      export -f run_test
      find "$build/tests" -maxdepth 1 -type f -executable \
        \( -name 'kernel_*' -o -name 'element_*' \) | sort |
        xargs -P "${JOBS:-8}" -I{} bash -c 'run_test {}' | tee "$out/tests.log"
      cat /tmp/cf-test-*.log > "$out/tests-output.log"
      grep -q "^FAIL" "$out/tests.log" && status=1
      ;;
    sanitize)
      for t in "$build"/tests/kernel_*; do
        [ -x "$t" ] && [ -f "$t" ] || continue
        for tool in memcheck racecheck; do
          echo "== $tool $(basename "$t")" | tee -a "$out/sanitizer.log"
          CF_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 "$t" \
            >> "$out/sanitizer.log" 2>&1
          rc=$?
          tail -n 2 "$out/sanitizer.log"
          [ $rc -eq 0 ] || status=1
        done
      done
      ;;
    bench)
      for b in "$build"/tests/bench_*; do
        [ -x "$b" ] && [ -f "$b" ] || continue
        echo "## $(basename "$b")" | tee -a "$out/bench.md"
        "$b" 2>&1 | tee -a "$out/bench.md"
      done
      ;;
    pipeline)
      for e in $(ls "$build"/gst/*.so >/dev/null && gst-inspect-1.0 cudafilters 2>/dev/null | awk '/^ *cuda[a-z]*:/{sub(":","",$1); print $1}'); do
        echo "== $e" | tee -a "$out/pipeline.log"
        gst-launch-1.0 -q videotestsrc num-buffers=30 ! video/x-raw,width=1920,height=1080 ! \
          $e backend=cuda ! fakesink >> "$out/pipeline.log" 2>&1 || { status=1; echo "FAILED $e"; }
      done
      ;;
    stress)
      # Chains of every element over the capture formats, odd sizes, deep
      # frames in flight, CUDA memory, the two-input pads and eight streams
      # at once: each launch must end at EOS with no error or warning and
      # every frame out (fakesink's handoffs counted).
      n=120
      src="videotestsrc num-buffers=$n pattern=ball"
      second="videotestsrc num-buffers=$n pattern=snow"
      sink="fakesink silent=false"
      lines=(
        "$src ! video/x-raw,format=GRAY16_LE,width=1920,height=1080 ! cudamedian width=3 height=9 ! cudatemporaldenoise ! cudabilateral sigma-range=0.05 gate-min=1 gate-max=30000 ! cudagaussianblur sigma=-1 amount=0.8 threshold=0.01 ! $sink"
        "$src ! video/x-raw,format=NV12,width=3840,height=2160 ! cudaconvolve preset=sharpen ! cudasatblur radius-x=8 radius-y=8 passes=3 ! cudagaussianblur sigma=20 ! cudamedian size=5 ! $sink"
        "$src ! video/x-raw,format=RGBA,width=1280,height=720 ! cudasatblur radius-x=24 radius-y=24 focus=ellipse ! cudabilateral roi-x=100 roi-y=100 roi-width=400 roi-height=300 ! cudagaussianblur sigma-x=40 sigma-y=4 border-mode=mirror ! $sink"
        "$src ! video/x-raw,format=YUY2,width=1920,height=1080 ! cudabilateral sigma-space=3 ! cudamedian size=3 ! cudatemporaldenoise ! $sink"
        "$src ! video/x-raw,format=v210,width=1920,height=1080 ! cudagaussianblur sigma=2 ! cudabilateral ! $sink"
        "$src ! video/x-raw,format=I420,width=1279,height=719 ! cudamedian ! cudabilateral ! cudagaussianblur ! cudasatblur ! cudaconvolve ! cudatemporaldenoise ! $sink"
        "$src ! video/x-raw,format=P010_10LE,width=1920,height=1080 ! cudatemporaldenoise spatial=0.1 ! cudagaussianblur sigma=5 ! $sink"
        "$src ! video/x-raw,format=RGBA,width=3840,height=2160 ! cudamedian frames-in-flight=8 ! cudagaussianblur sigma=3 frames-in-flight=8 ! cudabilateral frames-in-flight=8 ! $sink"
        "$src ! video/x-raw,format=NV12,width=1920,height=1080 ! cudaupload ! cudamedian ! cudagaussianblur sigma=4 ! cudadownload ! $sink"
        "cudasatblur name=b radius-x=16 radius-y=16 radius-map=stream ! $sink $src ! video/x-raw,format=RGBA,width=1280,height=720 ! b.sink $second ! video/x-raw,format=GRAY8,width=1280,height=720 ! b.radius_sink"
        "cudabilateral name=b sigma-space=3 sigma-range=0.05 ! $sink $src ! video/x-raw,format=GRAY16_LE,width=1280,height=720 ! b.sink $second ! video/x-raw,format=GRAY8,width=1280,height=720 ! b.guide_sink"
        "videotestsrc num-buffers=30 is-live=true ! video/x-raw,format=NV12,width=1920,height=1080,framerate=30/1 ! cudamedian ! cudatemporaldenoise ! cudagaussianblur ! fakesink silent=false sync=true"
      )
      run_line () {
        log=$1 want=$2
        shift 2
        timeout 300 gst-launch-1.0 -v "$@" > "$log" 2>&1
        rc=$? got=$(grep -c "fakesink0:sink) (" "$log")
        if [ $rc -ne 0 ] || [ "$got" -ne "$want" ] ||
          grep -qE "^(ERROR|WARNING)" "$log"; then
          echo "FAIL rc=$rc frames=$got/$want: $*"
          return 1
        fi
        echo "ok frames=$got: $*"
      }
      i=0
      for line in "${lines[@]}"; do
        want=$n
        case $line in *num-buffers=30\ *) want=30 ;; esac
        i=$((i + 1))
        # shellcheck disable=SC2086
        run_line "/tmp/cf-stress-$i.log" $want $line
      done | tee -a "$out/stress.log"
      # eight streams at once, each a chain of three
      for s in 1 2 3 4 5 6 7 8; do
        # shellcheck disable=SC2086
        run_line "/tmp/cf-stress-many-$s.log" 300 videotestsrc num-buffers=300 \
          ! video/x-raw,format=NV12,width=1920,height=1080 ! cudamedian \
          ! cudabilateral ! cudagaussianblur sigma=2 ! $sink &
      done > "$out/stress-many.log"
      wait
      cat "$out/stress-many.log" | tee -a "$out/stress.log"
      grep -q "^FAIL" "$out/stress.log" && status=1
      cat /tmp/cf-stress-*.log > "$out/stress-output.log"
      ;;
  esac
done
echo "gpu-check status $status"
exit $status
