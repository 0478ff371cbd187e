// ps_vertex_fetch: vertex fetches in a pixel shader. Xenos pixel shaders may vfetch as vertex
// shaders do (the sequencer runs one microcode for both kinds), reading guest memory through a
// vertex fetch constant. The shader takes the element index from c0.w (the draw's colour alpha)
// and writes the float4 it fetches from vf1 (fetch constant 94) as its colour.
#include "edram_scene_builder.h"
#include "raster_scenes.h"
#include "xnt/base/byte_order.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

constexpr uint32_t kElements = 0x01100000;  // two float4 elements, big-endian (k8in32)

// c0.w picks the element (1.0 -> element 1); element 0 is a red decoy only a path that ignored
// the index (or read nothing: zeros) would show.
constexpr const char* kPixelShader = XNT_SAMPLE_PS_HEAD R"(    exec
    mov r0, c0
    vfetch_full r1, r0.w, vf1, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    alloc colors
    exece
    mov oC0, r1
)";

Sample PixelVertexFetch() {
  const Rect left{1.75f, 1.75f, 29.75f, 29.75f};
  const Rect right{33.75f, 1.75f, 61.75f, 29.75f};
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    std::vector<uint8_t> bytes(32);
    const float elements[8] = {1.0f, 0.0f, 0.0f, 1.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    for (uint32_t i = 0; i < 8; ++i) StoreBE32(bytes.data() + 4 * i, std::bit_cast<uint32_t>(elements[i]));
    s.Memory(kElements, bytes);
    s.Record([](capture::Pm4Builder& b) { capture::D3dSetVertexFetch(b, 94, kElements, 8); });
    s.FlatPixelShader(kPixelShader);
    // Index 1 (alpha 1) on the left; index 0 (alpha 0: the decoy) on the right.
    s.Draw({left.x0, left.y0, left.x1, left.y1, 0.0f, C8(0, 0, 0, 255)});
    s.Draw({right.x0, right.y0, right.x1, right.y1, 0.0f, C8(0, 0, 0, 0)});
    s.FlatPixelShader();
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    Paint(img, left, U8(Rgba{0.25f, 0.5f, 0.75f, 1.0f}));
    Paint(img, right, U8(Rgba{1.0f, 0.0f, 0.0f, 1.0f}));
    return std::vector<Image>{img};
  };
  return MakeSample(
      "ps_vertex_fetch",
      "a pixel shader that vfetches a float4 from guest memory through vertex fetch constant 94, "
      "the element index from c0.w: index 1 on the left rectangle, 0 on the right",
      "64x32 frame: dark (16,24,32); x 2..29, y 2..29 (64,128,191) = element 1 (0.25, 0.5, 0.75, "
      "1); x 34..61, y 2..29 red (255,0,0) = element 0. All pixels exact.",
      build, frames);
}

}  // namespace

std::vector<Sample> PixelVertexFetchSamples() { return {PixelVertexFetch()}; }

}  // namespace xnt::samples
