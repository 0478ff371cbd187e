# Warning, sanitizer and helper settings shared by every Xenotrace target.
add_library(xnt_options INTERFACE)
target_compile_options(xnt_options INTERFACE -Wall -Wextra)
if(XNT_WERROR)
  target_compile_options(xnt_options INTERFACE -Werror)
endif()
if(XNT_SANITIZE)
  # UBSan without three checks ASan already makes or that guard nothing here: object-size (an
  # access past its object, which ASan's redzones report for heap, stack and globals alike), null
  # (a null dereference faults, and ASan's SEGV handler reports it with its stack) and
  # pointer-overflow (a wrapping pointer sum; the code indexes spans and offsets instead). Each is
  # a check at every load, store or address computation: a sanitized compile takes about 15 %
  # less CPU without them (docs/ci.md). The fuzz build below keeps every check.
  target_compile_options(xnt_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                               -fno-sanitize=object-size,null,pointer-overflow
                                               -fno-sanitize-recover=undefined)
  target_link_options(xnt_options INTERFACE -fsanitize=address,undefined)
endif()
if(XNT_FUZZ)
  # Instrument every library for coverage; the fuzz executables add -fsanitize=fuzzer at link.
  # -fno-sanitize-recover=all: a UBSan report aborts the input (libFuzzer then records it as a
  # crash) instead of printing and carrying on.
  target_compile_options(xnt_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                               -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(xnt_options INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# xnt_library(NAME folder SOURCES...) — a library whose public headers live in <folder>/include.
function(xnt_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  # xnt_options first: an interface library among the dependencies that turns one of its warnings
  # off (xnt_vk_struct_init) must come after -Wextra on the command line, where clang, unlike gcc,
  # honours the later of the two.
  target_link_libraries(${name} PRIVATE xnt_options)
  target_link_libraries(${name} PUBLIC xnt_base ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

# xnt_unity_skip(SOURCES...) — sources of this folder's targets that stay out of XNT_UNITY_LIBS's
# batches: each defines a file-local name (anonymous namespace) that another source of its target
# defines too, which one batch would see as one name defined twice.
function(xnt_unity_skip)
  set_source_files_properties(${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
