# tessera_jit_headers_library(<target> <include_dir>): a static library <target> that holds the
# device-usable headers of <include_dir>/tessera for the JIT (include/tessera/jit/embedded.hpp),
# generated at build time by tessera_embed_headers.cmake; whoever links it compiles with
# TESSERA_JIT_EMBEDDED_HEADERS=1, which makes jit::compile hand those headers to NVRTC from memory.
# Used by the project's tessera::jit and by the Python package's standalone build.
#
# When it is generated again: when a header's content changes (each is a dependency), and when one
# is added or removed (the glob is checked at each build, CONFIGURE_DEPENDS, and the list of names
# is a dependency written only when it changes).
set(tessera_embed_headers_script "${CMAKE_CURRENT_LIST_DIR}/tessera_embed_headers.cmake")

function(tessera_jit_headers_library target include_dir)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS "${include_dir}/tessera/*.hpp" "${include_dir}/tessera/*.cuh"
       "${include_dir}/tessera/*.h")
  list(FILTER headers EXCLUDE REGEX "/tessera/(jit|runtime|tools)/")
  list(SORT headers)
  set(list_file "${CMAKE_CURRENT_BINARY_DIR}/${target}.list")
  string(REPLACE ";" "\n" names "${headers}")
  set(old "")
  if(EXISTS "${list_file}")
    file(READ "${list_file}" old)
  endif()
  if(NOT old STREQUAL "${names}\n")
    file(WRITE "${list_file}" "${names}\n")
  endif()
  set(source "${CMAKE_CURRENT_BINARY_DIR}/${target}.cpp")
  add_custom_command(
    OUTPUT "${source}"
    COMMAND "${CMAKE_COMMAND}" "-DINCLUDE_DIR=${include_dir}" "-DOUTPUT=${source}" -P "${tessera_embed_headers_script}"
    DEPENDS ${headers} "${list_file}" "${tessera_embed_headers_script}"
    COMMENT "Embedding Tessera's headers for the JIT (${target})"
    VERBATIM)
  add_library(${target} STATIC "${source}")
  target_include_directories(${target} PRIVATE "${include_dir}")
  target_compile_features(${target} PRIVATE cxx_std_20)
  # Linked into shared objects too (the Python package's modules).
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_definitions(${target} INTERFACE TESSERA_JIT_EMBEDDED_HEADERS=1)
endfunction()
