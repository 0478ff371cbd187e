// renderer/session.h: the one way commands and tests make a render path. Names round-trip, paths
// and options that cannot run are refused by name before anything is created, and an fbo session
// on lavapipe replays a sample to its expected image with its EDRAM log reachable.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "replay_helpers.h"
#include "xnt/base/error.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/format/reader.h"
#include "xnt/samples/samples.h"
#include "xnt/vk/draw_pipeline_list.h"
#include "xnt/vk/translator/spirv_cache.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/vulkan_context.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

// `sample` written as `file_name` in the renderer tests' work folder.
std::string WrittenSample(const samples::Sample& sample, const char* file_name) {
  const auto file = ::xnt::test::TestWorkDir("renderer") / file_name;
  std::filesystem::create_directories(file.parent_path());
  samples::WriteSample(sample, file.string());
  return file.string();
}

std::string CreateError(const renderer::SessionOptions& options) {
  try {
    renderer::Session::Create(options);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(Session, PathNamesRoundTrip) {
  for (const std::string& name : renderer::PathNames()) {
    auto path = renderer::ParsePath(name);
    ASSERT_TRUE(path.has_value()) << name;
    EXPECT_EQ(renderer::PathName(*path), name);
  }
  EXPECT_FALSE(renderer::ParsePath("gl").has_value());
  EXPECT_FALSE(renderer::ParsePath("").has_value());
}

TEST(Session, PathsAndScalesThatCannotRunAreRefusedByName) {
  renderer::SessionOptions o;
  o.path = renderer::Path::kFsi;
  {
    // On a device without fragment shader interlock (lavapipe) the fsi path is refused naming
    // the feature: its unordered test mode must be asked for by name (fsi_unordered).
    test::UseLavapipe();
    const std::string e = CreateError(o);
    if (!e.empty()) {
      EXPECT_NE(e.find("lacks VK_EXT_fragment_shader_interlock"), std::string::npos) << e;
    }
  }
  o.path = renderer::Path::kFbo;
  o.renderer.scale_y = 2;
  o.renderer.scale_x = 4;
  EXPECT_EQ(CreateError(o), std::string(ResolutionScaleError("4x2").what()));
  o.renderer.scale_x = 0;
  EXPECT_EQ(CreateError(o), std::string(ResolutionScaleError("0x2").what()));
  o = {};
  o.path = renderer::Path::kCpu;
  o.dump_shaders_dir = "/tmp/x";
  EXPECT_NE(CreateError(o).find("the cpu path translates no shaders"), std::string::npos);
}

TEST(Session, FboSessionReplaysASampleToItsExpectedImage) {
  const samples::Sample* sample = samples::Find("edram_depth_evict_8888");
  ASSERT_NE(sample, nullptr);
  gpu::SwapImage last;
  uint64_t frames_ended = 0;
  renderer::SessionOptions options;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { last = image; };
  options.on_frame_end = [&](const replay::FrameEndCall&) { ++frames_ended; };
  auto session = test::MakeLavapipeSession(options);
  EXPECT_EQ(session->path(), renderer::Path::kFbo);
  EXPECT_FALSE(session->device_name().empty());
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  const std::string file = WrittenSample(*sample, "session.xnt");
  player.Play(*format::Reader::Open(file));
  session->Flush();
  EXPECT_EQ(session->validation_message_count(), 0u) << test::ValidationReport(*session);
  EXPECT_GE(frames_ended, 1u);
  ASSERT_TRUE(sample->expected_image);
  const samples::Image expected = sample->expected_image();
  ASSERT_EQ(last.width, expected.width);
  ASSERT_EQ(last.height, expected.height);
  EXPECT_EQ(std::memcmp(last.rgba.data(), expected.rgba.data(), expected.rgba.size()), 0);
  // The depth buffer read as k_8_8_8_8 and back: the tracker logged the ownership transfers, and
  // frame numbers follow the trace (the session advances them at each frame end).
  ASSERT_NE(session->edram(), nullptr);
  EXPECT_FALSE(session->edram()->log().empty());
  EXPECT_EQ(session->edram()->frame(), frames_ended);
  EXPECT_GT(session->stats().draws, 0u);
}

struct FboRun {
  gpu::SwapImage frame;  // the last
  std::optional<uint64_t> made_ahead;
};
// Replays `file` in an fbo session made with `options` (validation on); the session has ended
// when it returns.
FboRun ReplayOnFbo(const std::string& file, renderer::SessionOptions options) {
  FboRun run;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { run.frame = image; };
  auto session = test::MakeLavapipeSession(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*format::Reader::Open(file));
  session->Flush();
  EXPECT_EQ(session->validation_message_count(), 0u) << test::ValidationReport(*session);
  run.made_ahead = session->pipelines_made_ahead();
  return run;
}
gpu::SwapImage ReplayOnFbo(const std::string& file, bool keep_device) {
  renderer::SessionOptions options;
  options.keep_device = keep_device;
  return ReplayOnFbo(file, options).frame;
}

// What a session made stays with its device for the next session of its kind: the second replay
// of a textured sample makes no pipeline (draws, texture loads, resolves all found kept) and
// draws the same frame as a session on a device of its own.
TEST(Session, AnEndedSessionsDeviceServesTheNextWithThePipelinesItMade) {
  const samples::Sample* sample = samples::Find("corpus_vs20pos2tex2clr42d360_pstex2clr4360");
  ASSERT_NE(sample, nullptr);
  const std::string file = WrittenSample(*sample, "kept_device.xnt");
  VulkanContext::DropKept();
  ContextOptions kind;  // what MakeLavapipeSession asks for
  kind.validate = true;
  kind.synchronization_validation = true;

  const gpu::SwapImage first = ReplayOnFbo(file, true);
  auto context = VulkanContext::Take(kind);
  const VkDevice device = context->device();
  const uint64_t made = context->kept().pipelines_made();
  const uint64_t found = context->kept().pipelines_found();
  EXPECT_GE(made, 2u);  // at least the draw's and the texture loader's
  VulkanContext::Keep(std::move(context));

  const gpu::SwapImage second = ReplayOnFbo(file, true);
  context = VulkanContext::Take(kind);
  EXPECT_EQ(context->device(), device);
  EXPECT_EQ(context->kept().pipelines_made(), made);
  EXPECT_GE(context->kept().pipelines_found(), found + 2);
  VulkanContext::Keep(std::move(context));

  const gpu::SwapImage own = ReplayOnFbo(file, false);
  ASSERT_GT(first.width, 0u);
  for (const gpu::SwapImage* image : {&second, &own}) {
    ASSERT_EQ(image->width, first.width);
    ASSERT_EQ(image->height, first.height);
    EXPECT_EQ(image->rgba, first.rgba);
  }
  // keep_device off neither took the kept device nor gave its own back.
  context = VulkanContext::Take(kind);
  EXPECT_EQ(context->device(), device);
  EXPECT_EQ(context->kept().pipelines_made(), made);
  VulkanContext::DropKept();
}

// The draw pipelines a replay asked for are listed in the shader cache folder under the trace's
// id; the next session with that id (on a device of its own, as a new process) makes every one on
// worker threads before its draws ask, and draws the same frame. A damaged list is ignored and
// written anew.
TEST(Session, TheNextReplayOfATraceMakesItsListedPipelinesAhead) {
  const samples::Sample* sample = samples::Find("texfetch_lod_queries");
  ASSERT_NE(sample, nullptr);
  const std::string file = WrittenSample(*sample, "pipeline_list.xnt");
  const std::string id = "session-test-" + std::to_string(::getpid());
  const std::filesystem::path folder = SpirvCacheDirectory();
  ASSERT_FALSE(folder.empty());  // test_env.cpp sets the tests' cache folder
  auto list_file = [&]() -> std::filesystem::path {
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
      if (e.path().filename().string().rfind("vk-draws-" + id + "-", 0) == 0) return e.path();
    }
    return {};
  };
  renderer::SessionOptions options;
  options.keep_device = false;
  options.pipeline_list_id = id;
  auto replay = [&] { return ReplayOnFbo(file, options); };  // its end writes the list
  auto read = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  };

  const FboRun first = replay();
  EXPECT_EQ(first.made_ahead, std::optional<uint64_t>(0));
  const std::filesystem::path path = list_file();
  ASSERT_FALSE(path.empty());
  const std::vector<uint8_t> written = read(path);
  const auto list = DecodeDrawPipelineList(written);
  ASSERT_TRUE(list);
  EXPECT_GE(list->pipelines.size(), 2u);  // the sample draws with several shader pairs

  const FboRun second = replay();
  // The workers start with the session; its first draw waits for the pipeline the first one
  // took. A draw may make one no worker reached yet, so at least one, at most all.
  ASSERT_TRUE(second.made_ahead);
  EXPECT_GE(*second.made_ahead, 1u);
  EXPECT_LE(*second.made_ahead, list->pipelines.size());
  EXPECT_EQ(second.frame.rgba, first.frame.rgba);
  EXPECT_EQ(read(path), written);  // the same pipelines: the file stays as it is

  std::vector<uint8_t> damaged = written;
  damaged.back() ^= 1;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(damaged.data()), std::streamsize(damaged.size()));
  }
  const FboRun third = replay();
  EXPECT_EQ(third.made_ahead, std::optional<uint64_t>(0));
  EXPECT_EQ(third.frame.rgba, first.frame.rgba);
  EXPECT_EQ(read(path), written);  // written anew
  std::filesystem::remove(path);

  // No id: no list, nothing made ahead.
  renderer::SessionOptions none;
  none.keep_device = false;
  EXPECT_EQ(test::MakeLavapipeSession(none)->pipelines_made_ahead(), std::optional<uint64_t>(0));
  EXPECT_TRUE(list_file().empty());
}

}  // namespace
}  // namespace xnt::vk
