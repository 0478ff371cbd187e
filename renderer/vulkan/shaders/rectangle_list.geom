#version 450
// The fourth corner of a Xenos rectangle-list primitive (host_shaders.h
// RectangleListGeometryShader), compiled at build time by glslc once per count of passed
// interpolators: XE_PASSED (1..XE_TOTAL) are carried through, the rest of the XE_TOTAL
// interpolator locations are written as zero (renderer/vulkan/CMakeLists.txt).
// The guest sends three corners of a rectangle; the right-angle corner is the one opposite the
// longest (screen-space) edge, and the missing corner is the other two minus it.
layout(triangles) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in vec4 xe_in[][XE_PASSED];
layout(location = 0) out vec4 xe_interpolators[XE_TOTAL];

void EmitCorner(int i) {
  gl_Position = gl_in[i].gl_Position;
  for (int k = 0; k < XE_PASSED; ++k) xe_interpolators[k] = xe_in[i][k];
  for (int k = XE_PASSED; k < XE_TOTAL; ++k) xe_interpolators[k] = vec4(0.0);
  EmitVertex();
}

void main() {
  // Screen-space edge lengths; the longest edge is the diagonal.
  vec2 p0 = gl_in[0].gl_Position.xy / gl_in[0].gl_Position.w;
  vec2 p1 = gl_in[1].gl_Position.xy / gl_in[1].gl_Position.w;
  vec2 p2 = gl_in[2].gl_Position.xy / gl_in[2].gl_Position.w;
  float d01 = dot(p1 - p0, p1 - p0);
  float d12 = dot(p2 - p1, p2 - p1);
  float d20 = dot(p0 - p2, p0 - p2);
  // c = right-angle corner; (a, b) keep the guest's cyclic order so the winding is preserved.
  int c = 0, a = 1, b = 2;
  if (d20 > d12 && d20 >= d01) { c = 1; a = 2; b = 0; }
  else if (d01 > d12 && d01 > d20) { c = 2; a = 0; b = 1; }
  // Strip c, a, b, d: triangles (c, a, b) and (a, d, b), both with the guest winding.
  EmitCorner(c);
  EmitCorner(a);
  EmitCorner(b);
  gl_Position = gl_in[a].gl_Position + gl_in[b].gl_Position - gl_in[c].gl_Position;
  for (int k = 0; k < XE_PASSED; ++k) {
    xe_interpolators[k] = xe_in[a][k] + xe_in[b][k] - xe_in[c][k];
  }
  for (int k = XE_PASSED; k < XE_TOTAL; ++k) xe_interpolators[k] = vec4(0.0);
  EmitVertex();
  EndPrimitive();
}
