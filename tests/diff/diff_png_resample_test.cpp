// PNG round trips (8- and 16-bit, RGB/RGBA, grey expansion), corrupt input, and the cross-scale
// size matching: box downsample, area resample, crop, border, and the error cases.
#include <gtest/gtest.h>

#include <spng.h>

#include <cstring>
#include <thread>

#include "diff_test_util.h"
#include "xnt/base/error.h"
#include "xnt/diff/metrics.h"
#include "xnt/diff/png.h"
#include "xnt/diff/resample.h"

namespace xnt::diff {
namespace {

using test::Make16;
using test::Make8;

float PixelF(const Image& img, int x, int y, int c) {
  std::vector<float> row(size_t(img.width) * size_t(img.channels));
  img.RowToFloat(y, row.data());
  return row[size_t(x) * size_t(img.channels) + size_t(c)];
}

TEST(DiffPng, RoundTrips8And16Bit) {
  for (int ch : {3, 4}) {
    OwnedImage a = Make8(7, 5, ch, [](int x, int y, int c) { return (x * 37 + y * 11 + c * 90) & 255; });
    std::vector<uint8_t> png = EncodePng(a.view());
    OwnedImage back = DecodePng(png.data(), png.size(), "mem");
    EXPECT_EQ(back.view().type, PixelType::kU8);
    EXPECT_EQ(back.view().channels, ch);
    EXPECT_EQ(HashPixels(back.view()), HashPixels(a.view()));

    OwnedImage w = Make16(6, 3, ch, [](int x, int y, int c) { return (x * 9001 + y * 4099 + c * 20000) & 0xFFFF; });
    png = EncodePng(w.view());
    OwnedImage back16 = DecodePng(png.data(), png.size(), "mem16");
    EXPECT_EQ(back16.view().type, PixelType::kU16);
    EXPECT_EQ(back16.view().channels, ch);
    for (int y = 0; y < 3; ++y) EXPECT_EQ(std::memcmp(back16.view().Row(y), w.view().Row(y), 6 * ch * 2), 0);
  }
}

// Samples libspng's own decoder reads back from `png`, host-endian: a second decoder beside
// stb_image, so the writer is not only checked against the reader it shares a library with.
std::vector<uint16_t> SpngDecode16(const std::vector<uint8_t>& png, spng_ihdr& ihdr) {
  spng_ctx* ctx = spng_ctx_new(0);
  EXPECT_EQ(spng_set_png_buffer(ctx, png.data(), png.size()), 0);
  EXPECT_EQ(spng_get_ihdr(ctx, &ihdr), 0);
  size_t size = 0;
  EXPECT_EQ(spng_decoded_image_size(ctx, SPNG_FMT_PNG, &size), 0);
  std::vector<uint16_t> samples(size / 2);
  EXPECT_EQ(spng_decode_image(ctx, samples.data(), size, SPNG_FMT_PNG, 0), 0);
  spng_ctx_free(ctx);
  return samples;
}

TEST(DiffPng, SixteenBitValuesSurviveBothDecodersAndAreCompressed) {
  // The extremes, both bytes of a sample differing, and values whose high or low byte alone would
  // pass for an 8-bit sample: a swapped byte order or a lost low byte changes them.
  const uint16_t picked[] = {0x0000, 0xFFFF, 0x0102, 0x8001, 0x00FF, 0xFF00, 0x1234, 0xFEDC,
                             0x7FFF, 0x0001, 0xABCD, 0x5A5A};
  for (int ch : {3, 4}) {
    OwnedImage img = Make16(4, 2, ch, [&](int x, int y, int c) { return picked[(y * 4 + x + c) % 12]; });
    const std::vector<uint8_t> png = EncodePng(img.view());
    spng_ihdr ihdr{};
    const std::vector<uint16_t> samples = SpngDecode16(png, ihdr);
    EXPECT_EQ(ihdr.bit_depth, 16);
    EXPECT_EQ(ihdr.color_type, ch == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR);
    ASSERT_EQ(samples.size(), size_t(4 * 2 * ch));
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x)
        for (int c = 0; c < ch; ++c)
          EXPECT_EQ(samples[size_t((y * 4 + x) * ch + c)], picked[(y * 4 + x + c) % 12]) << x << "," << y << "," << c;
    OwnedImage back = DecodePng(png.data(), png.size(), "picked");
    ASSERT_EQ(back.view().type, PixelType::kU16);
    for (int y = 0; y < 2; ++y) EXPECT_EQ(std::memcmp(back.view().Row(y), img.view().Row(y), size_t(4 * ch * 2)), 0);
  }
  // 64x64 RGBA of one colour: 32 KiB of samples in stored deflate blocks; compressed, a few hundred bytes.
  OwnedImage flat = Make16(64, 64, 4, [](int, int, int c) { return 0x1234 + c; });
  EXPECT_LT(EncodePng(flat.view()).size(), 1024u);
}

TEST(DiffPng, EightBitViewWithRowPaddingIsWrittenRowByRow) {
  // A crop of a wider image: its rows are 13 pixels apart in memory but 5 wide, so an encoder
  // that took the buffer as contiguous rows would write the neighbours' pixels.
  for (int ch : {3, 4}) {
    OwnedImage wide = Make8(13, 9, ch, [](int x, int y, int c) { return (x * 53 + y * 19 + c * 77 + 3) & 255; });
    const Image crop = wide.view().Crop(4, 2, 5, 6);
    const std::vector<uint8_t> png = EncodePng(crop);
    // libspng's decoder, then stb_image's: each pixel is the crop's.
    spng_ctx* ctx = spng_ctx_new(0);
    ASSERT_EQ(spng_set_png_buffer(ctx, png.data(), png.size()), 0);
    spng_ihdr ihdr{};
    ASSERT_EQ(spng_get_ihdr(ctx, &ihdr), 0);
    EXPECT_EQ(ihdr.width, 5u);
    EXPECT_EQ(ihdr.height, 6u);
    EXPECT_EQ(ihdr.bit_depth, 8);
    std::vector<uint8_t> decoded(size_t(5 * 6 * ch));
    ASSERT_EQ(spng_decode_image(ctx, decoded.data(), decoded.size(), SPNG_FMT_PNG, 0), 0);
    spng_ctx_free(ctx);
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 5; ++x)
        for (int c = 0; c < ch; ++c)
          EXPECT_EQ(decoded[size_t((y * 5 + x) * ch + c)], ((x + 4) * 53 + (y + 2) * 19 + c * 77 + 3) & 255);
    OwnedImage back = DecodePng(png.data(), png.size(), "crop");
    EXPECT_EQ(HashPixels(back.view()), HashPixels(crop));
  }
  // A 1280x720 RGBA frame of two flat halves is 3.7 MB of pixels; deflated, tens of KiB (each
  // match covers at most 258 bytes).
  OwnedImage frame = Make8(1280, 720, 4, [](int x, int, int c) { return x < 640 ? 40 + c : 200 - c; });
  EXPECT_LT(EncodePng(frame.view()).size(), 65536u);
}

