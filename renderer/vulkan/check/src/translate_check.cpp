// translate --check: inputs from the seed, both runs, and the lane-by-lane comparison
// (translate_check.h; the rules in check_rules.h, the device in check_device.h).
#include "xnt/vk/translate_check.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "check_bounds.h"
#include "check_device.h"
#include "check_memory.h"
#include "check_quads.h"
#include "check_rules.h"
#include "check_textures.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {
namespace {

using Rng = std::mt19937_64;

// Ordinary values, the ones the ALU rules treat specially (+-0, infinities, NaN, FLT_MAX), and
// random bit patterns. No denormals: whether the host flushes them is the driver's choice (the
// translated shaders do not declare a denorm mode), and Xenos flushes them itself only in the
// multiplications (xe_is_zero).
float RandomFloat(Rng& g) {
  static const float kSpecial[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.0f, 255.0f, 0.25f,
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::quiet_NaN(), FLT_MAX, -FLT_MAX};
  switch (g() % 4) {
    case 0: return kSpecial[g() % std::size(kSpecial)];
    case 1: {
      uint32_t bits = uint32_t(g());
      if ((bits & 0x7F800000u) == 0) bits &= 0x80000000u;  // a denormal becomes a zero
      return std::bit_cast<float>(bits);
    }
    default: return float(int32_t(g() % 2001) - 1000) / 64.0f;
  }
}

// A finite texel component (the 1x1 float textures store it as is).
float RandomTexel(Rng& g) {
  float f;
  do {
    f = RandomFloat(g);
  } while (!std::isfinite(f));
  return f;
}

std::string Float(float f) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g (0x%08x)", double(f), std::bit_cast<uint32_t>(f));
  return buf;
}

std::string Vec(const ucode::Float4& v) {
  return "(" + Float(v[0]) + ", " + Float(v[1]) + ", " + Float(v[2]) + ", " + Float(v[3]) + ")";
}

bool SameBits(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

// Compares one component under `rule`; counts it. False on a disagreement. `bound`: the ends a
// bounded component must lie between (the interpreter's runs on its fetches' interval ends), null
// where there are none.
bool Compare(float gpu, float cpu, const check::Value& rule, TranslateCheckResult& r,
             const std::array<float, 2>* bound = nullptr) {
  if (rule.opaque) {
    ++r.not_compared;
    ++r.not_compared_why[rule.why];
    return true;
  }
  if (rule.bounded) {
    if (!bound || !std::isfinite((*bound)[0]) || !std::isfinite((*bound)[1])) {
      ++r.not_compared;
      ++r.not_compared_why[check::kNoBound];
      return true;
    }
    ++r.compared_bounded;
    return gpu >= std::min((*bound)[0], (*bound)[1]) && gpu <= std::max((*bound)[0], (*bound)[1]);
  }
  if (rule.approx) {
    ++r.compared_tolerance;
    return check::WithinTolerance(gpu, cpu, rule.approx);
  }
  ++r.compared_exact;
  return SameBits(gpu, cpu);
}

void AddNote(TranslateCheckResult& r, const std::string& note) {
  if (std::find(r.notes.begin(), r.notes.end(), note) == r.notes.end()) r.notes.push_back(note);
}

// The interpreter runs in the float environment the device's shaders run in: the translated
// shaders declare no denorm mode (SPV_KHR_float_controls DenormFlushToZero/Preserve), so whether
// denormal results are flushed to zero (and denormal operands read as zero) is the driver's
// choice; lavapipe flushes both. On x86 the interpreter follows with MXCSR FTZ/DAZ.
class FloatEnvironment {
 public:
  explicit FloatEnvironment(bool flush) {
#if defined(__x86_64__) || defined(__i386__)
    saved_ = _mm_getcsr();
    if (flush) _mm_setcsr(saved_ | 0x8040u);  // FTZ (bit 15) | DAZ (bit 6)
#else
    (void)flush;
#endif
  }
  ~FloatEnvironment() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_);
#endif
  }

 private:
  [[maybe_unused]] uint32_t saved_ = 0;
};

}  // namespace

