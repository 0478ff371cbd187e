// `xenotrace bench replay` on the cpu path (no GPU needed): the built-in cases have the draws and
// frames they were authored with, the saved traces replay to what the bench counted, every
// number is filled in, and the baseline check passes a lenient baseline, fails a ratio that grew
// past the tolerance and one that was not measured (exit 1), and refuses a missing file (exit 2).
// Interleaved cases (--interleave) count what they count one after another, and their ratios are
// the median of the rounds' ratios (worked by hand below).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "prerequisite.h"
#include "test_files.h"
#include "xnt/bench/capture_trace.h"
#include "xnt/bench/replay_bench.h"
#include "xnt/diff/png.h"

namespace xnt {
namespace {

namespace fs = std::filesystem;
const fs::path kWork = test::ProcessWorkDir("cli", "bench-replay-");

using Result = test::ShellResult;

Result Xt(const std::string& args) {
  return test::RunShell(test::XenotraceCli() + " " + args + " 2>/dev/null");
}

class BenchReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string cli = test::XenotraceCli();
    if (!fs::exists(cli)) XNT_MISSING_PREREQUISITE() << cli << " not built";
    fs::create_directories(kWork);
  }
  void TearDown() override { fs::remove_all(kWork); }
};

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST_F(BenchReplay, BuiltInCasesOnTheCpuPath) {
  const Result r = Xt("bench replay --paths cpu --draws 20,50 --capture 30 --repeat 1 --json "
                      "--no-shader-cache --save-traces " + kWork.string());
  ASSERT_EQ(r.code, 0) << r.out;
  // textured_4: four quads; flat_N, capture_N: N triangles; one frame each.
  EXPECT_NE(r.out.find("\"name\": \"textured_4\", \"path\": \"cpu\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 4,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 20,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 50,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"name\": \"capture_30\", \"path\": \"cpu\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 30,"), std::string::npos) << r.out;
  EXPECT_EQ(Count(r.out, "\"error\": \"\""), 4u) << r.out;
  EXPECT_EQ(Count(r.out, "\"gpu_seconds_per_frame\": null"), 4u);
  // Four cases of one path: 1 + 2 + 3 ratios (each later case over each earlier one).
  EXPECT_NE(r.out.find("\"cpu:capture_30/flat_50\""), std::string::npos);
  EXPECT_NE(r.out.find("\"cpu:flat_20/textured_4\""), std::string::npos);
  EXPECT_NE(r.out.find("\"cpu:flat_50/textured_4\""), std::string::npos);
  EXPECT_NE(r.out.find("\"cpu:flat_50/flat_20\""), std::string::npos);
  // The saved traces hold what was measured: dump counts the same draws.
  for (const char* name : {"textured_4", "flat_20", "flat_50"}) {
    ASSERT_TRUE(fs::exists(kWork / (std::string(name) + ".xnt"))) << name;
  }
  const Result dump = Xt("dump " + (kWork / "flat_50.xnt").string());
  EXPECT_EQ(Count(dump.out, "=> draw"), 50u);
  // The capture-shaped trace: its 30 draws, each in a ring submission of its own between the
  // frame's first (clear, shaders) and last (resolve, swap).
  const Result capture = Xt("info --json " + (kWork / "capture_30.xnt").string());
  EXPECT_NE(capture.out.find("\"submissions\": 32"), std::string::npos) << capture.out;
  EXPECT_EQ(Count(Xt("dump " + (kWork / "capture_30.xnt").string()).out, "=> draw"), 30u);
}

TEST_F(BenchReplay, CaptureShapedFramesAndTheirLimits) {
  Result r = Xt("bench replay --paths cpu --draws 4 --capture 7 --capture-frames 3 --repeat 1 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"name\": \"capture_3x7\", \"path\": \"cpu\", \"device\": "),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"frames\": 3, \"draws\": 21,"), std::string::npos) << r.out;
  // Sizes past the limits are usage errors, not a run.
  EXPECT_EQ(Xt("bench replay --paths cpu --capture 100001").code, 2);
  EXPECT_EQ(Xt("bench replay --paths cpu --capture 0").code, 2);
}

