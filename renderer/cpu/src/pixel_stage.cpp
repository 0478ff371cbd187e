// Rasterization, pixel shading and the output merger over row bands (see pixel_stage.h).
#include "pixel_stage.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <thread>

#include "output_merger.h"
#include "texture_unit.h"
#include "vertex_stage.h"
#include "xnt/base/parallel.h"
#include "xnt/gpu/pixel_inputs.h"
#include "xnt/ucode/batch_interpreter.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

namespace {

constexpr int32_t kBandRows = 16;
// Below this many scissored bounding-box pixels a draw stays on the calling thread: handing bands
// to other threads costs more than it saves (the small-draws benchmark; measured when every call
// started its threads, which base/parallel.h now keeps).
constexpr uint64_t kParallelPixels = 16384;

// One worker's state: its own texture unit, interpreter and output merger (notes go to a map of
// its own; the caller keeps the draw-level ones).
struct Worker final : ucode::BatchTextureSource {
  explicit Worker(const PixelJob& job)
      : job_(job),
        textures_(*job.registers, job.memory, notes_, job.scaled),
        om_(job.registers->values(), *job.edram, job.color_used, job.pixel_shader != nullptr,
            om_notes_) {
    textures_.SetScaledDerivatives(job.derivatives, job.scale_x, job.scale_y);
    if (job.derivatives == gpu::ScaledDerivatives::kGuest) {
      batch_inputs_.derivative_scale = {float(job.scale_x), float(job.scale_y)};
    }
    if (job.pixel_shader) {
      ps_ = std::make_unique<ucode::Interpreter>(*job.pixel_shader);
      textures_.Bind(callbacks_);
      callbacks_.write_memory = job.write_memory;
      // Pixel shaders vfetch as vertex shaders do (ps_vertex_fetch).
      callbacks_.read_memory = MakeGuestMemoryReader(job.memory);
      if (job.batched) {
        batch_ = std::make_unique<ucode::BatchInterpreter>(*job.pixel_shader);
        if (!batch_->unsupported().empty()) batch_.reset();
      }
      // 2x2 quads for every primitive (triangles, point sprites, lines), as the hardware shades
      // them: texture fetches get derivatives.
      quads_ = batch_ != nullptr;
      // Batches sample through FetchBatch below: one call per tfetch per batch.
      batch_inputs_.textures = this;
      if (quads_) {
        callbacks_.texture_fetch_gradients = [this](uint32_t slot, const ucode::Float4& coords,
                                                    const ucode::FetchInstruction& f,
                                                    const ucode::Float4& ddx,
                                                    const ucode::Float4& ddy) {
          return textures_.FetchGradients(slot, coords, f, ddx, ddy);
        };
      }
    }
  }

  void FetchBatch(uint32_t slot, const ucode::FetchInstruction& f,
                  const std::array<const float*, 3>& coords, const uint32_t* active,
                  uint32_t lanes, bool quads, ucode::Float4* texels) override {
    textures_.FetchBatch(slot, f, coords, active, lanes, quads, texels);
  }
  bool FetchBatchExplicit(uint32_t slot, const ucode::FetchInstruction& f,
                          const std::array<const float*, 3>& coords, const uint32_t* active,
                          uint32_t lanes, const LaneRegisters& registers,
                          ucode::Float4* texels) override {
    textures_.FetchBatchExplicit(slot, f, coords, active, lanes, registers, texels);
    return true;
  }

  // The pixel shader's inputs for one fragment, as the translator lays them out.
  ucode::Float4 ParamGen(const Fragment& f) const {
    // PsParamGen (gpu/pixel_inputs.h): the position in guest pixels at any resolution scale.
    const gpu::ParamGenPrimitive kind = f.point  ? gpu::ParamGenPrimitive::kPoint
                                        : f.line ? gpu::ParamGenPrimitive::kLine
                                                 : gpu::ParamGenPrimitive::kPolygon;
    const std::array<float, 4> g = gpu::PsParamGen(
        gpu::ParamGenPosition(f.x, job_.scale_x), gpu::ParamGenPosition(f.y, job_.scale_y), kind,
        !f.front_facing, f.point_coord[0], f.point_coord[1]);
    return ucode::Float4{g[0], g[1], g[2], g[3]};
  }

