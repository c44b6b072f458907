#!/usr/bin/env bash
# Reads, validates and rewrites every .skl, .skls and .anm under FOLDER with a boneyard CLI, and
# counts: files read, files without validation errors, rewrites identical to the input (cmp), and
# findings by severity and message. For real game data outside the repository, e.g. a mod's
# gamedata extracted with `git archive` (docs/xray-sdk.md "Real files"):
#   scripts/check_sdk_motions.sh build/boneyard /tmp/mod/gamedata
# Exit 1 when a file fails to read or to rewrite byte for byte.
set -uo pipefail
cli=$(realpath "$1")
folder=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=0 read_ok=0 valid=0 identical=0
: >"$work/findings"
while IFS= read -r -d '' f; do
  files=$((files + 1))
  ext=${f##*.}
  ext=${ext,,}
  out="$work/rewrite.$ext"
  "$cli" validate --info "$f" >"$work/validate.out" 2>&1
  rc=$?
  if ((rc <= 1)) && ! grep -q ": error: \(cannot\|not a\|truncated\|unsupported\)" "$work/validate.out"; then
    read_ok=$((read_ok + 1))
  else
    echo "unreadable: $f"; cat "$work/validate.out"
  fi
  ((rc == 0)) && valid=$((valid + 1))
  # One line per finding: its severity and message (the place and values stripped).
  sed -nE 's/^.*: (error|warning|info)( at byte [0-9]+ \(0x[0-9A-F]+\))?( in [^:]*)?: ([^(]*).*$/\1: \4/p' "$work/validate.out" >>"$work/findings"
  if "$cli" convert "$f" -o "$out" --force >/dev/null 2>"$work/convert.err" && cmp -s "$f" "$out"; then
    identical=$((identical + 1))
  else
    echo "not rewritten byte for byte: $f"; cat "$work/convert.err"
  fi
  rm -f "$out"
done < <(find "$folder" -type f \( -iname '*.skl' -o -iname '*.skls' -o -iname '*.anm' \) -print0 | sort -z)
echo "$files files: $read_ok read, $valid without errors, $identical rewritten byte for byte"
if [ -s "$work/findings" ]; then
  echo "findings (count, severity: message):"
  sort "$work/findings" | uniq -c | sort -rn
fi
((read_ok == files && identical == files))
