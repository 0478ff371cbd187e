// Diff and heatmap images for reports.
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "xnt/base/error.h"
#include "xnt/diff/png.h"
#include "xnt/diff/report.h"

namespace xnt::diff {
namespace {

// Heatmap ramp stops (position, R, G, B): dark to bright, so magnitude reads as lightness even
// in greyscale print.
struct Stop {
  float t;
  uint8_t r, g, b;
};
constexpr Stop kRamp[] = {{0.0f, 0, 0, 0},        {0.2f, 40, 0, 120},     {0.45f, 200, 0, 80},
                          {0.7f, 255, 140, 0},    {0.9f, 255, 235, 60},   {1.0f, 255, 255, 255}};

void RampColour(float t, uint8_t out[3]) {
  t = std::clamp(t, 0.0f, 1.0f);
  for (size_t i = 1; i < std::size(kRamp); ++i) {
    if (t <= kRamp[i].t) {
      const Stop& a = kRamp[i - 1];
      const Stop& b = kRamp[i];
      float f = (t - a.t) / (b.t - a.t);
      out[0] = uint8_t(std::lround(a.r + (b.r - a.r) * f));
      out[1] = uint8_t(std::lround(a.g + (b.g - a.g) * f));
      out[2] = uint8_t(std::lround(a.b + (b.b - a.b) * f));
      return;
    }
  }
  out[0] = out[1] = out[2] = 255;
}

// 3x5 pixel glyphs for the legend's numbers: each row is 3 bits, MSB left.
struct Glyph {
  char c;
  uint8_t rows[5];
};
constexpr Glyph kGlyphs[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {'-', {0, 0, 7, 0, 0}},
    {'+', {0, 2, 7, 2, 0}}, {'e', {7, 5, 7, 4, 7}},
};

// Draws `text` with its top-left at (x, y), glyph pixels `scale` wide, clipped to the image.
void DrawText(OwnedImage& img, int x, int y, const std::string& text, int scale, uint8_t value) {
  const Image& v = img.view();
  for (char ch : text) {
    const Glyph* g = nullptr;
    for (const Glyph& candidate : kGlyphs)
      if (candidate.c == ch) g = &candidate;
    if (g)
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 3; ++c)
          if (g->rows[r] & (4 >> c))
            for (int dy = 0; dy < scale; ++dy)
              for (int dx = 0; dx < scale; ++dx) {
                int px = x + c * scale + dx, py = y + r * scale + dy;
                if (px < 0 || py < 0 || px >= v.width || py >= v.height) continue;
                uint8_t* p = img.MutableRow(py) + size_t(px) * 3;
                p[0] = p[1] = p[2] = value;
              }
    x += 4 * scale;
  }
}

std::string Short(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", v);
  return buf;
}

}  // namespace

OwnedImage MakeDiffImage(const Image& a, const Image& b, bool ignore_alpha) {
  a.Validate("first image");
  b.Validate("second image");
  if (a.width != b.width || a.height != b.height) throw Error("diff image: sizes differ");
  const int w = a.width, h = a.height;
  const bool alpha = !ignore_alpha && (a.HasAlpha() || b.HasAlpha());
  std::vector<float> ra(size_t(w) * 4), rb(size_t(w) * 4);
  // First pass: the largest error, so the image can be scaled to it.
  float peak = 0;
  auto channel = [](const std::vector<float>& row, const Image& img, int x, int c) {
    return c < img.channels ? row[size_t(x) * size_t(img.channels) + size_t(c)] : 1.0f;
  };
  for (int pass = 0; pass < 2; ++pass) {
    OwnedImage out(w, h, 3, PixelType::kU8);
    const float gain = peak > 0 ? 1.0f / peak : 0.0f;
    for (int y = 0; y < h; ++y) {
      a.RowToFloat(y, ra.data());
      b.RowToFloat(y, rb.data());
      uint8_t* dst = pass ? out.MutableRow(y) : nullptr;
      for (int x = 0; x < w; ++x) {
        float da = alpha ? std::fabs(channel(ra, a, x, 3) - channel(rb, b, x, 3)) : 0.0f;
        for (int c = 0; c < 3; ++c) {
          float d = std::max(std::fabs(channel(ra, a, x, c) - channel(rb, b, x, c)), da);
          if (pass == 0)
            peak = std::max(peak, d);
          else
            dst[x * 3 + c] = uint8_t(std::lround(std::min(1.0f, d * gain) * 255.0f));
        }
      }
    }
    if (pass == 1) return out;
  }
  return OwnedImage();
}

