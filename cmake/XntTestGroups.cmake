# Script mode (cmake -P), run after a test program links when XNT_TEST_GROUP is above 1
# (tests/CMakeLists.txt): lists the program's GoogleTest cases and writes CTEST_FILE, one ctest
# test per run of up to GROUP_SIZE consecutive cases of one suite, each run as
# `program --gtest_filter=Suite.A:Suite.B:...`. One process then pays the sanitizer's start-up,
# the program's static set-up and the Vulkan loader, layer and driver libraries' loading once per
# group instead of once per case. Every case still runs, in a fresh fixture, with its own result
# line in the output (`[  FAILED  ] Suite.Case`), which ctest --output-on-failure prints.
#
# Inputs (-D): TEST_EXECUTABLE, TEST_WORKING_DIR, CTEST_FILE, GROUP_SIZE, TEST_TIMEOUT,
# TEST_LABELS, DISCOVERY_TIMEOUT.
cmake_minimum_required(VERSION 3.20)

execute_process(
  COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
  WORKING_DIRECTORY "${TEST_WORKING_DIR}"
  TIMEOUT ${DISCOVERY_TIMEOUT}
  OUTPUT_VARIABLE output
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${result}):\n${output}")
endif()

# Parameter comments ("  # GetParam() = ...") may hold any character; names hold none of ; [ ].
string(REGEX REPLACE " *#[^\n]*" "" output "${output}")
if(output MATCHES "[][;]")
  message(FATAL_ERROR "${TEST_EXECUTABLE}: a test name with ; [ or ]:\n${output}")
endif()
string(REPLACE "\n" ";" lines "${output}")

set(script "")
set(suite "")
set(cases "")
set(groups 0)

# Writes the group of `cases` (of `suite`) as one ctest test, named after the suite and every
# case it runs, so that `ctest -R Case` still finds a case.
macro(flush_group)
  if(cases)
    list(JOIN cases "," names)
    set(filter "")
    foreach(c ${cases})
      list(APPEND filter "${suite}.${c}")
    endforeach()
    list(JOIN filter ":" filter)
    set(name "${suite}.${names}")
    string(APPEND script
      "add_test([==[${name}]==] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${filter}]==])\n"
      "set_tests_properties([==[${name}]==] PROPERTIES WORKING_DIRECTORY [==[${TEST_WORKING_DIR}]==]"
      " TIMEOUT ${TEST_TIMEOUT} LABELS [==[${TEST_LABELS}]==])\n")
    math(EXPR groups "${groups} + 1")
    set(cases "")
  endif()
endmacro()

foreach(line ${lines})
  if(line STREQUAL "" OR line MATCHES "^Running main")
    continue()
  endif()
  if(line MATCHES "^  +(.+)$")
    list(APPEND cases "${CMAKE_MATCH_1}")
    list(LENGTH cases n)
    if(n GREATER_EQUAL GROUP_SIZE)
      flush_group()
    endif()
  else()
    flush_group()
    string(REGEX REPLACE "\\.$" "" suite "${line}")
  endif()
endforeach()
flush_group()

if(groups EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} lists no test")
endif()
file(WRITE "${CTEST_FILE}" "${script}")
