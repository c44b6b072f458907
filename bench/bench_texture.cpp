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
#include "boneyard/texture/tri/tri.h"
#include "tri_fixture.h"

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

// MGS2 .tri: a whole GS video memory (4 MiB image block) holding 32 textures of 256x256 8-bit
// and 64 of 256x128 4-bit (each its own CLUT), as a stage's .tri may: every texture decoded
// (`texture x.tri -o DIR` without the PNG encoding), and the PNGs put back unedited and one edited
// (build_tri, which reads back, validates and decodes every texture again). No real .tri is
// public; the layout follows the notes (tests/support/tri_fixture.h).
const std::vector<std::uint8_t>& full_vram_tri() {
  static const std::vector<std::uint8_t> bytes = [] {
    namespace fx = boneyard::test::trifx;
    fx::File f;
    f.image_rows = 16384;  // 4 MiB: 512 pages
    f.clut_rows = 160;     // 5 pages: 32 CLUTs of 256 colours, 64 of 16
    for (std::uint32_t i = 0; i < 32; ++i) {  // 256x256 8-bit: 2 x 4 pages of 128x64, 256 blocks
      fx::Texture t;
      t.id = 0x100000 + i, t.psm = fx::kPsmt8, t.tw = 8, t.th = 8, t.width = 256, t.height = 256;
      t.tbp0 = i * 256, t.tbw = 4, t.cbp = i * 4;
      t.indices = fx::pattern(256, 256, 256, i);
      t.clut = fx::palette(256, i);
      f.textures.push_back(std::move(t));
    }
    for (std::uint32_t i = 0; i < 64; ++i) {  // 256x128 4-bit: 2 pages of 128x128, 64 blocks
      fx::Texture t;
      t.id = 0x200000 + i, t.psm = fx::kPsmt4, t.tw = 8, t.th = 7, t.width = 256, t.height = 128;
      t.tbp0 = 32 * 256 + i * 64, t.tbw = 4, t.cbp = 128 + (i / 32) * 16, t.csa = i % 32;  // 32 CLUTs over 16 blocks
      t.indices = fx::pattern(256, 128, 16, 100 + i);
      t.clut = fx::palette(16, 100 + i);
      f.textures.push_back(std::move(t));
    }
    return fx::build(f);
  }();
  return bytes;
}

void BM_TriDecodeAll(benchmark::State& state) {
  auto tri = texture::read_tri(FileData::from_view(full_vram_tri(), nullptr));
  std::uint64_t pixels = 0;
  for (auto _ : state) {
    pixels = 0;
    for (std::size_t i = 0; i < tri->entries.size(); ++i) {
      auto im = texture::decode_tri(tri.value(), i);
      pixels += im->rgba.size() / 4;
      benchmark::DoNotOptimize(im);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * full_vram_tri().size()));
  state.counters["pixels"] = double(pixels);
}
BENCHMARK(BM_TriDecodeAll)->Unit(benchmark::kMillisecond);

void BM_TriValidate(benchmark::State& state) {
  auto tri = texture::read_tri(FileData::from_view(full_vram_tri(), nullptr));
  for (auto _ : state) benchmark::DoNotOptimize(texture::validate_tri(tri.value()));
}
BENCHMARK(BM_TriValidate)->Unit(benchmark::kMillisecond);

// Every texture given back (arg 0: all unedited; 1: one 4-bit texture with a pixel changed).
void BM_TriBuild(benchmark::State& state) {
  auto tri = texture::read_tri(FileData::from_view(full_vram_tri(), nullptr));
  std::vector<texture::TriEdit> edits;
  for (std::size_t i = 0; i < tri->entries.size(); ++i) edits.push_back({i, texture::decode_tri(tri.value(), i).value(), {}, "t"});
  if (state.range(0) == 1) std::swap_ranges(edits[40].image.rgba.begin(), edits[40].image.rgba.begin() + 4, edits[40].image.rgba.begin() + 4 * 300);
  for (auto _ : state) {
    auto out = texture::build_tri(tri.value(), edits);
    if (!out) {
      state.SkipWithError(out.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_TriBuild)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

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
