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

#include "check_device.h"
#include "check_rules.h"
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

// Compares one component under `rule`; counts it. False on a disagreement.
bool Compare(float gpu, float cpu, const check::Value& rule, TranslateCheckResult& r) {
  if (rule.opaque) {
    ++r.not_compared;
    return true;
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

bool TranslateChecker::DeviceFlushesDenormals() {
  if (flush_denormals_ >= 0) return flush_denormals_ != 0;
  // 2^-70 * 2^-70 = 2^-140, a denormal: kept or flushed by the device?
  ucode::ShaderType type = ucode::ShaderType::kPixel;
  const ucode::Shader probe = ucode::Decode(ucode::Assemble(R"(xps_3_0
    exec
    mul r0, c0, c0
    alloc colors
    exece
    mov oC0, r0
)", &type), type);
  Device::Inputs in;
  in.memory.resize(Device::kMemoryBytes / 4);
  for (float& c : in.constants.float_constants[kPixelShaderFloatConstantBase]) c = std::ldexp(1.0f, -70);
  in.system.flags = kXeSysFlagWNotReciprocal;
  in.lane_words.resize(64);
  TranslationOptions topt;
  topt.preserve_signed_zero_inf_nan = context_.capabilities().float_signed_zero_inf_nan_preserve_32;
  const TranslatedShader t = Translate(probe, ucode::Analyze(probe), topt);
  Device::Outputs out;
  device_->RunPixel(t.spirv, 1, 1, in, out);
  flush_denormals_ = out.colors[0][0] == 0.0f ? 1 : 0;
  return flush_denormals_ != 0;
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

RandomInputs MakeRandomInputs(uint64_t seed, bool pixel, uint32_t lanes, uint32_t interpolator_count) {
  Rng g(seed);
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
          // so the pixel shader could not receive it.
          s.interpolators[i][c] = RandomFloat(g) + 0.0f;
          in.lane_words[(size_t(l) * 16 + i) * 4 + c] = std::bit_cast<uint32_t>(s.interpolators[i][c]);
        }
      }
    } else {
      s.vertex_index = float(l + base);
    }
  }
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

// The interpreter reads the device's memory and its 1x1 textures.
ucode::InterpreterCallbacks DeviceMemoryCallbacks(const TranslateChecker::Device::Inputs& in) {
  ucode::InterpreterCallbacks cb;
  const std::vector<uint32_t>& memory = in.memory;
  cb.read_memory = [&memory](uint32_t address, uint32_t& word) {
    if (address / 4 >= memory.size()) return false;
    word = memory[address / 4];
    return true;
  };
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

}  // namespace

TranslateCheckResult TranslateChecker::Check(const ucode::Shader& shader,
                                             const TranslateCheckOptions& options) {
  const bool pixel = shader.type == ucode::ShaderType::kPixel;
  const uint32_t lanes = options.lanes;
  if (lanes == 0 || lanes > Device::kMaxLanes) {
    throw Error("--lanes must be 1.." + std::to_string(Device::kMaxLanes));
  }
  TranslateCheckResult result;
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
  topt.preserve_signed_zero_inf_nan = context_.capabilities().float_signed_zero_inf_nan_preserve_32;
  const TranslatedShader t = Translate(patched, analysis, topt);
  for (const std::string& n : t.reflection.notes) AddNote(result, "translator: " + n);
  const check::ExportRules rules = check::AnalyzeExports(patched, t.reflection.uses_memexport);

  // ---- Inputs, GPU -------------------------------------------------------------------------------
  const RandomInputs inputs = MakeRandomInputs(options.seed, pixel, lanes, topt.ps_interpolator_count);
  const ucode::InterpreterConstants& k = inputs.constants;
  const TranslateChecker::Device::Inputs& in = inputs.device;
  const std::vector<ucode::ShaderInputs>& lane_inputs = inputs.lanes;
  Device::Outputs out;
  if (pixel) {
    device_->RunPixel(t.spirv, t.reflection.color_targets_written, lanes, in, out);
  } else {
    device_->RunVertex(t.spirv, lanes, in, out);
  }

  // ---- CPU and the comparison --------------------------------------------------------------------
  const ucode::InterpreterCallbacks cb = DeviceMemoryCallbacks(in);
  const ucode::Interpreter interpreter(options.cpu_shader ? cpu_patched : patched);
  const bool flush = DeviceFlushesDenormals();
  if (flush) AddNote(result, "the device flushes denormals: the interpreter ran with FTZ/DAZ");
  const FloatEnvironment environment(flush);
  auto export_name = [&](uint32_t reg) -> std::string {
    if (pixel) return reg == ucode::kExportDepth ? "oDepth" : "oC" + std::to_string(reg);
    return reg == ucode::kExportPosition ? "oPos" : "o" + std::to_string(reg);
  };
  for (uint32_t l = 0; l < lanes && !result.disagreement; ++l) {
    ucode::ShaderResult cpu = interpreter.Run(k, lane_inputs[l], cb);
    if (options.alter_cpu) options.alter_cpu(l, cpu);
    for (const std::string& n : cpu.notes) AddNote(result, "interpreter: " + n);
    if (cpu.step_limit_hit) {
      AddNote(result, "a lane ran past the interpreter's control-flow step limit: not compared");
      continue;
    }
    LaneDisagreement d;
    d.lane = l;
    bool failed = false;
    auto fail = [&](const std::string& what, const std::string& rule, const std::vector<uint32_t>& slots) {
      if (failed) return;
      failed = true;
      d.what = what;
      d.rule = rule;
      d.slots = slots;
    };
    if (pixel) {
      d.gpu_killed = out.stencil[l] == 0;
      d.cpu_killed = cpu.killed;
      if (d.gpu_killed != d.cpu_killed) {
        if (rules.kill.opaque) {
          AddNote(result, "kill: " + check::RuleName(rules.kill));
          continue;
        }
        fail("kill", "exact (the kill compares only exactly rounded values)", rules.kill_slots);
      } else if (d.gpu_killed) {
        ++result.lanes_killed;
        continue;
      }
    }
    auto check_export = [&](uint32_t reg, const ucode::Float4& gpu, const ucode::Float4& cpu_value,
                            uint32_t components, const check::Value& rule) {
      CheckedExport e;
      e.name = export_name(reg);
      e.gpu = gpu;
      e.cpu = cpu_value;
      e.components = components;
      for (uint32_t c = 0; c < components; ++c) {
        e.rule[c] = check::RuleName(rule);
        if (!Compare(gpu[c], cpu_value[c], rule, result)) {
          fail(e.name + (components > 1 ? std::string(".") + "xyzw"[c] : ""), e.rule[c],
               rules.writers[reg]);
        }
      }
      if (rule.opaque) AddNote(result, e.name + ": " + e.rule[0]);
      d.exports.push_back(e);
    };
    if (pixel && !d.gpu_killed) {
      for (uint32_t tgt = 0; tgt < 4; ++tgt) {
        if (!(t.reflection.color_targets_written & (1u << tgt))) continue;
        ucode::Float4 gpu;
        for (uint32_t c = 0; c < 4; ++c) gpu[c] = out.colors[tgt][size_t(l) * 4 + c];
        check_export(tgt, gpu, cpu.colors[tgt], 4, rules.exports[tgt]);
      }
      if (t.reflection.writes_depth) {
        // Unwritten on this lane's path: the translated shader keeps gl_FragCoord.z (the lane's
        // point is at z = 0.25). A depth outside [0, 1] or NaN is not defined in a depth
        // attachment without VK_EXT_depth_range_unrestricted (lavapipe stores it unclamped, a
        // driver may clamp it): not compared.
        const float want = cpu.depth_written ? cpu.depth : 0.25f;
        check::Value rule = cpu.depth_written ? rules.exports[ucode::kExportDepth] : check::Value{};
        if (!(want >= 0.0f && want <= 1.0f)) {
          rule = check::Value{0, true, "a depth outside [0, 1] (undefined in the depth attachment)"};
        }
        check_export(ucode::kExportDepth, {out.depth[l], 0, 0, 0}, {want, 0, 0, 0}, 1, rule);
      }
    } else if (!pixel) {
      const uint32_t* words = out.capture.data() + size_t(l) * 68;
      auto read = [&](uint32_t v) {
        ucode::Float4 f;
        for (uint32_t c = 0; c < 4; ++c) f[c] = std::bit_cast<float>(words[v * 4 + c]);
        return f;
      };
      // The translated shader's viewport transform with the identity state set above:
      // xyz * 1 + 0 * w (so -0 becomes +0 and an infinite w gives NaN, on both sides).
      ucode::Float4 pos = cpu.position;
      const volatile float zero = 0.0f, one = 1.0f;
      for (int c = 0; c < 3; ++c) pos[c] = pos[c] * one + zero * pos[3];
      check_export(ucode::kExportPosition, read(0), pos, 4, rules.exports[ucode::kExportPosition]);
      for (uint32_t i = 0; i < 16; ++i) {
        if (!(t.reflection.interpolators_written & (1u << i))) continue;
        check_export(i, read(1 + i), cpu.interpolators[i], 4, rules.exports[i]);
      }
    }
    if (!failed) continue;
    d.inputs = InputsText(pixel, lane_inputs[l]);
    result.disagreement = d;
  }
  return result;
}

}  // namespace xnt::vk
