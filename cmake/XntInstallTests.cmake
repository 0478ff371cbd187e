# Tests of what `cmake --install` ships (included from the top level after enable_testing()):
#   capture_abi_symbols        the shared library's exported symbols and SONAME vs capture/abi/
#   capture_abi_layout         enum sizes/values and function types of xnt_capture.h, compiled as
#                              C99 -pedantic-errors and linked to the shared library
#   capture_example_installed  install to a temporary prefix, build capture/examples with
#                              pkg-config and with CMake, run it, validate + replay --path cpu
if(XNT_FUZZ OR NOT TARGET xnt_capture_shared)
  return()
endif()
get_target_property(XNT_CAPTURE_SOVERSION xnt_capture_shared SOVERSION)

add_test(NAME capture_abi_symbols
         COMMAND bash ${CMAKE_SOURCE_DIR}/capture/abi/check-symbols.sh
                 $<TARGET_FILE:xnt_capture_shared> ${XNT_CAPTURE_SOVERSION})
set_tests_properties(capture_abi_symbols PROPERTIES TIMEOUT 60)

add_executable(capture_abi_layout ${CMAKE_SOURCE_DIR}/capture/abi/abi_check.c)
set_target_properties(capture_abi_layout PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON
                                                    C_EXTENSIONS OFF)
target_compile_options(capture_abi_layout PRIVATE -pedantic-errors)
target_link_libraries(capture_abi_layout PRIVATE xnt_options xnt_capture_shared)
if(XNT_SANITIZE AND CMAKE_C_COMPILER_ID STREQUAL "Clang")
  # The library is C++: clang's UBSan checks in it (vptr) need the sanitizer's C++ runtime and
  # the C++ ABI library under it, which clang links only into C++ programs (gcc's one libubsan
  # holds both). Still compiled as C99; linked by the C++ driver in this build only.
  set_target_properties(capture_abi_layout PROPERTIES LINKER_LANGUAGE CXX)
endif()
add_test(NAME capture_abi_layout COMMAND capture_abi_layout)
set_tests_properties(capture_abi_layout PROPERTIES TIMEOUT 60)

# The install needs every installed file built (xenotrace, the --help docs, the library): ctest
# runs after a full build. Sanitized builds pass their flags on (the library needs the runtime).
set(_extra "")
if(XNT_SANITIZE)
  set(_extra "-fsanitize=address,undefined")
endif()
add_test(NAME capture_example_installed
         COMMAND bash ${CMAKE_SOURCE_DIR}/capture/examples/test-installed.sh
                 ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/install-test "${_extra}")
# Both install the build tree (cmake --install writes its manifest there): they exclude each
# other, not the rest of the suite, so lintian's half minute runs beside other tests.
set_tests_properties(capture_example_installed PROPERTIES TIMEOUT 600 RESOURCE_LOCK xnt_build_install)

# cpack -G DEB into a temporary folder: the packages, their dependencies and copyright files,
# lintian (every error fatal).
add_test(NAME xnt_deb_packages
         COMMAND bash ${CMAKE_SOURCE_DIR}/capture/examples/test-deb.sh
                 ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/deb-test)
set_tests_properties(xnt_deb_packages PROPERTIES TIMEOUT 600 RESOURCE_LOCK xnt_build_install)
