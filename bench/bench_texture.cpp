// Textures to PNG, what `boneyard texture` and textured model conversions spend their time on:
// read + decode the top level + write the PNG (into memory), per sample texture and for a
// 2048x2048 DXT5; throughput is counted in bytes of DDS input. Also the PNG level sweep behind
// kPngCompressionLevel. The 1 GB folder figure comes from scripts/texture_folder_benchmark.sh.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <random>

#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/texture_convert.h"

namespace {

using namespace boneyard;
namespace fs = std::filesystem;

const fs::path kTextures = fs::path(BONEYARD_SAMPLES_DIR) / "xray" / "textures";

std::vector<std::uint8_t> slurp(const fs::path& p) {
  auto f = FileData::open(p);
  if (!f) return {};
  const Bytes b = f.value()->bytes();
  return {b.begin(), b.end()};
}

// A 2048x2048 DXT5 with real content: the blocks of the 1024x1024 DXT5 sample (wpn/lenses.dds)
// tiled 2x2 (blocks decode independently), else random blocks (which compress worst), one level.
std::vector<std::uint8_t> dxt5_2048() {
  std::vector<std::uint8_t> src = slurp(kTextures / "wpn" / "lenses.dds");
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.u32(texture::kDdsMagic);
  w.u32(124);
  w.u32(0x1007);
  w.u32(2048), w.u32(2048), w.u32(0), w.u32(0), w.u32(1);
  w.zeros(44);
  w.u32(32), w.u32(texture::kDdpfFourCC);
  w.bytes(std::string_view("DXT5"));
  w.zeros(20);
  w.u32(texture::kDdsCapsTexture);
  w.zeros(16);
  constexpr std::size_t kRow = 256 * 16;  // one row of 1024/4 blocks
  std::mt19937 rng(15);
  for (std::size_t by = 0; by < 512; ++by)
    for (int copy = 0; copy < 2; ++copy) {
      if (src.size() >= 128 + 256 * kRow) {
        const std::uint8_t* row = src.data() + 128 + (by % 256) * kRow;
        out.insert(out.end(), row, row + kRow);
      } else {
        for (std::size_t i = 0; i < kRow; ++i) out.push_back(std::uint8_t(rng()));
      }
    }
  return out;
}

void to_png(benchmark::State& state, const std::vector<std::uint8_t>& dds) {
  if (dds.empty()) {
    state.SkipWithError("sample not found");
    return;
  }
  std::size_t png = 0;
  for (auto _ : state) {
    auto r = texture::texture_as_png(dds, ".dds");
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    png = r.value().png.size();
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * dds.size()));
  state.counters["png_bytes"] = double(png);
}

void BM_Dxt5_2048ToPng(benchmark::State& state) {
  static const auto dds = dxt5_2048();
  to_png(state, dds);
}
BENCHMARK(BM_Dxt5_2048ToPng)->Unit(benchmark::kMillisecond);

// zlib level sweep on one DXT1 sample (the decoded image as PNG; row filter none).
void BM_PngLevel(benchmark::State& state) {
  static const auto image = [] {
    auto f = FileData::open(kTextures / "act" / "act_zombie_6.dds");
    if (!f) return texture::Image{};
    auto d = texture::read_dds(std::move(f).value());
    return d ? texture::decode_dds(d.value()).value() : texture::Image{};
  }();
  if (image.rgba.empty()) {
    state.SkipWithError("sample not found");
    return;
  }
  texture::PngWriteOptions o;
  o.compression_level = static_cast<int>(state.range(0));
  std::size_t size = 0;
  for (auto _ : state) {
    auto png = texture::encode_png(image, o);
    size = png.value().size();
    benchmark::DoNotOptimize(png);
  }
  state.counters["png_bytes"] = double(size);
}
BENCHMARK(BM_PngLevel)->Arg(0)->Arg(1)->Arg(2)->Arg(6)->Arg(9)->Unit(benchmark::kMillisecond);

// Every sample texture, one benchmark each.
const bool kSamples = [] {
  std::error_code ec;
  if (!fs::is_directory(kTextures, ec)) return false;
  for (const auto& e : fs::recursive_directory_iterator(kTextures, ec)) {
    if (e.path().extension() != ".dds") continue;
    const std::string name = "BM_SampleToPng/" + e.path().lexically_relative(kTextures).generic_string();
    benchmark::RegisterBenchmark(name.c_str(), [p = e.path()](benchmark::State& s) {
      static thread_local std::map<fs::path, std::vector<std::uint8_t>> cache;
      auto& bytes = cache[p];
      if (bytes.empty()) bytes = slurp(p);
      to_png(s, bytes);
    })->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
