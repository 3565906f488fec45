# cmake -DNVCC=... -DINCLUDE=... -DGENCODE=... -DSRC=... -DOUT=... -DEXPECT=N [-DKERNEL=name] -P check_no_spills.cmake
# Compiles SRC with ptxas -v and fails if any kernel spills, if ptxas reports a warning that marks a
# silent slowdown of wgmma code (C7508/C7509 setmaxnreg ignored, C7510/C7511 wgmma serialized,
# C7514/C7515 wgmma serialized by non-wgmma accumulator reads/writes), or if fewer than EXPECT
# kernels named KERNEL (default gemm_sm80_kernel) were compiled (a check of nothing must not pass).
if(NOT KERNEL)
  set(KERNEL gemm_sm80_kernel)
endif()
separate_arguments(gencode UNIX_COMMAND "${GENCODE}")
execute_process(COMMAND ${NVCC} -std=c++20 -O3 -DNDEBUG ${gencode} -I${INCLUDE} -Xptxas -v -c ${SRC} -o ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(log "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed (${rc}):\n${log}")
endif()
string(REGEX MATCHALL "Compiling entry function '[^']*${KERNEL}[^']*'" kernels "${log}")
list(LENGTH kernels n)
if(n LESS EXPECT)
  message(FATAL_ERROR "expected ${EXPECT} ${KERNEL} kernels in the ptxas output, found ${n}:\n${log}")
endif()
string(REGEX MATCHALL "C75(08|09|10|11|14|15)[^\n]*" slow "${log}")
if(slow)
  message(FATAL_ERROR "ptxas warnings of a silent slowdown (${slow}):\n${log}")
endif()
string(REGEX MATCHALL "[1-9][0-9]* bytes spill (stores|loads)" spills "${log}")
if(spills)
  message(FATAL_ERROR "register spills (${spills}):\n${log}")
endif()
message(STATUS "${n} ${KERNEL} kernels, no spills, no wgmma slowdown warnings")
