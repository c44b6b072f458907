#!/usr/bin/env bash
# Cross-builds boneyard's dependencies for Windows x64 (Debian 12's mingw-w64, posix threads) into
# build-windows/deps/ (include/, lib/), for the `windows` CMake preset and
# cmake/toolchain-mingw-w64.cmake:
#   libdeflate, libsquish, libpng  static libraries built from Debian's source packages
#                                  (apt-get source; needs a deb-src entry, added if missing);
#   zlib                           Debian's libz-mingw-w64-dev (in the mingw sysroot, not copied);
#   CLI11, nlohmann-json           their headers copied from Debian's packages, with a small CMake
#                                  package file of our own (Debian's add -isystem /usr/include,
#                                  which puts glibc's headers ahead of mingw's).
# Nothing is downloaded from anywhere but Debian's apt archive. A second run with the same inputs
# (installed packages, this script) does nothing: build-windows/deps/versions.txt is the stamp.
# Options: --force rebuilds. JOBS=N (default 2) sets the build parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build-windows
prefix=$out/deps
srcdir=$out/src
blddir=$out/deps-build
stamp=$prefix/versions.txt
jobs=${JOBS:-2}
host=x86_64-w64-mingw32
toolchain=$root/cmake/toolchain-mingw-w64.cmake
force=0
[ "${1:-}" = "--force" ] && force=1

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
t0=$SECONDS
phase() { echo "== [$((SECONDS - t0)) s] $*"; }

# --- 1. Debian packages -----------------------------------------------------------------------
packages=(g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64
          libz-mingw-w64-dev  # zlib for Windows: libz.a in /usr/x86_64-w64-mingw32/lib
          wine64              # runs the Windows programs (scripts/wine.sh)
          dpkg-dev xz-utils   # apt-get source: dpkg-source unpacks and patches the sources
          cmake ninja-build make
          libcli11-dev nlohmann-json3-dev)  # the header-only libraries staged below
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  phase "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

pkgver() { dpkg-query -W -f='${Version}' "$1"; }
# What the build depends on, apart from the source versions (recorded in the stamp after the build).
inputs="script $(sha256sum "$0" | cut -c1-16)
toolchain-file $(sha256sum "$toolchain" | cut -c1-16)
g++-mingw-w64-x86-64-posix $(pkgver g++-mingw-w64-x86-64-posix)
libz-mingw-w64-dev $(pkgver libz-mingw-w64-dev)
libcli11-dev $(pkgver libcli11-dev)
nlohmann-json3-dev $(pkgver nlohmann-json3-dev)"

if ((!force)) && [ -f "$stamp" ] && [ "$(sed -n '/^# sources/q;p' "$stamp")" = "$inputs" ] \
   && [ -f "$prefix/lib/libdeflate.a" ] && [ -f "$prefix/lib/libsquish.a" ] && [ -f "$prefix/lib/libpng16.a" ] \
   && [ -f "$prefix/include/CLI/CLI.hpp" ] && [ -f "$prefix/include/nlohmann/json.hpp" ]; then
  echo "Windows dependencies up to date in ${prefix#"$root"/} ($(sed -n '/^# sources/,$p' "$stamp" | tail -n +2 | tr '\n' ',' | sed 's/,$//; s/,/, /g')); --force rebuilds"
  exit 0
fi

