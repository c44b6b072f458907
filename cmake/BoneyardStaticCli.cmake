# BONEYARD_STATIC_CLI: the Linux CLI is one static executable. It is started fresh for each file
# (the Blender add-on, scripts), and linked dynamically it spent half of its 6.5 ms start-up in the
# dynamic loader and its page faults (mapping and relocating libstdc++, libc and the codecs); a
# one-model `convert` took 32.7 ms against 23.6 ms static (docs/performance.md, issue 30 scope 2). The libraries, their
# tests, the Python module and the installed package keep the shared system libraries: the choice
# is made per program, by its BONEYARD_STATIC_LINK property, when it links.
#
# Needs the static archives beside the shared libraries found by find_package (Debian ships them
# in the same -dev packages) and a C library that links statically (glibc's libc.a); without
# them, or with sanitizers (a static ASan program links but crashes at start), the CLI stays
# dynamic.
include(CheckCXXSourceRuns)

set(boneyard_static_cli_default OFF)
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT BONEYARD_FUZZ
   AND NOT CMAKE_CROSSCOMPILING)
  set(boneyard_static_cli_default ON)
endif()
option(BONEYARD_STATIC_CLI "Link the Linux CLI as a static executable (faster start)" ${boneyard_static_cli_default})

# The static archive beside an imported shared library: libpng16.so -> libpng16.a.
function(boneyard_static_archive_of dep out)
  set(${out} "" PARENT_SCOPE)
  foreach(property IMPORTED_LOCATION IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_RELWITHDEBINFO)
    get_target_property(location ${dep} ${property})
    if(location)
      break()
    endif()
  endforeach()
  if(NOT location MATCHES "\\.so$")
    return()
  endif()
  string(REGEX REPLACE "\\.so$" ".a" archive "${location}")
  if(EXISTS "${archive}")
    set(${out} "${archive}" PARENT_SCOPE)
  endif()
endfunction()

set(BONEYARD_STATIC_CLI_ACTIVE OFF)
if(BONEYARD_STATIC_CLI AND BONEYARD_BUILD_CLI AND CMAKE_CROSSCOMPILING)
  message(STATUS "BONEYARD_STATIC_CLI: not checked when cross-compiling; the CLI is linked dynamically")
elseif(BONEYARD_STATIC_CLI AND BONEYARD_BUILD_CLI)
  # Run, not only linked: with -fsanitize in CMAKE_CXX_FLAGS the link succeeds.
  set(CMAKE_REQUIRED_LINK_OPTIONS -static-pie)
  check_cxx_source_runs("#include <string>
int main() { std::string s(100, 'x'); return s.size() == 100 ? 0 : 1; }" BONEYARD_RUNS_STATIC_PIE)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  set(missing "")
  foreach(dep Squish::Squish PNG::PNG ZLIB::ZLIB Libdeflate::Libdeflate)
    boneyard_static_archive_of(${dep} archive)
    if(NOT archive)
      list(APPEND missing ${dep})
    endif()
  endforeach()
  if(NOT BONEYARD_RUNS_STATIC_PIE)
    message(STATUS "BONEYARD_STATIC_CLI: a -static-pie program does not run here; the CLI is linked dynamically")
  elseif(missing)
    message(STATUS "BONEYARD_STATIC_CLI: no static archive for ${missing}; the CLI is linked dynamically")
  else()
    set(BONEYARD_STATIC_CLI_ACTIVE ON)
  endif()
endif()

# boneyard_link_system_library(TARGET DEP [EXTRA...]): TARGET links the imported system library
# DEP privately. A program of this build that sets BONEYARD_STATIC_LINK links DEP's static archive
# instead, with EXTRA (what the archive needs that the shared library brought along itself). The
# installed package names DEP alone.
function(boneyard_link_system_library target dep)
  boneyard_static_archive_of(${dep} archive)
  if(NOT BONEYARD_STATIC_CLI_ACTIVE OR NOT archive)
    target_link_libraries(${target} PRIVATE ${dep})
    return()
  endif()
  set(static "$<BOOL:$<TARGET_PROPERTY:BONEYARD_STATIC_LINK>>")
  target_link_libraries(${target} PRIVATE "$<BUILD_INTERFACE:$<IF:${static},${archive},${dep}>>"
    "$<INSTALL_INTERFACE:${dep}>")
  foreach(extra IN LISTS ARGN)
    target_link_libraries(${target} PRIVATE "$<BUILD_INTERFACE:$<${static}:${extra}>>")
  endforeach()
endfunction()

# Makes `target` (a program) link statically, when the build can.
function(boneyard_link_statically target)
  if(BONEYARD_STATIC_CLI_ACTIVE)
    set_target_properties(${target} PROPERTIES BONEYARD_STATIC_LINK ON)
    target_link_options(${target} PRIVATE -static-pie)
  endif()
endfunction()
