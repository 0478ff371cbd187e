// `xenotrace`: the command line that composes Xenotrace's libraries.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "command.h"
#include "xnt/base/error.h"

namespace xnt::cli {

std::vector<Command>& Registry() {
  static std::vector<Command> commands;
  return commands;
}

bool StderrIsTerminal() { return isatty(2) != 0; }

}  // namespace xnt::cli

int main(int argc, char** argv) {
  using namespace xnt::cli;
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitError;
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
