// The sample list. Each scene's coordinates follow flat_scene.h's rule (axis-aligned edges at
// k+0.75, diagonals along x - y = m + 0.5) so its expected image is exact under any conformant
// rasteriser.
#include <algorithm>

#include "edram_scenarios.h"
#include "flat_scene.h"
#include "interp_scenes.h"
#include "raster_scenes.h"
#include "sample_entry.h"
#include "scale_scenes.h"
#include "shader_scenes.h"
#include "texel_scenes.h"
#include "texture_scene.h"
#include "xnt/base/error.h"

namespace xnt::samples {

namespace {

using xenos::PrimitiveType;

constexpr std::array<uint8_t, 4> kNavy = {0x18, 0x18, 0x28, 0xFF};  // the oracle's clear colour

Sample FlatSample(std::string name, std::string description, std::string expected,
                  FlatScene scene) {
  return DescribedSample(
      std::move(name), std::move(description), std::move(expected),
      [scene](format::Writer& w) { AuthorFlatScene(scene, w); }, [scene] { return ExpectedFlatScene(scene); });
}

FlatScene ClearDrawsResolveSwap() {
  FlatScene s;
  s.clear_rgba = kNavy;
  // A right triangle: vertical, horizontal and x - y = 10.5 edges.
  s.draws.push_back({PrimitiveType::kTriangleList,
                     {{40.75f, 30.25f}, {40.75f, 110.75f}, {121.25f, 110.75f}},
                     {},
                     {0xFF, 0x80, 0x00, 0xFF}});
  // A rectangle as a 4-vertex triangle strip.
  s.draws.push_back({PrimitiveType::kTriangleStrip,
                     {{160.75f, 40.75f}, {280.75f, 40.75f}, {160.75f, 100.75f}, {280.75f, 100.75f}},
                     {},
                     {0x00, 0xC8, 0x50, 0xFF}});
  // A second triangle, partly over nothing else: horizontal, vertical and x - y = 59.5 edges.
  s.draws.push_back({PrimitiveType::kTriangleList,
                     {{200.25f, 140.75f}, {280.75f, 140.75f}, {280.75f, 221.25f}},
                     {},
                     {0xC8, 0x28, 0xA0, 0xFF}});
  return s;
}

FlatScene IndexedQuadList() {
  FlatScene s;
  s.clear_rgba = {0x10, 0x10, 0x10, 0xFF};
  // Two quads from one vertex buffer through a 16-bit index buffer; the second overlaps the first.
  s.draws.push_back({PrimitiveType::kQuadList,
                     {{20.75f, 20.75f}, {150.75f, 20.75f}, {150.75f, 120.75f}, {20.75f, 120.75f},
                      {100.75f, 80.75f}, {300.75f, 80.75f}, {300.75f, 220.75f}, {100.75f, 220.75f}},
                     {0, 1, 2, 3, 4, 5, 6, 7},
                     {0x30, 0x90, 0xF0, 0xFF}});
  // A third quad drawn with its corners listed in a different order.
  s.draws.push_back({PrimitiveType::kQuadList,
                     {{200.75f, 10.75f}, {310.75f, 10.75f}, {310.75f, 60.75f}, {200.75f, 60.75f}},
                     {2, 3, 0, 1},
                     {0xF0, 0xD0, 0x20, 0xFF}});
  return s;
}

FlatScene TriangleFan() {
  FlatScene s;
  s.clear_rgba = {0x00, 0x00, 0x00, 0xFF};
  // A convex hexagon fanned from its first corner.
  s.draws.push_back({PrimitiveType::kTriangleFan,
                     {{60.75f, 40.75f}, {140.25f, 40.75f}, {200.75f, 101.25f},
                      {200.75f, 200.75f}, {120.25f, 200.75f}, {60.75f, 141.25f}},
                     {},
                     {0xE0, 0x40, 0x40, 0xFF}});
  return s;
}

FlatScene IndexedTriangleStrip() {
  FlatScene s;
  s.clear_rgba = {0xFF, 0xFF, 0xFF, 0xFF};
  // A band as an indexed strip whose vertex buffer is stored out of order.
  s.draws.push_back({PrimitiveType::kTriangleStrip,
                     {{300.75f, 100.75f}, {300.75f, 60.75f}, {20.75f, 60.75f}, {20.75f, 100.75f}},
                     {2, 1, 3, 0},
                     {0x20, 0x60, 0x20, 0xFF}});
  // A second band crossing it, auto-indexed.
  s.draws.push_back({PrimitiveType::kTriangleStrip,
                     {{140.75f, 20.75f}, {180.75f, 20.75f}, {140.75f, 230.75f}, {180.75f, 230.75f}},
                     {},
                     {0x80, 0x20, 0x20, 0xFF}});
  return s;
}

}  // namespace

std::vector<Sample> BuildRegistry(const RegistryOptions& options) {
  std::vector<Sample> v;
  v.push_back(FlatSample(
      "clear_draws_resolve_swap",
      "320x240 k_8_8_8_8 target: resolve-clear, three flat draws, resolve to a tiled front "
      "buffer, swap",
      "Navy (24,24,40) background; an orange (255,128,0) right triangle with its right angle at "
      "the lower left, corners near (41,31) (41,110) (120,110); a green (0,200,80) rectangle "
      "covering pixels x 161..280, y 41..100; a purple (200,40,160) right triangle with its right "
      "angle at the upper right, corners near (201,141) (280,141) (280,220). All pixels exact.",
      ClearDrawsResolveSwap()));
  v.push_back(FlatSample(
      "indexed_quad_list",
      "QUAD_LIST draws through a DMA 16-bit big-endian index buffer (k8in16)",
      "Dark grey background; a blue (48,144,240) quad x 21..150 y 21..120 partly covered by a "
      "second blue quad x 101..300 y 81..220 (same colour, one draw); a yellow (240,208,32) quad "
      "x 201..310 y 11..60 on top. All pixels exact.",
      IndexedQuadList()));
  v.push_back(FlatSample(
      "triangle_fan",
      "One TRIANGLE_FAN draw of a convex hexagon",
      "Black background; a red (224,64,64) hexagon with corners near (61,41) (140,41) (200,101) "
      "(200,200) (120,200) (61,141); its two slanted sides run down-right at 45 degrees. All "
      "pixels exact.",
      TriangleFan()));
  v.push_back(FlatSample(
      "indexed_triangle_strip",
      "An indexed TRIANGLE_STRIP (shuffled vertex buffer) and an auto-indexed strip",
      "White background; a green (32,96,32) horizontal band x 21..300 y 61..100; a dark red "
      "(128,32,32) vertical band x 141..180 y 21..230 drawn over it. All pixels exact.",
      IndexedTriangleStrip()));
  for (auto& s : ShaderSceneSamples()) v.push_back(std::move(s));
  for (auto& s : MemExportSamples()) v.push_back(std::move(s));
  for (auto& s : TessellationSamples()) v.push_back(std::move(s));
  for (auto& s : CorpusSamples(options.corpus_dir)) v.push_back(std::move(s));
  for (auto& s : TextureSamples()) v.push_back(std::move(s));
  for (auto& s : TexelSamples()) v.push_back(std::move(s));
  for (auto& s : TexFetchSamples()) v.push_back(std::move(s));
  for (auto& s : TexFetchAnisoSamples()) v.push_back(std::move(s));
  for (auto& s : RasterSamples()) v.push_back(std::move(s));
  for (auto& s : RasterPointSamples()) v.push_back(std::move(s));
  for (auto& s : RasterPointSizeSamples()) v.push_back(std::move(s));
  for (auto& s : ClipPointSamples()) v.push_back(std::move(s));
  for (auto& s : VertexIndexSamples()) v.push_back(std::move(s));
  for (auto& s : PixelVertexFetchSamples()) v.push_back(std::move(s));
  for (auto& s : ClipSamples()) v.push_back(std::move(s));
  for (auto& s : ClipRectangleSamples()) v.push_back(std::move(s));
  for (auto& s : ScaleSamples()) v.push_back(std::move(s));
  for (auto& s : InterpSamples()) v.push_back(std::move(s));
  for (const auto& s : EdramScenarios()) {
    if (s.gamma_mode.empty()) {
      v.push_back(s.sample);
    } else if (s.gamma_mode == "srgb") {
      // Blending in linear space on a PWL gamma target: the hardware (and the cpu path) do it;
      // the fbo path does with --gamma srgb only (tests/renderer/edram/scenario_test.cpp).
      Sample sample = s.sample;
      sample.differs_on["fbo"] =
          "the fbo path's default --gamma exact encodes PWL gamma before blending, so it blends "
          "the encoded values; --gamma srgb blends in linear space and reproduces this frame";
      v.push_back(sample);
    }
  }
  return v;
}

const std::vector<Sample>& Registry() {
  static const std::vector<Sample> samples = BuildRegistry({});
  return samples;
}

const Sample* Find(std::string_view name) {
  const auto& r = Registry();
  auto it = std::find_if(r.begin(), r.end(), [&](const Sample& s) { return s.name == name; });
  return it == r.end() ? nullptr : &*it;
}

std::vector<std::string> Names() {
  std::vector<std::string> names;
  for (const Sample& s : Registry()) names.push_back(s.name);
  return names;
}

format::TraceInfo SampleTraceInfo() {
  format::TraceInfo info;
  info.title_id = 0;
  info.capture_source = "xenotrace-samples";
  info.creation_time_unix = kSampleCreationTime;
  return info;
}

format::TraceTotals WriteSample(const Sample& sample, const std::string& path) {
  format::WriterOptions options;
  options.threads = 1;
  auto writer = format::Writer::Create(path, SampleTraceInfo(), options);
  sample.author(*writer);
  writer->Finish();
  return writer->totals();
}

}  // namespace xnt::samples