  // Shading has no side effects, so fragments are shaded a batch at a time and then go through
  // the output merger one by one in the order they were rasterized: the EDRAM sees the same
  // sequence as shading each fragment in turn.
  void Shade(const Fragment& f) {
    if (!batch_) {
      if (!f.helper) Merge(f, ShadeOne(f));
      return;
    }
    // The fragment's fixed part, and its interpolators straight into the batch's lanes.
    const uint32_t l = pending_count_++;
    Fragment& p = pending_[l];
    p.x = f.x, p.y = f.y, p.coverage = f.coverage, p.depth = f.depth;
    p.front_facing = f.front_facing, p.point = f.point, p.line = f.line;
    p.point_coord[0] = f.point_coord[0], p.point_coord[1] = f.point_coord[1];
    p.helper = f.helper;
    auto& in = batch_inputs_;
    in.helper[l] = f.helper;
    for (uint32_t i = 0; i < interpolator_count_; ++i) {
      for (uint32_t c = 0; c < 4; ++c) in.interpolators[i][c][l] = f.interpolators[i][c];
    }
    if (pending_count_ == ucode::BatchInterpreter::kLanes) Flush();
  }

  // A rasterizer run of whole quads (FragmentRun::interpolators set): each quad's interpolators
  // are already four lanes side by side, stored as they are.
  void ShadeQuads(const FragmentRun& run) {
    // Quads start at a lane that is a multiple of 4 (every primitive is shaded in whole quads);
    // anything else goes fragment by fragment.
    if (pending_count_ & 3u) [[unlikely]] {
      Fragment f;
      for (size_t i = 0; i < run.fragments.size(); ++i) {
        f = run.fragments[i];
        for (uint32_t k = 0; k < interpolator_count_; ++k) {
          for (uint32_t c = 0; c < 4; ++c) f.interpolators[k][c] = run.interpolators[i / 4][k][c][i % 4];
        }
        Shade(f);
      }
      return;
    }
    auto& in = batch_inputs_;
    for (size_t q = 0; q * 4 < run.fragments.size(); ++q) {
      const uint32_t l = pending_count_;
      for (uint32_t j = 0; j < 4; ++j) {
        const Fragment& f = run.fragments[q * 4 + j];
        Fragment& p = pending_[l + j];
        p.x = f.x, p.y = f.y, p.coverage = f.coverage, p.depth = f.depth;
        p.front_facing = f.front_facing, p.point = f.point, p.line = f.line;
        p.point_coord[0] = f.point_coord[0], p.point_coord[1] = f.point_coord[1];
        p.helper = f.helper;
        in.helper[l + j] = f.helper;
      }
      for (uint32_t i = 0; i < interpolator_count_; ++i) {
        for (uint32_t c = 0; c < 4; ++c) {
          std::memcpy(&in.interpolators[i][c][l], &run.interpolators[q][i][c], sizeof(QuadFloats));
        }
      }
      pending_count_ = l + 4;
      if (pending_count_ == ucode::BatchInterpreter::kLanes) Flush();
    }
  }

  struct Shaded {
    bool killed = false;
    uint32_t color_mask = 0;
    bool depth_written = false;
    float depth = 0.0f;
    const std::array<ucode::Float4, 4>* colors = nullptr;
  };

  Shaded ShadeOne(const Fragment& f) {
    if (!ps_) return {};
    ucode::ShaderInputs in;
    in.interpolators = f.interpolators;
    in.interpolator_count = job_.state.interpolator_count;
    if (job_.param_gen_register >= 0) {
      in.param_gen_register = job_.param_gen_register;
      in.param_gen = ParamGen(f);
    }
    scalar_result_ = ps_->Run(*job_.pixel_constants, in, callbacks_);
    const ucode::ShaderResult& r = scalar_result_;
    ++stats.pixels_shaded;
    for (const std::string& n : r.notes) stats.notes.insert("pixel shader: " + n);
    if (r.step_limit_hit) stats.notes.insert("pixel shader: control flow ran away (cut off)");
    return {r.killed, r.color_mask, r.depth_written, r.depth, &r.colors};
  }

