// compare/ without a device: combinations, shards (stable hash), results.json both ways, merging,
// JUnit, expectations in TOML.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "xnt/base/error.h"
#include "xnt/compare/combination.h"
#include "xnt/compare/expectations.h"
#include "xnt/compare/results.h"
#include "xnt/compare/snapshot.h"
#include "test_files.h"

namespace xnt::compare {
namespace {

TEST(Compare, CombinationsParse) {
  auto c = ParseCombinations("fbo,cpu", "1x1,2x2");
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].Name(), "fbo@1x1");
  EXPECT_EQ(c[1].Name(), "fbo@2x2");
  EXPECT_EQ(c[3].Name(), "cpu@2x2");
  EXPECT_EQ(ParseCombination("cpu").Name(), "cpu@1x1");
  EXPECT_EQ(ParseCombination("fbo@3x2").Name(), "fbo@3x2");
  EXPECT_THROW(ParseCombination("gl@1x1"), Error);
  EXPECT_THROW(ParseCombinations("cpu", "2"), Error);
  EXPECT_THROW(ParseCombinations("cpu", "0x1"), Error);
}

TEST(Compare, ShardsAreStableAndPartition) {
  // FNV-1a 64 test vectors (Fowler/Noll/Vo reference).
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
  EXPECT_THROW(ParseShard("0/3"), Error);
  EXPECT_THROW(ParseShard("4/3"), Error);
  EXPECT_THROW(ParseShard("3"), Error);
  for (int n = 0; n < 50; ++n) {
    const std::string name = "/some/dir/trace_" + std::to_string(n) + ".xnt";
    int owners = 0;
    for (uint32_t i = 1; i <= 3; ++i) owners += InShard(name, {i, 3});
    EXPECT_EQ(owners, 1) << name;
    // The folder does not matter, only the file name.
    EXPECT_EQ(InShard(name, {2, 3}), InShard("elsewhere/trace_" + std::to_string(n) + ".xnt", {2, 3}));
  }
}

TEST(Compare, SnapshotSelectionParses) {
  auto s = ParseSnapshotSelection("0.3,12.0");
  ASSERT_EQ(s.draws.size(), 2u);
  EXPECT_TRUE(s.Contains(0, 3));
  EXPECT_TRUE(s.Contains(12, 0));
  EXPECT_FALSE(s.Contains(0, 4));
  EXPECT_TRUE(ParseSnapshotSelection("all").Contains(7, 9));
  EXPECT_THROW(ParseSnapshotSelection("3"), Error);
  EXPECT_THROW(ParseSnapshotSelection("a.b"), Error);
}

TEST(Compare, MemoryTargetsReadGuestBytesThroughTheEndianSwap) {
  replay::GuestMemory memory;
  const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  memory.Write(0x1000, bytes);
  // Two dword elements written with Endian128 k8in32 (address bits 1:0 XOR 3), and one whose
  // address left guest memory.
  MemoryTarget t;
  t.name = "dest";
  t.width = 3;
  t.height = 1;
  t.bytes_per_element = 4;
  t.endian_xor = 3;
  t.addresses = {0x1000, 0x1004, UINT32_MAX};
  std::vector<uint64_t> raw;
  const diff::OwnedImage image = MemoryTargetImage(memory, t, &raw);
  const uint8_t* row = image.view().Row(0);
  // Element 0 is the bytes at 0x1003, 0x1002, 0x1001, 0x1000.
  EXPECT_EQ(row[0], 4);
  EXPECT_EQ(row[1], 3);
  EXPECT_EQ(row[2], 2);
  EXPECT_EQ(row[3], 1);
  EXPECT_EQ(row[4], 8);
  EXPECT_EQ(row[7], 5);
  EXPECT_EQ(row[8], 0);  // outside: black
  ASSERT_EQ(raw.size(), 3u);
  EXPECT_EQ(raw[0], 0x01020304u);
  EXPECT_EQ(raw[1], 0x05060708u);
  EXPECT_EQ(raw[2], UINT64_MAX);
  // The hash follows the elements' bytes and nothing else.
  const uint64_t h = HashMemoryTargets(memory, {t});
  const uint8_t other = 9;
  memory.Write(0x1008, std::span<const uint8_t>(&other, 1));
  EXPECT_EQ(HashMemoryTargets(memory, {t}), h);
  memory.Write(0x1005, std::span<const uint8_t>(&other, 1));
  EXPECT_NE(HashMemoryTargets(memory, {t}), h);
  // A contiguous range (a memexport stream): one read, the same bytes.
  MemoryTarget linear;
  linear.width = 2;
  linear.height = 1;
  linear.linear_base = 0x1000;
  MemoryTarget listed = linear;
  listed.addresses = {0x1000, 0x1004};
  EXPECT_EQ(HashMemoryTargets(memory, {linear}), HashMemoryTargets(memory, {listed}));
  uint64_t count = 0;
  AnyDifferenceMask(image.view(), raw, {0x01020304u, 0, UINT64_MAX}, &count);
  EXPECT_EQ(count, 1u);
}

