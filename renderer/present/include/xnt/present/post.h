// The presentation post-processing chain (after Xenia's presenter, as its article "Presenting the Presentation Update" describes it,
// "Presenting the Presentation Update"): FXAA -> (FSR | CAS | bilinear) -> blue-noise dither to
// 8 bpc, each optional. The passes and their order are planned here once (PlanPasses) and run by
// two implementations of the same kernels (post_kernels.inc, one text compiled as C++ and as
// GLSL): the CPU one in this library (MakeCpuPostProcessor) and the Vulkan compute one in
// renderer/vulkan/present (xnt_vk_present). The input is read exactly (float32); intermediates are
// RGBA16F, except the output of the EASU pass before RCAS, RGBA8 UNORM as in AMD's FSR sample;
// see docs/present.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xnt/gpu/front_buffer.h"

namespace xnt::present {

enum class AntiAliasing : uint8_t { kNone, kFxaa, kFxaaExtreme };
enum class Scaler : uint8_t { kBilinear, kCas, kFsr };

// How a pass's output is held for the next pass: RGBA16F, or RGBA8 UNORM (round to nearest of
// v * 255, as a UNORM image store converts) where the reference's intermediate is 8-bit. The
// chain's input is held as it was given (kFloat32).
enum class StoreFormat : int32_t { kHalf = 0, kUnorm8 = 1, kFloat32 = 2 };

struct PostOptions {
  AntiAliasing aa = AntiAliasing::kNone;
  Scaler scaler = Scaler::kBilinear;
  uint32_t width = 0;   // output size; 0 = the input's
  uint32_t height = 0;
  float cas_sharpness = 0.0f;             // CAS "additional sharpness", 0..1
  float fsr_sharpness_reduction = 0.2f;   // RCAS sharpness reduction in stops, 0..2
  bool dither = true;                     // blue-noise dither on the last pass
  // How the last EASU pass's output is held for RCAS: 8-bit UNORM as AMD's FSR sample holds it
  // (the default), or RGBA16F (what earlier versions of the chain did; the older reference
  // outputs in tests/present/reference were made that way).
  StoreFormat easu_output = StoreFormat::kUnorm8;
};

// "none" / "fxaa" / "fxaa_extreme"; "bilinear" / "cas" / "fsr"; nullopt for anything else.
std::optional<AntiAliasing> ParseAntiAliasing(const std::string& name);
std::optional<Scaler> ParseScaler(const std::string& name);
const char* AntiAliasingName(AntiAliasing aa);
const char* ScalerName(Scaler scaler);

// Linear RGBA in 0..1, top row first, width * height * 4 floats.
struct FloatImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<float> rgba;
};
FloatImage ToFloatImage(const gpu::SwapImage& image);

enum class PassKind : int32_t { kCopy = 0, kFxaa = 1, kCas = 2, kEasu = 3, kRcas = 4, kBilinear = 5 };
const char* PassKindName(PassKind kind);

// Constants of one pass, as the kernels read them (`pc.`): also the Vulkan push-constant block,
// so every member is a 4-byte scalar (std430 layout matches C++'s).
struct PassConstants {
  int32_t kind = 0;
  int32_t src_w = 0, src_h = 0, dst_w = 0, dst_h = 0;
  int32_t last = 0;          // 1: this pass writes 8-bit RGBA (dithered or rounded)
  int32_t dither = 0;        // with last: blue-noise dither instead of round-to-nearest
  int32_t fxaa_steps = 0;    // FXAA quality preset: 12 -> 5 search steps, 39 -> 12
  float fxaa_subpix = 0, fxaa_edge_threshold = 0, fxaa_edge_threshold_min = 0;
  float cas_peak = 0;        // CasSetup: -1 / lerp(8, 5, sharpness)
  float rcas_sharpness = 0;  // FsrRcasCon: exp2(-stops)
  int32_t store = 0;         // not last: how the next pass reads this one's output (StoreFormat)
  int32_t src_store = 0;     // how this pass's input is held: the previous pass's `store`
  int32_t pad2 = 0;
  // EASU: output pixel -> source position, x * scale + offset (FsrEasuCon's con0).
  float src_scale_x = 0, src_scale_y = 0, src_offset_x = 0, src_offset_y = 0;
};
static_assert(sizeof(PassConstants) == 80);

// A pass of `kind` from sw x sh to dw x dh with its size-derived constants; the plan sets the
// kind's own options (FXAA preset, CAS peak, RCAS sharpness, last, store) on top.
PassConstants MakePass(PassKind kind, uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh);

struct PostPlan {
  uint32_t in_width = 0, in_height = 0;
  uint32_t out_width = 0, out_height = 0;
  std::vector<PassConstants> passes;  // never empty: the last one quantizes to 8 bpc
};
// Throws xnt::Error on sizes of 0 or above 16384 per side, or sharpness values out of range.
PostPlan PlanPasses(const PostOptions& options, uint32_t in_width, uint32_t in_height);
std::string DescribePlan(const PostPlan& plan);  // "fxaa 1280x720 -> easu 2560x1440 -> ..."

// The 16x16 blue-noise threshold ranks (0..255 each once), from a void-and-cluster construction
// (Ulichney 1993) run once at start-up: the dither adds (rank + 0.5) / 256 - 0.5 LSB.
const std::array<uint8_t, 256>& BlueNoiseRanks();

// IEEE binary16, round to nearest even (what the RGBA16F intermediates hold).
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t bits);

struct PostResult {
  gpu::SwapImage image;        // RGBA8, alpha 255
  double gpu_milliseconds = -1;  // Vulkan: the passes' GPU time from timestamp queries; else -1
  double wall_milliseconds = 0;  // Run() on the host, uploads and readback included
};

class PostProcessor {
 public:
  virtual ~PostProcessor() = default;
  virtual PostResult Run(const FloatImage& input) = 0;
  virtual std::string device_name() const = 0;
  const PostOptions& options() const { return options_; }
  // The next Run() plans its passes from `options`. A Vulkan processor keeps the pipelines it
  // has compiled (one per pass kind; sizes and constants are push constants) and its buffers, so
  // switching configurations (a settings change, a sweep over many) costs no recompilation.
  void set_options(const PostOptions& options) { options_ = options; }

 protected:
  explicit PostProcessor(const PostOptions& options) : options_(options) {}
  PostOptions options_;
};

// The chain on the CPU (row bands over `threads`; 0 = every core).
std::unique_ptr<PostProcessor> MakeCpuPostProcessor(const PostOptions& options,
                                                    unsigned threads = 0);

// One pass on the CPU, for tests: `src` is RGBA, read as it is; returns dst_w * dst_h * 4 floats
// as the pass stores them (`store`), or the 8-bit values as floats 0..255 for a last pass.
std::vector<float> RunPassCpu(const PassConstants& pass, const std::vector<float>& src);

}  // namespace xnt::present
