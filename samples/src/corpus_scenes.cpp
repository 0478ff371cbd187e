// corpus_* samples: the XDK-compiled shaders of ../shared/corpus/xenos-shaders/burgerlib, read at
// authoring time (the repository holds no copies), drawn with the vertex layouts and constants
// they need. The corpus folder is RegistryOptions::corpus_dir, by default the path configured at
// build time (samples/CMakeLists.txt). Without it these samples are not registered; CorpusStatus()
// says so.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "shader_scenes.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"

#ifndef XNT_SAMPLES_CORPUS_DIR
#define XNT_SAMPLES_CORPUS_DIR ""
#endif

namespace xnt::samples {

namespace {

namespace fs = std::filesystem;
using ucode::Float4;
using xenos::PrimitiveType;

ucode::ContainerFile LoadCorpus(const fs::path& dir, const std::string& name) {
  const fs::path path = dir / name / "container.bin";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("corpus shader not found: " + path.string() + " (" + CorpusStatus(dir.string()) + ")");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() > (1u << 20)) throw Error(path.string() + ": larger than 1 MiB, not a shader");
  return ucode::LoadContainer(bytes);
}

// D3DDECLUSAGE codes of the container's vertex-fetch bindings.
constexpr uint32_t kUsagePosition = 0, kUsageTexcoord = 5, kUsageColor = 10;

struct Element {
  uint32_t usage = 0;
  uint32_t format = 0;  // xenos::VertexFormat
  uint32_t dwords = 0;
};

// What the Direct3D runtime does before the shader reaches the GPU: the XDK compiler leaves the
// vfetch format/stride/offset zero, and D3D patches them from the vertex declaration. Here the
// declaration is interleaved in binding order: position 32_32_FLOAT (32_32_32_FLOAT when the
// shader reads z), texcoord 32_32_FLOAT, colour 8_8_8_8 normalised.
struct Patched {
  std::vector<uint32_t> microcode;
  std::vector<Element> layout;
  uint32_t stride = 0;
  uint32_t fetch_slot = 0;
};

Patched PatchVertexFetches(const ucode::ContainerFile& c) {
  Patched p;
  p.microcode = c.microcode;
  const ucode::Shader shader = ucode::Decode(p.microcode, c.type);
  for (const auto& binding : c.vertex_fetches) {
    const ucode::FetchInstruction& f = shader.AtSlot(binding.slot).fetch;
    bool reads_z = false;
    for (uint32_t k = 0; k < 4; ++k) reads_z |= f.DestComponent(k) == 2;
    Element e{binding.semantic.usage, 37, 2};
    if (e.usage == kUsagePosition && reads_z) e = {e.usage, 57, 3};
    if (e.usage == kUsageColor) e = {e.usage, 6, 1};
    if (e.usage != kUsagePosition && e.usage != kUsageTexcoord && e.usage != kUsageColor) {
      throw Error("corpus vertex shader uses vertex usage " + std::to_string(e.usage) +
                  ", which the samples do not lay out");
    }
    p.layout.push_back(e);
    p.stride += e.dwords;
  }
  uint32_t offset = 0;
  for (size_t i = 0; i < c.vertex_fetches.size(); ++i) {
    const uint32_t slot = c.vertex_fetches[i].slot;
    ucode::FetchInstruction f = shader.AtSlot(slot).fetch;
    f.format = p.layout[i].format;
    f.stride = p.stride;
    f.offset = int32_t(offset);
    offset += p.layout[i].dwords;
    p.fetch_slot = f.VertexFetchConstant();
    const auto raw = ucode::EncodeFetch(f);
    for (uint32_t k = 0; k < 3; ++k) p.microcode.at(slot * 3 + k) = raw[k];
  }
  return p;
}

struct CorpusVertex {
  float x = 0, y = 0, z = 0;  // position as the draw's VS expects it
  float u = 0, v = 0;
  uint32_t rgba = 0xFFFFFFFF;
};

std::vector<uint32_t> VertexWords(const Patched& p, const std::vector<CorpusVertex>& vertices) {
  std::vector<uint32_t> w;
  for (const CorpusVertex& v : vertices) {
    for (const Element& e : p.layout) {
      if (e.usage == kUsagePosition) {
        w.push_back(FloatBits(v.x));
        w.push_back(FloatBits(v.y));
        if (e.dwords == 3) w.push_back(FloatBits(v.z));
      } else if (e.usage == kUsageTexcoord) {
        w.push_back(FloatBits(v.u));
        w.push_back(FloatBits(v.v));
      } else {
        w.push_back(v.rgba);
      }
    }
  }
  return w;
}

uint32_t Registers(const std::vector<uint32_t>& microcode, ucode::ShaderType type) {
  const ucode::Analysis a = ucode::Analyze(ucode::Decode(microcode, type));
  return std::max<uint32_t>(a.any_temp ? a.max_temp + 1 : 1, 1);
}

// A scene skeleton for a VS + PS pair: microcode (patched), literal constants on the first draw.
struct Pair {
  ShaderScene scene;
  Patched vs;
  std::vector<std::pair<uint32_t, Float4>> vs_literals, ps_literals;
};

Pair MakePair(const fs::path& dir, const std::string& vs_name, const std::string& ps_name) {
  const ucode::ContainerFile vsc = LoadCorpus(dir, vs_name), psc = LoadCorpus(dir, ps_name);
  if (vsc.type != ucode::ShaderType::kVertex || psc.type != ucode::ShaderType::kPixel) {
    throw Error("corpus pair " + vs_name + " / " + ps_name + " is not a vertex + pixel shader");
  }
  Pair p;
  p.vs = PatchVertexFetches(vsc);
  p.scene.vs_microcode = p.vs.microcode;
  p.scene.ps_microcode = psc.microcode;
  p.scene.vs_registers = Registers(p.vs.microcode, ucode::ShaderType::kVertex);
  p.scene.ps_registers = Registers(psc.microcode, ucode::ShaderType::kPixel);
  p.scene.vs_exports = std::max<uint32_t>(1, uint32_t(vsc.interpolators.size()));
  p.scene.vertex_fetch_slot = p.vs.fetch_slot;
  for (const auto& l : vsc.literals) p.vs_literals.push_back({l.register_index, l.value});
  for (const auto& l : psc.literals) p.ps_literals.push_back({l.register_index, l.value});
  return p;
}

Float4 Color(int r, int g, int b) {
  return {float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, 1.0f};
}

// The burgerlib 2D shaders' XYWidthHeight (c0) for a screen rectangle: oPos = pos * c0.zw +
// (2 c0.x - 1, 1 - 2 c0.y) with pos in [0, 1]^2 (vs20pos22d360 listing: mad with c255 =
// (-2, 2, -1, 1)).
Float4 XYWidthHeight(const ShaderScene& s, float x, float y, float w, float h) {
  return {x / float(s.width), y / float(s.height), w / (float(s.width) / 2),
          -h / (float(s.height) / 2)};
}

// Unit quad corners (0,0) (1,0) (1,1) (0,1) with texcoords equal to the position and a colour.
std::vector<CorpusVertex> UnitCorners(uint32_t rgba) {
  return {{0, 0, 0, 0, 0, rgba}, {1, 0, 0, 1, 0, rgba}, {1, 1, 0, 1, 1, rgba},
          {0, 1, 0, 0, 1, rgba}};
}

// A 4x4 k_8_8_8_8 texture: R = 32 + 64 i, G = 32 + 64 j, B = 224 - 32 (i + j) (multiples of 32,
// so the 0.5 / 0.25 colour factors below stay off rounding ties).
SceneTexture Checker() {
  SceneTexture t;
  t.width = t.height = 4;
  for (uint32_t j = 0; j < 4; ++j) {
    for (uint32_t i = 0; i < 4; ++i) {
      t.texels.push_back((32 + 64 * i) | (32 + 64 * j) << 8 | (224 - 32 * (i + j)) << 16 |
                         0xFFu << 24);
    }
  }
  return t;
}

enum class PsInput { kColorConstant, kTexture, kTextureTimesColor, kTextureTimesVertexColor };

// Three draws of the unit quad placed by XYWidthHeight: a triangle strip, a fan and an indexed
// quad list. The pixel shader's colour constant (c0) differs per draw for pscclr4360 and is
// (1, 0.5, 0.25, 1) for pstexturecolor360; the vertex colour is (255, 153, 51, 255) (products
// with the texture land on fifths of a step, never on a tie).
//
// Corners sit at k + 0.75, so both pixel centre conventions cover the same pixels at 1x (the
// expected image checks that, ExpectedShaderScene). The texture coordinates do not run 0..1
// between the corners: they put the texel boundaries (every quad is a whole number of pixels per
// texel) a quarter pixel less 1/256 before the edges' lines, at k + 0.5 + 1/256, which the
// Direct3D half-pixel offset the scene sets (PA_SU_VTX_CNTL pix_center = 0 adds 0.5,
// gpu/viewport.h) moves to k + 1/256: at a resolution scale S = 1..3 per axis, S/256 of a host
// pixel past a host pixel edge, so the nearest host pixel centre is 0.5 - 3/256 host pixels
// (about 1/246 texel, more than 2^-8) away even at 3x on the widest texel (40 pixels). A
// point-sampled coordinate that interpolates to a boundary at a pixel centre is an
// implementation-defined tie (Vulkan and Direct3D 11 let the sampler pick either texel within
// 2^-8 texel of it; docs/compare.md), which these samples do not test; boundaries on the edges'
// lines (k + 0.75) lie on host pixel centres at 2x. Both centre conventions still read one texel
// per pixel at 1x (no boundary between x and x + 0.5), the same texel as with boundaries at
// k + 0.75.
ShaderScene TwoDScene(Pair p, PsInput input) {
  ShaderScene& s = p.scene;
  s.clear_rgba = {0x18, 0x18, 0x28, 0xFF};
  if (input != PsInput::kColorConstant) s.textures.push_back(Checker());
  const auto c = UnitCorners(0xFF3399FFu);
  struct Placement {
    PrimitiveType primitive;
    std::vector<CorpusVertex> vertices;
    std::vector<uint16_t> indices;
    float x, y, w, h;
    Float4 color;
  };
  const Placement placements[] = {
      {PrimitiveType::kTriangleStrip, {c[0], c[1], c[3], c[2]}, {}, 20.75f, 20.0f + 0.75f,
       120.0f, 80.0f, Color(230, 120, 30)},
      {PrimitiveType::kTriangleFan, {c[0], c[1], c[2], c[3]}, {}, 170.75f, 40.75f, 128.0f,
       148.0f, Color(40, 170, 90)},
      {PrimitiveType::kQuadList, {c[2], c[0], c[3], c[1]}, {1, 3, 0, 2}, 60.75f, 120.75f,
       160.0f, 100.0f, Color(120, 60, 200)},
  };
  // Texel boundaries 0.25 - 1/256 pixel before the edges' lines (above): coordinate 0 there.
  constexpr float kBoundaryBeforeEdge = 0.25f - 1.0f / 256.0f;
  bool first = true;
  for (const Placement& pl : placements) {
    ShaderDraw d;
    d.primitive = pl.primitive;
    std::vector<CorpusVertex> vertices = pl.vertices;
    if (input != PsInput::kColorConstant) {
      for (CorpusVertex& v : vertices) {
        v.u = (v.u * pl.w + kBoundaryBeforeEdge) / pl.w;
        v.v = (v.v * pl.h + kBoundaryBeforeEdge) / pl.h;
      }
    }
    d.vertex_words = VertexWords(p.vs, vertices);
    d.vertex_count = uint32_t(pl.vertices.size());
    d.indices = pl.indices;
    if (first) {
      d.vs_constants = p.vs_literals;
      d.ps_constants = p.ps_literals;
      first = false;
    }
    d.vs_constants.push_back({0, XYWidthHeight(s, pl.x, pl.y, pl.w, pl.h)});
    d.ps_constants.push_back(
        {0, input == PsInput::kColorConstant ? pl.color : Float4{1.0f, 0.5f, 0.25f, 1.0f}});
    s.draws.push_back(d);
  }
  return s;
}

// vsstaticposition360: oPos = ViewProjectionMatrix (c0-c3, one row per register, dp4) * (x, y, z,
// 1). The matrix maps screen pixels to clip space: x / 160 - 1, 1 - y / 120, z, 1.
ShaderScene StaticPositionScene(Pair p) {
  ShaderScene& s = p.scene;
  s.clear_rgba = {0x30, 0x30, 0x30, 0xFF};
  const float sx = 2.0f / float(s.width), sy = -2.0f / float(s.height);
  const std::vector<std::pair<uint32_t, Float4>> matrix = {{0, {sx, 0, 0, -1}},
                                                           {1, {0, sy, 0, 1}},
                                                           {2, {0, 0, 1, 0}},
                                                           {3, {0, 0, 0, 1}}};
  struct Shape {
    PrimitiveType primitive;
    std::vector<CorpusVertex> vertices;
    Float4 color;
  };
  const Shape shapes[] = {
      // A right triangle (vertical, horizontal and x - y = 10.5 edges) and a rectangle list.
      {PrimitiveType::kTriangleList,
       {{40.75f, 30.25f, 0.5f}, {40.75f, 110.75f, 0.5f}, {121.25f, 110.75f, 0.5f}},
       Color(250, 200, 40)},
      {PrimitiveType::kRectangleList,
       {{150.75f, 60.75f, 0.25f}, {290.75f, 60.75f, 0.25f}, {150.75f, 200.75f, 0.25f}},
       Color(60, 120, 240)},
  };
  bool first = true;
  for (const Shape& sh : shapes) {
    ShaderDraw d;
    d.primitive = sh.primitive;
    d.vertex_words = VertexWords(p.vs, sh.vertices);
    d.vertex_count = uint32_t(sh.vertices.size());
    if (first) {
      d.vs_constants = p.vs_literals;
      d.vs_constants.insert(d.vs_constants.end(), matrix.begin(), matrix.end());
      d.ps_constants = p.ps_literals;
      first = false;
    }
    d.ps_constants.push_back({0, sh.color});
    s.draws.push_back(d);
  }
  return s;
}

std::string Listing(const fs::path& dir, const std::string& vs, const std::string& ps) {
  return "corpus shaders " + vs + " + " + ps + " (read from " + dir.string() + ")";
}

}  // namespace

