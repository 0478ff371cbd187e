#!/usr/bin/env bash
# The architecture, checked (docs/architecture.md): which folder may include which of our headers,
# no Vulkan header outside renderer/vulkan (and none in its translator), tools/ reaching Vulkan only
# through the renderer's session and device_tools headers, no source file over 1,000 lines outside
# the hardware tables, and no function over 150 lines (tables excepted). Run by every build (the xnt_layering_check target), so
# a violation fails `cmake --build`. Prints each violation as FILE:LINE: why.
# Usage: check-layering.sh [SOURCE_ROOT]   (default: the checkout holding this script)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "${1:-$here/..}" || exit 2
fail=0

# folder | our headers it may include: prefixes, or extended regexes where a prefix is not enough
# (renderer/vulkan's shared pieces may include xnt/vk/*.h but not a path's xnt/vk/fbo/...).
rules=(
  "base|xnt/base/"
  "format|xnt/base/ xnt/format/ xnt_generated.h"
  "xenos|xnt/base/ xnt/xenos/"
  "ucode|xnt/base/ xnt/xenos/ xnt/ucode/"
  "capture|xnt/base/ xnt/format/ xnt/xenos/ xnt/capture/ xnt_capture.h"
  "replay|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/"
  "renderer/gpu|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/"
  "renderer/cpu|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/ xnt/cpu/"
  "renderer/present|xnt/base/ xnt/xenos/ xnt/gpu/ xnt/present/ xnt/diff/"
  "renderer/vulkan/translator|xnt/base/ xnt/xenos/ xnt/ucode/ xnt/vk/translator/"
  "renderer/vulkan/present|xnt/base/ xnt/xenos/ xnt/gpu/ xnt/present/ xnt/vk/[^/]+$ xnt/vk/present/"
  "renderer/vulkan/fbo|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/ xnt/vk/"
  "renderer/vulkan/path|xnt/base/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/ xnt/vk/[^/]+$ xnt/vk/translator/ xnt/vk/path/"
  # The build-time baker of the host shaders' SPIR-V runs every path's generators.
  "renderer/vulkan/bake|xnt/base/ xnt/present/ xnt/vk/"
  "renderer/vulkan/fsi|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/ xnt/vk/[^/]+$ xnt/vk/translator/ xnt/vk/path/ xnt/vk/fsi/"
  "renderer/vulkan|xnt/base/ xnt/xenos/ xnt/ucode/ xnt/gpu/ xnt/vk/translator/ xnt/vk/[^/]+$"
  "diff|xnt/base/ xnt/diff/"
  "compare|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/ xnt/renderer/ xnt/diff/ xnt/compare/"
  # Pixel history replays on the cpu path itself (it reads what cpu::PixelWatch recorded); the site
  # writer replays through sessions and reads targets as compare does.
  "inspect|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/replay/ xnt/gpu/ xnt/cpu/ xnt/renderer/ xnt/diff/ xnt/compare/ xnt/inspect/"
  "samples|xnt/base/ xnt/format/ xnt/xenos/ xnt/capture/ xnt/ucode/ xnt/samples/"
  # The CLI composes every library but reaches render paths through xnt/renderer/session.h and the
  # rest of Vulkan through xnt/renderer/device_tools.h: nothing of renderer/vulkan (xnt/vk/), no path's
  # own headers (xnt/cpu/).
  "tools|xnt/base/ xnt/format/ xnt/xenos/ xnt/ucode/ xnt/capture/ xnt/replay/ xnt/gpu/ xnt/present/ xnt/renderer/ xnt/diff/ xnt/compare/ xnt/samples/ xnt/bench/ xnt/inspect/"
)

sources() { find "$1" -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.inc' -o -name '*.c' \) | sort; }

# The folder whose rule owns a file: the most specific one (renderer/vulkan/fbo before
# renderer/vulkan).
# Sets $owner (no subshell: the check runs on every build).
owner_of() {
  local r d
  owner=""
  for r in "${rules[@]}"; do
    d=${r%%|*}
    case "$1" in "$d"/*) [ ${#d} -gt ${#owner} ] && owner=$d ;; esac
  done
}
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)"'
for rule in "${rules[@]}"; do
  dir=${rule%%|*}
  allowed=${rule#*|}
  [ -d "$dir" ] || continue
  owned=()
  while IFS= read -r file; do
    owner_of "$file"
    [ "$owner" = "$dir" ] && owned+=("$file")
  done < <(sources "$dir")
  [ ${#owned[@]} -gt 0 ] || continue
  # One grep for the whole folder (the check runs on every build: no process per file or line).
  while IFS=: read -r file line text; do
    [[ "$text" =~ $include_re ]] || continue
    inc=${BASH_REMATCH[1]}
    case "$inc" in xnt/*|xnt_*) ;; *) continue ;; esac
    ok=0
    for a in $allowed; do
      [[ "$inc" =~ ^$a ]] && ok=1
    done
    if [ $ok = 0 ]; then
      echo "$file:$line: $dir/ may not include \"$inc\" (allowed: $allowed)"
      fail=1
    fi
  done < <(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${owned[@]}")
done

# Vulkan headers only in renderer/vulkan outside its translator (glslang/shaderc are fine there: it
# makes SPIR-V, not Vulkan objects). renderer/src makes the sessions through xnt/vk/ headers only.
for dir in base format xenos ucode capture replay diff compare inspect samples renderer/gpu renderer/cpu renderer/present \
           renderer/vulkan/translator renderer/include renderer/src tools; do
  [ -d "$dir" ] || continue
  while IFS= read -r hit; do
    echo "$hit: Vulkan header outside renderer/vulkan"
    fail=1
  done < <(sources "$dir" | xargs -r grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]vulkan/' /dev/null)
done

# No source file over 1,000 lines, except the hardware tables (data, not code).
tables="xenos/include/xnt/xenos/register_table.inc"
our_sources() {
  for d in base format xenos ucode capture replay renderer diff compare inspect samples tools bench tests; do
    [ -d "$d" ] && sources "$d"
  done
}
while read -r n file; do
  [ "$file" = total ] && continue
  if [ "$n" -gt 1000 ]; then
    case " $tables " in *" $file "*) continue ;; esac
    echo "$file: $n lines (over 1,000: split it by concern)"
    fail=1
  fi
done < <(our_sources | xargs -r wc -l)

# No function over 150 lines (scripts/function-length.awk: the head's first line to the closing
# brace; data tables and initialiser lists do not count): a longer one is split into named steps.
while IFS= read -r hit; do
  echo "$hit"
  fail=1
done < <(our_sources | xargs -r awk -v max=150 -f "$here/function-length.awk")

if [ $fail != 0 ]; then
  echo "check-layering: violations above (docs/architecture.md says what may include what)" >&2
  exit 1
fi
echo "check-layering: ok"
