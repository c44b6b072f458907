#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages, npm modules from the lock file), builds boneyard
# into build/ and runs it on the example shipped in examples/ (a skinned arm and its motions -> glTF).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
          libcli11-dev nlohmann-json3-dev libtinygltf-dev libdeflate-dev zlib1g-dev
          libsquish-dev libpng-dev  # textures (src/texture): BCn codec, PNG
          python3-pil  # Pillow: the reference DDS decoder of tests/texture
          libgtest-dev libgmock-dev libbenchmark-dev
          blender python3-numpy  # blender: the round trip users make through a DCC tool (tests/blender)
          assimp-utils  # a third independent glTF reader in tests/gltf/run_external_checks.sh
          pybind11-dev python3-dev python3-pytest)  # the Python module (src/python) and its tests
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
command -v python3 >/dev/null 2>&1 || packages+=(python3)  # tests/hostile and examples/make_examples.py

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Headless Chromium for the `boneyard view` browser test (tests/view/browser_test.mjs). Optional:
# that test skips without it, so a failed install must not stop the set-up.
optional=()
command -v chromium >/dev/null 2>&1 || optional+=(chromium)
if ((${#missing[@]} + ${#optional[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]} ${optional[*]}"
  $sudo apt-get update -qq || ((${#missing[@]} == 0))  # once, and only when something is missing
  if ((${#missing[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  if ((${#optional[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${optional[@]}" \
      || echo "chromium could not be installed: the boneyard view browser test will be skipped"
  fi
fi

# External glTF checkers (Khronos validator, three.js) and playwright-core used by the tests; three.js
# is also bundled into `boneyard view` at build time (without it the build skips that command).
if [ -f package-lock.json ] && command -v npm >/dev/null 2>&1; then
  npm ci --no-audit --no-fund --loglevel=error || echo "npm ci failed: glTF checks will be skipped"
fi

cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"

echo
echo "== build/boneyard info examples/wave_arm.ogf examples/wave.omf"
build/boneyard info examples/wave_arm.ogf examples/wave.omf
echo "== build/boneyard validate examples/wave_arm.ogf examples/wave.omf"
build/boneyard validate examples/wave_arm.ogf examples/wave.omf
echo "== build/boneyard convert examples/wave_arm.ogf -o build/wave_arm.glb"
build/boneyard convert examples/wave_arm.ogf -o build/wave_arm.glb
echo "wrote build/wave_arm.glb: the skinned arm (3 bones, 40 vertices) with its 2 motions, ready for Blender or any glTF viewer"
