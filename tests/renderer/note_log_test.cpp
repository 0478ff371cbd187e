// replay --json's list of notes (renderer/note_log.h): each note's kind, register and field from
// its wording, the first draw F.K that counted it, and the same list on the cpu, fbo and fsi
// paths for a trace with user clip planes and the index clamp (modelled on every path, so they
// add no note) and a draw no path can do (RB_MODECONTROL edram_mode 0, planted so the test does
// not depend on what is still unimplemented).
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <vector>

#include "replay_helpers.h"
#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/renderer/note_log.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::renderer {
namespace {

using xenos::Reg;

TEST(NoteLog, KindAndRegisterComeFromTheText) {
  const std::string ucp =
      "user clip planes (PA_CL_CLIP_CNTL ucp_ena 0x02) not implemented: primitives are not clipped";
  EXPECT_EQ(ClassifyNote(ucp), NoteKind::kNotImplemented);
  EXPECT_EQ(NoteRegisterOf(ucp).name, "PA_CL_CLIP_CNTL");
  EXPECT_EQ(NoteRegisterOf(ucp).field, "ucp_ena");
  const std::string pitch = "draw with RB_SURFACE_INFO surface_pitch 0 skipped";
  EXPECT_EQ(ClassifyNote(pitch), NoteKind::kSkipped);
  EXPECT_EQ(NoteRegisterOf(pitch).name, "RB_SURFACE_INFO");
  EXPECT_EQ(NoteRegisterOf(pitch).field, "surface_pitch");
  // A skip wins over the reason it gives; a register without a field; no register at all.
  EXPECT_EQ(ClassifyNote("draw of primitive type kQuadPatch skipped (not implemented)"),
            NoteKind::kSkipped);
  const NoteRegister clamp = NoteRegisterOf("PA_CL_CLIP_CNTL clip_disable: the device lacks depthClamp");
  EXPECT_EQ(clamp.field, "clip_disable");
  EXPECT_EQ(ClassifyNote("PA_CL_CLIP_CNTL clip_disable: the device lacks depthClamp"),
            NoteKind::kInexact);
  EXPECT_EQ(NoteRegisterOf("vertex index clamp (VGT_MIN_VTX_INDX 4, VGT_MAX_VTX_INDX 9)").field, "");
  const NoteRegister none = NoteRegisterOf("2x MSAA coverage from 4 host samples");
  EXPECT_TRUE(none.name.empty() && none.field.empty());
  EXPECT_EQ(ClassifyNote("2x MSAA coverage from 4 host samples"), NoteKind::kInexact);
  // State drawn without its effect is not implemented, even where a device feature is named.
  EXPECT_EQ(ClassifyNote("user clip planes / vertex kill on a rectangle list not implemented: "
                         "its primitives are drawn unclipped"),
            NoteKind::kNotImplemented);
  // Drawn approximately for want of a device feature, the register named.
  const std::string square_points =
      "points drawn square (PA_SU_POINT_SIZE width times the horizontal scale on both axes): the "
      "device lacks geometry shaders reading gl_PointSize (shaderTessellationAndGeometryPointSize)";
  EXPECT_EQ(ClassifyNote(square_points), NoteKind::kInexact);
  EXPECT_EQ(NoteRegisterOf(square_points).name, "PA_SU_POINT_SIZE");
  EXPECT_EQ(ClassifyNote("user clip planes / vertex kill not applied: the device lacks "
                         "shaderClipDistance or shaderCullDistance"),
            NoteKind::kNotImplemented);
  EXPECT_STREQ(NoteKindName(NoteKind::kNotImplemented), "not_implemented");
  EXPECT_STREQ(NoteKindName(NoteKind::kOther), "other");
  // The cpu and Vulkan paths word an undecodable texture differently; the kind is the same.
  EXPECT_EQ(ClassifyNote("cpu path: texture format k_CTX1 not decoded (zeros)"),
            NoteKind::kNotImplemented);
  EXPECT_EQ(ClassifyNote("texture fetch constant 3 sampled as zeros: unknown format 63"),
            NoteKind::kNotImplemented);
  EXPECT_EQ(ClassifyNote("texture: TextureSign signed on k_8_8_8_8"), NoteKind::kInexact);
  EXPECT_EQ(ClassifyNote("colour target: 7e3 in a 16-bit float host target (blending at half "
                         "precision)"),
            NoteKind::kInexact);
  EXPECT_EQ(ClassifyNote("shader: 2 interpolators"), NoteKind::kOther);
}

TEST(NoteLog, CountsGoToTheEventTheyGrewIn) {
  NoteLog log;
  log.Observe({{"a skipped", 1}}, DrawId{0, 0});
  log.Observe({{"a skipped", 1}}, std::nullopt);                 // no growth
  log.Observe({{"a skipped", 3}, {"b", 1}}, DrawId{1, 4});       // a grew in 1.4 too
  log.Observe({{"a skipped", 3}, {"b", 1}, {"c", 2}}, std::nullopt);  // c: between events
  const std::vector<NoteEntry> e = log.Entries();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].text, "a skipped");
  EXPECT_EQ(e[0].count, 3u);
  EXPECT_EQ(e[0].events, 2u);
  EXPECT_EQ(e[0].first, (DrawId{0, 0}));
  EXPECT_EQ(e[1].first, (DrawId{1, 4}));
  EXPECT_EQ(e[1].events, 1u);
  EXPECT_EQ(e[2].count, 2u);
  EXPECT_FALSE(e[2].first.has_value());
  EXPECT_EQ(e[2].events, 0u);
}