TEST(DiffPng, FloatSavesAs16Bit) {
  OwnedImage f(2, 1, 3, PixelType::kF32);
  const float v[6] = {0, 0.5f, 1, 0.25f, 2.0f, -1};
  std::memcpy(f.MutableRow(0), v, sizeof(v));
  std::vector<uint8_t> png = EncodePng(f.view());
  OwnedImage back = DecodePng(png.data(), png.size(), "f");
  ASSERT_EQ(back.view().type, PixelType::kU16);
  uint16_t px[6];
  std::memcpy(px, back.view().Row(0), sizeof(px));
  EXPECT_EQ(px[0], 0);
  EXPECT_EQ(px[1], 32768);  // round(0.5 * 65535)
  EXPECT_EQ(px[2], 65535);
  EXPECT_EQ(px[3], 16384);
  EXPECT_EQ(px[4], 65535);
  EXPECT_EQ(px[5], 0);
}

TEST(DiffPng, CorruptAndAbsurdInputIsAnError) {
  OwnedImage a = Make8(16, 16, 3, [](int x, int y, int) { return x ^ y; });
  std::vector<uint8_t> png = EncodePng(a.view());
  EXPECT_THROW(DecodePng(png.data(), 7, "short"), Error);
  std::vector<uint8_t> notpng = png;
  notpng[1] = 'Q';
  try {
    DecodePng(notpng.data(), notpng.size(), "bad.png");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.png"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("offset 0"), std::string::npos);
  }
  for (size_t cut : {size_t(20), size_t(40), png.size() - 20}) {
    EXPECT_THROW(DecodePng(png.data(), cut, "truncated"), Error) << cut;
  }
  // IHDR claiming 100000 x 100000: rejected from the header, before any allocation.
  std::vector<uint8_t> huge = png;
  const uint8_t dims[8] = {0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0};
  std::memcpy(huge.data() + 16, dims, 8);
  try {
    DecodePng(huge.data(), huge.size(), "huge.png");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("huge.png"), std::string::npos);
  }
  EXPECT_THROW(LoadPng("/nonexistent/dir/x.png"), Error);

  // Found by the long png fuzz run: a 96x64 RGBA header, then an IDAT whose zlib stream stops in a
  // way stb_image rejects without setting a failure reason (stbi_failure_reason() is NULL). The
  // error must still be a named Error, not a read of address 0.
  const uint8_t silent_zlib[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
      0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x40, 0x08, 0x06, 0x00, 0x00, 0x00, 0xe5, 0x32, 0x72,
      0x0d, 0xfe, 0x00, 0x01, 0x38, 0x49, 0x44, 0x41, 0x54, 0x78, 0x5e, 0x63, 0x64, 0x60, 0x68, 0xf8,
      0xcf, 0xc4, 0xc0, 0xc0, 0xc0, 0x0c, 0xc4, 0x30, 0x7a, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00,
      0x00, 0x0b, 0x46, 0x5b, 0x41, 0xa3, 0xad, 0xa0, 0xd1, 0x5c, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39,
      0x39, 0x39, 0xd1, 0x66, 0xe8, 0x8c, 0x68};
  // On a fresh thread: stb keeps its failure reason per thread, and the cases above left one set.
  std::string message;
  std::thread([&] {
    try {
      DecodePng(silent_zlib, sizeof(silent_zlib), "silent.png");
    } catch (const Error& e) {
      message = e.what();
    }
  }).join();
  EXPECT_NE(message.find("silent.png: corrupt PNG"), std::string::npos) << message;
}

