// Vertex shading and the VTE (see vertex_stage.h).
#include "vertex_stage.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "xnt/gpu/stage_constants.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

std::function<bool(uint32_t byte_address, uint32_t& word)> MakeGuestMemoryReader(
    const replay::GuestMemory* memory) {
  return [memory](uint32_t address, uint32_t& word) {
    if (!memory || !replay::GuestMemory::InRange(address, 4)) return false;
    word = memory->LoadLE32(address);
    return true;
  };
}

MemExportWriter MakeMemExportWriter(replay::GuestMemory* memory,
                                    std::shared_ptr<ExportedRange> written) {
  if (!memory) return {};
  auto lock = std::make_shared<std::mutex>();
  return [memory, lock, written](uint32_t address, uint32_t value, uint32_t mask) {
    if (!replay::GuestMemory::InRange(address, 4)) return false;
    std::lock_guard<std::mutex> guard(*lock);
    const uint32_t old = mask == ~0u ? 0u : memory->LoadLE32(address);
    memory->StoreLE32(address, (old & ~mask) | (value & mask));
    if (written) {
      written->lo = std::min(written->lo, address);
      written->hi = std::max(written->hi, address + 4);
    }
    return true;
  };
}

VertexStage::VertexStage(const ucode::Shader& shader, const replay::RegisterFile& regs,
                         const replay::GuestMemory* memory, std::map<std::string, uint64_t>& notes,
                         TextureUnit& textures)
    : interpreter_(shader), constants_(gpu::StageConstants(regs, false)), notes_(notes) {
  textures.Bind(callbacks_);
  callbacks_.read_memory = MakeGuestMemoryReader(memory);
  // The width/height only bound the scissor here; the screen transform does not depend on them.
  viewport_ = gpu::ComputeViewport(regs.values(), 8192, 8192);
  const auto vte = regs.Decode<xenos::reg::PA_CL_VTE_CNTL>();
  w_not_reciprocal_ = vte.vtx_w0_fmt;
  xy_divided_ = vte.vtx_xy_fmt;
  z_divided_ = vte.vtx_z_fmt;
}

ClipVertex VertexStage::Transform(const ucode::ShaderResult& r) const {
  // As the translator's epilogue: W is exported as 1/W unless vtx_w0_fmt; XY / Z already divided
  // by W are multiplied back so that the divide after clipping gives them again.
  double x = r.position[0], y = r.position[1], z = r.position[2], w = r.position[3];
  if (!w_not_reciprocal_) w = 1.0 / w;
  if (xy_divided_) {
    x *= w;
    y *= w;
  }
  if (z_divided_) z *= w;
  ClipVertex v;
  v.pos = {(x * viewport_.screen_scale[0] + double(viewport_.screen_offset[0]) * w) * scale_x_,
           (y * viewport_.screen_scale[1] + double(viewport_.screen_offset[1]) * w) * scale_y_,
           z * viewport_.screen_scale[2] + double(viewport_.screen_offset[2]) * w, w};
  v.interpolators = r.interpolators;
  if (r.point_size_mask & 1u) {
    v.point_size = r.point_size[0];
    v.point_size_exported = true;
  }
  // Guest clip space: the position with its formats undone, before the viewport.
  v.depth_distance = {viewport_.clip_z_from_minus_w ? z + w : z, w - z};
  for (uint32_t n = 0; n < clip_.plane_count; ++n) {
    v.user_distance[n] = gpu::UserPlaneDistance(clip_, n, {x, y, z, w});
  }
  v.killed = (r.point_size_mask & 4u) && gpu::VertexKilled(r.point_size[2]);
  return v;
}

const ClipVertex& VertexStage::Get(uint32_t index) {
  auto it = cache_.find(index);
  if (it != cache_.end()) return it->second;
  ucode::ShaderInputs in;
  if (domain_) {
    const gpu::DomainVertex& d = domain_->at(index);
    in.domain = true;
    in.domain_r0 = d.r0;
    in.domain_r1 = d.r1;
  } else {
    in.vertex_index = float(index);
  }
  const ucode::ShaderResult r = interpreter_.Run(constants_, in, callbacks_);
  ++invocations_;
  if (r.step_limit_hit) ++notes_["cpu path: vertex shader control flow ran away (cut off)"];
  for (const std::string& n : r.notes) ++notes_["vertex shader: " + n];
  return cache_.emplace(index, Transform(r)).first->second;
}

}  // namespace xnt::cpu
