// VK_EXT_debug_utils labels and object names (renderer/vulkan debug_labels.h) on fbo and fsi,
// replaying samples on lavapipe with the validation layer (synchronization validation included;
// any message fails). What was labelled and named is observed through vk::SetDebugLabelObserver,
// which DebugLabels calls after each Vulkan label/name call: a layer-free count, since the
// validation layer only shows labels inside the messages it reports and a clean replay reports
// none. That the labels reach a real frame debugger is renderdoc_capture_test.sh's part.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "test_env.h"
#include "xnt/format/reader.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "xnt/vk/debug_labels.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

struct Observed {
  std::vector<std::string> begun;  // kBegin texts, in order
  uint32_t ended = 0;
  std::vector<std::string> inserted;
  std::vector<std::pair<VkObjectType, std::string>> names;
};

std::mutex g_mutex;
Observed g_observed;

void Observe(DebugLabelCall call, VkObjectType type, const char* text) {
  std::lock_guard<std::mutex> lock(g_mutex);
  switch (call) {
    case DebugLabelCall::kBegin: g_observed.begun.emplace_back(text); break;
    case DebugLabelCall::kEnd: ++g_observed.ended; break;
    case DebugLabelCall::kInsert: g_observed.inserted.emplace_back(text); break;
    case DebugLabelCall::kObjectName: g_observed.names.emplace_back(type, text); break;
  }
}

struct Replay {
  Observed observed;
  gpu::SwapImage image;
  // "vs HASH ps HASH" of each draw as the player handed it to the path, in order.
  std::vector<std::string> draw_shaders;
};

Replay ReplaySample(const char* name, renderer::Path path, bool labels) {
  const samples::Sample* sample = samples::Find(name);
  EXPECT_NE(sample, nullptr) << name;
  if (!sample) return {};
  const auto file = ::xnt::test::TestWorkDir("renderer") / (std::string("labels_") + name + ".xnt");
  std::filesystem::create_directories(file.parent_path());
  samples::WriteSample(*sample, file.string());
  test::UseLavapipe();
  Replay out;
  renderer::SessionOptions options;
  options.path = path;
  options.fsi_unordered = path == renderer::Path::kFsi;  // lavapipe has no interlock
  options.validate = true;
  options.synchronization_validation = true;
  options.debug_labels = labels;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { out.image = image; };
  options.on_draw_event = [&](const renderer::DrawEvent& e) {
    if (e.after || e.resolve) return;
    char text[64];
    std::snprintf(text, sizeof(text), "vs %016" PRIx64 " ps %016" PRIx64,
                  e.draw->vertex_shader->hash, e.draw->pixel_shader->hash);
    out.draw_shaders.emplace_back(text);
  };
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_observed = {};
  }
  SetDebugLabelObserver(&Observe);
  {
    auto session = renderer::Session::Create(options);
    replay::TracePlayer player(session->backend());
    session->Attach(player);
    player.Play(*format::Reader::Open(file.string()));
    session->Flush();
    EXPECT_EQ(session->validation_message_count(), 0u);
  }
  SetDebugLabelObserver(nullptr);
  std::lock_guard<std::mutex> lock(g_mutex);
  out.observed = g_observed;
  return out;
}

bool Named(const Observed& o, VkObjectType type, const std::string& name) {
  for (const auto& [t, n] : o.names) {
    if (t == type && n == name) return true;
  }
  return false;
}

// clear_draws_resolve_swap: resolve 0.0 clears the 320x240 k_8_8_8_8 target at EDRAM base 0
// (pitch 320) while copying it to 0x00300000, draws 0.1-0.3, resolve 0.4 copies the frame to
// the front buffer at 0x00200000, one swap of 320x240.
std::vector<std::string> ExpectedFrameLabels(const Replay& r, const std::string& clear) {
  EXPECT_EQ(r.draw_shaders.size(), 3u);
  if (r.draw_shaders.size() != 3) return {};
  return {"resolve 0.0 to 0x00300000 k_8_8_8_8 + colour clear",
          clear,
          "draw 0.1 " + r.draw_shaders[0],
          "draw 0.2 " + r.draw_shaders[1],
          "draw 0.3 " + r.draw_shaders[2],
          "resolve 0.4 to 0x00200000 k_8_8_8_8",
          "swap frame 0 front buffer 320x240"};
}

