// Loader and writer for the Xbox 360 shader compiler's (XDK fxc) binary shader blob, as found in
// the `g_<name>[]` arrays of fxc /Fh headers (the container.bin files of the corpus).
//
// Layout (all big-endian). No Microsoft specification is public; the structure below follows the
// field split that hedge-dev's XenosRecomp (`shader.h`, `constant_table.h`, and the definition
// and interpolator walks of `shader_recompiler.cpp`) reads, the D3D9 constant-table structures
// (D3DXSHADER_CONSTANTTABLE / CONSTANTINFO / TYPEINFO / STRUCTMEMBERINFO, as in Wine's d3dx9 and
// vkd3d-shader), the Xenos register layouts that the info words reuse (SQ_PROGRAM_CNTL,
// SQ_CONTEXT_MISC, SQ_INTERPOLATOR_CNTL in Xenia's `xenos.h` / `register_table.inc`), and public
// XDK headers that carry both the listing and the blob:
//   header (9 words)  [0] magic 0x102A11xx (bit 0: vertex); [1] byte offset of the program data
//            ("virtual size": everything before it is metadata); [2] program bytes; [3] byte
//            offset of the debug-information block, 0 = none (TagTool's ShaderDebugHeader calls
//            this word UpdbPointerOffset; the compiler puts the block right after the header);
//            [4] constant table offset (0 = none); [5] definition table offset (0 = none);
//            [6] shader info offset; [7], [8] ?.
//   constant table   u32 byte length, then a D3DXSHADER_CONSTANTTABLE whose offsets are relative
//            to its own start: `defconst` lines (names, classes, types, registers, struct
//            members, default values), the target ("vs_3_0") and creator (compiler version).
//   definition table [0..3] ?, [4] byte length of the entries, then three lists each ended by a
//            0 word: float4 literals (u16 register, u16 float count, u32 byte offset into the
//            program data) -> `def c#`, int4 literals (u16 register, u16 count, count packed
//            int8x4 words) -> `defi i#`, and boolean literals (layout not known, kept as words).
//   shader info      [0] byte offset of the microcode in the program data (= literal bytes);
//            [1] microcode bytes (CF + instructions + a 3-dword tail); [2] SQ_PROGRAM_CNTL image
//            (VsMaxReg / PsMaxReg, VsResource, VsExportCount, VsExportMode); [3] SQ_CONTEXT_MISC
//            image (PS sample control, bits 2-3); [4] ?; [5] interpolator info (count in bits 5-9).
//            PS: [6] interpolator sampling (bit 16 + r#: sampled at the pixel centre, else at the
//            centroid); [7] exported colours (bit n: oCn) and depth (bit 4); then one
//            interpolator word per input (index | usage << 4 | r# << 8 | mask << 12).
//            VS: [6] number of index declarations, [7] number of vertex elements, [8] number of
//            interpolator-export slots; then the index declarations (`dcl_index`), the vertex
//            elements (slot | usage << 12 | usage index << 16 | flags << 20), the interpolator
//            words and the export slots.
//   debug info  (header [3] != 0) what a listing's `// Debugger Hint:` trailer prints: the .updb
//            file's timestamp, the path's byte length, the path zero-padded to a word
//            (DebuggerHint below). A block of another layout is kept as words.
//   program  literal constants (float4 each), microcode, 3-dword tail: the listing's
//            `// PDB hint` (three zero words without debug information).
// Every word whose meaning is not known is kept, and so are bytes between the regions, so
// WriteContainer(LoadContainer(b)) == b.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

inline constexpr uint32_t kContainerMagicPixel = 0x102A1100;
inline constexpr uint32_t kContainerMagicVertex = 0x102A1101;

// D3DXSHADER_TYPEINFO with its struct members (recursively).
struct ConstantMember;
struct ConstantType {
  uint32_t param_class = 0;  // D3DXPARAMETER_CLASS: 0 scalar 1 vector 2 matrix_rows 3 matrix_columns 4 object 5 struct
  uint32_t param_type = 0;   // D3DXPARAMETER_TYPE: 1 bool 2 int 3 float ... 10-14 samplers
  uint32_t rows = 0, columns = 0, elements = 0;
  std::vector<ConstantMember> members;
};
struct ConstantMember {
  std::string name;
  ConstantType type;
};

// One CTAB entry (D3DXSHADER_CONSTANTINFO + D3DXSHADER_TYPEINFO).
struct ConstantDecl {
  std::string name;
  uint32_t register_set = 0;   // 0 bool, 1 int4, 2 float4, 3 sampler
  uint32_t register_index = 0;
  uint32_t register_count = 0;
  uint32_t param_class = 0;
  uint32_t param_type = 0;
  uint32_t rows = 0, columns = 0, elements = 0;
  std::vector<ConstantMember> members;  // struct members (param_class 5)
  std::vector<uint32_t> default_value;  // raw words of the default value, empty if none
};

