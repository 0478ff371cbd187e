#include "flat_scene.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "guest_bytes.h"
#include "present_frame.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"

namespace xnt::samples {

namespace {

using capture::Pm4Builder;

constexpr uint32_t kStreamSlot = 95;  // vf0 = vertex fetch constant 95 (D3D stream 0)
constexpr uint32_t kPsConstantBase = 256;

}  // namespace

capture::ResolveSetup SceneClear(uint32_t width, uint32_t height,
                                 const std::array<uint8_t, 4>& rgba) {
  return {.width = width, .height = height, .dest_address = kScratchAddress,
          .dest_pitch = RoundUp32(width), .dest_height = height, .clear_color = true,
          .clear_color_value = PackRgba(rgba), .vertex_address = kResolveVertexAddress};
}

void AuthorFlatScene(const FlatScene& scene, format::Writer& writer) {
  const auto vs = ucode::AssembleShader(kPositionVertexShader);
  const auto ps = ucode::AssembleShader(kConstantColorPixelShader);

  capture::RenderTargetSetup rt;
  rt.surface_pitch = scene.width;
  rt.color_base_tiles = 0;

  // Memory the GPU reads during the submission goes first.
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVertexAddress,
                                   capture::ResolveRectangleVertices(scene.width, scene.height)});
  for (size_t i = 0; i < scene.draws.size(); ++i) {
    const FlatDraw& d = scene.draws[i];
    if (d.vertices.size() * 8 > 4096 || d.indices.size() * 2 > 4096) {
      throw Error("flat scene draw " + std::to_string(i) + " exceeds its 4 KiB buffers");
    }
    std::vector<float> clip;
    for (const Vec2& v : d.vertices) {
      clip.push_back(v.x / (float(scene.width) / 2) - 1.0f);
      clip.push_back(1.0f - v.y / (float(scene.height) / 2));
    }
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                     kVertexAddress + uint32_t(i) * 0x1000, BigEndianFloats(clip)});
    if (!d.indices.empty()) {
      // 16-bit indices as the title writes them: big-endian, fetched with the k8in16 swap.
      std::vector<uint8_t> ib(d.indices.size() * 2);
      for (size_t k = 0; k < d.indices.size(); ++k) {
        ib[2 * k] = uint8_t(d.indices[k] >> 8);
        ib[2 * k + 1] = uint8_t(d.indices[k]);
      }
      writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                       kIndexAddress + uint32_t(i) * 0x1000, ib});
    }
  }

  Pm4Builder b;
  capture::D3dDeviceDefaults(b);

  const capture::ResolveSetup clear = SceneClear(scene.width, scene.height, scene.clear_rgba);
  capture::D3dResolve(b, rt, clear);

  capture::D3dSetViewport(b, 0, 0, float(scene.width), float(scene.height));
  capture::ShaderPair shaders{vs.microcode, ps.microcode, 2, 1, 1};
  capture::D3dSetShaders(b, shaders);
  for (size_t i = 0; i < scene.draws.size(); ++i) {
    const FlatDraw& d = scene.draws[i];
    const float color[4] = {d.rgba[0] / 255.0f, d.rgba[1] / 255.0f, d.rgba[2] / 255.0f,
                            d.rgba[3] / 255.0f};
    b.SetAluConstants(kPsConstantBase, color);
    capture::D3dSetVertexFetch(b, kStreamSlot, kVertexAddress + uint32_t(i) * 0x1000,
                               uint32_t(d.vertices.size() * 2));
    if (d.line_cntl != 0) b.WriteRegister(xenos::Reg::PA_SU_LINE_CNTL, d.line_cntl);
    if (d.mode_cntl != 0) b.WriteRegister(xenos::Reg::PA_SU_SC_MODE_CNTL, d.mode_cntl);
    if (d.point_size != 0) b.WriteRegister(xenos::Reg::PA_SU_POINT_SIZE, d.point_size);
    if (d.indices.empty()) {
      b.DrawIndx2Auto(d.primitive, uint32_t(d.vertices.size()));
    } else {
      b.DrawIndxDma(d.primitive, uint32_t(d.indices.size()), kIndexAddress + uint32_t(i) * 0x1000,
                    xenos::IndexFormat::kInt16, xenos::Endian::k8in16);
    }
  }

  PresentFrame(b, writer, rt, clear, kFrontBufferAddress, kRingAddress, scene.width, scene.height);
}

namespace {

struct Tri {
  Vec2 a, b, c;
};

std::vector<Tri> Triangles(const FlatDraw& d) {
  std::vector<Vec2> v;
  if (d.indices.empty()) {
    v = d.vertices;
  } else {
    for (uint16_t i : d.indices) {
      if (i >= d.vertices.size()) throw Error("flat scene index out of range");
      v.push_back(d.vertices[i]);
    }
  }
  std::vector<Tri> t;
  switch (d.primitive) {
    case xenos::PrimitiveType::kTriangleList:
      for (size_t i = 0; i + 2 < v.size(); i += 3) t.push_back({v[i], v[i + 1], v[i + 2]});
      break;
    case xenos::PrimitiveType::kTriangleStrip:
      for (size_t i = 0; i + 2 < v.size(); ++i) t.push_back({v[i], v[i + 1], v[i + 2]});
      break;
    case xenos::PrimitiveType::kTriangleFan:
      for (size_t i = 1; i + 1 < v.size(); ++i) t.push_back({v[0], v[i], v[i + 1]});
      break;
    case xenos::PrimitiveType::kQuadList:
      for (size_t i = 0; i + 3 < v.size(); i += 4) {
        t.push_back({v[i], v[i + 1], v[i + 2]});
        t.push_back({v[i], v[i + 2], v[i + 3]});
      }
      break;
    default:
      throw Error("flat scene: no CPU rasteriser for primitive type " +
                  std::to_string(uint32_t(d.primitive)));
  }
  return t;
}

double Edge(const Vec2& p, const Vec2& q, double x, double y) {
  return (double(q.x) - p.x) * (y - p.y) - (double(q.y) - p.y) * (x - p.x);
}

bool InTriangle(const Tri& t, double x, double y) {
  const double e0 = Edge(t.a, t.b, x, y), e1 = Edge(t.b, t.c, x, y), e2 = Edge(t.c, t.a, x, y);
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

}  // namespace

Image ExpectedFlatScene(const FlatScene& scene) {
  Image img;
  img.width = scene.width;
  img.height = scene.height;
  img.rgba.resize(size_t(scene.width) * scene.height * 4);
  for (size_t p = 0; p < size_t(scene.width) * scene.height; ++p) {
    std::copy(scene.clear_rgba.begin(), scene.clear_rgba.end(), img.rgba.begin() + 4 * p);
  }
  for (const FlatDraw& d : scene.draws) {
    const std::vector<Tri> tris = Triangles(d);
    for (uint32_t y = 0; y < scene.height; ++y) {
      for (uint32_t x = 0; x < scene.width; ++x) {
        // Both pixel-centre conventions must agree and no centre may sit on an edge.
        const int a = InsideUnion(tris, x + 0.5, y + 0.5, InTriangle);
        const int b = InsideUnion(tris, x, y, InTriangle);
        if (a < 0 || b < 0 || a != b) {
          throw Error("flat scene pixel (" + std::to_string(x) + ", " + std::to_string(y) +
                      ") depends on the rasterisation convention");
        }
        if (a) {
          std::copy(d.rgba.begin(), d.rgba.end(),
                    img.rgba.begin() + 4 * (size_t(y) * scene.width + x));
        }
      }
    }
  }
  return img;
}

}  // namespace xnt::samples
