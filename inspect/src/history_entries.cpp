// Watch records as history entries, and a history as JSON and text (see pixel_history.h).
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "history_replay.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::inspect {

namespace {

// The shortest text that reads back as the same float.
std::string Number(float v) {
  char b[32];
  const auto end = std::to_chars(b, b + sizeof(b), v).ptr;
  return std::string(b, end);
}

std::string Vector(const std::array<float, 4>& v) {
  return "(" + Number(v[0]) + ", " + Number(v[1]) + ", " + Number(v[2]) + ", " + Number(v[3]) + ")";
}

// Guest bits in hex and decoded: colour through its format, depth as depth and stencil.
std::string Bits(const gpu::edram::Surface& s, uint64_t bits) {
  char hex[32];
  if (s.bytes_per_sample() == 8) {
    std::snprintf(hex, sizeof(hex), "0x%016" PRIx64, bits);
  } else {
    std::snprintf(hex, sizeof(hex), "0x%08" PRIx32, uint32_t(bits));
  }
  if (s.is_depth) {
    const float depth = gpu::edram::UnpackDepth(xenos::DepthRenderTargetFormat(s.format), uint32_t(bits));
    return std::string(hex) + " (depth " + Number(depth) + ", stencil " +
           std::to_string(bits & 0xFFu) + ")";
  }
  return std::string(hex) + " " +
         Vector(gpu::edram::UnpackColor(xenos::ColorRenderTargetFormat(s.format), bits));
}

std::string Compare(uint32_t func) { return std::string(xenos::CompareFunctionName(func)); }

std::string Mask(uint32_t mask) {
  std::string s;
  for (uint32_t c = 0; c < 4; ++c) s += (mask >> c & 1u) ? "RGBA"[c] : '_';
  return s;
}

std::string BlendEquation(uint32_t raw) {
  const auto bc = xenos::reg::RB_BLENDCONTROL::Decode(raw);
  auto part = [](xenos::BlendFactor src, xenos::BlendOp op, xenos::BlendFactor dst) {
    return "src * " + std::string(xenos::BlendFactorName(uint32_t(src))) + " " +
           std::string(xenos::BlendOpName(uint32_t(op))) + " dst * " +
           std::string(xenos::BlendFactorName(uint32_t(dst)));
  };
  return "rgb: " + part(bc.color_srcblend, bc.color_comb_fcn, bc.color_destblend) +
         "; alpha: " + part(bc.alpha_srcblend, bc.alpha_comb_fcn, bc.alpha_destblend);
}

// Why a fragment's sample did not reach the colour write, or "written".
std::string Outcome(const cpu::WatchRecord& r) {
  if (r.killed) return "discarded (kill)";
  if (r.alpha_test == 0) return "discarded (alpha test)";
  if (r.alpha_to_mask_cut) return "not covered (alpha to mask)";
  if (r.depth_stencil == 0) return "failed the depth/stencil test";
  if (!r.merged) return "not written";
  return r.before == r.after ? "written (bits unchanged)" : "written";
}

void DrawFields(const cpu::WatchRecord& r, HistoryEntry& e) {
  auto add = [&](std::string name, std::string value) {
    e.fields.push_back({std::move(name), std::move(value)});
  };
  const bool depth_role = r.role == 4;
  if (!r.pixel_shader) {
    add("shader", "none (depth-only draw)");
  } else if (r.killed) {
    add("shader", "killed the pixel");
  } else {
    const uint32_t out = depth_role ? 0 : r.role;
    add("oC" + std::to_string(out), (r.color_mask >> out & 1u) ? Vector(r.color) : "not written");
  }
  if (r.depth_exported) add("oDepth", Number(r.depth));
  if (r.alpha_test >= 0) {
    add("alpha test", std::string(r.alpha_test ? "pass" : "fail") + ": oC0.a " +
                          Number(r.color[3]) + " " + Compare(r.alpha_func) + " " +
                          Number(r.alpha_ref));
  }
  if (r.alpha_to_mask_cut) add("alpha to mask", "sample not covered");
  if (r.depth_stencil >= 0) {
    std::string depth = Number(r.depth);
    if (depth_role) {
      // The value compared: the fragment's depth at the buffer's precision (its 24 bits).
      char bits[16];
      std::snprintf(bits, sizeof(bits), " (0x%06x)",
                    gpu::edram::PackDepth(xenos::DepthRenderTargetFormat(r.surface.format), r.depth, 0) >> 8);
      depth += bits;
    }
    add("depth", depth + (r.depth_test ? ", test " + Compare(r.zfunc) + " (incoming vs stored)" : ", no test"));
    if (r.stencil_test) {
      add("stencil", "ref " + std::to_string(r.stencil_ref) + " " + Compare(r.stencil_func) +
                         " stored");
    }
    add("depth/stencil result", r.depth_stencil ? "pass" : "fail");
  }
  if (!depth_role) {
    if (r.blend) {
      add("blend", BlendEquation(r.blend_control));
      std::array<float, 4> src = r.color;
      for (float& c : src) {
        c *= r.exp_bias;
        if (r.unorm) c = std::isnan(c) ? 0.0f : std::clamp(c, 0.0f, 1.0f);
      }
      add("blend source", Vector(src));
      add("blend destination",
          Vector(gpu::edram::UnpackColor(xenos::ColorRenderTargetFormat(r.surface.format), r.before)));
    } else {
      add("blend", "off");
    }
    add("write mask", Mask(r.write_mask));
  }
  add("result", Outcome(r));
}

void ResolveFields(const cpu::PixelWatch& watch, const cpu::WatchResolve& part, HistoryEntry& e) {
  const gpu::ResolveInfo& i = watch.resolves()[part.seen].info;
  e.kind = part.copies && part.clears ? "resolve+clear" : part.copies ? "resolve" : "clear";
  auto add = [&](std::string name, std::string value) {
    e.fields.push_back({std::move(name), std::move(value)});
  };
  add("rectangle", std::to_string(i.x0) + "," + std::to_string(i.y0) + " - " +
                       std::to_string(i.x1) + "," + std::to_string(i.y1));
  if (part.copies) {
    char dest[64];
    std::snprintf(dest, sizeof(dest), "0x%08" PRIx32 " ", i.dest_base);
    add("copy to", dest + std::string(xenos::TextureFormatName(uint32_t(i.dest_format))));
  }
  if (part.clears) add("clears", "yes");
}

}  // namespace

