// A capture-shaped synthetic trace, built in memory: what a D3D title's frame looks like once a
// capture tool has recorded it. Unlike the flat_N case (every vertex buffer uploaded ahead, all
// draws in one ring submission), each draw here is
//   - a fresh CPU upload of its 24 bytes of vertices (three float2 clip-space positions) to a page
//     no recent draw used (D3D's dynamic vertex ring: DrawPrimitiveUP-style data), recorded as a
//     memory event before the submission that reads it,
//   - its own ring-buffer submission: its colour constant (pixel-shader c0), its vertex fetch
//     constant and a 3-vertex auto-indexed DRAW_INDX_2, as a title that kicks the ring per draw;
// and every frame starts with a submission that clears the colour target by a resolve and binds
// the shaders, and ends with a submission that resolves the target to the front buffer and swaps
// (then the frame marker). Draw k of a frame is a right triangle with 5-pixel legs in cell k of
// an 8x8-pixel grid over the target (wrapping), its edges on k+0.75 / x+y = m+0.5 lines so its
// coverage does not depend on the pixel-centre convention (samples/src/flat_scene.h) and every
// path must draw the same pixels.
//
// `bench replay` replays it as capture_N (one frame of N draws) or capture_FxN; other tools may
// write it to a file through WriteCaptureTrace (records are produced one at a time, so a long
// trace never has to be held in memory).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::bench {

struct CaptureTraceShape {
  uint32_t frames = 1;
  uint32_t draws_per_frame = 2000;
  uint32_t width = 320, height = 240;  // colour target and front buffer, 8..2048 each
  // Pages of the dynamic vertex ring (4 KiB each, one per draw); draw k of the whole trace writes
  // page k mod this, so a page is rewritten only after this many other draws (within one frame
  // when draws_per_frame is larger).
  uint32_t vertex_ring_pages = 32768;
  // The factors of the shape, each switchable so `bench replay --capture-variants` attributes a
  // capture's cost by experiment (named in the case name, CaptureCaseName):
  //   "packed": draw k's 24 bytes at 32 * k from the ring's start, 128 draws to a page, where by
  //   default each draw has a page of its own (vertex_ring_pages * 128 slots before wrapping);
  //   "early": the frame's vertex data is written before its first submission, not draw by draw;
  //   "one-submission": every draw of the frame in one submission (implies "early": memory is
  //   written between submissions only);
  //   "one-color": the colour constant is written once per frame, in its first submission;
  //   "textured": the draws sample textures, as most of a real frame's do (below).
  bool page_per_draw = true;
  bool uploads_per_draw = true;
  bool submission_per_draw = true;
  bool color_per_draw = true;
  // "textured": draw k of a frame point-samples texture k mod kCaptureTextures through texture
  // fetch constant 0, which the draw's submission writes as D3D's SetTexture does; each texture
  // is a 32x32 tiled k_8_8_8_8 page of one colour (CaptureTextureColor), all of them written once
  // before the first frame as a title loads them, at kCaptureTextureAddress(shape). The pixel
  // shader is then a tfetch2D and the vertices carry a coordinate (float2 position, float3
  // coordinate: 60 bytes a draw; "packed" puts them 64 bytes apart).
  bool textured = false;
};

inline constexpr uint32_t kCaptureTextures = 1024;
inline constexpr uint32_t kCaptureTextureBytes = 4096;  // 32 x 32 x 4 bytes
// The colour of texture t of the "textured" variant (R, G, B; alpha 255): 40 + (t * 37) mod 200,
// 40 + (t * 73) mod 200, 40 + (t * 151) mod 200, so that neighbouring draws differ in every channel.
std::array<uint8_t, 4> CaptureTextureColor(uint32_t t);

inline constexpr uint32_t kCaptureMaxDrawsPerFrame = 1000000;
inline constexpr uint32_t kCaptureMaxFrames = 100000;
// Guest physical address of the vertex ring's first page (above every fixed buffer the scene
// uses: ring, resolve rectangle, front buffer, clear scratch).
inline constexpr uint32_t kCaptureVertexRingAddress = 0x01000000;
// The "textured" variant's textures follow the vertex ring.
inline uint64_t CaptureTextureAddress(const CaptureTraceShape& shape) {
  return kCaptureVertexRingAddress + uint64_t(shape.vertex_ring_pages) * 4096;
}

// Throws xnt::Error naming the field when a shape is out of range (no draws or frames, sizes over
// the limits above, a vertex ring, and the textures after it, that do not fit the 512 MiB of guest
// memory).
void CheckCaptureTraceShape(const CaptureTraceShape& shape);

// Every record of the trace, in order, handed to `sink` one at a time.
void BuildCaptureTrace(const CaptureTraceShape& shape,
                       const std::function<void(format::Record&&)>& sink);
std::vector<format::Record> CaptureTraceRecords(const CaptureTraceShape& shape);
// Writes the trace to `file` (single-threaded writer, the samples' trace info).
void WriteCaptureTrace(const CaptureTraceShape& shape, const std::string& file);

// "capture_N" (one frame of N draws) or "capture_FxN" (F frames of N draws), each followed by the
// variant words that are set ("-packed", "-early", "-one-submission", "-one-color", "-textured",
// in that order); nullopt when `name` is neither; throws xnt::Error when it is one with numbers out of
// range or an unknown word.
std::optional<CaptureTraceShape> ParseCaptureCaseName(std::string_view name);
std::string CaptureCaseName(const CaptureTraceShape& shape);
// Sets the variant words of `variant` ("base", or words joined by '+': "packed+early") on
// `shape`; throws xnt::Error naming an unknown word.
void ApplyCaptureVariant(std::string_view variant, CaptureTraceShape& shape);

}  // namespace xnt::bench
