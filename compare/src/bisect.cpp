// Bisection of a differing frame to its first differing draw (bisect.h).
#include "xnt/compare/bisect.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "baseline.h"
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
  TargetSnapshot before, after;
};

// One replay of the trace through `frame`.
struct Pass {
  std::vector<uint32_t> draws;    // every event of the frame, in order
  std::vector<uint64_t> hashes;   // what it wrote (HashEvent), after it ran
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
        for (TargetSnapshot& t : SnapshotEventTargets(*session, e)) {
          TargetCapture c;
          c.before = std::move(t);
          pass.captures.push_back(std::move(c));
        }
        for (const replay::Shader* s : {e.draw->vertex_shader, e.draw->pixel_shader}) {
          if (!s || !s->decoded || !s->decoded->decodes() || e.resolve) continue;
          pass.shaders += ucode::Disassemble(s->decoded->shader) + "\n";
        }
      } else {
        std::vector<TargetSnapshot> after = SnapshotEventTargets(*session, e);
        for (size_t i = 0; i < pass.captures.size() && i < after.size(); ++i) {
          pass.captures[i].after = std::move(after[i]);
        }
      }
      return;
    }
    if (!e.after) return;
    pass.draws.push_back(e.draw->draw_index);
    pass.hashes.push_back(HashEvent(*session, e));
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

// The tail of a found bisection's summary: how many target elements differ and where.
std::string DifferingElements(uint64_t differing, uint64_t elements, const std::string& parts,
                              const char* no_parts, const std::string& targets) {
  return std::to_string(differing) + " of " + std::to_string(elements) +
         " target elements differ in guest bits (" + (parts.empty() ? std::string(no_parts) : parts) + "; " +
         targets + ")";
}

// A bisection that threw: its error kept, and the summary saying which search failed.
void Failed(Bisection& b, uint64_t frame, const char* search, const std::exception& e) {
  b.error = e.what();
  b.summary = "frame " + std::to_string(frame) + ": " + search + " failed: " + b.error;
}

}  // namespace

renderer::SessionOptions SessionOptionsFor(const Combination& c, const CompareOptions& options) {
  renderer::SessionOptions so;
  so.path = c.path;
  so.renderer.scale_x = c.scale.x;
  so.renderer.scale_y = c.scale.y;
  so.renderer.derivatives = options.derivatives;
  so.device_index = options.device_index;
  so.validate = options.validate;
  so.threads = options.threads;
  so.gpu_timeout_ms = options.gpu_timeout_ms;
  if (options.test_fault && options.test_fault->combination == c) {
    if (options.test_fault->kind == TestFault::Kind::kSkipDraw) {
      so.test_fault_skip_draw = options.test_fault->draw;
    } else {
      so.test_fault_resolve_format = options.test_fault->draw;
    }
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
                  " draws/resolves (EDRAM, resolve destinations, memexport streams) agree in "
                  "guest bits; the frames part after them (swap / front-buffer read)";
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
    std::string parts;
    for (size_t t = 0; t < ref_cap.captures.size() && t < oth_cap.captures.size(); ++t) {
      const TargetCapture& rc = ref_cap.captures[t];
      const TargetCapture& oc = oth_cap.captures[t];
      if (!b.targets.empty()) b.targets += "; ";
      b.targets += rc.after.describe;
      uint64_t count = 0;
      diff::OwnedImage mask = AnyDifferenceMask(rc.after.image.view(), rc.after.bits, oc.after.bits, &count);
      if (count) {
        parts += (parts.empty() ? "" : ", ") + rc.after.name + ": " + std::to_string(count) +
                 " of " + std::to_string(rc.after.bits.size());
      }
      differing += count;
      pixels += rc.after.bits.size();
      if (options.report_dir.empty()) continue;
      auto save = [&](const diff::OwnedImage& img, const std::string& what, const std::string& label) {
        const std::string rel = "bisect/" + stem + "-" + rc.after.name + "-" + what + ".png";
        diff::SavePng((fs::path(options.report_dir) / rel).string(), img.view());
        b.images.push_back({label, rel});
      };
      const std::string id = " " + rc.after.name + " ";
      save(rc.before.image, "ref-before", reference.Name() + id + "before " + b.Id());
      save(rc.after.image, "ref-after", reference.Name() + id + "after " + b.Id());
      save(oc.before.image, "other-before", other.Name() + id + "before " + b.Id());
      save(oc.after.image, "other-after", other.Name() + id + "after " + b.Id());
      save(mask, "mask", "any difference after " + b.Id() + id + "(magenta)");
    }
    b.summary = "first differing " + b.kind + " " + b.Id() + ": " +
                DifferingElements(differing, pixels, parts, "none in the compared targets", b.targets);
  } catch (const std::exception& e) {
    Failed(b, frame, "bisection", e);
  }
  return b;
}

