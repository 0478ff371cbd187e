// libFuzzer target for the whole replay on the cpu path: guest memory and PM4 in, every draw,
// resolve, memexport and swap through the backend-free model (draw plan, primitive processor,
// tessellator, texture descriptors and decoders, clipper, rasterizer, interpreters, output
// merger, resolve engine, scan-out). Must never crash, hang or read out of bounds, whatever the
// registers, fetch constants and microcode say.
//
// The same inputs run on a Vulkan path of a normal build through the seed driver with
// XNT_FUZZ_PATH=fbo or fsi (XNT_FUZZ_FSI_UNORDERED=1 on a device without interlock;
// XNT_FUZZ_VALIDATE=0 where the validation layer is not installed).
//
// Input: a u32 of options (bits 0-1: scale x - 1, bits 2-3: scale y - 1, each clamped to 3x),
// then records until the input ends, each [u32 word][u32 length][payload]: bit 31 of the word
// set, `length` dwords of PM4 (host order) submitted as one ring-buffer submission, and with bit
// 30 set as well a frame marker after it; else bit 30 set, an EDRAM snapshot of `length` bytes
// (zeros to 10 MiB); else bit 29 set, a register snapshot of `length` dwords from register
// (word & 0xFFFF); else `length` bytes of guest memory at that physical address. A length past
// the input's end takes what is left.
//
// Work is bounded here, not in the product: a garbage draw may legitimately ask for billions of
// shaded pixels, which is slowness, not a bug. Draws whose worst case (primitives x scissor area x
// scale, vertices, each shader invocation's microcode length, loops at the interpreter's step
// limit) passes a budget are not handed to the path; everything else is.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/format/records.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/gpu/viewport.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/ucode/interpreter.h"

namespace {

using namespace xnt;

// Shaded instructions one draw may cost at most (a few hundred ms under ASan).
constexpr uint64_t kWorkBudget = uint64_t(1) << 25;

// Worst-case instructions one invocation of `shader` runs: its slots once each, or at the
// interpreter's control-flow step limit when it loops, calls or jumps.
uint64_t InvocationCost(const replay::Shader* shader) {
  if (!shader || !shader->decoded || !shader->decoded->ok()) return 1;
  const ucode::Shader& s = shader->decoded->shader;
  for (const ucode::CfInstruction& cf : s.cf) {
    if (cf.opcode == ucode::CfOpcode::kLoopStart || cf.opcode == ucode::CfOpcode::kCondCall ||
        cf.opcode == ucode::CfOpcode::kCondJmp) {
      return ucode::Interpreter::kMaxControlFlowSteps;
    }
  }
  return std::max<uint64_t>(s.slots.size(), 1);
}

class BoundedBackend : public replay::Backend {
 public:
  BoundedBackend(replay::Backend& path, uint32_t scale) : path_(path), scale_(scale) {}

  void OnDraw(const replay::DrawCall& d) override {
    if (Affordable(d)) {
      path_.OnDraw(d);
    } else {
      ++refused_;
    }
  }
  uint64_t refused() const { return refused_; }
  void OnResolve(const replay::ResolveCall& r) override { path_.OnResolve(r); }
  void OnMemExport(const replay::MemExportCall& m) override {
    if (m.draw && Affordable(*m.draw)) path_.OnMemExport(m);
  }
  void OnSwap(const replay::SwapCall& s) override { path_.OnSwap(s); }
  void OnEvent(const replay::EventCall& e) override { path_.OnEvent(e); }
  void OnEdramSnapshot(std::span<const uint8_t> b) override { path_.OnEdramSnapshot(b); }
  void OnGammaRamp(const format::GammaRamp& g) override { path_.OnGammaRamp(g); }
  void OnMemoryWritten(uint32_t a, uint32_t s) override { path_.OnMemoryWritten(a, s); }
  void OnFrameEnd(const replay::FrameEndCall& f) override { path_.OnFrameEnd(f); }

