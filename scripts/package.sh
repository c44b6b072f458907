#!/usr/bin/env bash
# Release archives in dist/, from the builds that exist (build/ and build-windows/build/):
#   boneyard-VERSION-windows-x64.zip       boneyard.exe, README, licences of what it contains
#   boneyard-VERSION-linux-x64.tar.gz      boneyard, README, licences
#   boneyard_io-VERSION-windows-x64.zip    the Blender add-on with boneyard.exe in boneyard_io/bin/
#   boneyard_io-VERSION-linux-x64.zip      the Blender add-on with boneyard in boneyard_io/bin/
# VERSION is the CMake project's (project(VERSION) in CMakeLists.txt), the one `boneyard --version`
# prints. BONEYARD_DIST, BONEYARD_LINUX_EXE, BONEYARD_WINDOWS_EXE override the paths (the tests).
# A system whose build is missing is skipped with a note (exit 1 if neither exists).
# The licence texts are Debian's copyright files of the packages the programs were built from.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's/^project(boneyard VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "package.sh: no project(boneyard VERSION ...) in CMakeLists.txt" >&2; exit 1; }
dist=${BONEYARD_DIST:-$root/dist}
linux_exe=${BONEYARD_LINUX_EXE:-$root/build/boneyard}
windows_exe=${BONEYARD_WINDOWS_EXE:-$root/build-windows/build/boneyard.exe}
mkdir -p "$dist"
# No archive of an earlier run may pass for this one's.
rm -f "$dist/boneyard-$version-windows-x64.zip" "$dist/boneyard-$version-linux-x64.tar.gz" \
  "$dist/boneyard_io-$version-windows-x64.zip" "$dist/boneyard_io-$version-linux-x64.zip"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# Debian's copyright file of a package, or of a source package unpacked by build-windows-deps.sh.
copyright() {
  local f
  for f in "$root"/build-windows/src/"$1"-*/src/debian/copyright "/usr/share/doc/$1/copyright"; do
    [ -f "$f" ] && { cat "$f"; return 0; }
  done
  echo "package.sh: no copyright file for $1" >&2
  return 1
}

