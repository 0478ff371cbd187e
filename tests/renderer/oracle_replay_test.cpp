// Xenia's own frames as the oracle: the one-frame .xtr traces in ../shared/xenia-oracle are
// imported, replayed on lavapipe with validation, and compared with the PNG Xenia's trace dump
// wrote (RGB; Xenia forces alpha to 255, as the swap here does too).
#include <gtest/gtest.h>
#include <stb_image.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "replay_helpers.h"
#include "xnt/capture/xtr_import.h"
#include "prerequisite.h"

namespace xnt::vk {
namespace {

const std::filesystem::path kOracle = std::filesystem::path(XNT_SHARED_DIR) / "xenia-oracle";

test::ReplayResult ReplayXtr(const std::string& name) {
  std::ifstream in(kOracle / (name + ".xtr"), std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return test::ReplayRecords([&](const std::function<void(const format::Record&)>& apply) {
    capture::ImportXtr(bytes, [&](format::Record&& r) { apply(r); });
  });
}

struct Png {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
};
Png LoadPng(const std::string& name) {
  Png p;
  int channels = 0;
  stbi_uc* data = stbi_load((kOracle / (name + ".xenia.png")).c_str(), &p.width, &p.height,
                            &channels, 4);
  if (data) {
    p.rgba.assign(data, data + size_t(p.width) * size_t(p.height) * 4);
    stbi_image_free(data);
  }
  return p;
}

// Pixels whose RGB differ.
uint64_t DifferingPixels(const gpu::SwapImage& a, const Png& b) {
  uint64_t n = 0;
  for (size_t i = 0; i < a.rgba.size() / 4; ++i) {
    for (int c = 0; c < 3; ++c) {
      if (a.rgba[i * 4 + size_t(c)] != b.rgba[i * 4 + size_t(c)]) {
        ++n;
        break;
      }
    }
  }
  return n;
}

class OracleReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kOracle)) XNT_MISSING_PREREQUISITE() << kOracle << " is not present";
  }
};

void ExpectIdentical(const std::string& name) {
  auto r = ReplayXtr(name);
  Png expected = LoadPng(name);
  ASSERT_EQ(r.swaps, 1u);
  ASSERT_EQ(int(r.last_image.width), expected.width);
  ASSERT_EQ(int(r.last_image.height), expected.height);
  EXPECT_EQ(DifferingPixels(r.last_image, expected), 0u);
  EXPECT_EQ(r.validation_messages, 0u) << r.validation_report;
}

TEST_F(OracleReplay, TriangleFlatIsIdenticalToXenia) { ExpectIdentical("triangle_flat"); }
TEST_F(OracleReplay, ClearResolveTiledIsIdenticalToXenia) { ExpectIdentical("clear_resolve_tiled"); }
// A point-sampled 32x32-tiled k_8_8_8_8 texture on a quad: the texture cache's load from guest
// memory, the per-draw texture descriptor set and the fetch constant's swizzle, end to end.
TEST_F(OracleReplay, TexturedQuad8888TiledIsIdenticalToXenia) {
  ExpectIdentical("textured_quad_8888_tiled");
}

// 4x MSAA host targets (4-sample images) and the resolve's 4-sample average: the frame matches
// Xenia's pixel for pixel (it differed on every triangle edge with 1-sample targets).
TEST_F(OracleReplay, Msaa4xIsIdenticalToXenia) { ExpectIdentical("msaa_4x"); }

}  // namespace
}  // namespace xnt::vk
