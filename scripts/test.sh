#!/usr/bin/env bash
# Runs the whole test suite: unit, fixture, real-sample and CLI tests (ctest), then a short
# libFuzzer run of every reader. Real samples are read from ../shared/samples when present.
set -euo pipefail
cd "$(dirname "$0")/.."

# Reader tests fed truncated, corrupted or absurd input (run again under the sanitizers below),
# and the .cmdl tests (its model keeps views into the bytes of the file and of its model).
asan_unit_tests='BadInput|Truncat|Corrupt|AbsurdCounts|HugeCounts|ParentCycles|EveryByte|Cli\.BadInputGetsOneClearLine|Cmdl\.|AbsurdHeaders|HeadersThatLie|BrokenLevels'

[ -x build/boneyard ] || { cmake --preset release >/dev/null && cmake --build --preset release -j"$(nproc)"; }
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"

# boneyard as a library: installed (examples/consumer), without CLI11, through add_subdirectory.
scripts/test_package.sh

# The crafted- and corrupted-input tests again under AddressSanitizer + UBSan (Debug): the hostile
# suite (tests/hostile, label "hostile") and the readers' truncation/corruption unit tests.
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$(nproc)" --target boneyard_cli omf_tests mgs2_tests xray_import_tests cli_tests texture_tests
ctest --preset asan -j"$(nproc)" -L hostile
ctest --preset asan -j"$(nproc)" -R "$asan_unit_tests"

# Fuzzers: clang + libFuzzer, each seeded with small files of its own formats (fuzz_seed_files).
# Memory caps make allocation bombs findings: 1 GB resident, 512 MB in one allocation
# (docs/safety.md "Memory").
fuzz_seconds="${BONEYARD_FUZZ_SECONDS:-20}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)" --target fuzzers
# A target's seeds: its crafted ones (tests/fuzz_seeds/<target>, see the README there), and the
# shipped examples and real samples of the formats it reads, the small ones only. A 1 MB seed (or
# one of another format) costs each of its mutations as much as hundreds of small inputs and
# reaches no code they miss; every target stays above 5,000 inputs in 20 s this way.
fuzz_samples() {  # fuzz_samples GLOB MAX_KB: real samples matching GLOB, under MAX_KB KiB
  if [ -d ../shared/samples/xray ]; then find ../shared/samples/xray -type f -name "$1" -size -"$2"k | sort; fi
}
fuzz_seed_files() {
  local name=$1
  if [ -d "tests/fuzz_seeds/$name" ]; then find "tests/fuzz_seeds/$name" -type f | sort; fi
  case $name in
    fuzz_omf)  # motions of .omf files and of .ogf models (and the models' skeletons)
      echo examples/wave.omf examples/wave_arm.ogf | tr ' ' '\n'
      find tests/fuzz_seeds/fuzz_ogf -type f | sort
      fuzz_samples '*.omf' 12; fuzz_samples '*.ogf' 16 ;;
    fuzz_ogf) echo examples/wave_arm.ogf; fuzz_samples '*.ogf' 16 ;;
    fuzz_dds) fuzz_samples '*.dds' 64 ;;
  esac
}
# -max_len per target (default 1 MB): 64 KB where every seed is smaller and the readers bound their
# work by counts checked against the data, so no code needs a larger input.
fuzz_max_len() {
  case $1 in
    fuzz_omf | fuzz_ogf | fuzz_dds | fuzz_kms | fuzz_evm | fuzz_cmdl) echo 65536 ;;
    *) echo 1048576 ;;
  esac
}
# One fuzzer per core at a time: each is single-threaded, and CI time is bounded.
run_fuzzer() {
  local fuzzer=$1 name corpus seeds
  name=$(basename "$fuzzer")
  corpus="build-fuzz/corpus/$name"
  seeds="build-fuzz/seeds/$name"
  mkdir -p "$corpus"
  rm -rf "$seeds" && mkdir -p "$seeds"
  fuzz_seed_files "$name" | while read -r f; do cp "$f" "$seeds/$(echo "${f#../}" | tr '/' '_')"; done
  # and small cuts of samples too large to seed whole (never stored in the repository)
  if [ -d ../shared/samples/xray ]; then python3 tests/fuzz_seeds/from_samples.py ../shared/samples/xray "$seeds" "$name"; fi
  # The first folder collects the corpus; the other only seeds it.
  if "$fuzzer" -max_total_time="$fuzz_seconds" -rss_limit_mb=1024 -malloc_limit_mb=512 -max_len="$(fuzz_max_len "$name")" \
      -print_final_stats=1 "$corpus" "$seeds" >"build-fuzz/$name.log" 2>&1; then
    echo "== $name (${fuzz_seconds}s): $(grep -E "^stat::number_of_executed_units" "build-fuzz/$name.log" || true)," \
      "$(grep -oE "cov: [0-9]+ ft: [0-9]+" "build-fuzz/$name.log" | tail -1)"
  else
    tail -50 "build-fuzz/$name.log"
    echo "$name: FAILED"
    return 1
  fi
}
[ -d ../shared/samples/xray ] \
  || echo "fuzz: ../shared/samples/xray is absent: seeds from the repository only (no real samples, no from_samples.py cuts)"
fuzz_failed=0
for fuzzer in build-fuzz/fuzz/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || fuzz_failed=1; done
  run_fuzzer "$fuzzer" &
done
while (($(jobs -rp | wc -l) > 0)); do wait -n || fuzz_failed=1; done
((fuzz_failed == 0)) || { echo "fuzz: a target failed"; exit 1; }
echo "fuzz: all targets ran ${fuzz_seconds}s without a crash"
