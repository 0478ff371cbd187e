// The cpu path's texture unit outside a replay (see texture_callbacks.h).
#include "xnt/cpu/texture_callbacks.h"

#include "texture_unit.h"
#include "xnt/base/error.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/xenos/registers.h"

namespace xnt::cpu {

// The register file and guest memory the texture unit reads, as a replay would hold them.
struct TextureCallbacks::State {
  replay::RegisterFile regs;
  replay::GuestMemory memory;
};

TextureCallbacks::TextureCallbacks(std::span<const uint32_t> fetch_constants, uint32_t address,
                                   std::span<const uint8_t> bytes)
    : state_(std::make_unique<State>()) {
  if (fetch_constants.size() != xenos::kTextureFetchConstantCount * 6) {
    throw Error("texture callbacks: " + std::to_string(fetch_constants.size()) +
                " fetch constant dwords, not 192");
  }
  for (uint32_t i = 0; i < fetch_constants.size(); ++i) {
    state_->regs.Set(xenos::kFetchConstantBase + i, fetch_constants[i]);
  }
  if (!bytes.empty()) state_->memory.Write(address, bytes);
  unit_ = std::make_unique<TextureUnit>(state_->regs, &state_->memory, notes_);
}

TextureCallbacks::~TextureCallbacks() = default;

void TextureCallbacks::Bind(ucode::InterpreterCallbacks& cb) {
  unit_->Bind(cb);
  // With quads (the batched interpreter's), implicit-LOD fetches take the quad's derivatives as
  // the pixel stage's do.
  cb.texture_fetch_gradients = [unit = unit_.get()](uint32_t slot, const ucode::Float4& coords,
                                                    const ucode::FetchInstruction& f,
                                                    const ucode::Float4& ddx, const ucode::Float4& ddy) {
    return unit->FetchGradients(slot, coords, f, ddx, ddy);
  };
}

}  // namespace xnt::cpu
