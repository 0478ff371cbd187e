// Rasterization, pixel shading and the output merger over row bands (see pixel_stage.h).
#include "pixel_stage.h"

#include <algorithm>
#include <map>
#include <memory>
#include <thread>

#include "output_merger.h"
#include "texture_unit.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

namespace {

constexpr int32_t kBandRows = 16;
// Below this many scissored bounding-box pixels a draw stays on the calling thread: starting
// threads costs more than it saves (the small-draws benchmark).
constexpr uint64_t kParallelPixels = 16384;

// One worker's state: its own texture unit, interpreter and output merger (notes go to a map of
// its own; the caller keeps the draw-level ones).
struct Worker {
  explicit Worker(const PixelJob& job)
      : job_(job),
        textures_(*job.registers, job.memory, notes_),
        om_(job.registers->values(), *job.edram, job.color_used, job.pixel_shader != nullptr,
            om_notes_) {
    if (job.pixel_shader) {
      ps_ = std::make_unique<ucode::Interpreter>(*job.pixel_shader);
      callbacks_.texture_fetch = [this](uint32_t slot, const ucode::Float4& coords,
                                        const ucode::FetchInstruction& f) {
        return textures_.Fetch(slot, coords, f);
      };
    }
  }

  void Shade(const Fragment& f) {
    std::array<float, 4> depth = f.depth;
    std::array<ucode::Float4, 4> colors{};
    if (ps_) {
      ucode::ShaderInputs in;
      in.interpolators = f.interpolators;
      in.interpolator_count = job_.state.interpolator_count;
      if (job_.param_gen_register >= 0) {
        // As the translator: x is negated on back faces, pixel centres are on halves.
        in.param_gen_register = job_.param_gen_register;
        // Points: y negated and the sprite coordinate in z/w (the translator's param gen).
        const float cx = float(f.x) + 0.5f, cy = float(f.y) + 0.5f;
        in.param_gen = f.point ? ucode::Float4{cx, -cy, f.point_coord[0], f.point_coord[1]}
                               : ucode::Float4{f.front_facing ? cx : -cx, cy, 0.0f, 0.0f};
      }
      const ucode::ShaderResult r = ps_->Run(*job_.pixel_constants, in, callbacks_);
      ++stats.pixels_shaded;
      for (const std::string& n : r.notes) stats.notes.insert("pixel shader: " + n);
      if (r.step_limit_hit) stats.notes.insert("pixel shader: control flow ran away (cut off)");
      if (r.killed) return;
      if ((r.color_mask & 1u) && !om_.AlphaTest(r.colors[0])) return;
      if (r.depth_written) depth.fill(r.depth);
      colors = r.colors;
    }
    const uint32_t pass = om_.DepthStencilTest(f.x, f.y, f.coverage, depth, f.front_facing);
    if (pass) om_.WriteColors(f.x, f.y, pass, colors);
  }

  void Band(int32_t y0, int32_t y1) {
    RasterState state = job_.state;
    state.y0 = std::max(state.y0, y0);
    state.y1 = std::min(state.y1, y1);
    if (state.y1 <= state.y0) return;
    for (const Triangle& t : *job_.triangles) {
      RasterizeTriangle(t[0], t[1], t[2], state, [this](const Fragment& f) { Shade(f); });
    }
    if (job_.points) {
      for (const PointSprite& p : *job_.points) {
        RasterizePoint(p, state, [this](const Fragment& f) { Shade(f); });
      }
    }
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
};

// Pixels the draw's triangles can touch (bounding boxes within the scissor).
uint64_t Extent(const PixelJob& job) {
  uint64_t total = 0;
  if (job.points) {
    for (const PointSprite& p : *job.points) total += uint64_t(double(p.size) * p.size) + 1;
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
  if (!job.parallel_safe || Extent(job) < kParallelPixels) threads = 1;
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
  if (threads == 1) {
    run(0);
  } else {
    std::vector<std::thread> pool;
    for (uint32_t t = 0; t < threads; ++t) pool.emplace_back(run, t);
    for (std::thread& th : pool) th.join();
  }
  PixelStats out;
  out.threads = threads;
  for (const auto& w : workers) {
    out.pixels_shaded += w->stats.pixels_shaded;
    out.notes.insert(w->stats.notes.begin(), w->stats.notes.end());
  }
  return out;
}

}  // namespace xnt::cpu
