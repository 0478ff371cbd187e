#!/usr/bin/env bash
# Installs the Debian 12 packages Xenotrace needs, as root. Idempotent: packages that are
# already present are skipped, and bookworm-backports is added only when missing.
#
# Mesa comes from bookworm-backports (lavapipe 25: Vulkan 1.4, sparse binding; bookworm's 22.3.6
# crashes in its uniform-inlining pass on some of our shaders). The backports entry is derived from
# the machine's own apt source (its URIs and signing key), so no mirror host is written here.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

PKGS=(
  build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
  lld  # scripts/test.sh links with it (faster than GNU ld; the same objects)
  libvulkan-dev vulkan-validationlayers mesa-vulkan-drivers spirv-tools glslang-tools
  glslc libshaderc-dev
  libzstd-dev libflatbuffers-dev flatbuffers-compiler libstb-dev libcli11-dev
  libgtest-dev libxxhash-dev libsnappy-dev libtomlplusplus-dev chromium
  nlohmann-json3-dev libspng-dev  # JSON read/write; compressed 16-bit PNG
  lintian  # the xnt_deb_packages test (cpack .deb checked with lintian)
  # replay --renderdoc-capture: renderdoc_app.h at build time, librenderdoc.so loaded at run time
  # (never linked), the Python module the capture test opens captures with
  renderdoc librenderdoc-dev python3-renderdoc
)

add_backports() {
  if grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null; then
    return 0
  fi
  local src=/etc/apt/sources.list.d/debian.sources
  if [ -f "$src" ]; then
    # deb822: copy the first stanza whose Suites names bookworm, with Suites replaced.
    awk 'BEGIN{RS=""; ORS="\n\n"} /Suites:[^\n]*bookworm([ \n]|$)/ && !done {
           gsub(/Suites:[^\n]*/, "Suites: bookworm-backports"); print; done=1 }' "$src" |
      $SUDO tee /etc/apt/sources.list.d/xenotrace-backports.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    grep -E '^deb .* bookworm( |$)' /etc/apt/sources.list | head -n1 |
      sed -E 's/ bookworm( |$)/ bookworm-backports\1/' |
      $SUDO tee /etc/apt/sources.list.d/xenotrace-backports.list >/dev/null
  fi
}

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
mesa_ver=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
need_mesa=0
case "$mesa_ver" in 25*|26*|27*) ;; *) need_mesa=1 ;; esac

if [ ${#missing[@]} -gt 0 ] || [ $need_mesa = 1 ]; then
  add_backports
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  if [ ${#missing[@]} -gt 0 ]; then
    $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
  if [ $need_mesa = 1 ]; then
    $SUDO apt-get install -y -q --no-install-recommends -t bookworm-backports \
      mesa-vulkan-drivers || echo "warning: Mesa from bookworm-backports unavailable; keeping $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)"
  fi
fi
