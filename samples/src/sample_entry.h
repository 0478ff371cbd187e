// A registry entry from its texts and the two functions that author the trace and predict its
// last frame: the scene kinds (flat, shader, EDRAM, textured) differ only in those two.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "xnt/samples/samples.h"

namespace xnt::samples {

inline Sample DescribedSample(std::string name, std::string description, std::string expected,
                              std::function<void(format::Writer& writer)> author,
                              std::function<Image()> expected_image) {
  Sample s;
  s.name = std::move(name);
  s.description = std::move(description);
  s.expected_frame = std::move(expected);
  s.author = std::move(author);
  s.expected_image = std::move(expected_image);
  return s;
}

}  // namespace xnt::samples
