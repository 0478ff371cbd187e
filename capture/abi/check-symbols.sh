#!/usr/bin/env bash
# capture_abi_symbols test: the shared capture library exports exactly the committed list
# (capture/abi/xnt_capture.symbols: NAME@@VERSION_NODE, sorted), every function the header
# declares is in that list, and the SONAME is libxenotrace-capture.so.<SOVERSION>.
# Usage: check-symbols.sh LIBRARY SOVERSION     (run from anywhere)
# After an intended addition: add the function to a new version node in xnt_capture.map and
# regenerate the list with   nm -D --defined-only LIBRARY | awk '$2=="T"{print $3}' | sort
set -euo pipefail
lib=$1
soversion=$2
abi=$(cd "$(dirname "$0")" && pwd)
fail=0

exported=$(nm -D --defined-only "$lib" | awk '$2 != "A" {print $3 "\t" $2}' | sort)
# Only functions (T); data, weak or unique symbols would be internals leaking out.
if grep -qv $'\tT$' <<<"$exported"; then
  echo "non-function symbols exported by $lib:"
  grep -v $'\tT$' <<<"$exported"
  fail=1
fi
if ! diff -u "$abi/xnt_capture.symbols" <(cut -f1 <<<"$exported") >&2; then
  echo "exported symbols differ from capture/abi/xnt_capture.symbols (- committed, + built)"
  fail=1
fi
header=$(grep -oE '^xnt_capture_[a-z_]+\(' "$abi/../include/xnt_capture.h" | tr -d '(' | sort)
if ! diff -u <(sed 's/@.*//' "$abi/xnt_capture.symbols") <(echo "$header") >&2; then
  echo "functions declared in xnt_capture.h differ from the committed list (+ header only)"
  fail=1
fi
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" {print $2}')
if [ "$soname" != "libxenotrace-capture.so.$soversion" ]; then
  echo "SONAME is '$soname', expected libxenotrace-capture.so.$soversion"
  fail=1
fi
[ $fail = 0 ] && echo "libxenotrace-capture: SONAME $soname, $(wc -l <"$abi/xnt_capture.symbols") symbols as committed"
exit $fail
