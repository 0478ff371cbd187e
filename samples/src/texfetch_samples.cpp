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
#include <algorithm>
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

// The 16x16 quad in column i that reads the 8x8x4 k_8_8_8_8 volume at kVolumeAddress (linear,
// pitch 32 texels, 8in32) by tfetch3D at `coord`: clamp mode `clamp_z` along z (0 wrap, 2 clamp
// to edge), x/y filter `xy` and volume (z) filter `vol` in the fetch constant (0 point, 1 linear).
TexturedQuad VolumeQuad(uint32_t i, std::array<float, 3> coord, uint32_t clamp_z, uint32_t xy, uint32_t vol) {
  TexturedQuad q;
  q.x = 4 + 20 * i;
  q.y = 4;
  q.width = q.height = 16;
  q.op = TexturedQuadFetch::k3D;
  q.fixed_coord = true;
  q.coord = coord;
  q.fetch[0] = 2u | (clamp_z << 16) | (1u << 22);                // pitch 32 texels, linear
  q.fetch[1] = 6u | (2u << 6) | kVolumeAddress;                // k_8_8_8_8, 8in32
  q.fetch[2] = 7u | (7u << 11) | (3u << 22);                   // 8x8x4
  q.fetch[3] = ((0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1) | (xy << 19) | (xy << 21);
  q.fetch[4] = vol | (vol << 1);                                // vol_mag, vol_min
  q.fetch[5] = 2u << 9;                                         // 3D
  return q;
}

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
    const uint32_t filter = c.linear ? 1 : 0;  // vol_mag/vol_min as x/y
    TexturedQuad q = VolumeQuad(i, {0.5f, 0.5f, c.z}, c.clamp_z, filter, filter);
    b.scene.quads.push_back(q);
    b.Fill(q.x, 4, 16, 16, {c.grey, c.grey, c.grey, 255});
  }
  return b;
}

