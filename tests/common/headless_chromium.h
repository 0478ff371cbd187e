// Headless Chromium as the tests of the HTML pages (diff and compare reports, the EDRAM ownership
// map) drive it: load a page, dump its DOM or take a screenshot, and read the console on stderr.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace xnt::test {

inline bool ChromiumInstalled() { return std::system("command -v chromium >/dev/null 2>&1") == 0; }

// Runs chromium on `args` with the flags a CI box needs (no sandbox as root, no GPU, no network
// services) and page console messages logged to stderr, its profile in `profile`; stdout goes to
// `out`, stderr to `err`. Returns the exit status, -1 when it did not exit (killed after 90 s).
inline int RunChromium(const std::filesystem::path& profile, const std::string& args,
                       const std::filesystem::path& out, const std::filesystem::path& err) {
  const std::string cmd =
      "timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync --user-data-dir=" +
      profile.string() + " --enable-logging=stderr --v=0 " + args + " >" + out.string() + " 2>" +
      err.string();
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace xnt::test
