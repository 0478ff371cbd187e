// Every bundled sample, written to a .xnt, read back and replayed on lavapipe with the validation
// layer on: zero validation messages, and where the sample states its expected front buffer
// (computed on the CPU from the scene parameters), every pixel must match exactly.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "replay_helpers.h"
#include "xnt/format/reader.h"
#include "xnt/samples/samples.h"
#include "test_files.h"

namespace xnt::vk {
namespace {

class SampleReplay : public ::testing::TestWithParam<std::string> {};

TEST_P(SampleReplay, MatchesExpectedImageWithoutValidationMessages) {
  const samples::Sample* sample = samples::Find(GetParam());
  ASSERT_NE(sample, nullptr);
  auto path = ::xnt::test::TestWorkDir("renderer") / ("sample_" + sample->name + ".xnt");
  std::filesystem::create_directories(path.parent_path());
  samples::WriteSample(*sample, path.string());
  auto reader = format::Reader::Open(path.string());
  auto result = test::ReplayRecords([&](const std::function<void(const format::Record&)>& apply) {
    // What TracePlayer::Play does, record by record.
    reader->ForEachRecord([&](const format::Record& r) {
      apply(r);
      return true;
    });
  });
  EXPECT_EQ(result.validation_messages, 0u) << result.validation_report;
  ASSERT_GE(result.swaps, 1u) << sample->name << " never swapped";
  EXPECT_EQ(result.stats.draws_skipped, sample->draws_skipped);
  if (!sample->expected_image) return;
  samples::Image expected = sample->expected_image();
  if (expected.rgba.empty()) return;
  ASSERT_EQ(result.last_image.width, expected.width);
  ASSERT_EQ(result.last_image.height, expected.height);
  uint64_t differ = 0;
  size_t first = SIZE_MAX;
  for (size_t i = 0; i < expected.rgba.size() / 4; ++i) {
    if (std::memcmp(&result.last_image.rgba[i * 4], &expected.rgba[i * 4], 4) != 0) {
      if (first == SIZE_MAX) first = i;
      ++differ;
    }
  }
  if (auto it = sample->differs_on.find("fbo"); it != sample->differs_on.end()) {
    // What the hardware does and this path cannot: the difference must still be there (else the
    // sample's note is stale).
    EXPECT_GT(differ, 0u) << sample->name << " now matches on fbo; remove: " << it->second;
    return;
  }
  EXPECT_EQ(differ, 0u) << sample->name << ": first differing pixel (" << first % expected.width
                        << ", " << first / expected.width << ")";
}

INSTANTIATE_TEST_SUITE_P(AllSamples, SampleReplay, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace xnt::vk
