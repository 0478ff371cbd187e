// Bundled sample traces: small, deterministic scenes authored with the PM4 builder and the shader
// assembler, each with a statement of what the correct frame is and — where the scene is simple
// enough — the expected front buffer computed on the CPU from the scene parameters alone
// (independent of any renderer), for pixel tests.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/base/resolution_scale.h"
#include "xnt/format/records.h"
#include "xnt/format/writer.h"

namespace xnt::samples {

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // row-major, 4 bytes per pixel
};

struct Sample {
  std::string name;
  std::string description;     // one line
  std::string expected_frame;  // what a correct replay shows
  // Authors the trace into `writer` (records only; the caller creates and finishes the writer).
  std::function<void(format::Writer& writer)> author;
  // The expected front buffer of the last frame, or empty when the scene is not simple enough.
  std::function<Image()> expected_image;
  // The same at a resolution scale (S x T host pixels per guest pixel), worked out from the
  // scene parameters at that scale, for the scales the scene is exact at (the function throws
  // xnt::Error at others); empty when only the 1x image is worked out.
  std::function<Image(ResolutionScale)> expected_image_scaled;
  // Render paths ("fbo", ...) whose default replay does not show expected_image, and why: what
  // the hardware does that the path cannot (the tests check the difference is still there).
  std::map<std::string, std::string> differs_on;
  // Draws that rasterize nothing by design (every path skips drawing them; e.g. their vertex
  // shader only exports memory): the tests expect exactly this many skipped draws.
  uint32_t draws_skipped = 0;
};

// The folder the corpus_* samples read the XDK-compiled burgerlib shaders from unless told
// otherwise: the one configured at build time (the repository holds no copies of them).
std::string DefaultCorpusDir();

struct RegistryOptions {
  // Where the corpus_* samples find the shader corpus; without it there they are not registered.
  std::string corpus_dir = DefaultCorpusDir();
};

// Every sample under `options`, built on each call (scenes are authored lazily: listing never
// reads the corpus).
std::vector<Sample> BuildRegistry(const RegistryOptions& options);
// BuildRegistry with the default options, built once.
const std::vector<Sample>& Registry();
const Sample* Find(std::string_view name);
// The registry's names in its order (what test suites over every sample are instantiated with).
std::vector<std::string> Names();

// Trace info every sample uses: fixed creation time, so output is byte-for-byte deterministic.
format::TraceInfo SampleTraceInfo();
inline constexpr uint64_t kSampleCreationTime = 1735689600;  // 2025-01-01T00:00:00Z

// Writes `sample` to `path` (single compression thread, fixed writer version string, so the file
// bytes depend only on the sample). Returns the writer's totals.
format::TraceTotals WriteSample(const Sample& sample, const std::string& path);

}  // namespace xnt::samples
