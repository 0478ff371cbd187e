// Downsampling for cross-scale comparison (box and area-weighted) and the size-matching rules.
#include "xnt/diff/resample.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "xnt/base/error.h"

namespace xnt::diff {
namespace {

std::string Size(const Image& i) { return std::to_string(i.width) + "x" + std::to_string(i.height); }

// For each output index, the source indices and coverage weights (summing to 1) of an area
// resample of `in` samples to `out` samples.
struct Tap {
  int src;
  float weight;
};
std::vector<std::vector<Tap>> AreaTaps(int in, int out) {
  std::vector<std::vector<Tap>> taps(static_cast<size_t>(out));
  const double scale = double(in) / out;
  for (int o = 0; o < out; ++o) {
    double lo = o * scale, hi = (o + 1) * scale;
    for (int s = int(lo); s < in && s < hi; ++s) {
      double cover = std::min(hi, double(s + 1)) - std::max(lo, double(s));
      if (cover > 1e-12) taps[size_t(o)].push_back({s, float(cover / scale)});
    }
  }
  return taps;
}

}  // namespace

OwnedImage AreaResample(const Image& image, int out_width, int out_height) {
  image.Validate("image to resample");
  if (out_width <= 0 || out_height <= 0 || out_width > image.width || out_height > image.height)
    throw Error("cannot area-resample " + Size(image) + " to " + std::to_string(out_width) + "x" +
                std::to_string(out_height) + " (only downsampling is supported)");
  const int ch = image.channels;
  OwnedImage out(out_width, out_height, ch, PixelType::kF32);
  const auto xtaps = AreaTaps(image.width, out_width);
  const auto ytaps = AreaTaps(image.height, out_height);
  std::vector<float> src(size_t(image.width) * size_t(ch));
  std::vector<float> hrow(size_t(out_width) * size_t(ch));
  std::vector<float> acc(size_t(out_width) * size_t(ch));
  // Rows are visited in order, each source row once per output row that covers it (at most two
  // output rows for a downsample), so memory stays at a few rows.
  int loaded = -1;
  for (int oy = 0; oy < out_height; ++oy) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (const Tap& ty : ytaps[size_t(oy)]) {
      if (ty.src != loaded) {
        image.RowToFloat(ty.src, src.data());
        loaded = ty.src;
        for (int ox = 0; ox < out_width; ++ox) {
          float v[4] = {0, 0, 0, 0};
          for (const Tap& tx : xtaps[size_t(ox)])
            for (int c = 0; c < ch; ++c) v[c] += tx.weight * src[size_t(tx.src) * size_t(ch) + size_t(c)];
          for (int c = 0; c < ch; ++c) hrow[size_t(ox) * size_t(ch) + size_t(c)] = v[c];
        }
      }
      for (size_t i = 0; i < acc.size(); ++i) acc[i] += ty.weight * hrow[i];
    }
    std::memcpy(out.MutableRow(oy), acc.data(), acc.size() * sizeof(float));
  }
  return out;
}

OwnedImage Downsample(const Image& image, int factor_x, int factor_y) {
  image.Validate("image to downsample");
  if (factor_x <= 0 || factor_y <= 0 || image.width % factor_x != 0 || image.height % factor_y != 0)
    throw Error("cannot box-downsample " + Size(image) + " by " + std::to_string(factor_x) + "x" +
                std::to_string(factor_y) + ": not an integer multiple");
  const int ow = image.width / factor_x, oh = image.height / factor_y, ch = image.channels;
  OwnedImage out(ow, oh, ch, PixelType::kF32);
  std::vector<float> src(size_t(image.width) * size_t(ch));
  std::vector<double> acc(size_t(ow) * size_t(ch));
  const double inv = 1.0 / (double(factor_x) * factor_y);
  for (int oy = 0; oy < oh; ++oy) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (int k = 0; k < factor_y; ++k) {
      image.RowToFloat(oy * factor_y + k, src.data());
      for (int x = 0; x < image.width; ++x)
        for (int c = 0; c < ch; ++c)
          acc[size_t(x / factor_x) * size_t(ch) + size_t(c)] += src[size_t(x) * size_t(ch) + size_t(c)];
    }
    auto* dst = reinterpret_cast<float*>(out.MutableRow(oy));
    for (size_t i = 0; i < acc.size(); ++i) dst[i] = float(acc[i] * inv);
  }
  return out;
}

ResizeMode ParseResizeMode(const std::string& text) {
  if (text == "none") return ResizeMode::kNone;
  if (text == "area") return ResizeMode::kArea;
  if (text == "crop") return ResizeMode::kCrop;
  throw Error("bad resize mode '" + text + "': expected none, area or crop");
}

MatchedPair MatchSizes(const Image& a, const Image& b, const MatchOptions& options) {
  a.Validate("first image");
  b.Validate("second image");
  MatchedPair m;
  m.a = a;
  m.b = b;
  const bool a_big = a.width >= b.width && a.height >= b.height;
  const bool b_big = b.width >= a.width && b.height >= a.height;
  const bool same = a.width == b.width && a.height == b.height;
  const std::optional<ResolutionScale>& scale = options.scale;
  if (scale && scale->scaled() && same)
    throw Error("scale " + scale->Name() + " given, but both images are " + Size(a));
  if (!same) {
    if (!a_big && !b_big)
      throw Error("image sizes " + Size(a) + " and " + Size(b) + " cannot be matched: neither is larger in both "
                  "dimensions");
    const Image& big = a_big ? a : b;
    const Image& small = a_big ? b : a;
    OwnedImage& store = a_big ? m.storage_a : m.storage_b;
    const char* which = a_big ? "A" : "B";
    const bool integer = big.width % small.width == 0 && big.height % small.height == 0;
    const int fx = big.width / small.width, fy = big.height / small.height;
    const bool scale_fits = integer && (!scale || (uint32_t(fx) == scale->x && uint32_t(fy) == scale->y));
    if (!scale_fits && scale && options.resize == ResizeMode::kNone)
      throw Error("image sizes " + Size(a) + " and " + Size(b) + " are not a " + scale->Name() + " pair");
    if (scale_fits) {
      store = Downsample(big, fx, fy);
      m.note = std::string(which) + " box-downsampled " + std::to_string(fx) + "x" + std::to_string(fy);
    } else if (options.resize == ResizeMode::kArea) {
      store = AreaResample(big, small.width, small.height);
      m.note = std::string(which) + " area-resampled from " + Size(big) + " to " + Size(small);
    } else if (options.resize == ResizeMode::kCrop) {
      m.note = std::string(which) + " cropped from " + Size(big) + " to " + Size(small);
      (a_big ? m.a : m.b) = big.Crop(0, 0, small.width, small.height);
    } else {
      throw Error("image sizes " + Size(a) + " and " + Size(b) +
                  " are not an integer multiple of each other (use --resize area|crop)");
    }
    if (!store.empty()) (a_big ? m.a : m.b) = store.view();
  }
  if (options.border < 0) throw Error("border must be >= 0");
  if (options.border > 0) {
    const int bw = m.a.width - 2 * options.border, bh = m.a.height - 2 * options.border;
    if (bw <= 0 || bh <= 0)
      throw Error("border of " + std::to_string(options.border) + " leaves nothing of a " + Size(m.a) + " image");
    m.a = m.a.Crop(options.border, options.border, bw, bh);
    m.b = m.b.Crop(options.border, options.border, bw, bh);
    m.note += std::string(m.note.empty() ? "" : "; ") + std::to_string(options.border) + "-pixel border ignored";
  }
  return m;
}

}  // namespace xnt::diff
