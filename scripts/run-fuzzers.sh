#!/usr/bin/env bash
# Builds every libFuzzer target with clang and runs each briefly from its seed corpus.
# FUZZ_SECONDS (default 60) is the run time per target; the reader fuzzer always gets >= 60 s.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=${FUZZ_SECONDS:-60}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DXNT_FUZZ=ON -DXNT_TESTS=OFF -DXNT_VULKAN=OFF >/dev/null
cmake --build build-fuzz -j "${JOBS:-$(nproc)}"
export ASAN_OPTIONS=detect_leaks=0
for bin in build-fuzz/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin"); name=${name#fuzz_}
  seeds=tests/fuzz/corpus/$name
  work=build-fuzz/corpus/$name
  mkdir -p "$work"
  # Seeds generated from samples/ (written by the fuzzer's own --make-seeds hook when present).
  if [ -d "$seeds" ]; then cp -n "$seeds"/* "$work"/ 2>/dev/null || true; fi
  t=$SECONDS_PER
  [ "$name" = reader ] && [ "$t" -lt 60 ] && t=60
  echo "== fuzz_$name for ${t}s"
  "$bin" -max_total_time="$t" -print_final_stats=1 -rss_limit_mb=4096 -timeout=10 "$work" 2>&1 | tail -n 12
done
