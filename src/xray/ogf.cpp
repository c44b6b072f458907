#include "boneyard/ogf.h"

#include "boneyard/omf_validate.h"
#include "ogf_internal.h"
#include "omf_parse.h"

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
      fail(header->payload_offset(), "0x1", "OGF v3 files (builds before 2004) are not supported", "OGF v4",
           "a 4-byte v3 header");
    read_ogf_header(*header, f.header);
    const Chunk* params = f.chunks.find(kChunkParams);
    if (params != nullptr) f.motions = parse_motion_set(f.chunks.find(kChunkMotions), *params);
    parse_ogf_skeleton(f);
    parse_ogf_children(f);
    return f;
  });
}

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

Diagnostics validate_ogf(const OgfFile& file) {
  Diagnostics out;
  for (const auto& c : file.chunks.chunks)
    if (c.compress_bit())
      out.add(Severity::warning, c.offset, hex(c.id()), "chunk id has bit 31 set but the chunk is read raw",
              hex(c.id()), hex(c.raw_id));
  if (file.header.type != 3 && file.header.type != 10)
    out.add(Severity::info, 9, "0x1 type", "not a skeleton model", "3 or 10", std::to_string(file.header.type));
  for (const auto& finding : file.read_findings) out.add(finding);
  validate_bone_tree(file, out);
  for (const auto& child : file.children) validate_ogf_child(file, child, out);
  const bool animated = file.motions.has_value() || !file.motion_refs.empty();
  if (animated && file.bones.empty())
    out.add(Severity::error, 0, "0xD", "model has motions but no skeleton", "chunk 0xD", "none");
  if (!file.bones.empty() && !file.has_ik)
    out.add(Severity::warning, 0, "0x10", "no IK data: the bind pose is unknown (glTF export needs it)", "chunk 0x10",
            "none");
  if (file.motions && !file.bones.empty()) {
    // The engine maps part bones to skeleton bones by name (motions_value::load).
    const Params& p = file.motions->params;
    if (p.bone_count() != file.bones.size())
      out.add(Severity::error, p.offset, "0xF parts", "bone parts do not cover the skeleton",
              std::to_string(file.bones.size()) + " bones", std::to_string(p.bone_count()));
    const BoneLookup skeleton(file.bones);
    for (const auto& part : p.parts)
      for (const auto& b : part.bones)
        if (p.version >= 3 && !p.parts_without_names && skeleton.find(b.name) < 0)
          out.add(Severity::error, b.offset, "0xF part bone", "bone name not in the skeleton (0xD)",
                  "a skeleton bone", printable(b.name));
  }
  if (file.motions) {
    validate_motion_set(*file.motions, out);
  } else if (file.chunks.find(kChunkMotions) != nullptr) {
    out.add(Severity::error, file.chunks.find(kChunkMotions)->offset, "0xF",
            "embedded motions without chunk 0xF (bone parts and params)", "chunk 0xF", "none");
  }
  if (file.chunks.overrun && file.chunks.overrun->truncated_chunk()) {
    const OverrunChunk& o = *file.chunks.overrun;
    out.add(Severity::error, o.offset, hex(o.raw_id & ~kChunkCompressBit),
            "chunk truncated: its size runs past the end of the file (truncated file)",
            std::to_string(o.declared_size) + " bytes", std::to_string(o.available) + " bytes available");
  } else if (file.chunks.overrun || !file.chunks.trailing.empty())
    out.add(Severity::warning, file.chunks.trailing_offset, "file", "trailing bytes after the last chunk (kept)", "none",
            std::to_string(file.chunks.trailing.size()) + " bytes");
  out.sort_by_offset();
  return out;
}

namespace {

bool is_mesh_child_finding(const Finding& f) { return f.path.rfind("0x9/", 0) == 0; }

}  // namespace

std::vector<Finding> ogf_conversion_blockers(const OgfFile& file, bool gltf_keep_going) {
  std::vector<Finding> errors;
  const Diagnostics found = validate_ogf(file);
  for (const auto& f : found.findings())
    if (f.severity == Severity::error && !(gltf_keep_going && is_mesh_child_finding(f))) errors.push_back(f);
  return errors;
}

}  // namespace boneyard::xray
