// Declarations of an XDK listing from the container. Line order and spellings follow the fxc
// listings of the corpus and of public XDK headers (`config VsExportMode=multipass`,
// `dcl_index1 r1.x`, `// PredicateClean=false` ...); the info-word meanings are in container.h.
#include "container_listing.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "syntax.h"

namespace xnt::ucode {
namespace {

constexpr char kComp[] = "xyzw";

std::string Mask(uint32_t mask) {
  if (mask == 0xF) return "";
  std::string s = ".";
  for (uint32_t c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += kComp[c];
  }
  return s == "." ? "._" : s;
}

// fxc prints a constant the compiler allocated no register for (an unused one, or the members
// and array elements past what it allocated) with the register number `X`.
std::string RegisterRange(uint32_t set, uint32_t index, uint32_t count) {
  std::string reg(1, RegisterSetLetter(set));
  if (count == 0) return reg + "X";
  reg += std::to_string(index);
  if (count > 1) reg += "-" + std::to_string(index + count - 1);
  return reg;
}

// Registers one element of a type takes (D3D9 packing: a register per vector, per matrix row
// or column; structs are the sum of their members).
uint32_t TypeRegisters(const ConstantType& t, int depth = 0) {
  const uint32_t elements = t.elements ? t.elements : 1;
  uint32_t one = 1;
  switch (t.param_class) {
    case 2: one = t.rows; break;     // matrix_rows: one register per row
    case 3: one = t.columns; break;  // matrix_columns: one register per column
    case 5: {
      one = 0;
      if (depth < 8) {
        for (const auto& m : t.members) one += TypeRegisters(m.type, depth + 1);
      }
      break;
    }
    default: break;
  }
  return one * elements;
}

std::string DefaultText(std::span<const uint32_t> words, uint32_t type) {
  std::string s = ", {";
  for (size_t i = 0; i < words.size(); ++i) {
    s += i ? ", " : " ";
    if (type == 3) {
      float f;
      std::memcpy(&f, &words[i], 4);
      s += syntax::FormatFloat(f);
    } else {
      s += std::to_string(int32_t(words[i]));
    }
  }
  return s + " }";
}

std::string DeclarationLine(const char* keyword, const std::string& name, uint32_t type,
                            uint32_t cls, uint32_t rows, uint32_t columns, uint32_t set,
                            uint32_t index, uint32_t count) {
  return keyword + name + ", " + ParameterTypeName(type) + ", " + ParameterClassName(cls) + ", [" +
         std::to_string(rows) + ", " + std::to_string(columns) + "], " +
         RegisterRange(set, index, count);
}

// A struct constant is printed member by member as `name.member`, each with the registers it
// occupies inside the struct's range; members past the range the compiler allocated (unused
// trailing members) have register X.
void StructLines(const char* keyword, const std::string& prefix,
                 const std::vector<ConstantMember>& members, uint32_t set, uint32_t& next,
                 uint32_t end, int depth, std::string& out) {
  for (const auto& m : members) {
    const std::string name = prefix + "." + m.name;
    const uint32_t regs = TypeRegisters(m.type);
    if (m.type.param_class == 5 && depth < 8) {
      StructLines(keyword, name, m.type.members, set, next, end, depth + 1, out);
      continue;
    }
    const uint32_t count = next < end ? std::min(regs, end - next) : 0;
    out += DeclarationLine(keyword, name, m.type.param_type, m.type.param_class, m.type.rows,
                           m.type.columns, set, next, count) +
           "\n";
    next += regs;
  }
}

// Builds before 2.0.21256 print an array one line per element, `name[i]` with the element's
// registers (its slice of the default value too); elements past the allocated range have
// register X.
void ElementLines(const char* keyword, const ConstantDecl& d, std::string& out) {
  ConstantType one;
  one.param_class = d.param_class;
  one.rows = d.rows;
  one.columns = d.columns;
  const uint32_t per = d.register_set == 3 ? 1 : TypeRegisters(one);
  const uint32_t end = d.register_index + d.register_count;
  const std::span<const uint32_t> defaults(d.default_value);
  for (uint32_t e = 0, next = d.register_index; e < d.elements; ++e, next += per) {
    const uint32_t count = next < end ? std::min(per, end - next) : 0;
    std::string text = DeclarationLine(keyword, d.name + "[" + std::to_string(e) + "]",
                                       d.param_type, d.param_class, d.rows, d.columns,
                                       d.register_set, next, count);
    const size_t first = size_t(next - d.register_index) * 4;
    if (count && first + size_t(count) * 4 <= defaults.size()) {
      text += DefaultText(defaults.subspan(first, size_t(count) * 4), d.param_type);
    }
    out += text + "\n";
  }
}

// One constant-table entry as the listing's declaration lines.
void ConstantLines(const ConstantDecl& d, bool older_build, std::string& out) {
  const char* keyword = older_build ? "defextern const " : "defconst ";
  if (d.param_class == 5 && !d.members.empty()) {
    uint32_t next = d.register_index;
    StructLines(keyword, d.name, d.members, d.register_set, next,
                d.register_index + d.register_count, 0, out);
    return;
  }
  // The one-line form implies the element count from the registers (a sampler per s register);
  // an array allocated only in part needs element lines in either form to keep its count.
  // Element lines only where they hold every default word (else the one-line form keeps them).
  ConstantType one;
  one.param_class = d.param_class;
  one.rows = d.rows;
  one.columns = d.columns;
  const uint32_t per = d.register_set == 3 ? 1 : TypeRegisters(one);
  const uint64_t span = uint64_t(per) * d.elements;
  const uint32_t implied = per ? std::max(1u, d.register_count / per) : 1;
  if ((older_build || d.elements != implied) && d.elements > 1 && d.elements <= 4096 &&
      d.register_count <= span &&
      (d.default_value.empty() || d.default_value.size() == size_t(d.register_count) * 4)) {
    ElementLines(keyword, d, out);
    return;
  }
  std::string text = DeclarationLine(keyword, d.name, d.param_type, d.param_class, d.rows,
                                     d.columns, d.register_set, d.register_index,
                                     d.register_count);
  if (!d.default_value.empty()) text += DefaultText(d.default_value, d.param_type);
  out += text + "\n";
}

}  // namespace

std::string ParameterTypeName(uint32_t type) {
  static const char* kTypes[] = {"void",      "bool",        "int",       "float",
                                 "string",    "texture",     "texture1d", "texture2d",
                                 "texture3d", "texturecube", "sampler",   "sampler1d",
                                 "sampler2d", "sampler3d",   "samplercube"};
  return type < 15 ? kTypes[type] : std::to_string(type);
}

std::string ParameterClassName(uint32_t cls) {
  static const char* kClasses[] = {"scalar", "vector", "matrix_rows", "matrix_columns",
                                   "object", "struct"};
  return cls < 6 ? kClasses[cls] : std::to_string(cls);
}

char RegisterSetLetter(uint32_t set) {
  static const char kSets[] = {'b', 'i', 'c', 's'};
  return set < 4 ? kSets[set] : '?';
}

std::string VsExportModeName(uint32_t mode) {
  // SQ_PROGRAM_CNTL vs_export_mode (Xenia xenos.h VertexShaderExportMode); only multipass (7)
  // is known from an fxc listing, the others print as numbers.
  return mode == 7 ? "multipass" : std::to_string(mode);
}

std::string ContainerDeclarations(const ContainerFile& c, const Shader& shader) {
  std::string out;
  auto line = [&](const std::string& t) { out += t + "\n"; };
  const bool older_build = syntax::IsOlderBuild(syntax::CompilerBuild(c.creator));
  for (const auto& d : c.constants) ConstantLines(d, older_build, out);
  const bool vs = shader.type == ShaderType::kVertex;
  line("config AutoSerialize=false");
  line("config AutoResource=false");
  if (c.max_reg()) line(std::string(vs ? "config VsMaxReg=" : "config PsMaxReg=") + std::to_string(c.max_reg()));
  if (vs) {
    if (c.vs_resource()) line("config VsResource=" + std::to_string(c.vs_resource()));
    if (c.vs_export_mode()) line("config VsExportMode=" + VsExportModeName(c.vs_export_mode()));
    if (c.vs_export_count()) line("// VsExportCount=" + std::to_string(c.vs_export_count()));
  } else {
    uint32_t colors = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      if (c.ps_outputs() & (1u << i)) colors = i + 1;
    }
    if (colors) line("// PsExportColorCount=" + std::to_string(colors));
    switch (c.ps_sample_control()) {
      case 0: break;  // centroids only: fxc prints no line (public SimplePS sample)
      case 1: line("// PsSampleControl=centers"); break;
      case 2: line("// PsSampleControl=both"); break;
      default: line("// PsSampleControl=3"); break;
    }
  }
  std::vector<std::string> dcl;
  for (const auto& d : c.index_decls) {
    dcl.push_back("dcl_index" + (d.usage_index ? std::to_string(d.usage_index) : std::string()) +
                  " r" + std::to_string(d.reg) + Mask(d.mask));
  }
  for (const auto& i : c.interpolators) {
    std::string text = "dcl_" + syntax::SemanticName(i.semantic);
    if (!vs && i.centroid) text += "_centroid";
    text += std::string(" ") + (vs ? "o" : "r") + std::to_string(i.reg) + Mask(i.mask);
    dcl.push_back(text);
  }
  if (!dcl.empty()) {
    line("");
    for (const auto& l : dcl) line(l);
  }
  if (!c.literals.empty() || !c.int_literals.empty()) {
    line("");
    for (const auto& l : c.literals) {
      line("def c" + std::to_string(l.register_index) + ", " + syntax::FormatFloat(l.value[0]) +
           ", " + syntax::FormatFloat(l.value[1]) + ", " + syntax::FormatFloat(l.value[2]) + ", " +
           syntax::FormatFloat(l.value[3]));
    }
    for (const auto& l : c.int_literals) {
      line("defi i" + std::to_string(l.register_index) + ", " + std::to_string(l.value[0]) + ", " +
           std::to_string(l.value[1]) + ", " + std::to_string(l.value[2]) + ", " +
           std::to_string(l.value[3]));
    }
  }
  return out;
}

