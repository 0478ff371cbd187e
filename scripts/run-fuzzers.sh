#!/usr/bin/env bash
# Builds every libFuzzer target with clang and runs each briefly from its seed corpus.
# FUZZ_SECONDS (default 60) is the run time per target; the reader fuzzer always gets >= 30 s.
# Every sanitizer finding is fatal: the fuzz build has -fno-sanitize-recover=all and the
# ASan/UBSan options below halt on the first report. A target that fails keeps its whole log in
# $B/logs/<name>.log (printed here) and its crashing input in $B/artifacts/ (B is FUZZ_BUILD_DIR,
# default build-fuzz); the other targets still run, and the script exits 1 at the end. The last
# lines are a table of each target's executions and coverage.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=${FUZZ_SECONDS:-60}
B=${FUZZ_BUILD_DIR:-build-fuzz}
# -O1 -g1 as the sanitized test build (scripts/test.sh): ASan's advised level, line tables keep
# a finding's stack file:line, and a compile costs 10-30 % less CPU than RelWithDebInfo's -O2 -g
# (clang 14: ucode assembler.cpp 8.2 -> 5.8 s, replay command_processor.cpp 2.2 -> 2.0 s).
# XNT_UNITY_LIBS and LINK_FLAGS (lld) as scripts/test.sh sets them, when it runs this.
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DXNT_FUZZ=ON -DXNT_TESTS=OFF -DXNT_VULKAN=OFF \
  -DXNT_UNITY_LIBS="${XNT_UNITY_LIBS:-OFF}" -DCMAKE_EXE_LINKER_FLAGS="${LINK_FLAGS:-}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  >/dev/null
# Only the fuzz targets (and the libraries they link): the rest of the tree is the normal
# build's business.
targets=()
for src in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$src" .cpp)"); done
cmake --build "$B" -j "${JOBS:-$(nproc)}" --target "${targets[@]}"

# Exported before any target runs; halt_on_error makes a recoverable report fatal as well.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1:print_summary=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1:print_summary=1

logs=$B/logs
artifacts=$B/artifacts
mkdir -p "$logs" "$artifacts"
# The targets run side by side, FUZZ_PARALLEL at a time (default: the core count), each one
# libFuzzer process on one core; the results are read in target order once all have finished.
parallel=${FUZZ_PARALLEL:-${JOBS:-$(nproc)}}
names=()
for bin in "$B"/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin"); name=${name#fuzz_}
  names+=("$name")
  seeds=tests/fuzz/corpus/$name
  work=$B/corpus/$name
  mkdir -p "$work"
  # Seeds generated from samples/ (written by the fuzzer's own --make-seeds hook when present).
  if [ -d "$seeds" ]; then cp -n "$seeds"/* "$work"/ 2>/dev/null || true; fi
  t=$SECONDS_PER
  [ "$name" = reader ] && [ "$t" -lt 30 ] && t=30
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  echo "== fuzz_$name for ${t}s (log: $logs/$name.log)"
  ( rc=0
    "$bin" -max_total_time="$t" -print_final_stats=1 -rss_limit_mb=4096 -timeout=10 \
      -artifact_prefix="$artifacts/$name-" "$work" >"$logs/$name.log" 2>&1 || rc=$?
    echo "$rc" >"$logs/$name.rc" ) &
done
wait

failed=()
summary=()
for name in "${names[@]}"; do
  log=$logs/$name.log
  rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 1)
  # (`|| true`: a target that died before its first status line has none of these.)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1 || true)
  # Coverage from libFuzzer's last status line ("#N DONE cov: C ft: F corp: ...").
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  corp=$(grep -o 'corp: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  if [ "$rc" -ne 0 ] || grep -q 'runtime error:\|ERROR: AddressSanitizer\|ERROR: libFuzzer\|SUMMARY: ' "$log"; then
    echo "!! fuzz_$name FAILED (exit $rc); its whole log, kept at $log:"
    cat "$log"
    ls -l "$artifacts"/"$name"-* 2>/dev/null || true
    failed+=("$name")
    status=FAILED
  else
    echo "-- fuzz_$name:"; tail -n 3 "$log"
    status=ok
  fi
  summary+=("$(printf '%-20s %-7s execs %-12s cov %-7s ft %-7s corpus %s' "fuzz_$name" "$status" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}")")
done

echo "== fuzz summary (${SECONDS_PER}s per target; logs in $logs)"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}"
  exit 1
fi
