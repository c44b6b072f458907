// An .ogf from its model: the chunks as read (views into the file), the embedded motions
// written from their model (so that edits to them land), trailing bytes kept.
#include "boneyard/xray/ogf/ogf.h"


#include "boneyard/core/chunks.h"
#include "boneyard/core/read_back.h"
#include "boneyard/xray/omf/omf.h"
#include "ogf_internal.h"

namespace boneyard::xray {

std::vector<std::uint8_t> write_ogf(const OgfFile& file) {
  std::vector<std::uint8_t> out;
  out.reserve(file.size);
  ByteWriter w(out);
  const Chunk* motions = file.chunks.find(kChunkMotions);
  const Chunk* params = file.chunks.find(kChunkParams);
  for (const auto& c : file.chunks.chunks) {
    if (file.motions && &c == motions) {
      const std::size_t at = begin_chunk(w, file.motions->motions_raw_id);
      write_motions_payload(w, *file.motions);
      end_chunk(w, at);
    } else if (file.motions && &c == params) {
      const std::size_t at = begin_chunk(w, file.motions->params.raw_id);
      write_params_payload(w, file.motions->params);
      end_chunk(w, at);
    } else {
      write_chunk(w, c.raw_id, c.payload);
    }
  }
  w.bytes(file.chunks.trailing);
  return out;
}

Result<std::vector<std::uint8_t>> extract_omf(const OgfFile& file) {
  if (!file.motions || !file.motions->has_motions_chunk) {
    return Finding{Severity::error, 0, "0xE/0xF", "model has no embedded motions to extract", "chunks 0xE and 0xF",
                   file.chunks.find(kChunkParams) ? "only 0xF" : "none"};
  }
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  std::size_t at = begin_chunk(w, kChunkMotions);
  write_motions_payload(w, *file.motions);
  end_chunk(w, at);
  at = begin_chunk(w, kChunkParams);
  write_params_payload(w, file.motions->params);
  end_chunk(w, at);
  return out;
}

}  // namespace boneyard::xray

namespace boneyard::xray {

Result<std::vector<std::uint8_t>> checked_ogf_bytes(std::vector<std::uint8_t> bytes, const Diagnostics* inherited) {
  // Never hand out a model boneyard or the engine would misread: the written bytes are read back
  // and validated; the first error the input did not already have stops the write.
  auto reread = read_ogf(FileData::from_vector(bytes));
  if (!reread) {
    Finding e = reread.error();
    e.path = "written .ogf" + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  if (auto fresh = first_new_error(validate_ogf(reread.value()), inherited, "written .ogf"); !fresh) return fresh.error();
  return bytes;
}

Result<std::vector<std::uint8_t>> rewrite_ogf(const OgfFile& file) {
  const Diagnostics own = validate_ogf(file);
  return checked_ogf_bytes(write_ogf(file), &own);
}

}  // namespace boneyard::xray
