#!/usr/bin/env bash
# Runs `xenotrace compare` over a folder of traces again and again under a time limit, to catch a
# rare hang: a run that outlives the limit gets every thread's stack dumped (gdb, else eu-stack)
# into OUT/hang-N.stacks before it is killed. Each round cycles through the variants below (jobs
# over traces, jobs over one trace's combinations, scales, cpu threads). Runs niced: the machine
# may be shared.
# Usage: stress-compare.sh XENOTRACE TRACE_DIR OUT_DIR [ROUNDS] [LIMIT_S] [PATHS]
#   PATHS default cpu,fbo (add fsi on a device with fragment shader interlock).
# Exit: 0 no run hung, 1 some run hung (stacks saved), 2 usage.
set -uo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,9p' "$0"
  exit 2
fi
xt=$1 traces=$2 out=$3 rounds=${4:-10} limit=${5:-120} paths=${6:-cpu,fbo}
mkdir -p "$out" || exit 2
variants=(
  "--scales 3x1 --jobs 4 --threads 2"
  "--scales 1x1,3x1 --jobs 8 --threads 2"
  "--scales 2x2 --jobs 3 --threads 1"
  "--scales 3x1 --jobs 64 --threads 2"
)
hung=0
for ((round = 0; round < rounds; ++round)); do
  args=${variants[round % ${#variants[@]}]}
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  nice -n 10 "$xt" compare "$traces" --paths "$paths" $args --no-bisect --json \
    >"$out/run.json" 2>"$out/run.err" &
  pid=$!
  waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$limit" ]; do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    hung=1
    dump="$out/hang-$round.stacks"
    echo "round $round ($args): still running after ${limit} s; stacks in $dump"
    if command -v gdb >/dev/null; then
      gdb -p "$pid" -batch -ex "thread apply all bt" >"$dump" 2>&1
    else
      eu-stack -p "$pid" >"$dump" 2>&1
    fi
    kill -9 "$pid"
  fi
  wait "$pid"
  rc=$?
  echo "round $round ($args): exit $rc in $(echo "$(date +%s.%N) - $start" | bc) s"
done
exit "$hung"
