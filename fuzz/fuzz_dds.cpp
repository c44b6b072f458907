// libFuzzer target for the DDS reader and decoder. Properties beyond "no crash": whatever reads
// rewrites to the very same bytes, validate/info/dump never fail, every stored level decodes (or
// says why not) with memory bounded by the data, and a decoded top level written back as a .dds
// reads again and decodes to the same size.
#include <cstdlib>
#include <cstring>

#include "boneyard/texture/dds.h"
#include "boneyard/texture/dds_report.h"

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
  for (const auto& level : dds->levels) {
    auto im = decode_dds(dds.value(), level.face, level.level);
    if (!im) continue;
    if (im->width != level.width || im->height != level.height) std::abort();
    // Re-encoding is slow (cluster fit): only small top levels.
    if (level.level == 0 && level.face == 0 && std::uint64_t{im->width} * im->height <= 64 * 64) {
      auto built = build_dds(im.value(), {DdsOutputFormat::automatic, true});
      if (!built) std::abort();
      auto again = read_dds(FileData::from_vector(std::move(built).value()));
      if (!again || !decode_dds(again.value())) std::abort();
    }
  }
  return 0;
}