TEST(DebugLabels, FboLabelsEveryGuestEventAndNamesTheTargets) {
  const Replay r = ReplaySample("clear_draws_resolve_swap", renderer::Path::kFbo, true);
  EXPECT_EQ(r.observed.begun, ExpectedFrameLabels(r, "colour clear"));
  EXPECT_EQ(r.observed.ended, r.observed.begun.size()) << "every region is closed";
  EXPECT_TRUE(Named(r.observed, VK_OBJECT_TYPE_IMAGE,
                    "colour target EDRAM base 0 pitch 320 k_8_8_8_8 1x"));
  EXPECT_TRUE(Named(r.observed, VK_OBJECT_TYPE_BUFFER,
                    "ring (per-submission uploads, constants, indices, readbacks)"));
  EXPECT_TRUE(Named(r.observed, VK_OBJECT_TYPE_BUFFER,
                    "shared memory (guest memory mirror, 512 MiB)"));
}

TEST(DebugLabels, FsiLabelsTheSameEventsAndNamesTheEdramBuffer) {
  const Replay r = ReplaySample("clear_draws_resolve_swap", renderer::Path::kFsi, true);
  EXPECT_EQ(r.observed.begun,
            ExpectedFrameLabels(r, "colour clear (compute on the EDRAM buffer)"));
  EXPECT_EQ(r.observed.ended, r.observed.begun.size());
  EXPECT_TRUE(Named(r.observed, VK_OBJECT_TYPE_BUFFER, "EDRAM buffer"));
}

// scale_resolve_texture_2x2: the scene's top-left 64x32 is resolved (k_8_8_8_8) to 0x00400000
// by resolve 0.5 and drawn back from there by draw 0.6: the texture is named by that address,
// format and size. The resolve ends its submission (its bytes are read back), so the draw's
// submission starts with the texture's bytes in the mirror and loads it ahead of its commands:
// the upload is a region inside the submission's "texture loads ahead" one, recorded when the
// submission ends, after the draw's region.
TEST(DebugLabels, TexturesAreNamedByGuestAddressFormatAndSize) {
  const Replay r = ReplaySample("scale_resolve_texture_2x2", renderer::Path::kFbo, true);
  EXPECT_TRUE(Named(r.observed, VK_OBJECT_TYPE_IMAGE,
                    "texture 0x00400000 k_8_8_8_8 64x32x1, 1 level(s)"));
  const std::vector<std::string>& b = r.observed.begun;
  size_t draw = b.size(), load = b.size();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i].rfind("draw 0.6 ", 0) == 0) draw = i;
    if (b[i] == "texture load 0x00400000 k_8_8_8_8 64x32") load = i;
  }
  ASSERT_LT(draw, b.size());
  ASSERT_LT(load, b.size());
  ASSERT_GT(load, draw);
  EXPECT_EQ(b[load - 1], "texture loads ahead of the submission: 1");
  EXPECT_EQ(r.observed.ended, r.observed.begun.size());
}

// edram_depth_evict_8888: frame 1's draw 1.1 reads the k_8_8_8_8 tiles at base 0 as kD24S8, an
// ownership transfer inside the draw's region.
TEST(DebugLabels, EdramTransfersAreLabelledInsideTheirDraw) {
  const Replay r = ReplaySample("edram_depth_evict_8888", renderer::Path::kFbo, true);
  const std::vector<std::string>& b = r.observed.begun;
  size_t draw = b.size(), transfer = b.size();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i].rfind("draw 1.1 ", 0) == 0) draw = i;
    if (b[i].rfind("EDRAM transfer k_8_8_8_8@0 p80/1t 1x -> kD24S8@0 p80/1t 1x", 0) == 0) {
      transfer = i;
    }
  }
  ASSERT_LT(draw, b.size());
  ASSERT_LT(transfer, b.size());
  EXPECT_EQ(transfer, draw + 1) << "the transfer the draw caused, nested in it";
}

TEST(DebugLabels, OffByDefaultAndTheFrameIsTheSame) {
  const Replay off = ReplaySample("clear_draws_resolve_swap", renderer::Path::kFbo, false);
  EXPECT_TRUE(off.observed.begun.empty());
  EXPECT_EQ(off.observed.ended, 0u);
  EXPECT_TRUE(off.observed.names.empty());
  const Replay on = ReplaySample("clear_draws_resolve_swap", renderer::Path::kFbo, true);
  ASSERT_EQ(off.image.width, 320u);
  EXPECT_EQ(on.image.width, off.image.width);
  EXPECT_EQ(on.image.height, off.image.height);
  EXPECT_TRUE(on.image.rgba == off.image.rgba) << "labels change no pixel";
}

}  // namespace
}  // namespace xnt::vk
