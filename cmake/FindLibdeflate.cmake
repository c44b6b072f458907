# Finds libdeflate (Debian 12: libdeflate-dev), whose CRC-32 boneyard_core uses, and provides the
# imported target Libdeflate::Libdeflate. The package ships a pkg-config file and no CMake config,
# so pkg-config gives the hints and find_path/find_library the files. Installed beside
# boneyardConfig.cmake, which puts this folder on CMAKE_MODULE_PATH so that find_dependency(Libdeflate)
# works from an install prefix too.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_LIBDEFLATE QUIET libdeflate)
endif()
find_path(Libdeflate_INCLUDE_DIR libdeflate.h HINTS ${PC_LIBDEFLATE_INCLUDE_DIRS})
find_library(Libdeflate_LIBRARY NAMES deflate libdeflate HINTS ${PC_LIBDEFLATE_LIBRARY_DIRS})
set(Libdeflate_VERSION ${PC_LIBDEFLATE_VERSION})

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Libdeflate REQUIRED_VARS Libdeflate_LIBRARY Libdeflate_INCLUDE_DIR
  VERSION_VAR Libdeflate_VERSION)
mark_as_advanced(Libdeflate_INCLUDE_DIR Libdeflate_LIBRARY)

if(Libdeflate_FOUND AND NOT TARGET Libdeflate::Libdeflate)
  add_library(Libdeflate::Libdeflate UNKNOWN IMPORTED)
  set_target_properties(Libdeflate::Libdeflate PROPERTIES IMPORTED_LOCATION "${Libdeflate_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Libdeflate_INCLUDE_DIR}")
endif()