std::string DefaultCorpusDir() { return XNT_SAMPLES_CORPUS_DIR; }

bool CorpusPresent(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / "vs20pos22d360" / "container.bin", ec);
}

std::string CorpusStatus(const std::string& dir) {
  if (CorpusPresent(dir)) return "shader corpus found at " + dir;
  return "shader corpus not found at '" + dir +
         "' (point RegistryOptions::corpus_dir, `xenotrace samples --corpus DIR`, at the burgerlib "
         "folder); corpus_* samples are not registered";
}

std::vector<Sample> CorpusSamples(const std::string& corpus_dir) {
  std::vector<Sample> v;
  if (!CorpusPresent(corpus_dir)) return v;
  const fs::path dir = corpus_dir;
  // Scenes are built lazily (at authoring / expected-image time), so listing the registry never
  // reads the corpus.
  struct Entry {
    std::string name, vs, ps, expected;
    bool static_position;
    PsInput input = PsInput::kColorConstant;
  };
  const std::string textured =
      "Navy background; three quads textured with a 4x4 point-sampled texture (texel (i, j) = "
      "(32 + 64i, 32 + 64j, 224 - 32(i + j))): x 21..140 y 21..100 (strip), x 171..298 "
      "y 41..188 (fan), x 61..220 y 121..220 (indexed quad list, drawn last)";
  const Entry entries[] = {
      {"corpus_vs20pos22d360", "vs20pos22d360", "pscclr4360",
       "Navy background; an orange (230,120,30) rectangle x 21..140 y 21..100 (strip), a green "
       "(40,170,90) one x 171..298 y 41..188 (fan), a purple (120,60,200) one x 61..220 "
       "y 121..220 (indexed quad list) drawn last.",
       false},
      {"corpus_vs20sprite2d360", "vs20sprite2d360", "pscclr4360",
       "As corpus_vs20pos22d360 (the sprite shader also exports its texture coordinate, which "
       "pscclr4360 does not read).",
       false},
      {"corpus_vs20pos2tex2clr42d360", "vs20pos2tex2clr42d360", "pscclr4360",
       "As corpus_vs20pos22d360 (position + texcoord + 8_8_8_8 colour vertex layout; the colour "
       "and texcoord exports are not read by pscclr4360).",
       false},
      {"corpus_vsstaticposition360", "vsstaticposition360", "pscclr4360",
       "Grey background; a yellow (250,200,40) right triangle with its right angle at the lower "
       "left, corners near (41,31) (41,110) (120,110); a blue (60,120,240) rectangle "
       "x 151..290 y 61..200 from a 3-vertex rectangle list.",
       true},
      {"corpus_vs20sprite2d360_pstexture360", "vs20sprite2d360", "pstexture360",
       textured + ".", false, PsInput::kTexture},
      {"corpus_vs20sprite2d360_pstexturecolor360", "vs20sprite2d360", "pstexturecolor360",
       textured + ", multiplied by Color (1, 0.5, 0.25, 1).", false, PsInput::kTextureTimesColor},
      {"corpus_vs20pos2tex2clr42d360_pstex2clr4360", "vs20pos2tex2clr42d360", "pstex2clr4360",
       textured + ", multiplied by the vertex colour (255, 153, 51, 255).", false,
       PsInput::kTextureTimesVertexColor},
  };
  for (const Entry& e : entries) {
    auto build = [e, dir] {
      Pair p = MakePair(dir, e.vs, e.ps);
      return e.static_position ? StaticPositionScene(std::move(p))
                               : TwoDScene(std::move(p), e.input);
    };
    Sample s;
    s.name = e.name;
    s.description = Listing(dir, e.vs, e.ps) + " in draws with the vertex layout and constants they "
                    "need";
    s.expected_frame = e.expected + " Expected image from the CPU interpreter.";
    s.author = [build](format::Writer& w) { AuthorShaderScene(build(), w); };
    s.expected_image = [build] { return ExpectedShaderScene(build()); };
    v.push_back(std::move(s));
  }
  return v;
}

}  // namespace xnt::samples
