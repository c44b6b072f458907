#!/usr/bin/env bash
# Side-by-side CLI figures for the README's issue 14 table: for each boneyard executable given
# (e.g. the code before a change, built in a second tree, and the current one), interleaved run by
# run so that machine load hits all of them alike, on the proxies of bench/make_proxies.sh:
#   * `convert --recursive` of the corpus proxy with -j 1 and -j 2;
#   * `convert` of the hands proxy (hands.omf -> .glb).
# Each figure is the median of RUNS runs: wall s, CPU s (user + sys), peak RSS MB (/usr/bin/time),
# output bytes.
# Usage: bench/compare_cli.sh PROXIES_DIR RUNS NAME=BONEYARD [NAME=BONEYARD...]
set -euo pipefail
proxies=$1 runs=$2
shift 2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/boneyard_compare.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
results=$scratch/results.tsv

measure() {  # name case command...
  local name=$1 case=$2 out=$3
  shift 3
  rm -rf "$out"
  # (a batch with failed items exits 1: time then adds a line before its figures)
  /usr/bin/time -f '%e %U %S %M' -o "$scratch/time" "$@" >/dev/null 2>"$scratch/stderr" || true
  local bytes
  bytes=$(du -sb "$out" | cut -f1)
  read -r wall user sys rss <<<"$(tail -n 1 "$scratch/time")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$case" "$wall" "$user" "$sys" "$rss" "$bytes" >>"$results"
  rm -rf "$out"
}

for ((r = 1; r <= runs; ++r)); do
  for spec in "$@"; do
    name=${spec%%=*} cli=${spec#*=}
    for j in 1 2; do
      measure "$name" "batch-j$j" "$scratch/out" "$cli" convert --recursive "$proxies/corpus" -o "$scratch/out" -j "$j"
    done
    measure "$name" "hands" "$scratch/hands.glb" "$cli" convert "$proxies/hands.omf" -o "$scratch/hands.glb"
  done
done

echo "raw (code, case, wall s, user s, sys s, peak RSS KB, output bytes):"
cat "$results"
echo
python3 - "$results" <<'EOF'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, case, wall, user, sys_, rss, out = line.rstrip('\n').split('\t')
    rows[(case, name)].append((float(wall), float(user) + float(sys_), float(user), float(sys_), int(rss) / 1024, int(out)))
print('| case | code | wall s | CPU s (user + sys) | CPU / first code | peak RSS MB | output bytes | runs |')
print('|---|---|---|---|---|---|---|---|')
cases = list(dict.fromkeys(c for c, _ in rows))
names = list(dict.fromkeys(n for _, n in rows))
for case, name in ((c, n) for c in cases for n in names):
    v = rows[(case, name)]
    med = lambda i: statistics.median(x[i] for x in v)
    # Run r of each code ran back to back, so the ratio within a run cancels most of the load.
    ratio = statistics.median(x[1] / y[1] for x, y in zip(v, rows[(case, names[0])]))
    print(f'| {case} | {name} | {med(0):.2f} | {med(1):.2f} ({med(2):.2f} + {med(3):.2f}) | {ratio:.2f} | {med(4):.0f} | {med(5):,.0f} | {len(v)} |')
EOF