 private:
  bool Affordable(const replay::DrawCall& d) const {
    if (!d.registers) return false;
    const gpu::RegisterValues regs = d.registers->values();
    const uint64_t primitives = d.initiator.num_indices;
    uint64_t vertices = primitives;
    if (gpu::IsTessellated(d)) {
      // Factors up to VGT_HOS_MAX_TESS_LEVEL + 1 on every edge: (f + 1)^2 points a quad patch;
      // the generated triangles tile their patch, so the pixels stay a patch's.
      float f = gpu::RegisterFloat(regs, xenos::RegIndex(xenos::Reg::VGT_HOS_MAX_TESS_LEVEL));
      if (!(f >= 0.0f) || f > 64.0f) f = 64.0f;
      const uint64_t side = uint64_t(f) + 3;
      vertices = std::min<uint64_t>(vertices * side * side, gpu::kMaxTessellatedVertices);
    }
    const uint32_t samples =
        1u << std::min(uint32_t(gpu::DecodeRegister<xenos::reg::RB_SURFACE_INFO>(regs).msaa_samples), 2u);
    const gpu::Viewport viewport = gpu::ComputeViewport(regs, 16384, 16384);
    const uint64_t area = uint64_t(viewport.scissor.extent.width) * viewport.scissor.extent.height *
                          scale_ * samples;
    const uint64_t vs = vertices * InvocationCost(d.vertex_shader);
    const uint64_t ps = std::max<uint64_t>(primitives, 1) * area * InvocationCost(d.pixel_shader);
    return vertices <= 65536 && vs <= kWorkBudget && ps <= kWorkBudget;
  }