RunResults Example() {
  RunResults r;
  r.reference = "cpu@1x1";
  r.combinations = {"cpu@1x1", "fbo@1x1", "fbo@2x2"};
  r.traces = {"b.xnt", "a \"q\".xnt"};
  auto make = [](const std::string& trace, const std::string& combo) {
    CombinationResult c;
    c.trace = trace;
    c.combination = combo;
    return c;
  };
  CombinationResult ref = make("b.xnt", "cpu@1x1");
  ref.reference = true;
  FrameResult rf;
  rf.hash = "00000000000000aa";
  ref.frames.push_back(rf);
  CombinationResult differ = make("b.xnt", "fbo@1x1");
  differ.status = diff::Status::kDiffer;
  FrameResult f;
  f.status = diff::Status::kDiffer;
  f.hash = "00000000000000bb";
  f.reference_hash = "00000000000000aa";
  f.detail = "max error 0.5 > 0";
  f.max_error = 0.5;
  f.pixels_differing = 12;
  f.images.push_back({"ref <frame>", "frames/b/x.png"});
  differ.frames.push_back(f);
  Bisection b;
  b.frame = 0;
  b.found = true;
  b.draw = 3;
  b.kind = "draw";
  b.summary = "first differing draw 0.3: \\ \"quoted\"\n\ttab \x01";
  b.state = "line\nline";
  differ.bisections.push_back(b);
  CombinationResult err = make("a \"q\".xnt", "fbo@2x2");
  err.status = diff::Status::kError;
  err.error = "--path fbo: resolution scaling is not implemented yet (only 1x1)";
  r.results = {differ, err, ref};
  r.Sort();
  return r;
}

TEST(Compare, ResultsJsonRoundTrips) {
  RunResults r = Example();
  EXPECT_EQ(r.results[0].trace, "a \"q\".xnt");
  EXPECT_EQ(r.ExitCode(), 2);
  const std::string json = ToJson(r);
  RunResults back = FromJson(json, "mem");
  EXPECT_EQ(ToJson(back), json);
  EXPECT_EQ(ToJunit(back), ToJunit(r));
  EXPECT_EQ(back.results[2].bisections[0].summary, r.results[2].bisections[0].summary);
  EXPECT_THROW(FromJson("{\"tool\": \"xenotrace compare\", ", "bad"), Error);
  EXPECT_THROW(FromJson("[]", "notours"), Error);
}

TEST(Compare, MergeJoinsShardsInOneOrder) {
  RunResults all = Example();
  RunResults s1 = all, s2 = all;
  s1.results.erase(s1.results.begin() + 1, s1.results.end());  // a "q".xnt
  s1.traces = {"a \"q\".xnt"};
  s1.shard = "1/2";
  s2.results.erase(s2.results.begin());
  s2.traces = {"b.xnt"};
  s2.shard = "2/2";
  RunResults merged = Merge({s2, s1});
  EXPECT_EQ(ToJunit(merged), ToJunit(all));
  EXPECT_EQ(ToText(merged), ToText(all));
  EXPECT_THROW(Merge({s1, s1}), Error);
  RunResults other = s2;
  other.reference = "fbo@1x1";
  EXPECT_THROW(Merge({s1, other}), Error);
}

TEST(Compare, JunitHasOneTestcasePerTraceAndCombination) {
  const std::string x = ToJunit(Example());
  EXPECT_NE(x.find("tests=\"3\" failures=\"1\" errors=\"1\""), std::string::npos) << x;
  EXPECT_NE(x.find("classname=\"xenotrace.compare.b.xnt\" name=\"fbo@1x1 vs cpu@1x1\""), std::string::npos) << x;
  EXPECT_NE(x.find("first differing draw 0.3"), std::string::npos);
  EXPECT_NE(x.find("a &quot;q&quot;.xnt"), std::string::npos);
  EXPECT_EQ(x.find('\x01'), std::string::npos);
}

