#!/usr/bin/env bash
# What a behaviour-preserving change must leave alone: runs one boneyard CLI over every shipped
# example, every fuzz seed and every real sample (../shared/samples, when present) and keeps what
# it printed and wrote: `info`, `dump --raw`, `validate --info` (stdout, stderr, exit code), the
# export to .glb, its conversion back with the input as template (models and motions), and a
# lossless rewrite. Run it with the CLI before and after a change and compare the two folders:
#   scripts/compare_outputs.sh OLD_BONEYARD /tmp/before
#   scripts/compare_outputs.sh build/boneyard /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
# Paths in messages are the inputs' as given (relative to the repository), so the folders compare.
set -uo pipefail
cli=$(realpath "$1")
out=$2
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"

inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(
  { find examples tests/fuzz_seeds -type f \( -name '*.ogf' -o -name '*.omf' -o -name '*.kms' -o -name '*.evm' \
        -o -name '*.cmdl' -o -name '*.dds' -o -name '*.ctxr' -o -name '*.glb' \)
    [ -d ../shared/samples ] && find ../shared/samples -type f \( -name '*.ogf' -o -name '*.omf' -o -name '*.dds' \
        -o -name '*.object' -o -name '*.skl' -o -name '*.skls' -o -name '*.bones' -o -name '*.anm' \)
  } | sort)

run() {  # run KEY COMMAND...: stdout, stderr and exit code of COMMAND under $out/KEY.*
  local key=$1
  shift
  "$@" >"$out/$key.stdout" 2>"$out/$key.stderr"
  echo $? >"$out/$key.rc"
}

n=0
for f in "${inputs[@]}"; do
  key=$(printf '%s' "$f" | tr '/.' '__')
  ext=${f##*.}
  run "$key.info" "$cli" info "$f"
  run "$key.dump" "$cli" dump --raw "$f"
  run "$key.validate" "$cli" validate --info "$f"
  case $ext in
    ogf | omf | kms | evm | cmdl)
      run "$key.glb" "$cli" convert "$f" -o "$out/$key.glb" --force
      case $ext in
        kms | evm) run "$key.rewrite" "$cli" convert "$f" -o "$out/$key.rewrite.$ext" --no-cmdl --force ;;
        *) run "$key.rewrite" "$cli" convert "$f" -o "$out/$key.rewrite.$ext" --force ;;
      esac
      if [ -f "$out/$key.glb" ] && [ "$ext" != cmdl ]; then
        run "$key.back" "$cli" convert "$out/$key.glb" -o "$out/$key.back.$ext" --template "$f" --force
      fi
      ;;
    dds | ctxr) run "$key.png" "$cli" texture "$f" -o "$out/$key.png" ;;
  esac
  n=$((n + 1))
done
# Messages name this run's folders: make them comparable between runs and checkouts.
grep -rlF -e "$out" -e "$PWD" "$out" 2>/dev/null | while IFS= read -r g; do sed -i "s#$out#OUT#g; s#$PWD#REPO#g" "$g"; done
echo "$n inputs, $(find "$out" -type f | wc -l) results in $out"
