#!/usr/bin/env bash
# The Windows tier (ctest windows.wine_tier; .ci/run): runs the Windows build, boneyard.exe, under
# Debian's wine64 on every sample, example, fixture and hostile input that the Linux tests use and
# compares each result with the Linux build's, byte for byte (tests/windows/wine_tier.py).
#
#   tests/windows/run_wine_tier.sh LINUX_BONEYARD WINDOWS_EXE SAMPLES_DIR [FIXTURE_WRITER...]
#
# Skips (exit 77, with the reason) when the Windows build or wine is absent, or when boneyard.exe is
# older than the sources (it would be compared with a newer Linux build); with
# BONEYARD_REQUIRE_WINE=1 (CI) these are failures instead. The wine prefix is made on the first run
# (~15 s, build-windows/wineprefix). BONEYARD_WINE_JOBS (default 2) runs that many cases at once.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
linux=$1 exe=$2 samples=$3
shift 3

skip() {
  if [ "${BONEYARD_REQUIRE_WINE:-0}" = 1 ]; then
    echo "FAIL: $* (BONEYARD_REQUIRE_WINE=1)"
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

[ -f "$exe" ] || skip "no Windows build at $exe (scripts/build-windows-deps.sh, then cmake --preset windows && cmake --build --preset windows)"
wine=""
while IFS= read -r f; do
  if [ -f "$f" ] && [ -x "$f" ]; then wine=$f; break; fi
done < <(dpkg -L wine64 2>/dev/null | grep -E '/wine64$' || true)
[ -n "${BONEYARD_WINE:-}$wine" ] || skip "wine64 is not installed (Debian package wine64; scripts/build-windows-deps.sh installs it)"
# A stale exe would be compared with a newer Linux build: every source must be older than it.
newer=$(find "$root/src" "$root/include" "$root/CMakeLists.txt" "$root/cmake" -newer "$exe" -type f -print -quit)
[ -z "$newer" ] || skip "$exe is older than ${newer#"$root"/}: rebuild it (cmake --build --preset windows)"

writers=()
for w in "$@"; do writers+=(--fixture-writer "$w"); done
work=$(dirname "$exe")/wine-tier
# One wineserver for the whole run (each program otherwise starts and stops its own): kept for
# 60 s after the last program ends.
export WINEPREFIX=${WINEPREFIX:-$root/build-windows/wineprefix}
"$root/scripts/wine.sh" cmd /c exit 0 >/dev/null 2>&1 || true  # makes the prefix on the first run
server=$(dirname "${BONEYARD_WINE:-$wine}")/wineserver
[ -x "$server" ] && "$server" -p60 2>/dev/null || true
exec python3 "$root/tests/windows/wine_tier.py" --linux "$linux" --exe "$exe" --source "$root" --samples "$samples" \
  --work "$work" -j "${BONEYARD_WINE_JOBS:-2}" "${writers[@]}"
