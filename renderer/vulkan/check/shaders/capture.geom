#version 450
// translate --check, vertex shaders: the translated vertex shader's outputs of each vertex (one
// point per lane) stored as bits: gl_Position, then o0..o15. Emits nothing (rasterizer discard).
// maxGeometryInputComponents is 64 on lavapipe (and the minimum Vulkan asks): gl_Position plus
// 16 vec4 exceed it, so the check draws twice, once with XE_HIGH unset (gl_Position, o0..o7)
// and once with it set (o8..o15).
layout(points) in;
layout(points, max_vertices = 1) out;
#ifdef XE_HIGH
const uint kFirst = 8u;
layout(location = 8) in vec4 xe_interpolators[][8];
#else
const uint kFirst = 0u;
layout(location = 0) in vec4 xe_interpolators[][8];
#endif
layout(std430, set = 3, binding = 1) writeonly buffer Capture { uvec4 words[]; } capture;
void main() {
  uint lane = uint(gl_PrimitiveIDIn);
#ifndef XE_HIGH
  capture.words[lane * 17u] = floatBitsToUint(gl_in[0].gl_Position);
#endif
  for (uint i = 0u; i < 8u; ++i) {
    capture.words[lane * 17u + 1u + kFirst + i] = floatBitsToUint(xe_interpolators[0][i]);
  }
}
