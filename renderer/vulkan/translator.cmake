# The shader translator (Xenos microcode -> GLSL -> SPIR-V), attached to xnt_renderer_vulkan.
# Owned by the translator engineer; included from renderer/vulkan/CMakeLists.txt.

# libshaderc: Debian 12's libshaderc.so.1 leaves its glslang symbols undefined (there is no shared
# glslang to satisfy them), so executables linking it fail to link, and mixing it with static
# glslang crashes. Link the static shaderc_combined + glslang + SPIRV-Tools stack instead, by
# pointing PkgConfig::SHADERC (used by renderer/vulkan/CMakeLists.txt) at it.
set(_xnt_shaderc_static_names
  shaderc_combined glslang SPIRV MachineIndependent GenericCodeGen OSDependent OGLCompiler
  glslang-default-resource-limits SPIRV-Tools-opt SPIRV-Tools)
set(_xnt_shaderc_static_libs "")
foreach(_name ${_xnt_shaderc_static_names})
  find_library(XNT_STATIC_${_name} NAMES lib${_name}.a)
  if(XNT_STATIC_${_name})
    list(APPEND _xnt_shaderc_static_libs ${XNT_STATIC_${_name}})
  endif()
endforeach()
list(LENGTH _xnt_shaderc_static_libs _xnt_found)
list(LENGTH _xnt_shaderc_static_names _xnt_wanted)
if(_xnt_found EQUAL _xnt_wanted AND TARGET PkgConfig::SHADERC)
  set_property(TARGET PkgConfig::SHADERC PROPERTY INTERFACE_LINK_LIBRARIES
               ${_xnt_shaderc_static_libs} Threads::Threads)
endif()

target_sources(xnt_renderer_vulkan PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/shader_compiler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/glsl_prelude.cpp)
# shaderc also provides the SPIRV-Tools C API used for disassembly and validation.
target_link_libraries(xnt_renderer_vulkan PRIVATE PkgConfig::SHADERC)
# The translator proper needs the decoded microcode model.
if(TARGET xnt_ucode)
  target_sources(xnt_renderer_vulkan PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/src/glsl_emitter.cpp
    ${CMAKE_CURRENT_LIST_DIR}/src/shader_translator.cpp)
  target_link_libraries(xnt_renderer_vulkan PUBLIC xnt_ucode)
endif()
