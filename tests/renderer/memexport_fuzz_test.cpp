// Randomized memexport on the fbo and fsi paths against the cpu path: random export shaders
// (tests/common/random_export_shader.h) - vertex shaders exporting per vertex and pixel shaders
// exporting per pixel - each drawn once in one trace, replayed on an fbo or fsi session on
// lavapipe (validation on) and on a cpu session. Guest memory after the frame must be byte for byte the
// same on both, and every byte either changed must lie in the range of a stream one of the draws
// built as a stream constant (random bits in c0 write nothing). The stream ranges start filled
// with a pattern, so 8/16-bit exports that touch their neighbours show. Each draw's exports land
// before the next draw (the next may prepare the same range): a path that reads its mirror back
// late or not at all differs from the cpu path.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "memexport_test_shaders.h"
#include "random_export_shader.h"
#include "replay_helpers.h"
#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using replay::GuestMemory;

constexpr uint32_t kVertices = 0x00010000;  // the pixel-shader draws' rectangle
constexpr uint32_t kSize = 64;              // render target width and height

struct Case {
  ::xnt::test::RandomExportShader shader;
  bool pixel = false;
  uint32_t vertices = 0;
};

uint8_t Pattern(uint64_t address) { return uint8_t(0x5A ^ (address * 13)); }

struct Trace {
  std::vector<format::MemoryEvent> memory;
  std::vector<uint32_t> ring;
};

Trace BuildTrace(const std::vector<Case>& cases) {
  Trace t;
  for (const Case& c : cases) {
    if (c.shader.stream == ::xnt::test::ExportStream::kRandomBits || c.shader.bytes == 0) continue;
    // The stream's bytes inside guest memory, and its part past 4 GiB (which wraps to 0).
    const uint64_t stream_end = (c.shader.base + c.shader.bytes + 3) & ~3ull;
    const uint64_t wrapped = stream_end > (1ull << 32) ? stream_end - (1ull << 32) : 0;
    for (const auto& [begin, limit] : {std::pair<uint64_t, uint64_t>{c.shader.base & ~3ull, stream_end},
                                       std::pair<uint64_t, uint64_t>{0, wrapped}}) {
      const uint64_t end = std::min<uint64_t>(limit, GuestMemory::kSize);
      if (begin >= end) continue;
      std::vector<uint8_t> bytes(size_t(end - begin));
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = Pattern(begin + i);
      t.memory.push_back({format::MemoryEventKind::kGpuRead, uint32_t(begin), bytes});
    }
  }
  // A 4x4-pixel rectangle at [8, 12)^2 (two triangles), corners a quarter pixel before the
  // pixel edges so both pixel-centre conventions cover the same 16 pixels.
  std::vector<uint8_t> rect;
  const float l = 7.75f, r = 11.75f;
  const float corners[6][2] = {{l, l}, {r, l}, {l, r}, {r, l}, {r, r}, {l, r}};
  for (const auto& p : corners) {
    const float v[4] = {p[0] / (kSize / 2.0f) - 1.0f, 1.0f - p[1] / (kSize / 2.0f), 0.0f, 0.0f};
    for (float f : v) {
      rect.resize(rect.size() + 4);
      StoreBE32(&rect[rect.size() - 4], std::bit_cast<uint32_t>(f));
    }
  }
  t.memory.push_back({format::MemoryEventKind::kGpuRead, kVertices, rect});

  capture::Pm4Builder b;
  test::SetUpColourTarget(b, kSize);
  const std::vector<uint32_t> position_vs = ucode::AssembleShader(test::kPositionVs).microcode;
  const std::vector<uint32_t> colour_ps = ucode::AssembleShader(test::kColourPs).microcode;
  for (const Case& c : cases) {
    const std::vector<uint32_t> exporting = ucode::AssembleShader(c.shader.text).microcode;
    capture::ShaderPair pair{c.pixel ? position_vs : exporting, c.pixel ? exporting : colour_ps,
                             4, 4, 1};
    capture::D3dSetShaders(b, pair);
    // The exporting shader's c0-c7 in its own constant space (the pixel shader's from 256).
    const uint32_t base = c.pixel ? 256 : 0;
    for (uint32_t i = 0; i < 8; ++i) b.SetAluConstants(base + i, c.shader.k.float_constants[i]);
    const float colour[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    b.SetAluConstants(c.pixel ? 4 : 256, colour);
    const uint32_t loop[1] = {c.shader.k.loop_constants[0]};
    b.SetConstant(xenos::ConstantType::kLoop, 0, loop);
    if (c.pixel) {
      capture::D3dSetVertexFetch(b, 95, kVertices, 24);
      b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 6);
    } else {
      // Points at the centre of the target (c7 = (0, 0, 0, 1)): the vertex shader runs once per
      // vertex on both paths.
      b.DrawIndx2Auto(xenos::PrimitiveType::kPointList, c.vertices);
    }
  }
  t.ring = b.Take();
  return t;
}

