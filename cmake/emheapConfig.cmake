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
# nothing of emheap). C++
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
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "EMCC=${_emheap_emcc}" "${EMHEAP_NODE}" "${_emheap_root}/bin/emheap-config" --print-dir
  OUTPUT_VARIABLE _emheap_dir OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_VARIABLE _emheap_err RESULT_VARIABLE _emheap_rc)
if(NOT _emheap_rc EQUAL 0)
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "emheap-config --print-dir failed: ${_emheap_err}")
  return()
endif()

foreach(_emheap_file emheap.o emheap-mt.o emheap-pic.o library_emheap.js emheap_page.js)
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
  set(objects "${_emheap_dir}/emheap${mt}.o")
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
_emheap_add_target(emheap_main_module "-pic")
set(emheap_RUNTIME_DIR "${_emheap_dir}")
set(${CMAKE_FIND_PACKAGE_NAME}_FOUND TRUE)
