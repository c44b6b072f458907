// .skls read + validate (every key record walked and checked) on the largest real .skls (418 KB,
// v6, 45 motions of a public mod's HUD hands, in ../shared/samples/xray/sdk/mod), beside one CRC-32
// pass over the same bytes (zlib's and boneyard's libdeflate one): the baseline of issue 38's
// "within 2x of one CRC-32 pass". Also the .anm reader on a real camera path and the envelope
// evaluator (docs/performance.md).
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>

#include "boneyard/core/crc32.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/skl/skl.h"

namespace {

using namespace boneyard;

std::shared_ptr<const FileData> sample(const char* name) {
  const auto path = std::filesystem::path(BONEYARD_SAMPLES_DIR) / "xray/sdk/mod" / name;
  auto opened = FileData::open(path);
  if (!opened.ok()) {
    std::fprintf(stderr, "sample not found: %s\n", path.c_str());
    std::exit(2);
  }
  // In memory, as the in-memory baseline: the bench measures the reader, not the page cache.
  const Bytes b = opened.value()->bytes();
  return FileData::from_vector(std::vector<std::uint8_t>(b.begin(), b.end()));
}

const std::shared_ptr<const FileData>& largest() {
  static const auto file = sample("dev_hand_detector_1_hud_animation.skls");
  return file;
}

void BM_SklsReadValidate(benchmark::State& state) {
  const auto& file = largest();
  for (auto _ : state) {
    auto f = xray::read_skls(file);
    auto d = xray::validate_skl(f.value());
    if (d.has_errors()) state.SkipWithError("unexpected errors");
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->bytes().size()));
}
BENCHMARK(BM_SklsReadValidate)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_SklsRead(benchmark::State& state) {
  const auto& file = largest();
  for (auto _ : state) benchmark::DoNotOptimize(xray::read_skls(file));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->bytes().size()));
}
BENCHMARK(BM_SklsRead)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_ZlibCrc32(benchmark::State& state) {
  const Bytes b = largest()->bytes();
  for (auto _ : state) benchmark::DoNotOptimize(::crc32(::crc32(0L, Z_NULL, 0), b.data(), static_cast<uInt>(b.size())));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
BENCHMARK(BM_ZlibCrc32)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_Crc32(benchmark::State& state) {
  const Bytes b = largest()->bytes();
  for (auto _ : state) benchmark::DoNotOptimize(crc32(b));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
BENCHMARK(BM_Crc32)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_AnmReadValidate(benchmark::State& state) {
  static const auto file = sample("l85_reload.anm");
  for (auto _ : state) {
    auto f = xray::read_anm(file);
    benchmark::DoNotOptimize(xray::validate_anm(f.value()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->bytes().size()));
}
BENCHMARK(BM_AnmReadValidate)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Every channel of the real camera path at every frame (30 fps), keys decoded once per channel.
void BM_AnmEvaluateEveryFrame(benchmark::State& state) {
  static const auto file = sample("l85_reload.anm");
  const auto anm = xray::read_anm(file);
  std::vector<xray::EnvelopeKey> keys;
  std::int64_t values = 0;
  for (auto _ : state) {
    for (const auto& e : anm->motion.stored) {
      xray::decode_envelope_keys(e, keys);
      for (std::int32_t frame = anm->motion.frame_start; frame <= anm->motion.frame_end; ++frame) {
        benchmark::DoNotOptimize(xray::evaluate_envelope(keys, e.pre, e.post, static_cast<float>(frame) / 30.0f));
        ++values;
      }
    }
  }
  state.SetItemsProcessed(values);
}
BENCHMARK(BM_AnmEvaluateEveryFrame)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
