# boneyard_library(NAME SOURCES...): one static library of the installable set.
# NAME is boneyard_<layer> (or `boneyard`, the registry); it is exported and aliased as
# boneyard::<layer> (boneyard::boneyard for the registry), so code in this tree and code using an
# installed boneyard spell a target the same way. Adding a library folder is one call; install()
# and boneyardConfig.cmake pick it up from the BONEYARD_LIBRARIES global property.
function(boneyard_library name)
  add_library(${name} STATIC ${ARGN})
  string(REGEX REPLACE "^boneyard_" "" export_name ${name})
  add_library(boneyard::${export_name} ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
  # PUBLIC: the headers use std::span, so whoever includes them needs C++20 too, whatever their
  # own CMAKE_CXX_STANDARD says.
  target_compile_features(${name} PUBLIC cxx_std_20)
  # Position-independent, so that shared objects (the Python module, a user's plugin) can link them.
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # Private headers are spelled from src/ ("core/byte_reader.h"); the layer check applies to them too.
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  # Our warning flags are for building boneyard, not for its users: no trace in the export.
  target_link_libraries(${name} PRIVATE $<BUILD_INTERFACE:boneyard_warnings>)
  if(BONEYARD_UNITY)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  set_property(GLOBAL APPEND PROPERTY BONEYARD_LIBRARIES ${name})
endfunction()
