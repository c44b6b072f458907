#!/usr/bin/env bash
# ctest driver: converts every real OGF/OMF pair with the CLI and checks each output with the
# Khronos glTF validator (0 errors, 0 warnings) and three.js GLTFLoader (joint and animation
# counts), and the textures the models get from the samples' textures folder (the engine's
# gamedata/meshes + gamedata/textures layout, found without --textures). Exit 77 (= skipped) when
# node_modules or the samples are absent.
# Usage: run_external_checks.sh BONEYARD_CLI SOURCE_DIR SAMPLES_DIR
set -euo pipefail
cli=$1 src=$2 samples=$3/xray
if [[ ! -d "$src/node_modules/gltf-validator" || ! -d "$src/node_modules/three" ]]; then
  echo "SKIP: $src/node_modules is missing; run 'npm ci' in $src to enable the glTF validator and three.js checks"
  exit 77
fi
if [[ ! -d "$samples" ]]; then
  echo "SKIP: real sample files not found at $samples"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m=$tmp/meshes
# The meshes tree the refs expect, as symlinks (the samples are never copied).
link() { mkdir -p "$(dirname "$m/$2")"; ln -s "$samples/$1" "$m/$2"; }
link cop/headflash_hud.ogf gwr/food/headflash/headflash_hud.ogf
link cop/headflash_hud_anims.omf gwr/food/headflash/headflash_hud_anims.omf
link cop/medkit_exo_hud.ogf gwr/equipment/medkit_exo/medkit_exo_hud.ogf
link cop/medkit_exo_anims.omf gwr/equipment/medkit_exo/medkit_exo_anims.omf
link soc/zombi_1.ogf monsters/zombi/zombi_1.ogf
link soc/zombi_animation.omf monsters/zombi_animation.omf
link soc/wpn_binoculars_hud.ogf weapons/binoculars/wpn_binoculars_hud.ogf
link soc/wpn_binoculars_hud_animations.omf weapons/binoculars/wpn_binoculars_hud_animations.omf
link soc/rat_1.ogf monsters/rat/rat_1.ogf
link cop/cat_weak.ogf monsters/cat/cat_weak.ogf
link cop/handflash_hud.ogf dynamics/devices/dev_torch/handflash_hud.ogf
ln -s "$samples/textures" "$tmp/textures"  # beside meshes/, as gamedata/textures is

fail=0
# Expected counts come from the native files: vertices = every child's 0x3 count, triangles = full
# detail (slide window 0 of progressive children, notes 9.3; else index count / 3).
check() {  # input output joints animations vertices triangles [--images N] [extra convert args...]
  local in=$1 out=$2 joints=$3 anims=$4 verts=$5 tris=$6 images=()
  shift 6
  if [[ ${1:-} == --images ]]; then images=(--images "$2"); shift 2; fi
  if ! "$cli" convert "$in" -o "$out" "$@"; then
    echo "FAIL: boneyard convert $in"
    fail=1
    return
  fi
  if ! node "$src/tests/gltf/check_gltf.mjs" "$out" --joints "$joints" --animations "$anims" \
      --vertices "$verts" --triangles "$tris" "${images[@]}"; then
    echo "FAIL: $out"
    fail=1
  fi
}
check "$m/gwr/food/headflash/headflash_hud.ogf" "$tmp/headflash.glb" 1 1 4 2 --images 1          # wpn\lenses (DXT5)
check "$m/gwr/equipment/medkit_exo/medkit_exo_hud.ogf" "$tmp/medkit_exo.glb" 8 5 90 76 --images 0  # not among the samples
check "$m/monsters/zombi/zombi_1.ogf" "$tmp/zombi.glb" 41 69 1546 1806 --images 1
check "$m/monsters/zombi/zombi_1.ogf" "$tmp/zombi.gltf" 41 69 1546 1806 --images 1   # act_zombie_6.png beside it
check "$m/weapons/binoculars/wpn_binoculars_hud.ogf" "$tmp/binoculars.glb" 44 5 7620 9456 --images 0   # not among the samples
check "$m/monsters/rat/rat_1.ogf" "$tmp/rat.glb" 29 45 894 298 --images 1             # act\act_Rat
check "$m/monsters/cat/cat_weak.ogf" "$tmp/cat_weak_textured.glb" 30 0 1857 1858 --images 1
check "$m/dynamics/devices/dev_torch/handflash_hud.ogf" "$tmp/handflash_textured.glb" 8 0 1984 2052 --images 1
check "$samples/soc/zombi_animation.omf" "$tmp/zombi_omf.glb" 41 69 0 0 --skeleton "$samples/soc/zombi_1.ogf"
check "$samples/cop/wpn_hand_knife_hud_animation.omf" "$tmp/knife_flat.glb" 42 18 0 0
check "$samples/cop/wpn_hand_knife_hud_animation.omf" "$tmp/knife_float.glb" 42 18 0 0 --float-rotations
# Models whose OMFs are not among the samples (skeleton + meshes), and type 10 (rigid) models.
check "$samples/cs/stalker_lesnik_1.ogf" "$tmp/lesnik.glb" 61 0 6798 8180   # 4-link (id 4), progressive
check "$samples/cop/cat_weak.ogf" "$tmp/cat_weak.glb" 30 0 1857 1858         # 2-link (id 2), progressive
check "$samples/cop/flush_dead.ogf" "$tmp/flush_dead.glb" 26 0 2419 3327     # type 10, 3-link (id 3)
check "$samples/cop/protein.ogf" "$tmp/protein.glb" 1 0 24 12                 # type 10, rigid mesh on its bone
check "$samples/cop/handflash_hud.ogf" "$tmp/handflash.glb" 8 0 1984 2052     # protected (bit-31 chunks), 3 children
check "$samples/tools/test_fmt_ogf_gl.ogf" "$tmp/test_fmt_ogf_gl.glb" 3 0 56 44
# assimp (Debian assimp-utils), a third independent reader: the models with meshes and motions
# load with every animation and channel (one rotation and one translation channel per joint).
if command -v assimp >/dev/null 2>&1; then
  assimp_check() {  # file animations channels
    local info
    info=$(timeout 120 assimp info "$1" 2>&1) || { echo "FAIL: assimp info $1"; echo "$info" | tail -3; fail=1; return; }
    if ! grep -q "^Animations: *$2\$" <<<"$info" || ! grep -q "^Animation Channels: *$3\$" <<<"$info"; then
      echo "FAIL: assimp reads $1 with other counts (expected $2 animations, $3 channels)"
      grep -E "^Animation" <<<"$info"
      fail=1
    fi
  }
  assimp_check "$tmp/zombi.glb" 69 2829
  assimp_check "$tmp/rat.glb" 45 1305
  assimp_check "$tmp/binoculars.glb" 5 220
else
  echo "note: assimp not installed (Debian assimp-utils): its check skipped"
fi
exit $fail
