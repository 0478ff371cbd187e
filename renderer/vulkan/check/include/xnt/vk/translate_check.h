// `xenotrace shader translate --check`: one shader run by the fbo path's translation on the
// Vulkan device and by the CPU interpreter (xnt/ucode/interpreter.h) over the same random inputs,
// lane by lane, every export compared. The comparison rule per export component comes from what
// both sides guarantee (docs/shaders.md, "translate --check"): exact bits (NaN equals NaN) where
// only exactly rounded operations reach the export; a stated ULP / absolute tolerance where the
// value is the result of an op whose host precision Vulkan leaves open (exp, log, rcp, rsq, sqrt,
// sin, cos), moved or clamped at most; not compared where such a result went on through other
// arithmetic, a compare or control flow, or where the lanes cannot give the op its meaning
// (getCompTexLOD, getGradients of lone points; TranslateCheckOptions::quads draws 2x2 quads for
// them). Inputs (constants, interpolators or vertex data, texels) come from one seed, so a run is
// reproducible.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/ucode.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

struct TranslateCheckOptions {
  uint32_t lanes = 256;     // pixels (one point each) or vertices, 1..16384
  uint64_t seed = 1;
  // Pixel shaders in 2x2 quads (src/check_quads.h) instead of lone points: interpolants are
  // random planes across each quad, drawn as triangles (some quads only partly covered, their
  // other pixels helpers), so derivatives, getGradients, getCompTexLOD and the implicit LOD are
  // a real draw's; `lanes` a multiple of 4, at most 1,024. Interpolants are then ordinary values
  // (no infinities or NaN: the rasterizer cannot interpolate them); lone points check those.
  bool quads = false;
  // Pixel shaders: interpolators loaded into r0.. (a container's declarations give it).
  uint32_t ps_interpolator_count = 16;
  // The fsi path's translation: pixel shaders with its texture options (exact_bilinear: bilinear
  // fetches of one-level 2D textures filtered in the shader). Its output merger, which writes
  // the EDRAM buffer instead of colour outputs, is left out (the colour outputs stand in: the
  // interpreter does not model the EDRAM; renderer_fsi_test holds the merger to the cpu path);
  // a note says so. Vertex shaders translate as on fbo (the fsi path's exact polygon offset
  // output, for depth-tested triangles only, takes o15's location, which the capture reads).
  bool fsi = false;
  // A planted disagreement, for tests: the interpreter runs this shader instead (the GPU still
  // runs `shader`), and/or `alter_cpu` edits each lane's CPU result before the comparison.
  const ucode::Shader* cpu_shader = nullptr;
  // Float constants set after the random ones (c# of the shader's own numbering): a memexport
  // stream descriptor for eA, for instance, which random values would almost never make valid.
  std::vector<std::pair<uint32_t, ucode::Float4>> float_constants;
  std::function<void(uint32_t lane, ucode::ShaderResult&)> alter_cpu;
  // Tests (planted faults): edits a pixel lane's colour export `target` as the device wrote it,
  // where the export is compared within a host filter's bound [low, high] (per component; the
  // interval check_bounds.h derives), before the comparison.
  std::function<void(uint32_t lane, uint32_t target, ucode::Float4& gpu, const ucode::Float4& low,
                     const ucode::Float4& high)>
      alter_gpu;
  // Real textures. The cpu path's texture unit (xnt/cpu/texture_callbacks.h, which this library
  // may not include): binds `cb`'s texture callbacks to the 192 fetch constant dwords over the
  // guest bytes at `address` and returns what must live while they are used. When set, every
  // texture fetch constant a shader samples gets a random texture (src/check_textures.h) that
  // the device loads through the paths' texture cache and samples with their samplers; when
  // not, 1x1 textures whose one texel every coordinate reads.
  std::function<std::shared_ptr<void>(std::span<const uint32_t> fetch_constants, uint32_t address,
                                      std::span<const uint8_t> bytes, ucode::InterpreterCallbacks& cb)>
      texture_unit;
};

// One export register of one lane as both sides produced it.
struct CheckedExport {
  std::string name;  // oC0..oC3, oDepth, oPos, o0..o15, oPts, guest memory
  std::array<float, 4> gpu{}, cpu{};
  uint32_t components = 4;  // oDepth: 1
  std::array<std::string, 4> rule;  // per component: "exact", "rcp: 3 ulp", "not compared: ..."
};

struct LaneDisagreement {
  uint32_t lane = 0;
  std::string what;             // "oC0.y", "kill", "vertex kill", "memory 0x00001230", ...
  std::string rule;             // the rule it broke
  std::vector<uint32_t> slots;  // instruction slots that export there (for "kill": kill ops)
  std::string inputs;           // the lane's inputs, one line each
  std::vector<CheckedExport> exports;
  bool gpu_killed = false, cpu_killed = false;
};

struct TranslateCheckResult {
  bool pixel = true;
  uint32_t lanes = 0;
  uint32_t lanes_killed = 0;       // killed on both sides
  bool quads = false;              // pixel lanes in 2x2 quads (TranslateCheckOptions::quads)
  uint32_t helper_lanes = 0;       // quads: pixels the primitive does not cover (not compared)
  uint64_t compared_exact = 0;     // export components compared bit for bit
  uint64_t compared_tolerance = 0; // compared within a stated tolerance
  uint64_t compared_bounded = 0;   // host-filtered texels within their footprint's bound
  uint64_t not_compared = 0;       // components (and memory dwords) the rules leave out
  std::map<std::string, uint64_t> not_compared_why;  // the reason -> how many
  // Memexport shaders: guest memory dwords compared bit for bit after the draw (every dword of
  // the check's windows, stores or not).
  uint64_t memory_compared = 0;
  std::vector<std::string> textures;  // real textures: one line per texture (format, size, ...)
  std::vector<std::string> notes;  // why components were not compared, interpreter notes
  std::optional<LaneDisagreement> disagreement;
  std::string device;
  uint64_t seed = 0;

  bool agree() const { return !disagreement; }
  std::string Text() const;
  std::string Json() const;

 private:
  std::string WhyJson() const;  // not_compared_why as a JSON object's members
};

// Keeps the device objects (descriptor sets, buffers, textures, targets) between checks, so
// many shaders run in one session; each Check builds and drops one pipeline.
class TranslateChecker {
 public:
  explicit TranslateChecker(VulkanContext& context);
  ~TranslateChecker();
  TranslateChecker(const TranslateChecker&) = delete;
  TranslateChecker& operator=(const TranslateChecker&) = delete;

  // Translates `shader` for the fbo path and runs the comparison. Throws xnt::Error when the
  // shader cannot be translated or run (a device error).
  TranslateCheckResult Check(const ucode::Shader& shader, const TranslateCheckOptions& options);

  struct Device;  // the Vulkan objects (src/check_device.h)

  // Whether the device flushes denormal results to zero in pixel (or vertex) shaders (probed once
  // per stage with one pixel / vertex).
  bool DeviceFlushesDenormals(bool pixel = true);

 private:
  std::array<int, 2> flush_denormals_{-1, -1};  // vertex, pixel
  VulkanContext& context_;
  std::unique_ptr<Device> device_;
};

}  // namespace xnt::vk
