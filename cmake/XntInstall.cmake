# Installing Xenotrace (README "Install"): `cmake --install BUILD --prefix P` puts
#   bin/xenotrace                                   component tools   -> package xenotrace
#   share/doc/xenotrace/help/*.txt, share/man/man1/xenotrace.1.gz   (tools: --help of every command)
#   lib/libxenotrace-capture.so.1[.x.y]             component runtime -> package libxenotrace-capture1
#   lib/libxenotrace-capture.so, include/xnt_capture.h, lib/pkgconfig/xenotrace-capture.pc,
#   lib/cmake/XenotraceCapture/*.cmake              component dev     -> package libxenotrace-capture-dev
# and `cpack -G DEB` (run in the build folder) makes the three .deb packages.
include(CMakePackageConfigHelpers)

# The capture library's version, SONAME.API_VERSION.0 (capture/CMakeLists.txt).
get_target_property(XNT_CAPTURE_VERSION xnt_capture_shared VERSION)
get_target_property(XNT_CAPTURE_SOVERSION xnt_capture_shared SOVERSION)

# ---- the CLI and its --help pages (generated from the built binary) ---------------------------
install(TARGETS xenotrace RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
set(_docs ${CMAKE_BINARY_DIR}/doc)
add_custom_command(
  OUTPUT ${_docs}/help.stamp
  COMMAND ${CMAKE_COMMAND} -DXENOTRACE=$<TARGET_FILE:xenotrace> -DOUT=${_docs}
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_SOURCE_DIR}/cmake/XntHelpDocs.cmake
  COMMAND ${CMAKE_COMMAND} -E touch ${_docs}/help.stamp
  DEPENDS xenotrace ${CMAKE_SOURCE_DIR}/cmake/XntHelpDocs.cmake
  COMMENT "xenotrace --help of every command -> doc/help/*.txt, doc/man/xenotrace.1.gz"
  VERBATIM)
add_custom_target(xnt_help_docs ALL DEPENDS ${_docs}/help.stamp)
install(DIRECTORY ${_docs}/help/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/help COMPONENT tools)
install(FILES ${_docs}/man/xenotrace.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)

# ---- the capture library: shared object, header, pkg-config, CMake package --------------------
install(TARGETS xnt_capture_shared EXPORT XenotraceCaptureTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(FILES ${CMAKE_SOURCE_DIR}/capture/include/xnt_capture.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)

set(_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH XNT_PC_PREFIX_REL /root/${_pcdir} /root)  # "../../" for lib/pkgconfig
string(REGEX REPLACE "/$" "" XNT_PC_PREFIX_REL "${XNT_PC_PREFIX_REL}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/xenotrace-capture.pc.in
               ${CMAKE_BINARY_DIR}/pkgconfig/xenotrace-capture.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/xenotrace-capture.pc DESTINATION ${_pcdir}
        COMPONENT dev)

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/XenotraceCapture)
install(EXPORT XenotraceCaptureTargets NAMESPACE XenotraceCapture:: DESTINATION ${_cmakedir}
        COMPONENT dev)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/XenotraceCaptureConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/XenotraceCaptureConfig.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/XenotraceCaptureConfigVersion.cmake
  VERSION ${XNT_CAPTURE_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/XenotraceCaptureConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/XenotraceCaptureConfigVersion.cmake
        DESTINATION ${_cmakedir} COMPONENT dev)

include(${CMAKE_SOURCE_DIR}/cmake/XntPackage.cmake)