// texfetch_volume_z_filter: a volume's own z filter apart from its x/y filter. The texture unit
// filters across a volume's slices with the vol_mag / vol_min filter (fetch constant dword 4 bits
// 0 / 1, or the instruction's VolMagFilter / VolMinFilter), across x and y with mag / min
// (Direct3D's MAGFILTERZ / MINFILTERZ sampler states, "for volume/array slice" magnification and
// minification, set them). An 8x8x4 k_8_8_8_8 volume laid out as texfetch_volume_slices' whose
// red is its slice's (16, 80, 144, 208) and green its column's (32 x), read by tfetch3D (one
// level: magnified, so vol_mag and mag) at u = 0.25, v = 0.5: texel coordinate x = 2.0, which a
// bilinear footprint takes half and half from columns 1 and 2 (green 48) and a point one from
// column 2 (64); at z = 0.4375 (slice coordinate 1.75) a linear z filter takes slices 1 and 2 by
// 1/4 (red 80 + 64 / 4 = 96), a point one slice 1 (80):
// - x/y linear, z point: (80, 48);  - x/y point, z linear: (96, 64);
// - x/y point, z linear at z = 0.0625 (0.25) wrapping in z: 3/4 of slice 3 and 1/4 of slice 0
//   (fraction of 0.25 - 0.5 is 0.75 towards slice 0: 208 - 192 x 0.75 = 64): (64, 64);
// - both linear: (96, 48); both point: (80, 64);
// - the fetch constant linear everywhere, the instruction's VolMagFilter=point: (80, 48).
Builder BuildVolumeZFilter() {
  Builder b(128, 24);
  for (uint32_t k = 0; k < 4; ++k) {
    std::vector<uint8_t> slice(0x2000, 0);
    for (uint32_t y = 0; y < 8; ++y) {
      for (uint32_t x = 0; x < 8; ++x) {
        // Big-endian dwords R | G << 8 | B << 16 | A << 24, read with k8in32; rows 256 bytes.
        uint8_t* t = &slice[size_t(y) * 256 + size_t(x) * 4];
        t[0] = 255, t[1] = 0, t[2] = uint8_t(32 * x), t[3] = uint8_t(16 + 64 * k);
      }
    }
    b.scene.memory.push_back({kVolumeAddress + k * 0x2000, std::move(slice)});
  }
  struct Case {
    float z;
    uint32_t xy, vol;  // 0 point, 1 linear (fetch constant)
    bool instruction_point;
    uint8_t red, green;
  };
  const Case cases[] = {{0.4375f, 1, 0, false, 80, 48}, {0.4375f, 0, 1, false, 96, 64},
                        {0.0625f, 0, 1, false, 64, 64}, {0.4375f, 1, 1, false, 96, 48},
                        {0.4375f, 0, 0, false, 80, 64}, {0.4375f, 1, 1, true, 80, 48}};
  for (uint32_t i = 0; i < 6; ++i) {
    const Case& c = cases[i];
    TexturedQuad q = VolumeQuad(i, {0.25f, 0.5f, c.z}, 0, c.xy, c.vol);
    if (c.instruction_point) {
      q.pixel_shader = std::string(XNT_SAMPLE_PS_HEAD) +
                       "    exec\n    tfetch3D r1, r0.xyz, tf0, VolMagFilter=point\n    alloc colors\n"
                       "    exece\n    mov oC0, r1\n";
    }
    b.scene.quads.push_back(q);
    b.Fill(q.x, 4, 16, 16, {c.red, c.green, 0, 255});
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

// Volume A, 16x16x8 k_8_8_8_8 linear, levels 0..4 unpacked: a linear row is 32 texels x 4 B,
// 256-aligned (256 B), a slice 32 rows (8 KiB), and every level's storage spans the base's
// 8 slices (64 KiB): the base at its address, level n at the mip address + (n - 1) x 64 KiB. Grey
// 16, 64, 112, 160, 208 for levels 0..4; point filters, point mip filter. The same bytes are a
// stack of 8 layers too: a stacked texture's layers are 8 KiB apart (4 KiB-aligned), a level's
// layers together, so each level's storage is again 64 KiB.
//
// texfetch_volume_lod: the implicit LOD along z. 16 pixels across 16 texels in u and v (one
// texel a pixel) with w = 12u, so w moves 3/4 a pixel, 6 of the 8 slices: rho = sqrt(1 + 36) =
// 6.08, lambda 2.60, the nearest level 3 (160); the same fetch of the stack reads layers, whose
// index is not a filtered axis: lambda 0, level 0 (16). Vulkan lets a sampler take rho anywhere
// between the largest derivative and their sum (6..7: lambda 2.58..2.81), which rounds to level
// 3 as well; at S host pixels per guest pixel along x (1.58..1.81 at 2, 1.00..1.22 at 3) every
// choice rounds to the same level too, so all paths agree at every scale on any driver.
//
// texfetch_volume_mips: explicit levels. setTexLOD 1.5 on A with a linear mip filter: half of
// level 1 and half of level 2, 88.
// Volume B, 8x8x16 k_8_8_8_8 linear with packed mips, levels 0..4: the tail starts at the base
// (8 <= 16). In the base's storage (same rows and slices as A's) level 0 sits at x = 16 texels;
// the mips' tail (a mip storage of the power-of-two base's size: 256-byte rows, 8 KiB slices)
// holds level 1 (4x4x8) at x = 8, level 2 (2x2x4) at x = 4, level 3 (1x1x2) at y = 4 and level 4
// (1x1x1) at y = 2, slice 4: the offset along the long axis fell under 4 texels, so it moved
// along z. Level n, slice z is grey 20 + 40n + 2z. setTexLOD n (n = 0..4) at (0.4, 0.4, 0.3)
// reads slice floor(0.3 x (16 >> n)): 4, 2, 1, 0, 0: greys 28, 64, 102, 140, 180.
// The same bytes as a stack of 16 8x8 layers with packed mips (a stack's layers are 8 KiB apart
// too, its base in the tail at x = 16 as well), layer z grey 20 + 2z: tfetch3D at z = 0.3 with
// OffsetZ=1.5 reads layer floor(0.3 x 16 + 1.5) = 6 (grey 32; layer 4, 28, without the offset);
// with vol_mag_filter linear, z = 0.3 (4.8 layers) blends layers 4 and 5 by 0.3 (28.6: 29) and
// z = 0.375 (6 layers, the boundary between layers 5 and 6) half and half (31); with register
// gradients moving z 3.2 layers a pixel, vol_min_filter's linear filter blends 4 and 5 (29).
constexpr uint32_t kVolumeA = kTexturedFirstTextureAddress + 0x100000;
constexpr uint32_t kVolumeAMips = kVolumeA + 0x10000;
constexpr uint32_t kVolumeB = kTexturedFirstTextureAddress + 0x200000;
constexpr uint32_t kVolumeBMips = kVolumeB + 0x20000;

// A linear k_8_8_8_8 block of w x h texels x d slices at texel (x0, y0, z0) of a storage with
// 256-byte rows and 8 KiB slices, each slice z one grey (rgba all that grey).
void FillLinearSlices(std::vector<uint8_t>& storage, uint32_t x0, uint32_t y0, uint32_t z0,
                      uint32_t w, uint32_t h, uint32_t d, uint8_t grey0, uint8_t step) {
  for (uint32_t z = 0; z < d; ++z) {
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        const size_t at = size_t(z0 + z) * 0x2000 + size_t(y0 + y) * 256 + size_t(x0 + x) * 4;
        for (uint32_t c = 0; c < 4; ++c) storage[at + c] = uint8_t(grey0 + step * z);
      }
    }
  }
}

