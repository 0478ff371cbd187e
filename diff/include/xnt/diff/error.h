// Error type of the diff library. diff/ depends on nothing else of ours (DESIGN.md), so it has its
// own exception rather than xnt::Error; it derives from std::runtime_error, which is what the CLI
// catches at the top (exit code 2). Messages name the file and, where one exists, the byte offset.
#pragma once

#include <stdexcept>
#include <string>

namespace xnt::diff {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace xnt::diff
