// xnt_xenos: packet headers, register indices and decoders against values from Xenia's headers.
#include <gtest/gtest.h>

#include "xnt/xenos/enums.h"
#include "xnt/xenos/pm4.h"
#include "xnt/xenos/registers.h"

namespace xnt::xenos {
namespace {

TEST(Xenos, PacketHeadersRoundTrip) {
  auto t0 = DecodeType0(MakeType0(0x2000, 3, true));
  EXPECT_EQ(t0.base_index, 0x2000u);
  EXPECT_EQ(t0.count, 3u);
  EXPECT_TRUE(t0.one_register);
  EXPECT_EQ(MakeType0(0x2000, 1), 0x00002000u);
  EXPECT_EQ(MakeType0(0x4000, 0x4000), 0x3FFF4000u);
  auto t1 = DecodeType1(MakeType1(0x578, 0x5C8));
  EXPECT_EQ(t1.reg_a, 0x578u);
  EXPECT_EQ(t1.reg_b, 0x5C8u);
  EXPECT_EQ(GetPacketType(MakeType2()), PacketType::kType2);
  // Type 3: ttcccccc cccccccc ?ooooooo ???????p
  EXPECT_EQ(MakeType3(Opcode::kDrawIndx, 2), 0xC0012200u);
  auto t3 = DecodeType3(MakeType3(Opcode::kXeSwap, 63, true));
  EXPECT_EQ(t3.count, 63u);
  EXPECT_EQ(t3.opcode, 0x64u);
  EXPECT_TRUE(t3.predicated);
  EXPECT_EQ(kSwapSignature, 0x53574150u);
}

TEST(Xenos, OpcodeTableMatchesXenia) {
  // Every opcode Xenia's xenos.h defines, with its value.
  const std::pair<uint32_t, const char*> table[] = {
      {0x48, "ME_INIT"}, {0x10, "NOP"}, {0x3F, "INDIRECT_BUFFER"}, {0x37, "INDIRECT_BUFFER_PFD"},
      {0x26, "WAIT_FOR_IDLE"}, {0x3C, "WAIT_REG_MEM"}, {0x52, "WAIT_REG_EQ"},
      {0x53, "WAIT_REG_GTE"}, {0x5C, "WAIT_UNTIL_READ"}, {0x5D, "WAIT_IB_PFD_COMPLETE"},
      {0x21, "REG_RMW"}, {0x3E, "REG_TO_MEM"}, {0x3D, "MEM_WRITE"}, {0x4F, "MEM_WRITE_CNTR"},
      {0x44, "COND_EXEC"}, {0x45, "COND_WRITE"}, {0x46, "EVENT_WRITE"}, {0x58, "EVENT_WRITE_SHD"},
      {0x59, "EVENT_WRITE_CFL"}, {0x5A, "EVENT_WRITE_EXT"}, {0x5B, "EVENT_WRITE_ZPD"},
      {0x22, "DRAW_INDX"}, {0x36, "DRAW_INDX_2"}, {0x34, "DRAW_INDX_BIN"},
      {0x35, "DRAW_INDX_2_BIN"}, {0x23, "VIZ_QUERY"}, {0x25, "SET_STATE"}, {0x2D, "SET_CONSTANT"},
      {0x55, "SET_CONSTANT2"}, {0x56, "SET_SHADER_CONSTANTS"}, {0x2F, "LOAD_ALU_CONSTANT"},
      {0x27, "IM_LOAD"}, {0x2B, "IM_LOAD_IMMEDIATE"}, {0x2E, "LOAD_CONSTANT_CONTEXT"},
      {0x3B, "INVALIDATE_STATE"}, {0x4A, "SET_SHADER_BASES"}, {0x4B, "SET_BIN_BASE_OFFSET"},
      {0x50, "SET_BIN_MASK"}, {0x51, "SET_BIN_SELECT"}, {0x5E, "CONTEXT_UPDATE"},
      {0x54, "INTERRUPT"}, {0x64, "XE_SWAP"}, {0x2C, "IM_STORE"}, {0x60, "SET_BIN_MASK_LO"},
      {0x61, "SET_BIN_MASK_HI"}, {0x62, "SET_BIN_SELECT_LO"}, {0x63, "SET_BIN_SELECT_HI"},
  };
  size_t known = 0;
  for (uint32_t op = 0; op < 128; ++op) known += IsKnownOpcode(op);
  EXPECT_EQ(known, std::size(table));
  for (auto& [value, name] : table) EXPECT_EQ(OpcodeName(value), name) << value;
  size_t unhandled = 0;
  for (uint32_t op = 0; op < 128; ++op) unhandled += IsOpcodeUnhandledByXenia(op);
  EXPECT_EQ(unhandled, 14u);  // Xenia's command_processor.cc: defined but not handled
}

TEST(Xenos, RegisterIndicesFromTheResearchTable) {
  EXPECT_EQ(RegIndex(Reg::RB_SURFACE_INFO), 0x2000u);
  EXPECT_EQ(RegIndex(Reg::RB_COLOR3_INFO), 0x2005u);
  EXPECT_EQ(RegIndex(Reg::PA_SC_WINDOW_SCISSOR_BR), 0x2082u);
  EXPECT_EQ(RegIndex(Reg::RB_COLOR_MASK), 0x2104u);
  EXPECT_EQ(RegIndex(Reg::PA_CL_VPORT_ZOFFSET), 0x2114u);
  EXPECT_EQ(RegIndex(Reg::SQ_PROGRAM_CNTL), 0x2180u);
  EXPECT_EQ(RegIndex(Reg::VGT_EVENT_INITIATOR), 0x21F9u);
  EXPECT_EQ(RegIndex(Reg::VGT_DRAW_INITIATOR), 0x21FCu);
  EXPECT_EQ(RegIndex(Reg::RB_MODECONTROL), 0x2208u);
  EXPECT_EQ(RegIndex(Reg::RB_BLENDCONTROL3), 0x220Bu);
  EXPECT_EQ(RegIndex(Reg::RB_COPY_CONTROL), 0x2318u);
  EXPECT_EQ(RegIndex(Reg::RB_SAMPLE_COUNT_ADDR), 0x2325u);
  EXPECT_EQ(RegIndex(Reg::COHER_STATUS_HOST), 0x0A31u);
  EXPECT_EQ(RegIndex(Reg::DC_LUTA_CONTROL), 0x1930u);
  EXPECT_EQ(kRegisterCount, 0x5003u);
  EXPECT_EQ(VertexFetchConstantIndex(95), 0x48BEu);
  EXPECT_EQ(FetchConstantIndex(31, 5), 0x48BFu);
  EXPECT_EQ(LoopConstantIndex(31), 0x4927u);
}

TEST(Xenos, RegisterDecodersFollowXeniaBitLayouts) {
  // RB_SURFACE_INFO: pitch 1280, 4x MSAA, hiz pitch 5.
  auto si = reg::RB_SURFACE_INFO::Decode(1280u | (2u << 16) | (5u << 18));
  EXPECT_EQ(si.surface_pitch, 1280u);
  EXPECT_EQ(si.msaa_samples, MsaaSamples::k4X);
  EXPECT_EQ(si.hiz_pitch, 5u);
  // RB_COLOR_INFO: base 0x7FF + bit 11, k_2_10_10_10_FLOAT, exp bias -2.
  auto ci = reg::RB_COLOR_INFO::Decode(0xFFFu | (3u << 16) | (0x3Eu << 20));
  EXPECT_EQ(ci.color_base, 0x7FFu);
  EXPECT_EQ(ci.color_base_bit_11, 1u);
  EXPECT_EQ(ci.color_format, ColorRenderTargetFormat::k_2_10_10_10_FLOAT);
  EXPECT_EQ(ci.color_exp_bias, -2);
  EXPECT_EQ(ci.Encode(), 0xFFFu | (3u << 16) | (0x3Eu << 20));
  EXPECT_EQ(reg::RB_DEPTH_INFO::Decode(0x10123).depth_format, DepthRenderTargetFormat::kD24FS8);
  auto dc = reg::RB_DEPTHCONTROL::Decode(0x00000036u);  // z on, z write, LEQUAL (3 << 4)
  EXPECT_TRUE(dc.z_enable);
  EXPECT_TRUE(dc.z_write_enable);
  EXPECT_FALSE(dc.stencil_enable);
  EXPECT_EQ(dc.zfunc, CompareFunction::kLessEqual);
  auto bc = reg::RB_BLENDCONTROL::Decode(0x07060706u);  // srcalpha / invsrcalpha / add
  EXPECT_EQ(bc.color_srcblend, BlendFactor::kSrcAlpha);
  EXPECT_EQ(bc.color_destblend, BlendFactor::kOneMinusSrcAlpha);
  EXPECT_EQ(bc.color_comb_fcn, BlendOp::kAdd);
  EXPECT_EQ(bc.Encode(), 0x07060706u);
  auto di = reg::VGT_DRAW_INITIATOR::Decode(0x00030884u);
  EXPECT_EQ(di.prim_type, PrimitiveType::kTriangleList);
  EXPECT_EQ(di.source_select, SourceSelect::kAutoIndex);
  EXPECT_EQ(di.index_size, IndexFormat::kInt32);
  EXPECT_EQ(di.num_indices, 3u);
  auto ds = reg::VGT_DMA_SIZE::Decode(0x80000010u);
  EXPECT_EQ(ds.num_words, 16u);
  EXPECT_EQ(ds.swap_mode, Endian::k8in32);
  auto cdi = reg::RB_COPY_DEST_INFO::Decode(2u | (1u << 3) | (6u << 7) | (0x3Fu << 16) | (1u << 24));
  EXPECT_EQ(cdi.copy_dest_endian, Endian128::k8in32);
  EXPECT_TRUE(cdi.copy_dest_array);
  EXPECT_EQ(cdi.copy_dest_format, TextureFormat::k_8_8_8_8);
  EXPECT_EQ(cdi.copy_dest_exp_bias, -1);
  EXPECT_TRUE(cdi.copy_dest_swap);
  auto wo = reg::PA_SC_WINDOW_OFFSET::Decode(0x7FFFu | (0x10u << 16));  // x = -1, y = 16
  EXPECT_EQ(wo.window_x_offset, -1);
  EXPECT_EQ(wo.window_y_offset, 16);
  auto pc = reg::SQ_PROGRAM_CNTL::Decode(0x80u | (3u << 8) | (1u << 18) | (2u << 20) | (1u << 31));
  EXPECT_EQ(pc.vs_num_reg, 0x80u);
  EXPECT_EQ(pc.ps_num_reg, 3u);
  EXPECT_TRUE(pc.param_gen);
  EXPECT_EQ(pc.vs_export_count, 2u);
  EXPECT_TRUE(pc.gen_index_vtx);
  auto mc = reg::PA_SU_SC_MODE_CNTL::Decode(0x2u | (1u << 2) | (1u << 15));
  EXPECT_EQ(mc.cull_mode(), CullMode::kBack);
  EXPECT_TRUE(mc.face);
  EXPECT_TRUE(mc.msaa_enable);
}

TEST(Xenos, FetchConstantsDecode) {
  // Vertex fetch: type 3, address 0x100000 bytes (0x40000 dwords), 8in32, 36 dwords.
  auto vf = VertexFetchConstant::Decode(3u | (0x40000u << 2), 2u | (36u << 2));
  EXPECT_EQ(vf.type, FetchConstantType::kVertex);
  EXPECT_EQ(vf.address_bytes(), 0x100000u);
  EXPECT_EQ(vf.endian, Endian::k8in32);
  EXPECT_EQ(vf.size_dwords, 36u);
  auto enc = vf.Encode();
  EXPECT_EQ(VertexFetchConstant::Decode(enc[0], enc[1]).size_dwords, 36u);
  // Texture fetch: 2D 1280x720 k_8_8_8_8 tiled at 0x01000000, pitch 1280 >> 5 = 40.
  uint32_t t[6] = {2u | (40u << 22) | (1u << 31), 6u | (2u << 6) | (0x1000u << 12),
                   1279u | (719u << 13), (0x688u << 1), 0, (1u << 9)};
  auto tf = TextureFetchConstant::Decode(t);
  EXPECT_EQ(tf.type, FetchConstantType::kTexture);
  EXPECT_TRUE(tf.tiled);
  EXPECT_EQ(tf.pitch, 40u);
  EXPECT_EQ(tf.format, TextureFormat::k_8_8_8_8);
  EXPECT_EQ(tf.endianness, Endian::k8in32);
  EXPECT_EQ(tf.base_address_bytes(), 0x01000000u);
  EXPECT_EQ(tf.dimension, DataDimension::k2DOrStacked);
  EXPECT_EQ(tf.width(), 1280u);
  EXPECT_EQ(tf.height(), 720u);
  EXPECT_EQ(tf.swizzle, 0x688u);  // XYZW: 0 | 1<<3 | 2<<6 | 3<<9
  // Memexport stream constant from Xenia's xenos.h example: 8in32, 32_32_32_32_FLOAT, float.
  MemExportStreamConstant ms{};
  ms.base_address_dwords = 0x100;
  ms.x_const = 1;
  ms.y_const = 0x4B000000;
  ms.endianness = Endian128::k8in32;
  ms.format = TextureFormat::k_32_32_32_32_FLOAT;
  ms.num_format = SurfaceNumberFormat::kFloat;
  ms.z_const = 0x4B0;
  ms.index_count = 35840;
  ms.w_const = 0x96;
  auto words = ms.Encode();
  // Z = 010010110000|0|111|00|100110|00000|010 (xenos.h, 4D5307E6 particles c152).
  EXPECT_EQ(words[2], 0x4B072602u);
  auto back = MemExportStreamConstant::Decode(words.data());
  EXPECT_TRUE(back.LooksValid());
  EXPECT_EQ(back.index_count, 35840u);
  EXPECT_EQ(back.base_address_bytes(), 0x400u);
}

TEST(Xenos, EdramPitchTiles) {
  EXPECT_EQ(SurfacePitchTiles(1280, MsaaSamples::k1X, false), 16u);
  EXPECT_EQ(SurfacePitchTiles(1280, MsaaSamples::k4X, false), 32u);
  EXPECT_EQ(SurfacePitchTiles(1280, MsaaSamples::k1X, true), 32u);
  EXPECT_EQ(SurfacePitchTiles(256, MsaaSamples::k1X, false), 4u);
  EXPECT_EQ(GpuSwap(0x11223344u, Endian::k8in16), 0x22114433u);
  EXPECT_EQ(GpuSwap(0x11223344u, Endian::k8in32), 0x44332211u);
  EXPECT_EQ(GpuSwap(0x11223344u, Endian::k16in32), 0x33441122u);
}

}  // namespace
}  // namespace xnt::xenos
