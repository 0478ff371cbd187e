// PNG reading (stb_image) and writing: 8-bit through stb_image_write, 16-bit through a small
// writer of our own (stb_image_write has no 16-bit PNG path) that emits stored deflate blocks.
#include "xnt/diff/png.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "xnt/base/error.h"

namespace xnt::diff {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { stbi_image_free(p); }
};

// stb_image returns NULL from a failed decode without always setting a reason (its zlib inflater
// gives up on some corrupt streams silently), and stbi_failure_reason() is then NULL too: appending
// that to a std::string read address 0 (found by the long png fuzz run, 2026-11-26).
const char* FailureReason() {
  const char* reason = stbi_failure_reason();
  return reason ? reason : "decoder gave no reason";
}

uint32_t Crc32(const uint8_t* data, size_t size, uint32_t crc = 0) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;  // PNG spec, Annex D
      t[n] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

void PutBe32(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(uint8_t(v >> 24));
  out.push_back(uint8_t(v >> 16));
  out.push_back(uint8_t(v >> 8));
  out.push_back(uint8_t(v));
}

void PutChunk(std::vector<uint8_t>& out, const char type[4], const std::vector<uint8_t>& body) {
  PutBe32(out, uint32_t(body.size()));
  size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), body.begin(), body.end());
  PutBe32(out, Crc32(out.data() + start, out.size() - start));
}

// 16-bit RGB/RGBA PNG; samples big-endian (PNG spec 7.1), filter type 0 on every row, zlib stream
// of stored blocks (RFC 1950/1951).
std::vector<uint8_t> EncodePng16(const Image& image) {
  const size_t row_bytes = size_t(image.width) * size_t(image.channels) * 2;
  std::vector<uint8_t> raw;
  raw.reserve((row_bytes + 1) * size_t(image.height));
  std::vector<float> row(size_t(image.width) * size_t(image.channels));
  for (int y = 0; y < image.height; ++y) {
    raw.push_back(0);
    if (image.type == PixelType::kU16) {
      const uint8_t* src = image.Row(y);
      for (size_t i = 0; i < row_bytes; i += 2) {
        uint16_t v;
        std::memcpy(&v, src + i, 2);
        raw.push_back(uint8_t(v >> 8));
        raw.push_back(uint8_t(v));
      }
    } else {
      image.RowToFloat(y, row.data());
      for (float f : row) {
        auto v = uint16_t(std::lround(f * 65535.0f));
        raw.push_back(uint8_t(v >> 8));
        raw.push_back(uint8_t(v));
      }
    }
  }
  std::vector<uint8_t> z = {0x78, 0x01};
  uint32_t a = 1, b = 0;
  for (uint8_t v : raw) {  // Adler-32, RFC 1950 section 8
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  size_t pos = 0;
  do {
    size_t n = std::min<size_t>(65535, raw.size() - pos);
    bool last = pos + n == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(uint8_t(n));
    z.push_back(uint8_t(n >> 8));
    z.push_back(uint8_t(~n));
    z.push_back(uint8_t(~n >> 8));
    z.insert(z.end(), raw.begin() + long(pos), raw.begin() + long(pos + n));
    pos += n;
  } while (pos < raw.size());
  PutBe32(z, (b << 16) | a);

  std::vector<uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> ihdr;
  PutBe32(ihdr, uint32_t(image.width));
  PutBe32(ihdr, uint32_t(image.height));
  ihdr.push_back(16);
  ihdr.push_back(image.channels == 4 ? 6 : 2);  // colour type: 6 RGBA, 2 RGB
  ihdr.push_back(0);
  ihdr.push_back(0);
  ihdr.push_back(0);
  PutChunk(out, "IHDR", ihdr);
  PutChunk(out, "IDAT", z);
  PutChunk(out, "IEND", {});
  return out;
}

void AppendBytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* p = static_cast<const uint8_t*>(data);
  out->insert(out->end(), p, p + size);
}

}  // namespace

