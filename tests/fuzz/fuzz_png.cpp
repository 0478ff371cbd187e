// libFuzzer target for the diff library's inputs: PNG decoding (then comparing the decoded image
// with a shifted copy of itself, which exercises every metric on odd sizes and formats), and the
// policy-file parser on the same bytes. Anything but a clean xnt::Error is a finding.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>

#include "xnt/base/error.h"
#include "xnt/diff/metrics.h"
#include "xnt/diff/png.h"
#include "xnt/diff/policy.h"
#include "xnt/diff/resample.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xnt::diff;
  try {
    OwnedImage img = DecodePng(data, size, "fuzz.png");
    // Metrics on at most the top-left 32x32: every edge and odd-size case shows up there, and the
    // full metric set (FLIP, SSIM) on up to 256x256 held the long runs to ~700 inputs/s per core.
    const Image v = img.view().Crop(0, 0, std::min(img.view().width, 32), std::min(img.view().height, 32));
    Metrics m = Compare(v, v);
    if (!m.exact) __builtin_trap();
    if (v.width > 1) {
      Image left = v.Crop(0, 0, v.width - 1, v.height), right = v.Crop(1, 0, v.width - 1, v.height);
      Compare(left, right);
    }
    if (v.width % 2 == 0 && v.height % 2 == 0) Downsample(v, 2, 2);
  } catch (const xnt::Error&) {
  }
  try {
    Policy p = Policy::Parse(std::string(reinterpret_cast<const char*>(data), size), "fuzz.policy");
    p.For("trace/frame_0001.png");
  } catch (const xnt::Error&) {
  }
  return 0;
}
