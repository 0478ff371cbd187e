// texfetch_*: the texture unit's get/set instructions and volume filtering, with hand-worked
// expected images.
//
// texfetch_lod_queries: a 32x32 k_8_8_8_8 texture whose level 0 is grey 32 and whose mips are
// all grey 224 (the mip region filled with one value), linear mip filter, point min/mag:
// - setTexLOD 0.25 / 0.75 + tfetch2D UseRegisterLOD (UseComputedLOD=false): 32 + 192 * 0.25 = 80
//   and 32 + 192 * 0.75 = 176, while the quad's own derivatives (32 texels over 16 pixels) would
//   have picked level 1 (224);
// - getCompTexLOD2D at three magnifications, written as (lambda + 4) / 8: 16 pixels across 8, 32
//   and 64 texels give lambda -1, 1, 2 (0.375, 0.625, 0.75: 96, 159, 191);
// - getWeights2D at texel (5.375, 2.625), plain and with OffsetX=0.5 OffsetY=-0.5 (the finest
//   offset step, half a texel): fract(5.375 - 0.5) = 0.875, fract(2.625 - 0.5) = 0.125 (223, 32)
//   and fract(5.375) = 0.375, fract(1.625) = 0.625 (96, 159);
// - getGradients of (u + v, v) with u, v = 1/64 per pixel: (d/dx x, d/dy x, d/dx y, d/dy y) =
//   (1/64, 1/64, 0, 1/64), times 16: (0.25, 0.25, 0) = (64, 64, 0);
// - setGradientH/V + tfetch2D UseRegisterGradients with LODBias=-0.75: lambda 1 - 0.75 (80).
// The front buffer reads alpha as 255 (gpu/front_buffer.cpp), so only RGB carries results.
#include <cmath>

#include "listing_head.h"
#include "sample_entry.h"
#include "texture_scene.h"
#include "xnt/base/error.h"

namespace xnt::samples {

namespace {

constexpr uint32_t kLevel0Address = kTexturedFirstTextureAddress;
constexpr uint32_t kMipAddress = kTexturedFirstTextureAddress + 0x10000;
constexpr uint8_t kLevel0Grey = 32, kMipGrey = 224;

std::string Shader(const std::string& body) {
  return std::string(XNT_SAMPLE_PS_HEAD) + "    exec\n" + body + "    alloc colors\n    exece\n" +
         "    mul r1, r1, c0\n    add oC0, r1, c1\n";
}

struct Builder {
  TexturedScene scene;
  Image expected;

  // A width x height scene cleared to navy, and its expected image so far.
  Builder(uint32_t width, uint32_t height) {
    scene.width = width;
    scene.height = height;
    scene.clear_rgba = {0x10, 0x10, 0x30, 0xFF};
    expected.width = width;
    expected.height = height;
    expected.rgba.resize(size_t(width) * height * 4);
    Fill(0, 0, width, height, scene.clear_rgba);
  }

