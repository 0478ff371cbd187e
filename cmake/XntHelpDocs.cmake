# cmake -DXENOTRACE=<built binary> -DOUT=<dir> -DVERSION=<x.y.z> -P XntHelpDocs.cmake
# Writes the --help text of the CLI and of every sub-command (found by walking the "Subcommands:"
# sections, so a new command needs no edit here) to OUT/help/xenotrace[-CMD[-SUB]].txt, and the
# same text as a man page OUT/man/xenotrace.1.gz. Run at build time from the built binary.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT}/help ${OUT}/man)
file(MAKE_DIRECTORY ${OUT}/help ${OUT}/man)

set(_man_sections "")

function(_roff_escape text outvar)
  string(REPLACE "\\" "\\e" text "${text}")
  # A line starting with . or ' would be a request: prefix the zero-width \&.
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${outvar} "${text}" PARENT_SCOPE)
endfunction()

function(_help_for words)
  set(name xenotrace)
  foreach(w IN LISTS words)
    string(APPEND name " ${w}")
  endforeach()
  execute_process(COMMAND ${XENOTRACE} ${words} --help
                  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} --help failed (${rc}): ${err}")
  endif()
  # The usage line names the binary as it was run; the docs name the installed command.
  string(REPLACE "${XENOTRACE}" "xenotrace" text "${text}")
  string(REPLACE " " "-" file "${name}")
  file(WRITE ${OUT}/help/${file}.txt "${text}")
  _roff_escape("${text}" roff)
  string(APPEND _man_sections ".SS \"${name}\"\n.nf\n${roff}\n.fi\n")
  set(_man_sections "${_man_sections}" PARENT_SCOPE)
  # Sub-commands: the indented names under "Subcommands:" up to the next blank line.
  string(FIND "${text}" "Subcommands:\n" at)
  if(at LESS 0)
    return()
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(REGEX MATCH "Subcommands:\n([^\n]+\n)+" block "${rest}")
  string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" subs "${block}")
  foreach(sub IN LISTS subs)
    string(STRIP "${sub}" sub)
    set(next ${words})
    list(APPEND next ${sub})
    _help_for("${next}")
    set(_man_sections "${_man_sections}" PARENT_SCOPE)
  endforeach()
endfunction()

_help_for("")
string(TIMESTAMP _date "%Y-%m-%d" UTC)  # SOURCE_DATE_EPOCH, when set, gives a reproducible date
file(WRITE ${OUT}/man/xenotrace.1
".TH XENOTRACE 1 \"${_date}\" \"xenotrace ${VERSION}\" \"User Commands\"
.SH NAME
xenotrace \\- record, replay and diff Xbox 360 GPU (Xenos) traces
.SH SYNOPSIS
.B xenotrace
.I command
[\\fIoptions\\fR]
.SH DESCRIPTION
Every command and sub-command below is shown with its \\fB\\-\\-help\\fR text. Exit codes: 0 ok,
1 no (invalid trace, images differ, validation messages), 2 usage or input error.
.SH COMMANDS
${_man_sections}.SH SEE ALSO
The documentation in /usr/share/doc/xenotrace/help (one text file per command).
")
execute_process(COMMAND gzip -9nf ${OUT}/man/xenotrace.1 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed on ${OUT}/man/xenotrace.1")
endif()