  void Flush() {
    const uint32_t n = pending_count_;
    if (!n) return;
    pending_count_ = 0;
    auto& in = batch_inputs_;
    in.count = n;
    in.interpolator_count = interpolator_count_;
    in.quads = quads_;
    in.param_gen_register = job_.param_gen_register;
    for (uint32_t l = 0; l < n; ++l) {
      const Fragment& f = pending_[l];
      if (job_.param_gen_register >= 0) {
        const ucode::Float4 g = ParamGen(f);
        for (uint32_t c = 0; c < 4; ++c) in.param_gen[c][l] = g[c];
      }
    }
    ucode::BatchInterpreter::Result& r = batch_result_;
    if (!batch_->Run(*job_.pixel_constants, in, callbacks_, r)) {
      // Control flow on p0 went different ways in this batch: each 2x2 quad again as a batch of
      // its own, so a quad whose lanes agree keeps its derivatives (the hardware's quads always
      // have them); a quad that diverges itself goes through the scalar interpreter, per pixel.
      ++stats.diverged_batches;
      for (uint32_t q = 0; q < n; q += 4) {
        if (quads_ && q + 4 <= n && ShadeQuad(q)) continue;
        for (uint32_t l = q; l < std::min(n, q + 4); ++l) {
          Fragment& f = pending_[l];
          if (f.helper) continue;
          for (uint32_t i = 0; i < interpolator_count_; ++i) {
            for (uint32_t c = 0; c < 4; ++c) f.interpolators[i][c] = in.interpolators[i][c][l];
          }
          Merge(f, ShadeOne(f));
        }
      }
      return;
    }
    for (const std::string& note : r.notes) stats.notes.insert("pixel shader: " + note);
    if (r.step_limit_hit) stats.notes.insert("pixel shader: control flow ran away (cut off)");
    if (om_.batch_target() >= 0 && !job_.watch) {
      // Nothing discards or tests (output_merger.h): Merge per lane would only store the colour
      // of each covered lane that did not kill.
      static_assert(OutputMerger::kBatchLanes == ucode::BatchInterpreter::kLanes);
      uint32_t xs[OutputMerger::kBatchLanes], ys[OutputMerger::kBatchLanes];
      uint8_t write[OutputMerger::kBatchLanes];
      for (uint32_t l = 0; l < n; ++l) {
        const Fragment& f = pending_[l];
        xs[l] = f.x, ys[l] = f.y;
        write[l] = !f.helper && !r.killed[l] && (f.coverage & 1u);
        stats.pixels_shaded += f.helper ? 0 : 1;
      }
      om_.WriteColorsBatch(n, xs, ys, write, r.colors.data());
      return;
    }
    for (uint32_t l = 0; l < n; ++l) {
      if (pending_[l].helper) continue;
      ++stats.pixels_shaded;
      Merge(pending_[l], {r.killed[l] != 0, r.color_mask[l], r.depth_written[l] != 0, r.depth[l],
                          &r.colors[l]});
    }
  }

  // Lanes q..q+3 of the pending batch (one 2x2 quad) as a batch of their own, merged in order.
  // False when the quad's lanes diverge too (nothing merged then).
  bool ShadeQuad(uint32_t q) {
    const auto& in = batch_inputs_;
    auto& qi = quad_inputs_;
    qi.count = 4;
    qi.interpolator_count = in.interpolator_count;
    qi.quads = true;
    qi.param_gen_register = in.param_gen_register;
    qi.textures = this;
    for (uint32_t j = 0; j < 4; ++j) {
      qi.helper[j] = in.helper[q + j];
      for (uint32_t c = 0; c < 4; ++c) qi.param_gen[c][j] = in.param_gen[c][q + j];
      for (uint32_t i = 0; i < interpolator_count_; ++i) {
        for (uint32_t c = 0; c < 4; ++c) qi.interpolators[i][c][j] = in.interpolators[i][c][q + j];
      }
    }
    ucode::BatchInterpreter::Result& r = quad_result_;
    if (!batch_->Run(*job_.pixel_constants, qi, callbacks_, r)) return false;
    for (const std::string& note : r.notes) stats.notes.insert("pixel shader: " + note);
    if (r.step_limit_hit) stats.notes.insert("pixel shader: control flow ran away (cut off)");
    for (uint32_t j = 0; j < 4; ++j) {
      if (pending_[q + j].helper) continue;
      ++stats.pixels_shaded;
      Merge(pending_[q + j], {r.killed[j] != 0, r.color_mask[j], r.depth_written[j] != 0,
                             r.depth[j], &r.colors[j]});
    }
    return true;
  }

  // What MergeSteps decided for one fragment, for pixel history.
  struct MergeTrace {
    int8_t alpha_test = -1;    // -1 not tested
    bool reached_depth = false;  // killed, the alpha test and alpha to mask let it through
    uint32_t coverage = 0;     // after alpha to mask
    std::array<float, 4> depth{};
    uint32_t pass = 0;         // samples through depth/stencil
  };

  // Alpha test, depth/stencil and the colour writes of one shaded fragment.
  void Merge(const Fragment& f, const Shaded& s) {
    if (job_.watch) [[unlikely]] {
      MergeWatched(f, s);
      return;
    }
    MergeSteps(f, s, nullptr);
  }

