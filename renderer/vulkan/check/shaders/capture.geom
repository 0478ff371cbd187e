#version 450
// translate --check, vertex shaders: the translated vertex shader's outputs of each vertex (one
// point per lane) stored as bits, 19 words of 4 per lane: gl_Position, o0..o15, the raw oPts
// export (TranslationOptions::vs_point_export_clip_distances: gl_ClipDistance[0..3]) and the
// vertex-kill cull distance (vs_vertex_kill = 1: -1 killed, 0 kept). maxGeometryInputComponents is 64 on lavapipe (and
// the minimum Vulkan asks): everything exceeds it, so the check draws twice, once with XE_HIGH
// unset (gl_Position, o0..o7, oPts, the cull distance) and once with it set (o8..o15).
// It emits nothing. The output is a line strip, not points: a points-output geometry shader must
// write PointSize on a device with shaderTessellationAndGeometryPointSize enabled (the renderer
// enables it for its point-quad shader) and must not on one without it.
layout(points) in;
layout(line_strip, max_vertices = 2) out;
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
  capture.words[lane * 19u] = floatBitsToUint(gl_in[0].gl_Position);
  // Constant indices: they size the built-in arrays as the vertex shader's gl_PerVertex has them.
  capture.words[lane * 19u + 17u] =
      floatBitsToUint(vec4(gl_in[0].gl_ClipDistance[0], gl_in[0].gl_ClipDistance[1],
                           gl_in[0].gl_ClipDistance[2], gl_in[0].gl_ClipDistance[3]));
  capture.words[lane * 19u + 18u] = uvec4(floatBitsToUint(gl_in[0].gl_CullDistance[0]), 0u, 0u, 0u);
#endif
  for (uint i = 0u; i < 8u; ++i) {
    capture.words[lane * 19u + 1u + kFirst + i] = floatBitsToUint(xe_interpolators[0][i]);
  }
}