TEST(DiffResample, BoxDownsampleAveragesBlocks) {
  // 4x2 -> 2x1 by 2x2: each output is the mean of its four inputs.
  OwnedImage a = Make8(4, 2, 3, [](int x, int y, int c) { return (x + 4 * y) * 10 + c; });
  OwnedImage d = Downsample(a.view(), 2, 2);
  ASSERT_EQ(d.view().width, 2);
  ASSERT_EQ(d.view().height, 1);
  EXPECT_EQ(d.view().type, PixelType::kF32);
  // left block: values 0,10,40,50 (+c) -> 25+c; right block: 20,30,60,70 -> 45+c
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(PixelF(d.view(), 0, 0, c), (25.0 + c) / 255.0, 1e-7);
    EXPECT_NEAR(PixelF(d.view(), 1, 0, c), (45.0 + c) / 255.0, 1e-7);
  }
  EXPECT_THROW(Downsample(a.view(), 3, 1), Error);
  EXPECT_THROW(Downsample(a.view(), 0, 1), Error);
}

TEST(DiffResample, AreaResampleWeightsPartialPixels) {
  // 3 -> 2 columns: out0 = (v0 + 0.5 v1) / 1.5, out1 = (0.5 v1 + v2) / 1.5.
  OwnedImage a = Make8(3, 1, 3, [](int x, int, int) { return x == 0 ? 0 : x == 1 ? 90 : 180; });
  OwnedImage r = AreaResample(a.view(), 2, 1);
  EXPECT_NEAR(PixelF(r.view(), 0, 0, 0), (0 + 45.0) / 1.5 / 255.0, 1e-6);
  EXPECT_NEAR(PixelF(r.view(), 1, 0, 0), (45.0 + 180) / 1.5 / 255.0, 1e-6);
  // Integer factors give the box result.
  OwnedImage b = Make8(6, 4, 4, [](int x, int y, int c) { return (x * 41 + y * 23 + c * 7) & 255; });
  OwnedImage box = Downsample(b.view(), 3, 2), area = AreaResample(b.view(), 2, 2);
  EXPECT_LT(Compare(box.view(), area.view()).max_abs, 1e-6);
  EXPECT_THROW(AreaResample(b.view(), 7, 2), Error);
}

