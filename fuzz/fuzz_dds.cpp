// libFuzzer target for the DDS reader and decoder. Properties beyond "no crash": whatever reads
// rewrites to the very same bytes, validate/info/dump never fail, every stored level decodes (or
// says why not) with memory bounded by the data, and a decoded top level written back as a .dds
// reads again and decodes to the same size.
// Speed (fuzz_sample.h): levels over 256 x 256 decode on 1 input in 16 and the encoder (cluster
// fit) runs on 1 small top level in 4; libsquish gets one OpenMP thread.
#include <cstdlib>
#include <cstring>

#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/dds/dds_report.h"
#include "fuzz_sample.h"

// Debian's libsquish runs each image on an OpenMP team. A fuzzer is one process per core: the
// team's waiting threads spun on the other cores (70% of the CPU on a loaded 2-core machine, a
// quarter of the inputs). Weak: nothing to do where the OpenMP runtime is not linked.
extern "C" void omp_set_num_threads(int) __attribute__((weak));

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (omp_set_num_threads != nullptr) omp_set_num_threads(1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::texture;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  Diagnostics notes;
  auto dds = read_dds(file, &notes);
  if (!dds) return 0;
  (void)validate_dds(dds.value());
  (void)describe_dds(dds.value());
  JsonWriter json;
  dump_dds(json, dds.value(), true);
  const auto out = write_dds(dds.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  // Decoding is the same code at any size and linear in pixels (a 1024 x 1024 DXT1 level took
  // 300 ms): small levels always, large ones on a sample of the inputs.
  const bool large_levels = fuzz::sampled(data, size, 16);
  const bool encode = fuzz::sampled(data, size, 4);
  for (const auto& level : dds->levels) {
    if (std::uint64_t{level.width} * level.height > 256 * 256 && !large_levels) continue;
    auto im = decode_dds(dds.value(), level.face, level.level);
    if (!im) continue;
    if (im->width != level.width || im->height != level.height) std::abort();
    // Re-encoding is slow (cluster fit): only small top levels, of a sample of the inputs.
    if (encode && level.level == 0 && level.face == 0 && std::uint64_t{im->width} * im->height <= 64 * 64) {
      auto built = build_dds(im.value(), {DdsOutputFormat::automatic, true});
      if (!built) std::abort();
      auto again = read_dds(FileData::from_vector(std::move(built).value()));
      if (!again || !decode_dds(again.value())) std::abort();
    }
  }
  return 0;
}
