// The body of a listing written line by line for the random shader generators: an exec clause
// holds at most six ALU or fetch instructions, so a seventh starts a new `exec` first.
#pragma once

#include <cstdint>
#include <string>

namespace xnt::vk::test {

struct ListingLines {
  std::string body;
  uint32_t in_exec = 0;

  void operator()(const std::string& l) {
    const bool exec = l.rfind("exec", 0) == 0, cf = exec || l.rfind("alloc", 0) == 0;
    if (!cf && in_exec == 6) {
      body += "    exec\n";
      in_exec = 0;
    }
    in_exec = exec ? 0 : in_exec + (cf ? 0 : 1);
    body += "    " + l + "\n";
  }
};

}  // namespace xnt::vk::test
