// The real XDK-compiled shaders of ../shared/corpus/xenos-shaders: every one translates to SPIR-V
// that passes the validator, and vertex/pixel pairs draw the expected pixels on lavapipe with the
// inputs they need (vertex data laid out as their vfetch instructions say, the container's
// literal constants, a texture). Skipped when the corpus is not beside the checkout.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>

#include "translate_util.h"
#include "xnt/ucode/container.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "prerequisite.h"

namespace xnt::vk::test {
namespace {

namespace fs = std::filesystem;

fs::path CorpusDir() { return fs::path(XNT_SHARED_DIR) / "corpus" / "xenos-shaders" / "burgerlib"; }

struct CorpusShader {
  ucode::ContainerFile container;
  Translated translated;
};

// D3DDECLUSAGE codes of the container's vertex-fetch bindings.
constexpr uint32_t kUsagePosition = 0, kUsageTexcoord = 5, kUsageColor = 10;

// The XDK compiler leaves vfetch format/stride/offset zero; the Direct3D runtime patches them
// from the vertex declaration before the shader reaches the GPU. Do the same for an interleaved
// layout: position (32_32_FLOAT, or 32_32_32_FLOAT when the shader reads z), texcoord
// (32_32_FLOAT), colour (8_8_8_8 normalised), in the order the bindings list them.
std::vector<uint32_t> PatchVertexFetches(const ucode::ContainerFile& container) {
  std::vector<uint32_t> dwords = container.microcode;
  ucode::Shader shader = ucode::Decode(dwords, container.type);
  struct Patch {
    uint32_t slot, format, size;
  };
  std::vector<Patch> patches;
  uint32_t stride = 0;
  for (const auto& binding : container.vertex_fetches) {
    const ucode::FetchInstruction& f = shader.AtSlot(binding.slot).fetch;
    bool reads_z = f.DestComponent(0) == 2 || f.DestComponent(1) == 2 ||
                   f.DestComponent(2) == 2 || f.DestComponent(3) == 2;
    Patch p{binding.slot, 37, 2};  // 32_32_FLOAT: position xy, kUsageTexcoord
    if (binding.semantic.usage == kUsageTexcoord) p = {binding.slot, 37, 2};
    if (binding.semantic.usage == kUsagePosition && reads_z) p = {binding.slot, 57, 3};
    if (binding.semantic.usage == kUsageColor) p = {binding.slot, 6, 1};
    patches.push_back(p);
    stride += p.size;
  }
  uint32_t offset = 0;
  for (const Patch& p : patches) {
    ucode::FetchInstruction f = shader.AtSlot(p.slot).fetch;
    f.format = p.format;
    f.stride = stride;
    f.offset = int32_t(offset);
    offset += p.size;
    auto raw = ucode::EncodeFetch(f);
    for (uint32_t i = 0; i < 3; ++i) dwords[p.slot * 3 + i] = raw[i];
  }
  return dwords;
}

CorpusShader LoadCorpusShader(const std::string& name) {
  fs::path path = CorpusDir() / name / "container.bin";
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CorpusShader s;
  s.container = ucode::LoadContainer(bytes);
  s.translated = TranslateMicrocode(PatchVertexFetches(s.container), s.container.type);
  return s;
}

std::vector<std::string> CorpusNames() {
  std::vector<std::string> names;
  if (!fs::exists(CorpusDir())) return names;
  for (const auto& entry : fs::directory_iterator(CorpusDir())) {
    if (fs::exists(entry.path() / "container.bin")) names.push_back(entry.path().filename());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(TranslatorCorpusTest, EveryCorpusShaderTranslatesToValidSpirv) {
  auto names = CorpusNames();
  if (names.empty()) XNT_MISSING_PREREQUISITE() << "corpus not found at " << CorpusDir();
  double total_ms = 0.0;
  const std::clock_t cpu_start = std::clock();
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    auto start = std::chrono::steady_clock::now();
    CorpusShader s = LoadCorpusShader(name);
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    const TranslatedShader& t = s.translated.result;
    ASSERT_FALSE(t.spirv.empty());
    EXPECT_EQ(ValidateSpirv(t.spirv), "");
    EXPECT_NE(DisassembleSpirv(t.spirv).find("OpEntryPoint"), std::string::npos);
    EXPECT_NE(t.glsl.find("void main()"), std::string::npos);
    const ShaderReflection& r = t.reflection;
    if (s.container.type == ucode::ShaderType::kPixel) {
      EXPECT_TRUE(r.is_pixel_shader);
      EXPECT_EQ(r.color_targets_written, 1u);  // every corpus PS writes oC0 only
      bool samples = t.glsl.find("xe_textures[0]") != std::string::npos;
      EXPECT_EQ(r.texture_slots != 0, samples);
    } else {
      EXPECT_TRUE(r.writes_position);
      EXPECT_NE(r.vertex_fetch_slots[0] | r.vertex_fetch_slots[1] | r.vertex_fetch_slots[2], 0u);
    }
    EXPECT_FALSE(r.uses_memexport);
  }
  // Decode + analyse + GLSL + shaderc + disassembly, per shader (reported in docs/translator.md).
  // CPU time as well as wall time: the wall clock depends on how loaded the machine is.
  const double cpu_ms = 1000.0 * double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("corpus: %zu shaders, %.1f ms wall / %.1f ms CPU per translation\n", names.size(),
              total_ms / double(names.size()), cpu_ms / double(names.size()));
}

// One vertex element the shader fetches, as the decoded vfetch says.
struct ElementLayout {
  uint32_t constant = 0;
  uint32_t stride = 0;
  int32_t offset = 0;
  uint32_t format = 0;
};

std::vector<ElementLayout> VertexElements(const ucode::Shader& shader) {
  std::vector<ElementLayout> out;
  for (const auto& slot : shader.slots) {
    if (slot.kind != ucode::SlotKind::kFetch || !slot.fetch.IsVertex()) continue;
    out.push_back({slot.fetch.VertexFetchConstant(), slot.fetch.stride, slot.fetch.offset,
                   slot.fetch.format});
  }
  return out;
}

class CorpusDrawTest : public DrawFixture {
 protected:
  void SetUp() override {
    if (CorpusNames().empty()) XNT_MISSING_PREREQUISITE() << "corpus not found at " << CorpusDir();
    DrawFixture::SetUp();
  }

  // Writes 6 vertices (two triangles covering the target) for `vs` as its (patched) vfetch
  // instructions lay them out, big-endian, and the vertex fetch constant.
  void WriteQuad(const ucode::Shader& vs, const float positions[6][3], const float uvs[6][2],
                 uint32_t color_rgba8) {
    auto elements = VertexElements(vs);
    ASSERT_FALSE(elements.empty());
    const uint32_t base_dwords = 64;
    const ElementLayout& first = elements.front();
    for (uint32_t v = 0; v < 6; ++v) {
      for (size_t e = 0; e < elements.size(); ++e) {
        const ElementLayout& el = elements[e];
        ASSERT_EQ(el.constant, first.constant);
        ASSERT_EQ(el.stride, first.stride);
        std::vector<uint32_t> dwords;
        // The position comes first (offset 0), then the texture coordinate, then the colour.
        switch (el.format) {
          case 37:  // 32_32_FLOAT
            if (el.offset == 0) {
              dwords = {Bits(positions[v][0]), Bits(positions[v][1])};
            } else {
              dwords = {Bits(uvs[v][0]), Bits(uvs[v][1])};
            }
            break;
          case 57:  // 32_32_32_FLOAT
            dwords = {Bits(positions[v][0]), Bits(positions[v][1]), Bits(positions[v][2])};
            break;
          case 6:  // 8_8_8_8: x in the low byte of the (swapped) dword
            dwords = {color_rgba8};
            break;
          default:
            FAIL() << "vertex format " << el.format << " not handled by the test";
        }
        uint32_t address = (base_dwords + v * el.stride + uint32_t(el.offset)) * 4;
        for (size_t i = 0; i < dwords.size(); ++i) {
          uint32_t d = dwords[i];
          uint8_t* p = harness_->memory.data() + address + 4 * i;
          p[0] = uint8_t(d >> 24);  // big-endian guest memory
          p[1] = uint8_t(d >> 16);
          p[2] = uint8_t(d >> 8);
          p[3] = uint8_t(d);
        }
      }
    }
    uint32_t c = first.constant;
    uint32_t* fetch = harness_->constants.fetch_constants;
    fetch[c * 2] = (base_dwords << 2) | 3u;
    fetch[c * 2 + 1] = 2u | ((6 * first.stride) << 2);  // k8in32, size in dwords
  }

  void LoadLiterals(const ucode::ContainerFile& container, bool pixel) {
    for (const auto& literal : container.literals) {
      uint32_t index = literal.register_index + (pixel ? kPixelShaderFloatConstantBase : 0);
      for (int i = 0; i < 4; ++i) harness_->constants.float_constants[index][i] = literal.value[i];
    }
  }

  std::vector<float> DrawPair(const CorpusShader& vs, const CorpusShader& ps) {
    LoadLiterals(vs.container, false);
    LoadLiterals(ps.container, true);
    return harness_->Draw(vs.translated.result.spirv, ps.translated.result.spirv,
                          VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 6, 4, 4);
  }

  // Screen-space quad in pixels for the 2D vertex shaders (XYWidthHeight = c0).
  static constexpr float kPixelQuad[6][3] = {{0, 0, 0}, {4, 0, 0}, {0, 4, 0},
                                             {4, 0, 0}, {4, 4, 0}, {0, 4, 0}};
  static constexpr float kUvQuad[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 1}};
};

// Texels of the harness texture: red, green / blue, white (2x2); pixel (x, y) of the 4x4 target
// samples texel (x / 2, y / 2).
std::array<float, 4> Texel(uint32_t x, uint32_t y) {
  static const float kTexels[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
  const float* t = kTexels[(y / 2) * 2 + (x / 2)];
  return {t[0], t[1], t[2], t[3]};
}

TEST_F(CorpusDrawTest, Sprite2DWithTextureTimesVertexColor) {
  CorpusShader vs = LoadCorpusShader("vs20pos2tex2clr42d360");
  CorpusShader ps = LoadCorpusShader("pstex2clr4360");
  // XYWidthHeight: origin 0,0; scale 2/width, -2/height (D3D clip space, y up).
  SetVsConstant(0, 0.0f, 0.0f, 2.0f / 4.0f, -2.0f / 4.0f);
  harness_->system.ndc_scale[1] = -1.0f;  // D3D y-up clip space -> Vulkan y-down
  // Colour bytes (x = low byte after the swap): r = 255, g = 128, b = 64, a = 255.
  WriteQuad(vs.translated.shader, kPixelQuad, kUvQuad, 0xFF4080FFu);
  auto pixels = DrawPair(vs, ps);
  const float color[4] = {1.0f, 128.0f / 255.0f, 64.0f / 255.0f, 1.0f};
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      auto texel = Texel(x, y);
      for (int c = 0; c < 4; ++c) {
        EXPECT_NEAR(pixels[(y * 4 + x) * 4 + c], texel[c] * color[c], 1e-6)
            << "pixel " << x << "," << y << " channel " << c;
      }
    }
  }
}

TEST_F(CorpusDrawTest, PositionOnlyWithConstantColor) {
  CorpusShader vs = LoadCorpusShader("vs20pos22d360");
  CorpusShader ps = LoadCorpusShader("pscclr4360");
  SetVsConstant(0, 0.0f, 0.0f, 2.0f / 4.0f, -2.0f / 4.0f);
  harness_->system.ndc_scale[1] = -1.0f;
  SetPsConstant(0, 0.125f, 0.25f, 0.5f, 0.75f);
  WriteQuad(vs.translated.shader, kPixelQuad, kUvQuad, 0);
  auto pixels = DrawPair(vs, ps);
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(pixels[i * 4 + 0], 0.125f);
    EXPECT_EQ(pixels[i * 4 + 1], 0.25f);
    EXPECT_EQ(pixels[i * 4 + 2], 0.5f);
    EXPECT_EQ(pixels[i * 4 + 3], 0.75f);
  }
}