OwnedImage DecodePng(const uint8_t* bytes, size_t size, const std::string& name) {
  if (size < 8 || std::memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) != 0)
    throw Error(name + ": not a PNG file (bad signature at byte offset 0)");
  if (size > size_t(1) << 30) throw Error(name + ": PNG file larger than 1 GiB");
  const int len = int(size);
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(bytes, len, &w, &h, &comp))
    throw Error(name + ": unreadable PNG header: " + FailureReason());
  if (w <= 0 || h <= 0 || w > kMaxDimension || h > kMaxDimension || uint64_t(w) * uint64_t(h) > kMaxPixels)
    throw Error(name + ": PNG header says " + std::to_string(w) + "x" + std::to_string(h) +
                ", larger than the supported maximum");
  const int channels = (comp == 2 || comp == 4) ? 4 : 3;
  const bool is16 = stbi_is_16_bit_from_memory(bytes, len) != 0;
  int x = 0, y = 0, file_comp = 0;
  void* decoded = is16 ? static_cast<void*>(stbi_load_16_from_memory(bytes, len, &x, &y, &file_comp, channels))
                       : static_cast<void*>(stbi_load_from_memory(bytes, len, &x, &y, &file_comp, channels));
  std::unique_ptr<void, FreeDeleter> hold(decoded);
  if (!decoded) throw Error(name + ": corrupt PNG: " + FailureReason());
  if (x != w || y != h) throw Error(name + ": PNG size changed between header and decode");
  // Allocated only once the decode succeeded: a corrupt file with a large header costs no
  // zero-filled image (most of the png fuzz target's time went to that memset).
  OwnedImage image(w, h, channels, is16 ? PixelType::kU16 : PixelType::kU8);
  const size_t row_bytes = image.view().row_stride;
  for (int r = 0; r < h; ++r)
    std::memcpy(image.MutableRow(r), static_cast<const uint8_t*>(decoded) + size_t(r) * row_bytes, row_bytes);
  return image;
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw Error(path + ": cannot open: " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f.get())) > 0) {
    bytes.insert(bytes.end(), buf, buf + n);
    if (bytes.size() > (size_t(1) << 30)) throw Error(path + ": file larger than 1 GiB");
  }
  if (std::ferror(f.get())) throw Error(path + ": read error");
  return bytes;
}

void WriteFileBytes(const std::string& path, const void* data, size_t size) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  if (!f) throw Error(path + ": cannot create: " + std::strerror(errno));
  if (size && std::fwrite(data, 1, size, f.get()) != size) throw Error(path + ": write error");
  if (std::fflush(f.get()) != 0) throw Error(path + ": write error");
}

OwnedImage LoadPng(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  return DecodePng(bytes.data(), bytes.size(), path);
}

std::vector<uint8_t> EncodePng(const Image& image) {
  image.Validate("PNG encoder input");
  if (image.type != PixelType::kU8) return EncodePng16(image);
  std::vector<uint8_t> out;
  if (!stbi_write_png_to_func(AppendBytes, &out, image.width, image.height, image.channels, image.data,
                              int(image.row_stride)))
    throw Error("PNG encoder failed");
  return out;
}

void SavePng(const std::string& path, const Image& image) {
  std::vector<uint8_t> bytes = EncodePng(image);
  WriteFileBytes(path, bytes.data(), bytes.size());
}

OwnedImage ToU8(const Image& image) {
  image.Validate("image");
  OwnedImage out(image.width, image.height, image.channels, PixelType::kU8);
  std::vector<float> row(size_t(image.width) * size_t(image.channels));
  for (int y = 0; y < image.height; ++y) {
    image.RowToFloat(y, row.data());
    uint8_t* dst = out.MutableRow(y);
    for (size_t i = 0; i < row.size(); ++i) dst[i] = uint8_t(std::lround(row[i] * 255.0f));
  }
  return out;
}

}  // namespace xnt::diff
