# Compile-fail driver, run by CTest as `cmake -P check_compile.cmake` with:
#   -DCOMPILER=<c++ compiler> -DINCLUDE_DIR=<include/> -DSOURCE=<case .cpp> -DMODE=fail|control
#   -DCUDA_ARCH=<NN>  (optional) SOURCE is a .cu case and COMPILER is nvcc: compile it for sm_NN
#                     (-gencode=arch=compute_NN,code=sm_NN -c, object discarded) instead of
#                     -fsyntax-only, so that the device pass for that architecture runs
#   -DEXTRA_FLAGS=<flags> (optional, with CUDA_ARCH) more nvcc flags, e.g. ptxas's checks
# MODE=fail:    the case must NOT compile, and one of the compiler's error lines must contain the
#               text after "// EXPECT-ERROR: " in the case file (the static_assert's message).
# MODE=control: the same file with -DTESSERA_CONTROL must compile, which proves that the failure
#               comes from the guarded bad line and not from the rest of the file.
foreach(var COMPILER INCLUDE_DIR SOURCE MODE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_compile.cmake: -D${var}=... is required")
  endif()
endforeach()

if(DEFINED CUDA_ARCH)
  set(cmd ${COMPILER} -std=c++20 -I${INCLUDE_DIR} -gencode=arch=compute_${CUDA_ARCH},code=sm_${CUDA_ARCH} -c -o /dev/null)
  if(DEFINED EXTRA_FLAGS)
    separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
    list(APPEND cmd ${extra})
  endif()
else()
  set(cmd ${COMPILER} -std=c++20 -fsyntax-only -I${INCLUDE_DIR})
endif()
if(MODE STREQUAL "control")
  list(APPEND cmd -DTESSERA_CONTROL)
elseif(NOT MODE STREQUAL "fail")
  message(FATAL_ERROR "check_compile.cmake: MODE must be fail or control, got '${MODE}'")
endif()
list(APPEND cmd ${SOURCE})

execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
list(JOIN cmd " " cmd_text)

if(MODE STREQUAL "control")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "control build of ${SOURCE} failed (it must compile):\n${cmd_text}\n${out}")
  endif()
  message(STATUS "ok: control compiles: ${cmd_text}")
  return()
endif()

file(STRINGS ${SOURCE} expect_lines REGEX "^// EXPECT-ERROR: ")
list(LENGTH expect_lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "${SOURCE} needs exactly one '// EXPECT-ERROR: <message>' line (found ${n})")
endif()
string(REGEX REPLACE "^// EXPECT-ERROR: " "" expected "${expect_lines}")
string(REPLACE "\\;" ";" expected "${expected}")  # file(STRINGS) escapes a ';' in the line as "\;"

if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must fail with \"${expected}\":\n${cmd_text}")
endif()
# Only the error lines count, so the text cannot be matched in an echoed source line. Semicolons
# become commas first (CMake lists split on them), in the output and the expected text alike.
string(REPLACE ";" "," out_nosemi "${out}")
string(REPLACE ";" "," expected "${expected}")
string(REPLACE "\n" ";" lines "${out_nosemi}")
set(found FALSE)
foreach(line IN LISTS lines)
  if(line MATCHES "error" AND NOT found)
    string(FIND "${line}" "${expected}" pos)
    if(NOT pos EQUAL -1)
      set(found TRUE)
      set(found_line "${line}")
    endif()
  endif()
endforeach()
if(NOT found)
  message(FATAL_ERROR "${SOURCE} failed to compile, but no error line contains \"${expected}\":\n${cmd_text}\n${out}")
endif()
message(STATUS "ok: fails as expected: ${found_line}")
