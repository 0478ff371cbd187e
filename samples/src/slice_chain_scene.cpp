// Five frames, each drawn from the one before through a resolved texture: frame k clears the
// target to magenta, draws the texture frame k - 1 resolved over the whole target, adds stripe k,
// resolves the target to that texture again and presents it. Every frame after the first shows
// what earlier frames left in guest memory, so a replay that starts at frame k (a slice) must
// carry the texture resolved before the cut; the magenta clear shows where it does not.
#include "edram_scenarios.h"
#include "edram_scene_builder.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

constexpr uint32_t kWidth = 64, kHeight = 32, kStripe = 12, kFrames = 5;
constexpr std::array<uint8_t, 4> kMagenta = {255, 0, 255, 255};

Rgba StripeColor(uint32_t k) { return C8(40 + 50 * k, 200 - 35 * k, 60 + 40 * (k % 3)); }
Rect Stripe(uint32_t k) {
  return {float(k * kStripe) - 0.25f, -0.25f, float((k + 1) * kStripe) - 0.25f,
          float(kHeight) - 0.25f, 0.0f, StripeColor(k)};
}

EdramScenario ResolveChain() {
  auto build = [](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = kWidth;
    s.Target(rt, kWidth, kHeight);
    const auto fetch = capture::TextureFetch2D(kTexture, kWidth, kHeight,
                                               TextureFormat::k_8_8_8_8, true,
                                               xenos::Endian::k8in32);
    for (uint32_t k = 0; k < kFrames; ++k) {
      s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .clear_color = true,
                            .clear_color_value = Packed8888(k ? kMagenta : kDark)});
      // With the half-pixel offset the quad's edges 0.6 before pixel boundaries fall 0.1 before
      // them on screen: off host pixel centres at every scale.
      if (k) s.DrawTextured(0, 0, kWidth, kHeight, kWidth, kHeight, fetch, {}, 0.6f);
      s.Draw(Stripe(k));
      s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .dest = kTexture});
      s.Present(kFrontA, kWidth, kHeight);
    }
  };
  auto frames = [] {
    std::vector<Image> out;
    Image img = Fill(kWidth, kHeight, kDark);
    for (uint32_t k = 0; k < kFrames; ++k) {
      Paint(img, Stripe(k), U8(StripeColor(k)));
      out.push_back(img);
    }
    return out;
  };
  return {MakeSample("slice_resolve_chain_5_frames",
                     "five frames, each clearing to magenta, drawing the texture the previous "
                     "frame resolved over the whole 64x32 target (point-sampled 1:1), adding a "
                     "12-pixel stripe and resolving the target to that texture again",
                     "frame k, 64x32: stripes 0..k at x 12j..12j+11 in (40+50j, 200-35j, "
                     "60+40(j%3)), the rest dark (16,24,32); no magenta anywhere. All pixels "
                     "exact.",
                     build, frames),
          frames, 0, "one target at tile 0 throughout", ""};
}

}  // namespace

std::vector<EdramScenario> SliceChainScenarios() { return {ResolveChain()}; }

}  // namespace xnt::samples
