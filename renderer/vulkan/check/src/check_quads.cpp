// translate --check over 2x2 pixel quads (check_quads.h).
#include "check_quads.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "xnt/ucode/batch_interpreter.h"

namespace xnt::vk::check {
namespace {

using Rng = std::mt19937_64;

// m 2^e, m in +-1..7, e in [lo, hi].
double Step(Rng& g, int lo, int hi) {
  const int m = 1 + int(g() % 7);
  const int e = lo + int(g() % uint64_t(hi - lo + 1));
  return std::ldexp(g() % 2 ? -m : m, e);
}

// One interpolant component's plane over a quad: value a + b dx + c dy.
struct Plane {
  double a = 0.0, b = 0.0, c = 0.0;
  double At(double dx, double dy) const { return a + b * dx + c * dy; }
};

Plane RandomPlane(Rng& g) {
  Plane p;
  p.a = double(int(g() % 2001) - 1000) / 64.0;
  switch (g() % 8) {
    case 0: break;  // no change across the quad: derivatives 0 (lambda -infinity)
    case 1: p.b = Step(g, -9, -7), p.c = Step(g, -9, -7); break;  // tiny
    case 2: p.b = Step(g, -2, 2), p.c = Step(g, -2, 2); break;    // large
    case 3:  // anisotropic: one axis large, the other tiny or still
      p.b = Step(g, -2, 2);
      p.c = g() % 2 ? Step(g, -9, -7) : 0.0;
      if (g() % 2) std::swap(p.b, p.c);
      break;
    default: p.b = Step(g, -6, -3), p.c = Step(g, -6, -3); break;  // moderate
  }
  return p;
}

}  // namespace

QuadInputs MakeQuadInputs(uint64_t seed, uint32_t lanes, uint32_t interpolator_count) {
  Rng g(seed ^ 0x7175616473000000ull);
  QuadInputs r;
  r.lanes.resize(lanes);
  r.helper.assign(lanes, 0);
  const uint32_t quads = lanes / 4;
  r.rows = 2 * ((quads + kQuadsPerRow - 1) / kQuadsPerRow);
  for (uint32_t q = 0; q < quads; ++q) {
    std::array<std::array<Plane, 4>, 16> planes;
    for (auto& reg : planes) {
      for (Plane& p : reg) p = RandomPlane(g);
    }
    // Which pixels the primitive covers (bit i: pixel i of the quad).
    const uint32_t kind = uint32_t(g() % 8);
    uint32_t covered = 0xF;
    if (kind == 5 || kind == 6) covered = 0xF & ~(1u << (g() % 4));
    if (kind == 7) covered = 1u << (g() % 4);
    const double qx = 2.0 * (q % kQuadsPerRow), qy = 2.0 * (q / kQuadsPerRow);
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t lane = q * 4 + i;
      ucode::ShaderInputs& in = r.lanes[lane];
      in.interpolator_count = interpolator_count;
      for (uint32_t reg = 0; reg < 16; ++reg) {
        for (uint32_t c = 0; c < 4; ++c) {
          // Exact in a float (at most about 20 significant bits); + 0 as the rasterizer's set-up
          // gives it (never -0).
          in.interpolators[reg][c] = float(planes[reg][c].At(i & 1, i >> 1)) + 0.0f;
        }
      }
      r.helper[lane] = (covered >> i) & 1 ? 0 : 1;
      if (r.helper[lane]) continue;
      // The pixel's own square, two triangles; each corner carries the planes at its offset from
      // the quad's top-left pixel centre.
      static constexpr uint32_t kCorners[6] = {0, 1, 2, 1, 3, 2};
      for (uint32_t corner : kCorners) {
        const double x = double(i & 1) + double(corner & 1), y = double(i >> 1) + double(corner >> 1);
        for (uint32_t reg = 0; reg < 16; ++reg) {
          for (uint32_t c = 0; c < 4; ++c) {
            r.vertices.push_back(std::bit_cast<uint32_t>(float(planes[reg][c].At(x - 0.5, y - 0.5)) + 0.0f));
          }
        }
        r.vertices.push_back(std::bit_cast<uint32_t>(float(qx + x)));
        r.vertices.push_back(std::bit_cast<uint32_t>(float(qy + y)));
        r.vertices.push_back(0u);
        r.vertices.push_back(0u);
      }
    }
  }
  return r;
}

bool UsesDerivatives(const ucode::Shader& shader) {
  if (shader.type != ucode::ShaderType::kPixel) return false;
  for (const ucode::Instruction& ins : shader.slots) {
    if (ins.kind != ucode::SlotKind::kFetch || ins.fetch.IsVertex()) continue;
    const ucode::FetchOp op = ins.fetch.opcode;
    if (op == ucode::FetchOp::kGetTextureGradients || op == ucode::FetchOp::kGetTextureComputedLod) return true;
    if (op == ucode::FetchOp::kTextureFetch && !ucode::FetchHasExplicitLod(ins.fetch, true)) return true;
  }
  return false;
}

