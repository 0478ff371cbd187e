#version 450
// translate --check, pixel shaders: one point per lane at the centre of pixel (lane % 64,
// lane / 64), carrying the lane's 16 interpolators. A point's attributes are the vertex's (no
// interpolation across it) and every pixel of its 2x2 quad sees the same values, so the
// translated pixel shader reads the lane's inputs exactly and its derivatives are zero.
layout(std430, set = 3, binding = 0) readonly buffer Lanes { uvec4 words[]; } lanes;
layout(push_constant) uniform Grid { uint rows; } grid;
layout(location = 0) out vec4 xe_interpolators[16];
void main() {
  uint lane = uint(gl_VertexIndex);
  for (uint i = 0u; i < 16u; ++i) {
    xe_interpolators[i] = uintBitsToFloat(lanes.words[lane * 16u + i]);
  }
  vec2 pixel = vec2(float(lane % 64u), float(lane / 64u)) + 0.5;
  gl_Position = vec4(pixel / vec2(64.0, float(grid.rows)) * 2.0 - 1.0, 0.25, 1.0);
  gl_PointSize = 1.0;
}
