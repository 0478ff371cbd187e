// The cpu path's texture unit: tfetch from guest memory through gpu::TexelReader, with the fetch
// constant's address modes, border colour and filters (the instruction's filter overrides win),
// unnormalised coordinates and offsets, then the fetch constant's sign bias / PWL gamma and
// exponent adjust (the interpreter applies the swizzle). What the fbo path's translator does,
// in the same order, so the two paths can be compared.
//
// Without derivatives (one pixel at a time) the level of detail is 0: the base level, sampled
// with the magnification filter; a texture with mips says so in a note. Cube fetches read the
// face the `cube` instruction selected, clamped to its edges.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xnt/gpu/texel_reader.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/xenos/enums.h"

namespace xnt::cpu {

class TextureUnit {
 public:
  TextureUnit(const replay::RegisterFile& regs, const replay::GuestMemory* memory,
              std::map<std::string, uint64_t>& notes);

  // The interpreter's texture_fetch callback.
  ucode::Float4 Fetch(uint32_t slot, const ucode::Float4& coords, const ucode::FetchInstruction& f);

 private:
  struct Slot {
    std::string error;  // non-empty: not sampleable (why)
    xenos::TextureFetchConstant fetch{};
    std::unique_ptr<gpu::TexelReader> reader;
    // Decoded base-level texels, filled 8x8 texels at a time on first touch (a texture cache:
    // untiling and decoding once per texel instead of once per fetch; the values are the
    // reader's). Empty when the level is too large to keep or a texel does not decode.
    uint32_t blocks_x = 0, blocks_y = 0;
    bool cacheable = false;
    std::vector<std::vector<ucode::Float4>> texels;  // per layer, width * height
    std::vector<std::vector<uint8_t>> block_ready;  // per layer, blocks_x * blocks_y
  };
  Slot& Get(uint32_t slot);
  ucode::Float4 TexelAt(Slot& s, int32_t x, int32_t y, uint32_t layer);
  const ucode::Float4* Cached(Slot& s, uint32_t x, uint32_t y, uint32_t layer);
  void Note(const std::string& what) { ++notes_[what]; }

  const replay::RegisterFile& regs_;
  const replay::GuestMemory* memory_;
  std::map<std::string, uint64_t>& notes_;
  std::array<std::unique_ptr<Slot>, 32> slots_;
};

}  // namespace xnt::cpu
