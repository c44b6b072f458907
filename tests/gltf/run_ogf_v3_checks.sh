#!/usr/bin/env bash
# ctest driver for OGF v3 glTF output: converts the hand-laid v3 fixtures (every vertex format,
# the three IK layouts, both motion layouts, a progressive visual, a model without IK data, refs
# and a bit-31 header) and, when the samples are present, blender-xray's real v3 model, and checks
# each .glb and .gltf with the Khronos glTF validator (0 errors, 0 warnings) and three.js
# GLTFLoader (joint, animation, vertex and triangle counts from the native files); assimp (a third
# reader) loads the animated ones with their animations. Exit 77 (= skipped) without node_modules.
# Usage: run_ogf_v3_checks.sh BONEYARD_CLI WRITE_OGF_V3_FIXTURES SOURCE_DIR SAMPLES_DIR
set -euo pipefail
cli=$1 writer=$2 src=$3 samples=$4/xray
if [[ ! -d "$src/node_modules/gltf-validator" || ! -d "$src/node_modules/three" ]]; then
  echo "SKIP: $src/node_modules is missing; run 'npm ci' in $src to enable the glTF validator and three.js checks"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$writer" "$tmp" >/dev/null
fail=0
check() {  # input joints animations vertices triangles
  local in=$1 base
  base=$(basename "${in%.ogf}")
  for ext in glb gltf; do
    if ! "$cli" convert "$in" -o "$tmp/$base.$ext" 2>"$tmp/err"; then
      echo "FAIL: boneyard convert $in -o $base.$ext: $(cat "$tmp/err")"
      fail=1
      continue
    fi
    if ! node "$src/tests/gltf/check_gltf.mjs" "$tmp/$base.$ext" --joints "$2" --animations "$3" --vertices "$4" \
        --triangles "$5"; then
      echo "FAIL: $base.$ext"
      fail=1
    fi
  done
}
check "$tmp/v3_normal_fvf.ogf" 0 0 3 1
check "$tmp/v3_hierarchy.ogf" 0 0 6 2
check "$tmp/v3_progressive.ogf" 0 0 4 2              # full detail: the vertex split applied
check "$tmp/v3_anim_floats_ik0.ogf" 2 2 3 1          # S_IKDATA_0, 0x12 + 0xE
check "$tmp/v3_anim_floats.ogf" 2 2 3 1              # S_IKDATA, 0x12 + 0xE
check "$tmp/v3_anim_8bit_2link_ik2.ogf" 2 2 3 1      # S_IKDATA_2, 2-link, 0x14 v3 + 0x1A
check "$tmp/v3_rigid_no_ik.ogf" 2 0 3 1              # no bind pose: identity rest poses (warned)
check "$tmp/v3_refs_bit31.ogf" 2 0 3 1               # refs not found (warned), bit-31 header
if [[ -f "$samples/sdk/blender-xray/test_fmt_ogf_v3.ogf" ]]; then
  check "$samples/sdk/blender-xray/test_fmt_ogf_v3.ogf" 1 0 24 12   # rigid: the mesh on its bone
else
  echo "note: the v3 sample is absent ($samples): only the fixtures were checked"
fi
if command -v assimp >/dev/null 2>&1; then
  for f in v3_anim_floats v3_anim_8bit_2link_ik2; do
    info=$(timeout 60 assimp info "$tmp/$f.glb" 2>&1) || { echo "FAIL: assimp info $f.glb"; fail=1; continue; }
    if ! grep -q "^Animations: *2\$" <<<"$info" || ! grep -q "^Animation Channels: *4\$" <<<"$info"; then
      echo "FAIL: assimp reads $f.glb with other counts (expected 2 animations, 4 node channels)"
      grep -E "^Animation" <<<"$info"
      fail=1
    fi
  done
else
  echo "note: assimp not installed (Debian assimp-utils): its check skipped"
fi
exit $fail
