// The cpu path's backend (see cpu_backend.h): a draw is the vertex shader per distinct index,
// primitive assembly (gpu::ProcessPrimitives; rectangles get their fourth corner as the
// hardware derives it), clipping, rasterization, the pixel shader per covered pixel and the
// output merger on the EDRAM bytes. Resolves and the swap use the shared gpu/ engines directly on
// that EDRAM and guest memory.
#include "xnt/cpu/cpu_backend.h"

#include <algorithm>
#include <set>
#include <thread>

#include "geometry.h"
#include "output_merger.h"
#include "pixel_stage.h"
#include "stage_constants.h"
#include "texture_unit.h"
#include "vertex_stage.h"
#include "xnt/base/error.h"
#include "xnt/gpu/draw_extent.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/line_width.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/unmodelled_state.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/gpu/viewport.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

using xenos::Reg;

namespace {

uint32_t R(gpu::RegisterValues regs, Reg r) {
  const uint32_t i = xenos::RegIndex(r);
  return i < regs.size() ? regs[i] : 0u;
}

// The decoded shader of a record, or null with the reason noted.
const ucode::DecodedShader* Decoded(const replay::Shader* s, std::map<std::string, uint64_t>& notes) {
  if (!s) return nullptr;
  if (!s->decoded) {
    ++notes["draw skipped: shader record without decoded microcode"];
    return nullptr;
  }
  if (!s->decoded->decodes()) {
    ++notes["draw skipped: microcode does not decode: " + s->decoded->decode_error];
    return nullptr;
  }
  return s->decoded.get();
}

// Whether row bands of the draw can run in parallel: no used surface wraps onto itself within
// rows [0, rows) and no two used surfaces share EDRAM tiles there, so distinct rows are distinct
// bytes.
bool TargetsCannotAlias(gpu::RegisterValues regs, const bool color_used[4], bool depth_used,
                        uint32_t rows) {
  const auto surface = xenos::reg::RB_SURFACE_INFO::Decode(R(regs, Reg::RB_SURFACE_INFO));
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // [start, end) in unwrapped tiles
  auto add = [&](gpu::edram::Surface s) {
    s.pitch_pixels = surface.surface_pitch;
    s.msaa = surface.msaa_samples;
    const uint32_t tiles = s.TilesForRows(rows);
    ranges.push_back({s.base_tiles % xenos::kEdramTileCount,
                      s.base_tiles % xenos::kEdramTileCount + tiles});
  };
  for (uint32_t i = 0; i < 4; ++i) {
    if (!color_used[i]) continue;
    const auto info = xenos::reg::RB_COLOR_INFO::Decode(R(regs, xenos::kColorInfoRegs[i]));
    gpu::edram::Surface s;
    s.base_tiles = info.color_base;
    s.format = uint32_t(info.color_format);
    add(s);
  }
  if (depth_used) {
    const auto info = xenos::reg::RB_DEPTH_INFO::Decode(R(regs, Reg::RB_DEPTH_INFO));
    gpu::edram::Surface s;
    s.base_tiles = info.depth_base;
    s.is_depth = true;
    s.format = uint32_t(info.depth_format);
    add(s);
  }
  const uint32_t n = xenos::kEdramTileCount;
  for (size_t a = 0; a < ranges.size(); ++a) {
    if (ranges[a].second - ranges[a].first >= n) return false;
    for (size_t b = a + 1; b < ranges.size(); ++b) {
      // Compare on the circle of 2048 tiles: shift b by multiples of n around a.
      for (int64_t shift : {-int64_t(n), int64_t(0), int64_t(n)}) {
        const int64_t s0 = int64_t(ranges[b].first) + shift, s1 = int64_t(ranges[b].second) + shift;
        if (s0 < int64_t(ranges[a].second) && int64_t(ranges[a].first) < s1) return false;
      }
    }
  }
  return true;
}

uint32_t ResolveThreads(uint32_t threads) {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

CpuBackend::CpuBackend(CpuBackendOptions options)
    : options_(std::move(options)), edram_(options_.scale_x, options_.scale_y) {}

void CpuBackend::Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers) {
  memory_ = memory;
  registers_ = registers;
}

gpu::GuestMemoryAccess CpuBackend::Access() const {
  if (!memory_) throw Error("CpuBackend: Attach() was not called");
  return gpu::GuestAccessOf(*memory_);
}

void CpuBackend::InPlace(const gpu::edram::Transfer&, gpu::EdramLogEntry& entry) {
  entry.data_moved = true;
  entry.on_gpu = false;
  entry.note += "in place (cpu path: one EDRAM of guest bits)";
}

void CpuBackend::OnDraw(const replay::DrawCall& call) {
  try {
    if (Draw(call)) {
      ++stats_.draws;
    } else {
      ++stats_.draws_skipped;
      // A draw that rasterizes nothing still runs its vertex shader, whose exports land
      // (gpu/vertex_exports.h); no pixel runs, so the pixel shader exports nothing (a draw
      // that only lacks targets is not skipped when its pixel shader exports: Draw).
      if (call.vertex_shader && call.vertex_shader->uses_memexport && memory_) {
        const gpu::PrimitiveDraw prim = gpu::ReadPrimitiveDraw(call, index_scratch_);
        TextureUnit textures(*call.registers, call.memory, notes_, &scaled_);
        const gpu::VertexExportRun run = gpu::RunVertexShaderExports(
            call, prim, *memory_,
            [&textures](uint32_t slot, const ucode::Float4& coords,
                        const ucode::FetchInstruction& f) {
              return textures.Fetch(slot, coords, f);
            });
        if (!run.note.empty()) Note("memexport of a skipped draw: " + run.note);
        if (run.hi > run.lo) scaled_.Invalidate(run.lo, run.hi - run.lo);
      }
    }
  } catch (const Error& e) {
    ++stats_.draws_skipped;
    Note("draw skipped: " + std::string(e.what()));
  }
}

bool CpuBackend::Draw(const replay::DrawCall& call) {
  const replay::RegisterFile& file = *call.registers;
  const gpu::RegisterValues regs = file.values();
  const auto mode = xenos::ModeControl(R(regs, Reg::RB_MODECONTROL) & 7);
  if (mode == xenos::ModeControl::kCopy) {
    Resolve(regs);
    return true;
  }
  // Thrown (OnDraw notes and counts it once): a tessellated draw is named as such, not as its
  // primitive type, and its vertex (domain) shader is not run as a plain one for its exports.
  if (const std::string t = gpu::TessellatedDrawNote(call); !t.empty()) throw Error(t);
  if (mode != xenos::ModeControl::kColorDepth && mode != xenos::ModeControl::kDepth) {
    Note("draw with RB_MODECONTROL edram_mode " + std::to_string(uint32_t(mode)) +
         " (not colour/depth) skipped");
    return false;
  }
  const auto surface = xenos::reg::RB_SURFACE_INFO::Decode(R(regs, Reg::RB_SURFACE_INFO));
  if (surface.surface_pitch == 0) {
    Note("draw with RB_SURFACE_INFO surface_pitch 0 skipped");
    return false;
  }
  if (!call.vertex_shader) {
    Note("draw skipped: no vertex shader loaded");
    return false;
  }
  for (const std::string& n : gpu::UnmodelledStateNotes(regs)) Note(n);
  const ucode::DecodedShader* vs = Decoded(call.vertex_shader, notes_);
  if (!vs) return false;
  const ucode::DecodedShader* ps = Decoded(call.pixel_shader, notes_);
  if (call.pixel_shader && !ps) return false;

  bool color_used[4] = {};
  const auto color_mask = xenos::reg::RB_COLOR_MASK::Decode(R(regs, Reg::RB_COLOR_MASK));
  if (mode == xenos::ModeControl::kColorDepth && ps) {
    for (uint32_t i = 0; i < 4; ++i) {
      color_used[i] = (ps->analysis.color_mask & (1u << i)) && color_mask.rt_mask(i);
    }
  }
  const auto depth_control = xenos::reg::RB_DEPTHCONTROL::Decode(R(regs, Reg::RB_DEPTHCONTROL));
  const bool depth_used = depth_control.z_enable || depth_control.stencil_enable;
  // A pixel shader that exports memory runs on every covered pixel in colour/depth mode even
  // when no colour target is written and nothing is tested (Xenia draw_util.cc
  // IsPixelShaderNeededWithRasterization: memory export is a side effect that keeps it; in
  // kDepth mode the pixel shader does not run): such a draw is rasterized for its exports only.
  const bool exports_only = mode == xenos::ModeControl::kColorDepth && ps &&
                            call.pixel_shader->uses_memexport;
  if (!depth_used && !exports_only &&
      std::none_of(color_used, color_used + 4, [](bool b) { return b; })) {
    Note("draw with no colour target written and no depth/stencil test skipped");
    return false;
  }
  if (!gpu::IsSupportedPrimitiveType(call.initiator.prim_type)) {
    Note("draw of primitive type " +
         std::string(xenos::PrimitiveTypeName(uint32_t(call.initiator.prim_type))) +
         " skipped (not implemented)");
    return false;
  }

  const gpu::PrimitiveDraw prim = gpu::ReadPrimitiveDraw(call, index_scratch_);
  // EDRAM ownership, logged the way every path logs it (the data stays where it is).
  const gpu::EdramEventTargets targets =
      gpu::EdramTargetsForDraw(regs, color_used, depth_used, [&]() -> std::optional<uint32_t> {
        const gpu::DrawExtent e = gpu::EstimateDrawExtent(call, prim);
        if (!e.estimated) return std::nullopt;
        return e.rows;
      });
  tracker_.Use(tracker_.BeginEvent(), targets.used, targets.bound, "draw", InPlace);

  const gpu::HostPrimitives prims = gpu::ProcessPrimitives(prim);
  if (prims.indices.empty()) {
    Note("draw with no complete primitive skipped");
    return false;
  }
  const bool lines = prims.topology == gpu::HostTopology::kLineList;

  const auto program = file.Decode<xenos::reg::SQ_PROGRAM_CNTL>();
  const auto sc_mode = file.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>();
  const gpu::Viewport viewport = gpu::ComputeViewport(regs, surface.surface_pitch, 8192);
  // Resolution scaling: everything below is in host pixels, S x T per guest pixel.
  const int32_t scale_x = int32_t(options_.scale_x), scale_y = int32_t(options_.scale_y);
  RasterState state;
  state.x0 = viewport.scissor.offset.x * scale_x;
  state.y0 = viewport.scissor.offset.y * scale_y;
  state.x1 = state.x0 + int32_t(viewport.scissor.extent.width) * scale_x;
  state.y1 = state.y0 + int32_t(viewport.scissor.extent.height) * scale_y;
  state.interpolator_count = std::min<uint32_t>(16, program.vs_export_count + 1);
  state.cull_front = sc_mode.cull_front;
  state.cull_back = sc_mode.cull_back;
  state.front_is_cw = sc_mode.face;
  state.perspective = !sc_mode.persp_corr_dis;
  state.clamp_depth = !viewport.clip_depth;
  state.never_cull = prims.topology == gpu::HostTopology::kRectangleList;
  state.samples = 1u << std::min(uint32_t(surface.msaa_samples), 2u);
  state.polygon_offset = gpu::ReadPolygonOffsets(
      regs, !lines && prims.topology != gpu::HostTopology::kPointList);
  state.depth_format =
      uint32_t(xenos::reg::RB_DEPTH_INFO::Decode(R(regs, Reg::RB_DEPTH_INFO)).depth_format);
  if (lines) state.line_width = gpu::LineWidth(regs);
  if (state.x1 <= state.x0 || state.y1 <= state.y0) {
    Note("draw with an empty scissor skipped");
    return false;
  }

  // Vertex texture fetch on this thread; the pixel stage's workers have texture units of
  // their own.
  TextureUnit textures(file, call.memory, notes_, &scaled_);
  auto fetch = [&textures](uint32_t slot, const ucode::Float4& coords,
                           const ucode::FetchInstruction& f) { return textures.Fetch(slot, coords, f); };
  VertexStage vertices(vs->shader, file, call.memory, notes_, fetch);
  // Memexport from either stage writes guest memory (vertex_stage.h).
  auto exported = std::make_shared<ExportedRange>();
  const MemExportWriter write_memory = MakeMemExportWriter(memory_, exported);
  vertices.set_write_memory(write_memory);
  vertices.set_scale(options_.scale_x, options_.scale_y);
  std::vector<Triangle> triangles;
  std::vector<PointSprite> points;
  std::vector<Line> segments;
  auto triangle = [&](const ClipVertex& a, const ClipVertex& b, const ClipVertex& c) {
    const Polygon poly = ClipTriangle(a, b, c, viewport.clip_depth);
    for (size_t i = 1; i + 1 < poly.size(); ++i) triangles.push_back({poly[0], poly[i], poly[i + 1]});
  };
  if (prims.topology == gpu::HostTopology::kPointList) {
    // PA_SU_POINT_SIZE / PA_SU_POINT_MINMAX hold half sizes in 12.4 fixed point; a size the
    // vertex shader exports (oPts.x) is clamped to [min, max], as the fbo path does.
    const uint32_t size_reg = R(regs, Reg::PA_SU_POINT_SIZE);
    const uint32_t minmax = R(regs, Reg::PA_SU_POINT_MINMAX);
    const float fixed_size = float(size_reg >> 16) * (2.0f / 16.0f);
    const float min_size = float(minmax & 0xFFFF) * (2.0f / 16.0f);
    const float max_size = float(minmax >> 16) * (2.0f / 16.0f);
    for (uint32_t index : prims.indices) {
      PointSprite p;
      p.vertex = vertices.Get(index);
      p.size = p.vertex.point_size >= 0.0f ? std::clamp(p.vertex.point_size, min_size, max_size)
                                           : fixed_size;
      // Sizes are guest pixels: S x T times as many host pixels.
      p.height = p.size * float(scale_y);
      p.size *= float(scale_x);
      points.push_back(p);
    }
  }
  if (lines) {
    // Strips and loops arrive as lists (gpu::ProcessPrimitives), one segment per index pair.
    for (size_t i = 0; i + 1 < prims.indices.size(); i += 2) {
      Line l;
      if (ClipLine(vertices.Get(prims.indices[i]), vertices.Get(prims.indices[i + 1]), l,
                   viewport.clip_depth)) {
        segments.push_back(l);
      }
    }
  }
  for (size_t i = 0; prims.topology != gpu::HostTopology::kPointList && !lines &&
                     i + 2 < prims.indices.size();
       i += 3) {
    const ClipVertex& a = vertices.Get(prims.indices[i]);
    const ClipVertex& b = vertices.Get(prims.indices[i + 1]);
    const ClipVertex& c = vertices.Get(prims.indices[i + 2]);
    if (prims.topology != gpu::HostTopology::kRectangleList) {
      triangle(a, b, c);
      continue;
    }
    // Rectangle: the longest screen edge is the diagonal; the corner opposite it (c) is the
    // right angle and the fourth corner is a + b - c, in clip space and for every interpolator
    // (renderer/vulkan/src/host_shaders.cpp does the same in its geometry shader).
    const ClipVertex* v[3] = {&a, &b, &c};
    auto screen = [](const ClipVertex& p, int axis) { return p.pos[axis] / p.pos[3]; };
    auto dist = [&](int i0, int i1) {
      const double dx = screen(*v[i1], 0) - screen(*v[i0], 0);
      const double dy = screen(*v[i1], 1) - screen(*v[i0], 1);
      return dx * dx + dy * dy;
    };
    const double d01 = dist(0, 1), d12 = dist(1, 2), d20 = dist(2, 0);
    int ci = 0, ai = 1, bi = 2;
    if (d20 > d12 && d20 >= d01) {
      ci = 1, ai = 2, bi = 0;
    } else if (d01 > d12 && d01 > d20) {
      ci = 2, ai = 0, bi = 1;
    }
    ClipVertex d;
    for (int k = 0; k < 4; ++k) d.pos[k] = v[ai]->pos[k] + v[bi]->pos[k] - v[ci]->pos[k];
    for (size_t k = 0; k < d.interpolators.size(); ++k) {
      for (int comp = 0; comp < 4; ++comp) {
        d.interpolators[k][comp] = v[ai]->interpolators[k][comp] + v[bi]->interpolators[k][comp] -
                                   v[ci]->interpolators[k][comp];
      }
    }
    triangle(*v[ci], *v[ai], *v[bi]);
    triangle(*v[ai], d, *v[bi]);
  }
  stats_.vertices_shaded += vertices.invocations();
  stats_.triangles += triangles.size() + points.size() + segments.size();

  PixelJob job;
  job.triangles = &triangles;
  job.points = &points;
  job.lines = &segments;
  job.state = state;
  job.pixel_shader = ps ? &ps->shader : nullptr;
  ucode::InterpreterConstants ps_constants;
  if (ps) {
    ps_constants = StageConstants(file, true);  // once per draw, shared by the workers
    job.pixel_constants = &ps_constants;
  }
  if (ps && program.param_gen) {
    job.param_gen_register = int(file.Decode<xenos::reg::SQ_CONTEXT_MISC>().param_gen_pos);
  }
  job.registers = &file;
  job.memory = call.memory;
  job.write_memory = write_memory;
  job.edram = &edram_;
  std::copy(color_used, color_used + 4, job.color_used);
  job.scaled = &scaled_;
  job.scale_x = options_.scale_x;
  job.scale_y = options_.scale_y;
  // A pixel shader that exports writes guest memory that other bands' texture and vertex fetches
  // read without the exporter's lock, and the order of its exports to one address must not
  // depend on the thread count: such a draw runs on one thread.
  job.parallel_safe = !(ps && call.pixel_shader && call.pixel_shader->uses_memexport) &&
                      TargetsCannotAlias(regs, color_used, depth_used,
                                         uint32_t((state.y1 + scale_y - 1) / scale_y));
  const PixelStats pixels = RunPixels(job, options_.threads);
  // Exports wrote guest memory: scaled resolve copies over it are stale (dropped only now, as
  // this draw's texture units may still have been reading them).
  if (exported->hi > exported->lo) scaled_.Invalidate(exported->lo, exported->hi - exported->lo);
  stats_.pixels_shaded += pixels.pixels_shaded;
  if (pixels.threads > 1) ++stats_.parallel_draws;
  for (const std::string& n : pixels.notes) Note(n);
  return true;
}

void CpuBackend::OnResolve(const replay::ResolveCall& call) {
  try {
    Resolve(call.draw.registers->values());
  } catch (const Error& e) {
    Note("resolve skipped: " + std::string(e.what()));
  }
}

void CpuBackend::Resolve(gpu::RegisterValues regs) {
  ++stats_.resolves;
  const gpu::GuestMemoryAccess memory = Access();
  const gpu::ResolveInfo info = gpu::ComputeResolveInfo(regs, memory);
  if (info.empty()) {
    Note("resolve with an empty rectangle");
    return;
  }
  if (info.surface_pitch == 0) {
    Note("resolve with RB_SURFACE_INFO surface_pitch 0 skipped");
    return;
  }
  const gpu::EdramEventTargets targets = gpu::EdramTargetsForResolve(info);
  tracker_.Use(tracker_.BeginEvent(), targets.used, targets.bound, "resolve", InPlace);
  if (info.copy) {
    if (!info.unsupported.empty()) {
      Note(info.unsupported);
    } else {
      if (!info.note.empty()) Note(info.note);
      try {
        if (options_.scale_x * options_.scale_y == 1) {
          // Row bands over the pixel stage's threads (the bytes do not depend on the count).
          gpu::ResolveCopy(info, edram_, memory, ResolveThreads(options_.threads));
        } else {
          scaled_.Resolve(info, edram_, memory, options_.scale_x, options_.scale_y);
        }
      } catch (const Error& e) {
        Note(std::string("resolve copy skipped: ") + e.what());
      }
    }
  }
  gpu::ApplyResolveClears(info, regs, options_.scale_x, options_.scale_y, edram_);
}

void CpuBackend::OnSwap(const replay::SwapCall& call) {
  if (!registers_) throw Error("CpuBackend: Attach() was not called");
  ++stats_.swaps;
  gpu::SwapImage image;
  try {
    // At a resolution scale the front buffer is shown at the scaled size when a resolve left a
    // scaled copy of it (gpu/scaled_resolve.h, the rule the fbo path shares); else at 1x.
    // Row bands over the pixel stage's threads (guest memory is only read here).
    image = gpu::ReadFrontBufferAtScale(registers_->values(), call.front_buffer_address,
                                        call.width, call.height, Access(), scaled_,
                                        ResolveThreads(options_.threads));
  } catch (const Error& e) {
    Note("swap skipped: " + std::string(e.what()));
    return;
  }
  if (options_.on_swap) options_.on_swap(call.frame, image);
}

void CpuBackend::OnMemoryWritten(uint32_t address, uint32_t size) {
  scaled_.Invalidate(address, size);
}

void CpuBackend::OnFrameEnd(const replay::FrameEndCall& frame) {
  tracker_.set_frame(frame.frame + 1);
  if (options_.on_frame_end) options_.on_frame_end(frame);
}

}  // namespace xnt::cpu
