// MGS2 read, validate and dump throughput on large models laid out by the library's builder.
// Target from issue 3: validate at 1 GB/s or more.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/registry/document.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/kms/kms.h"

namespace {

using namespace boneyard;
using namespace boneyard::mgs2;

// Per-packet arrays shared by every packet: the builder copies them, so one set is enough.
struct Arrays {
  std::vector<std::uint8_t> verts, evm_verts, norms, uvs, evm_uvs, weights;
  explicit Arrays(std::size_t n) : verts(n * 8), evm_verts(n * 8), norms(n * 8), uvs(n * 4), evm_uvs(n * 8), weights(n * 8) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::int16_t v[4] = {static_cast<std::int16_t>(i * 7 % 200), static_cast<std::int16_t>(i * 13 % 200),
                                 static_cast<std::int16_t>(i % 50), 4096};
      std::memcpy(&verts[i * 8], v, 8);
      const std::int16_t ev[4] = {v[0], v[1], v[2], static_cast<std::int16_t>(i < 2 ? 0x8FFF : 0x0FFF)};
      std::memcpy(&evm_verts[i * 8], ev, 8);
      const std::int16_t nm[4] = {0, 0, 4096, static_cast<std::int16_t>(i < 2 ? 0x8FFF : 0x0FFF)};
      std::memcpy(&norms[i * 8], nm, 8);
      const std::int16_t uv[4] = {static_cast<std::int16_t>(i * 64), 2048, 4096, 0};
      std::memcpy(&uvs[i * 4], uv, 4);
      std::memcpy(&evm_uvs[i * 8], uv, 8);
      weights[i * 8] = 64;
      weights[i * 8 + 1] = 64;
      weights[i * 8 + 5] = 4;
    }
  }
};

std::vector<std::uint8_t> make_kms(std::size_t units, std::size_t packets, const Arrays& a) {
  KmsFile m;
  m.header.data_format = kKmsNorm;
  m.header.n_models = static_cast<std::uint32_t>(units);
  m.header.texture = 0x88D878;
  m.header.bbox_max = {200, 200, 50};
  for (std::size_t i = 0; i < units; ++i) {
    KmsUnit u;
    u.parent = i == 0 ? -1 : static_cast<std::int32_t>((i - 1) / 2);
    u.bbox_max = {200, 200, 50};
    for (std::size_t j = 0; j < packets; ++j) {
      KmsPacket p;
      p.flag = 0x48;
      p.n_verts = 64;
      p.verts.data = Bytes(a.verts.data(), 64 * 8);
      p.norms.data = Bytes(a.norms.data(), 64 * 8);
      p.uvs[0].data = Bytes(a.uvs.data(), 64 * 4);
      u.packets.push_back(p);
    }
    m.units.push_back(std::move(u));
  }
  m.header.bbox_max = {200 * 64, 200 * 64, 50 * 64};  // room for the chain of unit offsets
  return build_kms(m, Layout::ps2).value();
}