TEST(Compare, ExpectationsRoundTripAndCatchChanges) {
  const auto file = ::xnt::test::TestWorkDir("compare") / "expect.toml";
  std::filesystem::create_directories(file.parent_path());
  std::filesystem::remove(file);
  RunResults r = Example();
  UpdateExpectations(file.string(), r);
  RunResults same = Example();
  CheckExpectations(file.string(), same);
  EXPECT_EQ(same.results[1].status, diff::Status::kPass);  // b.xnt cpu@1x1
  EXPECT_EQ(same.results[2].status, diff::Status::kDiffer); // was differing anyway
  RunResults changed = Example();
  changed.results[1].frames[0].hash = "00000000000000cc";
  const std::string summary = CheckExpectations(file.string(), changed);
  EXPECT_EQ(changed.results[1].status, diff::Status::kDiffer);
  EXPECT_NE(changed.results[1].frames.back().detail.find("hash 00000000000000cc, expected 00000000000000aa"),
            std::string::npos);
  EXPECT_NE(summary.find("combination(s) as expected"), std::string::npos);
  std::ofstream(file) << "[traces\n";
  EXPECT_THROW(CheckExpectations(file.string(), changed), Error);
}

// Mesa-style device keys: a device that renders a combination differently gets its own entry,
// checked before the device-independent one; other devices keep using the latter.
TEST(Compare, ExpectationsPerDeviceFallBackToDeviceIndependentOnes) {
  const auto file = ::xnt::test::TestWorkDir("compare") / "expect_dev.toml";
  std::filesystem::create_directories(file.parent_path());
  std::filesystem::remove(file);
  auto run = [](const std::string& device, const std::string& hash, const std::string& combo) {
    RunResults r;
    r.combinations = {combo};
    r.traces = {"t.xnt"};
    CombinationResult c;
    c.trace = "t.xnt";
    c.combination = combo;
    c.device = device;
    FrameResult f;
    f.hash = hash;
    c.frames.push_back(f);
    r.results.push_back(c);
    return r;
  };
  UpdateExpectations(file.string(), run("llvmpipe (LLVM 15.0.6, 256 bits)", "00000000000000aa", "fbo@1x1"));
  UpdateExpectations(file.string(), run("NVIDIA H100 80GB HBM3", "00000000000000bb", "fbo@1x1"));
  // The second device differs: it got its own table; the first stays device-independent.
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  EXPECT_NE(text.str().find("[traces.\"t.xnt\"]\n\"fbo@1x1\" = { frame_0000 = \"00000000000000aa\" }"),
            std::string::npos) << text.str();
  EXPECT_NE(text.str().find("[traces.\"t.xnt\".devices.\"NVIDIA H100 80GB HBM3\"]\n\"fbo@1x1\" = "
                            "{ frame_0000 = \"00000000000000bb\" }"),
            std::string::npos) << text.str();
  RunResults h100 = run("NVIDIA H100 80GB HBM3", "00000000000000bb", "fbo@1x1");
  CheckExpectations(file.string(), h100);
  EXPECT_EQ(h100.results[0].status, diff::Status::kPass);
  // A third device falls back to the device-independent entry.
  RunResults other = run("AMD Radeon", "00000000000000bb", "fbo@1x1");
  CheckExpectations(file.string(), other);
  EXPECT_EQ(other.results[0].status, diff::Status::kDiffer);
  EXPECT_NE(other.results[0].frames.back().detail.find("device-independent"), std::string::npos);
  RunResults llvm = run("llvmpipe (LLVM 15.0.6, 256 bits)", "00000000000000aa", "fbo@1x1");
  CheckExpectations(file.string(), llvm);
  EXPECT_EQ(llvm.results[0].status, diff::Status::kPass);
  // The H100 entry changed to agree with the others: its device entry is dropped.
  UpdateExpectations(file.string(), run("NVIDIA H100 80GB HBM3", "00000000000000aa", "fbo@1x1"));
  std::stringstream again;
  again << std::ifstream(file).rdbuf();
  EXPECT_EQ(again.str().find(".devices."), std::string::npos) << again.str();
  // The cpu path is one key whatever its thread count.
  UpdateExpectations(file.string(), run("CPU (interpreter, 2 threads)", "00000000000000cc", "cpu@1x1"));
  RunResults cpu = run("CPU (interpreter, 16 threads)", "00000000000000cc", "cpu@1x1");
  CheckExpectations(file.string(), cpu);
  EXPECT_EQ(cpu.results[0].status, diff::Status::kPass);
  // A device table that is not a table of tables is an error naming it.
  std::ofstream(file) << "[traces.\"t.xnt\"]\ndevices = { x = 1 }\n";
  EXPECT_THROW(CheckExpectations(file.string(), cpu), Error);
}

}  // namespace
}  // namespace xnt::compare
