// Capture-shaped synthetic trace (xnt/bench/capture_trace.h).
#include "xnt/bench/capture_trace.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "flat_scene.h"
#include "guest_bytes.h"
#include "present_frame.h"
#include "sample_shaders.h"
#include "texture_scene.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/format/writer.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/assembler.h"

namespace xnt::bench {

namespace {

constexpr uint32_t kStreamSlot = 95;        // vf0 = vertex fetch constant 95 (D3D stream 0)
constexpr uint32_t kPsConstantBase = 256;   // D3D's 256/256 ALU constant partition: PS c0
constexpr uint32_t kGuestMemoryBytes = 512u << 20;
// The ring buffer the submissions are fetched from: each submission follows the previous one and
// the write pointer wraps to the start when the next would not fit, as the CP's ring does.
constexpr uint32_t kRingBytes = 0x10000;

class RingCursor {
 public:
  uint32_t Place(size_t dwords) {
    const uint32_t bytes = uint32_t(dwords * 4);
    if (offset_ + bytes > kRingBytes) offset_ = 0;
    const uint32_t address = samples::kRingAddress + offset_;
    offset_ = (offset_ + bytes) % kRingBytes;
    return address;
  }

 private:
  uint32_t offset_ = 0;
};

// Draw `cell` of the 8x8 grid: a right triangle with 5-pixel legs whose axis-aligned edges lie on
// k + 0.75 and whose hypotenuse on x + y = m + 0.5 (no pixel centre on an edge at either centre
// convention), as three big-endian clip-space float2 (24 bytes).
// With `textured`, each vertex also carries its texture coordinate (u, v, 0): (0, 0), (1, 0), (0, 1).
std::vector<uint8_t> CellTriangle(uint32_t cell, uint32_t width, uint32_t height, bool textured) {
  const uint32_t per_row = width / 8, rows = height / 8;
  const float x = float((cell % per_row) * 8) + 1.75f;
  const float y = float(((cell / per_row) % rows) * 8) + 1.75f;
  const float px[3] = {x, x + 5.0f, x}, py[3] = {y, y, y + 5.0f};
  std::vector<float> clip;
  for (int k = 0; k < 3; ++k) {
    clip.push_back(px[k] / (float(width) / 2) - 1.0f);
    clip.push_back(1.0f - py[k] / (float(height) / 2));
    if (textured) {
      clip.push_back(k == 1 ? 1.0f : 0.0f);
      clip.push_back(k == 2 ? 1.0f : 0.0f);
      clip.push_back(0.0f);
    }
  }
  return samples::BigEndianFloats(clip);
}

// Texture t: every texel its colour as a k_8_8_8_8 value (R in bits 7:0) stored with the 8in32
// swap, i.e. as a big-endian dword.
std::vector<uint8_t> SolidTexture(uint32_t t) {
  std::vector<uint8_t> bytes(kCaptureTextureBytes);
  const uint32_t texel = samples::PackRgba(CaptureTextureColor(t));
  for (uint32_t i = 0; i < kCaptureTextureBytes; i += 4) StoreBE32(&bytes[i], texel);
  return bytes;
}

// Colour k of the sequence the draws cycle through.
std::array<float, 4> FrameColor(uint32_t k) {
  return {float(k % 7) / 7.0f, float(k % 5) / 5.0f, float(k % 3) / 3.0f, 1.0f};
}

// Bytes of one draw's vertices, and of its slot when "packed".
uint32_t VertexBytes(const CaptureTraceShape& s) { return s.textured ? 60 : 24; }
uint32_t SlotBytes(const CaptureTraceShape& s) { return s.textured ? 64 : 32; }

// Where draw k of the trace finds its vertices: a page of its own, or a slot ("packed").
uint32_t VertexAddress(const CaptureTraceShape& s, uint64_t draw_in_trace) {
  if (s.page_per_draw) {
    return kCaptureVertexRingAddress + uint32_t(draw_in_trace % s.vertex_ring_pages) * 4096;
  }
  const uint64_t slots = uint64_t(s.vertex_ring_pages) * (4096 / SlotBytes(s));
  return kCaptureVertexRingAddress + uint32_t(draw_in_trace % slots) * SlotBytes(s);
}

uint32_t ParseCount(std::string_view text, std::string_view name) {
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw Error("bench case '" + std::string(name) +
                "': expected capture_N or capture_FxN with whole numbers");
  }
  return value;
}

}  // namespace

std::array<uint8_t, 4> CaptureTextureColor(uint32_t t) {
  return {uint8_t(40 + t * 37 % 200), uint8_t(40 + t * 73 % 200), uint8_t(40 + t * 151 % 200), 255};
}

