#include "shader_scenes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "flat_scene.h"
#include "present_frame.h"
#include "sample_entry.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"

namespace xnt::samples {

namespace {

using capture::Pm4Builder;
using ucode::Float4;

constexpr uint32_t kSceneVertexAddress = 0x00100000;  // vertex buffers, 4 KiB apart per draw
constexpr uint32_t kSceneIndexAddress = 0x00140000;   // index buffers, 4 KiB apart per draw
constexpr uint32_t kPsConstantBase = 256;              // D3D's 256/256 partition
constexpr uint32_t kSceneTextureAddress = 0x00180000;  // textures, 4 KiB apart per texture

void CheckTexture(const SceneTexture& t, size_t i) {
  if (t.width == 0 || t.height == 0 || t.width > 32 || t.height > 32 || t.slot >= 32 ||
      t.texels.size() != size_t(t.width) * t.height) {
    throw Error("shader scene texture " + std::to_string(i) +
                " must be 1..32 x 1..32 texels in a slot below 32");
  }
}

std::array<uint32_t, 6> SceneTextureFetch(const SceneTexture& t, size_t i) {
  return capture::TextureFetch2D(kSceneTextureAddress + uint32_t(i) * 0x1000, t.width, t.height,
                                 xenos::TextureFormat::k_8_8_8_8, false, xenos::Endian::k8in32);
}

void CheckDraw(const ShaderDraw& d, size_t i) {
  if (d.vertex_words.size() * 4 > 4096 || d.indices.size() * 2 > 4096 ||
      d.indices32.size() * 4 > 4096) {
    throw Error("shader scene draw " + std::to_string(i) + " exceeds its 4 KiB buffers");
  }
  if (d.indices.empty() && d.indices32.empty() && d.vertex_count == 0) {
    throw Error("shader scene draw " + std::to_string(i) + " has no vertices");
  }
}

}  // namespace

uint32_t FloatBits(float f) { return std::bit_cast<uint32_t>(f); }
float ClipX(float x, uint32_t width) { return x / (float(width) / 2) - 1.0f; }
float ClipY(float y, uint32_t height) { return 1.0f - y / (float(height) / 2); }

void AuthorShaderScene(const ShaderScene& scene, format::Writer& writer) {
  capture::RenderTargetSetup rt;
  rt.surface_pitch = scene.width;
  rt.color_base_tiles = 0;

  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveVertexAddress,
                                   capture::ResolveRectangleVertices(scene.width, scene.height)});
  for (size_t i = 0; i < scene.draws.size(); ++i) {
    const ShaderDraw& d = scene.draws[i];
    CheckDraw(d, i);
    std::vector<uint8_t> vb(d.vertex_words.size() * 4);
    for (size_t k = 0; k < d.vertex_words.size(); ++k) StoreBE32(&vb[4 * k], d.vertex_words[k]);
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                     kSceneVertexAddress + uint32_t(i) * 0x1000, vb});
    if (!d.indices.empty()) {
      std::vector<uint8_t> ib(d.indices.size() * 2);
      for (size_t k = 0; k < d.indices.size(); ++k) {
        ib[2 * k] = uint8_t(d.indices[k] >> 8);
        ib[2 * k + 1] = uint8_t(d.indices[k]);
      }
      writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                       kSceneIndexAddress + uint32_t(i) * 0x1000, ib});
    } else if (!d.indices32.empty()) {
      std::vector<uint8_t> ib(d.indices32.size() * 4);
      for (size_t k = 0; k < d.indices32.size(); ++k) StoreBE32(&ib[4 * k], d.indices32[k]);
      writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                       kSceneIndexAddress + uint32_t(i) * 0x1000, ib});
    }
  }

  for (size_t i = 0; i < scene.textures.size(); ++i) {
    const SceneTexture& t = scene.textures[i];
    CheckTexture(t, i);
    // Linear, big-endian texels (fetched with k8in32); rows 256 bytes apart (a linear texture's
    // row pitch is aligned to 256 bytes: renderer/gpu/src/texture_address.cpp).
    std::vector<uint8_t> bytes(size_t(t.height) * 256);
    for (uint32_t y = 0; y < t.height; ++y) {
      for (uint32_t x = 0; x < t.width; ++x) {
        StoreBE32(&bytes[size_t(y) * 256 + size_t(x) * 4], t.texels[size_t(y) * t.width + x]);
      }
    }
    writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead,
                                     kSceneTextureAddress + uint32_t(i) * 0x1000, bytes});
  }

  Pm4Builder b;
  capture::D3dDeviceDefaults(b);
  const capture::ResolveSetup clear = SceneClear(scene.width, scene.height, scene.clear_rgba);
  capture::D3dResolve(b, rt, clear);

  capture::D3dSetViewport(b, 0, 0, float(scene.width), float(scene.height));
  capture::ShaderPair shaders{scene.vs_microcode, scene.ps_microcode, scene.vs_registers,
                              scene.ps_registers, scene.vs_exports};
  capture::D3dSetShaders(b, shaders);
  // After the clear: the resolve's vertex fetch constant 0 overlaps texture fetch constant 0.
  for (size_t i = 0; i < scene.textures.size(); ++i) {
    b.SetFetchConstant(scene.textures[i].slot * 6, SceneTextureFetch(scene.textures[i], i));
  }
  for (size_t i = 0; i < scene.draws.size(); ++i) {
    const ShaderDraw& d = scene.draws[i];
    for (const auto& [index, v] : d.vs_constants) b.SetAluConstants(index, v);
    for (const auto& [index, v] : d.ps_constants) b.SetAluConstants(kPsConstantBase + index, v);
    if (d.bool_constants) b.SetConstant(xenos::ConstantType::kBool, 0, *d.bool_constants);
    for (const auto& [reg, value] : d.register_writes) b.WriteRegister(reg, value);
    for (const auto& [index, v] : d.loop_constants) {
      const uint32_t value[1] = {v};
      b.SetConstant(xenos::ConstantType::kLoop, index, value);
    }
    capture::D3dSetVertexFetch(b, scene.vertex_fetch_slot,
                               kSceneVertexAddress + uint32_t(i) * 0x1000,
                               uint32_t(d.vertex_words.size()));
    if (!d.indices32.empty()) {
      b.DrawIndxDma(d.primitive, uint32_t(d.indices32.size()),
                    kSceneIndexAddress + uint32_t(i) * 0x1000, xenos::IndexFormat::kInt32,
                    xenos::Endian::k8in32);
    } else if (d.explicit_major_mode) {
      // DRAW_INDX by hand: the builder's initiator is in the implicit major mode (bits 9:8).
      const uint32_t count = uint32_t(d.indices.size());
      b.Type3(xenos::Opcode::kDrawIndx,
              {0u,
               Pm4Builder::DrawInitiator(d.primitive, xenos::SourceSelect::kDma, count) |
                   (uint32_t(xenos::MajorMode::kExplicit) << 8),
               kSceneIndexAddress + uint32_t(i) * 0x1000,
               count | (uint32_t(xenos::Endian::k8in16) << 30)});
    } else if (d.indices.empty()) {
      b.DrawIndx2Auto(d.primitive, d.vertex_count);
    } else {
      b.DrawIndxDma(d.primitive, uint32_t(d.indices.size()),
                    kSceneIndexAddress + uint32_t(i) * 0x1000, xenos::IndexFormat::kInt16,
                    xenos::Endian::k8in16);
    }
  }

  PresentFrame(b, writer, rt, clear, kFrontBufferAddress, kRingAddress, scene.width, scene.height);
}