Bisection BisectAgainstBaseline(const std::string& trace, uint64_t frame,
                                const Combination& combination, const CompareOptions& options) {
  Bisection b;
  b.frame = frame;
  const std::string name = TraceName(trace);
  try {
    std::string why;
    const std::vector<StoredEvent> stored =
        LoadBaselineEvents(options.baseline_dir, name, combination.Name(), frame, &why);
    if (stored.empty()) {
      b.summary = "frame " + std::to_string(frame) + ": not bisected: " + why;
      return b;
    }
    const Pass now = RunPass(trace, frame, combination, options, std::nullopt);
    std::vector<uint32_t> stored_draws;
    for (const StoredEvent& e : stored) stored_draws.push_back(e.draw);
    if (stored_draws != now.draws) {
      throw Error("frame " + std::to_string(frame) + " has " + std::to_string(now.draws.size()) +
                  " draws/resolves now and " + std::to_string(stored.size()) +
                  " in the baseline (the trace changed?)");
    }
    size_t i = 0;
    while (i < stored.size() && stored[i].hash == now.hashes[i]) ++i;
    if (i == stored.size()) {
      b.summary = "frame " + std::to_string(frame) + ": the targets of all " +
                  std::to_string(stored.size()) +
                  " draws/resolves agree with the baseline's snapshots in guest bits; the "
                  "frames part after them (swap / front-buffer read)";
      return b;
    }
    b.found = true;
    b.draw = stored[i].draw;
    b.kind = now.resolves[i] ? "resolve" : "draw";
    const Pass cap = RunPass(trace, frame, combination, options, b.draw);
    b.shaders = cap.shaders;
    b.state = DumpOfDraw(trace, frame, b.draw);
    const std::string stem = SafeName(name) + "-" + SafeName(combination.Name()) + "-baseline-" + b.Id();
    if (!options.report_dir.empty()) fs::create_directories(fs::path(options.report_dir) / "bisect");
    uint64_t differing = 0, elements = 0;
    std::string parts;
    for (const TargetCapture& c : cap.captures) {
      if (!b.targets.empty()) b.targets += "; ";
      b.targets += c.after.describe;
      const StoredTarget base = LoadBaselineTarget(options.baseline_dir, name, combination.Name(),
                                                   frame, b.draw, c.after.name);
      uint64_t count = 0;
      diff::OwnedImage mask = AnyDifferenceMask(c.after.image.view(), base.bits, c.after.bits, &count);
      if (count) {
        parts += (parts.empty() ? "" : ", ") + c.after.name + ": " + std::to_string(count) +
                 " of " + std::to_string(c.after.bits.size()) +
                 (base.bits.empty() ? " (not in the baseline)" : "");
      }
      differing += count;
      elements += c.after.bits.size();
      if (options.report_dir.empty()) continue;
      auto save = [&](const diff::Image& img, const std::string& what, const std::string& label) {
        const std::string rel = "bisect/" + stem + "-" + c.after.name + "-" + what + ".png";
        diff::SavePng((fs::path(options.report_dir) / rel).string(), img);
        b.images.push_back({label, rel});
      };
      const std::string id = " " + c.after.name + " ";
      if (!base.image.empty()) save(base.image.view(), "baseline-after", "baseline " + combination.Name() + id + "after " + b.Id());
      save(c.before.image.view(), "before", combination.Name() + id + "before " + b.Id());
      save(c.after.image.view(), "after", combination.Name() + id + "after " + b.Id());
      save(mask.view(), "mask", "any difference from the baseline after " + b.Id() + id + "(magenta)");
    }
    b.summary = "first " + b.kind + " differing from the baseline " + b.Id() + ": " +
                DifferingElements(differing, elements, parts, "the stored targets differ", b.targets);
  } catch (const std::exception& e) {
    Failed(b, frame, "bisection against the baseline", e);
  }
  return b;
}

}  // namespace xnt::compare
