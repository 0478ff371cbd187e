// The post-processing options shared by `xenotrace post` and `replay --post` (renderer/present
// post.h), and the choice of implementation: Vulkan compute passes when a device can be created
// (renderer/device_tools.h), else the CPU chain.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>

#include "xnt/base/error.h"
#include "xnt/present/post.h"
#include "xnt/renderer/device_tools.h"

namespace xnt::cli {

struct PostArgs {
  std::string aa = "none";
  std::string scaler = "bilinear";
  std::string size;
  float cas_sharpness = 0.0f;
  float fsr_sharpness_reduction = 0.2f;
  bool no_dither = false;
  bool cpu = false;
};

inline void AddPostOptions(CLI::App& sub, PostArgs& a, const std::string& cpu_flag) {
  sub.add_option("--aa", a.aa, "Anti-aliasing: none (default), fxaa (FXAA 3.11 preset 12), "
                               "fxaa_extreme (preset 39)")
      ->check(CLI::IsMember({"none", "fxaa", "fxaa_extreme"}));
  sub.add_option("--scaler", a.scaler, "bilinear (default), cas (AMD CAS: sharpen, resample up "
                                       "to 2x2), fsr (AMD FSR 1 EASU + RCAS when upscaling, CAS otherwise)")
      ->check(CLI::IsMember({"bilinear", "cas", "fsr"}));
  sub.add_option("--size", a.size, "Output size WxH (default: the input's)");
  sub.add_option("--cas-sharpness", a.cas_sharpness, "CAS additional sharpness 0..1 (default 0)")
      ->check(CLI::Range(0.0f, 1.0f));
  sub.add_option("--fsr-sharpness-reduction", a.fsr_sharpness_reduction,
                 "RCAS sharpness reduction in stops 0..2 (default 0.2)")
      ->check(CLI::Range(0.0f, 2.0f));
  sub.add_flag("--no-dither", a.no_dither, "Round to 8 bpc instead of the blue-noise dither");
  sub.add_flag(cpu_flag, a.cpu, "Run the chain on the CPU even when a Vulkan device exists");
}

inline present::PostOptions ToPostOptions(const PostArgs& a) {
  present::PostOptions o;
  o.aa = *present::ParseAntiAliasing(a.aa);
  o.scaler = *present::ParseScaler(a.scaler);
  if (!a.size.empty()) {
    unsigned w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(a.size.c_str(), "%ux%u%c", &w, &h, &tail) != 2 || w == 0 || h == 0 ||
        w > 16384 || h > 16384) {
      throw Error("--size: '" + a.size + "' is not WxH with sides 1..16384");
    }
    o.width = w;
    o.height = h;
  }
  o.cas_sharpness = a.cas_sharpness;
  o.fsr_sharpness_reduction = a.fsr_sharpness_reduction;
  o.dither = !a.no_dither;
  return o;
}

// Vulkan unless `cpu` or no device can be created (then a note on stderr, unless `device` named
// one: that is an error).
inline std::unique_ptr<present::PostProcessor> MakePostProcessor(const present::PostOptions& o,
                                                                 bool cpu, int device,
                                                                 bool validate,
                                                                 bool debug_labels = false) {
  if (!cpu && renderer::HasVulkan()) {
    try {
      return renderer::MakeDevicePostProcessor(o, device, validate, debug_labels);
    } catch (const Error& e) {
      if (device >= 0) throw;
      std::fprintf(stderr, "xenotrace: note: no Vulkan device for post-processing (%s); using the CPU\n",
                   e.what());
    }
  }
  return present::MakeCpuPostProcessor(o);
}

}  // namespace xnt::cli
