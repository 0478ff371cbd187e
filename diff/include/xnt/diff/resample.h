// Cross-scale comparison: bringing two frames to one size before Compare(). A frame rendered at
// resolution scale SxT is box-downsampled by SxT (each output pixel is the plain mean of an SxT
// block), so it can be compared with the 1x1 frame. Sizes that are not an integer multiple are an
// error unless a resize mode says how to reconcile them.
#pragma once

#include <optional>
#include <string>

#include "xnt/base/resolution_scale.h"
#include "xnt/diff/image.h"

namespace xnt::diff {

// Box-downsample by integer factors; width and height must be multiples of them. The result is
// float (kF32), so averaging loses no precision.
OwnedImage Downsample(const Image& image, int factor_x, int factor_y);

// Area-weighted resample to any smaller (or equal) size: each output pixel is the mean of the
// source area it covers, partial pixels weighted by coverage. Equals Downsample for integer
// factors.
OwnedImage AreaResample(const Image& image, int out_width, int out_height);

enum class ResizeMode {
  kNone,  // sizes must match, or be an integer multiple (then box-downsample)
  kArea,  // any larger size: area-resample the larger image to the smaller one's size
  kCrop,  // compare the top-left region both images have
};

struct MatchOptions {
  std::optional<ResolutionScale> scale;  // expected scale of the larger image; none = infer from the sizes
  ResizeMode resize = ResizeMode::kNone;
  int border = 0;  // pixels ignored on every side, counted at the compared (smaller) size
};

struct MatchedPair {
  Image a, b;        // views to hand to Compare(); may point into the storage below
  OwnedImage storage_a, storage_b;
  std::string note;  // what was done, e.g. "B box-downsampled 2x2", empty when nothing was
};

// Throws Error (naming both sizes) when the images cannot be matched under `options`.
// The returned views stay valid as long as the MatchedPair and the input images live.
MatchedPair MatchSizes(const Image& a, const Image& b, const MatchOptions& options);

ResizeMode ParseResizeMode(const std::string& text);

}  // namespace xnt::diff
