// `xenotrace shader disasm|asm|info`: Xenos shader microcode tools (ucode/). Input is
// either an XDK compiler container (the `g_<name>[]` blob of an fxc /Fh header, magic 0x102A110x)
// or raw microcode (big-endian dwords as in guest memory, or --le).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "shader_translate.h"
#include "xnt/base/json.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

namespace xnt::cli {

namespace {

using namespace xnt::ucode;

struct ShaderArgs {
  std::string file;
  std::string output;
  std::string type;  // "", vertex, pixel
  bool little_endian = false;
  bool json = false;
  bool no_header = false;
  bool slots = false;
  bool comments = false;
  bool raw = false;
  TranslateRequest translate;
};

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

std::optional<ShaderType> ParseType(const std::string& t) {
  if (t.empty()) return std::nullopt;
  if (t == "vertex" || t == "vs") return ShaderType::kVertex;
  if (t == "pixel" || t == "ps") return ShaderType::kPixel;
  throw Error("--type must be vertex or pixel, not '" + t + "'");
}

// Raw microcode does not say which stage it is for. What only one stage can do decides:
// vertex fetches, position/point-size exports (62/63) and interpolator exports o4-o15 are
// vertex-shader only; the depth export (61) is pixel-shader only, and so are colour exports
// (0-3) in a shader with no position export. Decoding must succeed too.
std::optional<ShaderType> GuessType(const std::vector<uint32_t>& words, std::string* why) {
  bool vertex = false, pixel = false, low_export = false;
  std::string vreason, preason;
  for (ShaderType t : {ShaderType::kVertex, ShaderType::kPixel}) {
    Shader s;
    try {
      s = Decode(words, t);
    } catch (const Error&) {
      continue;
    }
    for (const auto& ins : s.slots) {
      if (ins.kind == SlotKind::kFetch && ins.fetch.IsVertex() && vreason.empty()) {
        vertex = true;
        vreason = "vertex fetch at slot " + std::to_string(ins.slot);
      }
      if (ins.kind != SlotKind::kAlu || !ins.alu.export_data) continue;
      const uint32_t r = ins.alu.vector_dest;
      if ((r == 62 || r == 63 || (r >= 4 && r < 16)) && vreason.empty()) {
        vertex = true;
        vreason = "export register " + std::to_string(r) + " at slot " + std::to_string(ins.slot);
      }
      if (r == 61 && preason.empty()) {
        pixel = true;
        preason = "depth export at slot " + std::to_string(ins.slot);
      }
      if (r < 4) low_export = true;
    }
    break;  // the ALU/fetch layout is the same for both types
  }
  // Every vertex shader exports a position; exports to 0-3 without one are colour outputs.
  if (!vertex && !pixel && low_export) {
    pixel = true;
    preason = "exports to oC0-oC3 and no position export";
  }
  if (vertex && !pixel) {
    *why = vreason;
    return ShaderType::kVertex;
  }
  if (pixel && !vertex) {
    *why = preason;
    return ShaderType::kPixel;
  }
  *why = vertex ? vreason + " but " + preason : "no stage-specific fetch or export";
  return std::nullopt;
}

struct Loaded {
  std::optional<ContainerFile> container;
  Shader shader;
};

Loaded Load(const ShaderArgs& a) {
  const std::vector<uint8_t> bytes = ReadFile(a.file);
  Loaded l;
  if (IsContainer(bytes)) {
    l.container = LoadContainer(bytes);
    l.shader = Decode(l.container->microcode, l.container->type);
    return l;
  }
  std::vector<uint32_t> words = LoadMicrocodeBE(bytes);
  if (a.little_endian) {
    for (uint32_t& w : words) w = __builtin_bswap32(w);
  }
  std::optional<ShaderType> type = ParseType(a.type);
  if (!type) {
    std::string why;
    type = GuessType(words, &why);
    if (!type) {
      throw Error(a.file + " is not a compiler container and its microcode does not show the "
                  "shader type (" + why + "); pass --type vertex|pixel");
    }
    std::fprintf(stderr, "%s: no --type: guessed %s shader from the microcode (%s)\n",
                 a.file.c_str(), *type == ShaderType::kVertex ? "vertex" : "pixel", why.c_str());
  }
  l.shader = Decode(words, *type);
  return l;
}

// A container whose listing does not assemble back to it holds what no listing line carries
// (a debug-information block of an unknown layout, another build's layout): said on stderr rather than left silent.
void NoteLossyListing(const std::string& file, const ContainerFile& c, const std::string& text) {
  if (!c.debug_info.empty() && !ReadDebuggerHint(c.debug_info)) {
    std::fprintf(stderr,
                 "%s: note: the container's debug-information block (%zu bytes) is not a "
                 "timestamp and a .updb path as fxc's `// Debugger Hint:` shows them: printed as "
                 "`// DebugInfo` words\n",
                 file.c_str(), 4 * c.debug_info.size());
  }
  const std::vector<uint8_t> bytes = WriteContainer(c);
  std::string why;
  try {
    const std::vector<uint8_t> again = AssembleContainer(text, c.type);
    if (again == bytes) return;
    size_t at = 0;
    while (at < again.size() && at < bytes.size() && again[at] == bytes[at]) ++at;
    why = "first difference at byte " + std::to_string(at) + " of " + std::to_string(bytes.size());
  } catch (const Error& e) {
    why = e.what();
  }
  std::fprintf(stderr,
               "%s: note: `shader asm` of this listing does not give the container back byte for "
               "byte (%s): the container holds data the listing cannot show\n",
               file.c_str(), why.c_str());
}

int RunDisasm(const ShaderArgs& a) {
  Loaded l = Load(a);
  DisassembleOptions o;
  o.header = !a.no_header;
  o.container = l.container ? &*l.container : nullptr;
  o.slot_comments = a.slots;
  o.compiler_comments = a.comments;
  const std::string text = Disassemble(l.shader, o);
  std::fputs(text.c_str(), stdout);
  if (l.container && o.header && !a.slots) NoteLossyListing(a.file, *l.container, text);
  return kExitOk;
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& out) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw Error("cannot write " + path);
  f.write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
  if (!f) throw Error("cannot write " + path);
}

int RunAsm(const ShaderArgs& a) {
  const std::vector<uint8_t> bytes = ReadFile(a.file);
  const std::string text(bytes.begin(), bytes.end());
  AssembledShader s;
  try {
    s = AssembleShader(text, ParseType(a.type));
  } catch (const Error& e) {
    throw Error(a.file + ":" + e.what());
  }
  // A full listing (fxc prints `config` lines for every shader) becomes a compiler container
  // unless --raw asks for the bare microcode.
  const bool full_listing = text.find("\nconfig ") != std::string::npos ||
                            text.rfind("config ", 0) == 0;
  if (full_listing && !a.raw) {
    if (a.little_endian) throw Error("--le applies to raw microcode (add --raw)");
    std::vector<uint8_t> blob;
    try {
      blob = AssembleContainer(text, ParseType(a.type));
    } catch (const Error& e) {
      throw Error(a.file + ":" + e.what());
    }
    WriteBytes(a.output, blob);
    std::fprintf(stderr, "%s: %s shader container, %zu bytes (%zu microcode dwords)\n",
                 a.output.c_str(), s.type == ShaderType::kVertex ? "vertex" : "pixel", blob.size(),
                 s.microcode.size());
    return kExitOk;
  }
  std::vector<uint8_t> out;
  if (a.little_endian) {
    out.resize(s.microcode.size() * 4);
    for (size_t i = 0; i < s.microcode.size(); ++i) {
      for (int b = 0; b < 4; ++b) out[4 * i + b] = uint8_t(s.microcode[i] >> (8 * b));
    }
  } else {
    out = StoreMicrocodeBE(s.microcode);
  }
  WriteBytes(a.output, out);
  std::fprintf(stderr, "%s: %s shader, %zu dwords\n", a.output.c_str(),
               s.type == ShaderType::kVertex ? "vertex" : "pixel", s.microcode.size());
  return kExitOk;
}

// "r0-r2, r5" style list of set bits.
template <typename Test>
std::string BitList(const char* prefix, uint32_t n, Test test) {
  std::string s;
  for (uint32_t i = 0; i < n;) {
    if (!test(i)) {
      ++i;
      continue;
    }
    uint32_t j = i;
    while (j + 1 < n && test(j + 1)) ++j;
    if (!s.empty()) s += ", ";
    s += prefix + std::to_string(i);
    if (j > i) s += "-" + std::string(prefix) + std::to_string(j);
    i = j + 1;
  }
  return s.empty() ? "-" : s;
}

std::string MaskText(uint32_t mask) {
  std::string s;
  for (int c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += "xyzw"[c];
  }
  return s.empty() ? "-" : s;
}


std::string JsonList(const std::vector<uint32_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// `shader info --json`.
std::string InfoJson(const Loaded& l, const Analysis& an, uint32_t alu, uint32_t fetch) {
  const Shader& s = l.shader;
  const bool vs = s.type == ShaderType::kVertex;
  auto bconst = [&](uint32_t i) { return (an.bool_constants_mask[i / 32] >> (i % 32)) & 1; };
  auto lconst = [&](uint32_t i) { return (an.loop_constants >> i) & 1; };
  auto tconst = [&](uint32_t i) { return (an.texture_fetch_constants >> i) & 1; };
  auto vconst = [&](uint32_t i) { return (an.vertex_fetch_constants[i / 32] >> (i % 32)) & 1; };
  std::string o = "{\n";
  o += "  \"type\": \"" + std::string(vs ? "vertex" : "pixel") + "\",\n";
  o += "  \"dwords\": " + std::to_string(s.dwords.size()) + ",\n";
  o += "  \"cf_instructions\": " + std::to_string(s.cf.size()) + ",\n";
  o += "  \"alu_instructions\": " + std::to_string(alu) + ",\n";
  o += "  \"fetch_instructions\": " + std::to_string(fetch) + ",\n";
  o += "  \"blocks\": [";
  for (size_t b = 0; b < an.blocks.size(); ++b) {
    const BasicBlock& bb = an.blocks[b];
    o += std::string(b ? ",\n" : "\n") + "    {\"first_cf\": " + std::to_string(bb.first_cf) +
         ", \"last_cf\": " + std::to_string(bb.last_cf) +
         ", \"successors\": " + JsonList(bb.successors) +
         ", \"predecessors\": " + JsonList(bb.predecessors) +
         ", \"exit\": " + (bb.is_exit ? "true" : "false") +
         ", \"return\": " + (bb.is_return ? "true" : "false") + "}";
  }
  o += "\n  ],\n  \"loops\": [";
  for (size_t i = 0; i < an.loops.size(); ++i) {
    const Loop& lp = an.loops[i];
    o += std::string(i ? ",\n" : "\n") + "    {\"start_cf\": " + std::to_string(lp.start_cf) +
         ", \"end_cf\": " + std::to_string(lp.end_cf) +
         ", \"loop_constant\": " + std::to_string(lp.loop_constant) +
         ", \"depth\": " + std::to_string(lp.depth) + ", \"breaks\": " + JsonList(lp.break_cfs) +
         ", \"continues\": " + JsonList(lp.continue_cfs) + "}";
  }
  o += "\n  ],\n  \"flush_points\": [";
  for (size_t i = 0; i < an.flush_points.size(); ++i) {
    const FlushPoint& f = an.flush_points[i];
    o += std::string(i ? ", " : "") + "{\"kind\": \"" + FlushKindName(f.kind) +
         "\", \"cf\": " + std::to_string(f.cf) + ", \"slot\": " + std::to_string(f.slot) + "}";
  }
  char buf[64];
  auto hex64 = [&](uint64_t v) {
    std::snprintf(buf, sizeof(buf), "\"0x%016llx\"", static_cast<unsigned long long>(v));
    return std::string(buf);
  };
  o += "],\n  \"temps_read\": " + hex64(an.temps_read) + ",\n";
  o += "  \"temps_written\": " + hex64(an.temps_written) + ",\n";
  o += "  \"max_temp\": " + std::string(an.any_temp ? std::to_string(an.max_temp) : "null") + ",\n";
  o += "  \"float_constants\": [" + hex64(an.float_constants[0]) + ", " +
       hex64(an.float_constants[1]) + ", " + hex64(an.float_constants[2]) + ", " +
       hex64(an.float_constants[3]) + "],\n";
  o += "  \"relative_constants\": " + std::string(an.uses_relative_constants ? "true" : "false") + ",\n";
  auto indices = [](uint32_t n, auto test) {
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i) {
      if (test(i)) v.push_back(i);
    }
    return JsonList(v);
  };
  o += "  \"bool_constants\": " + indices(256, bconst) + ",\n";
  o += "  \"loop_constants\": " + indices(32, lconst) + ",\n";
  o += "  \"texture_fetch_constants\": " + indices(32, tconst) + ",\n";
  o += "  \"vertex_fetch_constants\": " + indices(96, vconst) + ",\n";
  if (vs) {
    o += "  \"position_mask\": " + std::to_string(an.position_mask) + ",\n";
    o += "  \"point_size_mask\": " + std::to_string(an.point_size_mask) + ",\n";
    o += "  \"interpolator_mask\": " + std::to_string(an.interpolator_mask) + ",\n";
    std::vector<uint32_t> comps(an.interpolator_components.begin(), an.interpolator_components.end());
    o += "  \"interpolator_components\": " + JsonList(comps) + ",\n";
  } else {
    o += "  \"color_mask\": " + std::to_string(an.color_mask) + ",\n";
    o += "  \"writes_depth\": " + std::string(an.writes_depth ? "true" : "false") + ",\n";
    o += "  \"input_mask\": " + std::to_string(an.ps_input_mask) + ",\n";
    o += "  \"kills_pixels\": " + std::string(an.kills_pixels ? "true" : "false") + ",\n";
  }
  o += "  \"memexport\": " + std::string(an.uses_memexport ? "true" : "false") + ",\n";
  o += "  \"predicate\": " + std::string(an.uses_predicate ? "true" : "false") + ",\n";
  o += "  \"a0\": " + std::string(an.uses_a0 ? "true" : "false");
  if (l.container) {
    o += ",\n  \"constants\": [";
    for (size_t i = 0; i < l.container->constants.size(); ++i) {
      const ConstantDecl& d = l.container->constants[i];
      o += std::string(i ? ", " : "") + "{\"name\": " + JsonString(d.name) +
           ", \"register_set\": " + std::to_string(d.register_set) +
           ", \"register\": " + std::to_string(d.register_index) +
           ", \"count\": " + std::to_string(d.register_count) + "}";
    }
    o += "],\n  \"literals\": [";
    for (size_t i = 0; i < l.container->literals.size(); ++i) {
      const LiteralConstant& c = l.container->literals[i];
      char value[160];
      std::snprintf(value, sizeof(value), "[%.9g, %.9g, %.9g, %.9g]", c.value[0], c.value[1],
                    c.value[2], c.value[3]);
      o += std::string(i ? ", " : "") + "{\"register\": " + std::to_string(c.register_index) +
           ", \"value\": " + value + "}";
    }
    o += "]";
  }
  o += "\n}\n";
  return o;
}

// `shader info` as text: counts, control flow graph, registers, exports, container constants.
void PrintInfo(const Loaded& l, const Analysis& an, uint32_t alu, uint32_t fetch) {
  const Shader& s = l.shader;
  const bool vs = s.type == ShaderType::kVertex;
  auto temp_read = [&](uint32_t i) { return (an.temps_read >> i) & 1; };
  auto temp_written = [&](uint32_t i) { return (an.temps_written >> i) & 1; };
  auto fconst = [&](uint32_t i) { return (an.float_constants[i / 64] >> (i % 64)) & 1; };
  auto bconst = [&](uint32_t i) { return (an.bool_constants_mask[i / 32] >> (i % 32)) & 1; };
  auto lconst = [&](uint32_t i) { return (an.loop_constants >> i) & 1; };
  auto tconst = [&](uint32_t i) { return (an.texture_fetch_constants >> i) & 1; };
  auto vconst = [&](uint32_t i) { return (an.vertex_fetch_constants[i / 32] >> (i % 32)) & 1; };
  std::printf("%s shader: %zu dwords, %zu CF instructions, %u ALU + %u fetch instructions\n",
              vs ? "vertex" : "pixel", s.dwords.size(), s.cf.size(), alu, fetch);
  std::printf("\ncontrol flow graph (%zu block%s):\n", an.blocks.size(), an.blocks.size() == 1 ? "" : "s");
  for (size_t b = 0; b < an.blocks.size(); ++b) {
    const BasicBlock& bb = an.blocks[b];
    std::string succ, pred;
    for (uint32_t x : bb.successors) succ += (succ.empty() ? "" : " ") + std::to_string(x);
    for (uint32_t x : bb.predecessors) pred += (pred.empty() ? "" : " ") + std::to_string(x);
    std::printf("  block %zu: CF %u-%u  -> [%s]  <- [%s]%s%s\n", b, bb.first_cf, bb.last_cf,
                succ.c_str(), pred.c_str(), bb.is_exit ? "  exit" : "", bb.is_return ? "  return" : "");
  }
  for (const Loop& lp : an.loops) {
    std::printf("  loop i%u: CF %u-%u (body L%u, skip L%u, depth %u, %zu break, %zu continue)\n",
                lp.loop_constant, lp.start_cf, lp.end_cf, lp.body_cf, lp.skip_cf, lp.depth,
                lp.break_cfs.size(), lp.continue_cfs.size());
  }
  std::printf("  memexport flush points:");
  for (const FlushPoint& f : an.flush_points) {
    if (f.kind == FlushKind::kSerialize || f.kind == FlushKind::kKill) {
      std::printf(" %s@CF%u/slot%u", FlushKindName(f.kind).c_str(), f.cf, f.slot);
    } else {
      std::printf(" %s@CF%u", FlushKindName(f.kind).c_str(), f.cf);
    }
  }
  std::printf("\n\nregisters:\n");
  std::printf("  temps read:      %s\n", BitList("r", 64, temp_read).c_str());
  std::printf("  temps written:   %s\n", BitList("r", 64, temp_written).c_str());
  std::printf("  float constants: %s%s\n", BitList("c", 256, fconst).c_str(),
              an.uses_relative_constants ? " (+ relative addressing)" : "");
  std::printf("  bool constants:  %s\n", BitList("b", 256, bconst).c_str());
  std::printf("  loop constants:  %s\n", BitList("i", 32, lconst).c_str());
  std::printf("  texture fetch:   %s\n", BitList("tf", 32, tconst).c_str());
  std::printf("  vertex fetch:    %s\n", BitList("fetch constant ", 96, vconst).c_str());
  if (vs) {
    std::string interp;
    for (uint32_t i = 0; i < 16; ++i) {
      if (an.interpolator_components[i]) {
        interp += (interp.empty() ? "" : " ") + std::string("o") + std::to_string(i) + "." +
                  MaskText(an.interpolator_components[i]);
      }
    }
    std::printf("\nexports: position %s, point size %s, interpolators %s%s\n",
                MaskText(an.position_mask).c_str(), MaskText(an.point_size_mask).c_str(),
                interp.empty() ? "-" : interp.c_str(), an.uses_memexport ? ", memexport" : "");
  } else {
    auto color = [&](uint32_t i) { return (an.color_mask >> i) & 1; };
    auto input = [&](uint32_t i) { return (an.ps_input_mask >> i) & 1; };
    std::printf("\noutputs: colors %s%s%s%s\n", BitList("oC", 4, color).c_str(),
                an.writes_depth ? ", oDepth" : "", an.kills_pixels ? ", kills pixels" : "",
                an.uses_memexport ? ", memexport" : "");
    std::printf("interpolator inputs (read before written): %s\n",
                BitList("r", 16, input).c_str());
  }
  if (l.container) {
    std::printf("\nconstants (compiler container, %s %s):\n", l.container->target.c_str(),
                l.container->creator.c_str());
    static const char kSets[] = {'b', 'i', 'c', 's'};
    for (const ConstantDecl& d : l.container->constants) {
      std::printf("  %-24s %c%u", d.name.c_str(), d.register_set < 4 ? kSets[d.register_set] : '?',
                  d.register_index);
      if (d.register_count > 1) std::printf("-%u", d.register_index + d.register_count - 1);
      std::printf("\n");
    }
    for (const LiteralConstant& c : l.container->literals) {
      std::printf("  def c%-20u (%g, %g, %g, %g)\n", c.register_index, c.value[0], c.value[1],
                  c.value[2], c.value[3]);
    }
  }
}

int RunInfo(const ShaderArgs& a) {
  Loaded l = Load(a);
  const Analysis an = Analyze(l.shader);
  uint32_t alu = 0, fetch = 0;
  for (const auto& ins : l.shader.slots) {
    alu += ins.kind == SlotKind::kAlu;
    fetch += ins.kind == SlotKind::kFetch;
  }
  if (a.json) {
    std::fputs(InfoJson(l, an, alu, fetch).c_str(), stdout);
  } else {
    PrintInfo(l, an, alu, fetch);
  }
  return kExitOk;
}

// The subcommands that read a shader (disasm, info, translate) take the same input: a container or
// raw microcode, whose stage and byte order may have to be given.
CLI::App* AddShaderInputSubcommand(CLI::App& app, const std::string& name, const std::string& description,
                                   ShaderArgs& a, const std::shared_ptr<std::string>& mode) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("FILE", a.file, "container.bin or raw microcode")->required()->check(InputFile());
  sub->add_option("--type", a.type, "vertex or pixel for raw microcode (guessed from the microcode when left out)")
      ->check(CLI::IsMember({"vertex", "pixel", "vs", "ps"}));
  sub->add_flag("--le", a.little_endian, "raw microcode dwords are little-endian (default: big-endian)");
  sub->callback([mode, name] { *mode = name; });
  return sub;
}

