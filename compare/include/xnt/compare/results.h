// What a compare run found, as plain values: per trace x combination a verdict, per frame the
// metrics against the reference, per differing frame the bisection. results.json holds exactly
// this (so compare-merge joins shards from their files alone), and the HTML page and JUnit XML
// are written from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/diff/policy.h"

namespace xnt::compare {

// One image in the report folder, with what it shows.
struct ReportImage {
  std::string label;  // "cpu@1x1 after 0.3"
  std::string path;   // relative to the report folder
};

// The first draw after which the two combinations' targets differ in guest bits.
struct Bisection {
  uint64_t frame = 0;
  bool found = false;     // false: every draw's targets agree (the frames part elsewhere)
  uint32_t draw = 0;      // F.K: `xenotrace dump`'s numbering
  std::string kind;       // "draw" or "resolve"
  std::string targets;    // the compared targets, described
  std::string summary;    // one line
  std::string state;      // `xenotrace dump --frame F --draw K` of that draw
  std::string shaders;    // the vertex and pixel shaders' disassembly
  std::vector<ReportImage> images;
  std::string error;      // bisection itself failed (why)
  // compare --inspect: {label, link} to the frame inspector's page of this event, one per
  // combination (relative to the report folder).
  std::vector<std::pair<std::string, std::string>> inspect_links;
  std::string Id() const { return std::to_string(frame) + "." + std::to_string(draw); }
};

struct FrameResult {
  uint64_t frame = 0;
  diff::Status status = diff::Status::kPass;
  std::string hash;            // XXH3-64 of this combination's frame (diff::HashPixels), hex
  std::string reference_hash;  // the same of what it was compared with
  std::string detail;          // failed checks or the error, in words
  double max_error = 0;
  uint64_t pixels_differing = 0;
  std::vector<ReportImage> images;  // reference, this, diff (differing frames only)
};

struct CombinationResult {
  std::string trace;        // TraceName
  std::string combination;  // "fbo@1x1"
  bool reference = false;   // the combination the others are compared with
  diff::Status status = diff::Status::kPass;
  std::string error;        // kError: why (a scale a path cannot run, an unreadable trace...)
  std::string device;
  double seconds = 0;       // replay time (not in JUnit, so merged and single runs match)
  std::vector<FrameResult> frames;
  std::vector<Bisection> bisections;
};

struct RunResults {
  std::string reference;                  // "cpu@1x1", or "baseline" / "expectations"
  std::vector<std::string> combinations;  // in column order
  std::vector<std::string> traces;        // sorted by name
  std::vector<CombinationResult> results;  // sorted by trace, then combination column
  std::string shard;                      // "2/3" when one shard, else empty

  diff::Status Overall() const;  // error wins over differ wins over pass
  int ExitCode() const;          // 0 pass, 1 differ, 2 error
  void Sort();                   // the order above
};

std::string ToJson(const RunResults& results);
// Throws xnt::Error naming what is wrong with the text.
RunResults FromJson(const std::string& text, const std::string& name);
// Joins shard results: combinations must agree; traces are disjoint (a trace in two shards is an
// error: the shards were not cut from one corpus).
RunResults Merge(const std::vector<RunResults>& shards);

// JUnit XML: one <testcase classname="xenotrace.compare.TRACE" name="COMBINATION"> per trace x
// combination; <failure> carries the differing frames and the bisection, <error> the error. No
// times: a merged run writes the same file as one run.
std::string ToJunit(const RunResults& results);
// One line per trace x combination, failing ones with their bisection.
std::string ToText(const RunResults& results);
// The report page; images are read from `dir` and inlined (the page works offline, alone).
std::string ToHtml(const RunResults& results, const std::string& dir);
// results.json + report.html into dir (images already there).
void WriteReport(const RunResults& results, const std::string& dir);

}  // namespace xnt::compare
