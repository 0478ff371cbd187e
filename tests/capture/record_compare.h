// Field-by-field description of records for test assertions: two record streams are equal when
// their descriptions are, and a mismatch prints the first differing record readably.
#pragma once

#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::test {

inline std::string HashBytes(const void* data, size_t n) {
  // FNV-1a, enough to tell contents apart in a test message.
  uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

struct DescribeOptions {
  bool memory_kind = true;       // .xtr keeps only read/write
  bool frame_index = true;
};

inline std::string Describe(const format::Record& r, const DescribeOptions& o = {}) {
  char buf[160];
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, format::Submission>) {
          std::snprintf(buf, sizeof(buf), "Submission kind=%d addr=%08x dwords=%zu ",
                        int(v.kind), v.guest_address, v.dwords.size());
          return buf + HashBytes(v.dwords.data(), v.dwords.size() * 4);
        } else if constexpr (std::is_same_v<T, format::MemoryEvent>) {
          int kind = int(v.kind);
          if (!o.memory_kind) kind = v.kind == format::MemoryEventKind::kGpuWrite ? 3 : 1;
          std::snprintf(buf, sizeof(buf), "Memory kind=%d addr=%08x bytes=%zu ", kind,
                        v.guest_address, v.bytes.size());
          return buf + HashBytes(v.bytes.data(), v.bytes.size());
        } else if constexpr (std::is_same_v<T, format::RegisterSnapshot>) {
          std::snprintf(buf, sizeof(buf), "Registers first=%04x count=%zu ", v.first_register,
                        v.values.size());
          return buf + HashBytes(v.values.data(), v.values.size() * 4);
        } else if constexpr (std::is_same_v<T, format::EdramSnapshot>) {
          return "Edram bytes=" + std::to_string(v.bytes.size()) + " " +
                 HashBytes(v.bytes.data(), v.bytes.size());
        } else if constexpr (std::is_same_v<T, format::GammaRamp>) {
          return "Gamma rw=" + std::to_string(v.rw_component) + " " +
                 HashBytes(v.table.data(), v.table.size() * 4) + " " +
                 HashBytes(v.pwl.data(), v.pwl.size() * 4);
        } else if constexpr (std::is_same_v<T, format::FrameMarker>) {
          std::snprintf(buf, sizeof(buf), "Frame index=%u fb=%08x %ux%u format=%u",
                        o.frame_index ? v.frame_index : 0u, v.front_buffer_address, v.width,
                        v.height, v.format);
          return buf;
        } else {
          return "Annotation " + v.label + ": " + v.text;
        }
      },
      r);
}

inline std::vector<std::string> DescribeAll(const std::vector<format::Record>& records,
                                            const DescribeOptions& o = {}) {
  std::vector<std::string> out;
  for (const auto& r : records) out.push_back(Describe(r, o));
  return out;
}

}  // namespace xnt::test
