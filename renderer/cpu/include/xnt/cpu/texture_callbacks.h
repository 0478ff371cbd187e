// The cpu path's texture unit (renderer/cpu/src/texture_unit.h) as an interpreter's texture
// callbacks over 32 texture fetch constants and one range of guest memory, outside a replay: the
// cpu side of `shader translate --check` with real textures (renderer/vulkan/check), which samples
// exactly what a replay's cpu path would sample from the same fetch constants and memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>

#include "xnt/ucode/interpreter.h"

namespace xnt::cpu {

class TextureUnit;

class TextureCallbacks {
 public:
  // `fetch_constants`: the 192 dwords of the fetch constant area (texture slot s at 6 s);
  // `bytes` is guest memory from `address` on (the rest of the 512 MiB reads as zero).
  TextureCallbacks(std::span<const uint32_t> fetch_constants, uint32_t address,
                   std::span<const uint8_t> bytes);
  ~TextureCallbacks();
  TextureCallbacks(const TextureCallbacks&) = delete;
  TextureCallbacks& operator=(const TextureCallbacks&) = delete;

  // Sets texture_fetch, texture_fetch_gradients, texture_fetch_explicit and texture_size of `cb`
  // to this texture unit; valid while this object lives.
  void Bind(ucode::InterpreterCallbacks& cb);
  // What the texture unit noted (a fetch it could not sample, ...) -> how often.
  const std::map<std::string, uint64_t>& notes() const { return notes_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::map<std::string, uint64_t> notes_;
  std::unique_ptr<TextureUnit> unit_;
};

}  // namespace xnt::cpu