// GPU time per frame from timestamp queries on the GPU paths (lavapipe writes timestamps too):
// each bundled sample a case, fbo and fsi (lavapipe's unordered test mode). No timing is compared
// between cases (a loaded CI machine can make the small frame slower than the large one); what must
// hold on any machine is structural: the timestamps were written (a positive time), and the
// device's time of a frame lies inside the wall time of the submissions that waited for it.
double Field(const std::string& json, const std::string& name, const std::string& path,
             const std::string& field) {
  const size_t at = json.find("\"name\": \"" + name + "\", \"path\": \"" + path + "\"");
  if (at == std::string::npos) return -2.0;
  const std::string key = "\"" + field + "\": ";
  const size_t v = json.find(key, at);
  if (v == std::string::npos || json.compare(v + key.size(), 4, "null") == 0) return -1.0;
  return std::stod(json.substr(v + key.size(), 20));
}

TEST_F(BenchReplay, GpuTimePerFrameOfSamplesOnFboAndFsi) {
  const Result r = Xt("bench replay --paths fbo,fsi --fsi-ordering unordered --repeat 1 --json "
                      "--samples edram_float16_above_65504_resolve,scale_frame_1280x720");
  if (r.out.find("\"error\": \"no Vulkan") != std::string::npos) {
    XNT_MISSING_PREREQUISITE() << "no Vulkan device";
  }
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(Count(r.out, "\"error\": \"\""), 4u) << r.out;
  for (const char* path : {"fbo", "fsi"}) {
    for (const char* name : {"edram_float16_above_65504_resolve", "scale_frame_1280x720"}) {
      const double gpu = Field(r.out, name, path, "gpu_seconds_per_frame");
      const double wall = Field(r.out, name, path, "warm_seconds");
      const double frames = Field(r.out, name, path, "frames");
      ASSERT_EQ(frames, 1.0) << name << " " << path << "\n" << r.out;
      EXPECT_GT(gpu, 0.0) << name << " " << path << "\n" << r.out;
      // 1 % and 0.1 ms for the device clock's rate and the printed rounding.
      EXPECT_LE(gpu, wall * 1.01 + 1e-4) << name << " " << path << "\n" << r.out;
    }
  }
}

