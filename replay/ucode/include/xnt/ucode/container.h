// Loader for the Xbox 360 shader compiler's (XDK fxc) binary shader blob, as found in the
// `g_<name>[]` arrays of fxc /Fh headers (the container.bin files of the corpus).
//
// Layout, as read from the 8 corpus shaders (../shared/corpus/xenos-shaders/burgerlib; no public
// specification was found), all big-endian dwords:
//   header   dw0 magic 0x102A1100 (pixel) / 0x102A1101 (vertex); dw1 byte offset of the program
//            data; dw2 its size (dw1 + dw2 = blob size); dw4 byte offset of the length-prefixed
//            D3D constant table (CTAB: defconst names, types, registers); dw5 byte offset of the
//            literal-constant table (0 = none); dw6 byte offset of the shader info block.
//   info     [0] literal bytes, [1] microcode+trailer bytes, then shader-type specific words:
//            PS: [3] interpolator-entry bytes, [7] ?, entries from [8] (one word each);
//            VS: [7] vertex-fetch binding count, [8] interpolator count, [9] ?, then the fetch
//            bindings (usage << 12 | usage index << 8 | instruction slot), the interpolator
//            entries (mask << 12 | register << 8 | usage << 4 | usage index), and one export
//            slot per interpolator.
//   program  literal constants (float4 each), microcode, 3-dword trailer.
// Fields marked unknown are kept raw in ContainerFile so tools can show them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

inline constexpr uint32_t kContainerMagicPixel = 0x102A1100;
inline constexpr uint32_t kContainerMagicVertex = 0x102A1101;

// One CTAB entry (D3DXSHADER_CONSTANTINFO + D3DXSHADER_TYPEINFO).
struct ConstantDecl {
  std::string name;
  uint32_t register_set = 0;   // 0 bool, 1 int4, 2 float4, 3 sampler
  uint32_t register_index = 0;
  uint32_t register_count = 0;
  uint32_t param_class = 0;    // D3DXPARAMETER_CLASS: 0 scalar 1 vector 2 matrix_rows 3 matrix_columns 4 object 5 struct
  uint32_t param_type = 0;     // D3DXPARAMETER_TYPE: 1 bool 2 int 3 float ... 10-14 samplers
  uint32_t rows = 0, columns = 0, elements = 0;
};

// A literal `def` constant: float4 at register.
struct LiteralConstant {
  uint32_t register_index = 0;
  std::array<float, 4> value{};
};

// D3DDECLUSAGE-coded semantic (0 position .. 13 sample).
struct Semantic {
  uint32_t usage = 0;
  uint32_t usage_index = 0;
};

struct VertexFetchBinding {
  Semantic semantic;
  uint32_t slot = 0;  // instruction slot of the vfetch
  uint32_t raw = 0;
};

struct InterpolatorDecl {
  Semantic semantic;
  uint32_t reg = 0;   // VS: output o#, PS: input r#
  uint32_t mask = 0xF;
  bool centroid = false;
  uint32_t raw = 0;
};

struct ContainerFile {
  ShaderType type = ShaderType::kPixel;
  uint32_t magic = 0;
  std::string target;    // CTAB target, e.g. "ps_3_0"
  std::string creator;   // CTAB creator (compiler version)
  std::vector<ConstantDecl> constants;
  std::vector<LiteralConstant> literals;
  std::vector<VertexFetchBinding> vertex_fetches;  // VS
  std::vector<InterpolatorDecl> interpolators;
  std::vector<uint32_t> export_slots;              // VS: slots of interpolator exports
  std::vector<uint32_t> info;                      // raw info block words
  std::vector<uint32_t> microcode;                 // host order
  std::vector<uint32_t> trailer;                   // host order
  uint32_t microcode_offset = 0;                   // byte offset in the blob

  // Inferred from the corpus (see docs/shaders.md): PS info[2] bit 8 marks centroid colour
  // interpolation; VS info[6] is printed as `config VsResource=`.
  bool ps_centroid_flag() const;
  uint32_t vs_resource() const;
};

bool IsContainer(std::span<const uint8_t> bytes);
// Throws xnt::Error naming the byte offset of the first inconsistency.
ContainerFile LoadContainer(std::span<const uint8_t> bytes);

}  // namespace xnt::ucode
