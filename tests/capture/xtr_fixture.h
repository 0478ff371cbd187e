// A hand-made Xenia .xtr written byte by byte from the published layout (Xenia
// trace_protocol.h as), independent of
// capture/'s serializer, so import is checked against the specification and not against itself.
#pragma once

#include <cstdint>
#include <vector>

namespace xnt::test {

// legacy = the pre-November-2019 numbering: swap event = 8, and no EDRAM/register/gamma records.
// with_edram adds a 10 MiB EDRAM snapshot (about 480 KiB of snappy: too big to commit, so the
// committed fixture files are written without it).
std::vector<uint8_t> MakeHandmadeXtr(bool legacy, bool with_edram = false);

// Addresses and values the fixture uses, for the expectations.
struct HandmadeXtrFacts {
  static constexpr uint32_t kTitleId = 0x4D5307E6;
  static constexpr uint32_t kRingAddress = 0x00080000;
  static constexpr uint32_t kIbAddress = 0x00090000;
  static constexpr uint32_t kReadAddress = 0x00100000;
  static constexpr uint32_t kIbReadAddress = 0x00110000;
  static constexpr uint32_t kIbReadBytes = 2048;  // > 1024: stored snappy-compressed
  static constexpr uint32_t kFrontBuffer = 0x00200000;
  static constexpr uint32_t kEdramMarkerOffset = 12345;
};

}  // namespace xnt::test
