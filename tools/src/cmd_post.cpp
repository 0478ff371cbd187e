// `xenotrace post IN.png -o OUT.png [--aa ...] [--scaler ...] [--size WxH] ...`: the presentation
// post-processing chain (FXAA -> FSR | CAS | bilinear -> blue-noise dither; renderer/present
// post.h, docs/present.md) on one 8- or 16-bit PNG, as Vulkan compute passes where a device
// exists, else on the CPU. --json reports the plan and the time (GPU time from timestamp queries).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "post_args.h"
#include "xnt/base/json.h"
#include "xnt/diff/png.h"
#include "xnt/present/frame_writer.h"

namespace xnt::cli {
namespace {

struct PostCmdArgs {
  std::string in;
  std::string out;
  PostArgs post;
  int device = -1;
  int repeat = 1;
  bool json = false;
};

present::FloatImage LoadFloat(const std::string& path) {
  diff::OwnedImage png = diff::LoadPng(path);
  const diff::Image& v = png.view();
  present::FloatImage img;
  img.width = uint32_t(v.width);
  img.height = uint32_t(v.height);
  img.rgba.resize(size_t(v.width) * size_t(v.height) * 4);
  std::vector<float> row(size_t(v.width) * size_t(v.channels));
  for (int y = 0; y < v.height; ++y) {
    v.RowToFloat(y, row.data());
    for (int x = 0; x < v.width; ++x) {
      float* d = &img.rgba[(size_t(y) * size_t(v.width) + size_t(x)) * 4];
      const float* s = &row[size_t(x) * size_t(v.channels)];
      d[0] = s[0];
      d[1] = s[1];
      d[2] = s[2];
      d[3] = v.channels == 4 ? s[3] : 1.0f;
    }
  }
  return img;
}

int RunPost(const PostCmdArgs& a) {
  const present::PostOptions options = ToPostOptions(a.post);
  const present::FloatImage input = LoadFloat(a.in);
  const present::PostPlan plan = present::PlanPasses(options, input.width, input.height);
  auto processor = MakePostProcessor(options, a.post.cpu, a.device, false);
  present::PostResult result;
  double best_gpu = -1, best_wall = -1;
  for (int i = 0; i < std::max(1, a.repeat); ++i) {
    result = processor->Run(input);
    if (result.gpu_milliseconds >= 0 && (best_gpu < 0 || result.gpu_milliseconds < best_gpu)) {
      best_gpu = result.gpu_milliseconds;
    }
    if (best_wall < 0 || result.wall_milliseconds < best_wall) best_wall = result.wall_milliseconds;
  }
  present::WritePng(result.image, a.out);
  if (a.json) {
    std::printf("{\n  \"input\": %s,\n  \"output\": %s,\n", JsonString(a.in).c_str(),
                JsonString(a.out).c_str());
    std::printf("  \"device\": %s,\n", JsonString(processor->device_name()).c_str());
    std::printf("  \"input_size\": [%u, %u],\n  \"output_size\": [%u, %u],\n", plan.in_width,
                plan.in_height, plan.out_width, plan.out_height);
    std::printf("  \"passes\": [");
    for (size_t i = 0; i < plan.passes.size(); ++i) {
      const auto& p = plan.passes[i];
      std::printf("%s{\"kind\": \"%s\", \"size\": [%d, %d]}", i ? ", " : "",
                  present::PassKindName(present::PassKind(p.kind)), p.dst_w, p.dst_h);
    }
    std::printf("],\n  \"dither\": %s,\n", options.dither ? "true" : "false");
    std::printf("  \"runs\": %d,\n", std::max(1, a.repeat));
    if (best_gpu >= 0) {
      std::printf("  \"gpu_milliseconds\": %.4f,\n", best_gpu);
    } else {
      std::printf("  \"gpu_milliseconds\": null,\n");
    }
    std::printf("  \"wall_milliseconds\": %.4f\n}\n", best_wall);
  } else {
    std::printf("%s -> %s on %s: %s\n", a.in.c_str(), a.out.c_str(),
                processor->device_name().c_str(), present::DescribePlan(plan).c_str());
    if (best_gpu >= 0) std::printf("GPU time %.4f ms (timestamp queries), ", best_gpu);
    std::printf("wall %.3f ms%s\n", best_wall, a.repeat > 1 ? " (best of the runs)" : "");
  }
  return kExitOk;
}

XNT_COMMAND({"post",
             "Apply the presentation chain (FXAA -> FSR | CAS | bilinear -> dither) to a PNG",
             36, [](CLI::App& sub) {
               auto args = std::make_shared<PostCmdArgs>();
               sub.add_option("IN", args->in, "Input PNG (8 or 16 bit)")->required()->check(InputFile());
               sub.add_option("-o,--out", args->out, "Output PNG (8-bit RGBA)")->required();
               AddPostOptions(sub, args->post, "--cpu");
               sub.add_option("--device", args->device, "Vulkan device index (default: first discrete GPU, else first device)");
               sub.add_option("--repeat", args->repeat, "Run the chain N times and report the best time")
                   ->check(CLI::Range(1, 1000));
               sub.add_flag("--json", args->json, "Print the plan and times as JSON");
               return [args]() -> int { return RunPost(*args); };
             }});

}  // namespace
}  // namespace xnt::cli