# --- 2. deb-src entries ------------------------------------------------------------------------
# apt-get source needs them. They are derived from the Debian entries of the machine's own apt
# sources (deb822 .sources files, or one-line sources.list), so they point at the same archive.
has_deb_src() {
  grep -qsiE '^Types:.*\bdeb-src\b' /etc/apt/sources.list.d/*.sources \
    || grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list
}
src_added=0
if ! has_deb_src; then
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    target=/etc/apt/sources.list.d/debian-src.sources
    # Each stanza whose Types has `deb` (and is not disabled) -> the same stanza with Types: deb-src.
    entries=$(awk '
      function flush() {
        if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled !~ /^[ \t]*no/ && uris != "") {
          printf "%sTypes: deb-src\nURIs:%s\nSuites:%s\n", sep, uris, suites
          if (comps != "") printf "Components:%s\n", comps
          if (signed != "") printf "Signed-By:%s\n", signed
          sep = "\n"
        }
        types = uris = suites = comps = signed = enabled = ""
      }
      /^[ \t]*$/ { flush(); next }
      /^#/ { next }
      { key = tolower($0); sub(/:.*/, "", key); val = $0; sub(/^[^:]*:/, "", val) }
      key == "types" { types = val } key == "uris" { uris = val } key == "suites" { suites = val }
      key == "components" { comps = val } key == "signed-by" { signed = val } key == "enabled" { enabled = val }
      END { flush() }' /etc/apt/sources.list.d/debian.sources)
  elif grep -qsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
    target=/etc/apt/sources.list.d/debian-src.list
    entries=$(sed -nE 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list)
  else
    echo "no Debian apt source found to derive a deb-src entry from" >&2
    exit 1
  fi
  [ -n "$entries" ] || { echo "no enabled 'deb' entry to derive a deb-src entry from" >&2; exit 1; }
  phase "adding $target (deb-src, same archive as the binary entries)"
  printf '# Added by boneyard scripts/build-windows-deps.sh: source packages for the Windows cross-build.\n%s\n' \
    "$entries" | $sudo tee "$target" >/dev/null
  src_added=1
fi
if ((src_added)) || [ -z "$(apt-cache showsrc libdeflate 2>/dev/null)" ]; then
  phase "apt-get update"
  $sudo apt-get update -qq
fi

