#include "check_memory.h"

namespace xnt::vk::check {

ExportedMemory::ExportedMemory(std::vector<std::vector<uint32_t>> initial, uint32_t window_words)
    : expected_(std::move(initial)), window_words_(window_words) {}

bool ExportedMemory::Write(uint32_t lane, uint32_t byte_address, uint32_t value, uint32_t mask) {
  // The translated shader's binding choice (glsl_memexport.cpp xe_store_word): dword address bits
  // 25 and up pick one of the 128 MiB bindings, the rest index it.
  const uint32_t dword = byte_address >> 2;
  const uint32_t binding = dword >> 25, index = dword & 0x1FFFFFFu;
  if (binding >= expected_.size() || index >= window_words_) {
    ++outside_;
    return true;
  }
  Word& w = words_[(uint64_t(binding) << 32) | index];
  uint32_t& e = expected_[binding][index];
  // Another lane's bits overwritten with different ones: the device's lane order decides.
  if (lane != w.last_lane && ((e ^ value) & mask & w.written) != 0) w.conflict = true;
  e = (e & ~mask) | (value & mask);
  w.written |= mask;
  w.last_lane = lane;
  return true;
}

bool ExportedMemory::AnyStoredTo(const std::vector<uint32_t>& binding0_dwords) const {
  for (uint32_t i : binding0_dwords) {
    if (words_.count(i)) return true;
  }
  return false;
}

ExportedMemory::Result ExportedMemory::Compare(const std::vector<std::vector<uint32_t>>& gpu) const {
  Result r;
  if (outside_) r.not_compared["memexport stores outside the check's guest memory windows"] = outside_;
  for (size_t b = 0; b < expected_.size() && b < gpu.size(); ++b) {
    for (uint32_t i = 0; i < window_words_ && i < gpu[b].size(); ++i) {
      const auto it = words_.find((uint64_t(b) << 32) | i);
      if (it != words_.end() && it->second.conflict) {
        ++r.not_compared["a guest dword several lanes store different bits to (the device orders the lanes)"];
        continue;
      }
      ++r.compared;
      if (gpu[b][i] == expected_[b][i]) continue;
      ++r.mismatch_count;
      if (r.mismatches.size() >= 4) continue;
      Mismatch m;
      m.byte_address = uint32_t(((uint64_t(b) << 25) | i) << 2);
      m.gpu = gpu[b][i];
      m.cpu = expected_[b][i];
      m.lane = it != words_.end() ? it->second.last_lane : ~0u;
      r.mismatches.push_back(m);
    }
  }
  return r;
}

}  // namespace xnt::vk::check