  // Merge with every watched EDRAM word the fragment's covered samples address (each used
  // colour target, and depth/stencil when tested) read before and after, and recorded.
  void MergeWatched(const Fragment& f, const Shaded& s) {
    PixelWatch& watch = *job_.watch;
    hits_.clear();
    for (uint32_t role = 0; role <= OutputMerger::kDepthRole; ++role) {
      if (!om_.role_used(role)) continue;
      for (uint32_t sample = 0; sample < om_.sample_count(); ++sample) {
        if (!(f.coverage & (1u << sample))) continue;
        const uint32_t offset = om_.RoleOffset(role, f.x, f.y, sample);
        if (const std::vector<uint32_t>* list = watch.At(offset)) {
          for (uint32_t w : *list) hits_.push_back({w, role, sample, offset, 0});
        }
      }
    }
    if (hits_.empty() || !watch.recording()) {
      MergeSteps(f, s, nullptr);
      return;
    }
    for (Hit& h : hits_) h.before = LoadBits(h);
    MergeTrace t;
    MergeSteps(f, s, &t);
    for (const Hit& h : hits_) {
      WatchRecord r;
      r.frame = watch.frame(), r.event = watch.event(), r.watched = h.watched, r.role = h.role;
      r.surface = om_.role_surface(h.role);
      r.before = h.before, r.after = LoadBits(h);
      r.host_x = f.x, r.host_y = f.y, r.front_facing = f.front_facing;
      r.pixel_shader = ps_ != nullptr;
      if (ps_) {
        r.killed = s.killed, r.color_mask = s.color_mask, r.depth_exported = s.depth_written;
        r.color = (*s.colors)[h.role == OutputMerger::kDepthRole ? 0 : h.role];
      }
      const uint32_t bit = 1u << h.sample;
      r.alpha_test = t.alpha_test;
      r.depth = t.reached_depth ? t.depth[h.sample] : f.depth[h.sample];
      r.alpha_to_mask_cut = t.reached_depth ? !(t.coverage & bit) : false;
      if (t.reached_depth && (t.coverage & bit) && om_.reads_depth()) {
        r.depth_stencil = (t.pass & bit) ? 1 : 0;
      }
      r.merged = (t.pass & bit) != 0;
      om_.Describe(h.role, f.front_facing, r);
      watch.Record(r);
    }
  }

  void MergeSteps(const Fragment& f, const Shaded& s, MergeTrace* trace) {
    std::array<float, 4> depth = f.depth;
    static const std::array<ucode::Float4, 4> kNoColors{};
    const std::array<ucode::Float4, 4>* colors = &kNoColors;
    uint32_t coverage = f.coverage;
    if (ps_) {
      if (s.killed) return;
      if ((s.color_mask & 1u) && om_.tests_alpha()) {
        const bool passed = om_.AlphaTest((*s.colors)[0]);
        if (trace) trace->alpha_test = passed ? 1 : 0;
        if (!passed) return;
      }
      // Alpha to mask needs oC0 written on this pixel's path, as the hardware's.
      if (om_.alpha_to_mask() && (s.color_mask & 1u)) {
        coverage &= om_.AlphaToMask(f.x, f.y, (*s.colors)[0][3]);
        if (!coverage) {
          if (trace) trace->reached_depth = true;
          return;
        }
      }
      // oDepth; clamped to [0, 1] without depth clipping, as the host's depth clamp clamps a
      // shader's depth on the Vulkan paths (SampleDepth).
      if (s.depth_written) {
        depth.fill(job_.state.clamp_depth && !std::isnan(s.depth)
                       ? std::clamp(s.depth, 0.0f, 1.0f) : s.depth);
      }
      colors = s.colors;
    }
    // Without a depth or stencil test every covered sample passes (DepthStencilTest's answer).
    const uint32_t pass =
        om_.reads_depth() ? om_.DepthStencilTest(f.x, f.y, coverage, depth, f.front_facing) : coverage;
    if (trace) *trace = {trace->alpha_test, true, coverage, depth, pass};
    if (pass) om_.WriteColors(f.x, f.y, pass, *colors);
  }

  void Band(int32_t y0, int32_t y1) {
    RasterState state = job_.state;
    // Batched shading goes quad by quad so texture fetches have derivatives.
    state.quads = quads_;
    state.depth = om_.reads_depth();
    state.y0 = std::max(state.y0, y0);
    state.y1 = std::min(state.y1, y1);
    if (state.y1 <= state.y0) return;
    const auto triangle = [&](const Triangle& t) {
      RasterizeTriangleRuns(t[0], t[1], t[2], state, [this](const FragmentRun& run) {
        if (run.interpolators) {
          ShadeQuads(run);
          return;
        }
        for (const Fragment& f : run.fragments) Shade(f);
      });
    };
    const auto shade = [this](const Fragment& f) { Shade(f); };
    if (job_.order && !job_.order->empty()) {
      using Kind = PrimitiveKind;
      for (const auto& [kind, i] : *job_.order) {
        if (kind == Kind::kTriangle) triangle((*job_.triangles)[i]);
        if (kind == Kind::kPoint) RasterizePoint((*job_.points)[i], state, shade);
        if (kind == Kind::kLine) RasterizeLine((*job_.lines)[i], state, shade);
      }
      Flush();
      return;
    }
    for (const Triangle& t : *job_.triangles) triangle(t);
    if (job_.points) {
      for (const PointSprite& p : *job_.points) RasterizePoint(p, state, shade);
    }
    if (job_.lines) {
      for (const Line& l : *job_.lines) RasterizeLine(l, state, shade);
    }
    Flush();
  }

