// Shader listings more than one scene draws with, in XDK listing syntax (assembled with xnt_ucode
// at authoring time). Scenes whose shaders are their own keep them beside the scene.
#pragma once

#include "listing_head.h"

namespace xnt::samples {

// Position passthrough: the vertex buffer holds clip-space float2; z = 0, w = 1. The vertex format
// and stride are spelled out (an XDK listing leaves them to the runtime's vertex declaration).
inline constexpr const char* kPositionVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=2
    alloc position
    exec
    mov oPos.xy01, r1.xy
    alloc interpolators
    exece
)";

// Position with z: the vertex buffer holds clip-space float3; w = 1.
inline constexpr const char* kPositionZVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=3
    alloc position
    exec
    mov oPos.xyz1, r1.xyz
    alloc interpolators
    exece
)";

// Position (float2) and texture coordinate (float2) per vertex, 4 dwords apart; the coordinate
// goes to interpolator 0 (r0 of the pixel shader).
inline constexpr const char* kPositionTexcoordVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xy__, r0.x, vf0, DataFormat=FMT_32_32_FLOAT, Stride=4
    vfetch_full r2.xy__, r0.x, vf0, Offset=2, DataFormat=FMT_32_32_FLOAT, Stride=4
)" XNT_SAMPLE_VS_EXPORT_R1XY_R2;

// Position from the first two floats, oPts.z from the third (the position's z is 0): bits 30:0
// non-zero kill the vertex (gpu/primitive_clip.h).
inline constexpr const char* kKillVertexShader = XNT_SAMPLE_VS_HEAD R"(    exec
    vfetch_full r1.xyz_, r0.x, vf0, DataFormat=FMT_32_32_32_FLOAT, Stride=3
    alloc position
    exec
    mov oPos.xy01, r1.xy
    mov oPts.__z_, r1.z
    alloc interpolators
    exece
)";

// Colour from pixel-shader constant c0 (ALU constant 256 with D3D's 256/256 partition).
inline constexpr const char* kConstantColorPixelShader = XNT_SAMPLE_PS_HEAD R"(    alloc colors
    exece
    mov oC0, c0
)";

}  // namespace xnt::samples
