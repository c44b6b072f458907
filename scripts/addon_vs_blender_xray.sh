#!/usr/bin/env bash
# The Blender add-on against blender-xray on zombi_1.ogf and its 69 motions, side by side in one
# Blender (docs/performance.md "The Blender add-on"): import and .omf export medians, the add-on's
# import split into conversion, Blender's glTF import and its own work. Needs the set-up build
# (build/boneyard, build/boneyard_io.zip), Debian's blender and the samples in ../shared/samples;
# blender-xray from a checkout outside the repo (BLENDER_XRAY, default ../peers/blender-xray),
# its rows skipped with the reason when absent.
# Usage: scripts/addon_vs_blender_xray.sh [RUNS] [PROFILE_OUTPUT]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BONEYARD_BUILD:-$root/build}
export PATH=/usr/bin:/bin  # Debian's Blender must find Debian's numpy (blender-notes.md)
if ! command -v blender >/dev/null 2>&1; then
  echo "SKIP: blender not installed (apt-get install blender python3-numpy)"; exit 0
fi
user=$(mktemp -d)
trap 'rm -rf "$user"' EXIT
# A private Blender user folder: the add-on is installed there, not into the user's own Blender.
export BLENDER_USER_CONFIG="$user/config" BLENDER_USER_SCRIPTS="$user/scripts" BLENDER_USER_DATAFILES="$user/datafiles"
blender -b --factory-startup --python-exit-code 3 --python scripts/addon_vs_blender_xray.py -- \
  "$build/boneyard_io.zip" "$build/boneyard" "${BONEYARD_SAMPLES:-$root/../shared/samples}" \
  "${BLENDER_XRAY:-$root/../peers/blender-xray}" "$@" 2>&1 | grep -E '^(zombi|\||SKIP|failed|Traceback|  )'