namespace {

// HLSL spelling of a parameter's type as fxc's comment block prints it (`float4`, `float4x4`,
// `row_major float4x4`, `sampler2D`).
std::string HlslTypeName(uint32_t cls, uint32_t type, uint32_t rows, uint32_t columns) {
  static const char* kNames[] = {"void",    "bool",      "int",       "float",     "string",
                                 "texture", "texture1D", "texture2D", "texture3D", "textureCUBE",
                                 "sampler", "sampler1D", "sampler2D", "sampler3D", "samplerCUBE"};
  std::string name = type < 15 ? kNames[type] : "type" + std::to_string(type);
  switch (cls) {
    case 1: return name + std::to_string(columns);
    case 2: return "row_major " + name + std::to_string(rows) + "x" + std::to_string(columns);
    case 3: return name + std::to_string(rows) + "x" + std::to_string(columns);
    default: return name;
  }
}

std::string ArraySuffix(uint32_t elements) {
  return elements > 1 ? "[" + std::to_string(elements) + "]" : "";
}

// `struct { members; } name;` over several lines, members indented four more columns.
void StructComment(const std::vector<ConstantMember>& members, const std::string& declarator,
                   const std::string& indent, int depth, std::string& out) {
  out += "//   " + indent + "struct\n//   " + indent + "{\n";
  for (const auto& m : members) {
    const std::string name = m.name + ArraySuffix(m.type.elements);
    if (m.type.param_class == 5 && depth < 8) {
      StructComment(m.type.members, name, indent + "    ", depth + 1, out);
    } else {
      out += "//   " + indent + "    " +
             HlslTypeName(m.type.param_class, m.type.param_type, m.type.rows, m.type.columns) +
             " " + name + ";\n";
    }
  }
  out += "//\n//   " + indent + "} " + declarator + ";\n";
}

}  // namespace

