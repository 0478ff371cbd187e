// CPU interpreter of decoded Xenos microcode: runs one vertex or one pixel of a shader with the
// same semantics as the Vulkan translator (renderer/vulkan/translator/src/glsl_prelude.cpp and
// glsl_emitter.cpp), so that sample traces can compute their expected images and the EDRAM cache
// can estimate a draw's extent without a GPU. Backend-free: guest memory and texture sampling are
// callbacks the caller supplies.
//
// Semantics (facts from Xenia src/xenia/gpu/shader_interpreter.cc and the translator; code ours):
// control flow (exec/cexec/(p0) exec, loops with loop constants and aL, calls/returns, jumps),
// every vector and scalar ALU opcode (legacy "0 * anything = +0" for mul/mad/dp/muls, SM3
// max/min NaN rules, set-predicate/kill ops, saturation with NaN -> 0, write masks, co-issued
// vector + scalar ops, constant and temp addressing relative to a0/aL), vertex fetch of every
// vertex format with endian swap, exports (oPos, oPts, o0-o15, oC0-oC3, oDepth), and memexport
// (eA/eM0-eM4 flushed at every alloc, before a serialized instruction, before a pixel kill and
// at the end, in program order, through `write_memory`; the rules are in memexport.h).
// See docs/interpreter.md for the places where this (and the translator) differ from Xenia's own
// interpreter and why.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

using Float4 = std::array<float, 4>;

// The constant state one shader stage sees.
struct InterpreterConstants {
  // This stage's 256 float constants (c0-c255; for a pixel shader with D3D's partition these are
  // ALU constants 256-511).
  std::array<Float4, 256> float_constants{};
  std::array<uint32_t, 8> bool_constants{};    // b0-b255, SHADER_CONSTANT_BOOL_000_031...
  std::array<uint32_t, 32> loop_constants{};   // i0-i31: count 7:0, start 15:8, step 23:16 signed
  // SHADER_CONSTANT_FETCH_00_0...: 96 vertex fetch constants of 2 dwords = 32 texture fetch
  // constants of 6 dwords.
  std::array<uint32_t, 192> fetch_constants{};
};

// The texture state registers: setTexLOD's LOD and setGradientH / setGradientV's derivatives
// (x, y, z of the source; w unused), per vertex or pixel, zero at the start of a shader.
struct TextureRegisters {
  float lod = 0.0f;
  Float4 grad_h{}, grad_v{};
};

// getWeights / getCompTexLOD's view of a texture (texture_queries.h).
struct TextureQuerySize {
  float width = 1.0f, height = 1.0f, depth = 1.0f;
  bool volume = false;
};

// Whether a texture fetch takes its LOD from somewhere other than its coordinates' derivatives
// (InterpreterCallbacks::texture_fetch_explicit).
// getBCF (kGetTextureBorderColorFrac) runs as a texture fetch whose texture source answers the
// border colour's share of the footprint (the texel's x); the result is (x, 0, 0, 0) whatever
// the fetch constant's swizzle: 3 bits a component, 0 = x, 4 = 0 (Xenia's translators name x as
// getBCF's only non-zero component).
inline constexpr uint32_t kBorderFractionSwizzle = 0u | (4u << 3) | (4u << 6) | (4u << 9);

inline bool FetchHasExplicitLod(const FetchInstruction& f, bool pixel_shader) {
  return f.use_reg_lod || f.use_reg_gradients || !f.use_comp_lod || !pixel_shader;
}

struct InterpreterCallbacks {
  // Reads the 32-bit word at 4-byte aligned guest physical `byte_address` exactly as stored in
  // memory (the guest bytes loaded as a little-endian host dword; the vertex fetch constant's
  // endian swap is applied afterwards). Returns false for memory that does not exist (reads 0).
  // Without a callback every vertex fetch reads zeros.
  std::function<bool(uint32_t byte_address, uint32_t& word)> read_memory;
  // Texture fetch (tfetch and the get* ops except the ones answered locally): returns the texel
  // for texture fetch constant `slot` at `coords` (the source register swizzled by the
  // instruction, w = 0). Without a callback texture fetches return zeros and a note says so.
  std::function<Float4(uint32_t slot, const Float4& coords, const FetchInstruction& fetch)>
      texture_fetch;
  // The same with the coordinates' screen-space derivatives, for implicit LOD; used by the
  // batched interpreter when it shades 2x2 quads (texture_fetch otherwise).
  std::function<Float4(uint32_t slot, const Float4& coords, const FetchInstruction& fetch,
                       const Float4& ddx, const Float4& ddy)>
      texture_fetch_gradients;
  // A fetch whose level of detail is not the coordinates' own derivatives: UseRegisterLOD (the
  // LOD setTexLOD wrote), UseRegisterGradients (setGradientH / setGradientV's derivatives),
  // UseComputedLOD=false (level 0), and every vertex-shader fetch (no derivatives; level 0 unless
  // the register LOD is used). The fetch constant's and the instruction's LOD biases still add.
  // Without it such fetches go to texture_fetch.
  std::function<Float4(uint32_t slot, const Float4& coords, const FetchInstruction& fetch,
                       const TextureRegisters& registers)>
      texture_fetch_explicit;
  // The texture's size as getWeights / getCompTexLOD see it (texture_queries.h). Without it
  // those instructions return zeros and a note says so.
  std::function<TextureQuerySize(uint32_t slot, const FetchInstruction& fetch)> texture_size;
  // Memexport: replaces the bits `mask` of the 32-bit word at 4-byte aligned guest physical
  // `byte_address` with those of `value` (the word as stored: guest bytes as a little-endian host
  // dword), i.e. word = (word & ~mask) | (value & mask). 8- and 16-bit elements pass a partial
  // mask (the caller makes it atomic if pixels run in parallel). Returns false when the address
  // is outside guest memory: nothing is written and the interpreter counts and notes it.
  // Without a callback exports are decoded and counted but nothing is written.
  std::function<bool(uint32_t byte_address, uint32_t value, uint32_t mask)> write_memory;
};

