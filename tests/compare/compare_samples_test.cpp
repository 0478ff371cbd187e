// Whole comparisons through compare/ on the bundled samples: fbo on lavapipe with the validation
// layer (any message is an error) against the cpu path. They agree except where a sample names
// the fbo path in differs_on; a draw skipped through the test-only fault hook is named exactly by
// bisection; shards merged give the one run's verdicts and JUnit; the report page loads in
// headless Chromium with the failing draw's images.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "headless_chromium.h"
#include "test_env.h"
#include "xnt/compare/compare.h"
#include "xnt/diff/png.h"
#include "xnt/samples/samples.h"
#include "prerequisite.h"
#include "test_files.h"

namespace xnt::compare {
namespace {
namespace fs = std::filesystem;

// Per test: the tests of this file run side by side as processes (test_files.h).
std::filesystem::path Work() { return ::xnt::test::TestWorkDir("compare"); }
// Draw 0.2 of this sample is its second flat triangle (0.0 is the resolve-clear; xenotrace dump).
constexpr const char* kFaultSample = "clear_draws_resolve_swap";
constexpr uint32_t kFaultDraw = 2;

using ::xnt::test::ReadFileText;

std::string WriteSample(const std::string& name) {
  const fs::path file = Work() / "samples" / (name + ".xnt");
  if (!fs::exists(file)) {
    fs::create_directories(file.parent_path());
    samples::WriteSample(*samples::Find(name), file.string());
  }
  return file.string();
}

CompareOptions Options(std::vector<std::string> traces) {
  vk::test::UseLavapipe();
  CompareOptions o;
  o.traces = std::move(traces);
  o.combinations = ParseCombinations("fbo,cpu", "1x1");
  o.reference = ParseCombination("cpu@1x1");
  o.validate = true;
  o.threads = 1;
  return o;
}

const CombinationResult& Find(const RunResults& r, const std::string& trace, const std::string& combo) {
  for (const auto& c : r.results) {
    if (c.trace == trace && c.combination == combo) return c;
  }
  throw std::runtime_error("no result for " + trace + " " + combo);
}

TEST(CompareSamples, EverySampleAgreesOnFboAndCpuExceptWhereDeclared) {
  std::vector<std::string> traces;
  for (const samples::Sample& s : samples::Registry()) traces.push_back(WriteSample(s.name));
  CompareOptions o = Options(traces);
  o.jobs = 2;
  const RunResults r = RunCompare(o);
  ASSERT_EQ(r.results.size(), traces.size() * 2);
  for (const samples::Sample& s : samples::Registry()) {
    const std::string trace = s.name + ".xnt";
    EXPECT_EQ(Find(r, trace, "cpu@1x1").status, diff::Status::kPass) << trace;
    const CombinationResult& fbo = Find(r, trace, "fbo@1x1");
    if (s.differs_on.count("fbo")) {
      EXPECT_EQ(fbo.status, diff::Status::kDiffer) << trace << ": " << s.differs_on.at("fbo");
      ASSERT_FALSE(fbo.bisections.empty()) << trace;
      EXPECT_TRUE(fbo.bisections[0].found) << fbo.bisections[0].summary;
    } else {
      EXPECT_EQ(fbo.status, diff::Status::kPass) << trace << " " << fbo.error << "\n" << ToText(r);
    }
  }
}

// The documented policy commands (docs/compare.md, "Declared exceptions") pass on every bundled
// sample: samples.policy for fbo,cpu at 1x1 and 2x2 against cpu@1x1, samples_2x2.policy for
// fbo@2x2 against cpu@2x2. A sample added without its declared bounds, or a difference that
// grows past them, fails here.
TEST(CompareSamples, TheBundledPoliciesPassEverySample) {
  std::vector<std::string> traces;
  for (const samples::Sample& s : samples::Registry()) traces.push_back(WriteSample(s.name));
  const fs::path policies = fs::path(XNT_SOURCE_DIR) / "compare" / "policies";
  CompareOptions o = Options(traces);
  o.jobs = 2;
  o.bisect = false;
  o.combinations = ParseCombinations("fbo,cpu", "1x1,2x2");
  o.diff.policy = diff::Policy::Load((policies / "samples.policy").string());
  const RunResults one = RunCompare(o);
  EXPECT_EQ(one.ExitCode(), 0) << ToText(one);
  o.combinations = ParseCombinations("fbo", "2x2");
  o.reference = ParseCombination("cpu@2x2");
  o.diff.policy = diff::Policy::Load((policies / "samples_2x2.policy").string());
  const RunResults two = RunCompare(o);
  EXPECT_EQ(two.ExitCode(), 0) << ToText(two);
}

TEST(CompareSamples, BothPathsRunAtAResolutionScale) {
  // The cpu and fbo paths both scale: fbo@2x2 and cpu@2x2 run, neither is an error.
  CompareOptions o = Options({WriteSample(kFaultSample)});
  o.combinations = ParseCombinations("cpu,fbo", "1x1,2x2");
  const RunResults r = RunCompare(o);
  const CombinationResult& c = Find(r, std::string(kFaultSample) + ".xnt", "fbo@2x2");
  const CombinationResult& scaled = Find(r, std::string(kFaultSample) + ".xnt", "cpu@2x2");
  EXPECT_NE(scaled.status, diff::Status::kError) << scaled.error;
  EXPECT_NE(c.status, diff::Status::kError) << c.error;
}

class CompareFault : public ::testing::TestWithParam<const char*> {};

TEST_P(CompareFault, BisectionNamesTheSkippedDraw) {
  const std::string faulty = GetParam();
  CompareOptions o = Options({WriteSample(kFaultSample)});
  o.test_fault = TestFault{ParseCombination(faulty), {0, kFaultDraw}};
  o.report_dir = (Work() / ("fault_" + faulty.substr(0, 3))).string();
  fs::remove_all(o.report_dir);
  RunResults r = RunCompare(o);
  EXPECT_EQ(r.ExitCode(), 1) << ToText(r);
  const CombinationResult& fbo = Find(r, std::string(kFaultSample) + ".xnt", "fbo@1x1");
  ASSERT_EQ(fbo.status, diff::Status::kDiffer) << ToText(r);
  ASSERT_EQ(fbo.bisections.size(), 1u);
  const Bisection& b = fbo.bisections[0];
  EXPECT_TRUE(b.error.empty()) << b.error;
  ASSERT_TRUE(b.found) << b.summary;
  EXPECT_EQ(b.Id(), "0." + std::to_string(kFaultDraw));
  EXPECT_EQ(b.kind, "draw");
  EXPECT_NE(b.state.find("draw 0." + std::to_string(kFaultDraw)), std::string::npos) << b.state;
  EXPECT_FALSE(b.shaders.empty());
  ASSERT_EQ(b.images.size(), 5u);  // one colour target: 2 x before/after + the mask
  for (const ReportImage& i : b.images) EXPECT_TRUE(fs::exists(fs::path(o.report_dir) / i.path)) << i.path;
  // The skipped draw changed nothing before it: the "before" images of both paths are equal.
  EXPECT_EQ(diff::HashPixels(diff::LoadPng((fs::path(o.report_dir) / b.images[0].path).string()).view()),
            diff::HashPixels(diff::LoadPng((fs::path(o.report_dir) / b.images[2].path).string()).view()));
  WriteReport(r, o.report_dir);
  EXPECT_TRUE(fs::exists(fs::path(o.report_dir) / "report.html"));
}

INSTANTIATE_TEST_SUITE_P(OnEitherPath, CompareFault, ::testing::Values("cpu@1x1", "fbo@1x1"));

TEST(CompareSamples, ShardsMergedGiveTheSameVerdictsAndJunitAsOneRun) {
  std::vector<std::string> traces;
  for (const char* name : {"clear_draws_resolve_swap", "triangle_fan", "rectangle_list",
                           "indexed_quad_list", "edram_depth_evict_8888", "edram_gamma_decal_2src_dst"}) {
    traces.push_back(WriteSample(name));
  }
  CompareOptions o = Options(traces);
  o.test_fault = TestFault{ParseCombination("cpu@1x1"), {0, kFaultDraw}};
  o.bisect = true;
  const RunResults one = RunCompare(o);
  EXPECT_EQ(one.ExitCode(), 1);
  std::vector<RunResults> shards;
  size_t total = 0;
  for (uint32_t i = 1; i <= 3; ++i) {
    CompareOptions so = o;
    so.traces.clear();
    for (const std::string& t : traces) {
      if (InShard(t, {i, 3})) so.traces.push_back(t);
    }
    total += so.traces.size();
    so.report_dir = (Work() / ("shard" + std::to_string(i))).string();
    fs::remove_all(so.report_dir);
    RunResults part = RunCompare(so);
    part.shard = std::to_string(i) + "/3";
    WriteReport(part, so.report_dir);
    shards.push_back(FromJson(ReadFileText(fs::path(so.report_dir) / "results.json"), "shard"));
  }
  EXPECT_EQ(total, traces.size());
  const RunResults merged = Merge(shards);
  EXPECT_EQ(ToJunit(merged), ToJunit(one));
  EXPECT_EQ(ToText(merged), ToText(one));
  EXPECT_EQ(merged.ExitCode(), one.ExitCode());
}

// Resolve 0.4 of kFaultSample copies colour 0 (k_8_8_8_8, 320x240) to 0x00200000 without a
// clear, and the swap shows that memory: a wrong destination format changes only resolved bytes.
constexpr uint32_t kFaultResolve = 4;

TEST_P(CompareFault, BisectionNamesAResolveWhoseDestinationBytesDiffer) {
  const std::string faulty = GetParam();
  CompareOptions o = Options({WriteSample(kFaultSample)});
  o.test_fault = TestFault{ParseCombination(faulty), {0, kFaultResolve}, TestFault::Kind::kResolveFormat};
  o.report_dir = (Work() / ("fault_resolve_" + faulty.substr(0, 3))).string();
  fs::remove_all(o.report_dir);
  const RunResults r = RunCompare(o);
  EXPECT_EQ(r.ExitCode(), 1) << ToText(r);
  const CombinationResult& fbo = Find(r, std::string(kFaultSample) + ".xnt", "fbo@1x1");
  ASSERT_EQ(fbo.bisections.size(), 1u) << ToText(r);
  const Bisection& b = fbo.bisections[0];
  ASSERT_TRUE(b.found) << b.summary;
  EXPECT_EQ(b.Id(), "0." + std::to_string(kFaultResolve));
  EXPECT_EQ(b.kind, "resolve");
  // The source target agrees (the resolve does not clear it); its destination does not: the
  // 320x240 rectangle as 76800 destination pixels.
  EXPECT_EQ(b.summary.find("colour0:"), std::string::npos) << b.summary;
  EXPECT_NE(b.summary.find("dest: "), std::string::npos) << b.summary;
  EXPECT_NE(b.summary.find(" of 76800"), std::string::npos) << b.summary;
  EXPECT_NE(b.targets.find("resolve destination 0x00200000"), std::string::npos) << b.targets;
  ASSERT_EQ(b.images.size(), 10u);  // colour0 and dest: before/after on both + mask
  for (const ReportImage& i : b.images) EXPECT_TRUE(fs::exists(fs::path(o.report_dir) / i.path)) << i.path;
}

TEST(CompareSamples, BaselineSavedBeforeAFaultCatchesItAndBisectsAgainstItsSnapshots) {
  CompareOptions o = Options({WriteSample(kFaultSample)});
  o.save_baseline_dir = (Work() / "baseline").string();
  o.baseline_snapshots = true;
  fs::remove_all(o.save_baseline_dir);
  EXPECT_EQ(RunCompare(o).ExitCode(), 0);
  // Every event of the frame stored: resolve-clear, three draws, resolve.
  const fs::path stored = fs::path(o.save_baseline_dir) / (std::string(kFaultSample) + ".xnt") / "fbo_1x1";
  const std::string events = ReadFileText(stored / "events.txt");
  EXPECT_EQ(std::count(events.begin(), events.end(), '\n'), 5) << events;
  EXPECT_TRUE(fs::exists(stored / "snapshots" / "0.2-colour0.bits.png"));
  EXPECT_TRUE(fs::exists(stored / "snapshots" / "0.4-dest.png"));
  CompareOptions later = Options({WriteSample(kFaultSample)});
  later.baseline_dir = o.save_baseline_dir;
  EXPECT_EQ(RunCompare(later).ExitCode(), 0);
  later.report_dir = (Work() / "baseline_report").string();
  fs::remove_all(later.report_dir);
  for (const auto& [kind, draw] : {std::pair{TestFault::Kind::kSkipDraw, kFaultDraw},
                                   std::pair{TestFault::Kind::kResolveFormat, kFaultResolve}}) {
    later.test_fault = TestFault{ParseCombination("fbo@1x1"), {0, draw}, kind};
    const RunResults r = RunCompare(later);
    EXPECT_EQ(r.ExitCode(), 1) << ToText(r);
    const CombinationResult& fbo = Find(r, std::string(kFaultSample) + ".xnt", "fbo@1x1");
    EXPECT_EQ(fbo.status, diff::Status::kDiffer);
    EXPECT_EQ(Find(r, std::string(kFaultSample) + ".xnt", "cpu@1x1").status, diff::Status::kPass);
    ASSERT_EQ(fbo.bisections.size(), 1u);
    const Bisection& b = fbo.bisections[0];
    EXPECT_TRUE(b.error.empty()) << b.error;
    ASSERT_TRUE(b.found) << b.summary;
    EXPECT_EQ(b.Id(), "0." + std::to_string(draw)) << b.summary;
    EXPECT_NE(b.summary.find("differing from the baseline"), std::string::npos) << b.summary;
    // Per target: the baseline's after, this build's before and after, the mask.
    EXPECT_EQ(b.images.size(), kind == TestFault::Kind::kSkipDraw ? 4u : 8u);
    for (const ReportImage& i : b.images) {
      EXPECT_TRUE(fs::exists(fs::path(later.report_dir) / i.path)) << i.path;
    }
  }
  // A baseline without snapshots still gates, and says why it does not bisect.
  o.baseline_snapshots = false;
  EXPECT_EQ(RunCompare(o).ExitCode(), 0);
  later.test_fault = TestFault{ParseCombination("fbo@1x1"), {0, kFaultDraw}};
  const RunResults r = RunCompare(later);
  const CombinationResult& fbo = Find(r, std::string(kFaultSample) + ".xnt", "fbo@1x1");
  ASSERT_EQ(fbo.bisections.size(), 1u);
  EXPECT_FALSE(fbo.bisections[0].found);
  EXPECT_NE(fbo.bisections[0].summary.find("without --snapshots all"), std::string::npos)
      << fbo.bisections[0].summary;
}

// At a resolution scale the snapshots are the scaled EDRAM's host pixels: draw 0.2 covers 7200
// guest pixels of the 320x240 target (the 1x fault test's count), so 4 x 7200 = 28800 of
// 640 x 480 = 307200 at 2x2.
TEST(CompareSamples, ScaledBaselineBisectsInHostPixels) {
  CompareOptions o = Options({WriteSample(kFaultSample)});
  o.combinations = ParseCombinations("cpu", "2x2");
  o.save_baseline_dir = (Work() / "baseline_2x2").string();
  o.baseline_snapshots = true;
  fs::remove_all(o.save_baseline_dir);
  ASSERT_NE(RunCompare(o).ExitCode(), 2);
  CompareOptions later = Options({WriteSample(kFaultSample)});
  later.combinations = o.combinations;
  later.baseline_dir = o.save_baseline_dir;
  later.test_fault = TestFault{ParseCombination("cpu@2x2"), {0, kFaultDraw}};
  const RunResults r = RunCompare(later);
  const CombinationResult& c = Find(r, std::string(kFaultSample) + ".xnt", "cpu@2x2");
  ASSERT_EQ(c.bisections.size(), 1u) << ToText(r);
  ASSERT_TRUE(c.bisections[0].found) << c.bisections[0].summary;
  EXPECT_EQ(c.bisections[0].Id(), "0." + std::to_string(kFaultDraw));
  EXPECT_NE(c.bisections[0].summary.find("colour0: 28800 of 307200"), std::string::npos)
      << c.bisections[0].summary;
}

TEST(CompareSamples, JobsAcrossTracesGiveTheSameResultsAsOneAtATime) {
  std::vector<std::string> traces;
  for (const char* name : {"clear_draws_resolve_swap", "triangle_fan", "rectangle_list"}) {
    traces.push_back(WriteSample(name));
  }
  CompareOptions o = Options(traces);
  o.test_fault = TestFault{ParseCombination("fbo@1x1"), {0, kFaultDraw}};
  const RunResults one = RunCompare(o);
  o.jobs = 3;  // three traces: one job per trace
  const RunResults parallel = RunCompare(o);
  EXPECT_EQ(ToText(parallel), ToText(one));
  EXPECT_EQ(ToJunit(parallel), ToJunit(one));
}

TEST(CompareSamples, ReportPageLoadsInHeadlessChromium) {
  if (!::xnt::test::ChromiumInstalled()) XNT_MISSING_PREREQUISITE() << "chromium not installed";
  CompareOptions o = Options({WriteSample(kFaultSample)});
  o.test_fault = TestFault{ParseCombination("cpu@1x1"), {0, kFaultDraw}};
  o.report_dir = (Work() / "chromium").string();
  fs::remove_all(o.report_dir);
  WriteReport(RunCompare(o), o.report_dir);
  const fs::path dir = o.report_dir;
  ASSERT_EQ(::xnt::test::RunChromium(dir / "profile", "--dump-dom 'file://" + (dir / "report.html").string() + "#zoom=4'",
                                     dir / "dom.out", dir / "dom.err"),
            0)
      << ReadFileText(dir / "dom.err");
  const std::string dom = ReadFileText(dir / "dom.out");
  const std::string err = ReadFileText(dir / "dom.err");
  EXPECT_NE(dom.find(">ok images=8 failures=1<"), std::string::npos) << dom.substr(0, 3000);
  EXPECT_NE(dom.find("data-ok=\"1\""), std::string::npos);
  EXPECT_NE(dom.find("first differing draw 0." + std::to_string(kFaultDraw)), std::string::npos);
  EXPECT_NE(dom.find("any difference after 0." + std::to_string(kFaultDraw)), std::string::npos);
  EXPECT_EQ(err.find("Uncaught"), std::string::npos) << err;
  EXPECT_EQ(err.find(":CONSOLE"), std::string::npos) << err;
}

}  // namespace
}  // namespace xnt::compare
