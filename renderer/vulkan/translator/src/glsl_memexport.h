// GLSL functions for memexport (eA/eM#): packing, Endian128 and the guest-memory stores
// (glsl_memexport.cpp). Appended to the prelude only for shaders that export, whose shared-memory
// binding is then declared writable.
#pragma once

namespace xnt::vk {

const char* GlslMemExportHelpers();

}  // namespace xnt::vk
