# Included from tests/CMakeLists.txt (normal builds, XNT_TESTS=ON): every fuzz target's
# LLVMFuzzerTestOneInput compiled with the normal compiler beside tests/fuzz/seed_driver.cpp as
# `seeds_<name>`, and a ctest `fuzz_seeds.<name>` feeding each committed seed of
# tests/fuzz/corpus/<name>/ once. Regression inputs thus run in every build, XNT_SKIP_FUZZ=1 and
# sanitizer builds included. ctest -L fuzz_seeds runs only these.
set(_fuzz_dir ${CMAKE_CURRENT_LIST_DIR})
file(GLOB _fuzz_sources CONFIGURE_DEPENDS ${_fuzz_dir}/fuzz_*.cpp)

# The reader seeds also run through a copy of xnt_format built as the fuzz build builds it
# (XNT_FUZZING_SKIP_CHECKSUMS: checksums not enforced), which is the path the fuzzer found them
# on; the release reader (checksums enforced) runs them as well.
get_target_property(_fmt_dir xnt_format SOURCE_DIR)
get_target_property(_fmt_sources xnt_format SOURCES)
set(_fmt_abs)
foreach(s ${_fmt_sources})
  if(IS_ABSOLUTE ${s})
    list(APPEND _fmt_abs ${s})
  else()
    list(APPEND _fmt_abs ${_fmt_dir}/${s})
  endif()
endforeach()
add_library(xnt_format_fuzzing_checks STATIC EXCLUDE_FROM_ALL ${_fmt_abs})
add_dependencies(xnt_format_fuzzing_checks xnt_format_schema)
target_include_directories(xnt_format_fuzzing_checks
  PUBLIC $<TARGET_PROPERTY:xnt_format,INTERFACE_INCLUDE_DIRECTORIES>)
target_include_directories(xnt_format_fuzzing_checks SYSTEM PRIVATE ${CMAKE_BINARY_DIR}/format/generated)
target_compile_definitions(xnt_format_fuzzing_checks
  PRIVATE $<TARGET_PROPERTY:xnt_format,COMPILE_DEFINITIONS> XNT_FUZZING_SKIP_CHECKSUMS=1)
target_link_libraries(xnt_format_fuzzing_checks PUBLIC xnt_base
  PRIVATE xnt_options PkgConfig::ZSTD PkgConfig::XXHASH flatbuffers::flatbuffers Threads::Threads
          xnt_format_xxh3)

# seeds_<...> TARGET from SRC (tests/fuzz/fuzz_<name>.cpp) linked with LIBS, reading corpus/<name>.
function(xnt_fuzz_seeds target src)
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" name ${name})
  add_executable(${target} ${src} ${_fuzz_dir}/seed_driver.cpp)
  target_link_libraries(${target} PRIVATE xnt_options ${ARGN})
  string(REGEX REPLACE "^seeds_" "" test_name ${target})
  add_test(NAME fuzz_seeds.${test_name} COMMAND ${target} ${_fuzz_dir}/corpus/${name})
  set_tests_properties(fuzz_seeds.${test_name} PROPERTIES TIMEOUT 300 LABELS fuzz_seeds)
endfunction()

set(_fuzz_libs xnt_format)
foreach(lib xnt_capture xnt_replay xnt_ucode xnt_samples xnt_diff xnt_renderer xnt_compare)
  if(TARGET ${lib})
    list(APPEND _fuzz_libs ${lib})
  endif()
endforeach()
foreach(src ${_fuzz_sources})
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "seeds_" target ${name})
  xnt_fuzz_seeds(${target} ${src} ${_fuzz_libs})
  if(name STREQUAL "fuzz_reader")
    # fuzz_reader needs only the format library: the unchecked copy replaces it.
    xnt_fuzz_seeds(seeds_reader_unchecked ${src} xnt_format_fuzzing_checks)
  endif()
endforeach()

# Turns a trace's first frames into an input of fuzz_cpu_replay (how its committed seeds were
# made from the samples; not built by default).
add_executable(make_cpu_replay_seed EXCLUDE_FROM_ALL ${_fuzz_dir}/make_cpu_replay_seed.cpp)
target_link_libraries(make_cpu_replay_seed PRIVATE xnt_options xnt_format)

# The cpu_replay seeds again on the Vulkan paths under the validation layer (the harness fails on
# any message): garbage registers must not make a path record invalid commands.
if(TARGET seeds_cpu_replay AND XNT_VULKAN)
  add_test(NAME fuzz_seeds.cpu_replay_on_fbo
           COMMAND seeds_cpu_replay ${_fuzz_dir}/corpus/cpu_replay)
  set_tests_properties(fuzz_seeds.cpu_replay_on_fbo PROPERTIES TIMEOUT 900
                       ENVIRONMENT "XNT_FUZZ_PATH=fbo" LABELS "fuzz_seeds;renderer")
  # fsi in its unordered test mode costs lavapipe about four times fbo's time (a barrier per
  # draw): the regression inputs and the seeds made from slices and snapshots only.
  file(GLOB _fsi_seeds CONFIGURE_DEPENDS ${_fuzz_dir}/corpus/cpu_replay/regression-*
       ${_fuzz_dir}/corpus/cpu_replay/slice_* ${_fuzz_dir}/corpus/cpu_replay/edram_*)
  add_test(NAME fuzz_seeds.cpu_replay_on_fsi COMMAND seeds_cpu_replay ${_fsi_seeds})
  set_tests_properties(fuzz_seeds.cpu_replay_on_fsi PROPERTIES TIMEOUT 900
                       ENVIRONMENT "XNT_FUZZ_PATH=fsi;XNT_FUZZ_FSI_UNORDERED=1"
                       LABELS "fuzz_seeds;renderer")
endif()