// A literal `def` constant: float4 at register (as the program numbers it; pixel shaders'
// table entries are +256 in the container).
struct LiteralConstant {
  uint32_t register_index = 0;
  std::array<float, 4> value{};
};
// A literal `defi` loop/integer constant: four signed bytes.
struct IntLiteralConstant {
  uint32_t register_index = 0;  // i#
  std::array<int32_t, 4> value{};
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

// VS `dcl_index[n] r#.mask`: the register the vertex (n = 0) or other index is loaded into.
struct IndexDecl {
  uint32_t usage_index = 0;
  uint32_t reg = 0;
  uint32_t mask = 1;
  uint32_t raw = 0;
};

struct ContainerFile {
  ShaderType type = ShaderType::kPixel;
  uint32_t magic = 0;
  std::array<uint32_t, 9> header{};   // raw header words (offsets recomputed when written)
  std::string target;    // CTAB target, e.g. "ps_3_0"
  std::string creator;   // CTAB creator (compiler version)
  std::vector<ConstantDecl> constants;
  std::vector<uint8_t> constant_table;  // raw CTAB bytes (without the length word)
  std::vector<LiteralConstant> literals;
  std::vector<IntLiteralConstant> int_literals;
  std::vector<uint32_t> definition_table;  // raw definition table words (empty if none)
  std::vector<IndexDecl> index_decls;              // VS
  std::vector<VertexFetchBinding> vertex_fetches;  // VS
  std::vector<InterpolatorDecl> interpolators;
  std::vector<uint32_t> export_slots;              // VS: raw interpolator-export slot words
  std::vector<uint32_t> info;                      // raw info block words
  std::vector<uint32_t> debug_info;                // raw debug-information block (header [3])
  std::vector<uint8_t> program;                    // raw program data (literals, code, tail)
  std::vector<uint32_t> microcode;                 // host order
  std::vector<uint32_t> trailer;                   // host order: the `// PDB hint` words
  uint32_t microcode_offset = 0;                   // byte offset in the blob
  // The loaded layout (constant table, definition table, info offsets, info end) and the loaded
  // bytes: WriteContainer puts the regions back where they were and keeps the bytes between
  // them. Empty for a container built from a listing (compiler order then).
  std::array<uint32_t, 4> layout{};
  std::vector<uint8_t> underlay;

  // Decoded info words (0 when the block is too short to hold them).
  uint32_t program_cntl() const { return info.size() > 2 ? info[2] : 0; }
  uint32_t context_misc() const { return info.size() > 3 ? info[3] : 0; }
  uint32_t max_reg() const {
    return type == ShaderType::kVertex ? program_cntl() & 0x3F : (program_cntl() >> 8) & 0x3F;
  }
  uint32_t vs_resource() const {
    return type == ShaderType::kVertex ? (program_cntl() >> 16) & 1 : 0;
  }
  uint32_t vs_export_count() const { return (program_cntl() >> 20) & 0xF; }
  uint32_t vs_export_mode() const { return (program_cntl() >> 24) & 0x7; }
  // SQ_CONTEXT_MISC sc_sample_cntl: 0 centroids only, 1 centres only, 2 both.
  uint32_t ps_sample_control() const { return (context_misc() >> 2) & 3; }
  uint32_t ps_outputs() const {
    return type == ShaderType::kPixel && info.size() > 7 ? info[7] : 0;
  }
  bool ps_centroid_flag() const;  // any centroid-sampled input
};

bool IsContainer(std::span<const uint8_t> bytes);
// Throws xnt::Error naming the byte offset and the field of the first inconsistency.
ContainerFile LoadContainer(std::span<const uint8_t> bytes);
// Lays the container out again from the regions kept in `c`: where it was loaded from, at their
// loaded offsets; otherwise in the compiler's order (header, debug-information block, constant
// table, definition table, info block, program data).
std::vector<uint8_t> WriteContainer(const ContainerFile& c);

// The debug-information block of a build with debug information (fxc /XZi), as its listing's
// trailer prints it: `//  Timestamp: 50c76f38` is word 0, `//  Path: "C:\...\x.hlsl.updb"` is
// the string whose byte length word 1 holds, stored after it and padded with zero bytes to a
// word. Layout read from public fxc /Fh headers that print both the trailer and the blob (the
// 245 shaders of build 2.0.21119 in Scaleform's X360_ShaderBinary.cpp all have it); the PDB hint
// printed above the trailer is the program's 3-word tail (ContainerFile::trailer).
struct DebuggerHint {
  uint32_t timestamp = 0;
  std::string updb_path;
};
// The block's timestamp and path when it has exactly that layout and a printable path (else
// nullopt: the listing prints the words as they are).
std::optional<DebuggerHint> ReadDebuggerHint(std::span<const uint32_t> block);
std::vector<uint32_t> DebuggerHintWords(const DebuggerHint& hint);

}  // namespace xnt::ucode
