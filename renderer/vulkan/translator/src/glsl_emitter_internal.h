// The microcode -> GLSL emitter's class, shared by its translation units: glsl_emitter.cpp
// (control flow, ALU, the program frame) and glsl_fetch.cpp (vertex and texture fetch).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "xnt/ucode/analysis.h"
#include "xnt/ucode/ucode.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk::glsl_detail {


using ucode::AluInstruction;
using ucode::CfInstruction;
using ucode::CfOpcode;
using ucode::FetchInstruction;
using ucode::FetchOp;
using ucode::Operand;
using ucode::RelativeMode;
using ucode::ScalarOp;
using ucode::VectorOp;

inline constexpr char kComponents[] = "xyzw";
// Memexport flush (glsl_memexport.cpp): at alloc, before serialized instructions and kills, at
// the end; the written bits clear, eA and the eM# values stay.
inline constexpr const char* kFlush = "xe_memexport_flush(xe_eA, xe_eM, xe_eM_written); xe_eM_written = 0u;";

inline std::string MaskSwizzle(uint32_t mask) {
  std::string s;
  for (uint32_t c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += kComponents[c];
  }
  return s;
}

inline std::string FloatLiteral(float value) {
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%.9g", double(value));
  std::string s(buffer);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

class Emitter {
 public:
  Emitter(const ucode::Shader& shader, const ucode::Analysis& analysis,
          const TranslationOptions& options, ShaderReflection& reflection)
      : shader_(shader), analysis_(analysis), options_(options), reflection_(reflection) {}

  std::string Run();

 private:
  bool pixel() const { return shader_.type == ucode::ShaderType::kPixel; }
  void Line(const std::string& text) {
    out_ << std::string(size_t(indent_) * 2, ' ') << text << '\n';
  }
  void Note(const std::string& note) {
    if (std::find(reflection_.notes.begin(), reflection_.notes.end(), note) ==
        reflection_.notes.end()) {
      reflection_.notes.push_back(note);
    }
  }

  std::string TempRef(uint32_t index, bool aL_relative) const;
  std::string OperandBase(const Operand& op) const;
  std::string VectorOperand(const Operand& op) const;
  std::string ScalarComponent(const Operand& op, uint32_t position) const;

  void EmitCf(uint32_t index, const CfInstruction& cf);
  std::string CfCondition(const CfInstruction& cf) const;
  void EmitExecBody(const CfInstruction& cf);
  void EmitAlu(const AluInstruction& alu, uint32_t slot);
  bool EmitVectorOp(const AluInstruction& alu, const std::string operands[3],
                    const Operand ops[3]);
  void EmitScalarOp(const AluInstruction& alu);
  // Declares bool `flag` = `condition` and discards the pixel when it holds (vertex kill is not
  // implemented: a note, the vertex kept).
  void EmitKill(const std::string& flag, const std::string& condition);
  void EmitAluStores(const AluInstruction& alu, bool have_vector);
  void EmitFetch(const FetchInstruction& fetch, uint32_t slot);
  void EmitVertexFetch(const FetchInstruction& fetch);
  void EmitTextureFetch(const FetchInstruction& fetch);
  void EmitTextureQuery(const FetchInstruction& fetch);
  // getBCF (glsl_border_fraction.h): xe_tc and xe_ts (EmitTextureSize) already emitted.
  void EmitBorderFraction(const FetchInstruction& fetch, const std::string& n);
  void RecordTextureFilters(const FetchInstruction& fetch, uint32_t slot);
  void EmitTextureSize(ucode::TextureDimension dim, const std::string& n);
  // A 3D fetch's stack layers (xe_layer, xe_next_layer, xe_layers_linear, xe_layer_t): after
  // xe_tc and xe_ts.
  void EmitStackLayers(const FetchInstruction& fetch);
  // Where the cpu path's texture unit decides what a host sampler cannot promise (the point
  // texel, exact bilinear), its arithmetic replaces the host sample in xe_texel.
  void EmitExactTexel(const FetchInstruction& fetch, const std::string& n, float bias);
  // A volume fetch whose z filter differs from its x/y filter, filtered in the shader
  // (glsl_volume_filter.h).
  void EmitVolumeFilter(const FetchInstruction& fetch, const std::string& n, float bias);
  void StoreFetchResult(const FetchInstruction& fetch, const std::string& value);

  void EmitDeclarations();
  void EmitPrologue();
  void EmitEpilogue();
  void EmitClipDistances();

  const ucode::Shader& shader_;
  const ucode::Analysis& analysis_;
  const TranslationOptions& options_;
  ShaderReflection& reflection_;
  std::ostringstream out_;
  int indent_ = 0;
  uint32_t register_count_ = 1;
  bool exports_point_size_ = false;
  // The current ALU's two scalar components come from the same register component.
  bool scalar_identical_ = false;
};


}  // namespace xnt::vk::glsl_detail
