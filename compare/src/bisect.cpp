// Bisection of a differing frame to its first differing draw (bisect.h).
#include "xnt/compare/bisect.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "xnt/base/error.h"
#include "xnt/compare/snapshot.h"
#include "xnt/diff/png.h"
#include "xnt/format/reader.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/trace_player.h"
#include "xnt/ucode/disasm.h"
#include "xnt/ucode/shader_cache.h"

namespace xnt::compare {
namespace fs = std::filesystem;

namespace {

// The dump of one draw can be long (every register write since the previous draw).
constexpr size_t kMaxStateBytes = 64 * 1024;

struct TargetCapture {
  TargetRegion region;
  diff::OwnedImage before, after;
  std::vector<uint64_t> before_bits, after_bits;
};

// One replay of the trace through `frame`.
struct Pass {
  std::vector<uint32_t> draws;    // every event of the frame, in order
  std::vector<uint64_t> hashes;   // its targets' hash after it ran
  std::vector<bool> resolves;
  std::vector<TargetCapture> captures;  // the captured event's targets
  std::string shaders;
};

Pass RunPass(const std::string& trace, uint64_t frame, const Combination& combination,
             const CompareOptions& options, std::optional<uint32_t> capture) {
  Pass pass;
  renderer::SessionOptions so = SessionOptionsFor(combination, options);
  std::unique_ptr<renderer::Session> session;
  so.on_draw_event = [&](const renderer::DrawEvent& e) {
    if (e.draw->frame != frame) return;
    if (capture) {
      if (e.draw->draw_index != *capture) return;
      if (!e.after) {
        for (const TargetRegion& t : EventTargets(e)) {
          TargetCapture c;
          c.region = t;
          c.before = TargetImage(*session, t, &c.before_bits);
          pass.captures.push_back(std::move(c));
        }
        for (const replay::Shader* s : {e.draw->vertex_shader, e.draw->pixel_shader}) {
          if (!s || !s->decoded || !s->decoded->decodes() || e.resolve) continue;
          pass.shaders += ucode::Disassemble(s->decoded->shader) + "\n";
        }
      } else {
        for (TargetCapture& c : pass.captures) c.after = TargetImage(*session, c.region, &c.after_bits);
      }
      return;
    }
    if (!e.after) return;
    pass.draws.push_back(e.draw->draw_index);
    pass.hashes.push_back(HashTargets(*session, EventTargets(e)));
    pass.resolves.push_back(e.resolve != nullptr);
  };
  session = renderer::Session::Create(so);
  auto reader = format::Reader::Open(trace);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*reader, frame);
  session->Flush();
  return pass;
}

std::string DumpOfDraw(const std::string& trace, uint64_t frame, uint32_t draw) {
  replay::DumpOptions o;
  o.frame = frame;
  o.draw = draw;
  std::string text;
  replay::DumpPrinter printer(o, [&](std::string_view t) {
    if (text.size() < kMaxStateBytes) text.append(t);
  });
  replay::TracePlayer player(printer);
  printer.Attach(player);
  auto reader = format::Reader::Open(trace);
  printer.Run(player, *reader);
  if (text.size() >= kMaxStateBytes) text += "\n... (cut at 64 KiB; run xenotrace dump)\n";
  return text;
}

std::string SafeName(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(uint8_t(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  return s;
}

// White where any bit of the guest value differs, dark grey where equal: a 1-LSB error shows.
diff::OwnedImage AnyDifferenceMask(const TargetCapture& a, const TargetCapture& b, uint64_t* count) {
  const diff::Image& v = a.after.view();
  diff::OwnedImage mask(v.width, v.height, 4, diff::PixelType::kU8);
  *count = 0;
  for (int y = 0; y < v.height; ++y) {
    uint8_t* row = mask.MutableRow(y);
    for (int x = 0; x < v.width; ++x) {
      const size_t i = size_t(y) * size_t(v.width) + size_t(x);
      const bool differs = i < a.after_bits.size() && i < b.after_bits.size() &&
                           a.after_bits[i] != b.after_bits[i];
      *count += differs;
      const uint8_t g = differs ? 255 : 40;
      row[x * 4 + 0] = g;
      row[x * 4 + 1] = differs ? 0 : g;
      row[x * 4 + 2] = differs ? 255 : g;
      row[x * 4 + 3] = 255;
    }
  }
  return mask;
}

}  // namespace

renderer::SessionOptions SessionOptionsFor(const Combination& c, const CompareOptions& options) {
  renderer::SessionOptions so;
  so.path = c.path;
  so.renderer.scale_x = c.scale_x;
  so.renderer.scale_y = c.scale_y;
  so.device_index = options.device_index;
  so.validate = options.validate;
  so.threads = options.threads;
  if (options.test_fault && options.test_fault->combination == c) {
    so.test_fault_skip_draw = options.test_fault->draw;
  }
  return so;
}

Bisection BisectFrame(const std::string& trace, uint64_t frame, const Combination& reference,
                      const Combination& other, const CompareOptions& options) {
  Bisection b;
  b.frame = frame;
  try {
    const Pass ref = RunPass(trace, frame, reference, options, std::nullopt);
    const Pass oth = RunPass(trace, frame, other, options, std::nullopt);
    if (ref.draws != oth.draws) {
      throw Error("the two paths saw different draws in frame " + std::to_string(frame));
    }
    size_t i = 0;
    while (i < ref.hashes.size() && ref.hashes[i] == oth.hashes[i]) ++i;
    if (i == ref.hashes.size()) {
      b.summary = "frame " + std::to_string(frame) + ": the targets of all " +
                  std::to_string(ref.draws.size()) +
                  " draws/resolves agree in guest bits; the frames part after them (swap / "
                  "front-buffer read, or memory a resolve wrote)";
      return b;
    }
    b.found = true;
    b.draw = ref.draws[i];
    b.kind = ref.resolves[i] ? "resolve" : "draw";
    const Pass ref_cap = RunPass(trace, frame, reference, options, b.draw);
    const Pass oth_cap = RunPass(trace, frame, other, options, b.draw);
    b.shaders = ref_cap.shaders;
    b.state = DumpOfDraw(trace, frame, b.draw);
    uint64_t differing = 0, pixels = 0;
    const std::string stem = SafeName(TraceName(trace)) + "-" + SafeName(other.Name()) + "-" + b.Id();
    if (!options.report_dir.empty()) fs::create_directories(fs::path(options.report_dir) / "bisect");
    for (size_t t = 0; t < ref_cap.captures.size() && t < oth_cap.captures.size(); ++t) {
      const TargetCapture& rc = ref_cap.captures[t];
      const TargetCapture& oc = oth_cap.captures[t];
      if (!b.targets.empty()) b.targets += "; ";
      b.targets += rc.region.Describe();
      uint64_t count = 0;
      diff::OwnedImage mask = AnyDifferenceMask(rc, oc, &count);
      differing += count;
      pixels += rc.after_bits.size();
      if (options.report_dir.empty()) continue;
      auto save = [&](const diff::OwnedImage& img, const std::string& what, const std::string& label) {
        const std::string rel = "bisect/" + stem + "-" + rc.region.name + "-" + what + ".png";
        diff::SavePng((fs::path(options.report_dir) / rel).string(), img.view());
        b.images.push_back({label, rel});
      };
      const std::string id = " " + rc.region.name + " ";
      save(rc.before, "ref-before", reference.Name() + id + "before " + b.Id());
      save(rc.after, "ref-after", reference.Name() + id + "after " + b.Id());
      save(oc.before, "other-before", other.Name() + id + "before " + b.Id());
      save(oc.after, "other-after", other.Name() + id + "after " + b.Id());
      save(mask, "mask", "any difference after " + b.Id() + id + "(magenta)");
    }
    b.summary = "first differing " + b.kind + " " + b.Id() + ": " + std::to_string(differing) +
                " of " + std::to_string(pixels) + " target pixels differ in guest bits (" +
                b.targets + ")";
  } catch (const std::exception& e) {
    b.error = e.what();
    b.summary = "frame " + std::to_string(frame) + ": bisection failed: " + b.error;
  }
  return b;
}

}  // namespace xnt::compare
