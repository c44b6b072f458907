// An OGF v3 model written back: its chunks as read (raw ids, bit 31 included, payloads as
// views), then its trailing bytes. Nothing of a v3 model is edited, so this is the file itself,
// rebuilt from the model; rewrite_ogf_v3 reads it back and validates it like every writer. And
// its 0x1A motions as an .omf (the stored records, laid out as .omf records).
#include <array>
#include <cstring>

#include "boneyard/core/chunks.h"
#include "boneyard/core/read_back.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/omf/omf.h"
#include "ogf_v3_scene_internal.h"

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

Result<std::vector<std::uint8_t>> extract_omf_v3(const OgfV3File& file) {
  if (!file.params || !file.motions)
    return Finding{Severity::error, 0, "0x1A/0xE", "model has no embedded motions to extract",
                   "motion parameters (0x14/0x12) and key sets (0x1A/0xE)",
                   file.params ? "parameters only" : file.motions ? "key sets only" : "none"};
  if (file.motions->floats())
    return Finding{Severity::error, file.motions->offset, "0xE",
                   "key sets with float translations (0xE) have no exact .omf form: convert the model to glTF, "
                   "then the glTF to .omf, which quantises them (docs/xray-ogf-v3.md)",
                   "key sets 0x1A", "0xE"};
  Diagnostics warnings;  // what they say shows in the written file's validation, which is checked
  MotionSet set = ogf3::motion_set_of(file, warnings);
  // An .omf's motion i is sub-chunk i + 1, after the count.
  std::array<std::uint8_t, 4> count{};
  const auto n = static_cast<std::uint32_t>(set.motions.size());
  std::memcpy(count.data(), &n, 4);
  set.motions_raw_id = kChunkMotions;
  set.params.raw_id = kChunkParams;
  set.subchunks.push_back({MotionsSubchunk::Kind::count, 0, 0, 0, Bytes(count.data(), count.size())});
  for (std::size_t i = 0; i < set.motions.size(); ++i) {
    set.motions[i].raw_id = static_cast<std::uint32_t>(i + 1);
    set.motions[i].tail = {};
    set.subchunks.push_back({MotionsSubchunk::Kind::motion, static_cast<std::uint32_t>(i + 1), 0, i, {}});
  }
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  std::size_t at = begin_chunk(w, kChunkMotions);
  write_motions_payload(w, set);
  end_chunk(w, at);
  at = begin_chunk(w, kChunkParams);
  write_params_payload(w, set.params);
  end_chunk(w, at);
  return checked_omf_bytes(std::move(out));
}

}  // namespace boneyard::xray
