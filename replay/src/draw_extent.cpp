#include "xnt/replay/draw_extent.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/registers.h"

#ifdef XNT_REPLAY_HAS_UCODE
#include "xnt/base/error.h"
#include "xnt/ucode/interpreter.h"
#endif

namespace xnt::replay {

namespace {

DrawExtent NotEstimated(std::string reason, uint32_t vertices = 0) {
  DrawExtent e;
  e.reason = std::move(reason);
  e.vertices = vertices;
  return e;
}

// The draw's vertex indices as the primitive processor reads them (renderer/vulkan/src/
// primitive_processor.cpp ReadGuestIndex: the swap applies to the dword holding a 16-bit index,
// odd indices in its high half), with primitive-reset indices dropped. False when the index
// buffer is shorter than the draw.
bool ReadIndices(const DrawCall& draw, uint32_t count, std::vector<uint32_t>& out) {
  const IndexBuffer& ib = draw.indices;
  const RegisterFile& regs = *draw.registers;
  const bool reset = regs.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>().multi_prim_ib_ena;
  const uint32_t reset_index = regs.Get(xenos::Reg::VGT_MULTI_PRIM_IB_RESET_INDX);
  const bool wide = ib.format == xenos::IndexFormat::kInt32;
  // The dword at `byte_offset` (4-aligned) of the index data, swapped.
  auto word_at = [&](uint64_t byte_offset, uint32_t& word) {
    if (ib.source == xenos::SourceSelect::kImmediate) {
      // Host-order VGT_IMMED_DATA words; 16-bit indices low half first, no swap.
      if (byte_offset / 4 >= ib.immediate.size()) return false;
      word = ib.immediate[size_t(byte_offset / 4)];
      return true;
    }
    const uint64_t address = uint64_t(ib.guest_address) + byte_offset;
    if (!draw.memory || !GuestMemory::InRange(address, 4)) return false;
    word = xenos::GpuSwap(draw.memory->LoadLE32(uint32_t(address)), ib.endian);
    return true;
  };
  const uint32_t index_bytes = wide ? 4 : 2;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (ib.source == xenos::SourceSelect::kDma &&
        (uint64_t(i) + 1) * index_bytes > uint64_t(ib.size_bytes)) {
      return false;
    }
    uint32_t word = 0, index = 0;
    if (wide) {
      if (!word_at(uint64_t(i) * 4, word)) return false;
      index = word;
    } else {
      if (!word_at((uint64_t(i) * 2) & ~uint64_t(3), word)) return false;
      index = (i & 1) ? word >> 16 : word & 0xFFFFu;
    }
    if (reset && index == (wide ? reset_index : (reset_index & 0xFFFFu))) continue;
    out.push_back(index);
  }
  return true;
}

}  // namespace

