// `xenotrace bench render`: what a render path costs. Two authored traces, each replayed from
// memory (records decoded once, so file I/O is not measured) on every path asked for:
// - fullscreen: one textured full-target pass whose pixel shader runs 10 instructions (a
//   tfetch2D and 9 ALU ops) per pixel: shaded pixels per second;
// - small_draws: many 8x8-pixel flat-colour quads: seconds per draw.
// Times are the median of the repeats, of playing the records and finishing the work (session
// creation excluded).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace xnt::bench {

struct RenderBenchOptions {
  std::vector<std::string> paths = {"cpu", "fbo"};
  uint32_t width = 1280, height = 720;
  uint32_t small_draws = 2000;
  uint32_t repeats = 5;
  int device_index = -1;
  uint32_t threads = 0;  // cpu path: pixel-stage threads (0 = every core)
  std::function<void(const std::string& what)> progress;
};

struct RenderBenchResult {
  std::string scene;  // "fullscreen" or "small_draws"
  std::string path;
  std::string device;
  uint32_t draws = 0;
  uint64_t pixels = 0;           // shaded pixels per replay
  double median_seconds = 0.0;   // one replay
  double min_seconds = 0.0, max_seconds = 0.0;
  double pixels_per_second = 0.0;
  double seconds_per_draw = 0.0;
  // Paths that draw synchronously (cpu): the time inside the draws alone (rasterization, both
  // shader stages, output merger; not the clears, resolves, uploads and swap around them),
  // median over the replays, and the shaded pixels per second of that. 0 for the GPU paths,
  // whose draws only record commands.
  double draw_seconds = 0.0;
  double draw_pixels_per_second = 0.0;
  // Process CPU time (every thread, CLOCK_PROCESS_CPUTIME_ID), median over the replays: of the
  // whole replay and, for the cpu path, inside the draws. On a loaded machine wall time depends
  // on what else runs; CPU time much less, so before/after comparisons use it (with --threads 1
  // it is the single-core cost).
  double cpu_seconds = 0.0;
  double draw_cpu_seconds = 0.0;
  // cpu path: wall and process CPU time inside the resolves (their copies and EDRAM clears),
  // medians. What is left of the replay (whole - draws - resolves) is the swap's front-buffer
  // read, the memory uploads and command processing.
  double resolve_seconds = 0.0, resolve_cpu_seconds = 0.0;
  std::string error;  // non-empty: the path could not run here (why)
};

std::vector<RenderBenchResult> RunRenderBench(const RenderBenchOptions& options);

}  // namespace xnt::bench
