// Memexport detection: a draw whose shader writes eA/eM# reaches Backend::OnMemExport with the
// stream constant(s) among the float constants the shader reads (microcode from the assembler).
#include <gtest/gtest.h>

#include "pm4_test_util.h"
#include "xnt/replay/dump.h"
#include "xnt/ucode/assembler.h"

namespace xnt::replay {
namespace {

using test::Pm4;
using xenos::Opcode;

// The stream constant of `count` float elements of `format` at dword `base_address_dwords`,
// 8in32, with the x/y/z/w marker constants D3D writes.
xenos::MemExportStreamConstant FloatStream(uint32_t base_address_dwords,
                                           xenos::TextureFormat format, uint32_t count) {
  xenos::MemExportStreamConstant stream{};
  stream.base_address_dwords = base_address_dwords;
  stream.x_const = 1;
  stream.y_const = 0x4B000000;
  stream.endianness = xenos::Endian128::k8in32;
  stream.format = format;
  stream.num_format = xenos::SurfaceNumberFormat::kFloat;
  stream.z_const = 0x4B0;
  stream.index_count = count;
  stream.w_const = 0x96;
  return stream;
}

struct MemExportLog : test::RecordingBackend {
  std::vector<MemExportCall> exports;
  std::vector<uint32_t> draw_index;
  void OnMemExport(const MemExportCall& c) override {
    exports.push_back(c);
    draw_index.push_back(c.draw->draw_index);
  }
};

TEST(MemExport, StreamConstantsOfAnExportingShaderAreReported) {
  const std::vector<uint32_t> vs = ucode::Assemble(
      "xvs_3_0\n"
      "    alloc export, Size=1\n"
      "    exec Serialize=0x2\n"
      "    mad eA, r0, c1, c0\n"
      "    mov eM0, r1\n"
      "    alloc position\n"
      "    exece\n"
      "    mov oPos, r1\n");
  // 0x100000 bytes.
  const auto c0 = FloatStream(0x40000, xenos::TextureFormat::k_32_FLOAT, 96).Encode();

  GuestMemory memory;
  RegisterFile registers;
  MemExportLog backend;
  CommandProcessor cp(memory, registers, backend);
  Pm4 s;
  std::vector<uint32_t> payload = {0, uint32_t(vs.size())};
  payload.insert(payload.end(), vs.begin(), vs.end());
  s.Type3(Opcode::kImLoadImmediate, payload);
  s.Type3(Opcode::kSetConstant, {0, c0[0], c0[1], c0[2], c0[3], 0, 0x3F800000, 0, 0});
  s.Type0(xenos::Reg::RB_MODECONTROL, {0});
  s.Type3(Opcode::kDrawIndx, {0, 1u | (2u << 6) | (32u << 16)});  // 32 points, auto
  cp.Execute(s.d, 0x100000, 0);
  ASSERT_NE(cp.active_vertex_shader(), nullptr);
  EXPECT_TRUE(cp.active_vertex_shader()->analyzed) << cp.active_vertex_shader()->analysis_error;
  EXPECT_TRUE(cp.active_vertex_shader()->uses_memexport);
  EXPECT_EQ(cp.active_vertex_shader()->memexport_data_mask, 1u);
  ASSERT_EQ(backend.exports.size(), 1u);  // c1 = (0, 1, 0, 0) is not a stream constant
  EXPECT_EQ(backend.exports[0].stream_constant, 0u);
  EXPECT_EQ(backend.exports[0].stream.base_address_bytes(), 0x100000u);
  EXPECT_EQ(backend.exports[0].stream.index_count, 96u);
  EXPECT_EQ(backend.exports[0].stream.format, xenos::TextureFormat::k_32_FLOAT);
  EXPECT_EQ(backend.draw_index[0], 0u);
  EXPECT_TRUE(cp.diagnostics().empty());

  // Without a stream constant in the constants it reads: a warning, no export.
  RegisterFile registers2;
  MemExportLog backend2;
  CommandProcessor cp2(memory, registers2, backend2);
  Pm4 s2;
  s2.Type3(Opcode::kImLoadImmediate, payload);
  s2.Type3(Opcode::kDrawIndx, {0, 1u | (2u << 6) | (32u << 16)});
  cp2.Execute(s2.d, 0x100000, 0);
  EXPECT_TRUE(backend2.exports.empty());
  ASSERT_EQ(cp2.diagnostics().size(), 1u);
  EXPECT_NE(cp2.diagnostics()[0].message.find("exports memory"), std::string::npos);
}

// A stream constant whose Y carries a first index (2^23 + 13): the shaders accept that eA (only
// the exponents are markers), so the stream is reported and its range mirrored; a Y without the
// 2^23 exponent is no stream constant.
TEST(MemExport, StreamConstantWithAFirstIndexInYIsReported) {
  const std::vector<uint32_t> vs = ucode::Assemble(
      "xvs_3_0\n    alloc export\n    exec\n    mad eA, r0, c1, c0\n    mov eM0, r1\n"
      "    alloc position\n    exece\n    mov oPos, r1\n");
  std::vector<uint32_t> payload = {0, uint32_t(vs.size())};
  payload.insert(payload.end(), vs.begin(), vs.end());
  // k_32_FLOAT (36) at 0x1000 (dword 0x400), 8in32, 20 elements, first index 13.
  const uint32_t c0[4] = {0x40000400u, 0x4B00000Du, 0x4B000000u | (36u << 8) | 2u, 0x4B000014u};
  for (const uint32_t y : {0x4B00000Du, 0x3F800000u}) {
    GuestMemory memory;
    RegisterFile registers;
    MemExportLog backend;
    CommandProcessor cp(memory, registers, backend);
    Pm4 s;
    s.Type3(Opcode::kImLoadImmediate, payload);
    s.Type3(Opcode::kSetConstant, {0, c0[0], y, c0[2], c0[3]});
    s.Type3(Opcode::kDrawIndx, {0, 1u | (2u << 6) | (4u << 16)});
    cp.Execute(s.d, 0x100000, 0);
    if (y == 0x3F800000u) {
      EXPECT_TRUE(backend.exports.empty());
      continue;
    }
    ASSERT_EQ(backend.exports.size(), 1u);
    EXPECT_EQ(backend.exports[0].stream.base_address_bytes(), 0x1000u);
    EXPECT_EQ(backend.exports[0].stream.y_const, 0x4B00000Du);
    EXPECT_EQ(backend.exports[0].stream.index_count, 20u);
    EXPECT_EQ(backend.exports[0].ByteSize(), 80u);  // 20 elements of 4 bytes from the base
  }
}

TEST(MemExport, DumpShowsTheStream) {
  const std::vector<uint32_t> vs = ucode::Assemble(
      "xvs_3_0\n    alloc export, Size=1\n    exec\n    mad eA, r0, c1, c0\n"
      "    mov eM0, r1\n    mov eM1, r1\n    alloc position\n    exece\n    mov oPos, r1\n");
  const auto c0 = FloatStream(0x800, xenos::TextureFormat::k_32_32_32_32_FLOAT, 16).Encode();
  std::string out;
  DumpOptions options;
  options.registers = false;
  DumpPrinter printer(options, [&](std::string_view t) { out.append(t); });
  TracePlayer player(printer);
  printer.Attach(player);
  Pm4 s;
  std::vector<uint32_t> payload = {0, uint32_t(vs.size())};
  payload.insert(payload.end(), vs.begin(), vs.end());
  s.Type3(Opcode::kImLoadImmediate, payload);
  s.Type3(Opcode::kSetConstant, {0, c0[0], c0[1], c0[2], c0[3]});
  s.Type3(Opcode::kDrawIndx, {0, 1u | (2u << 6) | (4u << 16)});
  format::Submission sub;
  sub.guest_address = 0x100000;
  sub.dwords = s.d;
  player.Apply(sub);
  printer.Flush();
  EXPECT_NE(out.find("=> memexport 0.0 vs c0: 0x00002000 16 elements k_32_32_32_32_FLOAT "
                     "num_format 7 endian 2 eM mask 0x3"),
            std::string::npos)
      << out;
}

TEST(MemExport, UndecodableMicrocodeIsRecordedNotFatal) {
  GuestMemory memory;
  RegisterFile registers;
  test::RecordingBackend backend;
  CommandProcessor cp(memory, registers, backend);
  Pm4 s;
  s.Type3(Opcode::kImLoadImmediate, {1, 3, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF});
  s.Type3(Opcode::kDrawIndx, {0, 4u | (2u << 6) | (3u << 16)});
  cp.Execute(s.d, 0x100000, 0);
  ASSERT_NE(cp.active_pixel_shader(), nullptr);
  EXPECT_FALSE(cp.active_pixel_shader()->analyzed);
  EXPECT_FALSE(cp.active_pixel_shader()->analysis_error.empty());
  EXPECT_EQ(backend.draws.size(), 1u);
}

}  // namespace
}  // namespace xnt::replay
