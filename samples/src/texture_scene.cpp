#include "texture_scene.h"

#include <bit>
#include <string>

#include "guest_bytes.h"
#include "listing_head.h"
#include "present_frame.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/ucode/assembler.h"

namespace xnt::samples {

// Position (float2) and texture coordinate (float3) per vertex, stride 5 dwords.
const char* const kTexturedVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=5
    vfetch_full r2.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=5, Offset=2
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

std::string TexturedPixelShader(TexturedQuadFetch op) {
  const char* fetch =
      op == TexturedQuadFetch::k1D    ? "tfetch1D r1, r0.x, tf0"
      : op == TexturedQuadFetch::k2D  ? "tfetch2D r1, r0.xy, tf0"
      : op == TexturedQuadFetch::k3D  ? "tfetch3D r1, r0.xyz, tf0"
      : op == TexturedQuadFetch::kCube ? "tfetchCube r1, r0.xyz, tf0"
                                       : "setTexLOD r0.z, tf0\n    tfetch2D r1, r0.xy, tf0, UseRegisterLOD=true";
  return std::string(XNT_SAMPLE_PS_HEAD R"(    exec
    )") + fetch + R"(
    alloc colors
    exece
    mov oC0, r1
)";
}

namespace {

using capture::Pm4Builder;

constexpr uint32_t kStreamSlot = 95;  // vf0

}  // namespace

void AuthorTexturedScene(const TexturedScene& scene, format::Writer& writer) {
  if (scene.quads.size() > 256) throw Error("textured scene: more than 256 quads");
  const auto vs = ucode::AssembleShader(kTexturedVertexShader);
  ucode::AssembledShader ps[kTexturedQuadFetchKinds];
  for (uint32_t i = 0; i < kTexturedQuadFetchKinds; ++i) {
    ps[i] = ucode::AssembleShader(TexturedPixelShader(TexturedQuadFetch(i)));
  }

  capture::RenderTargetSetup rt;
  rt.surface_pitch = scene.width;
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kTexturedResolveVertexAddress,
                                   capture::ResolveRectangleVertices(scene.width, scene.height)});
  for (const auto& [address, bytes] : scene.memory) {
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, address, bytes});
  }
  for (size_t i = 0; i < scene.quads.size(); ++i) {
    const TexturedQuad& q = scene.quads[i];
    // Edges at pixel x - edge_inset (k + 0.75 by default), texture coordinates 0..1 across them.
    const float inset = scene.edge_inset;
    const float x0 = float(q.x) - inset, x1 = float(q.x + q.width) - inset;
    const float y0 = float(q.y) - inset, y1 = float(q.y + q.height) - inset;
    const float tw = float(q.texture_width ? q.texture_width : q.width);
    const float th = float(q.texture_height ? q.texture_height : q.height);
    const float u1 = q.unnormalized ? float(q.width) : float(q.width) / tw;
    const float v1 = q.unnormalized ? float(q.height) : float(q.height) / th;
    // Cube faces take s, t in [1, 2] (see xe_cube_direction in glsl_prelude.cpp).
    const float base = q.op == TexturedQuadFetch::kCube ? 1.0f : 0.0f;
    std::vector<float> v;
    const float corners[4][4] = {{x0, y0, 0, 0}, {x1, y0, u1, 0}, {x0, y1, 0, v1}, {x1, y1, u1, v1}};
    for (const auto& c : corners) {
      v.push_back(c[0] / (float(scene.width) / 2) - 1.0f);
      v.push_back(1.0f - c[1] / (float(scene.height) / 2));
      v.push_back(q.fixed_coord ? q.coord[0] : base + c[2]);
      v.push_back(q.fixed_coord ? q.coord[1] : base + c[3]);
      v.push_back(q.fixed_coord ? q.coord[2] : q.z);
    }
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                     kTexturedVertexAddress + uint32_t(i) * 0x1000,
                                     BigEndianFloats(v)});
  }

  Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  const capture::ResolveSetup clear{.width = (scene.width + 7) & ~7u,
                                    .height = (scene.height + 7) & ~7u,
                                    .dest_address = kTexturedScratchAddress,
                                    .dest_pitch = (scene.width + 31) & ~31u,
                                    .dest_height = scene.height, .clear_color = true,
                                    .clear_color_value = PackRgba(scene.clear_rgba),
                                    .vertex_address = kTexturedResolveVertexAddress};
  capture::D3dResolve(b, rt, clear);
  capture::D3dSetViewport(b, 0, 0, float(scene.width), float(scene.height));
  int current = -1;
  std::vector<ucode::AssembledShader> custom;
  for (size_t i = 0; i < scene.quads.size(); ++i) {
    const TexturedQuad& q = scene.quads[i];
    if (!q.pixel_shader.empty() || !q.vertex_shader.empty()) {
      custom.push_back(ucode::AssembleShader(q.vertex_shader.empty() ? kTexturedVertexShader
                                                                      : q.vertex_shader.c_str()));
      custom.push_back(ucode::AssembleShader(
          q.pixel_shader.empty() ? TexturedPixelShader(q.op) : q.pixel_shader));
      capture::D3dSetShaders(b, {custom[custom.size() - 2].microcode, custom.back().microcode, 8,
                                 8, 1});
      current = -1;
    } else if (int(q.op) != current) {
      current = int(q.op);
      capture::D3dSetShaders(b, {vs.microcode, ps[current].microcode, 3, 2, 1});
    }
    if (!q.ps_constants.empty()) b.SetAluConstants(256, q.ps_constants);
    b.SetFetchConstant(0, q.fetch);
    capture::D3dSetVertexFetch(b, kStreamSlot, kTexturedVertexAddress + uint32_t(i) * 0x1000, 20);
    b.DrawIndx2Auto(xenos::PrimitiveType::kTriangleStrip, 4);
  }
  PresentFrame(b, writer, rt, clear, kTexturedFrontBufferAddress, kTexturedRingAddress, scene.width,
               scene.height);
}

}  // namespace xnt::samples
