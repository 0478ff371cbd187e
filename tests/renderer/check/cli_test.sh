#!/usr/bin/env bash
# `xenotrace shader translate --check` end to end on lavapipe: a corpus pixel shader agrees
# (exit 0, text and JSON, with the not-compared reasons), `--path fsi` checks the fsi path's body
# (exit 0, the output-merger note), `--quads` runs it in 2x2 quads with helper pixels (a --lanes
# that is not a multiple of 4 is a usage error, exit 2). Usage: cli_test.sh XENOTRACE SHARED
set -u
xt=$1 shared=$2
shader=$shared/corpus/xenos-shaders/burgerlib/pscclr4360/container.bin
if [ ! -f "$shader" ]; then
  echo "corpus shader missing: $shader"
  case "${CI:-}" in ""|0|false) exit 77 ;; *) exit 1 ;; esac
fi
for icd in /usr/share/vulkan/icd.d/lvp_icd.x86_64.json /usr/share/vulkan/icd.d/lvp_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd && break
done
status=0
out=$("$xt" shader translate "$shader" --check --lanes 100 --seed 4); rc=$?
[ $rc = 0 ] || { echo "expected exit 0, got $rc: $out"; status=1; }
grep -q "^100 lanes agree (pixel shader on .*seed 4; 400 components bit for bit" <<<"$out" ||
  { echo "unexpected text: $out"; status=1; }
out=$("$xt" shader translate "$shader" --check --lanes 100 --json); rc=$?
[ $rc = 0 ] || { echo "--json: expected exit 0, got $rc"; status=1; }
grep -q '"agree": true, "compared_exact": 400, "compared_tolerance": 0, "compared_bounded": 0, "not_compared": 0, "not_compared_why": {}, "memory_compared": 0' <<<"$out" ||
  { echo "unexpected JSON: $out"; status=1; }
out=$("$xt" shader translate "$shader" --check --lanes 100 --path fsi); rc=$?
[ $rc = 0 ] || { echo "--path fsi: expected exit 0, got $rc: $out"; status=1; }
grep -q "^note: fsi: the shader body as the fsi path translates it" <<<"$out" ||
  { echo "--path fsi: no output-merger note: $out"; status=1; }
out=$("$xt" shader translate "$shader" --check --lanes 100 --seed 4 --quads); rc=$?
[ $rc = 0 ] || { echo "--quads: expected exit 0, got $rc: $out"; status=1; }
grep -q "^100 lanes agree (pixel shader on .*seed 4; 340 components bit for bit.* in 2x2 quads with 15 helper lanes)" <<<"$out" ||
  { echo "--quads: unexpected text: $out"; status=1; }
out=$("$xt" shader translate "$shader" --check --lanes 102 --quads 2>&1); rc=$?
[ $rc = 2 ] || { echo "--quads --lanes 102: expected exit 2, got $rc: $out"; status=1; }
grep -q "multiple of 4" <<<"$out" || { echo "--quads --lanes 102: no reason given: $out"; status=1; }
[ $status = 0 ] && echo "translate --check CLI: ok"
exit $status