// ---- Expected image -------------------------------------------------------------------------------

namespace {

struct Vertex {
  double x = 0, y = 0;  // screen pixels, y down
  std::array<Float4, 16> interpolators{};
};

struct Tri {
  Vertex v[3];
};

double Edge(const Vertex& p, const Vertex& q, double x, double y) {
  return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x);
}

bool InTri(const Tri& t, double x, double y) {
  const double e0 = Edge(t.v[0], t.v[1], x, y), e1 = Edge(t.v[1], t.v[2], x, y),
               e2 = Edge(t.v[2], t.v[0], x, y);
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

// Whether any probe around (x, y) is inside `t` (the triangle may own the pixel).
bool Touches(const Tri& t, double x, double y) {
  constexpr double m = 1.0 / 64;
  for (double dx : {-m, 0.0, m}) {
    for (double dy : {-m, 0.0, m}) {
      if (InTri(t, x + dx, y + dy)) return true;
    }
  }
  return false;
}

// Linear (screen-space) interpolation; w is 1 everywhere in these scenes, so it equals the
// perspective-correct one.
std::array<Float4, 16> Interpolate(const Tri& t, double x, double y) {
  const double area = Edge(t.v[0], t.v[1], t.v[2].x, t.v[2].y);
  std::array<Float4, 16> out{};
  if (area == 0) return t.v[0].interpolators;
  const double l1 = Edge(t.v[2], t.v[0], x, y) / area;  // weight of v1
  const double l2 = Edge(t.v[0], t.v[1], x, y) / area;  // weight of v2
  for (size_t i = 0; i < 16; ++i) {
    for (size_t c = 0; c < 4; ++c) {
      const double a0 = t.v[0].interpolators[i][c], a1 = t.v[1].interpolators[i][c],
                   a2 = t.v[2].interpolators[i][c];
      out[i][c] = float(a0 + l1 * (a1 - a0) + l2 * (a2 - a0));
    }
  }
  return out;
}

std::vector<Tri> Assemble(xenos::PrimitiveType primitive, const std::vector<Vertex>& v) {
  std::vector<Tri> t;
  switch (primitive) {
    case xenos::PrimitiveType::kTriangleList:
      for (size_t i = 0; i + 2 < v.size(); i += 3) t.push_back({{v[i], v[i + 1], v[i + 2]}});
      break;
    case xenos::PrimitiveType::kTriangleStrip:
      for (size_t i = 0; i + 2 < v.size(); ++i) t.push_back({{v[i], v[i + 1], v[i + 2]}});
      break;
    case xenos::PrimitiveType::kTriangleFan:
      for (size_t i = 1; i + 1 < v.size(); ++i) t.push_back({{v[0], v[i], v[i + 1]}});
      break;
    case xenos::PrimitiveType::kQuadList:
      for (size_t i = 0; i + 3 < v.size(); i += 4) {
        t.push_back({{v[i], v[i + 1], v[i + 2]}});
        t.push_back({{v[i], v[i + 2], v[i + 3]}});
      }
      break;
    case xenos::PrimitiveType::kRectangleList:
      // Three corners per rectangle; the fourth is a + b - c where c is the right-angle corner
      // (opposite the longest edge), attributes likewise (Xenia's rectangle-list expansion;
      // renderer/vulkan/src/host_shaders.cpp does the same on the GPU).
      for (size_t i = 0; i + 2 < v.size(); i += 3) {
        const Vertex* p[3] = {&v[i], &v[i + 1], &v[i + 2]};
        auto d2 = [](const Vertex& a, const Vertex& b) {
          return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
        };
        const double d01 = d2(*p[0], *p[1]), d12 = d2(*p[1], *p[2]), d20 = d2(*p[2], *p[0]);
        int c = 0, a = 1, bb = 2;
        if (d20 > d12 && d20 >= d01) {
          c = 1, a = 2, bb = 0;
        } else if (d01 > d12 && d01 > d20) {
          c = 2, a = 0, bb = 1;
        }
        Vertex d;
        d.x = p[a]->x + p[bb]->x - p[c]->x;
        d.y = p[a]->y + p[bb]->y - p[c]->y;
        for (size_t k = 0; k < 16; ++k) {
          for (size_t ch = 0; ch < 4; ++ch) {
            d.interpolators[k][ch] = p[a]->interpolators[k][ch] + p[bb]->interpolators[k][ch] -
                                     p[c]->interpolators[k][ch];
          }
        }
        t.push_back({{*p[c], *p[a], *p[bb]}});
        t.push_back({{*p[a], d, *p[bb]}});
      }
      break;
    default:
      throw Error("shader scene: no CPU rasteriser for primitive type " +
                  std::to_string(uint32_t(primitive)));
  }
  return t;
}

// One pixel's 8-bit colour from the pixel shader, or nullopt when it kills the pixel.
std::optional<std::array<uint8_t, 4>> Shade(const ucode::Interpreter& ps,
                                            const ucode::InterpreterConstants& k,
                                            const ucode::InterpreterCallbacks& cb,
                                            const std::array<Float4, 16>& in, uint32_t count,
                                            uint32_t px, uint32_t py) {
  ucode::ShaderInputs inputs;
  inputs.interpolators = in;
  inputs.interpolator_count = count;
  const ucode::ShaderResult r = ps.Run(k, inputs, cb);
  if (r.step_limit_hit) throw Error("shader scene: pixel shader ran away");
  if (r.killed) return std::nullopt;
  std::array<uint8_t, 4> out{};
  for (size_t c = 0; c < 4; ++c) {
    float v = r.colors[0][c];
    v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;  // NaN -> 0
    const double t = double(v) * 255.0;
    const double frac = t - std::floor(t);
    if (std::fabs(frac - 0.5) < 0.02) {
      throw Error("shader scene pixel (" + std::to_string(px) + ", " + std::to_string(py) +
                  ") channel " + std::to_string(c) + " = " + std::to_string(t) +
                  "/255 is too close to a rounding tie");
    }
    out[c] = uint8_t(std::lround(t));
  }
  return out;
}

}  // namespace

