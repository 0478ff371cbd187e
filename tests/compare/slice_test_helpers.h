// What the slice tests share: a scratch folder, a sample written to it, frames compared.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "replay_helpers.h"
#include "xnt/base/error.h"
#include "xnt/compare/slice.h"
#include "xnt/samples/samples.h"

namespace xnt::test {

inline std::filesystem::path TempDir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("xnt_slice_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string WriteSampleFile(const std::string& name, const std::filesystem::path& dir) {
  const std::string path = (dir / (name + ".xnt")).string();
  samples::WriteSample(*samples::Find(name), path);
  return path;
}

// A one-thread session on `path` as ReplayTraceFile makes them (fbo on lavapipe with validation,
// fsi through MakeFsiTestSession, cpu with no device), for tests that need the session or the
// player during or after the replay.
inline std::unique_ptr<renderer::Session> MakeSession(renderer::SessionOptions options,
                                                      renderer::Path path) {
  options.path = path;
  options.threads = 1;
  if (path == renderer::Path::kFsi) return vk::test::MakeFsiTestSession(options, false);
  if (path == renderer::Path::kFbo) {
    vk::test::UseLavapipe();
    options.validate = true;
  }
  return renderer::Session::Create(options);
}

// Frames [first, first + count) of `full` against the slice's frames, byte for byte.
inline void ExpectSameFrames(const vk::test::TraceRun& full, uint64_t first,
                             const vk::test::TraceRun& slice, const std::string& what) {
  ASSERT_GT(full.frames.size(), first) << what;
  ASSERT_EQ(slice.frames.size(), full.frames.size() - first) << what;
  for (size_t i = 0; i < slice.frames.size(); ++i) {
    const gpu::SwapImage& a = full.frames[first + i];
    const gpu::SwapImage& b = slice.frames[i];
    EXPECT_EQ(a.width, b.width) << what << " frame " << first + i;
    EXPECT_TRUE(a.rgba == b.rgba) << what << " frame " << first + i << " differs";
  }
}

// WriteSlice(in, out, range) fails with an error containing `words` and leaves neither `out` nor
// its temporary file.
inline void ExpectSliceError(const std::string& in, const std::string& out,
                             const compare::SliceRange& range, const std::string& words) {
  try {
    compare::WriteSlice(in, out, range);
    ADD_FAILURE() << "no error for " << words;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
}

}  // namespace xnt::test
