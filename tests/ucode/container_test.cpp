// Container loader on synthetic blobs built in the corpus layout: every field comes back, the
// disassembly carries the declarations, and damaged blobs are rejected with an offset.
#include <gtest/gtest.h>
#include <cstring>

#include "container_builder.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

test::ContainerSpec VertexSpec() {
  test::ContainerSpec s;
  s.type = ShaderType::kVertex;
  // A float4x4 matrix at c4-c7 and a bool at b2.
  s.constants = {
      {.name = "WorldViewProj", .register_set = 2, .register_index = 4, .register_count = 4,
       .param_class = 3, .param_type = 3, .rows = 4, .columns = 4, .elements = 1,
       .members = {}, .default_value = {}},
      {.name = "UseFog", .register_set = 0, .register_index = 2, .register_count = 1,
       .param_class = 0, .param_type = 1, .rows = 1, .columns = 1, .elements = 1,
       .members = {}, .default_value = {}}};
  s.literals = {{200, {0.5f, -2.0f, 0.0f, 1.0f}}, {201, {3.0f, 0.25f, -1.0f, 8.0f}}};
  s.fetches = {{{0, 0}, 3, 0}, {{5, 1}, 4, 0}};
  s.interpolators = {{.semantic = {5, 1}, .reg = 0, .mask = 0x3}};
  s.microcode = Assemble(
      "xvs_3_0\n"
      "    exec\n"
      "    vfetch r1, r0.x, position\n"
      "    vfetch r2.xy__, r0.x, texcoord1\n"
      "    alloc position\n"
      "    exec\n"
      "    dp4 oPos.x, c4, r1\n"
      "    dp4 oPos.y, c5, r1\n"
      "    dp4 oPos.z, c6, r1\n"
      "    dp4 oPos.w, c7, r1\n"
      "    alloc interpolators\n"
      "    exece\n"
      "    mul o0.xy, r2.xy, c200.xy\n");
  return s;
}

TEST(UcodeContainer, SyntheticVertexContainer) {
  const auto bytes = test::BuildContainer(VertexSpec());
  ASSERT_TRUE(IsContainer(bytes));
  const ContainerFile c = LoadContainer(bytes);
  EXPECT_EQ(c.type, ShaderType::kVertex);
  EXPECT_EQ(c.target, "vs_3_0");
  EXPECT_EQ(c.creator, "xenotrace-test");
  ASSERT_EQ(c.constants.size(), 2u);
  EXPECT_EQ(c.constants[0].name, "WorldViewProj");
  EXPECT_EQ(c.constants[0].register_index, 4u);
  EXPECT_EQ(c.constants[0].register_count, 4u);
  EXPECT_EQ(c.constants[1].register_set, 0u);
  ASSERT_EQ(c.literals.size(), 2u);
  EXPECT_EQ(c.literals[1].register_index, 201u);
  EXPECT_EQ(c.literals[1].value[1], 0.25f);
  ASSERT_EQ(c.vertex_fetches.size(), 2u);
  EXPECT_EQ(c.vertex_fetches[1].semantic.usage_index, 1u);
  EXPECT_EQ(c.vertex_fetches[1].slot, 4u);
  ASSERT_EQ(c.interpolators.size(), 1u);
  EXPECT_EQ(c.interpolators[0].mask, 0x3u);
  EXPECT_EQ(c.vs_resource(), 1u);
  EXPECT_EQ(c.microcode, VertexSpec().microcode);

  const std::string text = Disassemble(c);
  EXPECT_NE(text.find("defconst WorldViewProj, float, matrix_columns, [4, 4], c4-7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("defconst UseFog, bool, scalar, [1, 1], b2\n"), std::string::npos);
  EXPECT_NE(text.find("config VsMaxReg=2\nconfig VsResource=1\n"), std::string::npos);
  EXPECT_NE(text.find("dcl_index r0.x\ndcl_texcoord1 o0.xy\n"), std::string::npos);
  EXPECT_NE(text.find("def c200, 0.5, -2, 0, 1\ndef c201, 3, 0.25, -1, 8\n"), std::string::npos);
  EXPECT_NE(text.find("    vfetch r2.xy__, r0.x, texcoord1\n"), std::string::npos);
  const AssembledShader a = AssembleShader(text);
  EXPECT_EQ(a.microcode, c.microcode);
  ASSERT_EQ(a.literals.size(), 2u);
  EXPECT_EQ(a.literals[0].value[1], -2.0f);
}

TEST(UcodeContainer, DamagedContainersAreRejected) {
  const auto good = test::BuildContainer(VertexSpec());
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + n);
    EXPECT_THROW(LoadContainer(cut), Error) << "cut at " << n;
  }
  // Every header/info word replaced by a huge value: rejected or loaded, never out of bounds
  // (ASan checks the latter).
  for (size_t w = 1; w < 80 && 4 * w + 4 <= good.size(); ++w) {
    std::vector<uint8_t> bad = good;
    StoreBE32(bad.data() + 4 * w, 0x7FFFFFF0u);
    try {
      (void)LoadContainer(bad);
    } catch (const Error&) {
    }
  }
  std::vector<uint8_t> magic = good;
  magic[2] ^= 0x40;  // 0x102A11xx -> 0x102A51xx
  EXPECT_FALSE(IsContainer(magic));
  EXPECT_THROW(LoadContainer(magic), Error);
}

