#!/usr/bin/env bash
# README command (a): install missing Debian packages, configure, build, and run the main job on a
# bundled sample trace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build
bash scripts/main-job.sh build
