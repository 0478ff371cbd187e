// Reading and writing whole files, and running a command through the shell, as the tests that
// check written files and the built CLI do.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace xnt::test {

// The file's bytes as text; "" when it cannot be opened.
inline std::string ReadFileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<uint8_t> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void WriteFileBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

struct ShellResult {
  int code = -1;  // the command's exit status; -1 when it did not exit normally or did not start
  std::string out;
};

// Runs `command` with /bin/sh and captures its stdout; where stderr goes is up to the command
// (callers append their own redirection).
inline ShellResult RunShell(const std::string& command) {
  ShellResult r;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

#ifdef XNT_BINARY_DIR
// The xenotrace binary of this build.
inline std::string XenotraceCli() { return std::string(XNT_BINARY_DIR) + "/tools/xenotrace"; }

// A folder under the build's tests/`folder` that belongs to this test process alone: ctest runs
// a binary's tests in parallel (-j), and they write the same file names.
inline std::filesystem::path ProcessWorkDir(const std::string& folder, const std::string& prefix) {
  return std::filesystem::path(XNT_BINARY_DIR) / "tests" / folder /
         (prefix + std::to_string(::getpid()));
}

// The running test as a file name, "Suite.Name" ('/' of parameterised names made '_'); outside a
// test (a suite's set-up), the process id, which no other running process has.
inline std::string CurrentTestFileName() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!info) return "pid" + std::to_string(::getpid());
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/' || c == ' ') c = '_';
  }
  // A file name component is at most 255 bytes; keep long parameterised names unique by a hash.
  if (name.size() > 200) name = name.substr(0, 180) + "_" + std::to_string(std::hash<std::string>{}(name));
  return name;
}

// A folder under the build's tests/`folder` that belongs to the running test alone, created.
// ctest runs every test of a program as its own process, side by side with the others (-j), so
// two tests writing the same file name (a sample's trace, a frames folder) would read each other's
// half-written files or delete each other's folders. Named after the test, not the process, so
// that a later run rewrites its own files instead of piling up new ones.
inline std::filesystem::path TestWorkDir(const std::string& folder) {
  const std::filesystem::path dir =
      std::filesystem::path(XNT_BINARY_DIR) / "tests" / folder / CurrentTestFileName();
  std::filesystem::create_directories(dir);
  return dir;
}
#endif

}  // namespace xnt::test
