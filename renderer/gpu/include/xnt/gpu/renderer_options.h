// Choices a user makes for a replay that every render path honours (or refuses by name).
#pragma once

#include <cstdint>

namespace xnt::gpu {

// How k_8_8_8_8_GAMMA targets are emulated by a host-GPU path.
enum class GammaMode : uint32_t {
  kExact = 0,  // UNORM host target; the pixel shader converts linear -> PWL before blending
  kSrgb = 1,   // SRGB host target: blending in linear space, sRGB curve instead of PWL (approx.)
};

// What a screen derivative measures at a resolution scale: the pixel of texture LOD, getGradients,
// getCompTexLOD and the filter choices that follow them (a stack's layer filter, getBCF), and of
// the polygon offset's depth slope.
//   kGuest: a guest pixel. The host's per-pixel differences are multiplied by the scale per axis
//           and textures are measured in guest texels (a resolve's scaled copy included), so every
//           fetch picks the level and footprint it picks at 1x: a scaled frame is the 1x frame
//           supersampled, and its guest-pixel-centre decimation is the 1x frame.
//   kHost:  a host pixel, as rendering at S x T the resolution does (Xenia's resolution scaling):
//           finer mips and smaller offsets, sharper textures than the guest's frame.
enum class ScaledDerivatives : uint32_t { kGuest = 0, kHost = 1 };
inline const char* ScaledDerivativesName(ScaledDerivatives d) {
  return d == ScaledDerivatives::kHost ? "host" : "guest";
}

struct RendererOptions {
  GammaMode gamma = GammaMode::kExact;
  // Resolution scale per axis (host pixels per guest pixel, 1..3 on every path; a session
  // refuses anything else with CheckResolutionScale's words).
  uint32_t scale_x = 1, scale_y = 1;
  ScaledDerivatives derivatives = ScaledDerivatives::kGuest;
  // EDRAM ownership transfers on the GPU where the path can (off: through the CPU model).
  bool gpu_transfers = true;
};

}  // namespace xnt::gpu
