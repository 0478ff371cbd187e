# Third-party dependencies, all from Debian 12 packages (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
# nlohmann-json (header-only): every JSON written (base/json.h) and compare's results.json read back.
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
# libspng: every PNG written (8- and 16-bit, its row filter and deflate level chosen per use),
# deflate-compressed through zlib.
pkg_check_modules(SPNG REQUIRED IMPORTED_TARGET spng)
# toml++ (header-only): compare --expectations files.
pkg_check_modules(TOMLPLUSPLUS REQUIRED IMPORTED_TARGET tomlplusplus)
# Debian ships FlatBuffersConfig.cmake (capitalised), which the default name does not find.
find_package(flatbuffers CONFIG REQUIRED NAMES flatbuffers FlatBuffers)
find_program(FLATC flatc REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(Snappy CONFIG REQUIRED)
find_path(STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb REQUIRED)
if(XNT_TESTS)
  find_package(GTest REQUIRED)
endif()
if(XNT_VULKAN)
  find_package(Vulkan REQUIRED)
  pkg_check_modules(SHADERC REQUIRED IMPORTED_TARGET shaderc)
endif()

# The stb_image implementation (PNG reading) is compiled once, in xnt_stb.
add_library(xnt_stb STATIC ${CMAKE_SOURCE_DIR}/cmake/stb_impl.c)
target_include_directories(xnt_stb SYSTEM PUBLIC ${STB_INCLUDE_DIR})
set_target_properties(xnt_stb PROPERTIES POSITION_INDEPENDENT_CODE ON)
