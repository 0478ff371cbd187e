#!/usr/bin/env bash
# Builds a small tree that breaks each rule of scripts/check-layering.sh and checks that the
# script fails and names every violation; then a clean tree must pass.
set -u
check=$1 root=$2
rm -rf "$root"
mkdir -p "$root/renderer/gpu/src" "$root/diff/src" "$root/format/src" "$root/renderer/vulkan/src" \
         "$root/ucode/src" "$root/xenos/include" "$root/tools/src" "$root/base/include"
printf '#include <vulkan/vulkan.h>\n' > "$root/renderer/gpu/src/bad_vulkan.cpp"
printf '#include "xnt/format/reader.h"\n' > "$root/diff/src/bad_include.cpp"
printf '#include "xnt/vk/fbo/render_targets.h"\n' > "$root/renderer/vulkan/src/bad_up.cpp"
printf '#include "xnt/replay/command_processor.h"\n' > "$root/ucode/src/bad_floor.cpp"
printf '#include "xnt/ucode/decode.h"\n' > "$root/xenos/include/bad_floor.h"
printf '#include "xnt/vk/vulkan_context.h"\n' > "$root/tools/src/bad_vulkan_reach.cpp"
for i in $(seq 1001); do echo "// $i"; done > "$root/format/src/too_long.cpp"
# A function of N lines, head to closing brace: "int NAME(int x) {", N - 2 statements, "}".
function_of() {
  echo "int $1(int x) {"
  for i in $(seq $(($2 - 2))); do echo "  x += $i;  // a { in a comment and \"}\" in a string do not count"; done
  echo "}"
}
{ echo "namespace n {"; function_of TooLong 151; echo "}  // namespace n"; } > "$root/base/include/too_long_function.h"
out=$(bash "$check" "$root" 2>&1); rc=$?
status=0
[ $rc = 1 ] || { echo "expected exit 1, got $rc"; status=1; }
for want in "renderer/gpu/src/bad_vulkan.cpp:1" "diff/src/bad_include.cpp:1: diff/ may not include \"xnt/format/reader.h\"" \
            "renderer/vulkan/src/bad_up.cpp:1: renderer/vulkan/ may not include" \
            "ucode/src/bad_floor.cpp:1: ucode/ may not include \"xnt/replay/command_processor.h\"" \
            "xenos/include/bad_floor.h:1: xenos/ may not include \"xnt/ucode/decode.h\"" \
            "format/src/too_long.cpp: 1001 lines" \
            "tools/src/bad_vulkan_reach.cpp:1: tools/ may not include \"xnt/vk/vulkan_context.h\"" \
            "base/include/too_long_function.h:2: TooLong is 151 lines"; do
  grep -qF "$want" <<<"$out" || { echo "missing: $want"; status=1; }
done
rm "$root/renderer/gpu/src/bad_vulkan.cpp" "$root/diff/src/bad_include.cpp" \
   "$root/renderer/vulkan/src/bad_up.cpp" "$root/format/src/too_long.cpp" \
   "$root/ucode/src/bad_floor.cpp" "$root/xenos/include/bad_floor.h" \
   "$root/tools/src/bad_vulkan_reach.cpp" "$root/base/include/too_long_function.h"
printf '#include "xnt/base/error.h"\n' > "$root/diff/src/good.cpp"
printf '#include "xnt/renderer/device_tools.h"\n' > "$root/tools/src/good.cpp"
# 150 lines is the most a function may have; a table's initialiser list of any length is data.
{ function_of JustFits 150; echo "const int kTable[] = {"; for i in $(seq 300); do echo "  $i,"; done; echo "};"; } \
  > "$root/base/include/long_table.h"
bash "$check" "$root" >/dev/null 2>&1 || { echo "clean tree failed"; status=1; }
[ $status = 0 ] && echo "layering check: violations caught, clean tree passes"
echo "$out" | sed 's/^/  | /'
exit $status
