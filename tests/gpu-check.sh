#!/usr/bin/env bash
# Everything that needs a GPU, in one go, for the device host (see
# docs/development.md): the gpu and element suites, compute-sanitizer
# (memcheck, racecheck) on the kernel tests, every benchmark, and a demo
# pipeline on the CUDA backend. Logs go to $OUT (default /tmp/cf-out).
#   tests/gpu-check.sh [BUILD_DIR] [tests|sanitize|bench|pipeline ...]
set -u
build=${1:-build}
shift || true
steps=${*:-tests sanitize bench pipeline}
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
  esac
done
echo "gpu-check status $status"
exit $status
