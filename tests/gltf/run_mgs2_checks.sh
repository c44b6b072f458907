#!/usr/bin/env bash
# ctest driver for MGS2 glTF output: writes the fixture and builder-made models, converts each to
# .glb and .gltf with the CLI, and checks them with the Khronos glTF validator (0 errors, 0
# warnings) and three.js GLTFLoader (joint, vertex and triangle counts from the native packets);
# then converts each .glb back and requires the same bytes as the builder's layout of the input.
# The packets name null_msk.bmp (StrCode24 0x00B7E31E): a null_msk.ctxr in --textures is found by
# that id, decoded and embedded (or written beside a .gltf).
# Each Master Collection model's .cmdl (written by a rewrite) goes to .glb on its model too: the
# validator again, and three.js must find the model's joints and triangles.
# The .mar fixtures (WRITE_MAR_FIXTURES) go to glTF with the models that play them and alone on a
# model's skeleton: the validator again, and three.js must find the skeleton and every motion.
# Exit 77 (= skipped) when node_modules is absent.
# Usage: run_mgs2_checks.sh BONEYARD_CLI WRITE_GLTF_FIXTURES SOURCE_DIR WRITE_MAR_FIXTURES
set -euo pipefail
cli=$1 writer=$2 src=$3 mar_writer=$4
if [[ ! -d "$src/node_modules/gltf-validator" || ! -d "$src/node_modules/three" ]]; then
  echo "SKIP: $src/node_modules is missing; run 'npm ci' in $src to enable the glTF validator and three.js checks"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$writer" "$tmp"
mkdir "$tmp/tex"
# A 4x4 Master Collection texture (BGRA8, two levels), as SeaLouse and CtxrTool lay it out.
printf 'TXTR\0\0\0\7\0\4\0\4\0\1\0\0\0\0\1\0' >"$tmp/tex/null_msk.ctxr"
{ head -c 3 /dev/zero; printf '\377%.0s' 1 2 3 4 5 6 7 8 9 10; head -c 5 /dev/zero; printf '\2\0'; head -c 88 /dev/zero
  printf '\0\0\0\100'; for _ in $(seq 16); do printf '\40\100\200\377'; done; head -c 28 /dev/zero
  printf '\0\0\0\20'; for _ in 1 2 3 4; do printf '\40\100\200\377'; done; head -c 12 /dev/zero
} >>"$tmp/tex/null_msk.ctxr"
"$cli" validate "$tmp/tex/null_msk.ctxr" >/dev/null || { echo "FAIL: the .ctxr fixture does not validate"; exit 1; }
fail=0
while read -r name joints verts tris; do
  ext=${name##*.}
  images=0  # the builder-made models (cube, ribbon8) name no texture
  [[ $name == standard_* ]] && images=1
  for container in glb gltf; do
    out="$tmp/${name%.*}_$ext.$container"
    if ! "$cli" convert "$tmp/$name" -o "$out" --textures "$tmp/tex"; then
      echo "FAIL: boneyard convert $name -o $container"
      fail=1
      continue
    fi
    if ! node "$src/tests/gltf/check_gltf.mjs" "$out" --joints "$joints" --animations 0 \
        --vertices "$verts" --triangles "$tris" --images "$images"; then
      echo "FAIL: $out"
      fail=1
    fi
  done
  # Back to the model: with the input as template, the very same bytes.
  back="$tmp/back_$name"
  if ! "$cli" convert "$tmp/${name%.*}_$ext.glb" -o "$back" --template "$tmp/$name" || ! cmp -s "$back" "$tmp/$name"; then
    echo "FAIL: $name -> .glb -> $ext is not byte-exact"
    fail=1
  fi
done <"$tmp/manifest.txt"
mkdir -p "$tmp/mc"
while read -r name joints verts tris; do
  "$cli" convert "$tmp/$name" -o "$tmp/mc/$name" || { echo "FAIL: rewrite of $name"; fail=1; continue; }
  cmdl="$tmp/mc/_win/${name%.*}.cmdl"
  [[ -f "$cmdl" ]] || continue  # a PS2 model has none
  out="$tmp/mc/${name%.*}_cmdl.glb"
  if ! "$cli" convert "$cmdl" -o "$out" || ! node "$src/tests/gltf/check_gltf.mjs" "$out" --joints "$joints" --animations 0 \
      --triangles "$tris"; then
    echo "FAIL: $cmdl -> .glb"
    fail=1
  fi
done <"$tmp/manifest.txt"
mkdir -p "$tmp/mar"
"$mar_writer" "$tmp/mar"
while read -r model mar; do
  for container in glb gltf; do
    out="$tmp/mar/${model%.*}_${mar%.*}.$container"
    if ! "$cli" convert "$tmp/mar/$model" --mar "$tmp/mar/$mar" -o "$out" ||
        ! node "$src/tests/gltf/check_gltf.mjs" "$out" --joints 6 --animations 4; then
      echo "FAIL: $model with $mar -> $container"
      fail=1
    fi
  done
  out="$tmp/mar/${mar%.*}_on_${model%.*}.glb"
  if ! "$cli" convert "$tmp/mar/$mar" --skeleton "$tmp/mar/$model" -o "$out" --names "$tmp/mar/motions.txt" ||
      ! node "$src/tests/gltf/check_gltf.mjs" "$out" --joints 6 --animations 4; then
    echo "FAIL: $mar on $model -> .glb"
    fail=1
  fi
done <<'PAIRS'
branching.kms ps2.mar
branching_mc.kms mc.mar
branching.evm mc.mar
PAIRS
exit $fail