struct PathRun {
  std::unique_ptr<renderer::Session> session;
  std::unique_ptr<replay::TracePlayer> player;
};

PathRun Replay(renderer::Path path, const Trace& trace) {
  PathRun run;
  renderer::SessionOptions options;
  if (path == renderer::Path::kFbo) {
    run.session = test::MakeLavapipeSession(options);
  } else {
    if (path == renderer::Path::kFsi) {
      // lavapipe has no interlock: the unordered test mode (docs/fsi.md; points at one pixel
      // and the exports do not depend on the EDRAM).
      test::UseLavapipe();
      options.validate = true;
      options.fsi_unordered = true;
    }
    options.path = path;
    options.threads = 1;
    run.session = renderer::Session::Create(options);
  }
  run.player = std::make_unique<replay::TracePlayer>(run.session->backend());
  run.session->Attach(*run.player);
  for (const format::MemoryEvent& e : trace.memory) run.player->Apply(e);
  run.player->Apply(format::Submission{format::SubmissionKind::kRingBuffer, 0x80000, trace.ring});
  run.session->Flush();
  return run;
}

std::vector<uint8_t> Page(const GuestMemory& m, uint32_t page) {
  std::vector<uint8_t> bytes(GuestMemory::kPageSize, 0);
  if (const uint8_t* p = m.PageData(page)) std::memcpy(bytes.data(), p, bytes.size());
  return bytes;
}