constexpr uint8_t kVolumeAGrey[5] = {16, 64, 112, 160, 208};

void AddVolumeA(Builder& b) {
  b.scene.memory.push_back({kVolumeA, std::vector<uint8_t>(0x10000, kVolumeAGrey[0])});
  for (uint32_t n = 1; n < 5; ++n) {
    b.scene.memory.push_back(
        {kVolumeAMips + (n - 1) * 0x10000, std::vector<uint8_t>(0x10000, kVolumeAGrey[n])});
  }
}

// A linear k_8_8_8_8 fetch constant (pitch 32 texels, 8in32, XYZW, point filters, the given
// mip filter, vol_mag/vol_min point, mip levels 0..4): a volume (`volume`) or a stack of
// `d` layers, packed or not.
std::array<uint32_t, 6> LinearFetch(uint32_t base, uint32_t mips, uint32_t w, uint32_t h, uint32_t d,
                                    uint32_t mip_filter, bool packed, bool volume = true) {
  std::array<uint32_t, 6> f{};
  f[0] = 2u | (1u << 22);
  f[1] = 6u | (2u << 6) | base;
  f[2] = volume ? (w - 1) | ((h - 1) << 11) | ((d - 1) << 22)
                : (w - 1) | ((h - 1) << 13) | ((d - 1) << 26);
  f[3] = ((0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1) | (mip_filter << 23);
  f[4] = 4u << 6;
  f[5] = ((volume ? 2u : 1u) << 9) | (packed ? 1u << 11 : 0u) | mips;
  return f;
}

Builder BuildVolumeLod() {
  Builder b(48, 24);
  AddVolumeA(b);
  const std::array<float, 4> one{1.0f, 1.0f, 1.0f, 1.0f}, zero{0.0f, 0.0f, 0.0f, 0.0f};
  const float w_of_u[4] = {1.0f, 12.0f, 0.0f, 0.0f};
  for (uint32_t i = 0; i < 2; ++i) {
    // w = 12u in r2.z, (u, v) as they are.
    TexturedQuad& q = b.Quad(4 + 20 * i, 4,
                             "    mul r2.xyz, r0.xyx, c2.xxy\n"
                             "    tfetch3D r1, r2.xyz, tf0\n",
                             one, zero);
    q.fetch = LinearFetch(kVolumeA, kVolumeAMips, 16, 16, 8, 0, false, i == 0);
    q.ps_constants.insert(q.ps_constants.end(), w_of_u, w_of_u + 4);
    const uint8_t grey = kVolumeAGrey[i == 0 ? 3 : 0];
    b.Fill(4 + 20 * i, 4, 16, 16, {grey, grey, grey, 255});
  }
  return b;
}

Builder BuildVolumeMips() {
  Builder b(208, 24);
  AddVolumeA(b);
  std::vector<uint8_t> b_base(0x20000, 0), b_mips(0x20000, 0);
  FillLinearSlices(b_base, 16, 0, 0, 8, 8, 16, 20, 2);
  const uint32_t at[5][3] = {{0, 0, 0}, {8, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 2, 4}};
  for (uint32_t n = 1; n < 5; ++n) {
    const uint32_t side = std::max(8u >> n, 1u);
    FillLinearSlices(b_mips, at[n][0], at[n][1], at[n][2], side, side, 16 >> n,
                     uint8_t(20 + 40 * n), 2);
  }
  b.scene.memory.push_back({kVolumeB, std::move(b_base)});
  b.scene.memory.push_back({kVolumeBMips, std::move(b_mips)});
  const std::array<float, 4> one{1.0f, 1.0f, 1.0f, 1.0f}, zero{0.0f, 0.0f, 0.0f, 0.0f};
  // setTexLOD from c2.x, then tfetch3D with the register LOD at the quad's fixed coordinate.
  const char* register_lod = "    mov r2, c2\n"
                             "    setTexLOD r2.x, tf0\n"
                             "    tfetch3D r1, r0.xyz, tf0, UseComputedLOD=false, UseRegisterLOD=true\n";
  auto lod_quad = [&](uint32_t x, float lod, const std::array<uint32_t, 6>& fetch, uint8_t grey) {
    TexturedQuad& q = b.Quad(x, 4, register_lod, one, zero);
    q.fetch = fetch;
    q.fixed_coord = true;
    q.coord = {0.4f, 0.4f, 0.3f};
    const float c2[4] = {lod, 0.0f, 0.0f, 0.0f};
    q.ps_constants.insert(q.ps_constants.end(), c2, c2 + 4);
    b.Fill(x, 4, 16, 16, {grey, grey, grey, 255});
  };
  lod_quad(4, 1.5f, LinearFetch(kVolumeA, kVolumeAMips, 16, 16, 8, 1, false), 88);
  const uint8_t b_grey[5] = {28, 64, 102, 140, 180};
  for (uint32_t n = 0; n < 5; ++n) {
    lod_quad(24 + 20 * n, float(n), LinearFetch(kVolumeB, kVolumeBMips, 8, 8, 16, 0, true), b_grey[n]);
  }
  // Volume B's bytes as a stack at register LOD 0 (the layers magnified: vol_mag's filter).
  auto stack_quad = [&](uint32_t x, float z, const char* offset, bool linear, uint8_t grey) {
    TexturedQuad& q = b.Quad(x, 4,
                             std::string("    mov r2, c2\n    setTexLOD r2.x, tf0\n"
                                         "    tfetch3D r1, r0.xyz, tf0, UseComputedLOD=false, "
                                         "UseRegisterLOD=true") +
                                 offset + "\n",
                             one, zero);
    q.fetch = LinearFetch(kVolumeB, kVolumeBMips, 8, 8, 16, 0, true, false);
    if (linear) q.fetch[4] |= 1u;  // vol_mag_filter linear
    q.fixed_coord = true;
    q.coord = {0.4f, 0.4f, z};
    q.ps_constants.insert(q.ps_constants.end(), {0.0f, 0.0f, 0.0f, 0.0f});
    b.Fill(x, 4, 16, 16, {grey, grey, grey, 255});
  };
  stack_quad(124, 0.3f, ", OffsetZ=1.5", false, 32);
  stack_quad(144, 0.3f, "", true, 29);
  stack_quad(164, 0.375f, "", true, 31);
  // Register gradients moving z 0.2 (3.2 layers) a pixel: the layers are minified, so
  // vol_min_filter (linear) filters them, not vol_mag_filter (point): 29 again, not 28.
  TexturedQuad& g = b.Quad(184, 4,
                           "    mov r2, c2\n    mov r3, c3\n    setGradientH r2.xyz, tf0\n"
                           "    setGradientV r3.xyz, tf0\n"
                           "    tfetch3D r1, r0.xyz, tf0, UseRegisterGradients=true\n",
                           one, zero);
  g.fetch = LinearFetch(kVolumeB, kVolumeBMips, 8, 8, 16, 0, true, false);
  g.fetch[4] |= 2u;  // vol_min_filter linear
  g.fixed_coord = true;
  g.coord = {0.4f, 0.4f, 0.3f};
  g.ps_constants.insert(g.ps_constants.end(), {0.0f, 0.0f, 0.2f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f});
  b.Fill(184, 4, 16, 16, {29, 29, 29, 255});
  return b;
}

// texfetch_border_fraction: getBCF, the border colour's share of what tfetch would filter, in
// red (x; getBCF's other components are 0 whatever the fetch constant's swizzle). The 32x32
// texture of texfetch_lod_queries with clamp modes, filters and LODs per quad, at fixed
// coordinates; the texels' values never matter. Bilinear along x at u = 1/128: texel coordinate
// 0.25, the footprint 0.75 on texel 0 and 0.25 on texel -1 (the border): 0.25 (64), the same
// with the fetch constant's swizzle reversed; at (1/128, 1/128) with both axes on the border:
// 1 - 0.75 x 0.75 = 0.4375 (112); point at u = -0.01: texel -1, all border (255); at u = 1 - 1/128
// the footprint's right texel is 32, 0.25 (64); clamped to the edge at u = -0.5 nothing is
// border (0). setTexLOD 2 with a linear min filter reads level 2 (8x8): texel coordinate
// 0.0625, 0.5625 on texel 0: 0.4375 (112); setTexLOD 2.5 with a linear mip filter blends that
// with level 3 (4x4, 0.03125: 0.46875) half and half: 0.453125 (116). An 8x8x4 volume clamped to
// the border along z, linear, at w = 1/16 (slice coordinate 0.25): 0.25 of the slice before
// slice 0 (64).
Builder BuildBorderFraction() {
  Builder b(184, 24);
  b.scene.memory.push_back({kLevel0Address, std::vector<uint8_t>(0x4000, kLevel0Grey)});
  b.scene.memory.push_back({kMipAddress, std::vector<uint8_t>(0x10000, kMipGrey)});
  b.scene.memory.push_back({kVolumeAddress, std::vector<uint8_t>(0x8000, 0x80)});
  const std::array<float, 4> one{1.0f, 1.0f, 1.0f, 1.0f}, alpha{0.0f, 0.0f, 0.0f, 1.0f};
  enum Clamp : uint32_t { kRepeat = 0, kEdge = 2, kBorder = 6 };
  struct Case {
    std::array<float, 3> coord;
    uint32_t clamp_x, clamp_y;
    uint32_t mag, min, mip;  // fetch constant filters: 0 point, 1 linear
    float lod;               // < 0: no register LOD
    bool reversed_swizzle;
    uint8_t red;
  };
  const float e = 1.0f / 128.0f;
  const Case cases[] = {
      {{e, 0.5f, 0.0f}, kBorder, kRepeat, 1, 1, 0, -1.0f, false, 64},
      {{e, 0.5f, 0.0f}, kBorder, kRepeat, 1, 1, 0, -1.0f, true, 64},
      {{e, e, 0.0f}, kBorder, kBorder, 1, 1, 0, -1.0f, false, 112},
      {{-0.01f, 0.5f, 0.0f}, kBorder, kRepeat, 0, 0, 0, -1.0f, false, 255},
      {{1.0f - e, 0.5f, 0.0f}, kBorder, kRepeat, 1, 1, 0, -1.0f, false, 64},
      {{-0.5f, 0.5f, 0.0f}, kEdge, kEdge, 1, 1, 0, -1.0f, false, 0},
      {{e, 0.5f, 0.0f}, kBorder, kRepeat, 0, 1, 0, 2.0f, false, 112},
      {{e, 0.5f, 0.0f}, kBorder, kRepeat, 0, 1, 1, 2.5f, false, 116},
  };
  uint32_t x = 4;
  for (const Case& c : cases) {
    const bool lod = c.lod >= 0.0f;
    TexturedQuad& q = b.Quad(x, 4,
                             lod ? "    mov r2, c2\n    setTexLOD r2.x, tf0\n"
                                   "    getBCF2D r1, r0.xy, tf0, UseComputedLOD=false, UseRegisterLOD=true\n"
                                 : "    getBCF2D r1, r0.xy, tf0\n",
                             one, alpha);
    q.fixed_coord = true;
    q.coord = c.coord;
    q.fetch[0] |= (c.clamp_x << 10) | (c.clamp_y << 13);
    const uint32_t swizzle = c.reversed_swizzle ? (3u | (2u << 3) | (1u << 6) | (0u << 9))
                                                : (0u | (1u << 3) | (2u << 6) | (3u << 9));
    q.fetch[3] = (swizzle << 1) | (c.mag << 19) | (c.min << 21) | (c.mip << 23);
    const float c2[4] = {c.lod, 0.0f, 0.0f, 0.0f};
    if (lod) q.ps_constants.insert(q.ps_constants.end(), c2, c2 + 4);
    b.Fill(x, 4, 16, 16, {c.red, 0, 0, 255});
    x += 20;
  }
  TexturedQuad& v = b.Quad(x, 4, "    getBCF3D r1, r0.xyz, tf0\n", one, alpha);
  v.fixed_coord = true;
  v.coord = {0.5f, 0.5f, 1.0f / 16.0f};
  v.fetch[0] = 2u | (kBorder << 16) | (1u << 22);                                // pitch 32, linear
  v.fetch[1] = 6u | (2u << 6) | kVolumeAddress;                                  // k_8_8_8_8, 8in32
  v.fetch[2] = 7u | (7u << 11) | (3u << 22);                                     // 8x8x4
  v.fetch[3] = ((0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1) | (1u << 19) | (1u << 21);
  v.fetch[4] = 3u;                                                               // vol filters linear
  v.fetch[5] = 2u << 9;                                                          // 3D
  b.Fill(x, 4, 16, 16, {64, 0, 0, 255});
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
              "texfetch_volume_z_filter",
              "128x24: tfetch3D of an 8x8x4 volume (red by slice, green by column) whose z filter "
              "(vol_mag) differs from its x/y filter: linear/point, point/linear, point/linear "
              "wrapped in z, both linear, both point, and the instruction's VolMagFilter=point",
              "six 16x16 squares on navy: (80,48,0), (96,64,0), (64,64,0), (96,48,0), (80,64,0), "
              "(80,48,0); every pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildVolumeZFilter().scene, w); },
              [] { return BuildVolumeZFilter().expected; }),
          DescribedSample(
              "texfetch_mips_without_base",
              "48x24: a 32x32 texture's grey-224 mips magnified 2x under mip_min_level 1, with "
              "base address 0 and with the base at the mip address (level 0 never sampled)",
              "two 16x16 grey-224 squares on navy; every pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildMipsWithoutBase().scene, w); },
              [] { return BuildMipsWithoutBase().expected; }),
          DescribedSample(
              "texfetch_border_fraction",
              "184x24: getBCF2D/3D at fixed coordinates: bilinear and point footprints on a "
              "clamp-to-border edge (x, both axes, the far edge, a reversed fetch swizzle), "
              "clamp-to-edge, register LODs 2 and 2.5 on the mips, a volume's z border",
              "nine 16x16 squares on navy, red 64, 64, 112, 255, 64, 0, 112, 116, 64 (the sixth "
              "black); every pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildBorderFraction().scene, w); },
              [] { return BuildBorderFraction().expected; }),
          DescribedSample(
              "texfetch_volume_lod",
              "48x24: the implicit LOD of tfetch3D with w = 12u over a 16x16x8 volume with mips "
              "(w's derivative counts: level 3) and over the same bytes as a stack of 8 layers "
              "(the layer does not count: level 0)",
              "two 16x16 grey squares on navy: 160, 16; every pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildVolumeLod().scene, w); },
              [] { return BuildVolumeLod().expected; }),
          DescribedSample(
              "texfetch_volume_mips",
              "208x24: volumes with mip chains read at register LODs: 1.5 with a linear mip "
              "filter on a 16x16x8 volume, and 0..4 on an 8x8x16 volume whose packed tail puts "
              "its last level at slice 4; its bytes as a stack read with OffsetZ=1.5 and filtered "
              "between layers (vol_mag_filter linear; vol_min_filter under register gradients)",
              "ten 16x16 grey squares on navy: 88, 28, 64, 102, 140, 180, 32, 29, 31, 29; every "
              "pixel exact",
              [](format::Writer& w) { AuthorTexturedScene(BuildVolumeMips().scene, w); },
              [] { return BuildVolumeMips().expected; })};
}

}  // namespace xnt::samples
