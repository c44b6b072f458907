# install(): the libraries registered by boneyard_library(), their headers, the CLI when built,
# and a CMake package, so that `find_package(boneyard CONFIG)` + `boneyard::boneyard` works
# from the install prefix (examples/consumer).
include(CMakePackageConfigHelpers)

get_property(boneyard_libraries GLOBAL PROPERTY BONEYARD_LIBRARIES)
set(boneyard_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/boneyard)

install(TARGETS ${boneyard_libraries} EXPORT boneyardTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# view.h belongs to boneyard_view, which is built with the CLI and not installed.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/boneyard DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "view.h" EXCLUDE)
if(TARGET boneyard_cli)
  install(TARGETS boneyard_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT boneyardTargets NAMESPACE boneyard:: DESTINATION ${boneyard_cmake_dir})

# The packages the exported targets name. Static libraries carry their private dependencies too
# (as $<LINK_ONLY:...>), so every link item counts, not only the public ones. A package is found
# under the namespace of its imported target (ZLIB::ZLIB -> ZLIB): true of all of ours. A system
# library also linked statically by the CLI is named as $<INSTALL_INTERFACE:NS::NAME>
# (boneyard_link_system_library).
set(boneyard_dependencies "")
foreach(lib IN LISTS boneyard_libraries)
  get_target_property(items ${lib} LINK_LIBRARIES)
  foreach(item IN LISTS items)
    if(item MATCHES "^(\\$<INSTALL_INTERFACE:)?([A-Za-z0-9_]+)::" AND NOT CMAKE_MATCH_2 STREQUAL "boneyard")
      list(APPEND boneyard_dependencies ${CMAKE_MATCH_2})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES boneyard_dependencies)
set(BONEYARD_FIND_DEPENDENCIES "")
foreach(dep IN LISTS boneyard_dependencies)
  string(APPEND BONEYARD_FIND_DEPENDENCIES "find_dependency(${dep})\n")
endforeach()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/boneyardConfig.cmake.in
  ${PROJECT_BINARY_DIR}/boneyardConfig.cmake INSTALL_DESTINATION ${boneyard_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/boneyardConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
# The find modules of dependencies without a CMake package of their own (libsquish, libdeflate) go
# with the package; boneyardConfig.cmake puts their folder on CMAKE_MODULE_PATH.
install(FILES ${PROJECT_BINARY_DIR}/boneyardConfig.cmake ${PROJECT_BINARY_DIR}/boneyardConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindSquish.cmake ${PROJECT_SOURCE_DIR}/cmake/FindLibdeflate.cmake
  DESTINATION ${boneyard_cmake_dir})