std::string ParameterComments(const ContainerFile& c) {
  if (c.constants.empty()) return "";
  std::string out = "// Parameters:\n//\n";
  for (const auto& d : c.constants) {
    const std::string declarator = d.name + ArraySuffix(d.elements);
    if (d.param_class == 5 && !d.members.empty()) {
      StructComment(d.members, declarator, "", 0, out);
    } else {
      out += "//   " + HlslTypeName(d.param_class, d.param_type, d.rows, d.columns) + " " +
             declarator + ";\n";
    }
  }
  out += "//\n//\n// Registers:\n//\n";
  // Only what the compiler allocated registers for; the name column is at least 12 wide.
  size_t width = 12;
  for (const auto& d : c.constants) {
    if (d.register_count) width = std::max(width, d.name.size());
  }
  auto pad = [](std::string s, size_t w) { return s.size() < w ? s + std::string(w - s.size(), ' ') : s; };
  out += "//   " + pad("Name", width) + " Reg   Size\n";
  out += "//   " + std::string(width, '-') + " ----- ----\n";
  // By register set (D3DXREGISTER_SET order: b, i, c, s), then register: fxc 2.0.21119 lists
  // `texscale c1` before `tex s0` though the table has tex first (Scaleform's
  // X360_ShaderBinary.cpp, 26 of its 245 shaders).
  std::vector<const ConstantDecl*> allocated;
  for (const auto& d : c.constants) {
    if (d.register_count) allocated.push_back(&d);
  }
  std::stable_sort(allocated.begin(), allocated.end(), [](const ConstantDecl* a, const ConstantDecl* b) {
    return std::pair(a->register_set, a->register_index) < std::pair(b->register_set, b->register_index);
  });
  for (const ConstantDecl* p : allocated) {
    const ConstantDecl& d = *p;
    const std::string reg = RegisterSetLetter(d.register_set) + std::to_string(d.register_index);
    std::string size = std::to_string(d.register_count);
    if (size.size() < 4) size = std::string(4 - size.size(), ' ') + size;
    out += "//   " + pad(d.name, width) + " " + pad(reg, 5) + " " + size + "\n";
  }
  return out + "//\n\n";
}

