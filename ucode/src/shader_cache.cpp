// Decode-once cache (see shader_cache.h).
#include "xnt/ucode/shader_cache.h"

#include "xnt/base/error.h"

namespace xnt::ucode {

std::shared_ptr<const DecodedShader> ShaderCache::Get(uint64_t hash, ShaderType type,
                                                      std::span<const uint32_t> dwords) {
  // The type is part of the key: the same dwords decode differently as a pixel shader.
  const uint64_t key = hash * 2 + (type == ShaderType::kPixel ? 1 : 0);
  auto it = entries_.find(key);
  if (it != entries_.end()) return it->second;
  // Live shaders are held by their replay::Shader records, so dropping the map only costs
  // re-decoding on the next load.
  if (entries_.size() >= max_entries_) entries_.clear();
  auto d = std::make_shared<DecodedShader>();
  ++decodes_;
  try {
    d->shader = Decode(dwords, type);
  } catch (const Error& e) {
    d->decode_error = e.what();
  }
  if (d->decodes()) {
    try {
      d->analysis = Analyze(d->shader);
    } catch (const Error& e) {
      d->analysis_error = e.what();
    }
  }
  entries_.emplace(key, d);
  return d;
}

}  // namespace xnt::ucode
