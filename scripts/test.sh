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

# Fuzzers: clang + libFuzzer, seeded with the real samples and the shipped examples. Memory caps
# make allocation bombs findings: 1 GB resident, 512 MB in one allocation (docs/safety.md "Memory").
fuzz_seconds="${BONEYARD_FUZZ_SECONDS:-20}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)" --target fuzzers
# One fuzzer per core at a time: each is single-threaded, and CI time is bounded.
run_fuzzer() {
  local fuzzer=$1 name corpus
  name=$(basename "$fuzzer")
  corpus="build-fuzz/corpus/$name"
  mkdir -p "$corpus"
  local seeds=(examples)
  [ -d ../shared/samples/xray ] && seeds+=(../shared/samples/xray)
  [ -d "tests/fuzz_seeds/$name" ] && seeds+=("tests/fuzz_seeds/$name")
  # The first folder collects the corpus; the others only seed it (libFuzzer reads them recursively).
  if "$fuzzer" -max_total_time="$fuzz_seconds" -rss_limit_mb=1024 -malloc_limit_mb=512 -max_len=1048576 -print_final_stats=1 \
      "$corpus" "${seeds[@]}" >"build-fuzz/$name.log" 2>&1; then
    echo "== $name (${fuzz_seconds}s): $(grep -E "^stat::number_of_executed_units" "build-fuzz/$name.log" || true)"
  else
    tail -50 "build-fuzz/$name.log"
    echo "$name: FAILED"
    return 1
  fi
}
fuzz_failed=0
for fuzzer in build-fuzz/fuzz/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || fuzz_failed=1; done
  run_fuzzer "$fuzzer" &
done
while (($(jobs -rp | wc -l) > 0)); do wait -n || fuzz_failed=1; done
((fuzz_failed == 0)) || { echo "fuzz: a target failed"; exit 1; }
echo "fuzz: all targets ran ${fuzz_seconds}s without a crash"