TEST(DiffResample, MatchSizesAcrossScales) {
  // B rendered at 2x1 scale: every pixel of A repeated twice horizontally.
  OwnedImage a = Make8(5, 3, 3, [](int x, int y, int c) { return (x * 50 + y * 20 + c) & 255; });
  OwnedImage b = Make8(10, 3, 3, [&](int x, int y, int c) { return a.view().Row(y)[(x / 2) * 3 + c]; });
  MatchedPair m = MatchSizes(a.view(), b.view(), {});
  EXPECT_EQ(m.b.width, 5);
  EXPECT_EQ(m.note, "B box-downsampled 2x1");
  EXPECT_TRUE(Compare(m.a, m.b).exact);
  // The larger one may be either side.
  MatchedPair m2 = MatchSizes(b.view(), a.view(), {});
  EXPECT_EQ(m2.note, "A box-downsampled 2x1");
  EXPECT_TRUE(Compare(m2.a, m2.b).exact);

  MatchOptions scale;
  scale.scale = ResolutionScale{2, 1};
  EXPECT_NO_THROW(MatchSizes(a.view(), b.view(), scale));
  scale.scale = ResolutionScale{2, 2};
  EXPECT_THROW(MatchSizes(a.view(), b.view(), scale), Error);  // sizes are not a 2x2 pair
  EXPECT_THROW(MatchSizes(a.view(), a.view(), scale), Error);  // scale given, sizes equal

  OwnedImage odd = Make8(7, 3, 3, [](int, int, int) { return 0; });
  EXPECT_THROW(MatchSizes(a.view(), odd.view(), {}), Error);  // 7 is not a multiple of 5
  MatchOptions area;
  area.resize = ResizeMode::kArea;
  MatchedPair ma = MatchSizes(a.view(), odd.view(), area);
  EXPECT_EQ(ma.b.width, 5);
  MatchOptions crop;
  crop.resize = ResizeMode::kCrop;
  MatchedPair mc = MatchSizes(a.view(), odd.view(), crop);
  EXPECT_EQ(mc.b.width, 5);
  EXPECT_EQ(mc.b.data, odd.view().data);
  OwnedImage tall = Make8(4, 9, 3, [](int, int, int) { return 0; });
  EXPECT_THROW(MatchSizes(a.view(), tall.view(), area), Error);  // neither is larger in both
}

TEST(DiffResample, BorderIsIgnored) {
  OwnedImage a = Make8(8, 6, 3, [](int, int, int) { return 100; });
  OwnedImage b = Make8(8, 6, 3, [](int x, int y, int) { return (x == 0 || y == 5) ? 0 : 100; });
  EXPECT_FALSE(Compare(a.view(), b.view()).exact);
  MatchOptions o;
  o.border = 1;
  MatchedPair m = MatchSizes(a.view(), b.view(), o);
  EXPECT_EQ(m.a.width, 6);
  EXPECT_EQ(m.a.height, 4);
  EXPECT_TRUE(Compare(m.a, m.b).exact);
  o.border = 3;
  EXPECT_THROW(MatchSizes(a.view(), b.view(), o), Error);
  // Border counts at the compared size: 2x-scaled B with a 1-pixel border at 1x.
  OwnedImage big = Make8(16, 12, 3, [](int x, int y, int) { return (x < 2 || y >= 10) ? 0 : 100; });
  o.border = 1;
  MatchedPair ms = MatchSizes(a.view(), big.view(), o);
  EXPECT_TRUE(Compare(ms.a, ms.b).exact);
}

TEST(DiffResample, ParseResize) {
  EXPECT_EQ(ParseResizeMode("area"), ResizeMode::kArea);
  EXPECT_THROW(ParseResizeMode("bicubic"), Error);
}

}  // namespace
}  // namespace xnt::diff
