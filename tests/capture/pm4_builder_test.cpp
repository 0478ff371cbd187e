// Pm4Builder: every packet's encoding against the layouts of Xenia's command_processor.cc, and the D3D
// helper sequences against the packets of a trace Xenia itself played (xenia-oracle).
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/capture/xtr_file.h"
#include "prerequisite.h"

namespace xnt::capture {
namespace {

using V = std::vector<uint32_t>;
using xenos::Opcode;

V Build(const std::function<void(Pm4Builder&)>& f) {
  Pm4Builder b;
  f(b);
  return b.dwords();
}

TEST(Pm4Builder, Type0Type1Type2) {
  EXPECT_EQ(Build([](auto& b) { b.WriteRegister(0x2000, 320); }), (V{0x00002000, 320}));
  const uint32_t vals[3] = {1, 2, 3};
  EXPECT_EQ(Build([&](auto& b) { b.WriteRegisters(0x2318, vals); }),
            (V{0x00022318, 1, 2, 3}));
  EXPECT_EQ(Build([&](auto& b) { b.WriteRegisterOne(0x1925, vals); }),
            (V{0x00029925, 1, 2, 3}));
  EXPECT_EQ(Build([](auto& b) { b.WriteRegisterPair(0x578, 7, 0x579, 9); }),
            (V{0x40000000u | (0x579u << 11) | 0x578u, 7, 9}));
  EXPECT_EQ(Build([](auto& b) { b.Filler(2); }), (V{0x80000000u, 0x80000000u}));
  // Runs longer than 0x4000 values split into several packets.
  std::vector<uint32_t> many(0x4001, 5);
  const V split = Build([&](auto& b) { b.WriteRegisters(0x1000, many); });
  ASSERT_EQ(split.size(), 0x4001u + 2);
  EXPECT_EQ(split[0], 0x3FFF1000u);
  EXPECT_EQ(split[0x4001], 0x00005000u);  // the 0x4001st value, to register 0x1000 + 0x4000
  EXPECT_THROW(Build([](auto& b) { b.WriteRegisterPair(0x800, 0, 0, 0); }), Error);
  EXPECT_THROW(Build([](auto& b) { b.WriteRegisters(0x7FFF, std::vector<uint32_t>(2)); }), Error);
}

TEST(Pm4Builder, EveryType3Packet) {
  using xenos::PrimitiveType;
  struct Case {
    const char* name;
    std::function<void(Pm4Builder&)> build;
    V expected;
  };
  const uint16_t idx[3] = {0, 1, 2};
  const uint32_t ucode[2] = {0xAAAA0000, 0x0000BBBB};
  const uint32_t two[2] = {7, 8};
  const float alu[4] = {1.0f, 0.5f, 0.0f, -2.0f};
  const Case cases[] = {
      {"NOP", [](auto& b) { b.Nop(2); }, {0xC0011000, 0, 0}},
      {"REG_RMW", [](auto& b) { b.RegRmw(0x0578, 0xF0, 0x0F, 0x80000000u); },
       {0xC0022100, 0x80000578, 0xF0, 0x0F}},
      {"DRAW_INDX auto", [](auto& b) { b.DrawIndxAuto(PrimitiveType::kRectangleList, 3); },
       {0xC0012200, 0, 0x00030088}},
      {"DRAW_INDX dma",
       [](auto& b) {
         b.DrawIndxDma(PrimitiveType::kTriangleStrip, 4, 0x00123400, xenos::IndexFormat::kInt32,
                       xenos::Endian::k8in32, 5);
       },
       {0xC0032200, 5, 0x00040806, 0x00123400, 0x80000004}},
      {"DRAW_INDX immediate",
       [&](auto& b) { b.DrawIndxImmediate(PrimitiveType::kTriangleList, idx); },
       {0xC0032200, 0, 0x00030044, 0x00010000, 0x00000002}},
      {"DRAW_INDX_2 auto", [](auto& b) { b.DrawIndx2Auto(PrimitiveType::kTriangleList, 3); },
       {0xC0003600, 0x00030084}},
      {"DRAW_INDX_2 immediate",
       [&](auto& b) { b.DrawIndx2Immediate(PrimitiveType::kTriangleFan, idx); },
       {0xC0023600, 0x00030045, 0x00010000, 0x00000002}},
      {"VIZ_QUERY", [](auto& b) { b.VizQuery(5, true); }, {0xC0002300, 0x105}},
      {"WAIT_FOR_IDLE", [](auto& b) { b.WaitForIdle(); }, {0xC0002600, 0}},
      {"IM_LOAD", [](auto& b) { b.ImLoad(xenos::ShaderType::kPixel, 0x1000, 12, 4); },
       {0xC0012700, 0x1001, 0x0004000C}},
      {"IM_LOAD_IMMEDIATE",
       [&](auto& b) { b.ImLoadImmediate(xenos::ShaderType::kVertex, ucode); },
       {0xC0032B00, 0, 2, 0xAAAA0000, 0x0000BBBB}},
      {"SET_CONSTANT fetch",
       [&](auto& b) { b.SetConstant(xenos::ConstantType::kFetch, 0xBE, two); },
       {0xC0022D00, 0x000100BE, 7, 8}},
      {"SET_CONSTANT bool", [&](auto& b) { b.SetConstant(xenos::ConstantType::kBool, 1, two); },
       {0xC0022D00, 0x00020001, 7, 8}},
      {"SET_CONSTANT loop", [&](auto& b) { b.SetConstant(xenos::ConstantType::kLoop, 3, two); },
       {0xC0022D00, 0x00030003, 7, 8}},
      {"SET_CONSTANT registers",
       [&](auto& b) { b.SetConstant(xenos::ConstantType::kRegisters, 0x208, two); },
       {0xC0022D00, 0x00040208, 7, 8}},
      {"SET_CONSTANT alu", [&](auto& b) { b.SetAluConstants(256, alu); },
       {0xC0042D00, 0x00000400, 0x3F800000, 0x3F000000, 0, 0xC0000000}},
      {"SET_CONSTANT2", [&](auto& b) { b.SetConstant2(0x2208, two); },
       {0xC0025500, 0x2208, 7, 8}},
      {"SET_SHADER_CONSTANTS", [&](auto& b) { b.SetShaderConstants(0x4000, two); },
       {0xC0025600, 0x4000, 7, 8}},
      {"LOAD_ALU_CONSTANT",
       [](auto& b) { b.LoadAluConstant(0x00050000, xenos::ConstantType::kAlu, 16, 64); },
       {0xC0022F00, 0x00050000, 0x00000010, 64}},
      {"INDIRECT_BUFFER", [](auto& b) { b.IndirectBuffer(0x00400000, 10); },
       {0xC0013F00, 0x00400000, 10}},
      {"INDIRECT_BUFFER_PFD", [](auto& b) { b.IndirectBuffer(0x00400000, 10, true); },
       {0xC0013700, 0x00400000, 10}},
      {"INVALIDATE_STATE", [](auto& b) { b.InvalidateState(0x7FFF); }, {0xC0003B00, 0x7FFF}},
      {"WAIT_REG_MEM",
       [](auto& b) { b.WaitRegMem(true, xenos::WaitFunction::kEqual, 0x1000, 1, 0xFF, 10); },
       {0xC0043C00, 0x13, 0x1000, 1, 0xFF, 10}},
      {"MEM_WRITE", [&](auto& b) { b.MemWrite(0x2000, two, xenos::Endian::k8in32); },
       {0xC0023D00, 0x2002, 7, 8}},
      {"REG_TO_MEM", [](auto& b) { b.RegToMem(0x578, 0x3000); }, {0xC0013E00, 0x578, 0x3000}},
      {"COND_WRITE",
       [](auto& b) {
         b.CondWrite(true, xenos::WaitFunction::kNotEqual, 0x10, 0, 1, true, 0x20, 0xDEAD);
       },
       {0xC0054500, 0x114, 0x10, 0, 1, 0x20, 0xDEAD}},
      {"EVENT_WRITE", [](auto& b) { b.EventWrite(xenos::Event::kCacheFlush); },
       {0xC0004600, 6}},
      {"EVENT_WRITE_SHD",
       [](auto& b) { b.EventWriteShd(xenos::Event::kCacheFlushTs, 0x4000, 9); },
       {0xC0025800, 4, 0x4000, 9}},
      {"EVENT_WRITE_EXT", [](auto& b) { b.EventWriteExt(xenos::Event::kScreenExtRpt, 0x5000); },
       {0xC0015A00, 26, 0x5000}},
      {"EVENT_WRITE_ZPD", [](auto& b) { b.EventWriteZpd(xenos::Event::kZpassDone); },
       {0xC0005B00, 21}},
      {"ME_INIT", [&](auto& b) { b.MeInit(two); }, {0xC0014800, 7, 8}},
      {"SET_BIN_MASK", [](auto& b) { b.SetBinMask(0x0000000100000002ull); },
       {0xC0015000, 1, 2}},
      {"SET_BIN_SELECT", [](auto& b) { b.SetBinSelect(0x0000000300000004ull); },
       {0xC0015100, 3, 4}},
      {"SET_BIN_MASK_LO", [](auto& b) { b.SetBinMaskLo(5); }, {0xC0006000, 5}},
      {"SET_BIN_MASK_HI", [](auto& b) { b.SetBinMaskHi(6); }, {0xC0006100, 6}},
      {"SET_BIN_SELECT_LO", [](auto& b) { b.SetBinSelectLo(7); }, {0xC0006200, 7}},
      {"SET_BIN_SELECT_HI", [](auto& b) { b.SetBinSelectHi(8); }, {0xC0006300, 8}},
      {"INTERRUPT", [](auto& b) { b.Interrupt(0x3F); }, {0xC0005400, 0x3F}},
      {"CONTEXT_UPDATE", [](auto& b) { b.ContextUpdate(); }, {0xC0005E00, 0}},
      {"XE_SWAP", [](auto& b) { b.XeSwap(0x00200000, 320, 240, 1); },
       {0xC0046400, 0x53574150, 0x00200000, 320, 240, 0}},
      {"predicated", [](auto& b) { b.SetPredicate(true).WaitForIdle().SetPredicate(false).Nop(); },
       {0xC0002601, 0, 0xC0001000, 0}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Build(c.build), c.expected) << c.name;
  }
  EXPECT_THROW(Build([](auto& b) { b.Nop(0); }), Error);
  EXPECT_THROW(Build([](auto& b) { b.RegRmw(0x2104, 0, 0); }), Error);
  EXPECT_THROW(Build([](auto& b) { b.Nop(0x4001); }), Error);
}

// ---- D3D sequences against Xenia's oracle trace ------------------------------------------------------

struct OraclePacket {
  uint32_t address;
  V dwords;
};

std::vector<OraclePacket> OraclePackets(const char* name) {
  namespace fs = std::filesystem;
  const fs::path p = fs::path(XNT_SHARED_DIR) / "xenia-oracle" / name;
  std::ifstream f(p, std::ios::binary);
  std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(f), {});
  std::vector<OraclePacket> out;
  if (bytes.empty()) return out;
  xtr::Parse(bytes, [&](const xtr::Command& c) {
    if (c.type != xtr::CommandType::kPacketStart) return;
    OraclePacket p{c.base_ptr, V(c.count)};
    for (uint32_t i = 0; i < c.count; ++i) p.dwords[i] = LoadBE32(&c.data[4 * i]);
    out.push_back(std::move(p));
  });
  return out;
}

// Concatenates the oracle packets from the one at `first` up to (not including) `end`.
V Span(const std::vector<OraclePacket>& packets, uint32_t first, uint32_t end) {
  V out;
  for (const auto& p : packets) {
    if (p.address >= first && p.address < end) out.insert(out.end(), p.dwords.begin(), p.dwords.end());
  }
  return out;
}

TEST(Pm4BuilderD3d, MatchesWhatXeniaPlayedInTriangleFlat) {
  const auto oracle = OraclePackets("triangle_flat.xtr");
  if (oracle.empty()) XNT_MISSING_PREREQUISITE() << "xenia-oracle not present";

  // Device defaults: the first 18 packets.
  EXPECT_EQ(Build([](auto& b) { D3dDeviceDefaults(b); }), Span(oracle, 0x80000, 0x800A4));

  // Viewport 320x240 (and the window scissor that follows it).
  EXPECT_EQ(Build([](auto& b) { D3dSetViewport(b, 0, 0, 320, 240); }),
            Span(oracle, 0x8012C, 0x80154));

  // Shaders: the microcode is the oracle's own (compiled by the XDK); the register setup is ours.
  const auto vs = Span(oracle, 0x8015C, 0x801BC);
  const auto ps = Span(oracle, 0x801BC, 0x801E0);
  ASSERT_GT(vs.size(), 3u);
  ASSERT_GT(ps.size(), 3u);
  const V vs_ucode(vs.begin() + 3, vs.end()), ps_ucode(ps.begin() + 3, ps.end());
  ShaderPair pair{vs_ucode, ps_ucode, 1, 1, 1};
  EXPECT_EQ(Build([&](auto& b) { D3dSetShaders(b, pair); }), Span(oracle, 0x8015C, 0x801F8));

  // Constants, vertex fetch 95 and the draw.
  const float c252[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 2, -1, 1};
  EXPECT_EQ(Build([&](auto& b) {
              for (int i = 0; i < 4; ++i) b.SetAluConstants(252 + i, std::span(c252 + 4 * i, 4));
            }),
            Span(oracle, 0x801F8, 0x80258));
  EXPECT_EQ(Build([](auto& b) {
              D3dSetVertexFetch(b, 95, 0x60000, 6);
              b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
            }),
            Span(oracle, 0x80288, 0x802A0));

  // The resolve to the front buffer (no clear) and the VdSwap pair.
  RenderTargetSetup rt;
  rt.surface_pitch = 320;
  const ResolveSetup r{.width = 320, .height = 240, .dest_address = 0x00200000, .dest_pitch = 320,
                       .dest_height = 240, .vertex_address = 0x70000};
  EXPECT_EQ(Build([&](auto& b) { D3dResolve(b, rt, r); }), Span(oracle, 0x802A0, 0x80304));
  EXPECT_EQ(Build([](auto& b) { D3dSwap(b, 0x00200000, 320, 240); }),
            Span(oracle, 0x80304, 0x80340));
  // The resolve rectangle's vertices are the bytes Xenia recorded at 0x70000.
  const auto verts = ResolveRectangleVertices(320, 240);
  ASSERT_EQ(verts.size(), 24u);
  EXPECT_EQ(LoadBE32(&verts[8]), std::bit_cast<uint32_t>(320.0f));
  EXPECT_EQ(LoadBE32(&verts[20]), std::bit_cast<uint32_t>(240.0f));
}

TEST(Pm4BuilderD3d, ResolveWithClearWritesClearValues) {
  RenderTargetSetup rt;
  rt.surface_pitch = 320;
  ResolveSetup r{.width = 320, .height = 240, .dest_address = 0x00300000, .dest_pitch = 320,
                 .dest_height = 240, .clear_color = true, .clear_color_value = 0xFF281818,
                 .vertex_address = 0x70000};
  const V d = Build([&](auto& b) { D3dResolve(b, rt, r); });
  // SURFACE/COLOR/DEPTH (6) + COPY_* (5) + COLOR_CLEAR (3) + scissor (3) + fetch (4) + mode (2)
  // + draw (3) + mode (2).
  ASSERT_EQ(d.size(), 28u);
  EXPECT_EQ(d[6], 0x00032318u);
  EXPECT_EQ(d[7], 0x100u);  // color_clear_enable
  EXPECT_EQ(d[11], 0x0001231Eu);
  EXPECT_EQ(d[12], 0xFF281818u);
  r.width = 317;
  EXPECT_THROW(Build([&](auto& b) { D3dResolve(b, rt, r); }), Error);
}

}  // namespace
}  // namespace xnt::capture