HistoryEntry EntryOf(const cpu::PixelWatch& watch, size_t index, ResolutionScale scale) {
  const cpu::WatchRecord& r = watch.records()[index];
  const cpu::WatchedSample& w = watch.samples()[r.watched];
  HistoryEntry e;
  e.frame = r.frame;
  e.event = r.event;
  e.kind = "draw";
  if (scale.scaled()) {
    e.fields.push_back({"host pixel", std::to_string(w.host_x) + "," + std::to_string(w.host_y)});
  }
  if (w.surface.sample_count() > 1) e.fields.push_back({"sample", std::to_string(w.sample)});
  const std::string role = r.role == 4 ? "depth" : "colour" + std::to_string(r.role);
  e.fields.push_back({"target", role + " " + TargetId(r.surface)});
  if (const cpu::WatchResolve* part = watch.ResolveOf(index)) {
    ResolveFields(watch, *part, e);
  } else {
    DrawFields(r, e);
  }
  e.fields.push_back({"before", Bits(r.surface, r.before)});
  e.fields.push_back({"after", Bits(r.surface, r.after)});
  return e;
}

bool SameEntry(const cpu::PixelWatch& watch, size_t a, size_t b) {
  const cpu::WatchRecord& x = watch.records()[a];
  const cpu::WatchRecord& y = watch.records()[b];
  const auto bits = [](const auto& u, const auto& v) { return std::memcmp(&u, &v, sizeof(u)) == 0; };
  if (x.kind != y.kind || x.frame != y.frame || x.event != y.event || x.role != y.role ||
      x.before != y.before || x.after != y.after ||
      watch.samples()[x.watched].sample != watch.samples()[y.watched].sample ||
      watch.samples()[x.watched].surface.sample_count() != watch.samples()[y.watched].surface.sample_count()) {
    return false;
  }
  const cpu::WatchResolve* rx = watch.ResolveOf(a);
  const cpu::WatchResolve* ry = watch.ResolveOf(b);
  if (rx || ry) return rx && ry && rx->copies == ry->copies && rx->clears == ry->clears;
  return x.front_facing == y.front_facing && x.pixel_shader == y.pixel_shader &&
         x.killed == y.killed && x.color_mask == y.color_mask && bits(x.color, y.color) &&
         x.depth_exported == y.depth_exported && bits(x.depth, y.depth) &&
         x.alpha_test == y.alpha_test && x.alpha_to_mask_cut == y.alpha_to_mask_cut &&
         x.depth_stencil == y.depth_stencil && x.merged == y.merged && x.alpha_func == y.alpha_func &&
         bits(x.alpha_ref, y.alpha_ref) && x.depth_test == y.depth_test &&
         x.stencil_test == y.stencil_test && x.zfunc == y.zfunc && x.stencil_func == y.stencil_func &&
         x.stencil_ref == y.stencil_ref && x.blend == y.blend && x.blend_control == y.blend_control &&
         x.write_mask == y.write_mask && bits(x.exp_bias, y.exp_bias) && x.unorm == y.unorm;
}

