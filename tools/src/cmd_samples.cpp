// `xenotrace samples list [--json]` and `xenotrace samples write NAME|all --out DIR`: the bundled
// sample traces (samples/), written as DIR/NAME.xnt. Output is deterministic: the same build
// writes the same bytes.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "command.h"
#include "xnt/base/json.h"
#include "xnt/base/error.h"
#include "xnt/diff/image.h"
#include "xnt/diff/png.h"
#include "trace_status.h"
#include "xnt/samples/samples.h"

namespace xnt::cli {
namespace {


// The registry with the corpus_* samples read from `corpus` ("" = the folder configured at build).
std::vector<samples::Sample> Samples(const std::string& corpus) {
  samples::RegistryOptions options;
  if (!corpus.empty()) options.corpus_dir = corpus;
  return samples::BuildRegistry(options);
}

int RunList(const std::vector<samples::Sample>& all, bool json) {
  if (json) {
    std::printf("[\n");
    for (size_t i = 0; i < all.size(); ++i) {
      const auto& s = all[i];
      std::printf("  {\"name\": %s, \"description\": %s, \"expected_frame\": %s, "
                  "\"expected_image\": %s}%s\n",
                  JsonString(s.name).c_str(), JsonString(s.description).c_str(),
                  JsonString(s.expected_frame).c_str(), s.expected_image ? "true" : "false",
                  i + 1 < all.size() ? "," : "");
    }
    std::printf("]\n");
    return kExitOk;
  }
  for (const auto& s : all) std::printf("%-28s %s\n", s.name.c_str(), s.description.c_str());
  return kExitOk;
}

// DIR/NAME.expected.png: the CPU-computed image a correct replay of the sample shows.
std::string WriteExpected(const samples::Sample& s, const std::string& dir) {
  if (!s.expected_image) return "";
  const samples::Image e = s.expected_image();
  diff::OwnedImage img(int(e.width), int(e.height), 4, diff::PixelType::kU8);
  for (uint32_t y = 0; y < e.height; ++y) {
    std::copy_n(e.rgba.data() + size_t(y) * e.width * 4, size_t(e.width) * 4, img.MutableRow(int(y)));
  }
  const std::string path = (std::filesystem::path(dir) / (s.name + ".expected.png")).string();
  diff::SavePng(path, img.view());
  return path;
}

int RunWrite(const std::vector<samples::Sample>& all, const std::string& name, const std::string& dir,
             bool expected) {
  std::vector<const samples::Sample*> chosen;
  for (const auto& s : all) {
    if (name == "all" || s.name == name) chosen.push_back(&s);
  }
  if (chosen.empty()) {
    return Fail("samples write: no sample named '" + name + "' (see `xenotrace samples list`)");
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create " + dir + ": " + ec.message());
  for (const samples::Sample* s : chosen) {
    const std::string path = (std::filesystem::path(dir) / (s->name + ".xnt")).string();
    const auto totals = samples::WriteSample(*s, path);
    std::printf("%s: %" PRIu64 " frame(s), %" PRIu64 " submission(s), %" PRIu64
                " PM4 dwords, %" PRIu64 " memory events\n",
                path.c_str(), totals.frames, totals.submissions, totals.pm4_dwords,
                totals.memory_events);
    if (expected) {
      const std::string png = WriteExpected(*s, dir);
      if (png.empty()) std::printf("  (no expected image for %s)\n", s->name.c_str());
      else std::printf("%s: expected image (%s)\n", png.c_str(), s->expected_frame.c_str());
    }
  }
  return kExitOk;
}

XNT_COMMAND("samples", "List or write the bundled sample traces", 5, [](CLI::App& sub) {
  sub.require_subcommand(1);
  auto json = std::make_shared<bool>(false);
  auto name = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>(".");
  auto which = std::make_shared<std::string>();
  auto expected = std::make_shared<bool>(false);
  auto corpus = std::make_shared<std::string>();
  const auto add_corpus = [&](CLI::App* app) {
    app->add_option("--corpus", *corpus,
                    "Folder of the XDK-compiled burgerlib shaders the corpus_* samples draw with "
                    "(default: the one configured at build time; without it they are not listed)");
  };
  CLI::App* list = sub.add_subcommand("list", "Name, description and expected frame of each sample");
  list->add_flag("--json", *json, "Print a JSON array (name, description, expected_frame, ...)");
  add_corpus(list);
  list->callback([which] { *which = "list"; });
  CLI::App* write = sub.add_subcommand("write", "Write DIR/NAME.xnt for one sample or all");
  write->add_option("NAME", *name, "Sample name, or 'all'")->required();
  write->add_option("--out,-o", *dir, "Output directory (created if missing)")
      ->capture_default_str();
  write->add_flag("--expected", *expected,
                  "Also write DIR/NAME.expected.png, the CPU-computed image a correct replay shows");
  add_corpus(write);
  write->callback([which] { *which = "write"; });
  sub.footer("Exit codes: 0 ok, 2 unknown sample or unwritable directory.");
  return [=] {
    const std::vector<samples::Sample> all = Samples(*corpus);
    return *which == "list" ? RunList(all, *json) : RunWrite(all, *name, *dir, *expected);
  };
});

}  // namespace
}  // namespace xnt::cli
