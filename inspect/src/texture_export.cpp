// The textures panel: every texture fetch constant the draw's shaders name, decoded, and every
// mip level of layer 0 read texel by texel through the cpu path's decoder (gpu::TexelReader, the
// reference every path's textures are defined by) from 1x guest memory. A thumbnail is the level
// itself up to kThumbnailSide texels a side; a larger level is sampled at every step-th texel
// (nearest), which the panel says.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "site_internal.h"
#include "xnt/base/error.h"
#include "xnt/gpu/texel_reader.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::inspect {
namespace {

constexpr uint32_t kThumbnailSide = 256;

const char* ClampName(xenos::ClampMode m) {
  static const char* const kNames[] = {"repeat", "mirrored_repeat", "clamp_to_edge",
                                       "mirror_clamp_to_edge", "clamp_to_halfway",
                                       "mirror_clamp_to_halfway", "clamp_to_border",
                                       "mirror_clamp_to_border"};
  return kNames[uint32_t(m) & 7];
}

const char* FilterName(xenos::TextureFilter f) {
  static const char* const kNames[] = {"point", "linear", "basemap", "fetch_constant"};
  return kNames[uint32_t(f) & 3];
}

uint8_t Unorm8(float v) {
  if (!(v > 0.0f)) return 0;  // NaN and negatives
  return uint8_t(std::lround(std::min(v, 1.0f) * 255.0f));
}

// Level `level` of layer 0 as 8-bit RGBA (components X..W, clamped to 0..1); `step` receives the
// sampling step. An empty image for a format the decoder does not know.
diff::OwnedImage LevelImage(const gpu::TexelReader& reader, uint32_t level, uint32_t& step) {
  const gpu::TextureDescriptor::Level l = reader.texture().GetLevel(level);
  const uint32_t w = std::max(1u, l.width), h = std::max(1u, l.height);
  step = std::max((w + kThumbnailSide - 1) / kThumbnailSide, (h + kThumbnailSide - 1) / kThumbnailSide);
  const uint32_t tw = (w + step - 1) / step, th = (h + step - 1) / step;
  diff::OwnedImage image(int(tw), int(th), 4, diff::PixelType::kU8);
  for (uint32_t y = 0; y < th; ++y) {
    uint8_t* row = image.MutableRow(int(y));
    for (uint32_t x = 0; x < tw; ++x) {
      const auto texel = reader.Texel(level, x * step, y * step, 0);
      if (!texel) return {};
      for (uint32_t c = 0; c < 4; ++c) row[x * 4 + c] = Unorm8((*texel)[c]);
    }
  }
  return image;
}

Json Texture(const replay::DrawCall& draw, uint32_t slot, ImageWriter* images) {
  const replay::RegisterFile& regs = *draw.registers;
  uint32_t dwords[6];
  for (uint32_t i = 0; i < 6; ++i) dwords[i] = regs[xenos::FetchConstantIndex(slot, i)];
  const xenos::TextureFetchConstant tf = regs.TextureFetch(slot);
  Json t;
  t["slot"] = slot;
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08X", tf.base_address_bytes());
  t["address"] = hex;
  std::snprintf(hex, sizeof hex, "0x%08X", tf.mip_address_bytes());
  t["mip_address"] = hex;
  t["format"] = xenos::TextureFormatName(uint32_t(tf.format));
  t["size"] = Json::array({tf.width(), tf.height(), tf.depth()});
  t["dimension"] = uint32_t(tf.dimension);
  t["tiled"] = tf.tiled;
  t["pitch_texels"] = tf.pitch << 5;
  t["endian"] = xenos::EndianName(tf.endianness);
  t["mips"] = Json::array({tf.mip_min_level, tf.mip_max_level});
  t["packed_mips"] = tf.packed_mips;
  t["clamp"] = Json::array({ClampName(tf.clamp_x), ClampName(tf.clamp_y), ClampName(tf.clamp_z)});
  t["filter"] = Json::array({FilterName(tf.mag_filter), FilterName(tf.min_filter),
                             FilterName(tf.mip_filter)});
  t["swizzle"] = tf.swizzle;
  try {
    const gpu::TextureDescriptor d = gpu::TextureDescriptor::FromFetchConstant(dwords);
    if (!d.inexact.empty()) t["inexact"] = d.inexact;
    const replay::GuestMemory* memory = draw.memory;
    gpu::TexelReader reader(d, [memory](uint32_t address, std::span<uint8_t> out) {
      if (!memory || !replay::GuestMemory::InRange(address, out.size())) return false;
      memory->Read(address, out);
      return true;
    });
    Json levels = Json::array();
    for (uint32_t level = 0; level < d.levels && images; ++level) {
      const gpu::TextureDescriptor::Level l = d.GetLevel(level);
      Json entry;
      entry["level"] = level;
      entry["size"] = Json::array({l.width, l.height});
      uint32_t step = 1;
      diff::OwnedImage image = LevelImage(reader, level, step);
      if (image.view().width == 0) {
        entry["error"] = "the cpu texture decoder does not know this format";
      } else {
        entry["step"] = step;
        entry["image"] = images->Write(image.view());
      }
      levels.push_back(std::move(entry));
    }
    t["levels"] = std::move(levels);
  } catch (const Error& e) {
    t["error"] = e.what();
  }
  return t;
}

}  // namespace

Json TexturesJson(const replay::DrawCall& draw, ImageWriter* images) {
  Json out = Json::array();
  if (!draw.registers) return out;
  uint32_t slots = 0;
  for (const replay::Shader* s : {draw.vertex_shader, draw.pixel_shader}) {
    if (s && s->decoded && s->decoded->ok()) slots |= s->decoded->analysis.texture_fetch_constants;
  }
  for (uint32_t slot = 0; slot < 32; ++slot) {
    if ((slots >> slot) & 1) out.push_back(Texture(draw, slot, images));
  }
  return out;
}

}  // namespace xnt::inspect