HistoryEntry SwapEntry(const ReplayedFrame& frame, uint32_t x, uint32_t y) {
  HistoryEntry e;
  e.kind = "swap";
  e.frame = frame.watch.first_frame();
  e.event = frame.events;
  char base[32];
  std::snprintf(base, sizeof(base), "0x%08" PRIx32, frame.front_base);
  e.fields.push_back({"front buffer", base});
  if (frame.swapped && x < frame.image.width && y < frame.image.height) {
    const uint8_t* p = &frame.image.rgba[(size_t(y) * frame.image.width + x) * 4];
    char rgb[48];
    std::snprintf(rgb, sizeof(rgb), "#%02x%02x%02x", p[0], p[1], p[2]);
    if (frame.stored.rgba.size() == frame.image.rgba.size()) {
      const uint8_t* s = &frame.stored.rgba[(size_t(y) * frame.image.width + x) * 4];
      char stored[48];
      std::snprintf(stored, sizeof(stored), "#%02x%02x%02x", s[0], s[1], s[2]);
      e.fields.push_back({"stored", std::string(stored) + " (the front buffer's r, g, b)"});
      e.fields.push_back({"shown", std::string(rgb) +
                                       " (r, g, b through the display's gamma ramp; scan-out "
                                       "ignores alpha)"});
    } else {
      e.fields.push_back({"shown", std::string(rgb) + " (r, g, b; scan-out ignores alpha)"});
    }
  }
  return e;
}

Json HistoryEntryJson(const HistoryEntry& entry) {
  Json j = Json::object();
  j["event"] = entry.EventName();
  j["kind"] = entry.kind;
  for (const HistoryField& f : entry.fields) j[f.name] = f.value;
  return j;
}

Json PixelHistoryJson(const PixelHistory& h) {
  Json j = Json::object();
  j["frame"] = h.request.frame;
  j["pixel"] = Json::array({h.request.x, h.request.y});
  j["target"] = h.request.target;
  j["target_describe"] = h.target_describe;
  j["scale"] = h.request.scale.Name();
  j["scaled_lod"] = gpu::ScaledDerivativesName(h.request.derivatives);
  j["targets"] = h.targets;
  j["entries"] = Json::array();
  for (const HistoryEntry& e : h.entries) j["entries"].push_back(HistoryEntryJson(e));
  j["notes"] = h.notes;
  return j;
}

std::string PixelHistoryText(const PixelHistory& h) {
  std::string s = "pixel " + std::to_string(h.request.x) + "," + std::to_string(h.request.y) +
                  " of frame " + std::to_string(h.request.frame) + ", target " + h.request.target +
                  " (" + h.target_describe + "), scale " + h.request.scale.Name() + "\n";
  s += "targets:";
  for (const std::string& t : h.targets) s += " " + t;
  s += "\n" + std::to_string(h.entries.size()) + " event(s)\n";
  for (const HistoryEntry& e : h.entries) {
    s += "\n" + e.EventName() + " " + e.kind + "\n";
    for (const HistoryField& f : e.fields) {
      char name[32];
      std::snprintf(name, sizeof(name), "  %-22s ", f.name.c_str());
      s += name + f.value + "\n";
    }
  }
  if (!h.notes.empty()) s += "\nnotes:\n";
  for (const std::string& n : h.notes) s += "  " + n + "\n";
  return s;
}

}  // namespace xnt::inspect
