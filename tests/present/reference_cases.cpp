#include "reference_cases.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "xnt/base/error.h"
#include "xnt/diff/png.h"

namespace xnt::present::test {

std::string ReferenceDir() { return std::string(XNT_SOURCE_DIR) + "/tests/present/reference"; }

namespace {

void LoadManifest(const std::string& name, bool half_input, std::vector<ReferenceCase>& cases) {
  const std::string path = ReferenceDir() + "/" + name;
  std::ifstream in(path);
  if (!in) throw Error("cannot read " + path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    ReferenceCase c;
    std::string aa, scaler, bar;
    uint32_t w = 0, h = 0;
    float cas = 0, fsr = 0;
    if (!(s >> c.output >> c.input >> aa >> scaler >> w >> h >> cas >> fsr >> bar) || bar != "|") {
      throw Error(path + ":" + std::to_string(number) + ": malformed case line");
    }
    std::getline(s, c.passes);
    const auto a = ParseAntiAliasing(aa);
    const auto sc = ParseScaler(scaler);
    if (!a || !sc) throw Error(path + ":" + std::to_string(number) + ": unknown aa or scaler");
    c.options.aa = *a;
    c.options.scaler = *sc;
    c.options.width = w;
    c.options.height = h;
    c.options.cas_sharpness = cas;
    c.options.fsr_sharpness_reduction = fsr;
    c.options.dither = false;  // the references are rounded to nearest
    c.half_input = half_input;
    if (half_input) c.options.easu_output = StoreFormat::kHalf;
    cases.push_back(c);
  }
}

}  // namespace

std::vector<ReferenceCase> LoadReferenceCases() {
  std::vector<ReferenceCase> cases;
  LoadManifest("cases.txt", true, cases);
  LoadManifest("sample_cases.txt", false, cases);
  return cases;
}

namespace {

// A reference PNG as RGBA (alpha 1 where the file has none); `store` turns each value read as a
// float into what the image type keeps.
template <class Image, class Store>
Image LoadReferenceRgba(const std::string& name, Store store) {
  const diff::OwnedImage png = diff::LoadPng(ReferenceDir() + "/" + name);
  const diff::Image& v = png.view();
  Image img;
  img.width = uint32_t(v.width);
  img.height = uint32_t(v.height);
  img.rgba.resize(size_t(v.width) * size_t(v.height) * 4);
  std::vector<float> row(size_t(v.width) * size_t(v.channels));
  for (int y = 0; y < v.height; ++y) {
    v.RowToFloat(y, row.data());
    for (int x = 0; x < v.width; ++x) {
      for (int c = 0; c < 4; ++c) {
        const float f = c < v.channels ? row[size_t(x) * size_t(v.channels) + size_t(c)] : 1.0f;
        img.rgba[(size_t(y) * size_t(v.width) + size_t(x)) * 4 + size_t(c)] = store(f);
      }
    }
  }
  return img;
}

}  // namespace

FloatImage LoadReferenceInput(const std::string& name) {
  return LoadReferenceRgba<FloatImage>(name, [](float f) { return f; });
}

gpu::SwapImage LoadReferenceOutput(const std::string& name) {
  return LoadReferenceRgba<gpu::SwapImage>(
      name, [](float f) { return uint8_t(std::lround(f * 255.0f)); });
}

ChannelErrors CompareChannels(const gpu::SwapImage& ours, const gpu::SwapImage& reference) {
  ChannelErrors e;
  if (ours.width != reference.width || ours.height != reference.height) {
    e.max = 255;
    return e;
  }
  double sum = 0;
  for (size_t p = 0; p < size_t(ours.width) * ours.height; ++p) {
    bool pixel_over = false;
    for (size_t c = 0; c < 3; ++c) {
      const int d = std::abs(int(ours.rgba[p * 4 + c]) - int(reference.rgba[p * 4 + c]));
      e.max = std::max(e.max, d);
      sum += d;
      ++e.channels;
      if (d > 2) {
        ++e.over2;
        pixel_over = true;
      }
    }
    if (pixel_over) ++e.pixels_over2;
  }
  e.mean = e.channels ? sum / double(e.channels) : 0;
  return e;
}

namespace {

// AMD's FSR sample rounds EASU's output to 8 bits before RCAS. On ramps and two-level areas EASU's
// exact result is often a half step (the mean of two 8-bit values), so the last bit of its float
// arithmetic picks the step: the reference, as llvmpipe compiles it, fuses the taps' `aC += c * w`
// into fma, our CPU chain does not, and the one step RCAS then amplifies by up to
// 1 / (1 - 4 * 0.1875 * 2^-0.2) = 2.9 becomes 3/255. (Compiled with those multiply-adds unfused,
// the reference gives our CPU output byte for byte on gradient16, shapes16; it is 3/255 away from
// itself at the same pixels.) These are the counts of such pixels, CPU or Vulkan, whichever is
// larger; none may be more than 3/255 off.
size_t SampleTiePixels(const std::string& output) {
  static const std::pair<const char*, size_t> kTies[] = {
      {"gradient16_fsr_sample_x1.5.png", 10},
      {"text_fsr_sample_x1.5.png", 1},
      {"shapes16_fsr_sample_x1.5.png", 1},
      {"shapes16_fsr_sample_x1.3.png", 1},
  };
  for (const auto& [name, count] : kTies) {
    if (output == name) return count;
  }
  return 0;
}

}  // namespace

size_t AllowedTiePixels(const std::string& output) {
  // FXAA 3.11 decides with exact comparisons: horzSpan = edgeHorz >= edgeVert, pairN =
  // |gradientN| >= |gradientS|, the search's end test |lumaEnd - lumaNN / 2| >= gradient / 4,
  // the sides' signs (lumaEnd < 0) and the nearer end (dstN < dstP). On binary edges, text-like
  // glyphs and diagonal neighbourhoods both sides are often equal in exact arithmetic (the end
  // test at a half-texel sample of a step edge is (3a + b) / 4 - (a + b) / 2 = (a - b) / 4
  // exactly; a diagonal gives edgeHorz = edgeVert; a symmetric span gives dstN = dstP), and the
  // float rounding of the reference's texture coordinates, filtering and shader arithmetic (fused
  // or not, at the compiler's choice) settles them; llvmpipe even settled one horzSpan tie both
  // ways inside one pixel of text.png. Such a pixel takes a different edge direction or span
  // length, and so a different blend: off by up to the edge's contrast. These are the counts of
  // such pixels here (each FXAA-only one traced to one of those ties by re-running the search),
  // the same for our CPU and Vulkan chains; in the FXAA + FSR cases each tie pixel spreads over
  // EASU's and RCAS's footprint (about 4x4 outputs at 2x). No other pixel may be more than 2/255
  // off.
  static const std::pair<const char*, size_t> kTies[] = {
      {"lines_fxaa.png", 11},         {"lines_fxaa_extreme.png", 3},
      {"lines_fxaa_extreme_fsr_x2.png", 49},
      {"noise_fxaa.png", 4},          {"noise_fxaa_extreme.png", 4},
      {"noise_fxaa_extreme_fsr_x2.png", 89},
      {"text_fxaa.png", 61},          {"text_fxaa_extreme.png", 36},
      {"text_fxaa_extreme_fsr_x2.png", 458},
      {"shapes16_fxaa.png", 1},       {"shapes16_fxaa_extreme.png", 1},
      {"shapes16_fxaa_extreme_fsr_x2.png", 4},
  };
  for (const auto& [name, count] : kTies) {
    if (output == name) return count;
  }
  return SampleTiePixels(output);
}

std::string CheckAllCases(
    const std::function<gpu::SwapImage(const PostOptions&, const FloatImage&)>& run) {
  const std::vector<ReferenceCase> cases = LoadReferenceCases();
  EXPECT_EQ(cases.size(), 108u);
  std::string report;
  for (const ReferenceCase& c : cases) {
    FloatImage input = LoadReferenceInput(c.input);
    if (c.half_input) {
      for (float& v : input.rgba) v = HalfToFloat(FloatToHalf(v));
    }
    const gpu::SwapImage ours = run(c.options, input);
    const ChannelErrors e = CompareChannels(ours, LoadReferenceOutput(c.output));
    char line[256];
    std::snprintf(line, sizeof(line), "%-36s max %3d mean %.4f over2 %4zu pixels %3zu  [%s]\n",
                  c.output.c_str(), e.max, e.mean, e.over2, e.pixels_over2, c.passes.c_str());
    report += line;
    EXPECT_LE(e.pixels_over2, AllowedTiePixels(c.output)) << line;
    if (AllowedTiePixels(c.output) == 0) {
      EXPECT_LE(e.max, 2) << line;
    } else if (!c.half_input) {
      EXPECT_LE(e.max, 3) << line;  // a half step of the 8-bit intermediate, through RCAS
    }
  }
  return report;
}

}  // namespace xnt::present::test