XNT_COMMAND({"shader",
             "Xenos shader microcode: disassemble (XDK syntax), assemble, analyze",
             60,
             [](CLI::App& app) -> std::function<int()> {
               auto args = std::make_shared<ShaderArgs>();
               auto mode = std::make_shared<std::string>();
               app.require_subcommand(1);
               CLI::App* dis = AddShaderInputSubcommand(
                   app, "disasm", "Disassemble a compiler container or raw microcode to XDK listing syntax",
                   *args, mode);
               dis->add_flag("--no-header", args->no_header, "omit the xvs_3_0/xps_3_0 and declaration lines");
               dis->add_flag("--slots", args->slots, "annotate instructions with their slot number");
               dis->add_flag("--comments", args->comments,
                             "containers: also print fxc's // Parameters / Registers / Shader type block");

               CLI::App* as = app.add_subcommand(
                   "asm", "Assemble a listing (the disasm syntax) to a compiler container, or raw big-endian microcode");
               as->add_option("FILE", args->file, "shader source text")->required()->check(InputFile());
               as->add_option("-o,--out,--output", args->output, "output container or microcode file")->required();
               as->add_option("--type", args->type,
                              "vertex or pixel when the text has no xvs_3_0/xps_3_0 line")
                   ->check(CLI::IsMember({"vertex", "pixel", "vs", "ps"}));
               as->add_flag("--le", args->little_endian, "write little-endian dwords (with --raw)");
               as->add_flag("--raw", args->raw,
                            "write raw microcode even for a full listing (default: a listing "
                            "with config lines becomes a compiler container)");
               as->callback([mode] { *mode = "asm"; });

               CLI::App* info = AddShaderInputSubcommand(
                   app, "info", "Control-flow graph, loops, flush points, register/constant masks, exports",
                   *args, mode);
               info->add_flag("--json", args->json, "machine-readable output");

               CLI::App* tr = AddShaderInputSubcommand(
                   app, "translate", "Translate one shader to SPIR-V (validated with spirv-val) / GLSL", *args, mode);
               tr->add_option("--path", args->translate.path, "fbo (colour outputs) or fsi (output merger in the shader)")
                   ->check(CLI::IsMember({"fbo", "fsi"}));
               tr->add_option("-o,--out,--output", args->translate.output, "write the SPIR-V here");
               tr->add_flag("--glsl", args->translate.glsl, "print the generated GLSL");
               tr->add_flag("--check", args->translate.check,
                            "run on the Vulkan device and in the CPU interpreter over random inputs "
                            "and compare lane by lane: exports, oPts and the vertex kill, memexport's "
                            "guest memory (exit 1 on a disagreement; --path fsi: the fsi path's shader "
                            "body, its EDRAM output merger not checked)");
               tr->add_option("--lanes", args->translate.lanes, "--check: pixels or vertices (default 256)")
                   ->check(CLI::Range(1, 16384));
               tr->add_option("--seed", args->translate.seed, "--check: seed of the random inputs (default 1)");
               tr->add_flag("--quads", args->translate.quads,
                            "--check: pixel shaders in 2x2 quads with interpolants varying across each "
                            "quad (derivatives, getGradients, getCompTexLOD, implicit LOD, helper "
                            "pixels); --lanes a multiple of 4, at most 1024");
               tr->add_option("--device", args->translate.device, "--check: Vulkan device index");
               tr->add_flag("--json", args->translate.json, "--check: machine-readable result");

               return [args, mode]() -> int {
                 if (*mode == "translate") {
                   Loaded l = Load(*args);
                   return RunShaderTranslate(l.shader, l.container ? &*l.container : nullptr,
                                             args->translate);
                 }
                 if (*mode == "disasm") return RunDisasm(*args);
                 if (*mode == "asm") return RunAsm(*args);
                 if (*mode == "info") return RunInfo(*args);
                 return kExitError;
               };
             }});

}  // namespace
}  // namespace xnt::cli
