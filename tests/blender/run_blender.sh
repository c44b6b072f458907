#!/usr/bin/env bash
# run_blender.sh SCRIPT CLI SOURCE_DIR SAMPLES_DIR SCRATCH [ARGS...]: runs SCRIPT in headless
# Blender (exit 77 = skipped, with the reason on stdout). SCRATCH is emptied first.
set -euo pipefail
script=$1
scratch=$5
# Debian's Blender must find Debian's numpy, not a python3 that comes first on PATH (pyenv).
export PATH=/usr/bin:/bin
if ! command -v blender >/dev/null 2>&1; then
  echo "SKIP: blender not installed (apt-get install blender python3-numpy)"; exit 77
fi
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "SKIP: python3-numpy not installed (Blender's glTF add-on needs it)"; exit 77
fi
rm -rf "$scratch"
mkdir -p "$scratch"
# Blender's user folders inside the scratch folder: installing an add-on (addon_install) or saving
# preferences never touches the user's own Blender, and parallel tests never share one.
export BLENDER_USER_CONFIG="$scratch/blender_user/config" BLENDER_USER_SCRIPTS="$scratch/blender_user/scripts"
export BLENDER_USER_DATAFILES="$scratch/blender_user/datafiles"
shift
# --python-exit-code: without it Blender exits 0 even when the script raises.
exec blender -b --factory-startup --python-exit-code 3 --python "$script" -- "$@"
