// `xenotrace`: the command line that composes Xenotrace's libraries.
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "command.h"
#include "xnt/base/error.h"
#include "xnt/renderer/shader_cache.h"

namespace xnt::cli {

std::vector<Command>& Registry() {
  static std::vector<Command> commands;
  return commands;
}

bool StderrIsTerminal() { return isatty(2) != 0; }

}  // namespace xnt::cli

int main(int argc, char** argv) {
  using namespace xnt::cli;
#ifdef __GLIBC__
  // Memory freed at the top of a thread's heap stays with the process instead of going back to the
  // kernel, which glibc does with madvise(MADV_DONTNEED) past M_TRIM_THRESHOLD. A replay frees and
  // allocates the same megabytes every frame (lavapipe's recorded commands among them), and
  // whether glibc's adaptive thresholds had happened to rise early decided per process whether
  // they were trimmed and faulted in again every frame: fbo's flat_2000 took 0.09 s or 0.05 s a
  // replay by the process (4.4x the page faults). Setting it turns the adaptive mmap threshold off
  // too, so that one is set to the adaptive one's ceiling (32 MiB on 64-bit): a frame's
  // megabyte-sized buffers (resolves, the front buffer's rows) then come from the heap's warm
  // pages, not from a fresh mapping faulted in and unmapped every frame; a first calloc from the
  // heap's fresh top still leaves its zero pages untouched (the EDRAM model's).
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
  CLI::App app{
      "xenotrace: record Xbox 360 GPU (Xenos) PM4 command streams into .xnt traces, replay them "
      "headless on Vulkan, and diff the frames.\nExit codes: 0 ok, 1 no (invalid / differs), "
      "2 usage or input error."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("xenotrace ") + XNT_VERSION);

  auto& commands = Registry();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return a.order < b.order; });
  std::function<int()> run;
  for (auto& c : commands) {
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    auto fn = c.setup(*sub);
    sub->callback([&run, fn]() { run = fn; });
  }
  // Commands that can run on a Vulkan device (they take --device: a render path that compiles
  // shaders, renderer::PathInfo::compiles_shaders, or the post chain's compute passes) keep SPIR-V
  // in the user's cache folder (renderer/shader_cache.h), unless told not to.
  bool no_shader_cache = false;
  std::function<void(CLI::App*)> add_cache_flag = [&](CLI::App* sub) {
    if (sub->get_option_no_throw("--device")) {
      sub->add_flag("--no-shader-cache", no_shader_cache,
                    "Compile every translated shader from GLSL; neither read nor write the on-disk "
                    "SPIR-V and pipeline caches ($XDG_CACHE_HOME/xenotrace, else "
                    "~/.cache/xenotrace; host shaders are built in)");
    }
    for (CLI::App* child : sub->get_subcommands([](CLI::App*) { return true; })) add_cache_flag(child);
  };
  add_cache_flag(&app);
  // An unknown sub-command is named (CLI11 would only say that a sub-command is required).
  if (argc >= 2 && argv[1][0] != '-') {
    const std::string name = argv[1];
    if (std::none_of(commands.begin(), commands.end(),
                     [&](const Command& c) { return c.name == name; })) {
      std::string known;
      for (const auto& c : commands) known += (known.empty() ? "" : ", ") + c.name;
      std::fprintf(stderr, "xenotrace: error: unknown command '%s' (commands: %s; see --help)\n",
                   name.c_str(), known.c_str());
      return kExitError;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kExitOk : kExitError;  // --help
    // Every error in one style, printed once, naming the sub-command.
    std::string where;
    for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
      sub = sub->get_subcommands().front();
      where += sub->get_name() + ": ";
    }
    std::fprintf(stderr, "xenotrace: error: %s%s (see --help)\n", where.c_str(), e.what());
    return kExitError;
  } catch (const xnt::Error& e) {  // an input check (InputFile) during parsing
    std::fprintf(stderr, "xenotrace: error: %s\n", e.what());
    return kExitError;
  }
  xnt::renderer::UseBuiltinShaders();
  if (!no_shader_cache) {
    xnt::renderer::SetShaderCacheDirectory(xnt::renderer::DefaultShaderCacheDirectory(
        std::getenv("XDG_CACHE_HOME"), std::getenv("HOME")));
  }
  try {
    return run ? run() : kExitError;
  } catch (const xnt::Error& e) {
    std::fprintf(stderr, "xenotrace: error: %s\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xenotrace: error: %s\n", e.what());
    return kExitError;
  }
}
