// `xenotrace`: the command line that composes Xenotrace's libraries.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

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
    // Every error in one style, printed once (issue #20), naming the sub-command.
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
