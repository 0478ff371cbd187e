// `xenotrace diff A B`: compare two images or two folders of frames; exit 0 pass, 1 differ,
// 2 error. Thin layer over xnt::diff (diff/include/xnt/diff/driver.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "command.h"
#include "xnt/diff/driver.h"
#include "xnt/base/error.h"
#include "xnt/base/resolution_scale.h"
#include "xnt/diff/png.h"

namespace xnt::cli {
namespace {

struct DiffArgs {
  std::string a, b, policy, report, junit, scale, resize = "none", kernels = "widest";
  bool json = false, ignore_alpha = false, exact = false, no_ssim = false;
  int border = 0;
  std::string max_error, mean_error, pixel_threshold, max_pixels_over, min_psnr, min_ssim, max_flip;
};

int RunDiff(const DiffArgs& args) {
  using namespace xnt::diff;
  DiffOptions options;
  options.match.resize = ParseResizeMode(args.resize);
  options.match.border = args.border;
  if (!args.scale.empty()) options.match.scale = ParseResolutionScale(args.scale);
  options.ignore_alpha = args.ignore_alpha;
  options.kernels = args.kernels == "avx2"       ? KernelSet::kAvx2
                    : args.kernels == "baseline" ? KernelSet::kBaseline
                                                 : KernelSet::kWidest;
  if (!args.policy.empty()) options.policy = Policy::Load(args.policy);
  // A bad value names the flag as typed (--max-error), not the policy key (max_error).
  auto set = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    try {
      SetThreshold(options.overrides, key, value);
    } catch (const xnt::Error& e) {
      std::string flag = std::string("--") + key, why = e.what();
      std::replace(flag.begin(), flag.end(), '_', '-');
      if (why.rfind(std::string(key) + ": ", 0) == 0) why = why.substr(std::strlen(key) + 2);
      throw xnt::Error(flag + ": " + why);
    }
  };
  if (args.exact) options.overrides.exact = true;
  set("max_error", args.max_error);
  set("mean_error", args.mean_error);
  set("pixel_threshold", args.pixel_threshold);
  set("max_pixels_over", args.max_pixels_over);
  set("min_psnr", args.min_psnr);
  set("min_ssim", args.min_ssim);
  set("max_flip", args.max_flip);
  options.report_dir = args.report;

  Report report = DiffPaths(args.a, args.b, options);
  if (!args.report.empty()) WriteReportDir(report, args.report);
  if (!args.junit.empty()) {
    std::string xml = ToJunit(report);
    WriteFileBytes(args.junit, xml.data(), xml.size());
  }
  if (args.json) {
    std::cout << ToJson(report);
  } else {
    std::cout << ToText(report);
    if (!args.report.empty()) std::cout << "report: " << args.report << "/report.html\n";
  }
  for (const ReportItem& it : report.items)
    if (it.status == Status::kError) std::fprintf(stderr, "xenotrace diff: error: %s\n", it.error.c_str());
  return report.ExitCode();
}

XNT_COMMAND({"diff", "Compare two images or two folders of frames (metrics, thresholds, reports)", 60,
             [](CLI::App& sub) {
               auto args = std::make_shared<DiffArgs>();
               sub.footer(
                   "A and B are PNG files (8/16-bit, RGB/RGBA) or folders, matched by relative path.\n"
                   "With no thresholds the images must be identical. Error values are normalized to 0..1\n"
                   "(one 8-bit step = 1/255 = 0.0039). Exit codes: 0 pass, 1 differ (or missing/extra\n"
                   "files), 2 error (unreadable file, size mismatch without --resize, bad policy).\n"
                   "Policy file: 'key = value' lines under [glob] sections matched against the relative\n"
                   "path; keys: exact, max_error, mean_error, pixel_threshold, max_pixels_over, min_psnr,\n"
                   "min_ssim, max_flip, ignore_alpha (docs/diff.md).\n"
                   "Example: xenotrace diff golden/ out/ --max-error 0.004 --min-ssim 0.99 --report rep/");
               sub.add_option("A", args->a, "first image or folder (before / reference)")->required();
               sub.add_option("B", args->b, "second image or folder (after)")->required();
               sub.add_option("--policy", args->policy, "policy file with thresholds per trace/frame");
               sub.add_option("-o,--out,--report", args->report,
                              "write report.html (self-contained), report.json and images/ (diff, heatmap) here");
               sub.add_flag("--json", args->json, "print the JSON report on stdout instead of text");
               sub.add_option("--junit", args->junit, "write JUnit XML (one testcase per image) to this file");
               sub.add_option("--scale", args->scale,
                              "the larger image was rendered at SxT (1..3 per axis, e.g. 2x2): box-downsample it first");
               sub.add_option("--resize", args->resize,
                              "sizes that are not an integer multiple: none (error), area (area-resample the "
                              "larger), crop (top-left common region)")
                   ->check(CLI::IsMember({"none", "area", "crop"}));
               sub.add_option("--ignore-border", args->border, "ignore N pixels on every side (at compared size)")
                   ->check(CLI::Range(0, 1 << 15));
               sub.add_flag("--ignore-alpha", args->ignore_alpha, "compare RGB only");
               sub.add_flag("--exact", args->exact, "require identical pixels (the default with no thresholds)");
               sub.add_option("--max-error", args->max_error, "max absolute channel error allowed, 0..1");
               sub.add_option("--mean-error", args->mean_error, "max mean absolute channel error, 0..1");
               sub.add_option("--pixel-threshold", args->pixel_threshold,
                              "a pixel is 'over' when a channel error exceeds this (one value or R,G,B[,A])");
               sub.add_option("--max-pixels-over", args->max_pixels_over,
                              "max pixels over the pixel threshold: a count or a percentage (0.1%)");
               sub.add_option("--min-psnr", args->min_psnr, "min PSNR in dB (lowest channel)");
               sub.add_option("--min-ssim", args->min_ssim, "min SSIM (lowest of luma and channels)");
               sub.add_option("--max-flip", args->max_flip, "max mean FLIP-style error, 0..1");
               sub.add_option("--kernels", args->kernels,
                              "metric loops: widest (default: AVX-512, AVX2+FMA or baseline, as the CPU "
                              "allows), avx2 or baseline (at most that build: rules out FMA rounding when "
                              "two machines disagree in the last bits)")
                   ->check(CLI::IsMember({"widest", "avx2", "baseline"}));
               return [args]() { return RunDiff(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
