// Synthetic capture content for the format benchmark (synthetic_trace.h).
#include "synthetic_trace.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace xnt::bench {
namespace {

// splitmix64: fast, deterministic, good enough to make bytes zstd cannot shrink.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// A DXT1-like texture: 8-byte blocks of two RGB565 endpoints that drift smoothly across the
// image plus 2-bit indices that are mostly noise — compresses roughly 1.3-2x, like real
// block-compressed textures.
void FillTexture(uint8_t* out, uint32_t bytes, uint64_t seed) {
  Rng rng{seed};
  uint16_t c0 = uint16_t(rng.Next()), c1 = uint16_t(rng.Next());
  for (uint32_t i = 0; i + 8 <= bytes; i += 8) {
    if ((i & 511) == 0) {
      c0 = uint16_t(c0 + (rng.Next() & 0x0841));
      c1 = uint16_t(c1 + (rng.Next() & 0x0821));
    }
    uint64_t r = rng.Next();
    uint32_t indices = uint32_t(r) & uint32_t(r >> 32);  // biased bits: partly compressible
    std::memcpy(out + i, &c0, 2);
    std::memcpy(out + i + 2, &c1, 2);
    std::memcpy(out + i + 4, &indices, 4);
  }
}

}  // namespace

SyntheticTrace::SyntheticTrace(uint64_t pool_bytes, uint64_t frame_bytes) : frame_bytes_(frame_bytes) {
  texture_count_ = uint32_t(std::max<uint64_t>(8, pool_bytes / kTextureBytes));
  pool_.resize(uint64_t(texture_count_) * kTextureBytes);
  for (uint32_t t = 0; t < texture_count_; ++t) {
    FillTexture(pool_.data() + uint64_t(t) * kTextureBytes, kTextureBytes, 0x7E47 + t);
  }
}

uint64_t SyntheticTrace::LogicalBytes(const SyntheticFrame& f) {
  return (f.pm4.size() + f.ib.size() + f.registers.size()) * 4 + f.vertices.size() +
         uint64_t(f.texture_ids.size()) * kTextureBytes;
}

SyntheticFrame SyntheticTrace::MakeFrame(uint32_t index) const {
  Rng rng{0xF00D0000ull + index};
  SyntheticFrame f;
  // Budget: ~60% texture reads (mostly repeats), ~30% vertices, the rest PM4 and registers.
  uint64_t textures = std::max<uint64_t>(1, frame_bytes_ * 6 / 10 / kTextureBytes);
  // A slowly moving working set: most textures of frame n were read in frame n-1.
  for (uint64_t t = 0; t < textures; ++t) {
    f.texture_ids.push_back(uint32_t((index / 4 + t * 7) % texture_count_));
  }
  // Vertex data: float3 positions along a mesh with small per-frame animation, float2 UVs.
  uint64_t vertex_bytes = (frame_bytes_ * 3 / 10) & ~uint64_t(19);
  f.vertices.resize(vertex_bytes);
  float phase = float(index) * 0.01f;
  for (uint64_t v = 0; v + 20 <= vertex_bytes; v += 20) {
    float i = float(v / 20);
    float attr[5] = {std::sin(i * 0.001f + phase) * 100.0f, std::cos(i * 0.0013f) * 100.0f,
                     float(rng.Next() & 0xFFFF) * (1.0f / 65536.0f), std::fmod(i * 0.0625f, 1.0f),
                     float(index & 255) / 255.0f};
    std::memcpy(f.vertices.data() + v, attr, 20);
  }
  // PM4: SET_CONSTANT runs of shader constants and draws (type-3 headers with real opcodes:
  // Xenia src/xenia/gpu/xenos.h PM4_SET_CONSTANT = 0x2D, PM4_DRAW_INDX = 0x22).
  uint64_t pm4_dwords = std::max<uint64_t>(64, frame_bytes_ / 10 / 4 * 9 / 10);
  f.pm4.reserve(pm4_dwords);
  while (f.pm4.size() + 20 <= pm4_dwords) {
    uint32_t count = 16;
    f.pm4.push_back((3u << 30) | ((count) << 16) | (0x2Du << 8));
    f.pm4.push_back(0x00004000u | uint32_t(rng.Next() & 0x3F0));
    for (uint32_t k = 1; k < count; ++k) {
      float c = float(rng.Next() & 0xFF) * 0.25f + float(index);
      uint32_t bits;
      std::memcpy(&bits, &c, 4);
      f.pm4.push_back(bits);
    }
    f.pm4.push_back((3u << 30) | (1u << 16) | (0x22u << 8));
    f.pm4.push_back(0);
    f.pm4.push_back(uint32_t(rng.Next() & 0xFFFF) << 16 | 0x84);
  }
  f.ib.assign(f.pm4.begin(), f.pm4.begin() + f.pm4.size() / 8);
  uint64_t reg_count = std::max<uint64_t>(64, frame_bytes_ / 10 / 4 / 10);
  f.registers.resize(reg_count);
  for (uint64_t r = 0; r < reg_count; ++r) {
    f.registers[r] = (r % 7 == 0) ? uint32_t(rng.Next()) : uint32_t(r * 0x10001u);
  }
  return f;
}

}  // namespace xnt::bench
