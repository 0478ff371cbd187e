// The targets panel: what the event writes (compare/snapshot.h: its colour and depth targets from
// the path's EDRAM in guest bits, a resolve's destination and memexport ranges in guest bytes),
// read from the session before and after the path ran the event. Depth/stencil is drawn in false
// colour (the 24 depth bits over the range the target holds, blue to red; stencil = 0 dark) since
// a grey ramp hides a depth test's small differences. Targets of at most kPickerPixels pixels also
// get their guest bits as a script, for the page's value picker.
#include <algorithm>
#include <cstdio>

#include "site_internal.h"
#include "xnt/compare/snapshot.h"
#include "xnt/inspect/pixel_history.h"

namespace xnt::inspect {
namespace {

constexpr size_t kPickerPixels = 640 * 480;

diff::OwnedImage DepthFalseColour(const compare::TargetSnapshot& t) {
  const diff::Image& shape = t.image.view();
  diff::OwnedImage out(shape.width, shape.height, 4, diff::PixelType::kU8);
  uint32_t lo = 0xFFFFFF, hi = 0;
  for (uint64_t bits : t.bits) {
    lo = std::min<uint32_t>(lo, uint32_t(bits >> 8) & 0xFFFFFF);
    hi = std::max<uint32_t>(hi, uint32_t(bits >> 8) & 0xFFFFFF);
  }
  const double span = hi > lo ? double(hi - lo) : 1.0;
  for (int y = 0; y < shape.height; ++y) {
    uint8_t* row = out.MutableRow(y);
    for (int x = 0; x < shape.width; ++x) {
      const size_t i = size_t(y) * size_t(shape.width) + size_t(x);
      const uint64_t bits = i < t.bits.size() ? t.bits[i] : 0;
      const double d = (double((uint32_t(bits >> 8)) & 0xFFFFFF) - lo) / span;
      // Blue (near) through green to red (far); a zero stencil darkens the pixel a little.
      const double r = std::clamp(2.0 * d - 1.0, 0.0, 1.0), b = std::clamp(1.0 - 2.0 * d, 0.0, 1.0);
      const double g = 1.0 - r - b;
      const double k = (bits & 0xFF) ? 1.0 : 0.8;
      row[x * 4 + 0] = uint8_t(255.0 * r * k);
      row[x * 4 + 1] = uint8_t(255.0 * g * k);
      row[x * 4 + 2] = uint8_t(255.0 * b * k);
      row[x * 4 + 3] = 255;
    }
  }
  return out;
}

}  // namespace

Json TargetsJson(renderer::Session& session, const renderer::DrawEvent& event,
                 ImageWriter& images, SiteFiles& files, const std::string& key, bool with_bits) {
  Json out = Json::array();
  // SnapshotEventTargets lists the EDRAM regions first, in EventTargets' order.
  const std::vector<compare::TargetRegion> regions = compare::EventTargets(event);
  size_t n = 0;
  for (const compare::TargetSnapshot& t : compare::SnapshotEventTargets(session, event)) {
    Json j;
    j["name"] = t.name;
    // The target's id in the pixel-history chunks (history/f<F>/...).
    if (n < regions.size()) j["history_target"] = TargetId(regions[n].surface);
    ++n;
    j["describe"] = t.describe;
    const diff::Image& view = t.image.view();
    j["size"] = Json::array({view.width, view.height});
    const bool depth = t.name == "depth";
    if (depth) {
      diff::OwnedImage colour = DepthFalseColour(t);
      j["image"] = images.Write(colour.view());
      j["false_colour"] = "depth (bits 31:8) blue near .. red far over the target's range; stencil 0 darker";
    } else {
      j["image"] = images.Write(view);
    }
    const bool wide = std::any_of(t.bits.begin(), t.bits.end(), [](uint64_t b) { return b >> 32; });
    if (with_bits && !t.bits.empty() && t.bits.size() <= kPickerPixels &&
        !j["image"].get<std::string>().empty() && images.Reserve(t.bits.size() * (wide ? 16 : 8))) {
      std::string hex;
      hex.reserve(t.bits.size() * (wide ? 16 : 8));
      char buf[20];
      for (uint64_t b : t.bits) {
        std::snprintf(buf, sizeof buf, wide ? "%016llX" : "%08llX", static_cast<unsigned long long>(b));
        hex += buf;
      }
      const std::string rel = "data/bits/" + key + "_" + t.name + ".js";
      Json bits;
      bits["key"] = key + "_" + t.name;
      bits["digits"] = wide ? 16 : 8;
      bits["width"] = view.width;
      bits["hex"] = std::move(hex);
      files.WriteScript(rel, "XNT.bits", bits);
      j["bits"] = rel;
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace xnt::inspect