// The capture shape's factors one at a time (--capture-variants): each variant is its own case
// and trace, and all but one-color draw the same triangles in the same colours, so their frames
// are byte-identical to the base case's on the cpu path; one-color paints every triangle of the
// frame with frame 0's first colour, a different frame.
std::string FrameBytes(const fs::path& trace, const std::string& name) {
  const fs::path out = kWork / ("frames_" + name);
  const Result r = Xt("replay " + trace.string() + " -o " + out.string() + " --path cpu");
  if (r.code != 0) return "replay failed: " + r.out;
  std::ifstream in(out / "frame_0000.png", std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_F(BenchReplay, CaptureVariantsAreCasesOfTheirOwnDrawingTheSameFrame) {
  const Result r = Xt("bench replay --paths cpu --draws 4 --capture 9 --repeat 1 --json "
                      "--capture-variants base,packed+early,one-submission,packed,one-color "
                      "--save-traces " + kWork.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const char* names[] = {"capture_9", "capture_9-packed-early", "capture_9-one-submission",
                         "capture_9-packed", "capture_9-one-color"};
  for (const char* name : names) {
    EXPECT_NE(r.out.find("\"name\": \"" + std::string(name) + "\", \"path\": \"cpu\""),
              std::string::npos) << name << "\n" << r.out;
    ASSERT_TRUE(fs::exists(kWork / (std::string(name) + ".xnt"))) << name;
    EXPECT_EQ(Count(Xt("dump " + (kWork / (std::string(name) + ".xnt")).string()).out, "=> draw"), 9u)
        << name;
  }
  // Submissions: the first (clear, shaders), one per draw or one for all, the last (present).
  EXPECT_NE(Xt("info --json " + (kWork / "capture_9-packed-early.xnt").string()).out.find(
                "\"submissions\": 11"), std::string::npos);
  EXPECT_NE(Xt("info --json " + (kWork / "capture_9-one-submission.xnt").string()).out.find(
                "\"submissions\": 3"), std::string::npos);
  const std::string base = FrameBytes(kWork / "capture_9.xnt", "base");
  ASSERT_GT(base.size(), 100u) << base;
  EXPECT_TRUE(FrameBytes(kWork / "capture_9-packed-early.xnt", "pe") == base);
  EXPECT_TRUE(FrameBytes(kWork / "capture_9-one-submission.xnt", "os") == base);
  EXPECT_TRUE(FrameBytes(kWork / "capture_9-packed.xnt", "p") == base);
  EXPECT_FALSE(FrameBytes(kWork / "capture_9-one-color.xnt", "oc") == base);
  // Not a variant: a usage error naming the word.
  const Result bad = test::RunShell(test::XenotraceCli() +
                                    " bench replay --paths cpu --capture 9 --capture-variants early+tiled 2>&1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("tiled"), std::string::npos) << bad.out;
}

// The textured variant: each triangle is its texture's one colour (worked by hand below from
// CaptureTextureColor's rule, 40 + (t * 37, t * 73, t * 151) mod 200), the cells around it the
// clear colour, on cpu and on fbo; its trace writes the 1,024 textures and a fetch constant per
// draw.
TEST_F(BenchReplay, TexturedCaptureDrawsEachTriangleInItsTexturesColour) {
  const Result r = Xt("bench replay --paths cpu,fbo --draws 1 --capture 12 --capture-variants textured+packed "
                      "--repeat 1 --json --save-traces " + kWork.string());
  if (r.out.find("\"error\": \"no Vulkan") != std::string::npos) {
    XNT_MISSING_PREREQUISITE() << "no Vulkan device";
  }
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(Count(r.out, "\"error\": \"\""), 6u) << r.out;  // textured_4, flat_1, the case; each path
  const fs::path trace = kWork / "capture_12-packed-textured.xnt";
  ASSERT_TRUE(fs::exists(trace)) << r.out;
  const std::string dump = Xt("dump " + trace.string()).out;
  EXPECT_EQ(Count(dump, "=> draw"), 12u);
  // Hand-worked: t = 0 (40, 40, 40); t = 1 (77, 113, 191); t = 2 (114, 186, 142); t = 11
  // (40 + 407 % 200, 40 + 803 % 200, 40 + 1661 % 200) = (47, 43, 101).
  const std::array<std::array<uint8_t, 3>, 4> want = {
      {{40, 40, 40}, {77, 113, 191}, {114, 186, 142}, {47, 43, 101}}};
  const uint32_t cells[4] = {0, 1, 2, 11};
  for (uint32_t t : {0u, 1u, 2u, 11u, 700u}) {
    const auto c = bench::CaptureTextureColor(t);
    EXPECT_EQ(c[0], 40 + t * 37 % 200);
    EXPECT_EQ(c[3], 255);
  }
  for (const char* path : {"cpu", "fbo"}) {
    const fs::path out = kWork / (std::string("textured_") + path);
    const Result replay = Xt("replay " + trace.string() + " -o " + out.string() + " --path " + path);
    ASSERT_EQ(replay.code, 0) << path << " " << replay.out;
    const diff::OwnedImage frame = diff::LoadPng((out / "frame_0000.png").string());
    const diff::Image& v = frame.view();
    ASSERT_EQ(v.width, 320);
    auto pixel = [&](int x, int y) {
      const uint8_t* p = v.Row(y) + size_t(x) * v.PixelBytes();
      return std::array<uint8_t, 3>{p[0], p[1], p[2]};
    };
    for (size_t i = 0; i < 4; ++i) {
      // Cell k of the 8x8 grid: (2, 2) inside its triangle (legs from 1.75 to 6.75), (0, 0) not.
      const int x = int(cells[i] % 40) * 8, y = int(cells[i] / 40) * 8;
      EXPECT_EQ(pixel(x + 2, y + 2), want[i]) << path << " cell " << cells[i];
      EXPECT_EQ(pixel(x + 6, y + 2), want[i]) << path << " cell " << cells[i];
      EXPECT_EQ(pixel(x, y), (std::array<uint8_t, 3>{16, 32, 48})) << path << " cell " << cells[i];
    }
  }
}

// --gpu-profile on fbo (lavapipe writes timestamps too): the stages of a frame's GPU time add up
// to the frame's GPU time (one warm replay, so the medians are that replay's), each stage ran
// (the capture case uploads a page per draw ahead of them, draws, resolves and swaps); without a
// GPU the stages are null.
TEST_F(BenchReplay, GpuProfileSplitsTheFrameIntoStages) {
  const Result r = Xt("bench replay --paths fbo,cpu --draws 4 --capture 40 --repeat 1 --json "
                      "--gpu-profile");
  if (r.out.find("\"error\": \"no Vulkan") != std::string::npos) {
    XNT_MISSING_PREREQUISITE() << "no Vulkan device";
  }
  ASSERT_EQ(r.code, 0) << r.out;
  const double total = Field(r.out, "capture_40", "fbo", "gpu_seconds_per_frame");
  const double uploads = Field(r.out, "capture_40", "fbo", "uploads");
  const size_t at = r.out.find("\"name\": \"capture_40\", \"path\": \"fbo\"");
  ASSERT_NE(at, std::string::npos) << r.out;
  const size_t stages = r.out.find("\"gpu_stage_seconds_per_frame\": {", at);
  ASSERT_NE(stages, std::string::npos) << r.out;
  double u = -1, d = -1, v = -1;
  ASSERT_EQ(std::sscanf(r.out.c_str() + stages,
                        "\"gpu_stage_seconds_per_frame\": {\"uploads\": %lf, \"draws\": %lf, "
                        "\"resolves\": %lf}", &u, &d, &v), 3) << r.out.substr(stages, 200);
  EXPECT_GT(total, 0.0);
  EXPECT_EQ(u, uploads);
  EXPECT_GT(u, 0.0);
  EXPECT_GT(d, 0.0);
  EXPECT_GT(v, 0.0);
  EXPECT_NEAR(u + d + v, total, total * 1e-3 + 3e-9) << r.out.substr(stages, 200);
  EXPECT_NE(r.out.find("\"gpu_stage_seconds_per_frame\": {\"uploads\": null, \"draws\": null, "
                       "\"resolves\": null}"), std::string::npos) << r.out;
}

// A capture-shaped frame of 1,500 draws carries about 6.4 MiB of ring data (a fresh 4 KiB vertex
// page and the constants per draw), so the 4 MiB submission bound cuts it at least once: two
// parts and the swap's submission. The ring (8 MiB here) never fills, since a submission is cut
// at 4 MiB plus one draw's data and one 1 MiB block for uploads ahead; the cpu path has none.
TEST_F(BenchReplay, SubmissionsAndRingFillsPerFrame) {
  const Result r = Xt("bench replay --paths fbo,cpu --draws 4 --capture 1500 --repeat 1 --json "
                      "--ring-mib 8");
  if (r.out.find("\"error\": \"no Vulkan") != std::string::npos) {
    XNT_MISSING_PREREQUISITE() << "no Vulkan device";
  }
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_GE(Field(r.out, "capture_1500", "fbo", "submissions_per_frame"), 3.0) << r.out;
  EXPECT_EQ(Field(r.out, "capture_1500", "fbo", "ring_fills_per_frame"), 0.0) << r.out;
  const double peak = Field(r.out, "capture_1500", "fbo", "peak_submission_ring_bytes");
  EXPECT_GT(peak, double(4 << 20)) << r.out;
  EXPECT_LE(peak, double((5 << 20) + (64 << 10))) << r.out;
  EXPECT_EQ(Field(r.out, "capture_1500", "fbo", "ring_bytes"), double(8 << 20)) << r.out;
  EXPECT_EQ(Field(r.out, "capture_1500", "cpu", "submissions_per_frame"), -1.0) << r.out;
  EXPECT_EQ(Field(r.out, "capture_1500", "cpu", "ring_bytes"), -1.0) << r.out;
  EXPECT_EQ(Xt("bench replay --paths fbo --ring-mib 4").code, 2);
}

TEST_F(BenchReplay, BaselineCheck) {
  const fs::path lenient = kWork / "lenient.json";
  const fs::path strict = kWork / "strict.json";
  const fs::path missing = kWork / "missing.json";
  // flat_50 over flat_20 costs more than a thousandth and less than a thousand times.
  std::ofstream(lenient) << "{\"tolerance\": 0.2, \"ratios\": {\"cpu:flat_50/flat_20\": 1000.0}}";
  std::ofstream(strict) << "{\"tolerance\": 0.2, \"ratios\": {\"cpu:flat_50/flat_20\": 0.001}}";
  std::ofstream(missing) << "{\"tolerance\": 0.2, \"ratios\": {\"fbo:flat_50/flat_20\": 1.0}}";
  const std::string run = "bench replay --paths cpu --draws 20,50 --repeat 1 --no-shader-cache --baseline ";
  Result r = Xt(run + lenient.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("baseline: every ratio within +20 %"), std::string::npos) << r.out;
  r = Xt(run + strict.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cpu:flat_50/flat_20: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("above the baseline 0.001"), std::string::npos) << r.out;
  r = Xt(run + missing.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("fbo:flat_50/flat_20: not measured"), std::string::npos) << r.out;
  EXPECT_EQ(Xt(run + (kWork / "nope.json").string()).code, 2);
}

TEST_F(BenchReplay, InterleavedCasesCountTheSameAndReportRounds) {
  const Result r = Xt("bench replay --paths cpu --draws 20,50 --capture 30 --repeat 3 --interleave --json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"interleaved\": true"), std::string::npos) << r.out;
  // Cases in the order they run one after another, each with its own draws.
  const size_t t = r.out.find("\"name\": \"textured_4\""), f20 = r.out.find("\"name\": \"flat_20\""),
               f50 = r.out.find("\"name\": \"flat_50\""), c30 = r.out.find("\"name\": \"capture_30\"");
  ASSERT_TRUE(t != std::string::npos && f20 != std::string::npos && f50 != std::string::npos &&
              c30 != std::string::npos) << r.out;
  EXPECT_LT(t, f20);
  EXPECT_LT(f20, f50);
  EXPECT_LT(f50, c30);
  EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 50,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 30,"), std::string::npos) << r.out;
  EXPECT_EQ(Count(r.out, "\"error\": \"\""), 4u) << r.out;
  EXPECT_NE(r.out.find("\"cpu:capture_30/flat_50\""), std::string::npos);
  const Result text = Xt("bench replay --paths cpu --draws 20 --capture 10 --repeat 2 --interleave");
  EXPECT_NE(text.out.find("the median of 2 rounds' ratios"), std::string::npos) << text.out;
}

TEST_F(BenchReplay, ATruncatedTraceIsRefusedNotTimed) {
  // The first half of a saved trace: no footer, a prefix a scan would recover.
  ASSERT_EQ(Xt("bench replay --paths cpu --draws 20 --capture 10 --repeat 1 --save-traces " + kWork.string()).code, 0);
  const fs::path whole = kWork / "flat_20.xnt", cut = kWork / "cut.xnt";
  fs::copy_file(whole, cut);
  fs::resize_file(cut, fs::file_size(whole) / 2);
  for (const char* interleave : {"", " --interleave"}) {
    Result r = Xt("bench replay --paths cpu --repeat 1" + std::string(interleave) + " " + cut.string());
    EXPECT_EQ(r.code, 2) << r.out;  // no case could run
    EXPECT_NE(r.out.find("cut.xnt        cpu   not run: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("footer"), std::string::npos) << r.out;
    // Beside a whole trace the whole one is timed and the cut one still named.
    r = Xt("bench replay --paths cpu --repeat 1 --json" + std::string(interleave) + " " + cut.string() + " " +
           whole.string());
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("\"frames\": 1, \"draws\": 20,"), std::string::npos) << r.out;
    EXPECT_EQ(Count(r.out, "\"error\": \"\""), 1u) << r.out;
  }
}

bench::ReplayBenchResult Measured(const char* name, std::vector<double> each, bool interleaved) {
  bench::ReplayBenchResult r;
  r.name = name;
  r.path = "cpu";
  r.warm_cpu_each = each;
  std::sort(each.begin(), each.end());
  r.warm_cpu_seconds = each[each.size() / 2];
  r.interleaved = interleaved;
  return r;
}

TEST(BenchReplayRatios, InterleavedRoundsGiveTheMedianOfTheirRatios) {
  // Round ratios a/b: 2/1 = 2, 4/1 = 4, 6/6 = 1 -> median 2. The medians' ratio would be 4/1 = 4:
  // b's third replay fell in a slow spell that a's third replay shared.
  std::vector<bench::BenchRatio> ratios = bench::ReplayBenchRatios(
      {Measured("b", {1.0, 1.0, 6.0}, true), Measured("a", {2.0, 4.0, 6.0}, true)});
  ASSERT_EQ(ratios.size(), 1u);
  EXPECT_EQ(ratios[0].name, "cpu:a/b");
  EXPECT_DOUBLE_EQ(ratios[0].value, 2.0);
  // Measured one after another: the ratio of the medians.
  ratios = bench::ReplayBenchRatios({Measured("b", {1.0, 1.0, 6.0}, false), Measured("a", {2.0, 4.0, 6.0}, false)});
  ASSERT_EQ(ratios.size(), 1u);
  EXPECT_DOUBLE_EQ(ratios[0].value, 4.0);
}

}  // namespace
}  // namespace xnt
