#!/usr/bin/env bash
# boneyard as a library, checked from outside (run by test.sh after the release tests; needs the
# release build in build/):
#  1. install build/ into a temporary prefix, build examples/consumer against it with
#     find_package, rename a motion of examples/wave.omf, and check the result with the CLI;
#  2. the library alone configures without CLI11;
#  3. a project that add_subdirectory()s the source tree and sets no C++ standard compiles a
#     boneyard user (C++20 comes from the libraries' PUBLIC compile feature).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== package: install, build examples/consumer against the prefix, rename a motion"
cmake --install build --prefix "$tmp/prefix" >/dev/null
cmake -S examples/consumer -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer" examples/wave.omf wave hello "$tmp/renamed.omf"
build/boneyard omf list "$tmp/renamed.omf" | grep -Eq '^ +0  hello ' \
  || { build/boneyard omf list "$tmp/renamed.omf"; echo "package: motion 0 was not renamed to hello"; exit 1; }
build/boneyard validate "$tmp/renamed.omf"

echo "== package: the library configures without CLI11"
cmake --no-warn-unused-cli -S . -B "$tmp/no-cli" -G Ninja -DBONEYARD_CLI=OFF -DBONEYARD_TESTS=OFF -DBONEYARD_BENCH=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON >/dev/null
if ninja -C "$tmp/no-cli" -t targets all | grep -q boneyard_cli; then
  echo "package: BONEYARD_CLI=OFF still builds the CLI"; exit 1
fi

# Only the user's translation unit is compiled: it is what proves the compile feature reaches
# users, and building the libraries again here would double the stage's time.
echo "== package: add_subdirectory() with no CMAKE_CXX_STANDARD"
mkdir "$tmp/sub"
cp examples/consumer/main.cpp "$tmp/sub/"
cat >"$tmp/sub/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(boneyard_subdirectory_user LANGUAGES CXX)
add_subdirectory("$src" boneyard)
add_executable(user main.cpp)
target_link_libraries(user PRIVATE boneyard::boneyard)
CMAKE
# Not top-level: no CLI, tests or benchmarks, so neither CLI11 nor GTest may be looked for.
cmake --no-warn-unused-cli -S "$tmp/sub" -B "$tmp/sub/build" -G Ninja -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON >/dev/null
ninja -C "$tmp/sub/build" CMakeFiles/user.dir/main.cpp.o >/dev/null
echo "package: ok"
