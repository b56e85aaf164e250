# SPDX-License-Identifier: MIT
#
# VaccelKernel.cmake - build vaccel compute kernels from CMake with vaccel-cc.
#
#   list(APPEND CMAKE_MODULE_PATH <libdir>/cmake/vaccel)
#   include(VaccelKernel)
#
#   vaccel_add_kernel(scale SOURCES scale_kernel.c)          # scale.elf
#   vaccel_add_kernel(vadd SOURCES vadd_kernel.cpp EMBED)    # linked into a host target
#   target_link_libraries(app PRIVATE vadd)
#
# vaccel_add_kernel(NAME SOURCES file... [EMBED] [OPTIONS opt...]
#                   [INCLUDE_DIRECTORIES dir...] [OUTPUT file])
#
# Without EMBED: a target NAME (built by default) that runs vaccel-cc on
# the sources (C, C++, assembly or RV64 objects) into one kernel module,
# ${CMAKE_CURRENT_BINARY_DIR}/NAME.elf, or OUTPUT; the target's property
# VACCEL_KERNEL_FILE holds its path, for install() or a program's
# definitions.
#
# With EMBED: vaccel-cc --embed=NAME builds the module into a host object,
# and NAME is a static library of that one object: a host target that
# links it declares VACCEL_EMBED_DECLARE(NAME) from <vaccel_embed.h> (the
# library carries the include directory) and loads the module with
# vaccel_module_load(dev, VACCEL_EMBED(NAME), ...).
#
# OPTIONS go to vaccel-cc (-O3, -DN=4, -Wall, -std=c++17, ...), relative
# INCLUDE_DIRECTORIES are taken from the current source directory.
# Dependencies on headers are tracked (vaccel-cc -MD).
#
# vaccel-cc is the cache variable VACCEL_CC if set, else found next to this
# file's installation (<prefix>/bin), through pkg-config's libvaccel
# (its prefix), or in PATH.

if(COMMAND vaccel_add_kernel)
  return()
endif()

if(NOT VACCEL_CC)
  set(_vaccel_hints "${CMAKE_CURRENT_LIST_DIR}/../../../bin")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_get_variable(_vaccel_prefix libvaccel prefix)
    if(_vaccel_prefix)
      list(APPEND _vaccel_hints "${_vaccel_prefix}/bin")
    endif()
  endif()
  find_program(VACCEL_CC vaccel-cc HINTS ${_vaccel_hints}
               DOC "vaccel-cc, the compiler driver of vaccel kernels")
  unset(_vaccel_hints)
  unset(_vaccel_prefix)
endif()
if(NOT VACCEL_CC)
  message(FATAL_ERROR "vaccel-cc not found: install libvaccel (make install) or set VACCEL_CC")
endif()

execute_process(COMMAND "${VACCEL_CC}" --includedir
                OUTPUT_VARIABLE VACCEL_KERNEL_INCLUDE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE _vaccel_rc)
if(NOT _vaccel_rc EQUAL 0 OR NOT VACCEL_KERNEL_INCLUDE_DIR)
  message(FATAL_ERROR "${VACCEL_CC} --includedir failed: is it vaccel-cc?")
endif()
unset(_vaccel_rc)

function(vaccel_add_kernel name)
  cmake_parse_arguments(PARSE_ARGV 1 VK "EMBED" "OUTPUT"
                        "SOURCES;OPTIONS;INCLUDE_DIRECTORIES")
  if(VK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "vaccel_add_kernel(${name}): unknown arguments: ${VK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT VK_SOURCES)
    message(FATAL_ERROR "vaccel_add_kernel(${name}): no SOURCES")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "vaccel_add_kernel(${name}): the name must be a C identifier")
  endif()

  set(sources)
  foreach(src IN LISTS VK_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND sources "${src}")
  endforeach()
  set(includes)
  foreach(dir IN LISTS VK_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND includes "-I${dir}")
  endforeach()

  if(VK_EMBED)
    set(mode "--embed=${name}")
    set(default_output "${CMAKE_CURRENT_BINARY_DIR}/${name}_kernel${CMAKE_C_OUTPUT_EXTENSION}")
    if(NOT CMAKE_C_OUTPUT_EXTENSION)
      set(default_output "${CMAKE_CURRENT_BINARY_DIR}/${name}_kernel.o")
    endif()
  else()
    set(mode)
    set(default_output "${CMAKE_CURRENT_BINARY_DIR}/${name}.elf")
  endif()
  if(VK_OUTPUT)
    get_filename_component(output "${VK_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(output "${default_output}")
  endif()

  set(depfile_args)
  if(NOT CMAKE_VERSION VERSION_LESS 3.20)
    set(depfile_args DEPFILE "${output}.d")
  endif()
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${VACCEL_CC}" ${mode} ${VK_OPTIONS} ${includes}
            -MD -MF "${output}.d" -o "${output}" ${sources}
    DEPENDS ${sources} "${VACCEL_CC}"
    ${depfile_args}
    COMMENT "vaccel-cc ${name}"
    VERBATIM)

  if(VK_EMBED)
    set_source_files_properties("${output}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    add_library(${name} STATIC "${output}")
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
    target_include_directories(${name} INTERFACE "${VACCEL_KERNEL_INCLUDE_DIR}")
  else()
    add_custom_target(${name} ALL DEPENDS "${output}")
  endif()
  set_target_properties(${name} PROPERTIES VACCEL_KERNEL_FILE "${output}")
endfunction()
