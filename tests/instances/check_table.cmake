# Checks instances/generate.cmake (tessera_generate_instances) on the project's table and on
# malformed ones.   cmake -DSOURCE_DIR=<tessera source> -DWORK_DIR=<scratch> -P check_table.cmake
cmake_minimum_required(VERSION 3.18)
include("${SOURCE_DIR}/instances/generate.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
set(failures "")

# expect(what condition...): records a failure unless the condition holds.
macro(expect what)
  if(NOT (${ARGN}))
    string(APPEND failures "  ${what}\n")
  endif()
endmacro()

# The project's table, without and with the set `extra`.
foreach(extra OFF ON)
  set(out "${WORK_DIR}/project_${extra}")
  tessera_generate_instances(TABLE "${SOURCE_DIR}/instances/table.txt" OUT_DIR "${out}" EXTRA ${extra}
                             SOURCES_VAR sources)
  file(READ "${out}/tessera_instances.inc" inc)
  list(LENGTH sources n)
  foreach(pair "half_t, half_t" "half_t, float" "bfloat16_t, bfloat16_t" "bfloat16_t, float")
    string(FIND "${inc}" "  X(${pair}) \\" at)
    expect("extra=${extra}: gemm_sm90's choices compiled with ${pair}" NOT at EQUAL -1)
    string(FIND "${inc}" "X(GemmSm80Default, ${pair})" at)
    expect("extra=${extra}: gemm_sm80 compiled with ${pair}" NOT at EQUAL -1)
  endforeach()
  string(FIND "${inc}" "X(GemmSm90Default, half_t, half_t)" ladder)
  string(FIND "${inc}" "X(GemmSm90StreamKMedium, bfloat16_t, float)" medium)
  # stream-K with 128x128 tiles is one of gemm_sm90's choices (compiled with them), not a row
  expect("extra=${extra}: stream-K with 128x128 tiles not listed beside the choices" medium EQUAL -1)
  if(extra)
    expect("extra=ON: TESSERA_INSTANCES_EXTRA 1" inc MATCHES "#define TESSERA_INSTANCES_EXTRA 1\n")
    expect("extra=ON: the ladder's step 1 is listed" NOT ladder EQUAL -1)
    expect("extra=ON: 6 units (got ${n})" n EQUAL 6)
  else()
    expect("extra=OFF: TESSERA_INSTANCES_EXTRA 0" inc MATCHES "#define TESSERA_INSTANCES_EXTRA 0\n")
    expect("extra=OFF: no ladder step" ladder EQUAL -1)
    expect("extra=OFF: 5 units (got ${n})" n EQUAL 5)
  endif()
  # A unit of gemm_sm90's choices instantiates TESSERA_GEMM_SM90_CHOICES with its pair and includes
  # only the header of its family.
  file(READ "${out}/units/sm90_choices_bf16_f32.cu" unit)
  string(FIND "${unit}" "#define TESSERA_CHOICE_T bfloat16_t\n#define TESSERA_CHOICE_TOUT float\n" defines)
  string(FIND "${unit}" "TESSERA_GEMM_SM90_CHOICES(TESSERA_GEMM_SM90_CHOICE_DEFINE)" expands)
  string(FIND "${unit}" "#include \"instances/gemm_sm90.hpp\"" sm90_header)
  string(FIND "${unit}" "#include \"instances/gemm_sm80.hpp\"" sm80_header)
  expect("extra=${extra}: the bf16 -> f32 unit expands the choices with its pair"
         NOT defines EQUAL -1 AND expands GREATER defines)
  expect("extra=${extra}: the bf16 -> f32 unit includes instances/gemm_sm90.hpp alone"
         NOT sm90_header EQUAL -1 AND sm80_header EQUAL -1)
endforeach()

# Malformed tables: each must stop configuring with its message.
set(bad_names "")
macro(bad name message row)
  list(APPEND bad_names ${name})
  set(bad_row_${name} "${row}")
  set(bad_message_${name} "${message}")
endmacro()
bad(columns "'u gemm_sm90 choices all' has 4 columns; want unit family config types set" "u gemm_sm90 choices all")
bad(family "family 'gemm_sm70' in" "u gemm_sm70 Cfg all default")
bad(set "set 'sometimes' in" "u gemm_sm90 choices all sometimes")
bad(pair "type pair 'half_t/double' in" "u gemm_sm90 GemmSm90Default half_t/double default")
bad(config "configuration '1Cfg' in" "u gemm_sm90 1Cfg all default")
bad(choices "'choices' names gemm_sm90's configurations" "u gemm_sm80 choices all default")
bad(twice "gemm_sm90/GemmSm90Default/half_t/half_t is listed twice"
    "u gemm_sm90 GemmSm90Default half_t/half_t default\nv gemm_sm90 GemmSm90Default all default")
bad(empty "no instance to compile" "u gemm_sm90 GemmSm90Default all extra")
foreach(name IN LISTS bad_names)
  set(dir "${WORK_DIR}/bad_${name}")
  string(REPLACE "\\n" "\n" rows "${bad_row_${name}}")
  file(WRITE "${dir}/table.txt" "# a malformed table\n${rows}\n")
  file(WRITE "${dir}/run.cmake" "cmake_minimum_required(VERSION 3.18)\ninclude(\"${SOURCE_DIR}/instances/generate.cmake\")\n"
       "tessera_generate_instances(TABLE \"${dir}/table.txt\" OUT_DIR \"${dir}/out\" EXTRA OFF SOURCES_VAR s)\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -P "${dir}/run.cmake" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  string(REGEX REPLACE "[ \t\n]+" " " said "${out}")  # CMake wraps its error messages
  string(FIND "${said}" "table.txt: ${bad_message_${name}}" at)
  expect("malformed table '${name}': exits non-zero (got ${rc})" NOT rc EQUAL 0)
  expect("malformed table '${name}': says \"table.txt: ${bad_message_${name}}\"; said:\n${out}" NOT at EQUAL -1)
endforeach()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "instances/generate.cmake:\n${failures}")
endif()
list(LENGTH bad_names n_bad)
message(STATUS "instances/generate.cmake: the project's table (with and without `extra`) and ${n_bad} malformed tables as expected")
