// The `xenotrace info`, `validate` and `bench format` commands on good, truncated and corrupted
// traces: exit codes, JSON keys and values.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>

#include "fixtures.h"
#include "test_files.h"

namespace xnt::format::test {
namespace {

using CliRun = ::xnt::test::ShellResult;

CliRun Xenotrace(const std::string& args) {
  return ::xnt::test::RunShell(std::string(XNT_CLI_PATH) + " " + args + " 2>&1");
}

// The number after "key": in a JSON text, or -1.
double JsonNumber(const std::string& json, const std::string& key) {
  // Plain string search: gcc 12's <regex> trips -Wmaybe-uninitialized under ASan at -O2.
  const std::string needle = "\"" + key + "\": ";
  size_t at = json.find(needle);
  if (at == std::string::npos) return -1;
  at += needle.size();
  size_t end = json.find_first_not_of("-0123456789.", at);
  if (end == at) return -1;
  return std::stod(json.substr(at, end - at));
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto records = SampleRecords(3, false);
    WriterOptions options;
    options.chunk_target_bytes = 4096;
    WriteTrace(good.path, records, options);
    bytes = ReadFileBytes(good.path);
  }
  TempFile good{"cli_good.xnt"}, bad{"cli_bad.xnt"};
  std::vector<uint8_t> bytes;
};

TEST_F(CliTest, InfoOnAGoodTrace) {
  CliRun r = Xenotrace("info --json " + good.path);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(JsonNumber(r.out, "frames"), 3);
  EXPECT_EQ(JsonNumber(r.out, "submissions"), 7);
  EXPECT_EQ(JsonNumber(r.out, "pm4_dwords"), 3 * 10 + 1);
  EXPECT_EQ(JsonNumber(r.out, "pages_distinct"), 3 + 2 + 3 * 1);  // snapshot, texture, CPU writes
  EXPECT_EQ(JsonNumber(r.out, "pages_referenced"), 3 + 3 * (2 + 1));
  EXPECT_NE(r.out.find("\"format_version\": \"1.0\""), std::string::npos);
  EXPECT_NE(r.out.find("\"recovered\": false"), std::string::npos);
  EXPECT_GT(JsonNumber(r.out, "ratio"), 0);
  CliRun text = Xenotrace("info " + good.path);
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("frames          3"), std::string::npos) << text.out;
}

TEST_F(CliTest, InfoOnATruncatedTraceSaysRecovered) {
  bytes.resize(bytes.size() * 2 / 3);
  WriteFileBytes(bad.path, bytes);
  CliRun r = Xenotrace("info --json " + bad.path);
  // Described, and exit code 1 ("ran, but on a damaged trace") unless --allow-damaged.
  ASSERT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("\"recovered\": true"), std::string::npos) << r.out;
  EXPECT_LT(JsonNumber(r.out, "frames"), 3);
  EXPECT_EQ(Xenotrace("info --allow-damaged " + bad.path).code, 0);
}

TEST_F(CliTest, InfoOnGarbageIsAnInputError) {
  WriteFileBytes(bad.path, std::vector<uint8_t>(100, 'z'));
  EXPECT_EQ(Xenotrace("info " + bad.path).code, 2);
  EXPECT_EQ(Xenotrace("info /nonexistent/file.xnt").code, 2);
  EXPECT_EQ(Xenotrace("info").code, 2);
}

TEST_F(CliTest, ValidateGoodTruncatedCorrupted) {
  CliRun ok = Xenotrace("validate --json " + good.path);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("\"valid\": true"), std::string::npos);

  auto truncated = bytes;
  truncated.resize(truncated.size() - 100);
  WriteFileBytes(bad.path, truncated);
  CliRun t = Xenotrace("validate " + bad.path);
  EXPECT_EQ(t.code, 1) << t.out;
  EXPECT_NE(t.out.find("no valid footer"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("INVALID"), std::string::npos);

  auto flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  WriteFileBytes(bad.path, flipped);
  CliRun f = Xenotrace("validate --json " + bad.path);
  EXPECT_EQ(f.code, 1) << f.out;
  EXPECT_NE(f.out.find("\"valid\": false"), std::string::npos);
  EXPECT_GE(JsonNumber(f.out, "offset"), 64) << f.out;

  EXPECT_EQ(Xenotrace("validate /nonexistent/file.xnt").code, 2);
  EXPECT_EQ(Xenotrace("validate --bogus-flag " + good.path).code, 2);
  CliRun help = Xenotrace("validate --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("Exit codes"), std::string::npos);
}

TEST(CliBench, SmallFormatBenchReportsEveryNumber) {
  CliRun r = Xenotrace("bench format --size 4MiB --json");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* key : {"write_mb_s", "read_mb_s", "ratio", "zstd_compress_mb_s", "zstd_decompress_mb_s"}) {
    EXPECT_GT(JsonNumber(r.out, key), 0) << key << "\n" << r.out;
  }
  // Texture pages are re-read every frame, so the trace stores fewer pages than it references.
  EXPECT_LT(JsonNumber(r.out, "pages_distinct"), JsonNumber(r.out, "pages_referenced"));
  EXPECT_EQ(Xenotrace("bench").code, 2);
}

}  // namespace
}  // namespace xnt::format::test
