#!/usr/bin/env bash
# Times the Blender add-on on the zombi sample (docs/performance.md "The Blender add-on"): import and unedited
# export medians. Needs the set-up build (build/boneyard, build/boneyard_io.zip), Debian's blender
# and the samples in ../shared/samples. Usage: scripts/blender_addon_timing.sh [IMPORTS] [EXPORTS]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/bin:/bin  # Debian's Blender must find Debian's numpy (blender-notes.md)
user=$(mktemp -d)
trap 'rm -rf "$user"' EXIT
# A private Blender user folder: the add-on is installed there, not into the user's own Blender.
export BLENDER_USER_CONFIG="$user/config" BLENDER_USER_SCRIPTS="$user/scripts" BLENDER_USER_DATAFILES="$user/datafiles"
blender -b --factory-startup --python-exit-code 3 --python scripts/blender_addon_timing.py -- \
  "$PWD/build/boneyard_io.zip" "$PWD/build/boneyard" "$PWD/../shared/samples" "$@" 2>&1 |
  grep -E '^(zombi|  )'