  replay::Backend& path_;
  uint32_t scale_;
  uint64_t refused_ = 0;
};

// The next `count` dwords (or what is left of them), host order.
std::vector<uint32_t> TakeDwords(const uint8_t*& data, size_t& size, uint32_t count) {
  std::vector<uint32_t> out(std::min<size_t>(count, size / 4));
  if (!out.empty()) std::memcpy(out.data(), data, out.size() * 4);
  data += out.size() * 4;
  size -= out.size() * 4;
  return out;
}

// The next `count` bytes (or what is left of them).
std::span<const uint8_t> TakeBytes(const uint8_t*& data, size_t& size, uint32_t count) {
  const std::span<const uint8_t> out(data, std::min<size_t>(count, size));
  data += out.size();
  size -= out.size();
  return out;
}

uint32_t ReadU32(const uint8_t*& data, size_t& size) {
  uint32_t v = 0;
  const size_t n = std::min<size_t>(size, 4);
  std::memcpy(&v, data, n);
  data += n;
  size -= n;
  return v;
}

// One replay of the input's records with `options`; the swapped frames' bytes, in order.
std::vector<std::vector<uint8_t>> Replay(const uint8_t* data, size_t size,
                                         renderer::SessionOptions options) {
  std::vector<std::vector<uint8_t>> frames;
  uint64_t swapped_pixels = 0;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) {
    swapped_pixels += uint64_t(image.width) * image.height;
    frames.push_back(image.rgba);
  };
  try {
    auto session = renderer::Session::Create(options);
    BoundedBackend bounded(session->backend(),
                           options.renderer.scale_x * options.renderer.scale_y);
    replay::CommandProcessorOptions cp;
    cp.max_packets = 4096;
    cp.max_indirect_depth = 8;
    cp.max_fetch_dwords = 1u << 16;
    cp.max_stored_diagnostics = 64;
    replay::TracePlayer player(bounded, cp);
    session->Attach(player);
    while (size >= 8) {
      const uint32_t word = ReadU32(data, size);
      const uint32_t length = ReadU32(data, size);
      if (word & 0x80000000u) {
        format::Submission submission;
        submission.dwords = TakeDwords(data, size, length);
        player.Apply(submission);
        if (word & 0x40000000u) player.Apply(format::FrameMarker{});
      } else if (word & 0x40000000u) {
        // An EDRAM snapshot: `length` bytes from the input, the rest of the 10 MiB zero.
        format::EdramSnapshot edram;
        const std::span<const uint8_t> bytes = TakeBytes(data, size, length);
        edram.bytes.assign(size_t(10) << 20, 0);
        std::memcpy(edram.bytes.data(), bytes.data(), std::min(bytes.size(), edram.bytes.size()));
        player.Apply(edram);
      } else if (word & 0x20000000u) {
        // A register snapshot from register (word & 0xFFFF), `length` dwords.
        format::RegisterSnapshot snapshot;
        snapshot.first_register = word & 0xFFFFu;
        snapshot.values = TakeDwords(data, size, length);
        player.Apply(snapshot);
      } else {
        format::MemoryEvent memory;
        memory.kind = format::MemoryEventKind::kInitialSnapshot;
        memory.guest_address = word;
        const std::span<const uint8_t> bytes = TakeBytes(data, size, length);
        memory.bytes.assign(bytes.begin(), bytes.end());
        player.Apply(memory);  // out-of-range blobs become a diagnostic
      }
    }
    player.Apply(format::FrameMarker{});
    session->Flush();
    if (session->validation_message_count() > 0) {
      for (const std::string& m : session->validation_messages()) std::fprintf(stderr, "%s\n", m.c_str());
      std::abort();
    }
    // Microcode the cpu path's interpreters run must translate on the Vulkan paths too.
    for (const auto& [note, count] : session->notes()) {
      if (note.find("shader translation failed") != std::string::npos) {
        std::fprintf(stderr, "%s\n", note.c_str());
        if (!std::getenv("XNT_FUZZ_TRANSLATION_NOTES_ONLY")) std::abort();
      }
    }
    if (std::getenv("XNT_FUZZ_VERBOSE")) {
      // What an input reached, for keeping the seeds meaningful (a seed that draws nothing
      // exercises only the command processor).
      const renderer::SessionStats stats = session->stats();
      std::fprintf(stderr, "draws %llu (over budget %llu, skipped %llu) resolves %llu swaps %llu "
                   "(%llu pixels) notes %zu\n",
                   (unsigned long long)stats.draws, (unsigned long long)bounded.refused(),
                   (unsigned long long)stats.draws_skipped, (unsigned long long)stats.resolves,
                   (unsigned long long)stats.swaps, (unsigned long long)swapped_pixels,
                   session->notes().size());
    }
  } catch (const Error&) {
    // A refused input names itself; the point is that it does not crash.
  }
  return frames;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint32_t flags = ReadU32(data, size);
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  // XNT_FUZZ_PATH=fbo|fsi replays the same inputs (a corpus the fuzzer grew) on a Vulkan path
  // of a normal build, under the validation layer: any message is a failure there.
  if (const char* name = std::getenv("XNT_FUZZ_PATH")) {
    if (const auto path = renderer::ParsePath(name)) options.path = *path;
    const char* validate = std::getenv("XNT_FUZZ_VALIDATE");  // "0": a machine without the layer
    options.validate = options.path != renderer::Path::kCpu && !(validate && *validate == '0');
    options.fsi_unordered = std::getenv("XNT_FUZZ_FSI_UNORDERED") != nullptr;
  }
  options.threads = 1;
  options.renderer.scale_x = std::min(1 + (flags & 3u), 3u);
  options.renderer.scale_y = std::min(1 + ((flags >> 2) & 3u), 3u);
  const auto frames = Replay(data, size, options);
  // XNT_FUZZ_THREADS=N: the cpu path again on N pixel-stage threads, which must give the same
  // frames (row bands are shaded in parallel; the images may not depend on it).
  if (const char* threads = std::getenv("XNT_FUZZ_THREADS");
      threads && options.path == renderer::Path::kCpu) {
    options.threads = uint32_t(std::max(1, std::atoi(threads)));
    if (Replay(data, size, options) != frames) {
      std::fprintf(stderr, "frames differ between 1 and %u pixel-stage threads\n", options.threads);
      std::abort();
    }
  }
  return 0;
}
