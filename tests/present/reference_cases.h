// The reference outputs of tests/present/reference/ (README.md there says how they were made:
// AMD's and NVIDIA's published FXAA 3.11 / CAS 1.0 / FSR 1.0.2 headers run on lavapipe): the
// manifest, its images, and the per-channel comparison of one of our outputs against them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "xnt/present/post.h"

namespace xnt::present::test {

struct ReferenceCase {
  std::string output;  // reference PNG (8-bit RGBA, rounded to nearest, no dither)
  std::string input;   // input PNG (8- or 16-bit RGB)
  PostOptions options;
  std::string passes;  // the reference's passes, as cases.txt lists them
  // cases.txt: made with the input and every intermediate rounded to half (RGBA16F), so our
  // chain runs on the input rounded the same way with an RGBA16F EASU output. sample_cases.txt:
  // AMD's FSR sample setup (the input read exactly, EASU's output held as RGBA8 UNORM).
  bool half_input = false;
};

std::string ReferenceDir();
// Parses reference/cases.txt and sample_cases.txt; throws xnt::Error on a malformed line (naming
// it).
std::vector<ReferenceCase> LoadReferenceCases();
// An input PNG as the `post` command reads it (RowToFloat, alpha 1 for RGB).
FloatImage LoadReferenceInput(const std::string& name);
gpu::SwapImage LoadReferenceOutput(const std::string& name);

struct ChannelErrors {
  int max = 0;           // largest |ours - reference| over the r, g, b channels, in 1/255
  double mean = 0;       // mean of it over all r, g, b channels
  size_t over2 = 0;      // channels more than 2/255 off
  size_t pixels_over2 = 0;
  size_t channels = 0;
};
ChannelErrors CompareChannels(const gpu::SwapImage& ours, const gpu::SwapImage& reference);

// How many pixels of a case may be more than 2/255 off: 0, except at FXAA's threshold ties and
// at half steps of the FSR sample's 8-bit intermediate (see the .cpp).
size_t AllowedTiePixels(const std::string& output);

// Runs every case through `run` (our chain with the case's options), prints a line per case
// ("name max mean over2 pixels") and checks it: every channel within 2/255 except in at most
// AllowedTiePixels() pixels. Returns the lines, for the docs' accuracy table.
std::string CheckAllCases(const std::function<gpu::SwapImage(const PostOptions&, const FloatImage&)>& run);

}  // namespace xnt::present::test