Image ExpectedShaderScene(const ShaderScene& scene) {
  const ucode::Shader vs = ucode::Decode(scene.vs_microcode, ucode::ShaderType::kVertex);
  const ucode::Shader ps = ucode::Decode(scene.ps_microcode, ucode::ShaderType::kPixel);
  const ucode::Interpreter vs_run(vs), ps_run(ps);
  ucode::InterpreterConstants vk, pk;
  Image img;
  img.width = scene.width;
  img.height = scene.height;
  img.rgba.resize(size_t(scene.width) * scene.height * 4);
  for (size_t p = 0; p < size_t(scene.width) * scene.height; ++p) {
    std::copy(scene.clear_rgba.begin(), scene.clear_rgba.end(), img.rgba.begin() + 4 * p);
  }
  const uint32_t interpolators = std::min<uint32_t>(scene.vs_exports, 16);
  // Textures: the fetch constants (for the swizzle the interpreter applies) and point sampling.
  ucode::InterpreterCallbacks ps_cb;
  for (size_t i = 0; i < scene.textures.size(); ++i) {
    CheckTexture(scene.textures[i], i);
    const auto fetch = SceneTextureFetch(scene.textures[i], i);
    for (uint32_t d = 0; d < 6; ++d) pk.fetch_constants[scene.textures[i].slot * 6 + d] = fetch[d];
  }
  ps_cb.texture_fetch = [&scene](uint32_t slot, const Float4& coords,
                                 const ucode::FetchInstruction& f) -> Float4 {
    const SceneTexture* t = nullptr;
    for (const SceneTexture& c : scene.textures) {
      if (c.slot == slot) t = &c;
    }
    if (!t) return {0.0f, 0.0f, 0.0f, 0.0f};
    if (f.tx_coord_denorm || f.offset_x || f.offset_y) {
      throw Error("shader scene: only normalised, unoffset texture coordinates are modelled");
    }
    auto texel = [](float c, uint32_t size) {
      const double v = std::floor(double(c) * size);
      return uint32_t(std::clamp(v, 0.0, double(size - 1)));
    };
    const uint32_t v = t->texels[size_t(texel(coords[1], t->height)) * t->width +
                                 texel(coords[0], t->width)];
    return {float(v & 0xFF) / 255.0f, float((v >> 8) & 0xFF) / 255.0f,
            float((v >> 16) & 0xFF) / 255.0f, float(v >> 24) / 255.0f};
  };
  for (size_t di = 0; di < scene.draws.size(); ++di) {
    const ShaderDraw& d = scene.draws[di];
    CheckDraw(d, di);
    for (const auto& [index, v] : d.vs_constants) vk.float_constants.at(index) = v;
    for (const auto& [index, v] : d.ps_constants) pk.float_constants.at(index) = v;
    if (d.bool_constants) vk.bool_constants = pk.bool_constants = *d.bool_constants;
    for (const auto& [index, v] : d.loop_constants) {
      vk.loop_constants.at(index) = pk.loop_constants.at(index) = v;
    }
    // The vertex fetch constant as D3dSetVertexFetch writes it: base dwords | type 3, k8in32.
    const uint32_t base = kSceneVertexAddress + uint32_t(di) * 0x1000;
    vk.fetch_constants.at(scene.vertex_fetch_slot * 2) = base | 3u;
    vk.fetch_constants.at(scene.vertex_fetch_slot * 2 + 1) =
        2u | (uint32_t(d.vertex_words.size()) << 2);
    ucode::InterpreterCallbacks cb;
    cb.read_memory = [&](uint32_t address, uint32_t& word) {
      if (address < base || (address - base) / 4 >= d.vertex_words.size()) return false;
      // Big-endian bytes loaded as a little-endian dword: the byte-swapped host word.
      word = __builtin_bswap32(d.vertex_words[(address - base) / 4]);
      return true;
    };
    std::vector<uint32_t> order;
    if (d.indices.empty()) {
      for (uint32_t i = 0; i < d.vertex_count; ++i) order.push_back(i);
    } else {
      order.assign(d.indices.begin(), d.indices.end());
    }
    std::vector<Vertex> verts;
    for (uint32_t index : order) {
      ucode::ShaderInputs in;
      in.vertex_index = float(index);
      const ucode::ShaderResult r = vs_run.Run(vk, in, cb);
      if (r.step_limit_hit) throw Error("shader scene: vertex shader ran away");
      if (r.position[3] != 1.0f) {
        throw Error("shader scene draw " + std::to_string(di) + ": vertex " +
                    std::to_string(index) + " has w != 1 (the CPU rasteriser needs w = 1)");
      }
      Vertex v;
      // D3dSetViewport: x * w/2 + w/2, y * -h/2 + h/2 (PA_CL_VTE_CNTL 0x43F, w = 1).
      v.x = double(r.position[0] * (float(scene.width) / 2) + float(scene.width) / 2);
      v.y = double(r.position[1] * -(float(scene.height) / 2) + float(scene.height) / 2);
      v.interpolators = r.interpolators;
      verts.push_back(v);
    }
    const std::vector<Tri> tris = Assemble(d.primitive, verts);
    for (uint32_t y = 0; y < scene.height; ++y) {
      for (uint32_t x = 0; x < scene.width; ++x) {
        const int a = InsideUnion(tris, x + 0.5, y + 0.5, InTri);
        const int b = InsideUnion(tris, x, y, InTri);
        auto where = [&] {
          return "shader scene draw " + std::to_string(di) + " pixel (" + std::to_string(x) +
                 ", " + std::to_string(y) + ")";
        };
        if (a < 0 || b < 0 || a != b) throw Error(where() + " depends on the rasterisation convention");
        if (!a) continue;
        std::optional<std::optional<std::array<uint8_t, 4>>> value;
        for (const Tri& t : tris) {
          for (const auto& [sx, sy] : {std::pair{x + 0.5, y + 0.5}, std::pair{double(x), double(y)}}) {
            if (!Touches(t, sx, sy)) continue;
            auto c = Shade(ps_run, pk, ps_cb, Interpolate(t, sx, sy), interpolators, x, y);
            if (!value) {
              value = c;
            } else if (*value != c) {
              throw Error(where() + " differs between triangles or centre conventions");
            }
          }
        }
        if (value && *value) {
          std::copy((**value).begin(), (**value).end(),
                    img.rgba.begin() + 4 * (size_t(y) * scene.width + x));
        }
      }
    }
  }
  return img;
}

Sample ShaderSceneSample(std::string name, std::string description, std::string expected,
                         ShaderScene scene) {
  return DescribedSample(
      std::move(name), std::move(description), std::move(expected),
      [scene](format::Writer& w) { AuthorShaderScene(scene, w); }, [scene] { return ExpectedShaderScene(scene); });
}

}  // namespace xnt::samples