OwnedImage MakeHeatmap(const ErrorMaps& maps) {
  if (maps.width <= 0 || maps.height <= 0 || maps.max_abs.size() != size_t(maps.width) * size_t(maps.height))
    throw Error("heatmap: no error map");
  const int w = maps.width, h = maps.height;
  const float peak = *std::max_element(maps.max_abs.begin(), maps.max_abs.end());
  const int scale = w >= 160 ? 2 : 1;
  const int legend = 4 * scale + 6 * scale + 5 * scale + 4;  // gap, bar, text, margin
  OwnedImage out(w, h + legend, 3, PixelType::kU8);
  for (int y = 0; y < h; ++y) {
    uint8_t* dst = out.MutableRow(y);
    const float* src = maps.max_abs.data() + size_t(y) * size_t(w);
    for (int x = 0; x < w; ++x) RampColour(peak > 0 ? src[x] / peak : 0.0f, dst + x * 3);
  }
  // Legend: a mid-grey band, the ramp as a bar across the width, "0" under the left end and the
  // peak error (normalized 0..1 units) under the right end.
  for (int y = h; y < h + legend; ++y) std::fill_n(out.MutableRow(y), size_t(w) * 3, uint8_t(64));
  const int bar_top = h + 2 * scale, bar_h = 6 * scale;
  for (int y = bar_top; y < bar_top + bar_h && y < h + legend; ++y) {
    uint8_t* dst = out.MutableRow(y);
    for (int x = 0; x < w; ++x) RampColour(w > 1 ? float(x) / float(w - 1) : 1.0f, dst + x * 3);
  }
  const int text_y = bar_top + bar_h + scale;
  const std::string right = Short(peak);
  DrawText(out, 1, text_y, "0", scale, 255);
  const int right_w = int(right.size()) * 4 * scale;
  if (right_w + 6 * scale < w) DrawText(out, w - right_w, text_y, right, scale, 255);
  return out;
}

void WriteItemImages(ReportItem& item, const Image& a, const Image& b, const ErrorMaps& maps, bool ignore_alpha,
                     const std::string& dir) {
  namespace fs = std::filesystem;
  // File names: the item name made safe, plus a hash of the exact name, so two names that sanitize
  // alike stay apart and a rerun into the same folder overwrites its own files.
  std::string stem;
  for (char c : item.name) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  if (stem.size() > 80) stem = stem.substr(stem.size() - 80);
  char hash[16];
  std::snprintf(hash, sizeof(hash), "-%08x", unsigned(XXH32(item.name.data(), item.name.size(), 0)));
  stem += hash;
  fs::path images = fs::path(dir) / "images";
  std::error_code ec;
  fs::create_directories(images, ec);
  if (ec) throw Error(images.string() + ": cannot create folder: " + ec.message());
  auto write = [&](const std::string& suffix, const Image& img) {
    std::string rel = "images/" + stem + suffix;
    SavePng((fs::path(dir) / rel).string(), img);
    return rel;
  };
  item.image_a = write(".a.png", ToU8(a).view());
  item.image_b = write(".b.png", ToU8(b).view());
  item.image_diff = write(".diff.png", MakeDiffImage(a, b, ignore_alpha).view());
  item.image_heat = write(".heat.png", MakeHeatmap(maps).view());
}

}  // namespace xnt::diff