bool TranslateChecker::DeviceFlushesDenormals(bool pixel) {
  int& flush = flush_denormals_[pixel ? 1 : 0];
  if (flush >= 0) return flush != 0;
  // 2^-70 * 2^-70 = 2^-140, a denormal: kept or flushed by the device? Probed per stage: a
  // driver may compile the stages with different float modes (lavapipe flushes in both).
  ucode::ShaderType type = pixel ? ucode::ShaderType::kPixel : ucode::ShaderType::kVertex;
  const ucode::Shader probe = ucode::Decode(ucode::Assemble(pixel ? R"(xps_3_0
    exec
    mul r0, c0, c0
    alloc colors
    exece
    mov oC0, r0
)" : R"(xvs_3_0
    exec
    mul r1, c0, c0
    alloc interpolators
    exece
    mov o0, r1
)", &type), type);
  Device::Inputs in;
  in.memory.resize(Device::kMemoryBytes / 4);
  const uint32_t base = pixel ? kPixelShaderFloatConstantBase : 0;
  for (float& c : in.constants.float_constants[base]) c = std::ldexp(1.0f, -70);
  in.system.flags = kXeSysFlagWNotReciprocal;
  in.lane_words.resize(64);
  TranslationOptions topt;
  topt.preserve_signed_zero_inf_nan = context_.capabilities().float_signed_zero_inf_nan_preserve_32;
  topt.vs_vertex_kill = 1;
  topt.vs_point_export_clip_distances = true;
  const TranslatedShader t = Translate(probe, ucode::Analyze(probe), topt);
  Device::Outputs out;
  float result = 0.0f;
  if (pixel) {
    device_->RunPixel(t.spirv, 1, 1, in, out);
    result = out.colors[0][0];
  } else {
    device_->RunVertex(t.spirv, 1, in, out);
    result = std::bit_cast<float>(out.capture[4]);  // o0.x
  }
  flush = result == 0.0f ? 1 : 0;
  return flush != 0;
}

TranslateChecker::TranslateChecker(VulkanContext& context)
    : context_(context), device_(std::make_unique<Device>(context)) {}

TranslateChecker::~TranslateChecker() = default;

namespace {

// A vertex fetch with format 0 is a placeholder the title patches at run time (the compiler
// leaves format and stride to the vertex declaration): both sides run it as a full-precision
// FMT_32_32_32_32_FLOAT element 16 dwords apart, so the vertex data reaches the shader. True when
// there was one.
bool PatchPlaceholderFetches(ucode::Shader& shader) {
  bool placeholders = false;
  for (ucode::Instruction& ins : shader.slots) {
    if (ins.kind != ucode::SlotKind::kFetch || !ins.fetch.IsVertex() || ins.fetch.format != 0) continue;
    ins.fetch.format = 38;
    if (ins.fetch.stride == 0) ins.fetch.stride = 16;
    placeholders = true;
  }
  return placeholders;
}

// One check's random inputs, the same for the interpreter and the device.
struct RandomInputs {
  ucode::InterpreterConstants constants;
  TranslateChecker::Device::Inputs device;
  std::vector<ucode::ShaderInputs> lanes;
};

// The 32-bit endian swaps of a vertex fetch constant (0 none, 1 8in16, 2 8in32, 3 16in32); each
// is its own inverse.
uint32_t Swap32(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

// Vertex fetch constants of the shader's full vertex fetches address the check's memory (binding
// 0 from dword 0, the window's first half — the second is left to memexport streams — or, one
// time in four, a smaller buffer whose end the fetches cross) with one random endian swap, so the
// formats decode real words on both sides rather than the zeros a random constant's address
// (almost always past the window) gives. Slots a texture fetch also reads keep their random
// words. Drawn from a second generator, so the other inputs of a seed do not change. Then no
// word of the memory is a denormal as that swap reads it (the smallest exponent is set instead):
// whether arithmetic flushes one is the driver's choice, and the interpreter's FTZ/DAZ stand-in
// also flushes it in the moves and selects the device keeps it in.
void AddressVertexFetches(const ucode::Shader& shader, uint64_t seed, uint32_t* fetch_constants,
                          std::vector<uint32_t>& memory) {
  Rng g(seed ^ 0x7666657463680000ull);
  uint32_t texture_slots = 0;
  for (const ucode::Instruction& ins : shader.slots) {
    if (ins.kind == ucode::SlotKind::kFetch && !ins.fetch.IsVertex()) texture_slots |= 1u << (ins.fetch.const_index & 31);
  }
  constexpr uint32_t kWindowDwords = TranslateChecker::Device::kMemoryBytes / 4;
  const uint32_t endian = uint32_t(g() % 4);
  bool any = false;
  for (const ucode::Instruction& ins : shader.slots) {
    if (ins.kind != ucode::SlotKind::kFetch || !ins.fetch.IsVertex() || ins.fetch.is_mini_fetch) continue;
    const uint32_t vf = ins.fetch.VertexFetchConstant() % 96;
    if (texture_slots & (1u << (vf / 3))) continue;
    const uint32_t size = g() % 4 ? kWindowDwords / 2 : 1 + uint32_t(g() % 64);
    // Dword 0: type 3 (vertex) and the base address in dwords; dword 1: endian, size in dwords.
    fetch_constants[vf * 2] = 3u;
    fetch_constants[vf * 2 + 1] = endian | (size << 2);
    any = true;
  }
  if (!any) return;
  for (uint32_t& w : memory) {
    const uint32_t v = Swap32(w, endian);
    if ((v & 0x7F800000u) == 0 && (v & 0x007FFFFFu) != 0) w = Swap32(v | 0x00800000u, endian);
  }
}

RandomInputs MakeRandomInputs(const ucode::Shader& shader, const TranslateCheckOptions& options,
                              uint32_t interpolator_count) {
  const bool pixel = shader.type == ucode::ShaderType::kPixel;
  const uint32_t lanes = options.lanes;
  Rng g(options.seed);
  RandomInputs r;
  ucode::InterpreterConstants& k = r.constants;
  TranslateChecker::Device::Inputs& in = r.device;
  std::vector<ucode::ShaderInputs>& lane_inputs = r.lanes;
  for (auto& c : k.float_constants) {
    for (float& f : c) f = RandomFloat(g);
  }
  for (uint32_t& b : k.bool_constants) b = uint32_t(g());
  // Loop counts 0-3, random start and step, so loops end well inside both step limits.
  for (uint32_t& l : k.loop_constants) l = (uint32_t(g()) & 0xFFFF00u) | uint32_t(g() % 4);
  for (uint32_t& f : k.fetch_constants) f = uint32_t(g());
  for (uint32_t s = 0; s < 32; ++s) {
    // Texture fetch constants: no sign conversion (dword 0 bits 2-9) and no exp_adjust (dword 3
    // bits 13-18) — the texture unit's conversions are the sampler's (the cpu path's texture
    // model), not the interpreter's — and dimension 2D (dword 5 bits 9-10) so 3D fetches read
    // the 2D array as the translated code does for a stacked texture. The swizzle stays random.
    // Clamp to edge on x, y, z (dword 0 bits 10-18 = 2): the 1x1 textures read their texel at
    // every coordinate, as the check's sampler does, also where the translated point fetch
    // addresses the texel itself (a border clamp would read the border colour there).
    k.fetch_constants[s * 6] &= ~((0xFFu << 2) | (0x1FFu << 10));
    k.fetch_constants[s * 6] |= (2u << 10) | (2u << 13) | (2u << 16);
    k.fetch_constants[s * 6 + 3] &= ~(0x3Fu << 13);
    k.fetch_constants[s * 6 + 5] = (k.fetch_constants[s * 6 + 5] & ~(3u << 9)) | (1u << 9);
  }
  in.memory.resize(TranslateChecker::Device::kMemoryBytes / 4);
  for (uint32_t& w : in.memory) w = g() % 2 ? uint32_t(g()) : std::bit_cast<uint32_t>(RandomFloat(g));
  for (auto& texel : in.texels) {
    for (float& c : texel) c = RandomTexel(g);
  }
  const uint32_t base = pixel ? 0 : uint32_t(g() % 1024);
  lane_inputs.resize(lanes);
  if (pixel) in.lane_words.resize(size_t(lanes) * 64);
  for (uint32_t l = 0; l < lanes; ++l) {
    ucode::ShaderInputs& s = lane_inputs[l];
    if (pixel) {
      s.interpolator_count = interpolator_count;
      for (uint32_t i = 0; i < 16; ++i) {
        for (uint32_t c = 0; c < 4; ++c) {
          // No -0: the rasterizer's attribute setup (a0 + 0 * x) turns a vertex's -0 into +0,
          // so the pixel shader could not receive it. No infinity either: NVIDIA's attribute
          // setup turns one into NaN (the H200 returned NaN for `mov oC0, r0` of a -inf
          // input) where lavapipe keeps it. Infinities still come out of the shaders' own
          // arithmetic (rcp of 0, overflowing products) and vertex shaders' inputs.
          float f;
          do {
            f = RandomFloat(g);
          } while (std::isinf(f));
          s.interpolators[i][c] = f + 0.0f;
          in.lane_words[(size_t(l) * 16 + i) * 4 + c] = std::bit_cast<uint32_t>(s.interpolators[i][c]);
        }
      }
    } else {
      s.vertex_index = float(l + base);
    }
  }
  AddressVertexFetches(shader, options.seed, k.fetch_constants.data(), in.memory);
  for (const auto& [index, value] : options.float_constants) k.float_constants[index & 255] = value;
  // GPU constants: the pixel shader's c# are float constants 256 + #.
  const uint32_t float_base = pixel ? kPixelShaderFloatConstantBase : 0;
  for (uint32_t i = 0; i < 256; ++i) {
    for (uint32_t c = 0; c < 4; ++c) in.constants.float_constants[float_base + i][c] = k.float_constants[i][c];
  }
  std::copy(k.fetch_constants.begin(), k.fetch_constants.end(), in.constants.fetch_constants);
  std::copy(k.bool_constants.begin(), k.bool_constants.end(), in.constants.bool_constants);
  std::copy(k.loop_constants.begin(), k.loop_constants.end(), in.constants.loop_constants);
  // Identity viewport transform, oPos.w as W, no exponent bias, outputs as they are.
  in.system.flags = kXeSysFlagWNotReciprocal;
  for (int i = 0; i < 4; ++i) in.system.ndc_scale[i] = 1.0f;
  in.system.point_size_min_max[0] = in.system.point_size_min_max[1] = in.system.point_size_min_max[2] = 1.0f;
  in.system.vertex_base_index = int32_t(base);
  return r;
}

// The interpreter reads the device's 1x1 textures (and its memory: Check sets read_memory).
ucode::InterpreterCallbacks TextureCallbacks(const TranslateChecker::Device::Inputs& in) {
  ucode::InterpreterCallbacks cb;
  const auto texels = in.texels;
  cb.texture_fetch = [texels](uint32_t, const ucode::Float4&, const ucode::FetchInstruction& f) {
    // 1x1 textures: every coordinate reads the one texel of the array the instruction samples.
    return f.dimension == ucode::TextureDimension::kCube ? texels[1] : texels[0];
  };
  // getWeights: the 1x1 views' size; a 3D fetch of a stacked texture counts the layers the
  // fetch constant declares (dword 2 bits 26..31 + 1), as the translated shader reads them.
  const auto& fetch_constants = in.constants.fetch_constants;
  cb.texture_size = [&fetch_constants](uint32_t slot, const ucode::FetchInstruction&) {
    ucode::TextureQuerySize size;
    size.volume = ((fetch_constants[slot * 6 + 5] >> 9) & 3) == 2;
    if (!size.volume) size.depth = float((fetch_constants[slot * 6 + 2] >> 26) + 1);
    return size;
  };
  return cb;
}

// A disagreeing lane's inputs, for the report.
std::string InputsText(bool pixel, const ucode::ShaderInputs& lane) {
  std::string text;
  if (pixel) {
    for (uint32_t i = 0; i < lane.interpolator_count; ++i) {
      text += "r" + std::to_string(i) + " = " + Vec(lane.interpolators[i]) + "\n";
    }
  } else {
    text = "r0.x (vertex index) = " + Float(lane.vertex_index) + "\n";
  }
  return text;
}

// One lane's exports, GPU against CPU, under the rules; the first disagreement stays in `d`.
struct LaneComparison {
  const check::ExportRules& rules;
  const ShaderReflection& reflection;
  const TranslateChecker::Device::Outputs& out;
  TranslateCheckResult& result;
  bool pixel = true;
  // Quads: a fetch whose texel each side picks exactly only where both magnify may not here
  // (check_quads.h LodLanes).
  bool lod_uncertain = false;
  // Both ends of the lane's bounded exports (check_bounds.h); null when no export is bounded.
  const ucode::ShaderResult* low = nullptr;
  const ucode::ShaderResult* high = nullptr;
  const TranslateCheckOptions* options = nullptr;  // alter_gpu
  LaneDisagreement d;
  bool failed = false;

  check::Value Rule(const check::Value& rule) const {
    if (!rule.per_lane || !lod_uncertain || rule.opaque) return rule;
    const char* why = "host LOD: this lane's lambda is near 0 or minifies (the host's log2 decides "
                      "magnification, its sampler the minified texel)";
    // Carried only through monotone ops: within the host filter's bound over the LOD range.
    if (rule.lane_boundable() && low && high) {
      check::Value bounded = rule;
      bounded.bounded = true;
      bounded.why = why;
      return bounded;
    }
    return check::Value{0, true, why};
  }

  std::string ExportName(uint32_t reg) const {
    if (reg == ucode::kExportPointSize) return "oPts";
    if (pixel) return reg == ucode::kExportDepth ? "oDepth" : "oC" + std::to_string(reg);
    return reg == ucode::kExportPosition ? "oPos" : "o" + std::to_string(reg);
  }
  void Fail(const std::string& what, const std::string& rule, const std::vector<uint32_t>& slots) {
    if (failed) return;
    failed = true;
    d.what = what;
    d.rule = rule;
    d.slots = slots;
  }
  // `get`: the export in a ShaderResult, for the bounded runs' ends.
  void Export(uint32_t reg, const ucode::Float4& gpu, const ucode::Float4& cpu, uint32_t components,
              const check::Value& lane_rule, const std::function<ucode::Float4(const ucode::ShaderResult&)>& get) {
    const check::Value rule = Rule(lane_rule);
    CheckedExport e;
    e.name = ExportName(reg);
    e.gpu = gpu;
    e.cpu = cpu;
    e.components = components;
    const bool ends = rule.bounded && !rule.opaque && low && high;
    const ucode::Float4 lo = ends ? get(*low) : ucode::Float4{}, hi = ends ? get(*high) : ucode::Float4{};
    if (ends && pixel && reg < 4 && options && options->alter_gpu) options->alter_gpu(d.lane, reg, e.gpu, lo, hi);
    for (uint32_t c = 0; c < components; ++c) {
      e.rule[c] = check::RuleName(rule);
      const std::array<float, 2> bound{lo[c], hi[c]};
      if (ends) e.rule[c] += ": [" + Float(std::min(lo[c], hi[c])) + ", " + Float(std::max(lo[c], hi[c])) + "]";
      if (!Compare(e.gpu[c], cpu[c], rule, result, ends ? &bound : nullptr)) {
        Fail(e.name + (components > 1 ? std::string(".") + "xyzw"[c] : ""), e.rule[c], rules.writers[reg]);
      }
    }
    if (rule.opaque) AddNote(result, e.name + ": " + e.rule[0]);
    d.exports.push_back(e);
  }

  void Pixel(uint32_t l, const ucode::ShaderResult& cpu) {
    for (uint32_t tgt = 0; tgt < 4; ++tgt) {
      if (!(reflection.color_targets_written & (1u << tgt))) continue;
      ucode::Float4 gpu;
      for (uint32_t c = 0; c < 4; ++c) gpu[c] = out.colors[tgt][size_t(l) * 4 + c];
      Export(tgt, gpu, cpu.colors[tgt], 4, rules.exports[tgt],
             [tgt](const ucode::ShaderResult& r) { return r.colors[tgt]; });
    }
    if (!reflection.writes_depth) return;
    // Unwritten on this lane's path: the translated shader keeps gl_FragCoord.z (the lane's point
    // is at z = 0.25). A depth outside [0, 1] or NaN is not defined in a depth attachment
    // without VK_EXT_depth_range_unrestricted (lavapipe stores it unclamped, a driver may clamp
    // it): not compared.
    const float want = cpu.depth_written ? cpu.depth : 0.25f;
    check::Value rule = cpu.depth_written ? rules.exports[ucode::kExportDepth] : check::Value{};
    if (!(want >= 0.0f && want <= 1.0f)) {
      rule = check::Value{0, true, "a depth outside [0, 1] (undefined in the depth attachment)"};
    }
    Export(ucode::kExportDepth, {out.depth[l], 0, 0, 0}, {want, 0, 0, 0}, 1, rule, [](const ucode::ShaderResult& r) {
      return ucode::Float4{r.depth_written ? r.depth : 0.25f, 0, 0, 0};
    });
  }

  void Vertex(uint32_t l, const ucode::ShaderResult& cpu) {
    const uint32_t* words = out.capture.data() + size_t(l) * TranslateChecker::Device::kCaptureVectors * 4;
    auto read = [&](uint32_t v) {
      ucode::Float4 f;
      for (uint32_t c = 0; c < 4; ++c) f[c] = std::bit_cast<float>(words[v * 4 + c]);
      return f;
    };
    // The translated shader's viewport transform with the identity state set above:
    // xyz * 1 + 0 * w (so -0 becomes +0 and an infinite w gives NaN, on both sides).
    const auto position = [](const ucode::ShaderResult& r) {
      ucode::Float4 pos = r.position;
      const volatile float zero = 0.0f, one = 1.0f;
      for (int c = 0; c < 3; ++c) pos[c] = pos[c] * one + zero * pos[3];
      return pos;
    };
    Export(ucode::kExportPosition, read(0), position(cpu), 4, rules.exports[ucode::kExportPosition], position);
    for (uint32_t i = 0; i < 16; ++i) {
      if (!(reflection.interpolators_written & (1u << i))) continue;
      Export(i, read(1 + i), cpu.interpolators[i], 4, rules.exports[i],
             [i](const ucode::ShaderResult& r) { return r.interpolators[i]; });
    }
    // oPts as exported (x point size, y edge flag, z vertex kill), and the kill it makes: bits
    // 30:0 of z non-zero (gpu::VertexKillRule; the translator's cull distance of -1).
    const check::Value& pts = rules.exports[ucode::kExportPointSize];
    Export(ucode::kExportPointSize, read(17), cpu.point_size, 4, pts,
           [](const ucode::ShaderResult& r) { return r.point_size; });
    const bool gpu_killed = std::bit_cast<float>(words[18 * 4]) < 0.0f;
    const bool cpu_killed = (std::bit_cast<uint32_t>(cpu.point_size[2]) & 0x7FFFFFFFu) != 0;
    if (!pts.exact()) {
      const check::Value rule = pts.opaque || pts.bounded ? check::Value{0, true, pts.why}
                                                          : check::Value{0, true, "an imprecise oPts.z decides the vertex kill"};
      ++result.not_compared;
      ++result.not_compared_why[rule.why];
    } else {
      ++result.compared_exact;
      if (gpu_killed != cpu_killed) {
        d.gpu_killed = gpu_killed;
        d.cpu_killed = cpu_killed;
        Fail("vertex kill", "exact (bits 30:0 of oPts.z non-zero)", rules.writers[ucode::kExportPointSize]);
      }
    }
  }
};

// Memexport: the device's memory windows after the draw against the lanes' stores. The stores of
// lanes the comparison skipped (a kill that could not be compared, the step limit) are unknown,
// and an imprecise eA or eM value packs into bits that no tolerance describes.
void CompareMemory(const check::ExportRules& rules, const check::ExportedMemory& memory,
                   const TranslateChecker::Device::Outputs& out, const std::string& skipped_lanes,
                   TranslateCheckResult& result) {
  check::Value stream;
  for (uint32_t reg = ucode::kExportAddress; reg <= ucode::kExportData0 + 4; ++reg) {
    if (rules.exports[reg].opaque || rules.exports[reg].approx || rules.exports[reg].bounded) {
      // A host-filtered texel in eA/eM packs into bits that its interval does not bound.
      stream = rules.exports[reg].opaque || rules.exports[reg].bounded
                   ? check::Value{0, true, rules.exports[reg].why}
                   : check::Value{0, true, "an imprecise value exported to eA/eM"};
      break;
    }
  }
  if (!skipped_lanes.empty()) stream = check::Value{0, true, skipped_lanes};
  const std::vector<std::vector<uint32_t>> gpu(out.memory.begin(), out.memory.end());
  const check::ExportedMemory::Result r = memory.Compare(gpu);
  for (const auto& [why, count] : r.not_compared) {
    result.not_compared += count;
    result.not_compared_why[why] += count;
  }
  if (stream.opaque) {
    result.not_compared += r.compared;
    result.not_compared_why["memory: " + stream.why] += r.compared;
    AddNote(result, "guest memory not compared: " + stream.why);
    return;
  }
  result.memory_compared += r.compared;
  if (r.mismatches.empty() || result.disagreement) return;
  const check::ExportedMemory::Mismatch& m = r.mismatches.front();
  char what[96];
  std::snprintf(what, sizeof(what), "guest memory dword 0x%08x: gpu 0x%08x, cpu 0x%08x", m.byte_address,
                m.gpu, m.cpu);
  LaneDisagreement d;
  d.lane = m.lane;
  d.what = what + std::string(" (") + std::to_string(r.mismatch_count) + " dwords differ)";
  d.rule = "exact bits (the dword no lane or one lane stores to)";
  for (uint32_t reg = ucode::kExportAddress; reg <= ucode::kExportData0 + 4; ++reg) {
    d.slots.insert(d.slots.end(), rules.writers[reg].begin(), rules.writers[reg].end());
  }
  result.disagreement = d;
}

// What the lane-by-lane comparison reads: both sides' results and the rules.
struct LaneInputs {
  const check::ExportRules& rules;
  const ShaderReflection& reflection;
  const TranslateChecker::Device::Outputs& out;
  const std::vector<ucode::ShaderResult>& cpu;
  const std::vector<ucode::ShaderInputs>& inputs;
  const check::QuadInputs* quads;        // null: lone points, or vertices
  const std::vector<uint8_t>& per_pixel;  // quads: lanes the interpreter shaded alone
  const std::vector<uint8_t>& lod_uncertain;  // quads: check::LodLanes::uncertain
  bool derivatives = false;  // quads: the shader's results depend on derivatives
  bool pixel = true;
  const std::array<std::vector<ucode::ShaderResult>, 2>* ends = nullptr;  // bounded exports' ends
  const TranslateCheckOptions* options = nullptr;
};

// Every lane's exports under the rules, up to the first disagreement (in `result`). Returns why
// some lane's stores are unknown (its memexport not comparable), or "".
std::string CompareLanes(const LaneInputs& x, TranslateCheckResult& result) {
  std::string skipped_lanes;
  const bool pixel = x.pixel;
  for (uint32_t l = 0; l < uint32_t(x.cpu.size()) && !result.disagreement; ++l) {
    const ucode::ShaderResult& cpu = x.cpu[l];
    if (x.quads && x.quads->helper[l]) {
      ++result.helper_lanes;  // feeds its quad's derivatives; the device writes nothing there
      continue;
    }
    if (x.derivatives && x.per_pixel[l]) {
      // The cpu path shades such a pixel alone, as here: its derivatives are zero, the device's
      // are the quad's.
      const std::string why = "a quad whose pixels took different control flow (the cpu path shades "
                              "it pixel by pixel, without derivatives)";
      const uint32_t components = 4 * uint32_t(std::popcount(x.reflection.color_targets_written)) +
                                  (x.reflection.writes_depth ? 1 : 0);
      result.not_compared += components;
      result.not_compared_why[why] += components;
      AddNote(result, why);
      skipped_lanes = why;
      continue;
    }
    for (const std::string& n : cpu.notes) AddNote(result, "interpreter: " + n);
    if (cpu.step_limit_hit) {
      AddNote(result, "a lane ran past the interpreter's control-flow step limit: not compared");
      skipped_lanes = "a lane ran past the interpreter's step limit (its stores are unknown)";
      continue;
    }
    const auto& rules = x.rules;
    const auto& out = x.out;
    LaneComparison c{rules, x.reflection, out, result, pixel};
    c.lod_uncertain = x.quads && x.lod_uncertain[l];
    if (x.ends && !(*x.ends)[0].empty()) c.low = &(*x.ends)[0][l], c.high = &(*x.ends)[1][l];
    c.options = x.options;
    c.d.lane = l;
    if (pixel) {
      c.d.gpu_killed = out.stencil[l] == 0;
      c.d.cpu_killed = cpu.killed;
      if (c.d.gpu_killed != c.d.cpu_killed) {
        if (rules.kill.opaque || (rules.kill.per_lane && c.lod_uncertain)) {
          AddNote(result, "kill: " + check::RuleName(c.Rule(rules.kill)));
          skipped_lanes = "a lane whose kill was not compared (its stores may differ)";
          continue;
        }
        c.Fail("kill", "exact (the kill compares only exactly rounded values)", rules.kill_slots);
      } else if (c.d.gpu_killed) {
        ++result.lanes_killed;
        continue;
      }
      if (!c.d.gpu_killed) c.Pixel(l, cpu);
    } else {
      c.Vertex(l, cpu);
    }
    if (!c.failed) continue;
    c.d.inputs = InputsText(pixel, x.inputs[l]);
    result.disagreement = c.d;
  }
  return skipped_lanes;
}

// Quads: the device's outputs are per pixel of the grid; each lane's pixel is QuadLanePixel's.
void ToLaneOrder(uint32_t lanes, TranslateChecker::Device::Outputs& out) {
  TranslateChecker::Device::Outputs lane_out;
  for (uint32_t t = 0; t < 4; ++t) lane_out.colors[t].resize(size_t(lanes) * 4);
  lane_out.depth.resize(lanes);
  lane_out.stencil.resize(lanes);
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t p = check::QuadLanePixel(l);
    for (uint32_t t = 0; t < 4; ++t) {
      std::copy_n(out.colors[t].begin() + size_t(p) * 4, 4, lane_out.colors[t].begin() + size_t(l) * 4);
    }
    lane_out.depth[l] = out.depth[p];
    lane_out.stencil[l] = out.stencil[p];
  }
  out.colors = std::move(lane_out.colors);
  out.depth = std::move(lane_out.depth);
  out.stencil = std::move(lane_out.stencil);
}

// Real textures: the rule of each texture fetch's result (check_textures.h TextureFetchRule),
// and not compared where the fetch's filter overrides are not those of the slot's sampler: the
// host makes one sampler per slot, with the overrides of the slot's first fetch that has any
// (ShaderReflection::texture_filters), while the texture unit takes each fetch's own.
std::function<check::Value(const ucode::FetchInstruction&)> TextureRule(
    const ucode::InterpreterConstants& k, const ShaderReflection& reflection, bool pixel, bool fsi,
    bool quads) {
  return [&k, &reflection, pixel, fsi, quads](const ucode::FetchInstruction& f) {
    const uint32_t packed = (f.mag_filter & 3) | ((f.min_filter & 3) << 2) |
                            ((f.mip_filter & 3) << 4) | ((f.aniso_filter & 7) << 6);
    if (f.opcode == ucode::FetchOp::kTextureFetch && packed != reflection.texture_filters[f.const_index & 31]) {
      return check::Value{0, true, "a fetch whose filter overrides are not its slot's sampler's "
                                   "(the host makes one sampler per slot)"};
    }
    return check::TextureFetchRule(f, k.fetch_constants.data(), pixel, fsi, quads);
  };
}

// The interpreter over every lane (over the quads as the cpu path's pixel stage shades them, when
// `quads`); `lane` follows the lane being run (memexport's stores).
struct CpuRun {
  std::vector<ucode::ShaderResult> results;
  std::vector<uint8_t> per_pixel;      // quads: lanes shaded alone (no derivatives)
  std::vector<uint8_t> lod_uncertain;  // quads: check::LodLanes::uncertain
};
CpuRun RunInterpreter(const ucode::Interpreter& interpreter, const ucode::Shader& shader,
                      const ucode::InterpreterConstants& k, const std::vector<ucode::ShaderInputs>& lane_inputs,
                      const check::QuadInputs* quads, const ucode::InterpreterCallbacks& cb,
                      const std::function<check::Value(const ucode::FetchInstruction&)>& texture_rule,
                      uint32_t& lane) {
  const uint32_t lanes = uint32_t(lane_inputs.size());
  CpuRun run;
  run.results.resize(lanes);
  check::LodLanes lod_lanes(cb, k.fetch_constants.data(),
                            texture_rule ? [&texture_rule](const ucode::FetchInstruction& f) {
                              return texture_rule(f).per_lane;
                            } : std::function<bool(const ucode::FetchInstruction&)>(),
                            lanes);
  if (quads) {
    run.results = check::RunQuads(shader, k, *quads, cb, lod_lanes,
                                  [&](uint32_t l) {
                                    lane = l;
                                    return interpreter.Run(k, lane_inputs[l], cb);
                                  },
                                  run.per_pixel);
  } else {
    for (lane = 0; lane < lanes; ++lane) run.results[lane] = interpreter.Run(k, lane_inputs[lane], cb);
  }
  run.lod_uncertain = lod_lanes.uncertain();
  return run;
}

// Both ends of every bounded export (check_bounds.h): the interpreter once with each end of the
// bounded fetches' intervals (no stores: memory is compared from the exact run). Empty when no
// export is bounded.
std::array<std::vector<ucode::ShaderResult>, 2> RunBoundEnds(
    const check::ExportRules& rules, const ucode::Interpreter& interpreter, const ucode::Shader& shader,
    const ucode::InterpreterConstants& k, const std::vector<ucode::ShaderInputs>& lane_inputs,
    const check::QuadInputs* quads, const ucode::InterpreterCallbacks& cb,
    const std::function<check::Value(const ucode::FetchInstruction&)>& texture_rule, uint32_t sub_texel_bits) {
  std::array<std::vector<ucode::ShaderResult>, 2> ends;
  if (std::none_of(rules.exports.begin(), rules.exports.end(),
                   [](const check::Value& v) { return v.bounded || v.lane_boundable(); })) {
    return ends;
  }
  for (uint32_t e = 0; e < 2; ++e) {
    ucode::InterpreterCallbacks bound = check::BoundCallbacks(cb, k.fetch_constants.data(), texture_rule,
                                                              sub_texel_bits, e == 1);
    bound.write_memory = [](uint32_t, uint32_t, uint32_t) { return true; };
    uint32_t lane = 0;
    ends[e] = RunInterpreter(interpreter, shader, k, lane_inputs, quads, bound, texture_rule, lane).results;
  }
  return ends;
}

}  // namespace

TranslateCheckResult TranslateChecker::Check(const ucode::Shader& shader,
                                             const TranslateCheckOptions& options) {
  const bool pixel = shader.type == ucode::ShaderType::kPixel;
  const uint32_t lanes = options.lanes;
  if (lanes == 0 || lanes > Device::kMaxLanes) {
    throw Error("--lanes must be 1.." + std::to_string(Device::kMaxLanes));
  }
  const bool quads = pixel && options.quads;
  if (quads && (lanes % 4 || lanes > check::kMaxQuadLanes)) {
    throw Error("--quads: --lanes must be a multiple of 4, at most " + std::to_string(check::kMaxQuadLanes));
  }
  TranslateCheckResult result;
  result.quads = quads;
  if (options.quads && !pixel) AddNote(result, "quads: a vertex shader runs vertex by vertex (no quads)");
  result.pixel = pixel;
  result.lanes = lanes;
  result.seed = options.seed;
  result.device = context_.capabilities().device_name;

  ucode::Shader patched = shader;
  if (PatchPlaceholderFetches(patched)) {
    AddNote(result, "vertex fetches with format 0 (patched at run time by the title) run as "
                    "FMT_32_32_32_32_FLOAT (stride 16 dwords where it was 0)");
  }
  ucode::Shader cpu_patched;
  if (options.cpu_shader) {
    cpu_patched = *options.cpu_shader;
    PatchPlaceholderFetches(cpu_patched);
  }

  // The fbo path's translation (colour outputs, no output merger in the shader).
  const ucode::Analysis analysis = ucode::Analyze(patched);
  TranslationOptions topt;
  topt.ps_interpolator_count = std::min<uint32_t>(options.ps_interpolator_count, 16);
  // Vertex shaders: the vertex kill as the "all" rule's cull distance and the oPts export for the
  // capture (capture.geom).
  topt.vs_vertex_kill = 1;
  topt.vs_point_export_clip_distances = true;
  topt.preserve_signed_zero_inf_nan = context_.capabilities().float_signed_zero_inf_nan_preserve_32;
  if (options.fsi && pixel) {
    topt.exact_bilinear = true;
    AddNote(result, "fsi: the shader body as the fsi path translates it (exact bilinear filtering); "
                    "its output merger (the EDRAM writes) is not checked: colour outputs stand in");
  }
  const TranslatedShader t = Translate(patched, analysis, topt);
  for (const std::string& n : t.reflection.notes) AddNote(result, "translator: " + n);

  // ---- Inputs, GPU -------------------------------------------------------------------------------
  RandomInputs inputs = MakeRandomInputs(patched, options, topt.ps_interpolator_count);
  check::QuadInputs quad_inputs;
  if (quads) {
    // The same constants and textures; the lanes' interpolants become the quads' planes.
    quad_inputs = check::MakeQuadInputs(options.seed, lanes, topt.ps_interpolator_count);
    inputs.lanes = quad_inputs.lanes;
    inputs.device.lane_words.clear();
    inputs.device.quad_vertices = quad_inputs.vertices;
    inputs.device.quad_rows = quad_inputs.rows;
  }
  check::RandomTextures textures;
  if (options.texture_unit) {
    textures = check::MakeRandomTextures(patched, options.seed, inputs.constants.fetch_constants.data());
    std::copy(inputs.constants.fetch_constants.begin(), inputs.constants.fetch_constants.end(),
              inputs.device.constants.fetch_constants);
    result.textures = textures.described;
  }
  for (const std::string& n : device_->BindTextures(inputs.constants.fetch_constants.data(), textures.slots,
                                                    check::kTextureAddress, textures.bytes, t.reflection)) {
    AddNote(result, n);
  }
  const ucode::InterpreterConstants& k = inputs.constants;
  const TranslateChecker::Device::Inputs& in = inputs.device;
  const std::vector<ucode::ShaderInputs>& lane_inputs = inputs.lanes;
  Device::Outputs out;
  if (quads) {
    device_->RunPixel(t.spirv, t.reflection.color_targets_written, lanes, in, out);
    ToLaneOrder(lanes, out);
  } else if (pixel) {
    device_->RunPixel(t.spirv, t.reflection.color_targets_written, lanes, in, out);
  } else {
    device_->RunVertex(t.spirv, lanes, in, out);
  }

  // ---- CPU and the comparison --------------------------------------------------------------------
  ucode::InterpreterCallbacks cb = TextureCallbacks(in);
  std::shared_ptr<void> texture_unit;
  if (options.texture_unit) {
    texture_unit = options.texture_unit(k.fetch_constants, check::kTextureAddress, textures.bytes, cb);
  }
  // The dwords vertex fetches read, against those memexport stores to (below).
  std::vector<uint32_t> fetched;
  cb.read_memory = [&words = in.memory, &fetched](uint32_t address, uint32_t& word) {
    if (address / 4 >= words.size()) return false;
    fetched.push_back(address / 4);
    word = words[address / 4];
    return true;
  };
  std::vector<std::vector<uint32_t>> initial(kSharedMemoryBindingCount,
                                             std::vector<uint32_t>(Device::kMemoryBytes / 4, 0u));
  std::copy(in.memory.begin(), in.memory.end(), initial[0].begin());
  check::ExportedMemory memory(std::move(initial), Device::kMemoryBytes / 4);
  uint32_t lane = 0;
  cb.write_memory = [&](uint32_t address, uint32_t value, uint32_t mask) {
    return memory.Write(lane, address, value, mask);
  };
  const ucode::Interpreter interpreter(options.cpu_shader ? cpu_patched : patched);
  const bool flush = DeviceFlushesDenormals(pixel);
  if (flush) AddNote(result, std::string("the device flushes denormals in ") + (pixel ? "pixel" : "vertex") +
                                 " shaders: the interpreter ran with FTZ/DAZ");
  const FloatEnvironment environment(flush);
  std::function<check::Value(const ucode::FetchInstruction&)> texture_rule;
  if (options.texture_unit) texture_rule = TextureRule(k, t.reflection, pixel, options.fsi && pixel, quads);
  const ucode::Shader& cpu_shader = options.cpu_shader ? cpu_patched : patched;
  const check::QuadInputs* quad_set = quads ? &quad_inputs : nullptr;
  CpuRun run = RunInterpreter(interpreter, cpu_shader, k, lane_inputs, quad_set, cb, texture_rule, lane);
  std::vector<ucode::ShaderResult>& cpu_results = run.results;
  if (options.alter_cpu) {
    for (lane = 0; lane < lanes; ++lane) options.alter_cpu(lane, cpu_results[lane]);
  }
  const bool derivatives = quads && check::UsesDerivatives(cpu_shader);
  // A vertex fetch of a memexport shader may read what a store wrote, on the device in an order
  // of its own (and a vertex shader runs twice here, once per capture draw); when no store of any
  // lane touched a dword a fetch read, every fetch read the initial memory on both sides and
  // what it fetched is compared.
  const bool fetches_see_stores = t.reflection.uses_memexport && memory.AnyStoredTo(fetched);
  const check::ExportRules rules = check::AnalyzeExports(patched, fetches_see_stores, texture_rule, quads);
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(context_.physical_device(), &properties);
  const auto ends = RunBoundEnds(rules, interpreter, cpu_shader, k, lane_inputs, quad_set, cb, texture_rule,
                                 properties.limits.subTexelPrecisionBits);
  const LaneInputs lane_set{rules,          t.reflection, out,         cpu_results, lane_inputs, quad_set,
                            run.per_pixel,  run.lod_uncertain, derivatives, pixel, &ends, &options};
  const std::string skipped_lanes = CompareLanes(lane_set, result);
  if (t.reflection.uses_memexport && !result.disagreement) CompareMemory(rules, memory, out, skipped_lanes, result);
  return result;
}

}  // namespace xnt::vk
