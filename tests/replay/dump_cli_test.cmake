# End-to-end check of `xenotrace dump` on a bundled sample: exit codes and output shape.
# Run by ctest as: cmake -DXENOTRACE=<binary> -DWORK=<dir> -P dump_cli_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${XENOTRACE} samples write --out ${WORK} clear_draws_resolve_swap
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "samples write failed: ${rc}")
endif()
set(trace ${WORK}/clear_draws_resolve_swap.xnt)

execute_process(COMMAND ${XENOTRACE} dump ${trace} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "=> draw 0\\.1 triangle_list" OR NOT out MATCHES "=> swap frame 0"
   OR NOT err MATCHES "0 errors, 0 warnings")
  message(FATAL_ERROR "dump: rc=${rc}\n${err}\n${out}")
endif()

execute_process(COMMAND ${XENOTRACE} dump ${trace} --json --frame 0 --draw 4 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"kind\":\"resolve\",\"frame\":0,\"draw\":4"
   OR out MATCHES "\"kind\":\"draw\"")
  message(FATAL_ERROR "dump --json --draw 4: rc=${rc}\n${out}")
endif()

execute_process(COMMAND ${XENOTRACE} dump ${trace} --frame 7 RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "out of range")
  message(FATAL_ERROR "dump --frame 7 should fail with 2: rc=${rc} ${err}")
endif()

execute_process(COMMAND ${XENOTRACE} dump ${trace} --draw 99 RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "no draw 99")
  message(FATAL_ERROR "dump --draw 99 should fail with 2: rc=${rc} ${err}")
endif()

execute_process(COMMAND ${XENOTRACE} dump ${WORK}/missing.xnt RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "dump of a missing file should fail with 2: rc=${rc}")
endif()
file(REMOVE_RECURSE ${WORK})