DrawExtent EstimateDrawExtent(const DrawCall& draw, const DrawExtentOptions& options) {
#ifndef XNT_REPLAY_HAS_UCODE
  (void)draw;
  (void)options;
  return NotEstimated("built without the microcode interpreter (xnt_ucode)");
#else
  if (!draw.registers) return NotEstimated("no register file");
  if (!draw.vertex_shader) return NotEstimated("no vertex shader loaded");
  const Shader& vs_record = *draw.vertex_shader;
  if (vs_record.uses_memexport) return NotEstimated("memexport vertex shader");
  const xenos::PrimitiveType primitive = draw.initiator.prim_type;
  if (primitive == xenos::PrimitiveType::kPointList) {
    return NotEstimated("point sprites (point size not modelled)");
  }
  const uint32_t count = draw.initiator.num_indices;
  if (count > options.max_vertices) {
    return NotEstimated("draw has " + std::to_string(count) + " vertices (more than the " +
                        std::to_string(options.max_vertices) + " estimated on the CPU)");
  }
  if (count == 0) return NotEstimated("draw has no vertices");
  std::vector<uint32_t> indices;
  if (draw.indices.source == xenos::SourceSelect::kAutoIndex) {
    indices.resize(count);
    for (uint32_t i = 0; i < count; ++i) indices[i] = i;
  } else if (!ReadIndices(draw, count, indices)) {
    return NotEstimated("index buffer shorter than the draw");
  }

  ucode::Shader vs;
  try {
    vs = ucode::Decode(vs_record.dwords, ucode::ShaderType::kVertex);
  } catch (const Error& e) {
    return NotEstimated(std::string("vertex shader does not decode: ") + e.what());
  }
  const RegisterFile& regs = *draw.registers;
  ucode::InterpreterConstants k;
  // The vertex shader's float constants start at ALU constant 0 (as the translator reads them).
  for (uint32_t i = 0; i < 256; ++i) {
    for (uint32_t c = 0; c < 4; ++c) k.float_constants[i][c] = regs.AluConstant(i, c);
  }
  for (uint32_t i = 0; i < 8; ++i) k.bool_constants[i] = regs[xenos::kBoolConstantBase + i];
  for (uint32_t i = 0; i < 32; ++i) k.loop_constants[i] = regs[xenos::kLoopConstantBase + i];
  for (uint32_t i = 0; i < 192; ++i) k.fetch_constants[i] = regs[xenos::kFetchConstantBase + i];
  ucode::InterpreterCallbacks cb;
  cb.read_memory = [&](uint32_t address, uint32_t& word) {
    if (!draw.memory || !GuestMemory::InRange(address, 4)) return false;
    word = draw.memory->LoadLE32(address);
    return true;
  };

  // Viewport transform as renderer/vulkan/src/draw_state.cpp applies it (VTE formats in the
  // shader epilogue, then scale/offset, window offset, D3D's half-pixel offset).
  const auto vte = regs.Decode<xenos::reg::PA_CL_VTE_CNTL>();
  const auto mode = regs.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>();
  auto reg_float = [&](xenos::Reg r) { return std::bit_cast<float>(regs.Get(r)); };
  const float y_scale = vte.vport_y_scale_ena ? reg_float(xenos::Reg::PA_CL_VPORT_YSCALE) : 1.0f;
  float y_offset = vte.vport_y_offset_ena ? reg_float(xenos::Reg::PA_CL_VPORT_YOFFSET) : 0.0f;
  if (mode.vtx_window_offset_enable) {
    y_offset += float(regs.Decode<xenos::reg::PA_SC_WINDOW_OFFSET>().window_y_offset);
  }
  if ((regs.Get(xenos::Reg::PA_SU_VTX_CNTL) & 1u) == 0) y_offset += 0.5f;
  const int32_t base_index = int32_t(regs.Get(xenos::Reg::VGT_INDX_OFFSET));

  const ucode::Interpreter interpreter(vs);
  std::vector<float> ys;
  ys.reserve(indices.size());
  DrawExtent e;
  for (uint32_t index : indices) {
    ucode::ShaderInputs in;
    in.vertex_index = float(int32_t(index + uint32_t(base_index)));
    const ucode::ShaderResult r = interpreter.Run(k, in, cb);
    ++e.vertices;
    if (r.step_limit_hit) return NotEstimated("vertex shader control flow ran away", e.vertices);
    if (r.memexport) return NotEstimated("memexport vertex shader", e.vertices);
    // A vertex kill is not implemented by the renderer (the vertex is drawn), so killed vertices
    // count here too.
    float w = r.position[3];
    if (!vte.vtx_w0_fmt) w = 1.0f / w;  // the shader exported 1/W
    float y = r.position[1];
    if (!std::isfinite(w) || !std::isfinite(y)) {
      return NotEstimated("vertex " + std::to_string(index) + " has a non-finite position",
                          e.vertices);
    }
    if (!vte.vtx_xy_fmt) {
      if (!(w > 0.0f)) {
        return NotEstimated("vertex " + std::to_string(index) + " is behind the eye (w <= 0)",
                            e.vertices);
      }
      y = y / w;
    }
    const float screen_y = y * y_scale + y_offset;
    if (!std::isfinite(screen_y)) {
      return NotEstimated("vertex " + std::to_string(index) + " maps outside the float range",
                          e.vertices);
    }
    ys.push_back(screen_y);
  }
  if (ys.empty()) return NotEstimated("every index is a primitive-reset index", e.vertices);
  float max_y = *std::max_element(ys.begin(), ys.end());
  float min_y = *std::min_element(ys.begin(), ys.end());
  if (primitive == xenos::PrimitiveType::kRectangleList) {
    // The fourth corner a + b - c, with c unknown here: all three choices.
    for (size_t i = 0; i + 2 < ys.size(); i += 3) {
      const float a = ys[i], b = ys[i + 1], c = ys[i + 2];
      for (float d : {a + b - c, b + c - a, c + a - b}) {
        max_y = std::max(max_y, d);
        min_y = std::min(min_y, d);
      }
    }
  }
  e.estimated = true;
  e.max_y = max_y;
  e.min_y = min_y;
  // The row holding the lowest vertex is the last one touched (either pixel-centre convention).
  const double rows = std::floor(double(max_y)) + 1.0;
  e.rows = rows <= 0.0 ? 0u : uint32_t(std::min<double>(rows, double(options.max_rows)));
  return e;
#endif
}

}  // namespace xnt::replay