// Draw 0.0: a triangle with user clip plane 1 enabled and the index clamp set to [0, 2]; draw
// 0.1: the same with RB_MODECONTROL edram_mode 0, which no path draws.
std::vector<uint32_t> NotedRing() {
  capture::Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  b.WriteRegister(Reg::PA_CL_CLIP_CNTL, 0x2);  // ucp_ena: plane 1
  b.WriteRegister(Reg::VGT_MIN_VTX_INDX, 0);
  b.WriteRegister(Reg::VGT_MAX_VTX_INDX, 2);
  capture::RenderTargetSetup rt;
  rt.surface_pitch = 64;
  capture::D3dSetRenderTarget(b, rt);
  b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
  capture::D3dSetViewport(b, 0, 0, 64, 64);     // and the window scissor
  b.WriteRegister(Reg::PA_CL_VTE_CNTL, 0x700);  // positions in pixels
  const auto vs = ucode::AssembleShader(
      "xvs_3_0\n exec\n vfetch_full r1, r0.x, vf0, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4\n"
      " alloc position\n exece\n mov oPos, r1\n");
  const auto ps = ucode::AssembleShader("xps_3_0\n alloc colors\n exece\n mov oC0, c0\n");
  capture::D3dSetShaders(b, capture::ShaderPair{vs.microcode, ps.microcode, 1, 1, 1});
  const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  b.SetAluConstants(256, red);
  capture::D3dSetVertexFetch(b, 95, 0x10000, 12);
  b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
  b.WriteRegister(Reg::RB_MODECONTROL, 0);
  b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
  return b.Take();
}

std::vector<NoteEntry> NotesOn(Path path) {
  const float v[12] = {0.0f, 0.0f, 0.0f, 1.0f, 32.0f, 0.0f, 0.0f, 1.0f, 0.0f, 32.0f, 0.0f, 1.0f};
  std::vector<uint8_t> bytes(sizeof(v));
  for (int i = 0; i < 12; ++i) StoreBE32(&bytes[size_t(i) * 4], std::bit_cast<uint32_t>(v[i]));
  NoteLog log;
  Session* session_ptr = nullptr;
  SessionOptions options;
  options.path = path;
  options.on_draw_event = log.Hook(nullptr, session_ptr);
  if (path != Path::kCpu) {
    vk::test::UseLavapipe();
    options.validate = true;
    options.fsi_unordered = path == Path::kFsi;  // lavapipe has no interlock (docs/fsi.md)
  }
  auto session = Session::Create(options);
  session_ptr = session.get();
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Apply(format::MemoryEvent{format::MemoryEventKind::kGpuRead, 0x10000, bytes});
  player.Apply(format::Submission{format::SubmissionKind::kRingBuffer, 0x80000, NotedRing()});
  session->Flush();
  log.Observe(session->notes(), std::nullopt);
  EXPECT_EQ(session->validation_message_count(), 0u) << vk::test::ValidationReport(*session);
  EXPECT_EQ(session->stats().draws, 1u) << PathName(path);  // 0.0 draws, 0.1 is skipped
  return log.Entries();
}

TEST(NoteLog, EveryPathListsTheSameRegisterNotesForTheSameDraw) {
  std::map<Path, std::vector<NoteEntry>> notes;
  for (Path path : {Path::kCpu, Path::kFbo, Path::kFsi}) notes[path] = NotesOn(path);
  // The planted one: draw 0.1, skipped, RB_MODECONTROL edram_mode, on every path.
  for (const auto& [path, list] : notes) {
    bool found = false;
    for (const NoteEntry& n : list) {
      if (n.reg.name != "RB_MODECONTROL") continue;
      found = true;
      EXPECT_EQ(n.kind, NoteKind::kSkipped) << n.text;
      EXPECT_EQ(n.reg.field, "edram_mode");
      EXPECT_EQ(n.first, (DrawId{0, 1}));
      EXPECT_EQ(n.count, 1u);
      EXPECT_EQ(n.events, 1u);
    }
    EXPECT_TRUE(found) << PathName(path);
  }
  // Notes naming a register come from the shared model (renderer/gpu): each path lists the same
  // ones, with the same kind, first draw and count.
  auto register_notes = [](const std::vector<NoteEntry>& list) {
    std::vector<std::string> out;
    for (const NoteEntry& n : list) {
      if (n.reg.name.empty()) continue;
      out.push_back(n.text + " | " + NoteKindName(n.kind) + " | " +
                    (n.first ? std::to_string(n.first->frame) + "." + std::to_string(n.first->draw)
                             : "none") +
                    " | " + std::to_string(n.count));
    }
    return out;
  };
  EXPECT_EQ(register_notes(notes[Path::kFbo]), register_notes(notes[Path::kCpu]));
  EXPECT_EQ(register_notes(notes[Path::kFsi]), register_notes(notes[Path::kCpu]));
  for (const std::string& line : register_notes(notes[Path::kCpu])) std::printf("  %s\n", line.c_str());
}

}  // namespace
}  // namespace xnt::renderer
