# cmake -DSOURCE=<source tree> -DOUT=<header> -P write_build_commit.cmake
# Writes the commit the source tree is at into OUT as OSVS_BUILD_COMMIT ("<12 hex digits>", with
# "-dirty" when tracked files outside reports/ differ from it; "unknown" outside git). Reports are
# what the build writes, not what it is built from: regenerating them does not make it dirty. Run by every build, before
# anything that includes the header is compiled; OUT is rewritten only when the text changes, so
# an unchanged commit recompiles nothing.
execute_process(COMMAND git -C "${SOURCE}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT commit)
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SOURCE}" diff-index --quiet HEAD -- . ":(exclude)reports"
                  RESULT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty EQUAL 0)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "// Written by cmake/write_build_commit.cmake at build time; do not edit.
#pragma once
#define OSVS_BUILD_COMMIT \"${commit}\"
")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