std::string TrailerLines(const ContainerFile& c) {
  char line[96];
  std::string out;
  if (c.trailer.size() == 3) {
    std::snprintf(line, sizeof(line), "\n%s%08x-%08x-%08x\n", kPdbHintPrefix, c.trailer[0], c.trailer[1],
                  c.trailer[2]);
    out += line;
  }
  if (c.debug_info.empty()) return out;
  if (const auto hint = ReadDebuggerHint(c.debug_info)) {
    std::snprintf(line, sizeof(line), "\n%s\n%s%08x\n", kDebuggerHintLine, kTimestampPrefix, hint->timestamp);
    return out + line + kPathPrefix + "\"" + hint->updb_path + "\"\n";
  }
  out += "\n// Debug-information block: " + std::to_string(4 * c.debug_info.size()) +
         " bytes (container header word 3), not a timestamp and\n"
         "// a length-prefixed .updb path as fxc's Debugger Hint shows them: kept as words.\n";
  for (size_t i = 0; i < c.debug_info.size(); ++i) {
    if (i % 8 == 0) out += (i ? "\n" : "") + std::string(kDebugInfoPrefix);
    std::snprintf(line, sizeof(line), i % 8 ? " %08x" : "%08x", c.debug_info[i]);
    out += line;
  }
  return out + "\n";
}

}  // namespace xnt::ucode
