// The cpu render path: the whole Xenos pipeline on the CPU with no GPU and no Vulkan — the same
// front end, decoded microcode and renderer/gpu model as the GPU paths, the shaders in the
// microcode interpreter, and one 10 MiB EDRAM of guest bits that every render target, clear,
// resolve and ownership change reads and writes in place. What it does not implement yet is
// reported by name at run time (notes), never skipped silently; docs/cpu.md lists it.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "xnt/cpu/pixel_watch.h"
#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/edram_snapshot.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/path_stats.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"

namespace xnt::ucode {
struct DecodedShader;
}

namespace xnt::cpu {

struct AssembledPrimitives;

struct CpuBackendOptions {
  // Threads for the pixel stage (row bands); 0 = every core. The image does not depend on it.
  uint32_t threads = 0;
  // Resolution scale, host pixels per guest pixel (1..3 per axis): a scaled EDRAM, draws in host
  // pixels, resolves writing 1x guest memory plus scaled copies (gpu/scaled_resolve.h), the
  // front buffer at the scaled size when a scaled copy holds it.
  uint32_t scale_x = 1, scale_y = 1;
  // What a screen derivative measures at that scale (gpu/renderer_options.h).
  gpu::ScaledDerivatives derivatives = gpu::ScaledDerivatives::kGuest;
  // Pixel history (pixel_watch.h): every event on the watched EDRAM samples is recorded into
  // it; null (the default) records nothing.
  PixelWatch* watch = nullptr;
  std::function<void(uint64_t frame, const gpu::SwapImage&)> on_swap;
  std::function<void(const replay::FrameEndCall&)> on_frame_end;
};

struct CpuStats : gpu::PathStats {
  uint64_t vertices_shaded = 0, triangles = 0, pixels_shaded = 0;
  uint64_t parallel_draws = 0;  // draws whose pixels ran on more than one thread
};

class CpuBackend : public replay::Backend {
 public:
  explicit CpuBackend(CpuBackendOptions options);

  // The player's guest memory (resolves write into it) and register file (the swap reads texture
  // fetch constant 0). Must be set before playing.
  void Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers);

  void OnDraw(const replay::DrawCall& draw) override;
  void OnResolve(const replay::ResolveCall& resolve) override;
  void OnSwap(const replay::SwapCall& swap) override;
  void OnFrameEnd(const replay::FrameEndCall& frame) override;
  // A CPU write over a scaled copy's guest bytes makes the copy stale.
  void OnMemoryWritten(uint32_t address, uint32_t size) override;
  // The whole EDRAM replaced by a snapshot record (gpu/edram_snapshot.h).
  void OnEdramSnapshot(std::span<const uint8_t> bytes) override;

  const CpuStats& stats() const { return stats_; }
  const std::map<std::string, uint64_t>& notes() const { return notes_; }
  gpu::EdramTracker& tracker() { return tracker_; }
  const gpu::edram::Edram& edram() const { return edram_; }
  const gpu::ScaledResolveMemory& scaled_resolves() const { return scaled_; }

 private:
  void Note(const std::string& what) { ++notes_[what]; }
  // A draw through the pipeline: the plan's checks, vertex fetch, vertex shading and primitive
  // assembly (primitive_assembly.h), then ShadePixels. False when it draws nothing.
  bool Draw(const replay::DrawCall& draw);
  // Notes the first of `order` that holds for the plan; true when one did (the draw is skipped).
  bool Skipped(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order);
  // Setup, rasterization, the pixel shader and the output merger over the assembled primitives.
  void ShadePixels(const replay::DrawCall& call, const gpu::DrawPlan& plan,
                   const AssembledPrimitives& assembled, const ucode::DecodedShader* ps,
                   const std::function<bool(uint32_t, uint32_t, uint32_t)>& write_memory);
  void Resolve(gpu::RegisterValues regs);
  // Pixel history of a resolve: the watched samples its copy reads or its clears write.
  void RecordResolve(const gpu::ResolveInfo& info, gpu::RegisterValues regs,
                    const std::vector<uint64_t>& before);
  std::vector<uint64_t> WatchedBits() const;
  // Pixel history: the surfaces a draw uses, with the rows its scissor reaches.
  void WatchSurfaces(const gpu::DrawPlan& plan);
  gpu::GuestMemoryAccess Access() const;
  // The tracker's mover: on this path the EDRAM holds guest bits, so the new owner reads the old
  // owner's bits where they are; nothing is converted, except a restored snapshot's tiles at a
  // resolution scale, rewritten in the new owner's sample layout.
  void InPlace(const gpu::edram::Transfer& transfer, gpu::EdramLogEntry& entry);

  CpuBackendOptions options_;
  replay::GuestMemory* memory_ = nullptr;
  const replay::RegisterFile* registers_ = nullptr;
  gpu::edram::Edram edram_;
  gpu::ScaledResolveMemory scaled_;
  std::vector<uint8_t> swap_pixels_;  // the last swap's image buffer, reused by the next swap
  gpu::EdramTracker tracker_;
  gpu::edram::SnapshotRestore snapshot_;
  CpuStats stats_;
  std::map<std::string, uint64_t> notes_;
  std::vector<uint8_t> index_scratch_;
};

}  // namespace xnt::cpu
