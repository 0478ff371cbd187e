// base/: expected strings are worked out by hand (RFC 4648's test vectors for Base64), so a
// change of behaviour shows up as a changed literal, not as two copies agreeing with each other.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "error_text.h"
#include "xnt/base/atomic_file.h"
#include "xnt/base/base64.h"
#include "xnt/base/error.h"
#include "xnt/base/escape.h"
#include "xnt/base/json.h"
#include "xnt/base/parallel.h"
#include "xnt/base/resolution_scale.h"

namespace xnt {
namespace {

std::string ScaleError(const std::string& text) {
  return xnt::test::ErrorText([&] { (void)ParseResolutionScale(text); }, "(accepted)");
}

TEST(ResolutionScale, ParsesSxTWithEitherX) {
  EXPECT_EQ(ParseResolutionScale("1x1"), (ResolutionScale{1, 1}));
  EXPECT_EQ(ParseResolutionScale("2x2"), (ResolutionScale{2, 2}));
  EXPECT_EQ(ParseResolutionScale("3x1"), (ResolutionScale{3, 1}));
  EXPECT_EQ(ParseResolutionScale("1X3"), (ResolutionScale{1, 3}));
  EXPECT_EQ(ParseResolutionScale("3X3").Name(), "3x3");
  EXPECT_FALSE(ParseResolutionScale("1x1").scaled());
  EXPECT_TRUE(ParseResolutionScale("1x2").scaled());
}

TEST(ResolutionScale, RefusesAnythingElseWithOneText) {
  EXPECT_EQ(ScaleError("4x1"),
            "resolution scale '4x1' is not SxT with S and T from 1 to 3 (1x1, 2x2, 3x2, ...)");
  for (const char* bad : {"", "2", "3", "x", "2x", "x2", "0x1", "1x0", "1x4", "2x-1", "-2x2",
                          "10x1", "01x1", "1.5x1", "2x2x2", "2*2", " 2x2", "2x2 ", "2 x 2"}) {
    EXPECT_EQ(ScaleError(bad), std::string("resolution scale '") + bad +
                                   "' is not SxT with S and T from 1 to 3 (1x1, 2x2, 3x2, ...)")
        << bad;
  }
}

TEST(ResolutionScale, CheckNamesTheNumbersInTheSameWords) {
  EXPECT_NO_THROW(CheckResolutionScale({3, 2}));
  try {
    CheckResolutionScale({0, 2});
    FAIL() << "0x2 accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), ResolutionScaleError("0x2").what());
  }
  EXPECT_THROW(CheckResolutionScale({1, 4}), Error);
}

TEST(Escape, Html) {
  EXPECT_EQ(EscapeHtml("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;'d'");
  EXPECT_EQ(EscapeHtml("&amp;"), "&amp;amp;");
  EXPECT_EQ(EscapeHtml("tab\there\nline \xc3\xa9"), "tab\there\nline \xc3\xa9");
  std::string out = "<p>";
  AppendHtml(out, "1 < 2");
  EXPECT_EQ(out, "<p>1 &lt; 2");
}

TEST(Escape, Xml) {
  EXPECT_EQ(EscapeXml("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
  // Tab and newline stay; other control characters become spaces; UTF-8 passes through.
  EXPECT_EQ(EscapeXml(std::string("x\x01y\tz\n\x1f\r\xc3\xa9", 10)), "x y\tz\n  \xc3\xa9");
  std::string out = "name=\"";
  AppendXml(out, "fbo@1x1 vs cpu@1x1");
  EXPECT_EQ(out, "name=\"fbo@1x1 vs cpu@1x1");
}

TEST(Base64, Rfc4648Vectors) {
  auto b64 = [](const std::string& s) {
    return Base64(std::vector<uint8_t>(s.begin(), s.end()));
  };
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foob"), "Zm9vYg==");
  EXPECT_EQ(b64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
  // The top of the alphabet and every bit set: 0xFB 0xFF 0xBF -> 111110 111111 111110 111111.
  const uint8_t high[] = {0xFB, 0xFF, 0xBF, 0x00};
  EXPECT_EQ(Base64(high, 3), "+/+/");
  EXPECT_EQ(Base64(high, 4), "+/+/AA==");
}

TEST(Json, StringsAreEscapedOnce) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("q\"b\\n\nr\rt\t"), "\"q\\\"b\\\\n\\nr\\rt\\t\"");
  EXPECT_EQ(JsonString(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(JsonString("\xc3\xa9"), "\"\xc3\xa9\"");  // UTF-8 stays UTF-8
  EXPECT_EQ(JsonString("a\xff"), "\"a\xef\xbf\xbd\"");  // not UTF-8: U+FFFD, still valid JSON
  std::string out = "{\"k\": ";
  AppendJsonString(out, "v");
  EXPECT_EQ(out, "{\"k\": \"v\"");
  EXPECT_EQ(DumpJson(Json{{"b", 1}, {"a", 0.5}}), "{\"b\":1,\"a\":0.5}");  // order as written
}

TEST(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const auto dir = std::filesystem::temp_directory_path() / ("xnt_atomic_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "entry.bin").string();
  const std::string first = "first contents", second = "second";
  ASSERT_TRUE(WriteFileAtomically(path, first.data(), first.size()));
  ASSERT_TRUE(WriteFileAtomically(path, second.data(), second.size()));
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), second);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  // A folder that does not exist: false, nothing created.
  EXPECT_FALSE(WriteFileAtomically((dir / "missing" / "x").string(), "x", 1));
  std::filesystem::remove_all(dir);
}

TEST(Parallel, ParallelForRunsEveryItemOnce) {
  for (unsigned jobs : {0u, 1u, 3u, 64u}) {
    std::vector<std::atomic<int>> hits(100);
    ParallelFor(hits.size(), jobs, [&](size_t i) { ++hits[i]; });
    for (size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << i << " jobs " << jobs;
  }
  int calls = 0;
  ParallelFor(0, 4, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(Parallel, ParallelForRethrowsAfterEveryShareStopped) {
  std::atomic<int> done{0};
  EXPECT_THROW(ParallelFor(50, 4,
                           [&](size_t i) {
                             if (i == 7) throw std::runtime_error("item 7");
                             ++done;
                           }),
               std::runtime_error);
  EXPECT_EQ(done.load(), 49);  // the other shares finish the items the failing one left
}

TEST(Parallel, RunSharesSplitsIntoFixedShares) {
  std::vector<uint32_t> seen(5, 99);
  RunShares(5, [&](uint32_t t, uint32_t n) { seen[t] = n; });
  EXPECT_EQ(seen, std::vector<uint32_t>(5, 5));
}

// Share 1 of consecutive calls runs on the thread kept from the call before: its thread-local
// count goes on rising (a thread started per call would count from 1 every time).
TEST(Parallel, RunSharesKeepsItsThreadsBetweenCalls) {
  static thread_local uint32_t runs = 0;
  std::vector<uint32_t> seen(3, 0);
  for (uint32_t call = 0; call < 3; ++call) {
    RunShares(2, [&](uint32_t t, uint32_t) {
      if (t == 1) seen[call] = ++runs;
    });
  }
  EXPECT_EQ(seen[1], seen[0] + 1);
  EXPECT_EQ(seen[2], seen[1] + 1);
}

// A forked child has none of the parent's kept threads: its RunShares starts its own and
// returns (the child is cut off after 20 s if it waits on the parent's).
TEST(Parallel, RunSharesInAForkedChildRunsEveryShare) {
  RunShares(2, [](uint32_t, uint32_t) {});  // the parent keeps a thread
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20);
    std::atomic<uint32_t> sum{0};
    RunShares(3, [&](uint32_t t, uint32_t) { sum += t + 1; });
    ::_exit(sum.load() == 6 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child did not exit (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// A share that calls RunShares itself gets threads of its own: every inner share of every outer
// share runs, and the calls return.
TEST(Parallel, RunSharesInsideAShareRunsEveryShare) {
  std::atomic<uint32_t> sum{0};
  RunShares(3, [&](uint32_t, uint32_t) {
    RunShares(4, [&](uint32_t t, uint32_t) { sum += t + 1; });
  });
  EXPECT_EQ(sum.load(), 3u * (1 + 2 + 3 + 4));
  std::vector<int> hit(6, 0);
  EXPECT_THROW(RunShares(6,
                         [&](uint32_t t, uint32_t) {
                           hit[t] = 1;
                           if (t == 4) throw std::runtime_error("share 4");
                         }),
               std::runtime_error);
  EXPECT_EQ(hit, std::vector<int>(6, 1));  // every share ran before the error came back
}

}  // namespace
}  // namespace xnt
