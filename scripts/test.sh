#!/usr/bin/env bash
# Runs the whole test suite: unit, fixture, real-sample and CLI tests (ctest), the package test,
# the crafted- and corrupted-input tests again under AddressSanitizer + UBSan, then a short
# libFuzzer run of every reader. Real samples are read from ../shared/samples when present.
# Prints how long each stage took, and a table of them at the end (docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cores=$(nproc)

# Objects are reused across runs and worktrees when ccache is installed (a fresh clone on a
# machine that built boneyard before compiles almost nothing).
if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi

stage_names=() stage_seconds=()
summary() {
  ((${#stage_names[@]})) || return 0
  echo
  echo "stage                              seconds"
  local i
  for i in "${!stage_names[@]}"; do printf '%-34s %7s\n' "${stage_names[$i]}" "${stage_seconds[$i]}"; done
  printf '%-34s %7s\n' "total (wall)" "$SECONDS"
}
trap summary EXIT
# stage NAME COMMAND...: runs COMMAND, says how long it took, and stops the script when it fails.
stage() {
  local name=$1 start=$SECONDS status=0
  shift
  echo "== $name"
  "$@" || status=$?
  stage_names+=("$name") stage_seconds+=($((SECONDS - start)))
  echo "== $name: $((SECONDS - start)) s$( ((status == 0)) || echo ", FAILED")"
  return "$status"
}

# The sanitizer tree is the fuzz preset's (clang, ASan + UBSan, every library instrumented): the
# fuzzers, and the CLI and the test programs of the crafted- and corrupted-input tests, all from
# one set of library objects. Only what those tests run is built (--target).
asan_targets=(fuzzers boneyard_cli omf_tests sdk_tests core_tests mgs2_tests xray_import_tests cli_tests texture_tests)
# Reader tests fed truncated, corrupted or absurd input, and the .cmdl tests (its model keeps
# views into the bytes of the file and of its model).
asan_unit_tests='BadInput|Truncat|Corrupt|AbsurdCounts|HugeCounts|ParentCycles|EveryByte|Cli\.BadInputGetsOneClearLine|Cmdl\.|AbsurdHeaders|HeadersThatLie|BrokenLevels|Lzhuf\.|EnvelopeEval\.|SklReader\.|AnmReader\.|SklValidator\.|AnmValidator\.'

# (set -e does not apply inside a function run by `stage`: each step is chained with &&.)
build_release() {
  { [ -f build/build.ninja ] || cmake --preset release >/dev/null; } && cmake --build --preset release -j"$cores"
}
sanitizer_tests() {
  ctest --test-dir build-fuzz -j"$cores" --output-on-failure -L hostile \
    && ctest --test-dir build-fuzz -j"$cores" --output-on-failure -R "$asan_unit_tests"
}

stage "release build" build_release

# The sanitizer tree builds (at a lower priority) while the release tests run: many of those wait
# on child processes (the CLI, Python, Node, Blender), and the build fills the idle cores.
# Its own process group (setsid), so that a failing stage can stop it with everything it started.
mkdir -p build-fuzz
rm -f build-fuzz/sanitizer_build.seconds
setsid nice -n 5 bash -c 'start=$SECONDS
  cmake --preset fuzz -DBONEYARD_TESTS=ON >/dev/null && cmake --build --preset fuzz -j"$1" --target "${@:2}" || exit
  echo $((SECONDS - start)) >build-fuzz/sanitizer_build.seconds' sanitizer-build "$cores" "${asan_targets[@]}" \
  >build-fuzz/sanitizer_build.log 2>&1 &
sanitizer_build=$!
trap 'kill -- -"$sanitizer_build" 2>/dev/null || true; summary' EXIT

stage "ctest (release)" ctest --preset release -j"$cores"
# boneyard as a library: installed (examples/consumer), without CLI11, through add_subdirectory.
stage "package" scripts/test_package.sh

wait_sanitizer_build() {
  if ! wait "$sanitizer_build"; then
    tail -50 build-fuzz/sanitizer_build.log
    return 1
  fi
  echo "(built alongside the release tests in $(cat build-fuzz/sanitizer_build.seconds) s)"
}
stage "sanitizer build (waited for)" wait_sanitizer_build
stage "ASan/UBSan tests" sanitizer_tests

# Fuzzers: clang + libFuzzer, each seeded with small files of its own formats (fuzz_seed_files).
# Memory caps make allocation bombs findings: 1 GB resident, 512 MB in one allocation
# (docs/safety.md "Memory").
fuzz_seconds="${BONEYARD_FUZZ_SECONDS:-20}"
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
    fuzz_skl) fuzz_samples '*.skl' 40; fuzz_samples '*.skls' 40 ;;  # the SDK's motions (the 418 KB .skls reaches nothing more)
    fuzz_anm) fuzz_samples '*.anm' 8 ;;
    fuzz_object) fuzz_samples '*.object' 8 ;;  # blender-xray's edge cases (the old compressed one among them)
    fuzz_bones) fuzz_samples '*.bones' 4 ;;
  esac
}
# -max_len per target (default 1 MB): 64 KB where every seed is smaller and the readers bound their
# work by counts checked against the data, so no code needs a larger input.
fuzz_max_len() {
  case $1 in
    fuzz_omf | fuzz_ogf | fuzz_dds | fuzz_kms | fuzz_evm | fuzz_cmdl | fuzz_mar | fuzz_mc_index | fuzz_tri | fuzz_lzhuf | fuzz_skl | fuzz_anm \
      | fuzz_object | fuzz_bones)
      echo 65536 ;;
    *) echo 1048576 ;;
  esac
}
# One fuzzer per core at a time: each is single-threaded, and CI time is bounded.
run_fuzzer() {
  local fuzzer=$1 name corpus seeds
  name=$(basename "$fuzzer")
  corpus="build-fuzz/corpus/$name"
  seeds="build-fuzz/seeds/$name"
  # Each run starts from the seeds, as CI does: replaying the corpus earlier runs collected (fuzz_ogf:
  # 800 inputs, 23 MB after a few dozen runs) halved the inputs executed, edges within 2 %.
  # BONEYARD_FUZZ_KEEP_CORPUS=1 keeps it, for a longer campaign across runs.
  [ -n "${BONEYARD_FUZZ_KEEP_CORPUS:-}" ] || rm -rf "$corpus"
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
run_fuzzers() {
  [ -d ../shared/samples/xray ] \
    || echo "(../shared/samples/xray is absent: the fuzzers start from the repository's seeds only)"
  local fuzzer failed=0
  for fuzzer in build-fuzz/fuzz/fuzz_*; do
    [ -x "$fuzzer" ] || continue
    while (($(jobs -rp | wc -l) >= cores)); do wait -n || failed=1; done
    run_fuzzer "$fuzzer" &
  done
  while (($(jobs -rp | wc -l) > 0)); do wait -n || failed=1; done
  ((failed == 0)) || { echo "fuzz: a target failed"; return 1; }
  echo "fuzz: all targets ran ${fuzz_seconds}s without a crash"
}
stage "fuzz (${fuzz_seconds} s per target)" run_fuzzers