  void Fill(uint32_t x, uint32_t y, uint32_t w, uint32_t h, std::array<uint8_t, 4> rgba) {
    for (uint32_t j = y; j < y + h; ++j) {
      for (uint32_t i = x; i < x + w; ++i) {
        for (uint32_t c = 0; c < 4; ++c) expected.rgba[(size_t(j) * expected.width + i) * 4 + c] = rgba[c];
      }
    }
  }
  // A 16x16 quad at (x, y) with `shader`; `scale`/`bias` are c0/c1 (result * c0 + c1).
  TexturedQuad& Quad(uint32_t x, uint32_t y, const std::string& body, std::array<float, 4> scale,
                     std::array<float, 4> bias) {
    TexturedQuad q;
    q.x = x;
    q.y = y;
    q.width = q.height = 16;
    q.fetch = Fetch();
    q.pixel_shader = Shader(body);
    q.ps_constants.assign(scale.begin(), scale.end());
    q.ps_constants.insert(q.ps_constants.end(), bias.begin(), bias.end());
    scene.quads.push_back(q);
    return scene.quads.back();
  }
  static std::array<uint32_t, 6> Fetch() {
    std::array<uint32_t, 6> d{};
    d[0] = 2u | (1u << 22);                    // texture, pitch 32 texels, linear
    d[1] = 6u | (2u << 6) | kLevel0Address;    // k_8_8_8_8, 8in32
    d[2] = 31u | (31u << 13);                  // 32x32
    d[3] = ((0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1) | (1u << 23);  // XYZW, mip linear
    d[4] = 5u << 6;                            // mip levels 0..5
    d[5] = (1u << 9) | kMipAddress;            // 2D, mips apart
    return d;
  }
};

Builder BuildLodQueries() {
  Builder b(184, 24);
  b.scene.memory.push_back({kLevel0Address, std::vector<uint8_t>(0x4000, kLevel0Grey)});
  b.scene.memory.push_back({kMipAddress, std::vector<uint8_t>(0x10000, kMipGrey)});
  const std::array<float, 4> one{1.0f, 1.0f, 1.0f, 1.0f}, zero{0.0f, 0.0f, 0.0f, 0.0f};
  // Register LOD between level 0 and the mips.
  const char* lod = "    setTexLOD r0.z, tf0\n"
                    "    tfetch2D r1, r0.xy, tf0, UseComputedLOD=false, UseRegisterLOD=true\n";
  b.Quad(4, 4, lod, one, zero).z = 0.25f;
  b.Fill(4, 4, 16, 16, {80, 80, 80, 255});
  b.Quad(24, 4, lod, one, zero).z = 0.75f;
  b.Fill(24, 4, 16, 16, {176, 176, 176, 255});
  // getCompTexLOD: (lambda + 4) / 8 in x, alpha 1.
  const std::array<float, 4> lod_scale{0.125f, 0.0f, 0.0f, 0.0f}, lod_bias{0.5f, 0.0f, 0.0f, 1.0f};
  const char* comp = "    getCompTexLOD2D r1, r0.xy, tf0\n";
  const uint32_t spans[3] = {8, 32, 64};
  const uint8_t reds[3] = {96, 159, 191};
  for (uint32_t i = 0; i < 3; ++i) {
    // 16 pixels across `span` texels of the 32-texel texture: u from 0 to span / 32.
    TexturedQuad& q = b.Quad(44 + 20 * i, 4, comp, lod_scale, lod_bias);
    q.texture_width = q.texture_height = 16 * 32 / spans[i];
    b.Fill(44 + 20 * i, 4, 16, 16, {reds[i], 0, 0, 255});
  }
  // getWeights at a fixed texel position, without and with offsets.
  const std::array<float, 4> w_bias{0.0f, 0.0f, 0.0f, 1.0f};
  for (uint32_t i = 0; i < 2; ++i) {
    TexturedQuad& q = b.Quad(104 + 20 * i, 4,
                             i == 0 ? "    getWeights2D r1, r0.xy, tf0\n"
                                    : "    getWeights2D r1, r0.xy, tf0, OffsetX=0.5, OffsetY=-0.5\n",
                             one, w_bias);
    q.fixed_coord = true;
    q.coord = {5.375f / 32.0f, 2.625f / 32.0f, 0.0f};
    b.Fill(104 + 20 * i, 4, 16, 16, i == 0 ? std::array<uint8_t, 4>{223, 32, 0, 255}
                                           : std::array<uint8_t, 4>{96, 159, 0, 255});
  }
  // getGradients of (u + v, v), u and v 1/64 per pixel.
  TexturedQuad& g = b.Quad(144, 4,
                           "    add r2.x, r0.x, r0.y\n    mov r2.y, r0.y\n"
                           "    getGradients r1, r2.xy, tf0\n",
                           {16.0f, 16.0f, 16.0f, 0.0f}, w_bias);
  g.texture_width = g.texture_height = 64;
  b.Fill(144, 4, 16, 16, {64, 64, 0, 255});
  // Register gradients of 1/16 along u and v: 2 texels per pixel, lambda 1, and LODBias=-0.75
  // makes it 0.25 (80); the quad's own derivatives (16 pixels over 4 texels) would magnify (32).
  TexturedQuad& r = b.Quad(164, 4,
                           "    mov r2, c2\n    mov r3, c3\n    setGradientH r2.xyz, tf0\n"
                           "    setGradientV r3.xyz, tf0\n"
                           "    tfetch2D r1, r0.xy, tf0, UseRegisterGradients=true, LODBias=-0.75\n",
                           one, zero);
  r.texture_width = r.texture_height = 128;
  const float gradients[8] = {0.0625f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0625f, 0.0f, 0.0f};
  r.ps_constants.insert(r.ps_constants.end(), gradients, gradients + 8);
  b.Fill(164, 4, 16, 16, {80, 80, 80, 255});
  return b;
}

// texfetch_volume_slices: an 8x8x4 k_8_8_8_8 volume (linear layout, 8 KiB per slice) whose
// slices are grey 16, 80, 144, 208, read by tfetch3D at the centre of x and y and at chosen z:
// with linear filters z = 0.4375 and 0.5625 (slice coordinates 1.75 and 2.25) blend slices 1
// and 2 by 1/4 and 3/4 (96, 128), z = 0.375 is slice 1's centre (80); z = 0.0625 (0.25) lies
// a quarter slice before slice 0's centre, so with z wrapping it takes 1/4 of slice 3 and 3/4 of
// slice 0 (16 + 192 / 4 = 64) and clamped to the edge it is slice 0 (16); point filters at z = 0.55
// (2.2) read slice 2 (144).
constexpr uint32_t kVolumeAddress = kTexturedFirstTextureAddress + 0x20000;

Builder BuildVolumeSlices() {
  Builder b(128, 24);
  for (uint32_t k = 0; k < 4; ++k) {
    b.scene.memory.push_back({kVolumeAddress + k * 0x2000,
                              std::vector<uint8_t>(0x2000, uint8_t(16 + 64 * k))});
  }
  struct Case {
    float z;
    bool linear;
    uint32_t clamp_z;  // 0 wrap, 2 clamp to edge
    uint8_t grey;
  };
  const Case cases[] = {{0.4375f, true, 0, 96},  {0.5625f, true, 0, 128}, {0.375f, true, 0, 80},
                        {0.0625f, true, 0, 64}, {0.0625f, true, 2, 16},  {0.55f, false, 0, 144}};
  for (uint32_t i = 0; i < 6; ++i) {
    const Case& c = cases[i];
    TexturedQuad q;
    q.x = 4 + 20 * i;
    q.y = 4;
    q.width = q.height = 16;
    q.op = TexturedQuadFetch::k3D;
    q.fixed_coord = true;
    q.coord = {0.5f, 0.5f, c.z};
    const uint32_t filter = c.linear ? 1 : 0;
    q.fetch[0] = 2u | (c.clamp_z << 16) | (1u << 22);           // pitch 32 texels, linear
    q.fetch[1] = 6u | (2u << 6) | kVolumeAddress;                // k_8_8_8_8, 8in32
    q.fetch[2] = 7u | (7u << 11) | (3u << 22);                   // 8x8x4
    q.fetch[3] = ((0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1) | (filter << 19) | (filter << 21);
    q.fetch[4] = filter | (filter << 1);                          // vol_mag/vol_min as x/y
    q.fetch[5] = 2u << 9;                                         // 3D
    b.scene.quads.push_back(q);
    b.Fill(q.x, 4, 16, 16, {c.grey, c.grey, c.grey, 255});
  }
  return b;
}

// texfetch_mips_without_base: mip chains whose base level is not there, as titles stream them
// (the fetch constant's mip_min_level 1 keeps level 0 from ever being sampled): a 32x32
// k_8_8_8_8 texture whose mips are grey 224, magnified 2x (lambda -1, which mip_min_level clamps
// to level 1), once with base address 0 and once with the base at the mip address (the streaming
// case Xenia's texture cache names). Level 0 is never read, so both squares are level 1's grey 224.
Builder BuildMipsWithoutBase() {
  Builder b(48, 24);
  b.scene.memory.push_back({kMipAddress, std::vector<uint8_t>(0x10000, kMipGrey)});
  const std::array<float, 4> one{1.0f, 1.0f, 1.0f, 1.0f}, zero{0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t i = 0; i < 2; ++i) {
    TexturedQuad& q = b.Quad(4 + 20 * i, 4, "    tfetch2D r1, r0.xy, tf0\n", one, zero);
    q.texture_width = q.texture_height = 64;  // 16 pixels across 8 texels
    q.fetch[1] = 6u | (2u << 6) | (i == 0 ? 0u : kMipAddress);  // k_8_8_8_8, 8in32, base
    q.fetch[4] = (1u << 2) | (5u << 6);                           // mip levels 1..5
    b.Fill(4 + 20 * i, 4, 16, 16, {kMipGrey, kMipGrey, kMipGrey, 255});
  }
  return b;
}

}  // namespace

std::vector<Sample> TexFetchSamples() {
  return {DescribedSample(
      "texfetch_lod_queries",
      "184x24: setTexLOD + UseRegisterLOD between a grey-32 level 0 and grey-224 mips (LOD 0.25, "
      "0.75), getCompTexLOD2D at lambda -1/1/2, getWeights2D at texel (5.375, 2.625) plain and "
      "with half-texel offsets, getGradients of (u + v, v), setGradientH/V + UseRegisterGradients",
      "nine 16x16 squares on navy: grey 80, grey 176, red 96, 159, 191, (223,32,0), (96,159,0), "
      "(64,64,0), grey 80; every pixel exact",
      [](format::Writer& w) { AuthorTexturedScene(BuildLodQueries().scene, w); },
      [] { return BuildLodQueries().expected; }),
          DescribedSample(
              "texfetch_volume_slices",
              "128x24: tfetch3D of an 8x8x4 volume (slices grey 16/80/144/208) between slices: "
              "linear at slice coordinates 1.75, 2.25, 1.5, 0.25 wrapped and clamped, point at 2.2",
              "six 16x16 grey squares on navy: 96, 128, 80, 64, 16, 144; every pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildVolumeSlices().scene, w); },
              [] { return BuildVolumeSlices().expected; }),
          DescribedSample(
              "texfetch_mips_without_base",
              "48x24: a 32x32 texture's grey-224 mips magnified 2x under mip_min_level 1, with "
              "base address 0 and with the base at the mip address (level 0 never sampled)",
              "two 16x16 grey-224 squares on navy; every pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildMipsWithoutBase().scene, w); },
              [] { return BuildMipsWithoutBase().expected; })};
}

}  // namespace xnt::samples
