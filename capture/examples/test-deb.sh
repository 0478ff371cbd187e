#!/usr/bin/env bash
# xnt_deb_packages test: `cpack -G DEB` makes the three packages (README "Install"), each with its
# Debian dependencies declared, the -dev package pinned to the exact library package, the CLI
# runs from the unpacked xenotrace package, each package carries the MIT licence as a
# machine-readable copyright file, and lintian reports no error at all. Lintian warnings are
# printed, not fatal.
# Usage: test-deb.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" ||
  { cat "$work/cpack.log"; exit 1; }
tools=$(ls "$work"/xenotrace_*.deb)
lib=$(ls "$work"/libxenotrace-capture1_*.deb)
dev=$(ls "$work"/libxenotrace-capture-dev_*.deb)

field() { dpkg-deb -f "$1" "$2"; }
for deb in "$tools" "$lib"; do
  deps=$(field "$deb" Depends)
  echo "$(field "$deb" Package): Depends: $deps"
  grep -q "libc6" <<<"$deps" || { echo "no shared-library dependencies in $deb"; exit 1; }
done
want="libxenotrace-capture1 (= $(field "$lib" Version))"
[ "$(field "$dev" Depends)" = "$want" ] ||
  { echo "libxenotrace-capture-dev Depends '$(field "$dev" Depends)', expected '$want'"; exit 1; }
# Listings are read whole before grep: `producer | grep -q` under pipefail fails at random when
# grep exits at its first match and the producer dies of SIGPIPE (it did once in CI).
lib_control=$(dpkg-deb --ctrl-tarfile "$lib" | tar t)
dev_files=$(dpkg-deb -c "$dev")
tools_files=$(dpkg-deb -c "$tools")
grep -qx "./shlibs" <<<"$lib_control" || { echo "no shlibs file"; exit 1; }
grep -qx "./triggers" <<<"$lib_control" || { echo "no ldconfig trigger"; exit 1; }
grep -q "xenotrace-capture.pc" <<<"$dev_files" || { echo "no .pc in the -dev package"; exit 1; }
grep -q "XenotraceCaptureConfig.cmake" <<<"$dev_files" || { echo "no CMake package"; exit 1; }
grep -q "usr/share/man/man1/xenotrace.1.gz" <<<"$tools_files" || { echo "no man page"; exit 1; }
for deb in "$tools" "$lib" "$dev"; do
  pkg=$(field "$deb" Package)
  copyright=$(dpkg-deb --fsys-tarfile "$deb" | tar xO "./usr/share/doc/$pkg/copyright") ||
    { echo "no usr/share/doc/$pkg/copyright in $deb"; exit 1; }
  grep -qx "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" <<<"$copyright" &&
    grep -qx "License: Expat" <<<"$copyright" ||
    { echo "$pkg: copyright is not the machine-readable MIT (Expat) file"; exit 1; }
done

dpkg-deb -x "$tools" "$work/root"
grep -q "Usage: .*xenotrace" <<<"$("$work/root/usr/bin/xenotrace" --help)" ||
  { echo "xenotrace --help from the package failed"; exit 1; }
echo "xenotrace --help runs from the unpacked package"

lintian --fail-on error "$tools" "$lib" "$dev"
echo "lintian: no errors"