TEST_F(CorpusDrawTest, SpriteAndStaticPositionWithTextureAndColorConstant) {
  CorpusShader sprite = LoadCorpusShader("vs20sprite2d360");
  CorpusShader texture_color = LoadCorpusShader("pstexturecolor360");
  SetVsConstant(0, 0.0f, 0.0f, 2.0f / 4.0f, -2.0f / 4.0f);
  harness_->system.ndc_scale[1] = -1.0f;
  SetPsConstant(0, 0.5f, 0.5f, 0.25f, 1.0f);
  WriteQuad(sprite.translated.shader, kPixelQuad, kUvQuad, 0);
  auto pixels = DrawPair(sprite, texture_color);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      auto texel = Texel(x, y);
      const float k[4] = {0.5f, 0.5f, 0.25f, 1.0f};
      for (int c = 0; c < 4; ++c) EXPECT_EQ(pixels[(y * 4 + x) * 4 + c], texel[c] * k[c]);
    }
  }

  // vsstaticposition360: oPos = ViewProjectionMatrix (c0-c3) * position; identity here, positions
  // already in clip space (Vulkan y-down), z = 0.5.
  CorpusShader static_position = LoadCorpusShader("vsstaticposition360");
  CorpusShader texture = LoadCorpusShader("pstexture360");
  harness_->system.ndc_scale[1] = 1.0f;
  for (uint32_t i = 0; i < 4; ++i) {
    SetVsConstant(i, i == 0 ? 1.0f : 0.0f, i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f,
                  i == 3 ? 1.0f : 0.0f);
  }
  const float clip[6][3] = {{-1, -1, 0.5f}, {1, -1, 0.5f}, {-1, 1, 0.5f},
                            {1, -1, 0.5f},  {1, 1, 0.5f},  {-1, 1, 0.5f}};
  harness_->memory.assign(harness_->memory.size(), 0);
  WriteQuad(static_position.translated.shader, clip, kUvQuad, 0);
  pixels = DrawPair(static_position, texture);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      auto texel = Texel(x, y);
      for (int c = 0; c < 4; ++c) EXPECT_EQ(pixels[(y * 4 + x) * 4 + c], texel[c]);
    }
  }
}

}  // namespace
}  // namespace xnt::vk::test
