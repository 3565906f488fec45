# Install test driver, run by CTest as `cmake -P install_consumer.cmake` with:
#   -DSOURCE_DIR=<tessera source> -DBUILD_DIR=<scratch dir> -DGENERATOR=<cmake generator>
#   -DCXX_COMPILER=<c++ compiler>
# Steps: configure Tessera alone (no tests, no commands, no benchmark, no Python modules), install it into BUILD_DIR/prefix, then
# configure, build and run tests/install/consumer (a program of the library, one of its JIT)
# against that prefix through find_package(tessera CONFIG REQUIRED). Any failing step fails the test with its output.
foreach(var SOURCE_DIR BUILD_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(lib_build ${BUILD_DIR}/tessera-build)
set(prefix ${BUILD_DIR}/prefix)
set(consumer_build ${BUILD_DIR}/consumer-build)
file(REMOVE_RECURSE ${BUILD_DIR})
file(MAKE_DIRECTORY ${BUILD_DIR})

# Runs one step; stops with its command line and output when it fails. Sets step_output.
function(step name)
  list(JOIN ARGN " " cmd_text)
  message(STATUS "[${name}] ${cmd_text}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${name}] failed (exit ${rc}):\n${cmd_text}\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${lib_build} -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_INSTALL_PREFIX=${prefix} -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_TOOLS=OFF -DTESSERA_BUILD_BENCH=OFF
     -DTESSERA_BUILD_PYTHON=OFF)
step(build ${CMAKE_COMMAND} --build ${lib_build} --config Release)
step(install ${CMAKE_COMMAND} --install ${lib_build} --config Release)

foreach(f include/tessera/tessera.hpp include/tessera/core/layout.hpp include/tessera/jit/embedded.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()
file(GLOB jit_headers_lib ${prefix}/lib*/*tessera_jit_headers*)
if(NOT jit_headers_lib)
  message(FATAL_ERROR "install: the library of the JIT's built-in headers (tessera_jit_headers) is missing under ${prefix}")
endif()

step(consumer-configure ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${consumer_build}
     -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_PREFIX_PATH=${prefix} -Dtessera_ROOT=${prefix})
# The consumer must see the installed headers, not the source tree.
string(FIND "${step_output}" "includes: ${prefix}/include" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "consumer did not pick up the installed tessera under ${prefix}:\n${step_output}")
endif()
step(consumer-build ${CMAKE_COMMAND} --build ${consumer_build} --config Release)

find_program(consumer_exe consumer PATHS ${consumer_build} ${consumer_build}/Release NO_DEFAULT_PATH REQUIRED)
step(consumer-run ${consumer_exe})
message(STATUS "consumer printed: ${step_output}")
find_program(jit_consumer_exe jit_consumer PATHS ${consumer_build} ${consumer_build}/Release NO_DEFAULT_PATH REQUIRED)
step(jit-consumer-run ${jit_consumer_exe})
message(STATUS "jit_consumer printed: ${step_output}")
