#!/usr/bin/env bash
# boneyard against blender-xray on the SDK's motions (issue 38, docs/performance.md "The SDK's
# motions: conversions"): .skls -> .omf of the largest real .skls and .omf -> .skls of zombi's
# motions and of the 101 MiB benchmark .omf, medians of wall and CPU time, side by side in one
# Blender (scripts/sdk_vs_blender_xray.py). Needs the release build (build/boneyard,
# build/bench/bench_omf), Debian's blender, the samples in ../shared/samples, blender-xray from a
# checkout outside the repo (BLENDER_XRAY, default ../peers/blender-xray) and the hands model
# (HANDS_OGF, default: wpn_hand_01.ogf taken with git from the public mod's snapshot in
# BONEYARD_MIRROR, never copied into the repository).
# Usage: scripts/sdk_vs_blender_xray.sh [RUNS] [RUNS_OF_THE_101_MIB_FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BONEYARD_BUILD:-$root/build}
export PATH=/usr/bin:/bin  # Debian's Blender must find Debian's numpy (blender-notes.md)
command -v blender >/dev/null 2>&1 || { echo "SKIP: blender not installed"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hands=${HANDS_OGF:-}
if [ -z "$hands" ]; then
  mirror=${BONEYARD_MIRROR:-$root/../.mirror}/TheParaziT+x-ray-monolith-guns-gamedata/repo
  [ -d "$mirror" ] || { echo "SKIP: no HANDS_OGF and no snapshot at $mirror"; exit 0; }
  hands=$work/wpn_hand_01.ogf
  git -C "$mirror" show HEAD:gamedata/meshes/dynamics/weapons/wpn_hand/wpn_hand_01.ogf >"$hands"
fi
"$build/bench/bench_omf" --make "$work/big.omf" 101 >/dev/null
export BLENDER_USER_CONFIG="$work/config" BLENDER_USER_SCRIPTS="$work/scripts" BLENDER_USER_DATAFILES="$work/datafiles"
blender -b --factory-startup --python-exit-code 3 --python scripts/sdk_vs_blender_xray.py -- \
  "$build/boneyard" "${BONEYARD_SAMPLES:-$root/../shared/samples}" "${BLENDER_XRAY:-$root/../peers/blender-xray}" \
  "$work/out" "${1:-5}" "$work/big.omf" "$hands" "${2:-1}" 2>&1 | grep -E '^(\||ratio|SKIP|failed|Traceback|  )'