# --- 3. Source packages --------------------------------------------------------------------------
# fetch PKG: unpacks Debian's source package PKG (patches applied) in build-windows/src/PKG-VERSION
# and sets $fetched_dir and $fetched_version. The versions apt knows are tried newest first: one
# whose files are missing from the archive (seen with libpng1.6's security update) is skipped.
mkdir -p "$srcdir" "$blddir" "$prefix"
fetch() {
  local pkg=$1 ver dir tmp
  local versions
  versions=$(apt-cache showsrc "$pkg" | awk -v p="$pkg" '/^Package:/ { ok = ($2 == p) } ok && /^Version:/ { print $2 }' \
             | sort -uVr)
  [ -n "$versions" ] || { echo "apt knows no source package $pkg" >&2; return 1; }
  for ver in $versions; do
    dir=$srcdir/$pkg-$ver
    if [ -f "$dir/.unpacked" ]; then
      fetched_dir=$dir fetched_version=$ver
      echo "   $pkg $ver: already unpacked"
      return 0
    fi
    rm -rf "$dir" && mkdir -p "$dir"
    # apt's sandbox user must be able to write the download folder, or apt warns.
    chown _apt "$dir" 2>/dev/null || true
    if (cd "$dir" && apt-get source -qq "$pkg=$ver" >"$dir.log" 2>&1); then
      tmp=$(find "$dir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
      [ -n "$tmp" ] || { echo "apt-get source $pkg=$ver unpacked nothing" >&2; return 1; }
      mv "$tmp" "$dir/src"
      touch "$dir/.unpacked"
      fetched_dir=$dir fetched_version=$ver
      echo "   $pkg $ver"
      return 0
    fi
    echo "   $pkg $ver: could not be fetched ($(grep -m1 -E '^(E|W):' "$dir.log" || tail -n 1 "$dir.log")), trying an older version"
    rm -rf "$dir"
  done
  echo "no version of $pkg could be fetched (see $srcdir/$pkg-*.log)" >&2
  return 1
}

phase "apt-get source libdeflate libsquish libpng1.6"
fetch libdeflate; deflate_dir=$fetched_dir/src deflate_version=$fetched_version
fetch libsquish;  squish_dir=$fetched_dir/src  squish_version=$fetched_version
fetch libpng1.6;  png_dir=$fetched_dir/src     png_version=$fetched_version

rm -f "$stamp"
rm -rf "${prefix:?}"/{bin,include,lib,share}
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"

# --- 4. libdeflate: its own Makefile ---------------------------------------------------------------
# AR is given explicitly: the Makefile derives it from CC and does not understand the -posix suffix.
# On MinGW, libdeflatestatic.lib is the static library (libdeflate.lib would be the DLL's import
# library); it is installed as libdeflate.a, the name find_library(deflate) takes for a static one.
phase "libdeflate $deflate_version"
deflate_make=(make -C "$deflate_dir" -j"$jobs" CC="$host-gcc-posix" AR="$host-ar" DISABLE_SHARED=1 CFLAGS="-O2")
nice -n 10 "${deflate_make[@]}" clean >/dev/null
nice -n 10 "${deflate_make[@]}" libdeflatestatic.lib >"$blddir/libdeflate.log" 2>&1 \
  || { tail -n 30 "$blddir/libdeflate.log"; exit 1; }
install -m 644 "$deflate_dir/libdeflatestatic.lib" "$prefix/lib/libdeflate.a"
install -m 644 "$deflate_dir/libdeflate.h" "$prefix/include/"
deflate_upstream=$(sed -nE 's/^#define LIBDEFLATE_VERSION_STRING[[:space:]]+"([^"]+)".*/\1/p' "$deflate_dir/libdeflate.h")
cat >"$prefix/lib/pkgconfig/libdeflate.pc" <<EOF
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: libdeflate
Description: Fast implementation of DEFLATE, zlib, and gzip (static, cross-built for Windows)
Version: $deflate_upstream
Libs: -L\${libdir} -ldeflate
Cflags: -I\${includedir}
EOF

# --- 5./6. libsquish and libpng: their CMake, with our toolchain ---------------------------------
cmake_dep() {  # NAME SOURCE_DIR CMAKE_ARGS...
  local name=$1 src=$2
  shift 2
  rm -rf "${blddir:?}/$name"
  if ! { nice -n 10 cmake -S "$src" -B "$blddir/$name" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
           -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib "$@" \
         && nice -n 10 cmake --build "$blddir/$name" -j"$jobs" \
         && cmake --install "$blddir/$name"; } >"$blddir/$name.log" 2>&1; then
    tail -n 30 "$blddir/$name.log"
    echo "building $name failed: $blddir/$name.log" >&2
    exit 1
  fi
}
# No OpenMP: a static exe would need libgomp.
phase "libsquish $squish_version"
cmake_dep libsquish "$squish_dir" -DBUILD_SHARED_LIBS=OFF -DBUILD_SQUISH_WITH_OPENMP=OFF -DBUILD_SQUISH_EXTRA=OFF
# Against the mingw zlib; ZLIB_USE_STATIC_LIBS (also set by the toolchain) takes libz.a, not libz.dll.a.
phase "libpng $png_version"
cmake_dep libpng "$png_dir" -DPNG_SHARED=OFF -DPNG_STATIC=ON -DPNG_EXECUTABLES=OFF -DPNG_TESTS=OFF \
  -DZLIB_USE_STATIC_LIBS=ON -DSKIP_INSTALL_PROGRAMS=ON -DSKIP_INSTALL_FILES=ON

# --- 7. Header-only libraries ----------------------------------------------------------------------
# Their headers from Debian's packages, and a CMake package file each that names only this prefix.
phase "CLI11 $(pkgver libcli11-dev), nlohmann-json $(pkgver nlohmann-json3-dev): headers"
cp -a /usr/include/CLI /usr/include/nlohmann "$prefix/include/"
header_package() {  # NAME TARGET VERSION
  local dir=$prefix/lib/cmake/$1
  mkdir -p "$dir"
  cat >"$dir/$1Config.cmake" <<EOF
# Written by scripts/build-windows-deps.sh: $2, header-only, from the headers staged in this prefix.
if(NOT TARGET $2)
  get_filename_component(_staged_include "\${CMAKE_CURRENT_LIST_DIR}/../../../include" ABSOLUTE)
  add_library($2 INTERFACE IMPORTED)
  set_target_properties($2 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "\${_staged_include}"
    INTERFACE_COMPILE_FEATURES cxx_std_11)
  unset(_staged_include)
endif()
EOF
  cat >"$dir/$1ConfigVersion.cmake" <<EOF
set(PACKAGE_VERSION "$3")
if(PACKAGE_FIND_VERSION AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF
}
upstream() { pkgver "$1" | sed -E 's/^[0-9]+://; s/[+~-].*$//'; }
header_package CLI11 CLI11::CLI11 "$(upstream libcli11-dev)"
header_package nlohmann_json nlohmann_json::nlohmann_json "$(upstream nlohmann-json3-dev)"

{
  echo "$inputs"
  echo "# sources (Debian source packages)"
  echo "libdeflate $deflate_version"
  echo "libsquish $squish_version"
  echo "libpng1.6 $png_version"
} >"$stamp"
phase "done: ${prefix#"$root"/}"
ls -l "$prefix/lib"/*.a
