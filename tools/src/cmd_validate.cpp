// `xenotrace validate FILE [--json]`: checks every chunk (header, XXH3-64 of stored and raw
// bytes, FlatBuffers verifier), every cross reference (pages named by memory events, frame
// numbering, footer index and totals against the chunks) and prints each problem with its byte
// offset. Exit 0 valid, 1 invalid, 2 usage error or unreadable file.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "command.h"
#include "xnt/base/json.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"

namespace xnt::cli {
namespace {


// Problems read "at byte offset N: message"; JSON gets the offset as a number of its own.
void SplitProblem(const std::string& p, std::string* offset, std::string* message) {
  const std::string prefix = "at byte offset ";
  *offset = "null";
  *message = p;
  if (p.rfind(prefix, 0) != 0) return;
  size_t colon = p.find(": ", prefix.size());
  if (colon == std::string::npos) return;
  *offset = p.substr(prefix.size(), colon - prefix.size());
  *message = p.substr(colon + 2);
}

int RunValidate(const std::string& path, bool json) {
  // An unreadable file is a usage/input error (2), not an invalid trace (1).
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    std::fprintf(stderr, "xenotrace: error: cannot open %s: %s\n", path.c_str(), std::strerror(errno));
    return kExitError;
  }
  ::close(fd);

  std::vector<std::string> problems;
  uint64_t chunks = 0, frames = 0;
  bool recovered = false, opened = false;
  try {
    auto reader = format::Reader::Open(path);
    opened = true;
    recovered = reader->recovered();
    chunks = reader->chunks().size();
    frames = reader->frame_count();
    problems = reader->Validate();
  } catch (const Error& e) {
    problems.push_back(e.what());
  }
  const bool valid = problems.empty();
  if (json) {
    std::printf("{\n  \"file\": %s,\n  \"valid\": %s,\n  \"opened\": %s,\n  \"recovered\": %s,\n", JsonString(path).c_str(),
                valid ? "true" : "false", opened ? "true" : "false", recovered ? "true" : "false");
    std::printf("  \"chunks\": %" PRIu64 ",\n  \"frames\": %" PRIu64 ",\n  \"problems\": [", chunks, frames);
    for (size_t i = 0; i < problems.size(); ++i) {
      std::string offset, message;
      SplitProblem(problems[i], &offset, &message);
      std::printf("%s\n    {\"offset\": %s, \"message\": %s}", i ? "," : "", offset.c_str(), JsonString(message).c_str());
    }
    std::printf("%s]\n}\n", problems.empty() ? "" : "\n  ");
  } else if (valid) {
    std::printf("%s: valid (%" PRIu64 " chunks, %" PRIu64 " frames; every checksum, schema and cross reference checked)\n",
                path.c_str(), chunks, frames);
  } else {
    for (const auto& p : problems) std::printf("%s: %s\n", path.c_str(), p.c_str());
    std::printf("%s: INVALID (%zu problem%s)\n", path.c_str(), problems.size(), problems.size() == 1 ? "" : "s");
  }
  return valid ? kExitOk : kExitNo;
}

XNT_COMMAND({"validate", "Check every chunk, checksum, schema and cross reference of a .xnt trace", 11,
             [](CLI::App& sub) {
               auto path = std::make_shared<std::string>();
               auto json = std::make_shared<bool>(false);
               sub.add_option("FILE", *path, "Trace file (.xnt)")->required();
               sub.add_flag("--json", *json, "Print one JSON object: valid, problems [{offset, message}]");
               sub.footer(
                   "Checks: file header; each chunk's header checksum, stored and raw XXH3-64, zstd frame, "
                   "FlatBuffers verifier; page hashes; every page a memory event names exists in an earlier "
                   "chunk; frame numbering; the footer's chunk list, frame index, page index and totals. "
                   "A trace without a footer is invalid (its whole chunks are still checked).\n"
                   "Exit codes: 0 valid, 1 invalid (each problem printed with its byte offset), 2 usage "
                   "error or unreadable file.");
               return [=] { return RunValidate(*path, *json); };
             }});

}  // namespace
}  // namespace xnt::cli
