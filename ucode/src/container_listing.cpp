// Declarations of an XDK listing from the container. Line order and spellings follow the fxc
// listings of the corpus and of public XDK headers (`config VsExportMode=multipass`,
// `dcl_index1 r1.x`, `// PredicateClean=false` ...); the info-word meanings are in container.h.
#include "container_listing.h"

#include <algorithm>
#include <cstring>

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

std::string RegisterRange(uint32_t set, uint32_t index, uint32_t count) {
  std::string reg(1, RegisterSetLetter(set));
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

std::string DefaultText(const std::vector<uint32_t>& words, uint32_t type) {
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

// A struct constant is printed member by member as `name.member`, each with the registers it
// occupies inside the struct's range; members past the range the compiler allocated (unused
// trailing members) are not printed.
void StructLines(const std::string& prefix, const std::vector<ConstantMember>& members,
                 uint32_t set, uint32_t& next, uint32_t end, int depth, std::string& out) {
  for (const auto& m : members) {
    const std::string name = prefix + "." + m.name;
    const uint32_t regs = TypeRegisters(m.type);
    if (m.type.param_class == 5 && depth < 8) {
      StructLines(name, m.type.members, set, next, end, depth + 1, out);
      continue;
    }
    if (next >= end) return;
    const uint32_t count = std::min(regs, end - next);
    out += "defconst " + name + ", " + ParameterTypeName(m.type.param_type) + ", " +
           ParameterClassName(m.type.param_class) + ", [" + std::to_string(m.type.rows) + ", " +
           std::to_string(m.type.columns) + "], " + RegisterRange(set, next, count) + "\n";
    next += regs;
  }
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
  for (const auto& d : c.constants) {
    if (d.param_class == 5 && !d.members.empty()) {
      uint32_t next = d.register_index;
      StructLines(d.name, d.members, d.register_set, next, d.register_index + d.register_count, 0,
                  out);
      continue;
    }
    std::string text = "defconst " + d.name + ", " + ParameterTypeName(d.param_type) + ", " +
                       ParameterClassName(d.param_class) + ", [" + std::to_string(d.rows) + ", " +
                       std::to_string(d.columns) + "], " +
                       RegisterRange(d.register_set, d.register_index, d.register_count);
    if (!d.default_value.empty()) text += DefaultText(d.default_value, d.param_type);
    line(text);
  }
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

}  // namespace xnt::ucode
