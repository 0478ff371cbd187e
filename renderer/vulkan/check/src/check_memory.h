// translate --check, memexport: guest memory as the interpreter's lanes leave it, against the
// device's memory after the draw. The device runs the lanes in an order of its own, so a dword
// that two lanes write with different bits has no one expected value: it is counted as not
// compared (with why), as are stores outside the check's memory windows, which neither side keeps.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace xnt::vk::check {

class ExportedMemory {
 public:
  // `initial`: every binding's window (window_words dwords each) as uploaded.
  ExportedMemory(std::vector<std::vector<uint32_t>> initial, uint32_t window_words);

  // InterpreterCallbacks::write_memory for lane `lane` (lanes call it in lane order, each in
  // program order). Always true: a store outside the windows is dropped and counted, as the
  // translated shader drops a store past its binding's end.
  bool Write(uint32_t lane, uint32_t byte_address, uint32_t value, uint32_t mask);

  struct Mismatch {
    uint32_t byte_address = 0, gpu = 0, cpu = 0;
    uint32_t lane = 0;  // the last lane that stored there, ~0u: none (a stray store)
  };
  struct Result {
    uint64_t compared = 0;                           // dwords compared bit for bit
    std::map<std::string, uint64_t> not_compared;    // why -> dwords
    uint64_t mismatch_count = 0;
    std::vector<Mismatch> mismatches;                // the first four
  };
  // Every dword of every window: written ones against the lanes' values, the rest against the
  // initial contents (a stray store shows there).
  Result Compare(const std::vector<std::vector<uint32_t>>& gpu) const;

  // Whether some lane stored to one of these binding-0 dword indices (vertex fetch reads).
  bool AnyStoredTo(const std::vector<uint32_t>& binding0_dwords) const;

 private:
  struct Word {
    uint32_t written = 0;  // bits some lane wrote
    uint32_t last_lane = 0;
    bool conflict = false;
  };
  std::vector<std::vector<uint32_t>> expected_;
  uint32_t window_words_;
  std::map<uint64_t, Word> words_;  // binding << 32 | dword index
  uint64_t outside_ = 0;
};

}  // namespace xnt::vk::check