void LodLanes::FetchBatch(uint32_t slot, const ucode::FetchInstruction& f,
                          const std::array<const float*, 3>& coords, const uint32_t* active,
                          uint32_t lanes, bool quads, ucode::Float4* texels) {
  const bool classify = quads && per_lane_ && per_lane_(f) && cb_.texture_size;
  ucode::TextureQuerySize size;
  double bias = 0.0;
  if (classify) {
    size = cb_.texture_size(slot, f);
    // Fetch constant dword 4 bits 12..21: the LOD bias, signed, in 1/32; the instruction's in 1/16.
    const int32_t fetch_bias = int32_t(fetch_constants_[(slot & 31) * 6 + 4] << 10) >> 22;
    bias = fetch_bias / 32.0 + f.lod_bias / 16.0;
  }
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!active[l]) continue;
    const ucode::Float4 at = {coords[0][l], coords[1][l], coords[2][l], 0.0f};
    // Coarse derivatives of the quad: its top pair for x, its left pair for y.
    const uint32_t q = l & ~3u;
    ucode::Float4 ddx{}, ddy{};
    for (uint32_t c = 0; c < 3; ++c) {
      ddx[c] = quads ? coords[c][q + 1] - coords[c][q] : 0.0f;
      ddy[c] = quads ? coords[c][q + 2] - coords[c][q] : 0.0f;
    }
    texels[l] = quads && cb_.texture_fetch_gradients ? cb_.texture_fetch_gradients(slot, at, f, ddx, ddy)
                : cb_.texture_fetch                  ? cb_.texture_fetch(slot, at, f)
                                                     : ucode::Float4{};
    if (!classify) continue;
    const double scale[2] = {f.tx_coord_denorm ? 1.0 : size.width, f.tx_coord_denorm ? 1.0 : size.height};
    double px = 0.0, py = 0.0, largest = 0.0;
    for (uint32_t c = 0; c < 2; ++c) {
      px += (ddx[c] * scale[c]) * (ddx[c] * scale[c]);
      py += (ddy[c] * scale[c]) * (ddy[c] * scale[c]);
      for (uint32_t i = 0; i < 4; ++i) largest = std::max(largest, std::abs(double(coords[c][q + i]) * scale[c]));
    }
    const double lambda = 0.5 * std::log2(std::max(px, py)) + bias;
    const bool certain = !std::isnan(px) && !std::isnan(py) && !(largest > 4096.0) && lambda < -1.0 / 16.0;
    if (!certain) uncertain_[first_ + l] = 1;
  }
}

namespace {

// Lanes [first, first + count) as one batch of quads; false when their control flow diverged.
bool RunBatch(ucode::BatchInterpreter& batch, const ucode::InterpreterConstants& constants,
              const QuadInputs& inputs, const ucode::InterpreterCallbacks& callbacks, LodLanes& textures,
              uint32_t first, uint32_t count, std::vector<ucode::ShaderResult>& results) {
  ucode::BatchInterpreter::Inputs in;
  in.count = count;
  in.quads = true;
  in.textures = &textures;
  textures.SetFirstLane(first);
  in.interpolator_count = inputs.lanes[first].interpolator_count;
  for (uint32_t l = 0; l < count; ++l) {
    in.helper[l] = inputs.helper[first + l];
    for (uint32_t reg = 0; reg < 16; ++reg) {
      for (uint32_t c = 0; c < 4; ++c) in.interpolators[reg][c][l] = inputs.lanes[first + l].interpolators[reg][c];
    }
  }
  ucode::BatchInterpreter::Result out;
  if (!batch.Run(constants, in, callbacks, out)) return false;
  for (uint32_t l = 0; l < count; ++l) {
    if (in.helper[l]) continue;
    ucode::ShaderResult& r = results[first + l];
    r.colors = out.colors[l];
    r.color_mask = out.color_mask[l];
    r.depth = out.depth[l];
    r.depth_written = out.depth_written[l] != 0;
    r.killed = out.killed[l] != 0;
    r.step_limit_hit = out.step_limit_hit;
    r.notes = out.notes;
  }
  return true;
}

}  // namespace

std::vector<ucode::ShaderResult> RunQuads(
    const ucode::Shader& shader, const ucode::InterpreterConstants& constants,
    const QuadInputs& inputs, const ucode::InterpreterCallbacks& callbacks, LodLanes& textures,
    const std::function<ucode::ShaderResult(uint32_t lane)>& scalar, std::vector<uint8_t>& per_pixel) {
  const uint32_t lanes = uint32_t(inputs.lanes.size());
  std::vector<ucode::ShaderResult> results(lanes);
  per_pixel.assign(lanes, 0);
  ucode::BatchInterpreter batch(shader);
  const bool batched = batch.unsupported().empty();
  auto alone = [&](uint32_t first, uint32_t count) {
    for (uint32_t l = first; l < first + count; ++l) {
      if (inputs.helper[l]) continue;
      results[l] = scalar(l);
      per_pixel[l] = 1;
    }
  };
  constexpr uint32_t kBatch = ucode::BatchInterpreter::kLanes;
  for (uint32_t first = 0; first < lanes; first += kBatch) {
    const uint32_t count = std::min(kBatch, lanes - first);
    if (!batched) {
      alone(first, count);
      continue;
    }
    if (RunBatch(batch, constants, inputs, callbacks, textures, first, count, results)) continue;
    // As the cpu path's pixel stage: each quad again on its own, then pixel by pixel.
    for (uint32_t q = first; q < first + count; q += 4) {
      if (!RunBatch(batch, constants, inputs, callbacks, textures, q, 4, results)) alone(q, 4);
    }
  }
  return results;
}

}  // namespace xnt::vk::check
