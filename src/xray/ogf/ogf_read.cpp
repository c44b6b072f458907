#include "boneyard/xray/ogf/ogf.h"

#include "boneyard/xray/omf/omf.h"
#include "core/byte_reader.h"
#include "ogf_internal.h"
#include "xray/omf/omf_parse.h"

namespace boneyard::xray {

bool looks_like_ogf(Bytes bytes) {
  return bytes.size() >= 12 && (load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit) == kOgfHeader;
}

void read_ogf_header(const Chunk& header, OgfHeader& h) {
  ByteReader r(header.payload, header.payload_offset());
  try {
    h.format_version = r.u8("format version");
    h.type = r.u8("type");
    h.shader_id = r.u16("shader id");
    for (auto& v : h.bbox) v = r.f32("bounding box");
    for (auto& v : h.sphere) v = r.f32("bounding sphere");
  } catch (ParseError& e) {
    e.prepend_path("0x1");
    throw;
  }
  if (h.format_version != 4)
    fail(header.payload_offset(), "0x1 format version", "unsupported OGF version", "4", std::to_string(h.format_version));
}

Result<OgfFile> read_ogf(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> OgfFile {
    OgfFile f;
    f.source = file;
    f.size = file->bytes().size();
    f.chunks = split_chunks(file->bytes(), 0);
    const Chunk* header = f.chunks.find(kOgfHeader);
    if (header == nullptr) fail(0, "0x1", "missing OGF header chunk", "chunk 0x1", "none");
    if (header->payload.size() == 4)
      fail(header->payload_offset(), "0x1",
           "an OGF v3 model (builds before 2004): boneyard reads it as its own format (info, validate, dump, "
           "convert to glTF), but it cannot serve where a v4 model is needed",
           "an OGF v4 model", "a 4-byte v3 header");
    read_ogf_header(*header, f.header);
    const Chunk* params = f.chunks.find(kChunkParams);
    if (params != nullptr) f.motions = parse_motion_set(f.chunks.find(kChunkMotions), *params);
    parse_ogf_skeleton(f);
    parse_ogf_children(f);
    return f;
  });
}

}  // namespace boneyard::xray
