#!/usr/bin/env bash
# The folder figure of the README and docs/performance.md: `boneyard texture FOLDER -o OUT -j 2` on a game texture folder of
# about 1 GB, made of symlinks to the sample textures in the mix of public game data (62 % of the
# bytes DXT5, the rest DXT1). The inputs are the same few files, so they come from the page cache;
# the PNGs are written to disk. Not part of the tests (it takes a minute).
# Usage: scripts/texture_folder_benchmark.sh [BONEYARD] [SAMPLES_DIR] [MB]
set -euo pipefail
cli=${1:-build/boneyard}
samples=${2:-../shared/samples}/xray/textures
mb=${3:-1024}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dxt5=("$samples/wpn/lenses.dds")
dxt1=("$samples/act/act_zombie_6.dds" "$samples/act/act_cat.dds" "$samples/wpn/handflash.dds" "$samples/act/act_Rat.dds")
mkdir -p "$tmp/textures"
limit=$((mb * 1024 * 1024))
total=0 five=0 n=0
while ((total < limit)); do
  if ((five * 100 < total * 62)); then src=${dxt5[n % ${#dxt5[@]}]}; else src=${dxt1[n % ${#dxt1[@]}]}; fi
  size=$(stat -L -c %s "$src")
  [[ $src == *lenses* ]] && five=$((five + size))
  ln -s "$(realpath "$src")" "$tmp/textures/t$n.dds"
  total=$((total + size)) n=$((n + 1))
done
echo "folder: $n textures, $((total / 1048576)) MB ($((five * 100 / total)) % DXT5 by bytes)"
start=$(date +%s.%N)
/usr/bin/time -f "cpu: %U s user, %S s sys; peak RSS %M KB" "$cli" texture "$tmp/textures" -o "$tmp/png" -j 2 >/dev/null
end=$(date +%s.%N)
wall=$(echo "$end - $start" | bc)
echo "wall: $wall s, $(echo "scale=1; $total / 1048576 / $wall" | bc) MB/s of DDS; PNG output $(du -sm "$tmp/png" | cut -f1) MB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