// The random draws on `path` (fbo or fsi) against the cpu path.
void ExpectSameGuestMemoryAsCpu(renderer::Path path) {
  const std::string name = renderer::PathName(path);
  std::mt19937 rng(2026);
  std::vector<Case> cases;
  // Pipelines dominate the time on lavapipe (LLVM compiles each): every program is drawn with
  // several sets of constants (stream, format, endian, count, values, loop count). 18 programs
  // (108 draws) take about 25 s on the 2-core machine; XNT_MEMEXPORT_FUZZ_SHADERS=N runs more.
  const char* shaders_env = std::getenv("XNT_MEMEXPORT_FUZZ_SHADERS");
  const int kShaders = shaders_env ? std::atoi(shaders_env) : 18;
  constexpr int kDrawsPerShader = 6;
  for (int i = 0; i < kShaders; ++i) {
    ::xnt::test::RandomExportOptions o;
    o.pixel = i % 3 == 2;
    // Five elements apart per vertex: no two vertices of a draw write the same element.
    o.stride = o.pixel ? 1 : 5;
    o.start_index = true;
    Case c;
    c.pixel = o.pixel;
    c.shader = ::xnt::test::MakeRandomExportShader(rng, o);
    for (int d = 0; d < kDrawsPerShader; ++d) {
      if (d) ::xnt::test::RandomizeExportConstants(rng, o, c.shader);
      c.vertices = 1 + rng() % 24;
      cases.push_back(c);
    }
  }
  const int kCases = int(cases.size());
  const Trace trace = BuildTrace(cases);
  const auto t0 = std::chrono::steady_clock::now();
  PathRun gpu = Replay(path, trace);
  const auto t1 = std::chrono::steady_clock::now();
  PathRun cpu = Replay(renderer::Path::kCpu, trace);
  const auto t2 = std::chrono::steady_clock::now();
  std::printf("%d draws: %s %.1f s, cpu %.1f s\n", kCases, name.c_str(),
              std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count());
  EXPECT_EQ(gpu.session->validation_message_count(), 0u) << test::ValidationReport(*gpu.session);
  // Every draw ran on the GPU (a skipped draw would export through the interpreter instead).
  EXPECT_EQ(gpu.session->stats().draws, uint64_t(kCases));
  EXPECT_EQ(gpu.session->stats().draws_skipped, 0u);
  EXPECT_EQ(cpu.session->stats().draws, uint64_t(kCases));
  for (const auto& [note, count] : cpu.session->notes()) {
    EXPECT_EQ(note.find("step limit"), std::string::npos) << note;
  }

  GuestMemory initial;
  for (const format::MemoryEvent& e : trace.memory) initial.Write(e.guest_address, e.bytes);
  // The draws whose stream holds `address` ("" when none).
  auto streams_at = [&](uint64_t address) {
    std::string names;
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      if (c.shader.Covers(address)) {
        names += " draw " + std::to_string(i) + (c.pixel ? " (pixel" : " (vertex") +
                 (c.shader.stream == ::xnt::test::ExportStream::kStartIndex ? ", start index)"
                                                                             : ")") +
                 ":\n" + c.shader.text;
      }
    }
    return names;
  };
  const GuestMemory& a = gpu.player->memory();
  const GuestMemory& b = cpu.player->memory();
  uint64_t changed = 0, differ = 0, outside = 0;
  for (uint32_t page = 0; page < GuestMemory::kPageCount; ++page) {
    if (!a.PageData(page) && !b.PageData(page) && !initial.PageData(page)) continue;
    const std::vector<uint8_t> pa = Page(a, page), pb = Page(b, page), p0 = Page(initial, page);
    for (uint32_t i = 0; i < GuestMemory::kPageSize; ++i) {
      const uint64_t address = uint64_t(page) * GuestMemory::kPageSize + i;
      if (pa[i] != pb[i] && ++differ <= 8) {
        ADD_FAILURE() << "guest byte 0x" << std::hex << address << ": " << name << " 0x" << int(pa[i])
                      << " cpu 0x" << int(pb[i]) << " (before 0x" << int(p0[i]) << ")"
                      << streams_at(address);
      }
      if (pa[i] != p0[i] || pb[i] != p0[i]) {
        ++changed;
        if (streams_at(address).empty() && ++outside <= 8) {
          ADD_FAILURE() << "guest byte 0x" << std::hex << address << " outside every stream changed";
        }
      }
    }
  }
  std::printf("%llu guest bytes changed by the exports\n", (unsigned long long)changed);
  EXPECT_EQ(differ, 0u);
  EXPECT_EQ(outside, 0u);
  // The shaders exported something (not a test of nothing).
  EXPECT_GT(changed, 1000u);
}

TEST(MemExportFuzz, FboWritesTheSameGuestMemoryAsCpu) {
  ExpectSameGuestMemoryAsCpu(renderer::Path::kFbo);
}

// fsi translates pixel shaders with its output merger appended (and its own early-depth
// variants), so its exports run in other shader code than fbo's.
TEST(MemExportFuzz, FsiWritesTheSameGuestMemoryAsCpu) {
  ExpectSameGuestMemoryAsCpu(renderer::Path::kFsi);
}

}  // namespace
}  // namespace xnt::vk
