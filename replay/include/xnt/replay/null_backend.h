// A backend that only counts what it is given: for tests, `info`-style statistics and the fuzzer.
#pragma once

#include <array>
#include <cstdint>

#include "xnt/replay/backend.h"

namespace xnt::replay {

class NullBackend : public Backend {
 public:
  struct Counts {
    uint64_t draws = 0;
    uint64_t indexed_draws = 0;  // DMA or immediate indices
    uint64_t indices = 0;        // sum of num_indices over draws
    uint64_t resolves = 0;
    uint64_t memexports = 0;
    uint64_t swaps = 0;
    uint64_t events = 0;
    std::array<uint64_t, 16> events_by_kind{};
    uint64_t edram_snapshots = 0;
    uint64_t gamma_ramps = 0;
    uint64_t memory_writes = 0;
    uint64_t memory_bytes_written = 0;
    uint64_t frames = 0;
  };

  void OnDraw(const DrawCall& draw) override;
  void OnResolve(const ResolveCall&) override { ++counts_.resolves; }
  void OnMemExport(const MemExportCall&) override { ++counts_.memexports; }
  void OnSwap(const SwapCall&) override { ++counts_.swaps; }
  void OnEvent(const EventCall& event) override;
  void OnEdramSnapshot(std::span<const uint8_t>) override { ++counts_.edram_snapshots; }
  void OnGammaRamp(const format::GammaRamp&) override { ++counts_.gamma_ramps; }
  void OnMemoryWritten(uint32_t, uint32_t size) override {
    ++counts_.memory_writes;
    counts_.memory_bytes_written += size;
  }
  void OnFrameEnd(const FrameEndCall&) override { ++counts_.frames; }

  const Counts& counts() const { return counts_; }

 private:
  Counts counts_;
};

}  // namespace xnt::replay
