#include "xnt/gpu/draw_extent.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <vector>

#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/registers.h"

#include "xnt/base/error.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/line_width.h"
#include "xnt/gpu/point_size.h"
#include "xnt/gpu/stage_constants.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/shader_cache.h"

namespace xnt::gpu {

namespace {

DrawExtent NotEstimated(std::string reason, uint32_t vertices = 0) {
  DrawExtent e;
  e.reason = std::move(reason);
  e.vertices = vertices;
  return e;
}

}  // namespace

DrawExtent EstimateDrawExtent(const replay::DrawCall& draw, const DrawExtentOptions& options) {
  std::vector<uint8_t> scratch;
  PrimitiveDraw prim;
  try {
    prim = ReadPrimitiveDraw(draw, scratch);
  } catch (const Error& e) {
    return NotEstimated(std::string("index buffer unreadable: ") + e.what());
  }
  return EstimateDrawExtent(draw, prim, options);
}

namespace {

// What every estimate checks before it runs a vertex.
std::optional<DrawExtent> Refusal(const replay::DrawCall& draw) {
  if (!draw.registers) return NotEstimated("no register file");
  if (!draw.vertex_shader) return NotEstimated("no vertex shader loaded");
  if (draw.vertex_shader->uses_memexport) return NotEstimated("memexport vertex shader");
  return std::nullopt;
}

// Runs the draw's vertex shader for `count` vertices, `inputs(i, in)` loading the i-th's
// registers and `label(i)` naming it, and bounds the rows their positions reach: `reach` rows
// further both ways (a point's or line's half size), and with every derived fourth corner of a
// rectangle list's triples when `rectangles`.
template <class Inputs, class Label>
DrawExtent RunVertices(const replay::DrawCall& draw, size_t count, Inputs inputs, Label label,
                       float reach, bool rectangles, const DrawExtentOptions& options) {
  // Decoded once by the command processor (ucode/shader_cache.h); decoded here only for a
  // Shader record built without it (tests).
  const replay::Shader& vs_record = *draw.vertex_shader;
  std::shared_ptr<const ucode::DecodedShader> decoded = vs_record.decoded;
  if (!decoded) {
    ucode::ShaderCache local;
    decoded = local.Get(vs_record.hash, ucode::ShaderType::kVertex, vs_record.dwords);
  }
  if (!decoded->decodes()) {
    return NotEstimated("vertex shader does not decode: " + decoded->decode_error);
  }
  const ucode::Shader& vs = decoded->shader;
  const replay::RegisterFile& regs = *draw.registers;
  // The vertex shader's float constants start at ALU constant 0 (as the translator reads them).
  const ucode::InterpreterConstants k = StageConstants(regs, false);
  ucode::InterpreterCallbacks cb;
  cb.read_memory = [&](uint32_t address, uint32_t& word) {
    if (!draw.memory || !replay::GuestMemory::InRange(address, 4)) return false;
    word = draw.memory->LoadLE32(address);
    return true;
  };

  // Viewport transform as gpu/viewport.cpp applies it (VTE formats in the
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

  const ucode::Interpreter interpreter(vs);
  std::vector<float> ys;
  ys.reserve(count);
  DrawExtent e;
  for (size_t i = 0; i < count; ++i) {
    ucode::ShaderInputs in;
    inputs(i, in);
    const ucode::ShaderResult r = interpreter.Run(k, in, cb);
    ++e.vertices;
    if (r.step_limit_hit) return NotEstimated("vertex shader control flow ran away", e.vertices);
    if (r.memexport) return NotEstimated("memexport vertex shader", e.vertices);
    // A killed vertex counts too: the bound may only be larger than what is drawn.
    float w = r.position[3];
    if (!vte.vtx_w0_fmt) w = 1.0f / w;  // the shader exported 1/W
    float y = r.position[1];
    if (!std::isfinite(w) || !std::isfinite(y)) {
      return NotEstimated(label(i) + " has a non-finite position", e.vertices);
    }
    if (!vte.vtx_xy_fmt) {
      if (!(w > 0.0f)) return NotEstimated(label(i) + " is behind the eye (w <= 0)", e.vertices);
      y = y / w;
    }
    const float screen_y = y * y_scale + y_offset;
    if (!std::isfinite(screen_y)) {
      return NotEstimated(label(i) + " maps outside the float range", e.vertices);
    }
    ys.push_back(screen_y);
  }
  if (ys.empty()) return NotEstimated("every index is a primitive-reset index", e.vertices);
  float max_y = *std::max_element(ys.begin(), ys.end());
  float min_y = *std::min_element(ys.begin(), ys.end());
  if (rectangles) {
    // The fourth corner a + b - c, with c unknown here: all three choices.
    for (size_t i = 0; i + 2 < ys.size(); i += 3) {
      const float a = ys[i], b = ys[i + 1], c = ys[i + 2];
      for (float d : {a + b - c, b + c - a, c + a - b}) {
        max_y = std::max(max_y, d);
        min_y = std::min(min_y, d);
      }
    }
  }
  max_y += reach;
  min_y -= reach;
  e.estimated = true;
  e.max_y = max_y;
  e.min_y = min_y;
  // The row holding the lowest vertex is the last one touched (either pixel-centre convention).
  const double rows = std::floor(double(max_y)) + 1.0;
  e.rows = rows <= 0.0 ? 0u : uint32_t(std::min<double>(rows, double(options.max_rows)));
  return e;
}

}  // namespace

DrawExtent EstimateDrawExtent(const replay::DrawCall& draw, const PrimitiveDraw& prim,
                              const DrawExtentOptions& options) {
  if (auto refused = Refusal(draw)) return *refused;
  const xenos::PrimitiveType primitive = draw.initiator.prim_type;
  // Points and lines reach past their vertices by half their height or width in guest rows: a
  // point its constant height or, exported, at most its clamp's maximum (PointSizes::Size never
  // exceeds max(min, max)); a line half its PA_SU_LINE_CNTL width.
  float reach = 0.0f;
  if (primitive == xenos::PrimitiveType::kPointList) {
    const PointSizes p = ReadPointSizes(draw.registers->values());
    reach = std::max({p.height, p.min_diameter, p.max_diameter}) * 0.5f;
  } else if (primitive == xenos::PrimitiveType::kLineList ||
             primitive == xenos::PrimitiveType::kLineStrip ||
             primitive == xenos::PrimitiveType::kLineLoop) {
    reach = LineWidth(draw.registers->values()) * 0.5f;
  }
  const uint32_t count = draw.initiator.num_indices;
  if (count > options.max_vertices) {
    return NotEstimated("draw has " + std::to_string(count) + " vertices (more than the " +
                        std::to_string(options.max_vertices) + " estimated on the CPU)");
  }
  if (count == 0) return NotEstimated("draw has no vertices");
  std::vector<uint32_t> indices;
  if (!ReadVertexIndices(prim, indices)) return NotEstimated("index buffer shorter than the draw");
  return RunVertices(
      draw, indices.size(),
      [&](size_t i, ucode::ShaderInputs& in) { in.vertex_index = float(indices[i]); },
      [&](size_t i) { return "vertex " + std::to_string(indices[i]); }, reach,
      primitive == xenos::PrimitiveType::kRectangleList, options);
}

DrawExtent EstimateDrawExtent(const replay::DrawCall& draw, const TessellatedDraw& tess,
                              const DrawExtentOptions& options) {
  if (auto refused = Refusal(draw)) return *refused;
  const size_t count = tess.vertices.size();
  if (count > options.max_vertices) {
    return NotEstimated("tessellated draw generates " + std::to_string(count) +
                        " vertices (more than the " + std::to_string(options.max_vertices) +
                        " estimated on the CPU)");
  }
  if (count == 0) return NotEstimated("tessellated draw generates no vertices");
  // The domain shader per generated vertex with the registers the sequencer loads.
  return RunVertices(
      draw, count,
      [&](size_t i, ucode::ShaderInputs& in) {
        in.domain = true;
        in.domain_r0 = tess.vertices[i].r0;
        in.domain_r1 = tess.vertices[i].r1;
      },
      [&](size_t i) { return "generated vertex " + std::to_string(i); }, 0.0f, false, options);
}

}  // namespace xnt::gpu