std::vector<std::uint8_t> make_evm(std::size_t packets, const Arrays& a) {
  EvmFile m;
  m.header.n_models = m.header.n_x_models = 2;
  m.header.type = kEvmTypeFormatV2 | kEvmTypeLarge;
  m.header.bbox_max = {200, 200, 50};
  for (int b = 0; b < 2; ++b) {
    EvmBone bone;
    bone.parent = b - 1;
    bone.box_max = {200, 200, 50, 0};
    m.bones.push_back(bone);
  }
  for (std::size_t j = 0; j < packets; ++j) {
    EvmPacket p;
    p.n_verts = 32;
    p.n_mats = 2;
    p.mat_id = {0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    p.verts.data = Bytes(a.evm_verts.data(), 32 * 8);
    p.norms.data = Bytes(a.norms.data(), 32 * 8);
    p.uvs[0].data = Bytes(a.evm_uvs.data(), 32 * 8);
    p.weights.data = Bytes(a.weights.data(), 32 * 8);
    m.packets.push_back(p);
  }
  return build_evm(m, Layout::mc).value();
}

const Arrays& arrays() {
  static const Arrays a(64);
  return a;
}
const std::vector<std::uint8_t>& large_kms() {
  static const auto b = make_kms(4096, 16, arrays());  // ~100 MB
  return b;
}
const std::vector<std::uint8_t>& large_evm() {
  static const auto b = make_evm(100000, arrays());  // ~100 MB
  return b;
}

// The benchmark models must be clean, or the numbers measure finding formatting.
template <class Model, class Read, class Validate>
void expect_clean(const std::vector<std::uint8_t>& b, Read read, Validate validate) {
  auto m = read(FileData::from_view(b, nullptr), std::nullopt, nullptr);
  Diagnostics d;
  validate(m.value(), d);
  if (!d.findings().empty()) {
    std::fprintf(stderr, "benchmark model has %zu findings, first: %s\n", d.findings().size(),
                 format_finding(d.findings()[0], "model").c_str());
    std::exit(1);
  }
}

void BM_KmsRead(benchmark::State& state) {
  const auto& b = large_kms();
  for (auto _ : state) benchmark::DoNotOptimize(read_kms(FileData::from_view(b, nullptr)).ok());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_KmsReadValidate(benchmark::State& state) {
  const auto& b = large_kms();
  expect_clean<KmsFile>(b, read_kms, [](const KmsFile& m, Diagnostics& d) { d = validate_kms(m); });
  for (auto _ : state) {
    auto m = read_kms(FileData::from_view(b, nullptr));
    Diagnostics d;
    d.append(validate_kms(m.value()));
    if (d.has_errors()) state.SkipWithError("findings in the benchmark model");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_KmsValidate(benchmark::State& state) {
  const auto& b = large_kms();
  const auto m = read_kms(FileData::from_view(b, nullptr));
  for (auto _ : state) {
    Diagnostics d;
    d.append(validate_kms(m.value()));
    benchmark::DoNotOptimize(d.findings().size());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_EvmValidate(benchmark::State& state) {
  const auto& b = large_evm();
  const auto m = read_evm(FileData::from_view(b, nullptr));
  for (auto _ : state) {
    Diagnostics d;
    d.append(validate_evm(m.value()));
    benchmark::DoNotOptimize(d.findings().size());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_KmsDump(benchmark::State& state) {
  const auto& b = large_kms();
  auto doc = open_document(FileData::from_vector(b), "big.kms", {});
  for (auto _ : state) {
    std::FILE* devnull = std::fopen("/dev/null", "wb");
    {
      JsonWriter w(devnull);
      doc.value()->dump(w, {});
    }
    std::fclose(devnull);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_EvmReadValidate(benchmark::State& state) {
  const auto& b = large_evm();
  expect_clean<EvmFile>(b, read_evm, [](const EvmFile& m, Diagnostics& d) { d = validate_evm(m); });
  for (auto _ : state) {
    auto m = read_evm(FileData::from_view(b, nullptr));
    Diagnostics d;
    d.append(validate_evm(m.value()));
    if (d.has_errors()) state.SkipWithError("findings in the benchmark model");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_EvmDump(benchmark::State& state) {
  const auto& b = large_evm();
  auto doc = open_document(FileData::from_vector(b), "big.evm", {});
  for (auto _ : state) {
    std::FILE* devnull = std::fopen("/dev/null", "wb");
    {
      JsonWriter w(devnull);
      doc.value()->dump(w, {});
    }
    std::fclose(devnull);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

// The Master Collection .cmdl of the large KMS (4.2M strip vertices): derivation (bytes = the
// model's), then reading + validating it and checking it against the model (bytes = the .cmdl's).
const std::vector<std::uint8_t>& large_kms_cmdl() {
  static const auto c = [] {
    const auto& b = large_kms();
    return derive_cmdl(read_kms(FileData::from_view(b, nullptr)).value(), nullptr, nullptr).value();
  }();
  return c;
}
void BM_CmdlDerive(benchmark::State& state) {
  const auto& b = large_kms();
  const auto m = read_kms(FileData::from_view(b, nullptr));
  for (auto _ : state) benchmark::DoNotOptimize(derive_cmdl(m.value(), nullptr, nullptr).value().size());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
void BM_CmdlReadValidate(benchmark::State& state) {
  const auto& c = large_kms_cmdl();
  for (auto _ : state) {
    auto m = read_cmdl(FileData::from_view(c, nullptr));
    Diagnostics d;
    d.append(validate_cmdl(m.value()));
    if (d.has_errors()) state.SkipWithError("findings in the benchmark .cmdl");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.size()));
}
void BM_CmdlPairCheck(benchmark::State& state) {
  const auto& b = large_kms();
  const auto& c = large_kms_cmdl();
  const auto m = read_kms(FileData::from_view(b, nullptr));
  const auto cm = read_cmdl(FileData::from_view(c, nullptr));
  for (auto _ : state) {
    Diagnostics d;
    check_cmdl_pair(m.value(), cm.value(), d);
    if (d.has_errors()) state.SkipWithError("the benchmark pair disagrees");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.size()));
}

BENCHMARK(BM_KmsRead)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KmsReadValidate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KmsValidate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvmValidate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KmsDump)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvmReadValidate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvmDump)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CmdlDerive)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CmdlReadValidate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CmdlPairCheck)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