struct ShaderInputs {
  // Vertex shader: r0.x (the vertex index the sequencer loads, base index already added).
  float vertex_index = 0.0f;
  // Vertex shader run as a tessellated draw's domain shader: r0 and r1 as the sequencer loads
  // them (tessellation coordinates, patch or control-point indices: gpu/tessellated_draw.h)
  // instead of the vertex index.
  bool domain = false;
  Float4 domain_r0{}, domain_r1{};
  // Pixel shader: interpolators loaded into r0..r(interpolator_count - 1) (at most 16).
  std::array<Float4, 16> interpolators{};
  uint32_t interpolator_count = 0;
  // Pixel shader: ps_param_gen register (< 0: none) and its value (x = +-pixel x, y = pixel y).
  int param_gen_register = -1;
  Float4 param_gen{};
};

struct ShaderResult {
  // Vertex shader exports.
  Float4 position{};             // oPos as written (before the viewport transform)
  uint32_t position_mask = 0;    // components written
  Float4 point_size{};           // oPts (x = size, y = edge flag, z = kill vertex)
  uint32_t point_size_mask = 0;
  std::array<Float4, 16> interpolators{};  // o0-o15 (unwritten ones stay 0)
  uint32_t interpolator_mask = 0;
  bool vertex_kill = false;      // a kill op fired in a vertex shader (the renderer keeps it)
  // Pixel shader exports.
  std::array<Float4, 4> colors{};  // oC0-oC3 (raw, before exp bias and alpha test)
  uint32_t color_mask = 0;
  float depth = 0.0f;
  bool depth_written = false;
  bool killed = false;           // pixel discarded (execution stopped there)
  // Execution facts.
  bool memexport = false;        // eA/eM# written
  // Memexport elements (eM#) flushed: written through write_memory, dropped because index + k
  // was outside the stream's count (as the hardware does), dropped because eA lacked the marker
  // bits or the stream format is unsupported (noted by name), and dwords dropped because they
  // fell outside guest memory (write_memory returned false; noted with the address).
  uint32_t memexport_elements = 0;
  uint32_t memexport_dropped_index = 0;
  uint32_t memexport_dropped_invalid = 0;
  uint32_t memexport_dropped_outside_memory = 0;
  bool step_limit_hit = false;   // control flow ran past kMaxControlFlowSteps and was cut off
  uint64_t instructions_executed = 0;  // ALU + fetch instructions run
  std::vector<std::string> notes;      // things not modelled that this run met, once each
};

class Interpreter {
 public:
  // The same bound the translator puts on taken branches, on executed CF instructions here.
  static constexpr uint32_t kMaxControlFlowSteps = 65536;

  // Keeps a reference to `shader`, which must outlive the interpreter. The shader comes from
  // ucode::Decode, which has already rejected out-of-range exec slots and CF targets; the
  // interpreter still bounds-checks every index it follows.
  explicit Interpreter(const Shader& shader) : shader_(shader) {}

  ShaderResult Run(const InterpreterConstants& constants, const ShaderInputs& inputs,
                   const InterpreterCallbacks& callbacks = {}) const;

  const Shader& shader() const { return shader_; }

 private:
  const Shader& shader_;
};

// Vertex element decoding as the vertex fetch does it, exposed for tests: `words` are the
// element's dwords after the endian swap; `format` a xenos::VertexFormat value. Components the
// format lacks read (0, 0, 0, 1); unknown formats read zeros.
Float4 DecodeVertexElement(const uint32_t words[4], uint32_t format, bool is_signed,
                           bool normalized, bool signed_rf_no_zero, int32_t exp_adjust);
// One invocation's vertex fetch (vfetch_full / vfetch_mini), shared by both interpreters: a full
// fetch sets `state` to its constant and the address of element 0 (stride x floor(index [+ 0.5])
// + the constant's base, in dwords), a mini fetch reuses it; the element's dwords outside the
// constant's buffer, or that `read_memory` does not give, read 0. `note` gets what is not exact.
struct VertexFetchState {
  uint32_t slot = 0, base = 0;
};
Float4 RunVertexFetch(const FetchInstruction& fetch, float index, const uint32_t* fetch_constants,
                      VertexFetchState& state,
                      const std::function<bool(uint32_t byte_address, uint32_t& word)>& read_memory,
                      const std::function<void(const std::string&)>& note);
// xenos::Endian swap of one dword (0 none, 1 8in16, 2 8in32, 3 16in32).
uint32_t EndianSwap32(uint32_t value, uint32_t endian);
// Xenos 16-bit float (no infinity/NaN: exponent 31 is an ordinary exponent).
float XenosHalfToFloat(uint16_t h);

}  // namespace xnt::ucode
