// Guest constants into the ring part by part, only the rows read, only when changed (see
// guest_constants.h).
#include "xnt/vk/guest_constants.h"

#include <cstring>

#include "xnt/xenos/registers.h"

namespace xnt::vk {

GuestConstantUploads::GuestConstantUploads(uint64_t alignment) : alignment_(alignment) {}

void GuestConstantUploads::ReadRows(gpu::RegisterValues regs, uint32_t part, uint32_t first,
                                    uint32_t end, uint32_t* out) {
  for (uint32_t row = first; row < end; ++row) {
    // The register each row's first dword comes from: float constants in order (a pixel
    // shader's from register 256 x 4 on), then the fetch constants' 192 dwords, the 8 bool
    // dwords and the 32 loop dwords, which are separate register ranges (0x4800, 0x4900,
    // 0x4908).
    uint32_t reg;
    if (part == kXeVertexFloatConstants) {
      reg = xenos::kAluConstantBase + row * 4;
    } else if (part == kXePixelFloatConstants) {
      reg = xenos::kAluConstantBase + (256 + row) * 4;
    } else if (row < kXeBoolConstantsRow) {
      reg = xenos::kFetchConstantBase + row * 4;
    } else if (row < kXeLoopConstantsRow) {
      reg = xenos::kBoolConstantBase + (row - kXeBoolConstantsRow) * 4;
    } else {
      reg = xenos::kLoopConstantBase + (row - kXeLoopConstantsRow) * 4;
    }
    for (uint32_t i = 0; i < 4; ++i) *out++ = gpu::RegisterValue(regs, reg + i);
  }
}

GuestConstantBinding GuestConstantUploads::Place(gpu::RegisterValues regs,
                                                 const XeConstantReads& reads,
                                                 uint64_t submission, const Allocate& allocate) {
  GuestConstantBinding binding;
  for (uint32_t part = 0; part < kXeConstantPartCount; ++part) {
    const uint32_t first = reads.first[part], end = reads.end[part];
    Copy& last = last_[part];
    if (first >= end) {
      // Nothing read: the last copy's place keeps the binding as it was; 16 bytes at the ring's
      // start otherwise (any range inside the ring will do).
      if (last.submission == submission) {
        binding.offsets[part] = last.offset;
        binding.ranges[part] = last.range;
      }
      continue;
    }
    rows_.resize(size_t(end - first) * 4);
    ReadRows(regs, part, first, end, rows_.data());
    const bool same = last.submission == submission && last.first <= first && end <= last.end &&
                      std::memcmp(rows_.data(), last.dwords.data() + size_t(first - last.first) * 4,
                                  rows_.size() * 4) == 0;
    if (same) {
      ++parts_reused_;
    } else {
      PlacePart(part, first, end, submission, allocate);
    }
    binding.offsets[part] = last.offset;
    binding.ranges[part] = last.range;
  }
  return binding;
}

void GuestConstantUploads::PlacePart(uint32_t part, uint32_t first, uint32_t end,
                                     uint64_t submission, const Allocate& allocate) {
  const uint32_t range = RangeClass(end);
  const uint64_t range_bytes = RangeBytes(part, range);
  const uint64_t lead = uint64_t(first) * 16;  // bytes of the range before the first row read
  const uint64_t bytes = uint64_t(end - first) * 16;
  // Rows at an aligned offset plus lead % alignment, so the offset lead bytes before them is
  // aligned as a uniform buffer offset must be; the room runs to the range's end.
  const uint64_t skew = lead % alignment_;
  CommandStream::Allocation a = allocate(skew + range_bytes - lead, alignment_);
  uint64_t offset = a.offset + skew - lead;
  uint8_t* dst = a.data + skew;
  if (a.offset + skew < lead) {
    // So near the ring's start that the offset would fall before it: the whole range's room.
    a = allocate(range_bytes, alignment_);
    offset = a.offset;
    dst = a.data + lead;
  }
  std::memcpy(dst, rows_.data(), bytes);
  bytes_written_ += bytes;
  Copy& last = last_[part];
  last.submission = submission;
  last.offset = uint32_t(offset);
  last.range = uint8_t(range);
  last.first = first;
  last.end = end;
  last.dwords = rows_;
}

}  // namespace xnt::vk