void CheckCaptureTraceShape(const CaptureTraceShape& s) {
  auto fail = [](const std::string& what) { throw Error("capture trace: " + what); };
  if (s.frames == 0 || s.frames > kCaptureMaxFrames) {
    fail("frames must be 1.." + std::to_string(kCaptureMaxFrames) + ", not " + std::to_string(s.frames));
  }
  if (s.draws_per_frame == 0 || s.draws_per_frame > kCaptureMaxDrawsPerFrame) {
    fail("draws per frame must be 1.." + std::to_string(kCaptureMaxDrawsPerFrame) + ", not " +
         std::to_string(s.draws_per_frame));
  }
  if (s.width < 8 || s.width > 2048 || s.height < 8 || s.height > 2048) {
    fail("the target must be 8..2048 pixels a side, not " + std::to_string(s.width) + "x" +
         std::to_string(s.height));
  }
  const uint64_t textures = s.textured ? uint64_t(kCaptureTextures) * kCaptureTextureBytes : 0;
  const uint64_t end = CaptureTextureAddress(s) + textures;
  if (s.vertex_ring_pages == 0 || end > kGuestMemoryBytes) {
    fail("the vertex ring must be 1.." +
         std::to_string((kGuestMemoryBytes - kCaptureVertexRingAddress - textures) / 4096) +
         " pages" + (s.textured ? " with the textures after it" : "") + ", not " +
         std::to_string(s.vertex_ring_pages));
  }
}

void BuildCaptureTrace(const CaptureTraceShape& s, const std::function<void(format::Record&&)>& sink) {
  CheckCaptureTraceShape(s);
  const auto vs = ucode::AssembleShader(s.textured ? samples::kTexturedVertexShader
                                                   : samples::kPositionVertexShader);
  const auto ps = ucode::AssembleShader(
      s.textured ? samples::TexturedPixelShader(samples::TexturedQuadFetch::k2D)
                 : std::string(samples::kConstantColorPixelShader));
  // Temporaries and interpolators as the textured samples declare them (texture_scene.cpp).
  const capture::ShaderPair shaders = s.textured
                                          ? capture::ShaderPair{vs.microcode, ps.microcode, 3, 2, 1}
                                          : capture::ShaderPair{vs.microcode, ps.microcode, 2, 1, 1};
  capture::RenderTargetSetup rt;
  rt.surface_pitch = s.width;
  rt.color_base_tiles = 0;
  const capture::ResolveSetup clear = samples::SceneClear(s.width, s.height, {16, 32, 48, 255});
  RingCursor ring;
  auto submit = [&](capture::Pm4Builder& b) {
    std::vector<uint32_t> dwords = b.Take();
    const uint32_t address = ring.Place(dwords.size());
    sink(format::Submission{format::SubmissionKind::kRingBuffer, address, std::move(dwords)});
  };

  sink(format::MemoryEvent{format::MemoryEventKind::kGpuRead, samples::kResolveVertexAddress,
                           capture::ResolveRectangleVertices(s.width, s.height)});
  if (s.textured) {
    for (uint32_t t = 0; t < kCaptureTextures; ++t) {
      sink(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                               uint32_t(CaptureTextureAddress(s) + uint64_t(t) * kCaptureTextureBytes),
                               SolidTexture(t)});
    }
  }
  uint64_t draw_in_trace = 0;
  for (uint32_t f = 0; f < s.frames; ++f) {
    capture::Pm4Builder b;
    if (f == 0) capture::D3dDeviceDefaults(b);
    capture::D3dResolve(b, rt, clear);
    capture::D3dSetViewport(b, 0, 0, float(s.width), float(s.height));
    capture::D3dSetShaders(b, shaders);
    const bool early = !s.uploads_per_draw || !s.submission_per_draw;
    if (!s.color_per_draw) b.SetAluConstants(kPsConstantBase, FrameColor(f));
    if (early) {
      for (uint32_t d = 0; d < s.draws_per_frame; ++d) {
        sink(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                 VertexAddress(s, draw_in_trace + d),
                                 CellTriangle(d, s.width, s.height, s.textured)});
      }
    }
    submit(b);
    for (uint32_t d = 0; d < s.draws_per_frame; ++d, ++draw_in_trace) {
      const uint32_t address = VertexAddress(s, draw_in_trace);
      if (!early) {
        sink(format::MemoryEvent{format::MemoryEventKind::kGpuRead, address,
                                 CellTriangle(d, s.width, s.height, s.textured)});
      }
      if (s.color_per_draw) b.SetAluConstants(kPsConstantBase, FrameColor(d + f));
      if (s.textured) {
        const uint32_t t = d % kCaptureTextures;
        b.SetFetchConstant(0, capture::TextureFetch2D(
                                  uint32_t(CaptureTextureAddress(s) + uint64_t(t) * kCaptureTextureBytes),
                                  32, 32, xenos::TextureFormat::k_8_8_8_8));
      }
      capture::D3dSetVertexFetch(b, kStreamSlot, address, VertexBytes(s) / 4);
      b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleList, 3);
      if (s.submission_per_draw) submit(b);
    }
    if (!s.submission_per_draw) submit(b);
    // The frame's end as D3D's Present records it (samples/src/present_frame.h), in its own
    // submission here: the target resolved to the front buffer without clears, the swap.
    capture::ResolveSetup present = clear;
    present.dest_address = samples::kFrontBufferAddress;
    present.clear_color = false;
    present.clear_depth = false;
    capture::D3dResolve(b, rt, present);
    capture::D3dSwap(b, samples::kFrontBufferAddress, s.width, s.height);
    submit(b);
    sink(format::FrameMarker{f, samples::kFrontBufferAddress, s.width, s.height,
                             uint32_t(xenos::TextureFormat::k_8_8_8_8)});
  }
}

