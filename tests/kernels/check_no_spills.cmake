# cmake -DNVCC=... -DINCLUDE=... -DGENCODE=... -DSRC=... -DOUT=... -DEXPECT=N -P check_no_spills.cmake
# Compiles SRC with ptxas -v and fails if any kernel spills, or if fewer than EXPECT kernels named
# gemm_sm80_kernel were compiled (a check of nothing must not pass).
separate_arguments(gencode UNIX_COMMAND "${GENCODE}")
execute_process(COMMAND ${NVCC} -std=c++20 -O3 -DNDEBUG ${gencode} -I${INCLUDE} -Xptxas -v -c ${SRC} -o ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(log "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed (${rc}):\n${log}")
endif()
string(REGEX MATCHALL "Compiling entry function '[^']*gemm_sm80_kernel[^']*'" kernels "${log}")
list(LENGTH kernels n)
if(n LESS EXPECT)
  message(FATAL_ERROR "expected ${EXPECT} gemm_sm80 kernels in the ptxas output, found ${n}:\n${log}")
endif()
string(REGEX MATCHALL "[1-9][0-9]* bytes spill (stores|loads)" spills "${log}")
if(spills)
  message(FATAL_ERROR "register spills (${spills}):\n${log}")
endif()
message(STATUS "${n} gemm_sm80 kernels, no spills")
