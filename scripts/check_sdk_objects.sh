#!/usr/bin/env bash
# Reads, validates and rewrites every .object and .bones under FOLDER with a boneyard CLI, and takes
# each valid object through glTF and back (with itself as template: the same bytes; without: an
# object that validates). Counts files read, without errors, rewritten byte for byte, and round
# trips; lists findings by severity and message. For real game data outside the repository, e.g. a
# mod's gamedata extracted with `git archive` (docs/xray-object.md section 8):
#   scripts/check_sdk_objects.sh build/boneyard /tmp/mod/gamedata
# Exit 1 when a file fails to read, to rewrite byte for byte or to come back through glTF.
set -uo pipefail
cli=$(realpath "$1")
folder=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=0 read_ok=0 valid=0 identical=0 template=0 fresh=0 gltf=0
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
  sed -nE 's/^.*: (error|warning|info)( at byte [0-9]+ \(0x[0-9A-F]+\))?( in [^:]*)?: ([^(]*).*$/\1: \4/p' "$work/validate.out" >>"$work/findings"
  if "$cli" convert "$f" -o "$out" --force >/dev/null 2>"$work/convert.err" && cmp -s "$f" "$out"; then
    identical=$((identical + 1))
  else
    echo "not rewritten byte for byte: $f"; cat "$work/convert.err"
  fi
  rm -f "$out"
  if [ "$ext" = object ] && ((rc == 0)); then
    gltf=$((gltf + 1))
    if "$cli" convert "$f" -o "$work/m.glb" >/dev/null 2>&1 &&
        "$cli" convert "$work/m.glb" -o "$work/t.object" --template "$f" >/dev/null 2>"$work/t.err" && cmp -s "$f" "$work/t.object"; then
      template=$((template + 1))
    else
      echo "not identical through glTF with its template: $f"; cat "$work/t.err"
    fi
    if "$cli" convert "$work/m.glb" -o "$work/n.object" >/dev/null 2>"$work/n.err" && "$cli" validate "$work/n.object" >/dev/null; then
      fresh=$((fresh + 1))
    else
      echo "no valid object through glTF without a template: $f"; cat "$work/n.err"
    fi
    rm -f "$work/m.glb" "$work/t.object" "$work/n.object"
  fi
done < <(find "$folder" -type f \( -iname '*.object' -o -iname '*.bones' \) -print0 | sort -z)
echo "$files files: $read_ok read, $valid without errors, $identical rewritten byte for byte;" \
     "of $gltf valid objects through glTF: $template identical with the template, $fresh valid without"
if [ -s "$work/findings" ]; then
  echo "findings (count, severity: message):"
  sort "$work/findings" | uniq -c | sort -rn
fi
((read_ok == files && identical == files && template == gltf && fresh == gltf))
