// Assembler: shader text in the disassembler's (XDK listing) syntax -> microcode. Errors are
// xnt::Error with messages of the form "line:col: message".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

struct AssembledShader {
  ShaderType type = ShaderType::kPixel;
  std::vector<uint32_t> microcode;               // host order
  std::vector<LiteralConstant> literals;         // from `def c#, x, y, z, w`
  std::vector<VertexFetchBinding> vertex_fetches;  // from `vfetch r, r0.x, <semantic>`
  std::vector<InterpolatorDecl> interpolators;   // from `dcl_<usage>[_centroid] r#/o#[.mask]`
};

// The type comes from the `xvs_3_0` / `xps_3_0` line, or `default_type` when there is none
// (an error if neither).
AssembledShader AssembleShader(std::string_view text,
                               std::optional<ShaderType> default_type = std::nullopt);

// A full listing (`defconst`, `config`, `dcl_`, `def`/`defi` lines and the instructions) as
// the compiler's container (container.h). For a listing fxc printed, the bytes equal fxc's blob
// as far as the layout rules in container_assembler.cpp are known; struct members the listing
// does not show and fields no listing line carries take the compiler's usual values.
std::vector<uint8_t> AssembleContainer(std::string_view text,
                                       std::optional<ShaderType> default_type = std::nullopt);

// Convenience: just the microcode.
std::vector<uint32_t> Assemble(std::string_view text, ShaderType* type_out = nullptr,
                               std::optional<ShaderType> default_type = std::nullopt);

}  // namespace xnt::ucode
