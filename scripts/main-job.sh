#!/usr/bin/env bash
# The main job on a bundled sample: write the sample trace, describe and validate it, replay it.
set -euo pipefail
BUILD=${1:-build}
X="$BUILD/tools/xenotrace"
OUT=${OUT_DIR:-out}
mkdir -p "$OUT"
"$X" samples write clear_draws_resolve_swap --out "$OUT"
"$X" info "$OUT/clear_draws_resolve_swap.xnt"
"$X" validate "$OUT/clear_draws_resolve_swap.xnt"
if "$X" replay --help >/dev/null 2>&1; then
  "$X" replay "$OUT/clear_draws_resolve_swap.xnt" --out "$OUT/frames"
  echo "frames written to $OUT/frames"
fi