# licences DIR NAME:PACKAGE...: one file per library in DIR, and an index.
licences() {
  local dir=$1
  shift
  mkdir -p "$dir"
  {
    echo "boneyard $version contains these libraries; their licences are in this folder, taken from"
    echo "Debian's copyright files of the packages it was built from."
    echo
  } >"$dir/README.txt"
  local entry name package
  for entry in "$@"; do
    name=${entry%%:*} package=${entry#*:}
    copyright "$package" >"$dir/$name.txt"
    echo "  $name.txt    Debian package $package" >>"$dir/README.txt"
  done
}

# The user-facing README of an archive: what it is, how to run it, where the documentation is.
readme() {
  local system=$1 exe=$2
  cat <<EOF
boneyard $version for $system x64

boneyard converts S.T.A.L.K.E.R. (X-Ray .ogf/.omf, .dds) and Metal Gear Solid 2 (.kms/.evm/.cmdl,
.ctxr) files to and from glTF 2.0, losslessly. It is a command-line program: open a terminal in this
folder and run, for example,

  $exe info model.ogf
  $exe convert model.ogf -o model.glb
  $exe convert model.glb -o model.omf --template model.omf

'$exe --help' lists the commands, '$exe COMMAND --help' their options. The Blender add-on is the
separate boneyard_io-$version-$(echo "$system" | tr '[:upper:]' '[:lower:]')-x64.zip (Blender: Edit >
Preferences > Add-ons > Install...); it carries its own copy of this program.

The full documentation is in the project's docs/ folder (docs/cli.md, docs/windows.md).
Licences of the libraries inside the program: licences/.
EOF
}

# addon_zip OUT EXE: the add-on's Python files with EXE in boneyard_io/bin/.
addon_zip() {
  local out=$1 exe=$2 dir=$stage/addon
  rm -rf "$dir"
  mkdir -p "$dir/boneyard_io/bin"
  cp "$root"/blender/boneyard_io/*.py "$dir/boneyard_io/"
  cp "$exe" "$dir/boneyard_io/bin/"
  chmod 755 "$dir/boneyard_io/bin/$(basename "$exe")"
  cp -r "$3" "$dir/boneyard_io/bin/licences"
  rm -f "$out"
  (cd "$dir" && cmake -E tar cf "$out" --format=zip --mtime=2000-01-01 boneyard_io)
  echo "wrote ${out#"$root"/} ($(du -k "$out" | cut -f1) KiB)"
}

made=0
if [ -f "$windows_exe" ]; then
  w=$stage/boneyard-$version-windows-x64
  mkdir -p "$w"
  cp "$windows_exe" "$w/boneyard.exe"
  readme Windows boneyard.exe | sed 's/$/\r/' >"$w/README.txt"
  # boneyard.exe links these statically (-static): the C++ and C runtimes of GCC and mingw-w64
  # (winpthreads is part of mingw-w64), zlib for libpng, and the libraries of the sources.
  licences "$w/licences" libpng:libpng1.6 libdeflate:libdeflate libsquish:libsquish zlib:libz-mingw-w64 \
    CLI11:libcli11-dev nlohmann-json:nlohmann-json3-dev gcc-runtime:gcc-mingw-w64-base \
    mingw-w64-runtime-and-winpthreads:mingw-w64-common
  out=$dist/boneyard-$version-windows-x64.zip
  rm -f "$out"
  (cd "$stage" && cmake -E tar cf "$out" --format=zip --mtime=2000-01-01 "$(basename "$w")")
  echo "wrote ${out#"$root"/} ($(du -k "$out" | cut -f1) KiB)"
  addon_zip "$dist/boneyard_io-$version-windows-x64.zip" "$windows_exe" "$w/licences"
  made=1
else
  echo "package.sh: no Windows build at $windows_exe: Windows archives not made" >&2
fi

if [ -f "$linux_exe" ]; then
  l=$stage/boneyard-$version-linux-x64
  mkdir -p "$l"
  cp "$linux_exe" "$l/boneyard"
  strip "$l/boneyard" 2>/dev/null || true
  readme Linux ./boneyard >"$l/README.txt"
  if readelf -d "$linux_exe" | grep -q '(NEEDED)'; then
    # Linked dynamically (BONEYARD_STATIC_CLI off or not possible): the system's shared libpng,
    # libdeflate, libsquish and zlib; CLI11 and nlohmann-json are compiled in.
    {
      echo
      echo "It needs the shared libraries libpng16, libdeflate, libsquish (with libgomp) and zlib (Debian 12:"
      echo "sudo apt-get install libpng16-16 libdeflate0 libsquish0 zlib1g libgomp1)."
    } >>"$l/README.txt"
    licences "$l/licences" CLI11:libcli11-dev nlohmann-json:nlohmann-json3-dev
  else
    # One static program (cmake/BoneyardStaticCli.cmake): the GNU C library, GCC's C++ and OpenMP
    # runtimes, and the libraries of the sources are inside it.
    {
      echo
      echo "It is one static program: it needs no other libraries."
    } >>"$l/README.txt"
    licences "$l/licences" libpng:libpng16-16 libdeflate:libdeflate0 libsquish:libsquish0 zlib:zlib1g \
      CLI11:libcli11-dev nlohmann-json:nlohmann-json3-dev glibc:libc6 gcc-runtime:libstdc++6 libgomp:libgomp1
  fi
  out=$dist/boneyard-$version-linux-x64.tar.gz
  tar -C "$stage" --sort=name --owner=0 --group=0 --mtime=2000-01-01 -czf "$out" "$(basename "$l")"
  echo "wrote ${out#"$root"/} ($(du -k "$out" | cut -f1) KiB)"
  addon_zip "$dist/boneyard_io-$version-linux-x64.zip" "$l/boneyard" "$l/licences"
  made=1
else
  echo "package.sh: no Linux build at $linux_exe: Linux archives not made" >&2
fi
((made)) || exit 1
