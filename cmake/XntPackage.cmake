# CPack: `cpack -G DEB` in the build folder makes
#   xenotrace_<v>-1_<arch>.deb                  the CLI, its man page and --help docs
#   libxenotrace-capture1_<v>-1_<arch>.deb      libxenotrace-capture.so.1 (Debian's library naming)
#   libxenotrace-capture-dev_<v>-1_<arch>.deb   header, .so link, pkg-config file, CMake package
# Run-time dependencies come from dpkg-shlibdeps; the -dev package depends on the exact library
# package. Lintian tags left and why: README "Install".
# A no-reply address on a real mail host (lintian's bogus-mail-host rejects hosts such as
# localhost.localdomain); packagers set their own.
set(XNT_PACKAGE_MAINTAINER "Xenotrace developers <xenotrace@users.noreply.github.com>"
    CACHE STRING "Maintainer field of the .deb packages")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME xenotrace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tools runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${XNT_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME xenotrace)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
"record, replay and diff Xbox 360 GPU (Xenos) traces
Xenotrace records Xbox 360 GPU PM4 command streams and the guest memory
they read into compressed, checksummed .xnt traces, replays them headless
on a Vulkan or CPU re-implementation of the Xenos GPU, and diffs the frames.")
# The fbo render path needs a Vulkan driver (the cpu path does not).
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "mesa-vulkan-drivers | vulkan-icd")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libxenotrace-capture${XNT_CAPTURE_SOVERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
"Xbox 360 GPU trace capture library (Xenotrace)
The C ABI an emulator links to record Xbox 360 GPU (Xenos) command streams,
guest memory, registers, EDRAM and swaps into .xnt traces that the
xenotrace tool replays.")
# ldconfig through a dpkg trigger (Debian policy 8.1.1) instead of CPack's postinst/postrm calls:
# supplying the two scripts (which do nothing) stops CPack from writing its own.
set(_ctl ${CMAKE_BINARY_DIR}/debian/control-runtime)
file(WRITE ${_ctl}/triggers "activate-noawait ldconfig\n")
foreach(_script postinst postrm)
  file(WRITE ${_ctl}/${_script} "#!/bin/sh\nset -e\n# ldconfig runs from the trigger (triggers).\nexit 0\n")
  file(CHMOD ${_ctl}/${_script} FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${_ctl}/triggers ${_ctl}/postinst ${_ctl}/postrm)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libxenotrace-capture-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
"Xbox 360 GPU trace capture library (Xenotrace) - development files
The header xnt_capture.h, the pkg-config file xenotrace-capture.pc and the
CMake package XenotraceCapture (imported target XenotraceCapture::capture)
for emulators that record .xnt traces.")

# Every package's doc folder holds the licence as a machine-readable Debian copyright file
# (copyright-format 1.0), made from LICENSE: the MIT ("Expat") text with its paragraphs as " ."
# lines. The CLI also carries the statically linked glslang (through shaderc), whose licence
# travels with it.
file(STRINGS ${CMAKE_SOURCE_DIR}/LICENSE _licence_lines)
set(_licence_body "")
set(_in_body FALSE)
foreach(_line IN LISTS _licence_lines)
  if(_line MATCHES "^Permission is hereby granted")
    set(_in_body TRUE)
  endif()
  if(_in_body AND _line STREQUAL "")
    string(APPEND _licence_body " .\n")
  elseif(_in_body)
    string(APPEND _licence_body " ${_line}\n")
  endif()
endforeach()
set(_copyright_head "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: xenotrace
Upstream-Contact: ${XNT_PACKAGE_MAINTAINER}

Files: *
Copyright: 2026 the Xenotrace authors
License: Expat
")
set(_glslang "Comment: the xenotrace program statically links glslang (through shaderc),
 Copyright 2002-2005 3Dlabs Inc. Ltd, 2002 NVIDIA Corporation, 2012-2015
 LunarG, Inc, 2015-2016 Google, Inc, 2017 ARM Limited and others, under the
 BSD-3-clause licence (and MIT for its SPIR-V headers); see
 /usr/share/doc/glslang-dev/copyright on a Debian system.
")
foreach(_pkg xenotrace libxenotrace-capture${XNT_CAPTURE_SOVERSION} libxenotrace-capture-dev)
  set(_extra "")
  if(_pkg STREQUAL "xenotrace")
    set(_extra "${_glslang}")
  endif()
  file(WRITE ${CMAKE_BINARY_DIR}/debian/${_pkg}/copyright
       "${_copyright_head}${_extra}\nLicense: Expat\n${_licence_body}")
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/debian/xenotrace/copyright
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)
install(FILES ${CMAKE_BINARY_DIR}/debian/libxenotrace-capture${XNT_CAPTURE_SOVERSION}/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libxenotrace-capture${XNT_CAPTURE_SOVERSION}
        COMPONENT runtime)
install(FILES ${CMAKE_BINARY_DIR}/debian/libxenotrace-capture-dev/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libxenotrace-capture-dev COMPONENT dev)

# Debian wants a changelog in every package's doc folder (the text says where the history is).
foreach(_pkg xenotrace libxenotrace-capture${XNT_CAPTURE_SOVERSION} libxenotrace-capture-dev)
  set(_dir ${CMAKE_BINARY_DIR}/debian/${_pkg})
  string(TIMESTAMP _date "%a, %d %b %Y %H:%M:%S +0000" UTC)
  file(WRITE ${_dir}/changelog.Debian
"${_pkg} (${PROJECT_VERSION}-1) unstable; urgency=medium

  * Built from the Xenotrace source tree with CPack; the history is its git log.

 -- ${XNT_PACKAGE_MAINTAINER}  ${_date}
")
  execute_process(COMMAND gzip -9nf ${_dir}/changelog.Debian)
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/debian/xenotrace/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)
install(FILES ${CMAKE_BINARY_DIR}/debian/libxenotrace-capture${XNT_CAPTURE_SOVERSION}/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libxenotrace-capture${XNT_CAPTURE_SOVERSION}
        COMPONENT runtime)
install(FILES ${CMAKE_BINARY_DIR}/debian/libxenotrace-capture-dev/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libxenotrace-capture-dev COMPONENT dev)

include(CPack)
