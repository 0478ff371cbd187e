// Error type shared by every Xenotrace library: a message plus, where known, the byte offset in
// the file (or the dword index in a stream) where the problem was found. Libraries throw it; the
// CLI catches it at the top and turns it into an exit code.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace xnt {

class Error : public std::runtime_error {
 public:
  static constexpr uint64_t kNoOffset = ~uint64_t(0);

  explicit Error(const std::string& message, uint64_t offset = kNoOffset)
      : std::runtime_error(offset == kNoOffset ? message : Describe(message, offset)),
        offset_(offset),
        bare_message_(message) {}

  uint64_t offset() const { return offset_; }
  const std::string& bare_message() const { return bare_message_; }

 private:
  static std::string Describe(const std::string& message, uint64_t offset) {
    return "at byte offset " + std::to_string(offset) + ": " + message;
  }
  uint64_t offset_;
  std::string bare_message_;
};

}  // namespace xnt
