// fsi path: resolves and clears in compute on the EDRAM buffer (edram_compute.h; the CPU
// resolve engine on the EDRAM read back only for copies the shader must not do)
// and the swap (gpu::ReadFrontBufferAtScale).
#include <algorithm>
#include <cstring>
#include <span>

#include "edram_compute.h"
#include "xnt/base/error.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/resolve_plan.h"
#include "xnt/vk/fsi/fsi_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::fsi {

using xenos::Reg;

namespace {

// What a compute-engine copy of `plan` reports before its written bands widen dest_start and
// dest_end from empty.
gpu::ResolveCopyResult ComputeCopyResult(const gpu::ResolveInfo& info,
                                         const EdramCompute::CopyPlan& plan) {
  gpu::ResolveCopyResult result;
  result.bitwise = gpu::ResolveIsBitwiseCopy(info);
  result.pixels = uint64_t(info.x1 - info.x0) * uint64_t(info.y1 - info.y0);
  result.bytes_written = result.pixels * plan.bytes_per_pixel;
  result.dest_start = UINT32_MAX;
  result.dest_end = 0;
  return result;
}

}  // namespace

void FsiRenderer::Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory) {
  const gpu::ResolvePlan plan = gpu::PlanPathResolve(
      regs, memory, {options_.scale_x, options_.scale_y}, stats_, notes_);
  if (plan.skip != gpu::ResolveSkip::kNone) return;
  const gpu::ResolveInfo& info = plan.info;
  tracker_.Use(tracker_.BeginEvent(), plan.targets.used, plan.targets.bound, "resolve",
               [this](const auto& t, auto& entry) { MoveEdram(t, entry); });
  const bool clears = plan.color_clear || plan.depth_clear;
  if (!info.copy && !clears) return;
  if (!compute_) {
    compute_ = std::make_unique<EdramCompute>(context_, stream_, edram_, shared_memory_.set_layout());
  }
  if (!plan.copy_note.empty()) Note(plan.copy_note);
  if (plan.copy) {
    try {
      if (options_.scale_x * options_.scale_y == 1) {
        CopyToGuest(info, memory);
      } else {
        // As the cpu path: guest memory gets the 1x copy, scaled_ the scaled one (the swap
        // shows it, and textures over it sample it from the mirror at the scaled size). The
        // first copy is the guest one, the second the scaled one into its CPU-side bytes.
        bool guest = true;
        scaled_.Resolve(
            info,
            [&](const gpu::ResolveInfo& i, const gpu::GuestMemoryAccess& m) {
              const bool first = guest;
              guest = false;
              return first ? CopyToGuest(i, m) : CopyToAccess(i, m);
            },
            memory, options_.scale_x, options_.scale_y);
        if (const gpu::ScaledCopy* copy = scaled_.last()) {
          if (!scaled_mirror_) {
            scaled_mirror_ = std::make_unique<ScaledResolveMirror>(context_, stream_, scaled_);
          }
          scaled_mirror_->Store(*copy);
        }
      }
    } catch (const Error& e) {
      Note(std::string("resolve copy skipped: ") + e.what());
    }
  }
  if (!clears) return;
  // The clears in compute on the EDRAM buffer, after the draws' writes.
  BarrierAfterDraws(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  if (compute_->RecordClears(info, regs, options_.scale_x, options_.scale_y)) {
    gpu_wrote_ = true;
    ++stats_.gpu_clears;
  }
}

gpu::ResolveCopyResult FsiRenderer::CopyOnCpu(const gpu::ResolveInfo& info,
                                              const gpu::GuestMemoryAccess& memory,
                                              const std::string& why) {
  Note("resolve copy on the CPU resolve engine (EDRAM read back): " + why);
  ReadBack();
  ++stats_.cpu_resolves;
  return gpu::ResolveCopy(info, model_, memory);
}

gpu::ResolveCopyResult FsiRenderer::CopyToGuest(const gpu::ResolveInfo& info,
                                                const gpu::GuestMemoryAccess& memory) {
  EdramCompute::CopyPlan plan;
  std::string why;
  if (!compute_->Plan(info, plan, why)) {
    // Resolved bytes reach the mirror too (later draws may sample them).
    gpu::GuestMemoryAccess tracked = memory;
    tracked.write = [this, &memory](uint32_t address, std::span<const uint8_t> bytes) {
      memory.write(address, bytes);
      shared_memory_.Invalidate(address, bytes.size());
    };
    return CopyOnCpu(info, tracked, why);
  }
  // The destination in the mirror as guest memory has it (the shader writes only the pixels'
  // bytes; the rest of each band comes back unchanged), then the copy from the EDRAM buffer.
  EndRendering();
  if (shared_memory_.MayNeedSync(memory.pages)) shared_memory_.Sync(memory.pages);
  shared_memory_.PrepareForShaderWrites(uint32_t(plan.lo), uint64_t(plan.hi - plan.lo));
  BarrierBeforeCompute();
  compute_->RecordCopy(plan, shared_memory_.descriptor_set(), 0);
  ++stats_.gpu_resolves;

  // Guest memory gets the bands' bytes: copied from the mirror through the ring (one region per
  // run of overlapping or adjacent bands), then written band by band as the engine writes.
  std::vector<std::pair<int64_t, int64_t>> regions;
  for (const EdramCompute::Band& b : plan.bands) {
    if (!regions.empty() && b.lo <= regions.back().second && b.hi >= regions.back().first) {
      regions.back().first = std::min(regions.back().first, b.lo);
      regions.back().second = std::max(regions.back().second, b.hi);
    } else {
      regions.push_back({b.lo, b.hi});
    }
  }
  std::vector<std::vector<uint8_t>> bytes(regions.size());
  for (size_t r = 0; r < regions.size(); ++r) {
    const auto [lo, hi] = regions[r];
    bytes[r].resize(size_t(hi - lo));
    for (int64_t at = lo; at < hi; at += int64_t(kTransferChunk)) {
      const uint64_t size = std::min<uint64_t>(kTransferChunk, uint64_t(hi - at));
      const CommandStream::Allocation alloc = RingAllocate(size, 16);
      const VkBufferCopy region{uint64_t(at), alloc.offset, size};
      vkCmdCopyBuffer(stream_.cmd(), shared_memory_.buffer(), alloc.buffer, 1, &region);
      Flush();
      std::memcpy(bytes[r].data() + (at - lo), alloc.data, size_t(size));
    }
  }
  gpu::ResolveCopyResult result = ComputeCopyResult(info, plan);
  const auto written = compute_->WrittenBands(plan);
  for (size_t b = 0; b < written.size(); ++b) {
    const auto [lo, hi] = written[b];
    if (hi <= lo) continue;
    size_t r = 0;
    while (r < regions.size() &&
           !(int64_t(lo) >= regions[r].first && int64_t(hi) <= regions[r].second)) {
      ++r;
    }
    if (r == regions.size()) throw Error("fsi compute resolve wrote outside its planned bands");
    memory.write(lo, std::span<const uint8_t>(bytes[r].data() + (lo - regions[r].first), hi - lo));
    shared_memory_.MarkCurrent(lo, hi - lo, memory.pages);
    result.dest_start = std::min(result.dest_start, lo);
    result.dest_end = std::max(result.dest_end, hi);
  }
  return result;
}

gpu::ResolveCopyResult FsiRenderer::CopyToAccess(const gpu::ResolveInfo& info,
                                                 const gpu::GuestMemoryAccess& access) {
  EdramCompute::CopyPlan plan;
  std::string why;
  if (!compute_->Plan(info, plan, why)) return CopyOnCpu(info, access, why);
  uint8_t* data = nullptr;
  const VkDescriptorSet scratch = compute_->Scratch(uint64_t(plan.hi - plan.lo), &data);
  if (!data) return CopyOnCpu(info, access, "a destination wider than 128 MiB");
  // The destination's bytes first (the engine reads and writes whole bands), in host memory the
  // shader writes into, at addresses minus plan.lo.
  for (const EdramCompute::Band& b : plan.bands) {
    access.read(uint32_t(b.lo), std::span<uint8_t>(data + (b.lo - plan.lo), size_t(b.hi - b.lo)));
  }
  EndRendering();
  BarrierBeforeCompute();
  compute_->RecordCopy(plan, scratch, uint32_t(plan.lo));
  ++stats_.gpu_resolves;
  Flush();
  gpu::ResolveCopyResult result = ComputeCopyResult(info, plan);
  for (const auto& [lo, hi] : compute_->WrittenBands(plan)) {
    if (hi <= lo) continue;
    access.write(lo, std::span<const uint8_t>(data + (lo - plan.lo), hi - lo));
    result.dest_start = std::min(result.dest_start, lo);
    result.dest_end = std::max(result.dest_end, hi);
  }
  return result;
}

void FsiRenderer::BarrierBeforeCompute() {
  // The draws' EDRAM writes (fragment shader), their memexport writes into the mirror (vertex
  // and fragment shaders) and the mirror's uploads (transfer) before the compute copy reads and
  // writes them.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(stream_.cmd(),
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT |
                           VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                       nullptr);
}

gpu::SwapImage FsiRenderer::Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address,
                                 uint32_t width, uint32_t height,
                                 const gpu::GuestMemoryAccess& memory) {
  ++stats_.swaps;
  Flush();
  // At a resolution scale the front buffer is shown at the scaled size when a resolve left a
  // scaled copy of it (fetch constant 0 names it), by the rule the cpu and fbo paths share.
  return gpu::ReadFrontBufferAtScale(regs, frontbuffer_address, width, height, memory, scaled_);
}

}  // namespace xnt::vk::fsi