std::vector<format::Record> CaptureTraceRecords(const CaptureTraceShape& shape) {
  std::vector<format::Record> records;
  records.reserve(size_t(shape.frames) * (size_t(shape.draws_per_frame) * 2 + 3) + 1);
  BuildCaptureTrace(shape, [&](format::Record&& r) { records.push_back(std::move(r)); });
  return records;
}

void WriteCaptureTrace(const CaptureTraceShape& shape, const std::string& file) {
  CheckCaptureTraceShape(shape);
  format::WriterOptions wo;
  wo.threads = 1;
  auto writer = format::Writer::Create(file, samples::SampleTraceInfo(), wo);
  BuildCaptureTrace(shape, [&](format::Record&& r) { writer->Write(r); });
  writer->Finish();
}

namespace {

struct VariantWord {
  std::string_view word;
  bool CaptureTraceShape::*flag;
  bool value;  // what the word sets the flag to
};
constexpr VariantWord kVariantWords[] = {
    {"packed", &CaptureTraceShape::page_per_draw, false},
    {"early", &CaptureTraceShape::uploads_per_draw, false},
    {"one-submission", &CaptureTraceShape::submission_per_draw, false},
    {"one-color", &CaptureTraceShape::color_per_draw, false},
    {"textured", &CaptureTraceShape::textured, true},
};

// Clears the flag `word` names; false for an unknown word.
bool ApplyVariantWord(std::string_view word, CaptureTraceShape& shape) {
  for (const VariantWord& v : kVariantWords) {
    if (v.word == word) {
      shape.*v.flag = v.value;
      return true;
    }
  }
  return false;
}

std::string KnownVariantWords() {
  std::string out;
  for (const VariantWord& v : kVariantWords) {
    out += std::string(out.empty() ? "" : ", ") + std::string(v.word);
  }
  return out;
}

}  // namespace

std::optional<CaptureTraceShape> ParseCaptureCaseName(std::string_view name) {
  constexpr std::string_view kPrefix = "capture_";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  std::string_view rest = name.substr(kPrefix.size());
  CaptureTraceShape shape;
  // The variant words follow the counts, in CaptureCaseName's order; a word may hold a '-'.
  size_t dash = rest.find('-');
  std::string_view words =
      dash == std::string_view::npos ? std::string_view() : rest.substr(dash + 1);
  rest = rest.substr(0, dash);
  const size_t x = rest.find('x');
  if (x == std::string_view::npos) {
    shape.draws_per_frame = ParseCount(rest, name);
  } else {
    shape.frames = ParseCount(rest.substr(0, x), name);
    shape.draws_per_frame = ParseCount(rest.substr(x + 1), name);
  }
  while (!words.empty()) {
    bool matched = false;
    for (const VariantWord& v : kVariantWords) {
      if (words.starts_with(v.word) &&
          (words.size() == v.word.size() || words[v.word.size()] == '-')) {
        shape.*v.flag = v.value;
        words.remove_prefix(std::min(words.size(), v.word.size() + 1));
        matched = true;
        break;
      }
    }
    if (!matched) {
      throw Error("bench case '" + std::string(name) + "': unknown capture variant in '" +
                  std::string(words) + "' (known: " + KnownVariantWords() + ")");
    }
  }
  CheckCaptureTraceShape(shape);
  return shape;
}

std::string CaptureCaseName(const CaptureTraceShape& shape) {
  const std::string draws = std::to_string(shape.draws_per_frame);
  std::string name = shape.frames == 1 ? "capture_" + draws
                                       : "capture_" + std::to_string(shape.frames) + "x" + draws;
  for (const VariantWord& v : kVariantWords) {
    if (shape.*v.flag == v.value) name += "-" + std::string(v.word);
  }
  return name;
}

void ApplyCaptureVariant(std::string_view variant, CaptureTraceShape& shape) {
  if (variant == "base") return;
  while (true) {
    const size_t plus = variant.find('+');
    const std::string_view word = variant.substr(0, plus);
    if (!ApplyVariantWord(word, shape)) {
      throw Error("capture variant '" + std::string(word) + "': expected base or " +
                  KnownVariantWords() + ", joined by '+'");
    }
    if (plus == std::string_view::npos) return;
    variant.remove_prefix(plus + 1);
  }
}

}  // namespace xnt::bench
