// An OGF v3 model written back: its chunks as read (raw ids, bit 31 included, payloads as
// views), then its trailing bytes. Nothing of a v3 model is edited, so this is the file itself,
// rebuilt from the model; rewrite_ogf_v3 reads it back and validates it like every writer.
#include "boneyard/core/chunks.h"
#include "boneyard/core/read_back.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"

namespace boneyard::xray {

std::vector<std::uint8_t> write_ogf_v3(const OgfV3File& file) {
  std::vector<std::uint8_t> out;
  out.reserve(file.size);
  ByteWriter w(out);
  for (const auto& c : file.model.chunks.chunks) write_chunk(w, c.raw_id, c.payload);
  w.bytes(file.model.chunks.trailing);
  return out;
}

Result<std::vector<std::uint8_t>> rewrite_ogf_v3(const OgfV3File& file) {
  const Diagnostics own = validate_ogf_v3(file);
  std::vector<std::uint8_t> bytes = write_ogf_v3(file);
  auto reread = read_ogf_v3(FileData::from_vector(bytes));
  if (!reread) {
    Finding e = reread.error();
    e.path = "written .ogf" + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  if (auto fresh = first_new_error(validate_ogf_v3(reread.value()), &own, "written .ogf"); !fresh) return fresh.error();
  return bytes;
}

}  // namespace boneyard::xray
