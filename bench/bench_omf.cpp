// OMF read + validate (every CRC checked) and dump throughput on a large file built by
// repeating the motions of a real sample, beside the baseline of issue 14: one zlib CRC-32 pass
// over the same bytes, in memory and from the file (mapped and read once per iteration, as
// `validate` does). `bench_omf --make FILE [MB]` writes that file for whole-process measurements
// (peak memory with /usr/bin/time -v).
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include "boneyard/core/file_io.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_report.h"

namespace {

using namespace boneyard;

// Repeats the sample's motions (renamed) until the file exceeds `target_bytes`.
std::vector<std::uint8_t> make_large_omf(std::size_t target_bytes) {
  const auto path = std::filesystem::path(BONEYARD_SAMPLES_DIR) / "xray/soc/zombi_animation.omf";
  auto opened = FileData::open(path);
  if (!opened.ok()) {
    std::fprintf(stderr, "sample not found: %s\n", path.c_str());
    std::exit(2);
  }
  auto src = xray::read_omf(opened.value());
  xray::OmfFile f = std::move(src).value();
  auto& set = f.motions;
  const std::size_t base = set.motions.size();
  const std::size_t per_round = f.size;
  const std::size_t rounds = target_bytes / per_round + 1;
  for (std::size_t r = 1; r < rounds; ++r) {
    for (std::size_t i = 0; i < base; ++i) {
      auto keys = set.motions[i];
      auto params = set.params.motions[i];
      params.name += "_" + std::to_string(r);
      const std::size_t index = set.motions.size();
      keys.raw_id = static_cast<std::uint32_t>(index + 1);
      params.motion_id = static_cast<std::uint16_t>(index);
      set.motions.push_back(std::move(keys));
      set.params.motions.push_back(std::move(params));
      xray::MotionsSubchunk s;
      s.kind = xray::MotionsSubchunk::Kind::motion;
      s.raw_id = static_cast<std::uint32_t>(index + 1);
      s.motion = index;
      set.subchunks.push_back(s);
    }
  }
  const auto count = static_cast<std::uint32_t>(set.motions.size());
  std::vector<std::uint8_t> c(4);
  std::memcpy(c.data(), &count, 4);
  set.subchunks[0].payload = f.keep(c);
  set.declared_count = count;
  return xray::write_omf(f);
}

const std::vector<std::uint8_t>& large() {
  static const auto bytes = make_large_omf(100u << 20);
  return bytes;
}

void BM_ReadValidate(benchmark::State& state) {
  const auto file = FileData::from_vector(large());
  for (auto _ : state) {
    auto f = xray::read_omf(file);
    auto d = xray::validate_omf(f.value());
    if (d.has_errors()) state.SkipWithError("unexpected errors");
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large().size()));
}
BENCHMARK(BM_ReadValidate)->Unit(benchmark::kMillisecond)->UseRealTime();

// boneyard's CRC-32 (the one validate uses) over the whole file.
void BM_Crc32Only(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(xray::key_crc(large()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large().size()));
}
BENCHMARK(BM_Crc32Only)->Unit(benchmark::kMillisecond)->UseRealTime();

std::uint32_t zlib_crc32(Bytes b) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < b.size();) {
    const std::size_t part = std::min<std::size_t>(b.size() - at, std::numeric_limits<uInt>::max());
    crc = ::crc32(crc, b.data() + at, static_cast<uInt>(part));
    at += part;
  }
  return static_cast<std::uint32_t>(crc);
}

// The baseline: zlib's CRC-32 over the whole file.
void BM_ZlibCrc32(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(zlib_crc32(large()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large().size()));
}
BENCHMARK(BM_ZlibCrc32)->Unit(benchmark::kMillisecond)->UseRealTime();

// The large file on disk (written once, removed at exit), for the whole `validate` path: open
// (map) the file, read, validate; against open the file and one zlib CRC-32 pass.
const std::filesystem::path& large_file() {
  struct Temp {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("bench_omf_" + std::to_string(::getpid()) + ".omf");
    Temp() {
      if (!write_file_atomic(path, large())) std::exit(2);
    }
    ~Temp() { std::filesystem::remove(path); }
  };
  static const Temp temp;
  return temp.path;
}

void BM_FileReadValidate(benchmark::State& state) {
  const auto& path = large_file();
  for (auto _ : state) {
    auto file = FileData::open(path);
    auto f = xray::read_omf(file.value());
    auto d = xray::validate_omf(f.value());
    if (d.has_errors()) state.SkipWithError("unexpected errors");
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large().size()));
}
BENCHMARK(BM_FileReadValidate)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FileReadZlibCrc32(benchmark::State& state) {
  const auto& path = large_file();
  for (auto _ : state) {
    auto file = FileData::open(path);
    benchmark::DoNotOptimize(zlib_crc32(file.value()->bytes()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large().size()));
}
BENCHMARK(BM_FileReadZlibCrc32)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Dump(benchmark::State& state) {
  const auto file = FileData::from_vector(large());
  std::FILE* null = std::fopen("/dev/null", "wb");
  for (auto _ : state) {
    auto f = xray::read_omf(file);
    JsonWriter out(null);
    xray::dump_omf(out, f.value(), false);
    out.flush();
  }
  std::fclose(null);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * large().size()));
}
BENCHMARK(BM_Dump)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--make") == 0) {
    const std::size_t mb = argc >= 4 ? std::strtoul(argv[3], nullptr, 10) : 100;
    const auto bytes = make_large_omf(mb << 20);
    const auto written = boneyard::write_file_atomic(argv[2], bytes);
    if (!written) {
      std::fprintf(stderr, "%s\n", written.error().message.c_str());
      return 2;
    }
    std::printf("%s: %zu bytes\n", argv[2], bytes.size());
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
