#!/usr/bin/env bash
# Times the round trip of one model as a modder runs it: `convert MODEL -o x.glb` (with the motions
# its refs name), then `convert x.glb -o y.ogf --template MODEL` and `convert x.glb -o y.ogf`.
# Each command RUNS times (default 5); prints the median and the spread of CPU time (user + sys)
# and the median peak RSS of each direction. The machine is shared: compare medians, and ratios
# measured side by side.
# Usage: bench/roundtrip_time.sh BONEYARD MODEL [RUNS]
set -euo pipefail
cli=$1 model=$2 runs=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() {  # label, command...
  local label=$1; shift
  : > "$tmp/times"
  for ((i = 0; i < runs; ++i)); do
    /usr/bin/time -f "%U %S %M" -o "$tmp/one" "$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    cat "$tmp/one" >> "$tmp/times"
  done
  python3 - "$label" "$tmp/times" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[2]) if line.strip()]
cpu = sorted(float(u) + float(s) for u, s, _ in rows)
rss = statistics.median(int(m) for _, _, m in rows) / 1024
print(f"{sys.argv[1]:<28} CPU median {statistics.median(cpu):.3f} s (min {cpu[0]:.3f}, max {cpu[-1]:.3f}), peak RSS median {rss:.0f} MB")
PY
}
"$cli" convert "$model" -o "$tmp/x.glb" > /dev/null 2>&1
echo "$(basename "$model"): $(stat -c %s "$model") bytes; .glb $(stat -c %s "$tmp/x.glb") bytes; $runs runs each"
measure "export (.ogf -> .glb)" "$cli" convert "$model" -o "$tmp/x.glb"
measure "import with template" "$cli" convert "$tmp/x.glb" -o "$tmp/t.ogf" --template "$model"
cmp -s "$tmp/t.ogf" "$model" && echo "  (byte-identical to the model)" || echo "  (NOT byte-identical)"
measure "import without template" "$cli" convert "$tmp/x.glb" -o "$tmp/n.ogf"
