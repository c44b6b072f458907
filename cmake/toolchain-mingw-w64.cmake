# Cross-compiling for Windows x64 with Debian 12's mingw-w64 (GCC 12, posix threads: std::thread,
# std::mutex). Used by the `windows` preset; the dependencies come from build-windows/deps/, which
# scripts/build-windows-deps.sh fills. Programs run under wine (scripts/wine.sh) when CMake needs
# to run one (add_test, try_run).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(BONEYARD_MINGW_HOST x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${BONEYARD_MINGW_HOST}-gcc-posix)
set(CMAKE_CXX_COMPILER ${BONEYARD_MINGW_HOST}-g++-posix)
set(CMAKE_RC_COMPILER ${BONEYARD_MINGW_HOST}-windres)
# CMake derives binutils' names from the compiler's, which the -posix suffix defeats: without these
# it would take the host's ar/ranlib, whose archive index has no symbols of Windows objects.
set(CMAKE_AR ${BONEYARD_MINGW_HOST}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${BONEYARD_MINGW_HOST}-ranlib CACHE FILEPATH "")
set(CMAKE_NM ${BONEYARD_MINGW_HOST}-nm CACHE FILEPATH "")
set(CMAKE_OBJCOPY ${BONEYARD_MINGW_HOST}-objcopy CACHE FILEPATH "")
set(CMAKE_OBJDUMP ${BONEYARD_MINGW_HOST}-objdump CACHE FILEPATH "")
set(CMAKE_STRIP ${BONEYARD_MINGW_HOST}-strip CACHE FILEPATH "")
set(CMAKE_C_COMPILER_AR ${BONEYARD_MINGW_HOST}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_CXX_COMPILER_AR ${BONEYARD_MINGW_HOST}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_C_COMPILER_RANLIB ${BONEYARD_MINGW_HOST}-gcc-ranlib-posix CACHE FILEPATH "")
set(CMAKE_CXX_COMPILER_RANLIB ${BONEYARD_MINGW_HOST}-gcc-ranlib-posix CACHE FILEPATH "")

# Headers, libraries and CMake packages only from the mingw sysroot and the cross-built prefix:
# never the host's /usr (its glibc headers and Linux libraries). Programs (awk, python, node) are
# the host's.
get_filename_component(BONEYARD_WINDOWS_DEPS "${CMAKE_CURRENT_LIST_DIR}/../build-windows/deps" ABSOLUTE)
set(CMAKE_FIND_ROOT_PATH /usr/${BONEYARD_MINGW_HOST} ${BONEYARD_WINDOWS_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config (FindLibdeflate takes its hints from it) sees only the Windows .pc files too.
set(ENV{PKG_CONFIG_LIBDIR} "${BONEYARD_WINDOWS_DEPS}/lib/pkgconfig:/usr/${BONEYARD_MINGW_HOST}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# The sysroot has zlib both as libz.a and as libz.dll.a (the DLL's import library), and FindZLIB
# takes the import library unless told. (CMAKE_FIND_LIBRARY_SUFFIXES cannot be set here: CMake's
# Windows-GNU platform file, read after this file, puts .dll.a first again. build-windows/deps
# holds static libraries only.)
set(ZLIB_USE_STATIC_LIBS ON)

# A standalone exe: -static links libstdc++, libgcc and winpthread statically (-static-libgcc
# -static-libstdc++ alone still need libwinpthread-1.dll); what is left are Windows' own DLLs.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")

# add_test() and try_run() run the Windows programs through wine.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
  get_filename_component(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/../scripts/wine.sh" ABSOLUTE)
endif()
