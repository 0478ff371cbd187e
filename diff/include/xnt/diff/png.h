// PNG in and out. Reading accepts 8- and 16-bit PNGs of any colour type (grey is expanded to RGB,
// grey+alpha to RGBA, palette to RGB(A)); writing keeps 8-bit images 8-bit and writes 16-bit (and
// float, quantized) images as 16-bit PNGs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/diff/image.h"

namespace xnt::diff {

// `name` is used in error messages only.
OwnedImage DecodePng(const uint8_t* bytes, size_t size, const std::string& name);
OwnedImage LoadPng(const std::string& path);

std::vector<uint8_t> EncodePng(const Image& image);
void SavePng(const std::string& path, const Image& image);

// An 8-bit copy (16-bit and float are rounded), for display in reports.
OwnedImage ToU8(const Image& image);

// Reads a whole file; throws Error naming the path on failure.
std::vector<uint8_t> ReadFileBytes(const std::string& path);
void WriteFileBytes(const std::string& path, const void* data, size_t size);

}  // namespace xnt::diff
