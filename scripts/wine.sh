#!/usr/bin/env bash
# Runs a Windows program under Debian's wine64: scripts/wine.sh PROGRAM.exe ARGS...
# (also the CMAKE_CROSSCOMPILING_EMULATOR of cmake/toolchain-mingw-w64.cmake). Debian puts the
# wine64 launcher off PATH (/usr/lib/wine/wine64 in Debian 12): it is found through `dpkg -L wine64`,
# or taken from $BONEYARD_WINE. The wine prefix defaults to build-windows/wineprefix (made on the
# first run, ~15 s); wine's debug messages are off unless WINEDEBUG is set.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WINEPREFIX=${WINEPREFIX:-$root/build-windows/wineprefix}
export WINEDEBUG=${WINEDEBUG:--all}
# No Mono/Gecko installer dialogs when the prefix is made (there is no display to show them).
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree=d;mshtml=d}

wine=${BONEYARD_WINE:-}
if [ -z "$wine" ]; then
  while IFS= read -r f; do
    if [ -f "$f" ] && [ -x "$f" ]; then wine=$f; break; fi
  done < <(dpkg -L wine64 2>/dev/null | grep -E '/wine64$' || true)
fi
if [ -z "$wine" ]; then
  echo "wine.sh: no wine64 launcher (Debian package wine64: scripts/build-windows-deps.sh installs it)" >&2
  exit 127
fi
if (($# == 0)); then
  echo "usage: scripts/wine.sh PROGRAM.exe [ARGS...]" >&2
  exit 2
fi

# The prefix is made once, under a lock, so that parallel runs (ctest -j) do not race to make it.
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  (
    flock 9
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
      echo "wine.sh: making the wine prefix $WINEPREFIX" >&2
      "$wine" wineboot --init >/dev/null 2>&1 || true
      "$(dirname "$wine")/wineserver" -w 2>/dev/null || true
    fi
  ) 9>"$WINEPREFIX.lock"
fi
exec "$wine" "$@"
