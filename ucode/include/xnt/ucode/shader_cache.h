// Microcode decoded once. The command processor decodes each distinct shader when IM_LOAD brings
// it and every consumer — its own memexport analysis, a render path's translator or interpreter,
// the draw-extent estimate — reads the same DecodedShader through replay::Shader::decoded.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

#include "xnt/ucode/analysis.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

struct DecodedShader {
  Shader shader;
  Analysis analysis;
  std::string decode_error;    // non-empty: the microcode does not decode (why)
  std::string analysis_error;  // non-empty: it decodes but the analysis rejects it (why)
  bool decodes() const { return decode_error.empty(); }
  bool ok() const { return decode_error.empty() && analysis_error.empty(); }
  const std::string& error() const { return decode_error.empty() ? analysis_error : decode_error; }
};

// Decoded shaders keyed by the microcode hash (XXH3-64 of the big-endian dwords) and type.
class ShaderCache {
 public:
  explicit ShaderCache(size_t max_entries = 4096) : max_entries_(max_entries) {}
  // The decoded shader for `dwords`, decoding it on first sight. Never throws for bad microcode:
  // the entry's error() says why it does not decode or analyse.
  std::shared_ptr<const DecodedShader> Get(uint64_t hash, ShaderType type,
                                           std::span<const uint32_t> dwords);
  size_t size() const { return entries_.size(); }
  // Times the decoder ran (a test proves one decode per distinct microcode).
  uint64_t decodes() const { return decodes_; }

 private:
  size_t max_entries_;
  std::unordered_map<uint64_t, std::shared_ptr<const DecodedShader>> entries_;
  uint64_t decodes_ = 0;
};

}  // namespace xnt::ucode
