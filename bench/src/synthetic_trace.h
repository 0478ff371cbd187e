// Synthetic capture content for the format benchmark: deterministic, cheap to generate, and
// shaped like a real Xenos capture (private to bench/src).
#pragma once

#include <cstdint>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::bench {

struct SyntheticFrame {
  std::vector<uint32_t> pm4;            // one ring-buffer submission
  std::vector<uint32_t> ib;             // one indirect buffer
  std::vector<uint8_t> vertices;        // unique per frame (CPU-written vertex data)
  std::vector<uint32_t> texture_ids;    // textures of the pool the GPU reads this frame
  std::vector<uint32_t> registers;      // register-file snapshot
};

class SyntheticTrace {
 public:
  static constexpr uint32_t kTextureBytes = 256 * 1024;
  static constexpr uint32_t kTextureBase = 0x04000000;  // guest physical address of texture 0
  static constexpr uint32_t kVertexBase = 0x10000000;

  // Texture pool of `pool_bytes`; frames sized to about `frame_bytes` of logical payload.
  SyntheticTrace(uint64_t pool_bytes, uint64_t frame_bytes);
  SyntheticFrame MakeFrame(uint32_t index) const;
  const uint8_t* texture(uint32_t id) const { return pool_.data() + uint64_t(id) * kTextureBytes; }
  uint32_t texture_count() const { return texture_count_; }
  // Logical payload bytes of a frame (what a Writer is handed).
  static uint64_t LogicalBytes(const SyntheticFrame& f);

 private:
  uint32_t texture_count_;
  uint64_t frame_bytes_;
  std::vector<uint8_t> pool_;
};

}  // namespace xnt::bench
