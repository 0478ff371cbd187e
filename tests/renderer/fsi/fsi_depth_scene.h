// What the fsi depth tests (fsi_polygon_offset_test, fsi_exact_depth_test) share: a one-frame
// scene of random triangles in scissored cells over a colour + depth target, written as a trace
// and replayed on cpu and fsi, and the depth dwords of the two EDRAMs compared.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include <unistd.h>

#include "present_frame.h"
#include "replay_helpers.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/format/writer.h"
#include "xnt/samples/samples.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::depth_scene {

inline constexpr uint32_t kVertexBase = 0x00010000, kRing = 0x00080000, kResolveVerts = 0x00070000;
inline constexpr uint32_t kScratch = 0x00300000, kFront = 0x00200000;

struct Rng {
  uint64_t s;
  uint32_t Next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 32);
  }
  // [0, 1) with 24 random bits (exact in float and double alike).
  float Unit() { return float(Next() >> 8) / 16777216.0f; }
};

// The scene's start: D3D defaults, the target `rt` of width x height, colour cleared to opaque
// black and depth to 1.0 by a resolve, the viewport over the target and the shaders. Returns the
// clear's resolve set-up for EndScene.
inline capture::ResolveSetup BeginScene(format::Writer& writer, capture::Pm4Builder& b,
                                        const capture::RenderTargetSetup& rt, uint32_t width,
                                        uint32_t height, const capture::ShaderPair& shaders) {
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVerts,
                                   capture::ResolveRectangleVertices(width, height)});
  capture::D3dDeviceDefaults(b);
  capture::D3dSetRenderTarget(b, rt);
  const capture::ResolveSetup clear{.width = width, .height = height, .dest_address = kScratch,
                                    .dest_pitch = width, .dest_height = height,
                                    .clear_color = true, .clear_color_value = 0xFF000000u,
                                    .clear_depth = true, .clear_depth_value = 0xFFFFFF00u,
                                    .vertex_address = kResolveVerts};
  capture::D3dResolve(b, rt, clear);
  capture::D3dSetViewport(b, 0, 0, float(width), float(height));
  capture::D3dSetShaders(b, shaders);
  return clear;
}

// The scene's end: colour resolved to kFront, swapped, the PM4 written as one ring submission
// with its frame marker.
inline void EndScene(format::Writer& writer, capture::Pm4Builder& b,
                     const capture::RenderTargetSetup& rt, const capture::ResolveSetup& clear,
                     uint32_t width, uint32_t height) {
  samples::PresentFrame(b, writer, rt, clear, kFront, kRing, width, height);
}

// Writes `author`'s trace under the build tree (a name unique to this process) and returns it.
inline std::filesystem::path WriteTrace(const std::string& name,
                                        std::function<void(format::Writer&)> author) {
  samples::Sample sample;
  sample.name = name;
  sample.author = std::move(author);
  const auto file = std::filesystem::path(XNT_BINARY_DIR) / "tests" / "renderer" / "fsi" /
                    (name + "_" + std::to_string(::getpid()) + ".xnt");
  std::filesystem::create_directories(file.parent_path());
  samples::WriteSample(sample, file.string());
  return file;
}

// `fsi`: the fsi path's options (FsiOptions::derivative_slope for the host's depth plane).
inline test::TraceRun Play(const std::filesystem::path& file, renderer::Path path, uint32_t scale,
                           const vk::fsi::FsiOptions& fsi = {}) {
  return test::ReplayTraceFile(file.string(), path, scale, /*synchronization_validation=*/false,
                               fsi);
}

// The validation messages and the session's notes, for failure output.
inline std::string Report(const test::TraceRun& r) {
  std::string out = r.validation_report;
  for (const auto& [what, count] : r.notes) out += "\n" + what;
  return out;
}

// Dwords from byte `begin` (the depth surface) on that differ; `first` lists the first few.
inline size_t DifferingDepthDwords(const test::TraceRun& a, const test::TraceRun& b, size_t begin,
                                   std::string& first) {
  size_t n = 0;
  for (size_t i = begin; i + 4 <= a.edram.size(); i += 4) {
    uint32_t x, y;
    std::memcpy(&x, &a.edram[i], 4);
    std::memcpy(&y, &b.edram[i], 4);
    if (x == y) continue;
    if (n < 12) {
      first += "byte " + std::to_string(i) + ": depth " + std::to_string(x >> 8) + " vs " +
               std::to_string(y >> 8) + "\n";
    }
    ++n;
  }
  return n;
}

// Depth dwords from byte `begin` that a draw wrote (neither the clear, 1.0, nor 0).
inline size_t WrittenDepthDwords(const test::TraceRun& r, size_t begin) {
  size_t written = 0;
  for (size_t i = begin; i + 4 <= r.edram.size(); i += 4) {
    uint32_t d;
    std::memcpy(&d, &r.edram[i], 4);
    written += d != 0xFFFFFF00u && d != 0;
  }
  return written;
}

}  // namespace xnt::vk::depth_scene
