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
#include "primitive_assembly.h"
#include "texture_unit.h"
#include "vertex_stage.h"
#include "xnt/base/error.h"
#include "xnt/gpu/draw_extent.h"
#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/line_width.h"
#include "xnt/gpu/pixel_inputs.h"
#include "xnt/gpu/polygon_mode.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/gpu/primitive_processor.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/resolve_plan.h"
#include "xnt/gpu/stage_constants.h"
#include "xnt/gpu/tessellated_draw.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/gpu/viewport.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

namespace {

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

// What the pixel shader contributes to the draw's plan, when it decodes (a draw whose pixel
// shader does not is skipped before the plan's target checks are asked).
gpu::DrawShaders PixelShaderFacts(const replay::Shader* ps) {
  gpu::DrawShaders facts;
  if (!ps || !ps->decoded || !ps->decoded->decodes()) return facts;
  facts.pixel_shader = true;
  facts.pixel_shader_color_mask = ps->decoded->analysis.color_mask;
  facts.pixel_shader_exports = ps->uses_memexport;
  return facts;
}

// Whether row bands of the draw can run in parallel: no used surface wraps onto itself within
// rows [0, rows) and no two used surfaces share EDRAM tiles there, so distinct rows are distinct
// bytes.
bool TargetsCannotAlias(const gpu::DrawPlan& plan, uint32_t rows) {
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // [start, end) in unwrapped tiles
  auto add = [&](const gpu::DrawTarget& target, bool is_depth) {
    if (!target.used) return;
    gpu::edram::Surface s;
    s.base_tiles = target.base_tiles;
    s.is_depth = is_depth;
    s.format = target.format;
    s.pitch_pixels = plan.surface_pitch;
    s.msaa = xenos::MsaaSamples(std::min(plan.msaa_samples, 2u));
    const uint32_t tiles = s.TilesForRows(rows);
    ranges.push_back({s.base_tiles % xenos::kEdramTileCount,
                      s.base_tiles % xenos::kEdramTileCount + tiles});
  };
  for (const gpu::DrawTarget& target : plan.color) add(target, false);
  add(plan.depth, true);
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

// Setup: the rasterizer's state from the plan (everything in host pixels, S x T per guest pixel).
RasterState SetUpRaster(const replay::RegisterFile& file, const gpu::DrawPlan& plan,
                        gpu::ScaledDerivatives derivatives) {
  const gpu::RegisterValues regs = file.values();
  const auto sc_mode = file.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>();
  RasterState state;
  state.x0 = plan.host_scissor.offset.x;
  state.y0 = plan.host_scissor.offset.y;
  state.x1 = state.x0 + int32_t(plan.host_scissor.extent.width);
  state.y1 = state.y0 + int32_t(plan.host_scissor.extent.height);
  state.interpolator_count =
      std::min<uint32_t>(16, file.Decode<xenos::reg::SQ_PROGRAM_CNTL>().vs_export_count + 1);
  state.cull_front = sc_mode.cull_front;
  state.cull_back = sc_mode.cull_back;
  state.front_is_cw = sc_mode.face;
  state.perspective = !sc_mode.persp_corr_dis;
  state.clamp_depth = !plan.viewport.clip_depth;
  state.never_cull = plan.topology == gpu::HostTopology::kRectangleList;
  state.samples = plan.samples;
  state.centroid_mask = gpu::InterpolatorCentroidMask(regs, plan.samples);
  state.polygon_offset = gpu::ReadPolygonOffsets(regs, plan.polygonal);
  state.depth_format = plan.depth.format;
  // Lines, and triangles' edges drawn as lines (gpu/polygon_mode.h).
  state.line_width = gpu::LineWidth(regs);
  state.scale = plan.scale;
  if (derivatives == gpu::ScaledDerivatives::kGuest) {
    state.slope_scale_x = double(plan.scale.x), state.slope_scale_y = double(plan.scale.y);
  }
  return state;
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

void CpuBackend::InPlace(const gpu::edram::Transfer& transfer, gpu::EdramLogEntry& entry) {
  bool rewritten = false;
  if (snapshot_.Move(transfer, edram_, entry, &rewritten)) return;
  entry.data_moved = true;
  entry.on_gpu = false;
  entry.note += "in place (cpu path: one EDRAM of guest bits)";
}

void CpuBackend::OnEdramSnapshot(std::span<const uint8_t> bytes) {
  snapshot_.Restore(bytes, edram_, tracker_);
}

void CpuBackend::OnDraw(const replay::DrawCall& call) {
  if (options_.watch) options_.watch->BeginEvent(call.frame, call.draw_index);
  try {
    if (Draw(call)) {
      ++stats_.draws;
    } else {
      ++stats_.draws_skipped;
      // A draw that rasterizes nothing still runs its vertex shader, whose exports land
      // (gpu/vertex_exports.h); no pixel runs, so the pixel shader exports nothing (a draw
      // that only lacks targets is not skipped when its pixel shader exports: Draw).
      if (call.vertex_shader && call.vertex_shader->uses_memexport && gpu::IsTessellated(call)) {
        Note(gpu::kSkippedTessellatedExportsNote);
      } else if (call.vertex_shader && call.vertex_shader->uses_memexport && memory_) {
        const gpu::PrimitiveDraw prim = gpu::ReadPrimitiveDraw(call, index_scratch_);
        TextureUnit textures(*call.registers, call.memory, notes_, &scaled_);
        const gpu::VertexExportRun run = gpu::RunVertexShaderExports(
            call, prim, *memory_,
            [&textures](ucode::InterpreterCallbacks& cb) { textures.Bind(cb); });
        if (!run.note.empty()) Note("memexport of a skipped draw: " + run.note);
        if (run.hi > run.lo) scaled_.Invalidate(run.lo, run.hi - run.lo);
      }
    }
  } catch (const Error& e) {
    ++stats_.draws_skipped;
    Note("draw skipped: " + std::string(e.what()));
  }
}

bool CpuBackend::Skipped(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order) {
  const gpu::DrawSkip reason = plan.FirstSkip(order);
  if (reason == gpu::DrawSkip::kNone) return false;
  Note(gpu::DrawSkipNote(reason, plan));
  return true;
}

bool CpuBackend::Draw(const replay::DrawCall& call) {
  const replay::RegisterFile& file = *call.registers;
  const gpu::RegisterValues regs = file.values();
  gpu::DrawPlan plan = gpu::PlanDraw(regs, call.initiator.prim_type,
                                     PixelShaderFacts(call.pixel_shader),
                                     {options_.scale_x, options_.scale_y});
  if (plan.resolve) {
    Resolve(regs);
    return true;
  }
  using gpu::DrawSkip;
  if (Skipped(plan, {DrawSkip::kEdramMode, DrawSkip::kSurfacePitch})) return false;
  if (!call.vertex_shader) {
    Note("draw skipped: no vertex shader loaded");
    return false;
  }
  const ucode::DecodedShader* vs = Decoded(call.vertex_shader, notes_);
  if (!vs) return false;
  const ucode::DecodedShader* ps = Decoded(call.pixel_shader, notes_);
  if (call.pixel_shader && !ps) return false;
  // A tessellated draw's patch types are not primitive types the processor converts: the shared
  // tessellator makes its triangles (gpu/tessellated_draw.h; it throws, and OnDraw names, what it
  // refuses).
  const bool tessellated = gpu::IsTessellated(call);
  if (Skipped(plan, {DrawSkip::kNoTarget})) return false;
  if (!tessellated && Skipped(plan, {DrawSkip::kPrimitiveType})) return false;

  // Vertex fetch: the indices, read once; the EDRAM ownership logged the way every path logs it
  // (the data stays where it is).
  gpu::TessellatedDraw tess;
  gpu::HostPrimitives prims;
  if (tessellated) {
    tess = gpu::TessellateDraw(call);
    prims.indices = std::move(tess.indices);
    prims.guest_primitive_count = tess.patches;
  }
  const gpu::PrimitiveDraw prim =
      tessellated ? gpu::PrimitiveDraw{} : gpu::ReadPrimitiveDraw(call, index_scratch_);
  const gpu::EdramEventTargets targets = gpu::EdramTargetsForDraw(
      regs, plan.color_used, plan.depth.used, [&]() -> std::optional<uint32_t> {
        const gpu::DrawExtent e =
            tessellated ? gpu::EstimateDrawExtent(call, tess) : gpu::EstimateDrawExtent(call, prim);
        if (!e.estimated) return std::nullopt;
        return e.rows;
      });
  tracker_.Use(tracker_.BeginEvent(), targets.used, targets.bound, "draw",
               [this](const auto& t, auto& entry) { InPlace(t, entry); });

  if (!tessellated) prims = gpu::ProcessPrimitives(prim);
  gpu::PlanPrimitives(plan, prims);
  if (Skipped(plan, {DrawSkip::kNoPrimitive})) return false;
  if (plan.topology == gpu::HostTopology::kTriangleList) {
    if (const std::string n = gpu::PolygonModeOffsetNote(regs); !n.empty()) ++notes_[n];
  }
  // The target is the surface pitch wide and as tall as a target may be.
  gpu::PlanScissor(plan, regs, plan.surface_pitch, 8192);
  if (Skipped(plan, {DrawSkip::kEmptyScissor})) return false;
  if (options_.watch) WatchSurfaces(plan);

  // Vertex shading and primitive assembly with vertex texture fetch on this thread; the pixel
  // stage's workers have texture units of their own.
  TextureUnit textures(file, call.memory, notes_, &scaled_);
  VertexStage vertices(vs->shader, file, call.memory, notes_, textures);
  if (tessellated) vertices.set_domain_vertices(&tess.vertices);
  // Memexport from either stage writes guest memory (vertex_stage.h).
  auto exported = std::make_shared<ExportedRange>();
  const MemExportWriter write_memory = MakeMemExportWriter(memory_, exported);
  vertices.set_write_memory(write_memory);
  vertices.set_scale(options_.scale_x, options_.scale_y);
  const gpu::PrimitiveClip clip = gpu::ReadPrimitiveClip(regs, vs->analysis.point_size_mask & 4u);
  vertices.set_clip(clip);
  const AssembledPrimitives assembled =
      AssemblePrimitives(prims, vertices, regs, plan.viewport.clip_depth, options_.scale_x,
                         options_.scale_y, clip);
  stats_.vertices_shaded += vertices.invocations();
  stats_.triangles += assembled.count();

  ShadePixels(call, plan, assembled, ps, write_memory);
  // Exports wrote guest memory: scaled resolve copies over it are stale (dropped only now, as
  // this draw's texture units may still have been reading them).
  if (exported->hi > exported->lo) scaled_.Invalidate(exported->lo, exported->hi - exported->lo);
  return true;
}

void CpuBackend::ShadePixels(const replay::DrawCall& call, const gpu::DrawPlan& plan,
                             const AssembledPrimitives& assembled, const ucode::DecodedShader* ps,
                             const MemExportWriter& write_memory) {
  const replay::RegisterFile& file = *call.registers;
  PixelJob job;
  job.triangles = &assembled.triangles;
  job.points = &assembled.points;
  job.lines = &assembled.lines;
  job.order = &assembled.order;
  job.state = SetUpRaster(file, plan, options_.derivatives);
  job.pixel_shader = ps ? &ps->shader : nullptr;
  ucode::InterpreterConstants ps_constants;
  if (ps) {
    ps_constants = gpu::StageConstants(file, true);  // once per draw, shared by the workers
    job.pixel_constants = &ps_constants;
  }
  if (ps && file.Decode<xenos::reg::SQ_PROGRAM_CNTL>().param_gen) {
    job.param_gen_register = int(file.Decode<xenos::reg::SQ_CONTEXT_MISC>().param_gen_pos);
  }
  job.registers = &file;
  job.memory = call.memory;
  job.write_memory = write_memory;
  job.edram = &edram_;
  std::copy(plan.color_used, plan.color_used + 4, job.color_used);
  job.scaled = &scaled_;
  job.scale_x = options_.scale_x;
  job.scale_y = options_.scale_y;
  job.derivatives = options_.derivatives;
  job.watch = options_.watch && !options_.watch->empty() ? options_.watch : nullptr;
  // A pixel shader that exports writes guest memory that other bands' texture and vertex fetches
  // read without the exporter's lock, and the order of its exports to one address must not
  // depend on the thread count: such a draw runs on one thread.
  const int32_t scale_y = int32_t(options_.scale_y);
  job.parallel_safe =
      !(ps && call.pixel_shader && call.pixel_shader->uses_memexport) &&
      TargetsCannotAlias(plan, uint32_t((job.state.y1 + scale_y - 1) / scale_y));
  const PixelStats pixels = RunPixels(job, options_.threads);
  stats_.pixels_shaded += pixels.pixels_shaded;
  if (pixels.threads > 1) ++stats_.parallel_draws;
  for (const std::string& n : pixels.notes) Note(n);
}

void CpuBackend::OnResolve(const replay::ResolveCall& call) {
  if (options_.watch) options_.watch->BeginEvent(call.draw.frame, call.draw.draw_index);
  try {
    Resolve(call.draw.registers->values());
  } catch (const Error& e) {
    Note("resolve skipped: " + std::string(e.what()));
  }
}

void CpuBackend::Resolve(gpu::RegisterValues regs) {
  const gpu::GuestMemoryAccess memory = Access();
  const gpu::ResolvePlan plan = gpu::PlanPathResolve(
      regs, memory, {options_.scale_x, options_.scale_y}, stats_, notes_);
  if (plan.skip != gpu::ResolveSkip::kNone) return;
  const gpu::ResolveInfo& info = plan.info;
  tracker_.Use(tracker_.BeginEvent(), plan.targets.used, plan.targets.bound, "resolve",
               [this](const auto& t, auto& entry) { InPlace(t, entry); });
  if (!plan.copy_note.empty()) Note(plan.copy_note);
  if (plan.copy) {
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
  std::vector<uint64_t> before;
  if (options_.watch) before = WatchedBits();
  gpu::ApplyResolveClears(info, regs, options_.scale_x, options_.scale_y, edram_,
                          ResolveThreads(options_.threads));
  if (options_.watch) RecordResolve(info, regs, before);
}

std::vector<uint64_t> CpuBackend::WatchedBits() const {
  std::vector<uint64_t> bits;
  for (const WatchedSample& w : options_.watch->samples()) {
    const uint8_t* b = edram_.bytes().data() + w.offset;
    bits.push_back(LoadLE32(b) | (w.surface.bytes_per_sample() == 8 ? uint64_t(LoadLE32(b + 4)) << 32 : 0));
  }
  return bits;
}

void CpuBackend::RecordResolve(const gpu::ResolveInfo& info, gpu::RegisterValues regs,
                               const std::vector<uint64_t>& before) {
  PixelWatch& watch = *options_.watch;
  watch.SeeResolve(info);
  if (!watch.recording() || watch.empty()) return;
  // Whether `surface` (at the scale) covers the word at `offset` inside the resolve's rectangle.
  auto in_rect = [&](const gpu::edram::Surface& surface, uint32_t offset) {
    const auto at = surface.SampleAt(offset);
    if (!at) return false;
    const uint32_t x = at->x / options_.scale_x, y = at->y / options_.scale_y;
    return int64_t(x) >= info.x0 && int64_t(x) < info.x1 && int64_t(y) >= info.y0 &&
           int64_t(y) < info.y1;
  };
  const std::vector<uint64_t> after = WatchedBits();
  // The same for every sample: the copy's source and the surfaces the clear writes.
  const gpu::edram::Surface source = info.SourceSurface();
  std::vector<gpu::edram::Surface> cleared;
  gpu::ForEachResolveClear(info, regs, options_.scale_x, options_.scale_y,
                           [&](const gpu::edram::Surface& s, uint64_t) { cleared.push_back(s); });
  // The resolve's registers for every record: the entry SeeResolve just added.
  const uint32_t seen = uint32_t(watch.resolves().size() - 1);
  for (uint32_t i = 0; i < watch.samples().size(); ++i) {
    const WatchedSample& w = watch.samples()[i];
    WatchResolve part;
    part.copies = info.copy && in_rect(source, w.offset);
    WatchRecord r;
    r.surface = source;
    for (const gpu::edram::Surface& s : cleared) {
      if (!in_rect(s, w.offset)) continue;
      part.clears = true;
      r.surface = s;
      break;
    }
    if (!part.copies && !part.clears) continue;
    part.seen = seen;
    r.frame = watch.frame(), r.event = watch.event(), r.watched = i;
    r.role = r.surface.is_depth ? 4 : info.source_select < 4 ? info.source_select : 0;
    r.before = before[i], r.after = after[i];
    const auto at = r.surface.SampleAt(w.offset);
    r.host_x = at->x, r.host_y = at->y;
    watch.RecordResolve(r, std::move(part));
  }
}

void CpuBackend::WatchSurfaces(const gpu::DrawPlan& plan) {
  // The scissor's rows, at most the rows the EDRAM holds at this pitch (an unset window
  // scissor reaches 8192).
  const uint32_t rows = (uint32_t(plan.host_scissor.offset.y) + plan.host_scissor.extent.height +
                         options_.scale_y - 1) / options_.scale_y;
  gpu::edram::Surface s;
  s.pitch_pixels = plan.surface_pitch;
  s.msaa = xenos::MsaaSamples(std::min(plan.msaa_samples, 2u));
  s.scale_x = options_.scale_x, s.scale_y = options_.scale_y;
  for (const gpu::DrawTarget& t : plan.color) {
    if (!t.used) continue;
    s.base_tiles = t.base_tiles, s.format = t.format;
    options_.watch->SeeSurface(s, s.RowsInEdram(rows));
  }
  if (plan.depth.used) {
    s.is_depth = true;
    s.base_tiles = plan.depth.base_tiles, s.format = plan.depth.format;
    options_.watch->SeeSurface(s, s.RowsInEdram(rows));
  }
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
                                        ResolveThreads(options_.threads), std::move(swap_pixels_));
  } catch (const Error& e) {
    Note("swap skipped: " + std::string(e.what()));
    return;
  }
  if (call.display_gamma) gpu::ApplyDisplayGamma(image, *call.display_gamma);
  if (options_.on_swap) options_.on_swap(call.frame, image);
  swap_pixels_ = std::move(image.rgba);  // the next swap's, usually of the same size
}

void CpuBackend::OnMemoryWritten(uint32_t address, uint32_t size) {
  scaled_.Invalidate(address, size);
}

void CpuBackend::OnFrameEnd(const replay::FrameEndCall& frame) {
  tracker_.set_frame(frame.frame + 1);
  if (options_.on_frame_end) options_.on_frame_end(frame);
}

}  // namespace xnt::cpu
