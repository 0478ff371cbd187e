#!/usr/bin/env bash
# README command (b): the whole test suite. Builds with warnings as errors and ASan+UBSan, runs
# the fuzzers briefly (clang + libFuzzer), then every GoogleTest suite through ctest (Vulkan
# tests on lavapipe with VK_LAYER_KHRONOS_validation and synchronization validation; every
# committed fuzz seed also runs through its parser as a ctest, so XNT_SKIP_FUZZ=1 still replays
# them). .ci/run sets CI=true: a test whose prerequisite is missing then fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, and ctest's slowest tests, printed when the script ends (a failure too):
# a CI log is often seen only by its tail.
STEP_TIMES="" STEP_START=$SECONDS
step_done() { STEP_TIMES+="$1 $((SECONDS - STEP_START)) s, "; STEP_START=$SECONDS; }
report_times() {
  local rc=$?
  set +e  # a report that fails changes no result
  echo "test.sh: wall time by step: ${STEP_TIMES}then $((SECONDS - STEP_START)) s in the step that was running; total ${SECONDS} s"
  if [ -f build-test/Testing/Temporary/CTestCostData.txt ]; then
    echo "test.sh: ctest's slowest tests (seconds, name):"
    awk 'NF == 3 { printf "%8.1f  %.110s\n", $3, $1 }' build-test/Testing/Temporary/CTestCostData.txt |
      sort -rn | head -12
  fi
  exit "$rc"
}
trap report_times EXIT
bash scripts/install-deps.sh
step_done "dependencies"

JOBS=${JOBS:-$(nproc)}
# Sanitizer reports are fatal everywhere below (run-fuzzers.sh sets its own, equally strict).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
# -O1 -g1 (line tables) rather than RelWithDebInfo's -O2 -g: the sanitized build is most of the
# suite's time on a 2-core machine, and this halves each compile (cmd_dump.cpp: 26 -> 13 s of CPU)
# while ASan/UBSan reports keep file:line (ASan's own advice is -O1). Files that set their own -O3
# (the batched interpreter, diff kernels) keep it. XNT_UNITY_TESTS: each test program's sources
# compile as batches of 8 (gtest, the C++ library and our headers parsed once per batch, not once
# per source; docs/ci.md has the figures). XNT_TEST_COMPILE_OPTIONS=-O0: the test programs' own
# sources (gtest macros and the checks around the library calls) at -O0, which halves their compile
# (a batch of 8: 10.7 -> 5.0 s of CPU) for a few percent more test time; the libraries the tests
# exercise keep -O1.
# XNT_TEST_GROUP=8: up to 8 consecutive cases of one GoogleTest suite run in one process and are one
# ctest test (tests/CMakeLists.txt): a sanitized test process costs about 0.04-0.08 s of CPU to
# start before its first case, paid 1,550 times a run otherwise; each case still prints its own
# result, which --output-on-failure shows for a failing group.
# XNT_TOOLS_COMPILE_OPTIONS=-O0: the CLI's own sources (argument parsing and printing; CLI11's
# templates) at -O0, as the test sources: its three batches 110 -> about 45 s of CPU; the libraries
# its commands call keep -O1.
# XNT_UNITY_LIBS: the libraries' and tools' sources as batches of 8 too (CMakeLists.txt). LINK_FLAGS:
# lld where it is installed (install-deps.sh installs it), a sanitized test program's link 1.5 ->
# 0.6 s of CPU against GNU ld, with the same objects and libraries.
# Compiler: clang where installed (install-deps.sh installs it, the fuzzers need it): the same
# sanitized build took 610 s of wall time and 1,175 s of CPU against gcc 12's 732 s on the idle
# 2-core VM, and the tests ran as fast (docs/ci.md, round 10). gcc still compiles every library
# and tool in the bench build below, so code that only one of the two accepts fails the run.
LINK_FLAGS=""
if command -v ld.lld >/dev/null; then LINK_FLAGS="-fuse-ld=lld"; fi
export LINK_FLAGS
TEST_COMPILER=()
if command -v clang >/dev/null && command -v clang++ >/dev/null; then
  TEST_COMPILER=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
