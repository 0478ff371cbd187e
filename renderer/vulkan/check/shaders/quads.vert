#version 450
// translate --check, pixel shaders in 2x2 quads: triangles covering pixels of the grid whose
// vertices carry the quad's interpolant planes (value = a + b * dx + c * dy, dx and dy counted in
// pixels from the quad's top-left pixel centre), so the rasterizer interpolates them and the
// translated shader's derivatives come from real quads: helper pixels included. Each vertex is
// 17 vectors: the 16 interpolators, then its framebuffer position (x, y in pixels).
layout(std430, set = 3, binding = 0) readonly buffer Vertices { uvec4 words[]; } vertices;
layout(push_constant) uniform Grid { uint rows; } grid;
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  uint v = uint(gl_VertexIndex) * 17u;
  for (uint i = 0u; i < 16u; ++i) {
    xe_interpolators[i] = uintBitsToFloat(vertices.words[v + i]);
  }
  vec2 pixel = uintBitsToFloat(vertices.words[v + 16u].xy);
  gl_Position = vec4(pixel / vec2(64.0, float(grid.rows)) * 2.0 - 1.0, 0.25, 1.0);
}
