// Choices a user makes for a replay that every render path honours (or refuses by name).
#pragma once

#include <cstdint>

namespace xnt::gpu {

// How k_8_8_8_8_GAMMA targets are emulated by a host-GPU path.
enum class GammaMode : uint32_t {
  kExact = 0,  // UNORM host target; the pixel shader converts linear -> PWL before blending
  kSrgb = 1,   // SRGB host target: blending in linear space, sRGB curve instead of PWL (approx.)
};

struct RendererOptions {
  GammaMode gamma = GammaMode::kExact;
  // Resolution scale per axis (host pixels per guest pixel, 1..3 on every path; a session
  // refuses anything else with CheckResolutionScale's words).
  uint32_t scale_x = 1, scale_y = 1;
  // EDRAM ownership transfers on the GPU where the path can (off: through the CPU model).
  bool gpu_transfers = true;
};

}  // namespace xnt::gpu