  void Finish() {
    for (const auto& [what, count] : notes_) stats.notes.insert(what);
  }

  PixelStats stats;

 private:
  const PixelJob& job_;
  std::map<std::string, uint64_t> notes_, om_notes_;
  TextureUnit textures_;
  OutputMerger om_;
  std::unique_ptr<ucode::Interpreter> ps_;
  ucode::InterpreterCallbacks callbacks_;
  ucode::ShaderResult scalar_result_;
  std::unique_ptr<ucode::BatchInterpreter> batch_;  // null: shade one fragment at a time
  std::array<Fragment, ucode::BatchInterpreter::kLanes> pending_;
  uint32_t pending_count_ = 0;
  bool quads_ = false;
  const uint32_t interpolator_count_ = std::min<uint32_t>(job_.state.interpolator_count, 16);
  ucode::BatchInterpreter::Inputs batch_inputs_;
  ucode::BatchInterpreter::Result batch_result_;
  ucode::BatchInterpreter::Inputs quad_inputs_;  // a diverged batch's quads, one at a time
  ucode::BatchInterpreter::Result quad_result_;
  // MergeWatched's scratch: the watched words one fragment addresses.
  struct Hit {
    uint32_t watched, role, sample, offset;
    uint64_t before;
  };
  std::vector<Hit> hits_;
  uint64_t LoadBits(const Hit& h) const {
    const uint8_t* bytes = job_.edram->bytes().data() + h.offset;
    uint64_t v = LoadLE32(bytes);
    if (om_.role_surface(h.role).bytes_per_sample() == 8) v |= uint64_t(LoadLE32(bytes + 4)) << 32;
    return v;
  }
};

// Pixels the draw's triangles can touch (bounding boxes within the scissor).
uint64_t Extent(const PixelJob& job) {
  uint64_t total = 0;
  if (job.points) {
    for (const PointSprite& p : *job.points) total += uint64_t(double(p.size) * p.height) + 1;
  }
  for (const Triangle& t : *job.triangles) {
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (const ClipVertex& v : t) {
      const double x = v.pos[0] / v.pos[3], y = v.pos[1] / v.pos[3];
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    x0 = std::max(x0, double(job.state.x0)), x1 = std::min(x1, double(job.state.x1));
    y0 = std::max(y0, double(job.state.y0)), y1 = std::min(y1, double(job.state.y1));
    if (x1 > x0 && y1 > y0) total += uint64_t((x1 - x0 + 1) * (y1 - y0 + 1));
  }
  return total;
}

}  // namespace

PixelStats RunPixels(const PixelJob& job, uint32_t threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const int32_t bands = (job.state.y1 - job.state.y0 + kBandRows - 1) / kBandRows;
  if (bands <= 0) return {};
  threads = std::min<uint32_t>(threads, uint32_t(bands));
  if (!job.parallel_safe || job.watch || Extent(job) < kParallelPixels) threads = 1;
  std::vector<std::unique_ptr<Worker>> workers;
  for (uint32_t t = 0; t < threads; ++t) workers.push_back(std::make_unique<Worker>(job));
  auto run = [&](uint32_t t) {
    // Bands dealt round-robin, so uneven coverage spreads over the workers.
    for (int32_t b = int32_t(t); b < bands; b += int32_t(threads)) {
      const int32_t y0 = job.state.y0 + b * kBandRows;
      workers[t]->Band(y0, y0 + kBandRows);
    }
    workers[t]->Finish();
  };
  RunShares(threads, [&](uint32_t t, uint32_t) { run(t); });
  PixelStats out;
  out.threads = threads;
  for (const auto& w : workers) {
    out.pixels_shaded += w->stats.pixels_shaded;
    out.diverged_batches += w->stats.diverged_batches;
    out.notes.insert(w->stats.notes.begin(), w->stats.notes.end());
  }
  return out;
}

}  // namespace xnt::cpu
