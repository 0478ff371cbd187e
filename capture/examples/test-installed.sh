#!/usr/bin/env bash
# capture_example_installed test: what an emulator author does with an installed Xenotrace.
#   1. cmake --install BUILD --prefix WORK/prefix, and the files the README promises are there
#   2. the example built against the installed package with pkg-config (cc, C99, -Werror) and
#      with CMake (find_package(XenotraceCapture) -> XenotraceCapture::capture), each linked to
#      the shared libxenotrace-capture.so.1, each run to write a two-frame trace
#   3. the installed xenotrace validates both traces (info: 2 frames), replays them on the cpu
#      path (no GPU needed) and the two frames it writes differ (frame 1 adds a square)
# Usage: test-installed.sh BUILD_DIR WORK_DIR [EXTRA_CFLAGS]
#   EXTRA_CFLAGS: the sanitizer flags of an XNT_SANITIZE build, whose library needs them.
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
extra=${3:-}
examples=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
prefix=$work/prefix
step() { echo "== $*"; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir=$(dirname "$(find "$prefix" -name 'libxenotrace-capture.so.1' | head -n1)")
for f in bin/xenotrace include/xnt_capture.h share/man/man1/xenotrace.1.gz \
         share/doc/xenotrace/help/xenotrace.txt share/doc/xenotrace/help/xenotrace-replay.txt; do
  [ -e "$prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
for f in libxenotrace-capture.so libxenotrace-capture.so.1 pkgconfig/xenotrace-capture.pc \
         cmake/XenotraceCapture/XenotraceCaptureConfig.cmake; do
  [ -e "$libdir/$f" ] || { echo "missing after install: $libdir/$f"; exit 1; }
done
grep -q "Usage: xenotrace replay" "$prefix/share/doc/xenotrace/help/xenotrace-replay.txt"
X=$prefix/bin/xenotrace
"$X" --version

step "pkg-config: cc -std=c99 record_two_frames.c \$(pkg-config --cflags --libs xenotrace-capture)"
export PKG_CONFIG_PATH=$libdir/pkgconfig
pkg-config --modversion xenotrace-capture
pkg-config --atleast-version=1.1 xenotrace-capture
mkdir -p "$work/pkgconfig"
# shellcheck disable=SC2046,SC2086
cc -std=c99 -pedantic-errors -Wall -Wextra -Werror $extra "$examples/record_two_frames.c" \
  $(pkg-config --cflags --libs xenotrace-capture) \
  -Wl,-rpath,"$(pkg-config --variable=libdir xenotrace-capture)" -o "$work/pkgconfig/record_two_frames"

step "cmake: find_package(XenotraceCapture 1.1)"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$examples" -B "$work/cmake" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-Wall -Wextra -Werror $extra" \
  -DCMAKE_EXE_LINKER_FLAGS="$extra" >"$work/cmake-configure.log"
cmake --build "$work/cmake" >"$work/cmake-build.log"

for how in pkgconfig cmake; do
  exe=$work/$how/record_two_frames
  step "$how build: run, validate, replay --path cpu"
  needed=$(objdump -p "$exe" | awk '$1 == "NEEDED" {print $2}')
  grep -qx "libxenotrace-capture.so.1" <<<"$needed" ||
    { echo "$exe does not link libxenotrace-capture.so.1 (NEEDED: $needed)"; exit 1; }
  loaded=$(ldd "$exe" | awk '$1 == "libxenotrace-capture.so.1" {print $3}')
  [ -n "$loaded" ] && [ "$(realpath "$loaded")" = "$(realpath "$libdir/libxenotrace-capture.so.1")" ] ||
    { echo "$exe does not load the installed library:"; ldd "$exe"; exit 1; }
  trace=$work/$how/two_frames.xnt
  "$exe" "$trace"
  "$X" validate "$trace"
  "$X" info "$trace" --json >"$work/$how/info.json"
  grep -Eq '"frames": 2\b' "$work/$how/info.json" ||
    { echo "info does not report 2 frames:"; cat "$work/$how/info.json"; exit 1; }
  "$X" replay "$trace" --out "$work/$how/frames" --path cpu
  for f in frame_0000.png frame_0001.png; do
    [ -s "$work/$how/frames/$f" ] || { echo "replay wrote no $f"; exit 1; }
  done
  rc=0
  "$X" diff "$work/$how/frames/frame_0000.png" "$work/$how/frames/frame_0001.png" >/dev/null || rc=$?
  [ $rc = 1 ] || { echo "frames 0 and 1 should differ (diff exit 1), got exit $rc"; exit 1; }
done
step "ok"
