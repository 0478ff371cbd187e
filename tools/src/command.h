// Sub-command registry of the `xenotrace` CLI. Each command lives in its own cmd_*.cpp file and
// registers itself with a static XNT_COMMAND(...) object; tools/CMakeLists.txt globs those files
// straight into the executable, so registration cannot be dropped by the linker.
//
// Exit codes, for every command: 0 success / pass, 1 the answer is "no" (invalid trace, images
// differ, ...), 2 usage or input error.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/gpu/renderer_options.h"

namespace xnt::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNo = 1;
inline constexpr int kExitError = 2;

struct Command {
  std::string name;
  std::string description;
  int order;  // position in --help
  // Adds options to `sub`; returns the function run when this sub-command is chosen.
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

std::vector<Command>& Registry();

struct Registrar {
  explicit Registrar(Command c) { Registry().push_back(std::move(c)); }
};

// XNT_COMMAND accepts {"name", "description", order, setup} with or without the braces.
inline Command MakeCommand(Command c) { return c; }
template <typename... Args>
  requires(sizeof...(Args) >= 2)
Command MakeCommand(Args&&... args) {
  return Command{std::forward<Args>(args)...};
}

// An input file that must exist. A missing one is reported as every command reports a file it
// cannot open ("xenotrace: error: cannot open F: No such file or directory"): the Error thrown
// here leaves CLI11's parse and is printed by main().
inline CLI::Validator InputFile() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) throw Error("cannot open " + path + ": No such file or directory");
        if (std::filesystem::is_directory(path, ec)) throw Error("cannot open " + path + ": it is a directory");
        return {};
      },
      "FILE");
}

// --scaled-lod guest|host (gpu::ScaledDerivatives), for every command that replays at a scale.
inline CLI::Option* AddScaledLodOption(CLI::App& sub, std::string& value) {
  return sub
      .add_option("--scaled-lod", value,
                  "At a resolution scale, what a screen derivative spans: guest (default: a "
                  "guest pixel, so texture LOD, getGradients/getCompTexLOD and polygon-offset "
                  "slopes are the 1x frame's) or host (a host pixel: finer mips, as rendering "
                  "at the higher resolution does)")
      ->check(CLI::IsMember({"guest", "host"}))
      ->capture_default_str();
}
inline gpu::ScaledDerivatives ParseScaledLod(const std::string& value) {
  return value == "host" ? gpu::ScaledDerivatives::kHost : gpu::ScaledDerivatives::kGuest;
}

// True when stdout/stderr is a terminal (progress bars only then).
bool StderrIsTerminal();

}  // namespace xnt::cli

#define XNT_CONCAT_INNER(a, b) a##b
#define XNT_CONCAT(a, b) XNT_CONCAT_INNER(a, b)
#define XNT_COMMAND(...) \
  static ::xnt::cli::Registrar XNT_CONCAT(xnt_command_registrar_, __LINE__)(::xnt::cli::MakeCommand(__VA_ARGS__))
