// Rasterizer samples: lines (list, strip, loop; 1 pixel and wide), textured point
// sprites with mips, and polygon offset, each with an
// expected image worked out from the scene parameters (raster_scenes.cpp says how).
#pragma once

#include <vector>

#include "xnt/samples/samples.h"

namespace xnt::samples {

std::vector<Sample> RasterSamples();
// raster_point_sprite_mips (raster_point_scenes.cpp).
std::vector<Sample> RasterPointSamples();
// raster_point_size_nonsquare (raster_point_size_scenes.cpp).
std::vector<Sample> RasterPointSizeSamples();
// The vertex index offset and clamp (vertex_index_scenes.cpp).
std::vector<Sample> VertexIndexSamples();
// User clip planes and vertex kill (clip_scenes.cpp).
std::vector<Sample> ClipSamples();
// User clip planes and vertex kill on point sprites (clip_point_scenes.cpp).
std::vector<Sample> ClipPointSamples();
std::vector<Sample> ClipRectangleSamples();
// Vertex fetches in a pixel shader (pixel_vertex_fetch_scene.cpp).
std::vector<Sample> PixelVertexFetchSamples();

}  // namespace xnt::samples