TEST(UcodeContainer, PixelInterpolators) {
  test::ContainerSpec s;
  s.type = ShaderType::kPixel;
  s.interpolators = {{.semantic = {5, 0}, .reg = 0, .mask = 0x3},
                     {.semantic = {10, 0}, .reg = 1, .mask = 0xF}};
  s.microcode = Assemble("xps_3_0\n    alloc colors\n    exece\n    mul oC0, r0.xyxy, r1\n");
  const ContainerFile c = LoadContainer(test::BuildContainer(s));
  ASSERT_EQ(c.interpolators.size(), 2u);
  EXPECT_EQ(c.interpolators[1].semantic.usage, 10u);
  EXPECT_EQ(c.interpolators[1].reg, 1u);
  EXPECT_FALSE(c.interpolators[1].centroid);  // sampling word bit 17 (r1) set: centre
  const std::string text = Disassemble(c);
  EXPECT_NE(text.find("// PsExportColorCount=1\n// PsSampleControl=centers\n\ndcl_texcoord r0.xy\ndcl_color r1\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace xnt::ucode

namespace xnt::ucode {
namespace {

// A vertex shader laid out like the public XDK header CubicBezierPatchVS (no constant table;
// definition table with float and int literals; two index declarations; vertex elements;
// interpolators; one interpolator-export slot). The expected listing is written by hand from
// the fxc rules: configs from SQ_PROGRAM_CNTL (0x07110019: 25 registers, VsResource, export
// count 1, export mode 7 = multipass), `dcl_index`/`dcl_index1` from 0xE90/0x391, `defi` bytes
// x, y, z, w from the low byte up.
TEST(UcodeContainer, VertexShaderInfoBlockAndDefinitions) {
  const std::vector<uint32_t> code = Assemble(
      "xvs_3_0\n    exec\n    vfetch r10, r0.x, position\n    vfetch r11, r0.x, position1\n"
      "    alloc position\n    exece\n    mov oPos, r10\n");
  const std::vector<uint32_t> defs = {0x30000000, 0, 0, 0, 28,
                                      0x00080008, 0,           // c8-c9, program bytes 0..31
                                      0,
                                      ((0x2320u + 4) << 16) | 1, 0x00FF0510u,  // i1
                                      0,
                                      0};
  const std::vector<uint32_t> info = {32, uint32_t(code.size() * 4 + 12), 0x07110019, 0, 0,
                                      2 | 2 << 5, 2, 2, 1,
                                      0xE90, 0x391,                // dcl_index r0.xyz, dcl_index1 r1.x
                                      0x00000002, 0x00010003,      // position @2, position1 @3
                                      0x0000F0A0, 0x00003151,      // color o0, texcoord1 o1.xy
                                      0x1004};
  test::BeWriter w;
  for (int i = 0; i < 9; ++i) w.U32(0);
  for (uint32_t v : defs) w.U32(v);
  const uint32_t info_at = uint32_t(w.bytes.size());
  for (uint32_t v : info) w.U32(v);
  const uint32_t program = uint32_t(w.bytes.size());
  for (float f : {-1.0f, 3.0f, -3.0f, 1.0f, 0.0f, 1.0f, 2.0f, 3.0f}) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    w.U32(bits);
  }
  for (uint32_t v : code) w.U32(v);
  for (int i = 0; i < 3; ++i) w.U32(0);
  w.Patch(0, 0x102A1101);
  w.Patch(4, program);
  w.Patch(8, uint32_t(w.bytes.size()) - program);
  w.Patch(20, 36);
  w.Patch(24, info_at);

  const ContainerFile c = LoadContainer(w.bytes);
  ASSERT_EQ(c.index_decls.size(), 2u);
  EXPECT_EQ(c.index_decls[0].mask, 0x7u);
  EXPECT_EQ(c.index_decls[1].reg, 1u);
  ASSERT_EQ(c.int_literals.size(), 1u);
  EXPECT_EQ(c.int_literals[0].register_index, 1u);
  EXPECT_EQ(c.export_slots, std::vector<uint32_t>{0x1004});
  EXPECT_EQ(Disassemble(c),
            "xvs_3_0\n"
            "config AutoSerialize=false\n"
            "config AutoResource=false\n"
            "config VsMaxReg=25\n"
            "config VsResource=1\n"
            "config VsExportMode=multipass\n"
            "// VsExportCount=1\n"
            "\n"
            "dcl_index r0.xyz\n"
            "dcl_index1 r1.x\n"
            "dcl_color o0\n"
            "dcl_texcoord1 o1.xy\n"
            "\n"
            "def c8, -1, 3, -3, 1\n"
            "def c9, 0, 1, 2, 3\n"
            "defi i1, 16, 5, -1, 0\n"
            "\n"
            "\n"
            "    exec\n"
            "    vfetch r10, r0.x, position\n"
            "    vfetch r11, r0.x, position1\n"
            "    alloc position\n"
            "    exece\n"
            "    mov oPos, r10\n"
            "\n"
            "// PDB hint 00000000-00000000-00000000\n");
  EXPECT_EQ(WriteContainer(c), w.bytes);

  // A count that does not fit is refused with the byte offset of the counts and the field.
  std::vector<uint8_t> bad = w.bytes;
  StoreBE32(bad.data() + info_at + 28, 200);
  try {
    (void)LoadContainer(bad);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("byte " + std::to_string(info_at + 24) +
                                         ": vertex shader info counts"),
              std::string::npos)
        << e.what();
  }
}

// A pixel shader whose constant table has a struct parameter ($IN with float2 members, as
// RetroArch-style shaders declare `uniform input IN`), a sampler and a default value; a pixel
// shader literal at container register 256 + 3; both sampling kinds.
TEST(UcodeContainer, PixelShaderStructConstantsAndSampling) {
  test::BeWriter t;  // CTAB, offsets relative to its start
  for (int i = 0; i < 7; ++i) t.U32(0);
  t.Patch(0, 28);
  t.Patch(8, 0xFFFF0300);
  t.Patch(12, 3);
  t.Patch(16, 28);
  const size_t entries = t.bytes.size();
  for (int i = 0; i < 15; ++i) t.U32(0);
  auto type = [&](uint16_t cls, uint16_t ty, uint16_t r, uint16_t c, uint16_t members,
                  uint32_t member_info) {
    const uint32_t at = uint32_t(t.bytes.size());
    t.U16(cls); t.U16(ty); t.U16(r); t.U16(c); t.U16(1); t.U16(members); t.U32(member_info);
    return at;
  };
  const uint32_t n_in = uint32_t(t.bytes.size()); t.Str("$IN");
  const uint32_t n_vs = uint32_t(t.bytes.size()); t.Str("video_size");
  const uint32_t n_ts = uint32_t(t.bytes.size()); t.Str("texture_size");
  const uint32_t n_m = uint32_t(t.bytes.size()); t.Str("frame_count");
  const uint32_t t_f2 = type(1, 3, 1, 2, 0, 0);
  const uint32_t t_f1 = type(0, 3, 1, 1, 0, 0);
  const uint32_t members = uint32_t(t.bytes.size());
  t.U32(n_vs); t.U32(t_f2); t.U32(n_ts); t.U32(t_f2); t.U32(n_m); t.U32(t_f1);
  const uint32_t t_in = type(5, 0, 1, 5, 3, members);
  const uint32_t n_s = uint32_t(t.bytes.size()); t.Str("Source");
  const uint32_t t_s = type(4, 12, 1, 1, 0, 0);
  const uint32_t n_g = uint32_t(t.bytes.size()); t.Str("Gain");
  const uint32_t t_g = type(1, 3, 1, 4, 0, 0);
  const uint32_t def_g = uint32_t(t.bytes.size());
  for (float f : {0.5f, 1.0f, 2.0f, -1.0f}) { uint32_t b; std::memcpy(&b, &f, 4); t.U32(b); }
  auto entry = [&](int i, uint32_t name, uint32_t set, uint32_t reg, uint32_t count, uint32_t ty,
                   uint32_t def) {
    const size_t e = entries + 20 * i;
    t.Patch(e, name); t.Patch(e + 4, set << 16 | reg); t.Patch(e + 8, count << 16);
    t.Patch(e + 12, ty); t.Patch(e + 16, def);
  };
  entry(0, n_in, 2, 0, 2, t_in, 0);   // frame_count (c2) unused: range c0-c1
  entry(1, n_s, 3, 1, 1, t_s, 0);
  entry(2, n_g, 2, 4, 1, t_g, def_g);
  t.Patch(24, uint32_t(t.bytes.size())); t.Str("ps_3_0");
  t.Patch(4, uint32_t(t.bytes.size())); t.Str("2.0.99999.0");

  const std::vector<uint32_t> code =
      Assemble("xps_3_0\n    alloc colors\n    exece\n    mul oC0, r0.xyxy, r1\n");
  test::BeWriter w;
  for (int i = 0; i < 9; ++i) w.U32(0);
  w.U32(uint32_t(t.bytes.size()));
  w.bytes.insert(w.bytes.end(), t.bytes.begin(), t.bytes.end());
  const uint32_t defs_at = uint32_t(w.bytes.size());
  for (uint32_t v : {0u, 1u, 0u, 0u, 20u, (259u << 16) | 4u, 0u, 0u, 0u, 0u}) w.U32(v);
  const uint32_t info_at = uint32_t(w.bytes.size());
  for (uint32_t v : {16u, uint32_t(code.size() * 4 + 12), 0x10000300u, 2u << 2, 0u,
                     2u | 2u << 5, 0x00010003u, 1u, 0x00003050u, 0x0000F1A0u}) {
    w.U32(v);
  }
  const uint32_t program = uint32_t(w.bytes.size());
  for (float f : {0.25f, 0.0f, 0.0f, 1.0f}) { uint32_t b; std::memcpy(&b, &f, 4); w.U32(b); }
  for (uint32_t v : code) w.U32(v);
  for (int i = 0; i < 3; ++i) w.U32(0);
  w.Patch(0, 0x102A1100); w.Patch(4, program); w.Patch(8, uint32_t(w.bytes.size()) - program);
  w.Patch(16, 36); w.Patch(20, defs_at); w.Patch(24, info_at);

  const ContainerFile c = LoadContainer(w.bytes);
  EXPECT_EQ(c.creator, "2.0.99999.0");
  ASSERT_EQ(c.constants.size(), 3u);
  ASSERT_EQ(c.constants[0].members.size(), 3u);
  EXPECT_EQ(c.constants[0].members[1].name, "texture_size");
  const std::string text = Disassemble(c);
  EXPECT_EQ(text.substr(0, text.find("\n\n\n")),
            "//\n"
            "// Generated by 2.0.99999.0\n"
            "//\n"
            "xps_3_0\n"
            "defconst $IN.video_size, float, vector, [1, 2], c0\n"
            "defconst $IN.texture_size, float, vector, [1, 2], c1\n"
            "defconst $IN.frame_count, float, scalar, [1, 1], cX\n"
            "defconst Source, sampler2d, object, [1, 1], s1\n"
            "defconst Gain, float, vector, [1, 4], c4, { 0.5, 1, 2, -1 }\n"
            "config AutoSerialize=false\n"
            "config AutoResource=false\n"
            "config PsMaxReg=3\n"
            "// PsExportColorCount=1\n"
            "// PsSampleControl=both\n"
            "\n"
            "dcl_texcoord r0.xy\n"
            "dcl_color_centroid r1\n"
            "\n"
            "def c3, 0.25, 0, 0, 1");
  EXPECT_EQ(WriteContainer(c), w.bytes);
}

}  // namespace
}  // namespace xnt::ucode

namespace xnt::ucode {
namespace {

// Another compiler build may leave bytes between the regions (or lay them out in another
// order): such a container still loads, and WriteContainer keeps those bytes where they were.
TEST(UcodeContainer, BytesBetweenRegionsAreKept) {
  std::vector<uint8_t> b = test::BuildContainer(VertexSpec());
  const uint32_t info = LoadBE32(b.data() + 24), program = LoadBE32(b.data() + 4);
  const std::vector<uint8_t> gap = {0xEE, 0xEE, 0xEE, 0xEE, 0x01, 0x02, 0x03, 0x04};
  b.insert(b.begin() + info, gap.begin(), gap.end());
  StoreBE32(b.data() + 24, info + 8);
  StoreBE32(b.data() + 4, program + 8);
  const ContainerFile c = LoadContainer(b);
  EXPECT_EQ(c.microcode, VertexSpec().microcode);
  ASSERT_EQ(c.literals.size(), 2u);
  EXPECT_EQ(c.literals[1].value[1], 0.25f);
  EXPECT_EQ(WriteContainer(c), b);
  // Overlapping regions are refused with the field named.
  std::vector<uint8_t> bad = b;
  StoreBE32(bad.data() + 20, info + 8);  // definition table at the info block
  try {
    (void)LoadContainer(bad);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("byte 16: region offsets"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace xnt::ucode
