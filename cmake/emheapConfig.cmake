# emheapConfig.cmake -- emheap for CMake projects built with emcmake.
#
#   emcmake cmake -S . -B build -Demheap_DIR=node_modules/emheap/cmake
#
#   find_package(emheap REQUIRED CONFIG)
#   target_link_libraries(app PRIVATE emheap::emheap)   # every allocation's stack (exact mode)
#
# Either target also puts runtime/ on the include path of what links it
# (as -isystem), so the app's sources find <emheap.h>: what
# `emheap-config --cflags` gives an emcc command line.
# Programs built with -pthread link emheap::emheap_pthread instead, and
# -sMAIN_MODULE programs emheap::emheap_main_module (its side modules link
# nothing of emheap). A wasm64 project (-m64, or -sMEMORY64, in
# CMAKE_C_FLAGS: Emscripten's toolchain file then makes pointers 8 bytes)
# gets the wasm64 runtime under the same names, built on first use with the
# project's emcc; it has no emheap_main_module (no position-independent
# wasm64 runtime: docs/compatibility.md). C++
# programs that catch exceptions need
# -fexceptions at compile and at link (Emscripten's rule, emheap's too).
#
# The runtime's files are link dependencies of every target that uses them
# (INTERFACE_LINK_DEPENDS), so rebuilding emheap relinks the app. Emscripten's
# toolchain file searches packages only inside its sysroot, so find_package
# needs emheap_DIR. The files come from bin/emheap-config --print-dir: a
# checkout's build/ folder (run `make` there), or in an npm install a cache
# that emheap-config builds on first use with this project's emcc.
cmake_minimum_required(VERSION 3.13)

get_filename_component(_emheap_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
find_program(EMHEAP_NODE NAMES node nodejs NO_CMAKE_FIND_ROOT_PATH)
if(NOT EMHEAP_NODE)
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "emheap needs node on the PATH (Emscripten needs it too)")
  return()
endif()

set(_emheap_emcc "${CMAKE_C_COMPILER}")
if(NOT _emheap_emcc)
  set(_emheap_emcc "${CMAKE_CXX_COMPILER}")
endif()
set(_emheap_w64 "")
set(_emheap_w64_flag "")
if(CMAKE_SIZEOF_VOID_P EQUAL 8)
  set(_emheap_w64 "64")
  set(_emheap_w64_flag "--wasm64")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "EMCC=${_emheap_emcc}" "${EMHEAP_NODE}" "${_emheap_root}/bin/emheap-config" --print-dir
    ${_emheap_w64_flag}
  OUTPUT_VARIABLE _emheap_dir OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_VARIABLE _emheap_err RESULT_VARIABLE _emheap_rc)
if(NOT _emheap_rc EQUAL 0)
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "emheap-config --print-dir failed: ${_emheap_err}")
  return()
endif()

if(_emheap_w64)
  set(_emheap_objects emheap64.o emheap64-mt.o)
else()
  set(_emheap_objects emheap.o emheap-mt.o emheap-pic.o)
endif()
foreach(_emheap_file ${_emheap_objects} library_emheap.js emheap_page.js)
  if(NOT EXISTS "${_emheap_dir}/${_emheap_file}")
    set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "${_emheap_dir}/${_emheap_file} is missing: run `make` in ${_emheap_root}")
    return()
  endif()
endforeach()

# One INTERFACE target per variant. Objects go on the link line as link
# options: a relocatable object is always linked whole, where an archive
# member defining malloc could be skipped (see runtime/build.js).
function(_emheap_add_target name mt)
  if(TARGET emheap::${name})
    return()
  endif()
  set(objects "${_emheap_dir}/emheap${_emheap_w64}${mt}.o")
  set(library "${_emheap_dir}/library_emheap.js")
  set(page "${_emheap_dir}/emheap_page.js")
  add_library(emheap::${name} INTERFACE IMPORTED)
  set_target_properties(emheap::${name} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_emheap_root}/runtime"
    INTERFACE_LINK_OPTIONS "${objects};SHELL:--js-library \"${library}\";SHELL:--extern-pre-js \"${page}\";--profiling-funcs"
    INTERFACE_LINK_DEPENDS "${objects};${library};${page}")
endfunction()

_emheap_add_target(emheap "")
_emheap_add_target(emheap_pthread "-mt")
if(NOT _emheap_w64)
  _emheap_add_target(emheap_main_module "-pic")
endif()
set(emheap_RUNTIME_DIR "${_emheap_dir}")
set(${CMAKE_FIND_PACKAGE_NAME}_FOUND TRUE)