fi
cmake -S . -B build-test -G Ninja "${TEST_COMPILER[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXNT_WERROR=ON -DXNT_SANITIZE=ON \
  -DXNT_UNITY_TESTS=ON -DXNT_TEST_COMPILE_OPTIONS=-O0 -DXNT_TOOLS_COMPILE_OPTIONS=-O0 \
  -DXNT_UNITY_LIBS=ON -DXNT_TEST_GROUP=8 \
  -DCMAKE_EXE_LINKER_FLAGS="$LINK_FLAGS" -DCMAKE_SHARED_LINKER_FLAGS="$LINK_FLAGS" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
cmake --build build-test -j "$JOBS"
step_done "sanitized build"

if [ "${XNT_SKIP_FUZZ:-0}" != 1 ]; then
  XNT_UNITY_LIBS=ON bash scripts/run-fuzzers.sh
  step_done "fuzzers (build and runs)"
fi

(cd build-test && ctest --output-on-failure -j "$JOBS" --timeout 900)
step_done "ctest"

# Replay-speed regression check: ratios of process CPU time between the built-in
# synthetic cases of one run, against bench/baseline.json (fails on a ratio >20 % above it). It
# needs an optimised build without sanitizers, as the baseline was measured with: only
# xenotrace_bench (the CLI's main and `bench` sub-command over the libraries a replay needs), no
# tests. About 20 s of replay on lavapipe.
if [ "${XNT_SKIP_BENCH:-0}" != 1 ]; then
  # -O2 as RelWithDebInfo (the baseline's code generation) without -g: debug info changes no
  # instruction and costs a quarter of the compile.
  # XNT_UNITY_LIBS as the sanitized build: the cold compile 19 % less CPU (docs/ci.md). A batch lets
  # the compiler inline across its sources; the gate's ratios (one case's CPU time over another's,
  # both through the same code) stayed within the spread of the unbatched build's runs, six runs
  # each side by side. lld lays out the same code. At -O0, the sources that run outside the timed
  # replays: the bench command's argument parsing and printing, and the samples library the
  # program links (authoring code that runs before the timed replays; at -O2 99 of the build's
  # 361 s of CPU).
  cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXNT_TESTS=OFF \
    -DXNT_UNITY_LIBS=ON -DCMAKE_EXE_LINKER_FLAGS="$LINK_FLAGS" \
    -DXNT_TOOLS_COMPILE_OPTIONS=-O0 -DXNT_SAMPLES_COMPILE_OPTIONS=-O0 \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
  cmake --build build-bench -j "$JOBS" --target xenotrace_bench
  step_done "bench build"
  # --interleave: the cases' warm replays in rounds and each ratio the median of its rounds' ratios,
  # so a slow spell of the shared machine falls on both cases of a ratio (measured one case after
  # another, cpu flat_2000/flat_200 read 6.3 to 13.6 in four runs on a loaded 2-core machine;
  # interleaved, 7.7 to 8.3). A ratio over the tolerance is measured once more before the step
  # fails: a regression in the code shows in both runs, a neighbour's load seldom twice (exit 2, a
  # missing baseline file, fails at once; a baseline it cannot use fails on the second run).
  # LP_NUM_THREADS=0: lavapipe rasterizes in the submitting thread. With its default thread per
  # core, the same binary read fbo flat_2000/flat_200 4.6 or 7.0-8.2 by the process on the 2-core
  # VM (lavapipe's GPU time per frame 17 or 36-52 ms: its rasterizer threads and the submitting
  # thread racing for two cores), and CI's machine read the slow mode in both tries; serial, eight
  # runs read 4.0-4.4. The gate times this program's per-draw work, which is the same either way.
  bench_run() {
    LP_NUM_THREADS=0 build-bench/tools/xenotrace_bench bench replay --paths cpu,fbo --draws 200,2000 --capture 2000 --repeat 15 \
      --interleave --no-shader-cache --baseline bench/baseline.json
  }
  bench_rc=0
  bench_run || bench_rc=$?
  if [ "$bench_rc" = 1 ]; then
    echo "bench: a ratio above the baseline; measuring again to tell a regression from noise"
    bench_run
  elif [ "$bench_rc" != 0 ]; then
    exit "$bench_rc"
  fi
  step_done "bench"
fi
