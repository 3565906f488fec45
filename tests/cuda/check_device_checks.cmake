# cmake -DOFF_PTX=<ptx without TESSERA_DEVICE_CHECKS> -DON_PTX=<ptx with it> -P check_device_checks.cmake
# Device checks are opt-in: without the macro the kernel's PTX has no vprintf call and no trap,
# with it it has both.
file(READ ${OFF_PTX} off)
file(READ ${ON_PTX} on)
foreach(what vprintf trap)
  string(FIND "${off}" "${what}" at_off)
  string(FIND "${on}" "${what}" at_on)
  if(NOT at_off EQUAL -1)
    message(FATAL_ERROR "device checks are on without TESSERA_DEVICE_CHECKS: '${what}' in ${OFF_PTX}")
  endif()
  if(at_on EQUAL -1)
    message(FATAL_ERROR "TESSERA_DEVICE_CHECKS did not turn the device checks on: no '${what}' in ${ON_PTX}")
  endif()
endforeach()
message(STATUS "device checks: none without TESSERA_DEVICE_CHECKS, vprintf + trap with it")
