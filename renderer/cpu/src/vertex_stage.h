// The vertex side of the cpu path: the vertex shader run by the interpreter once per distinct
// guest index of a draw (vertex fetch reads guest memory through the interpreter), then the VTE:
// PA_CL_VTE_CNTL's W / XY / Z formats undone and the viewport transform applied, giving clip
// space whose x/w, y/w are guest screen pixels (gpu/viewport.h screen_scale / screen_offset).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "geometry.h"
#include "texture_unit.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/gpu/primitive_clip.h"
#include "xnt/gpu/viewport.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

// Memexport writes of one draw into guest memory (ucode::InterpreterCallbacks::write_memory):
// dword read-modify-write under a lock shared by the vertex stage and every pixel worker, so
// 8/16-bit elements of neighbouring pixels never lose each other's bytes. GuestMemory bumps the
// page generations, so later vertex/index/texture reads and resolves see the data. Addresses
// outside the 512 MiB return false (the interpreter drops and reports them). Null memory: none.
using MemExportWriter = std::function<bool(uint32_t byte_address, uint32_t value, uint32_t mask)>;
// The guest bytes a draw's exports wrote, [lo, hi) (hi == 0: none), so that the backend can
// drop scaled resolve copies over them once the draw is done.
struct ExportedRange {
  uint32_t lo = UINT32_MAX, hi = 0;
};
MemExportWriter MakeMemExportWriter(replay::GuestMemory* memory,
                                    std::shared_ptr<ExportedRange> written = nullptr);
// Guest memory as vertex fetches read it, in vertex and pixel shaders alike
// (ucode::InterpreterCallbacks::read_memory): false outside the 512 MiB or with null memory.
std::function<bool(uint32_t byte_address, uint32_t& word)> MakeGuestMemoryReader(
    const replay::GuestMemory* memory);

class VertexStage {
 public:
  VertexStage(const ucode::Shader& shader, const replay::RegisterFile& regs,
              const replay::GuestMemory* memory, std::map<std::string, uint64_t>& notes,
              TextureUnit& textures);

  // The shaded vertex for vertex index `index` (the primitive processor has applied
  // VGT_INDX_OFFSET and the index clamp: gpu/vertex_index.h).
  const ClipVertex& Get(uint32_t index);
  uint64_t invocations() const { return invocations_; }
  // Where a memexport vertex shader writes (before the first Get).
  void set_write_memory(MemExportWriter write) { callbacks_.write_memory = std::move(write); }
  // A tessellated draw: Get(i) runs the shader as the domain shader of generated vertex i (its
  // r0 / r1 from the shared tessellator) instead of on guest index i. The vector outlives the
  // stage; set before the first Get.
  void set_domain_vertices(const std::vector<gpu::DomainVertex>* domain) { domain_ = domain; }
  // Resolution scaling: screen x and y in host pixels, S and T per guest pixel (before any Get).
  void set_scale(uint32_t x, uint32_t y) { scale_x_ = x, scale_y_ = y; }
  // The user clip planes whose distances each vertex carries (before the first Get).
  void set_clip(const gpu::PrimitiveClip& clip) { clip_ = clip; }
  // The draw's viewport (guest screen = position * screen_scale + screen_offset, per W).
  const gpu::Viewport& viewport() const { return viewport_; }

 private:
  ClipVertex Transform(const ucode::ShaderResult& r) const;

  ucode::Interpreter interpreter_;
  ucode::InterpreterConstants constants_;
  ucode::InterpreterCallbacks callbacks_;
  gpu::Viewport viewport_;
  bool w_not_reciprocal_ = false, xy_divided_ = false, z_divided_ = false;
  uint32_t scale_x_ = 1, scale_y_ = 1;
  const std::vector<gpu::DomainVertex>* domain_ = nullptr;
  gpu::PrimitiveClip clip_;
  std::unordered_map<uint32_t, ClipVertex> cache_;
  std::map<std::string, uint64_t>& notes_;
  uint64_t invocations_ = 0;
};

}  // namespace xnt::cpu
