// Policy parsing (sections, globs, overrides, errors with line numbers) and Evaluate().
#include <gtest/gtest.h>

#include "xnt/base/error.h"
#include "xnt/diff/policy.h"

namespace xnt::diff {
namespace {

TEST(DiffPolicy, GlobMatch) {
  EXPECT_TRUE(GlobMatch("*", "a/b/c.png"));
  EXPECT_TRUE(GlobMatch("trace_a/*", "trace_a/frame_0003.png"));
  EXPECT_FALSE(GlobMatch("trace_a/*", "trace_b/frame_0003.png"));
  EXPECT_TRUE(GlobMatch("*/frame_000?.png", "t/frame_0007.png"));
  EXPECT_FALSE(GlobMatch("*/frame_000?.png", "t/frame_0017.png"));
  EXPECT_TRUE(GlobMatch("*.png", "x.png"));
  EXPECT_FALSE(GlobMatch("*.png", "x.png.bak"));
  EXPECT_TRUE(GlobMatch("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(GlobMatch("a*b*c", "aXXbYY"));
  EXPECT_TRUE(GlobMatch("", ""));
  EXPECT_FALSE(GlobMatch("", "a"));
}

TEST(DiffPolicy, SectionsOverlayInOrder) {
  const char* text = R"(# CI policy
max_error = 0.01          # everything
min_ssim = 0.98
[trace_a/*]
min_ssim = 0.995
pixel_threshold = 0.004, 0.004, 0.008
max_pixels_over = 0.5%
[trace_a/frame_0003.png]
exact = true
[trace_b/*]
max_error = none
min_psnr = 40
; done
)";
  Policy p = Policy::Parse(text, "ci.policy");
  Thresholds other = p.For("trace_c/frame_0001.png");
  EXPECT_EQ(other.max_error, 0.01);
  EXPECT_EQ(other.min_ssim, 0.98);
  EXPECT_FALSE(other.exact.has_value());

  Thresholds a1 = p.For("trace_a/frame_0001.png");
  EXPECT_EQ(a1.min_ssim, 0.995);
  EXPECT_EQ(a1.max_error, 0.01);
  ASSERT_TRUE(a1.pixel_threshold.has_value());
  EXPECT_FLOAT_EQ((*a1.pixel_threshold)[2], 0.008f);
  EXPECT_FLOAT_EQ((*a1.pixel_threshold)[3], 0.008f);  // alpha takes blue's when three are given
  EXPECT_EQ(a1.max_pixels_over, 0.5);
  EXPECT_TRUE(a1.max_pixels_over_percent);
  EXPECT_FALSE(a1.exact.has_value());

  Thresholds a3 = p.For("trace_a/frame_0003.png");
  EXPECT_EQ(a3.exact, true);
  EXPECT_EQ(a3.min_ssim, 0.995);

  Thresholds b = p.For("trace_b/f.png");
  EXPECT_FALSE(b.max_error.has_value());
  EXPECT_EQ(b.min_psnr, 40.0);
}

TEST(DiffPolicy, ErrorsNameFileAndLine) {
  struct Case {
    const char* text;
    const char* want;
  };
  const Case cases[] = {
      {"max_error = 0.1\nmax_eror = 0.1\n", "p.txt:2: unknown key 'max_eror'"},
      {"[trace\nmax_error = 1\n", "p.txt:1: section header"},
      {"\n\nmax_error = abc\n", "p.txt:3: max_error: 'abc' is not a number"},
      {"max_error = 2\n", "p.txt:1: max_error: 2 is outside 0..1"},
      {"exact = maybe\n", "p.txt:1: exact: 'maybe' is not true or false"},
      {"just words\n", "p.txt:1: expected 'key = value'"},
      {"pixel_threshold = 0.1,0.2\n", "p.txt:1: pixel_threshold: expected one value or R,G,B[,A]"},
      {"max_pixels_over = 101%\n", "out of range"},
      {"min_ssim = 1.5\n", "outside -1..1"},
      {"[]\n", "empty section pattern"},
      {"min_psnr = inf\n", "is not a number"},
  };
  for (const Case& c : cases) {
    try {
      Policy::Parse(c.text, "p.txt");
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.want), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(Policy::Load("/nonexistent/policy.txt"), Error);
}

Metrics SampleMetrics() {
  Metrics m;
  m.width = 100;
  m.height = 10;
  m.channels = 3;
  m.exact = false;
  m.max_abs = 0.02;
  m.max_x = 4;
  m.max_y = 7;
  m.mean_abs = 0.001;
  m.pixels_differing = 50;
  m.pixels_over = 12;  // 1.2%
  m.min_channel_psnr = 41.5;
  m.has_ssim = true;
  m.ssim_min = 0.991;
  m.has_flip = true;
  m.flip_mean = 0.01;
  return m;
}

TEST(DiffPolicy, EvaluateEachThreshold) {
  const Metrics m = SampleMetrics();
  // Nothing set: exact is implied.
  Verdict v = Evaluate(m, {});
  EXPECT_EQ(v.status, Status::kDiffer);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_NE(v.reasons[0].find("not exact"), std::string::npos);
  Metrics same = m;
  same.exact = true;
  EXPECT_EQ(Evaluate(same, {}).status, Status::kPass);

  struct Case {
    const char* key;
    const char* value;
    bool pass;
  };
  const Case cases[] = {
      {"max_error", "0.02", true},       {"max_error", "0.019", false},   {"mean_error", "0.001", true},
      {"mean_error", "0.0009", false},   {"max_pixels_over", "12", true}, {"max_pixels_over", "11", false},
      {"max_pixels_over", "1.2%", true}, {"max_pixels_over", "1.1%", false}, {"min_psnr", "41.5", true},
      {"min_psnr", "42", false},         {"min_ssim", "0.99", true},      {"min_ssim", "0.995", false},
      {"max_flip", "0.01", true},        {"max_flip", "0.009", false},    {"exact", "false", false},
  };
  for (const Case& c : cases) {
    Thresholds t;
    SetThreshold(t, c.key, c.value);
    Verdict cv = Evaluate(m, t);
    // exact = false alone sets no check, so exact is implied again and fails.
    EXPECT_EQ(cv.status == Status::kPass, c.pass) << c.key << " = " << c.value;
    EXPECT_EQ(cv.reasons.empty(), c.pass) << c.key;
  }
  Thresholds several;
  SetThreshold(several, "max_error", "0.01");
  SetThreshold(several, "min_ssim", "0.999");
  Verdict sv = Evaluate(m, several);
  EXPECT_EQ(sv.reasons.size(), 2u);
  EXPECT_NE(sv.reasons[0].find("at (4,7)"), std::string::npos);
  Metrics nossim = m;
  nossim.has_ssim = false;
  Thresholds need_ssim;
  SetThreshold(need_ssim, "min_ssim", "0.5");
  EXPECT_THROW(Evaluate(nossim, need_ssim), Error);
}

TEST(DiffPolicy, ThresholdsDescribeAndCompareOptions) {
  Thresholds t;
  EXPECT_EQ(t.Describe(), "exact");
  SetThreshold(t, "max_error", "0.004");
  SetThreshold(t, "min_ssim", "0.99");
  SetThreshold(t, "ignore_alpha", "yes");
  SetThreshold(t, "pixel_threshold", "0.1");
  EXPECT_EQ(t.Describe(), "max_error <= 0.004, min_ssim >= 0.99");
  CompareOptions o = t.ToCompareOptions();
  EXPECT_TRUE(o.ignore_alpha);
  EXPECT_FLOAT_EQ(o.pixel_threshold[1], 0.1f);
}

}  // namespace
}  // namespace xnt::diff
