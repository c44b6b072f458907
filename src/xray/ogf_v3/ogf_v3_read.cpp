// OGF v3: the container, the 4-byte header and the visuals (the model and its nested 0x11
// children / 0x10 LODs): boxes, texture, vertices, indices, progressive data, child refs.
// Layouts: ../shared/docs/sdk-formats.md 1.5 and docs/xray-ogf-v3.md. Vertex and index arrays are
// views into the file; every count is checked against the bytes left before anything is sized.
#include "boneyard/xray/ogf_v3/ogf_v3.h"

#include <array>

#include "boneyard/core/text.h"
#include "ogf_v3_internal.h"
#include "xray/ogf/ogf_internal.h"

namespace boneyard::xray {

// Helpers live in ogf3's own unnamed namespace: unity builds put these files in one translation
// unit with the v4 reader's, whose helpers have the same names.
namespace ogf3 {

namespace {

constexpr std::uint32_t kStride1L = 36;  // P, N (6 floats), u v, u32 bone: no tangent frame yet
constexpr std::uint32_t kStride2L = 64;  // the v4 2-link record: u16 bone[2], P N T B, w, u v

void read_header(const Chunk& c, Ogf3Header& h, const std::string& path) {
  parse_chunk(c, path + "0x1", [&] {
    ByteReader r(c.payload, c.payload_offset());
    if (c.payload.size() != 4)
      fail(c.payload_offset(), "", "not an OGF v3 header", "4 bytes", std::to_string(c.payload.size()) + " bytes");
    h.version = r.u8("format version");
    h.type = r.u8("type");
    h.unused = r.u16("unused");
    if (h.version != 3)
      fail(c.payload_offset(), "format version", "unsupported OGF version in a 4-byte header", "3",
           std::to_string(h.version));
  });
}

template <std::size_t N>
std::array<float, N> read_floats(const Chunk& c, const char* what, std::vector<Finding>& findings,
                                 const std::string& path) {
  std::array<float, N> out{};
  parse_chunk(c, path, [&] {
    ByteReader r(c.payload, c.payload_offset());
    for (auto& v : out) v = r.f32(what);
    if (!r.at_end())
      findings.push_back({Severity::warning, r.offset(), path, std::string("bytes after the ") + what + " (kept)",
                          "0", std::to_string(r.remaining())});
  });
  return out;
}

void parse_vertices(const Chunk& c, Ogf3Visual& v) {
  ByteReader r(c.payload, c.payload_offset());
  Ogf3Vertices vs;
  const std::uint64_t format_at = r.offset();
  vs.format = r.u32("vertex format");
  vs.count = r.u32("vertex count");
  if (vs.format == kOgf3Vertex1L) {
    vs.layout = Ogf3Layout::link1, vs.stride = kStride1L;
  } else if (vs.format == kOgf3Vertex2L) {
    vs.layout = Ogf3Layout::link2, vs.stride = kStride2L;
  } else {
    vs.layout = Ogf3Layout::fvf;
    vs.stride = fvf_stride(vs.format, vs.fvf_normal, vs.fvf_uv);
  }
  if (vs.stride == 0)
    fail(format_at, "vertex format", "unknown vertex format",
         "0x12071980 (1 link), 0x240E3300 (2 links) or an FVF code with XYZ position and 2-D UVs", hex(vs.format));
  const std::uint64_t want = std::uint64_t{vs.count} * vs.stride;
  if (want != r.remaining())
    fail(r.offset(), "vertices", "chunk size does not match count x stride",
         "8 + " + std::to_string(vs.count) + " x " + std::to_string(vs.stride) + " = " + std::to_string(8 + want) +
             " bytes",
         std::to_string(c.payload.size()) + " bytes");
  vs.offset = r.offset();
  vs.data = r.bytes(static_cast<std::size_t>(want), "vertices");
  v.vertices = vs;
}

void parse_indices(const Chunk& c, Ogf3Visual& v, std::vector<Finding>& findings) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint32_t count = r.u32("index count");
  r.need_array(count, 2, "indices");
  v.indices_offset = r.offset();
  v.indices = r.bytes(std::size_t{count} * 2, "indices");
  v.index_count = count;  // only once the indices are there: a broken visual keeps none
  if (!r.at_end())
    findings.push_back({Severity::warning, r.offset(), v.where(kOgf3Indices), "bytes after the last index (kept)",
                        "0", std::to_string(r.remaining())});
}

void parse_texture(const Chunk& c, Ogf3Visual& v) {
  ByteReader r(c.payload, c.payload_offset());
  v.texture = std::string(r.stringz("texture"));
  v.shader = std::string(r.stringz("shader"));
  v.texture_tail = r.rest();
}

// 0x9: sub-chunk 1 = u32 min vertices, u32 min indices; 2 = vertex splits; 3 = u32 n, n x u16.
void parse_lod(const Chunk& c, Ogf3Visual& v) {
  const ChunkList subs = split_chunks(c.payload, c.payload_offset());
  Ogf3LodData lod;
  lod.offset = c.offset;
  auto sub = [&](std::uint32_t id, const char* name) -> const Chunk& {
    const Chunk* s = subs.find(id);
    if (s == nullptr) fail(c.payload_offset(), std::to_string(id), std::string("progressive data has no ") + name,
                           "sub-chunk " + std::to_string(id), "none");
    return *s;
  };
  {
    const Chunk& h = sub(1, "header");
    ByteReader r(h.payload, h.payload_offset());
    try {
      lod.min_vertices = r.u32("minimum vertices");
      lod.min_indices = r.u32("minimum indices");
    } catch (ParseError& e) {
      e.prepend_path("1");
      throw;
    }
  }
  const Chunk& splits = sub(2, "vertex splits");
  if (splits.payload.size() % 4 != 0)
    fail(splits.payload_offset(), "2", "vertex splits are not whole 4-byte records", "a multiple of 4 bytes",
         std::to_string(splits.payload.size()) + " bytes");
  lod.vsplits = splits.payload;
  lod.vsplits_offset = splits.payload_offset();
  const Chunk& fix = sub(3, "fix faces");
  ByteReader r(fix.payload, fix.payload_offset());
  try {
    lod.fix_face_count = r.u32("fix face count");
    r.need_array(lod.fix_face_count, 2, "fix faces");
    lod.fix_faces_offset = r.offset();
    lod.fix_faces = r.bytes(std::size_t{lod.fix_face_count} * 2, "fix faces");
  } catch (ParseError& e) {
    e.prepend_path("3");
    throw;
  }
  v.lod = lod;
}

void parse_child_refs(const Chunk& c, Ogf3Visual& v) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint32_t n = r.u32("child ref count");
  r.need_array(n, 1, "child refs");
  for (std::uint32_t i = 0; i < n; ++i) v.child_refs.emplace_back(r.stringz("child ref " + std::to_string(i)));
}

// Nested visuals with ids 0, 1, ... (the engine opens them by id and stops at the first missing).
void parse_nested(const Chunk& c, const std::string& prefix, int depth, std::vector<Ogf3Visual>& out,
                  std::vector<Finding>& findings) {
  const ChunkList subs = split_chunks(c.payload, c.payload_offset());
  if (subs.overrun || !subs.trailing.empty())
    findings.push_back({Severity::warning, subs.trailing_offset, prefix, "bytes after the last nested visual (kept)",
                        "0", std::to_string(subs.trailing.size()) + " bytes"});
  std::size_t used = 0;
  for (std::uint32_t id = 0;; ++id) {
    const Chunk* s = subs.find(id);
    if (s == nullptr) break;
    ++used;
    Ogf3Visual child;
    child.path = prefix + "/" + std::to_string(id);
    child.offset = s->offset;
    if (depth >= kMaxVisualDepth) {
      child.readable = Finding{Severity::error, s->offset, child.path, "visuals nested too deep",
                               "<= " + std::to_string(kMaxVisualDepth) + " levels", "more"};
    } else {
      child.chunks = split_chunks(s->payload, s->payload_offset());
      auto read = catch_parse_errors([&] {
        parse_visual(child, depth + 1, findings);
        return 0;
      });
      if (!read) child.readable = read.error();
    }
    out.push_back(std::move(child));
  }
  if (used < subs.chunks.size())
    findings.push_back({Severity::warning, c.offset, prefix,
                        "nested chunks after the first missing id are never read by the engine (kept, not exported)",
                        std::to_string(used) + " visuals", std::to_string(subs.chunks.size()) + " chunks"});
}

}  // namespace

Vec3 read_vec3(ByteReader& r, std::string_view what) {
  Vec3 v;
  v.x = r.f32(what);
  v.y = r.f32(what);
  v.z = r.f32(what);
  return v;
}

void parse_visual(Ogf3Visual& v, int depth, std::vector<Finding>& findings) {
  const std::string prefix = v.path.empty() ? "" : v.path + " ";
  if (!v.path.empty()) {
    if (const auto& o = v.chunks.overrun; o && o->truncated_chunk())
      fail(o->offset, hex(o->raw_id & ~kChunkCompressBit), "chunk truncated: its size runs past the end of the visual",
           std::to_string(o->declared_size) + " bytes", std::to_string(o->available) + " bytes available");
    if (v.chunks.overrun || !v.chunks.trailing.empty())
      findings.push_back({Severity::warning, v.chunks.trailing_offset, v.path,
                          "bytes after the visual's last chunk (kept)", "0",
                          std::to_string(v.chunks.trailing.size()) + " bytes"});
  }
  const Chunk* h = v.chunks.find(kOgfHeader);
  if (h == nullptr) fail(v.offset, "0x1", "visual has no header", "chunk 0x1", "none");
  read_header(*h, v.header, prefix);
  if (const Chunk* c = v.chunks.find(kOgf3BBox)) v.bbox = read_floats<6>(*c, "bounding box", findings, v.where(kOgf3BBox));
  if (const Chunk* c = v.chunks.find(kOgf3BSphere))
    v.bsphere = read_floats<4>(*c, "bounding sphere", findings, v.where(kOgf3BSphere));
  auto part = [&](std::uint32_t id, auto&& fn) {
    if (const Chunk* c = v.chunks.find(id)) parse_chunk(*c, v.where(id), [&] { fn(*c); });
  };
  part(kOgf3Texture, [&](const Chunk& c) { parse_texture(c, v); });
  part(kOgf3Vertices, [&](const Chunk& c) { parse_vertices(c, v); });
  part(kOgf3Indices, [&](const Chunk& c) { parse_indices(c, v, findings); });
  part(kOgf3LodData, [&](const Chunk& c) { parse_lod(c, v); });
  part(kOgf3ChildRefs, [&](const Chunk& c) { parse_child_refs(c, v); });
  if (const Chunk* c = v.chunks.find(kOgf3Children)) parse_nested(*c, v.where(kOgf3Children), depth, v.children, findings);
  if (const Chunk* c = v.chunks.find(kOgf3Lods)) parse_nested(*c, v.where(kOgf3Lods), depth, v.lods, findings);
}

}  // namespace ogf3

std::string Ogf3Visual::where(std::uint32_t id) const { return (path.empty() ? "" : path + " ") + hex(id); }

std::string_view ogf3_type_name(std::uint8_t type) {
  switch (type) {
    case 0x0: return "NORMAL";
    case 0x1: return "HIERRARHY";
    case 0x2: return "PROGRESSIVE";
    case 0x3: return "SKELETON_GEOMDEF_PM";
    case 0x4: return "SKELETON_ANIM";
    case 0x6: return "DETAIL_PATCH";
    case 0x7: return "SKELETON_GEOMDEF_ST";
    case 0x8: return "CACHED";
    case 0x9: return "PARTICLE";
    case 0xA: return "PROGRESSIVE2";
    case 0xB: return "LOD";
    case 0xC: return "TREE";
    case 0xF: return "SKELETON_RIGID";
    default: return "";
  }
}

Ogf3Vertex decode_vertex(const Ogf3Vertices& vs, std::size_t i) {
  const std::uint8_t* p = vs.data.data() + i * vs.stride;
  auto vec = [](const std::uint8_t* q) {
    return Vec3{load_le<float>(q), load_le<float>(q + 4), load_le<float>(q + 8)};
  };
  Ogf3Vertex v;
  switch (vs.layout) {
    case Ogf3Layout::link1:
      v.position = vec(p), v.normal = vec(p + 12);
      v.u = load_le<float>(p + 24), v.v = load_le<float>(p + 28);
      v.stored_bone = load_le<std::uint32_t>(p + 32);
      v.bones = {static_cast<std::uint16_t>(v.stored_bone), static_cast<std::uint16_t>(v.stored_bone)};
      v.weights = {1.0f, 0.0f};
      v.links = 1;
      break;
    case Ogf3Layout::link2: {
      v.bones = {load_le<std::uint16_t>(p), load_le<std::uint16_t>(p + 2)};
      v.position = vec(p + 4), v.normal = vec(p + 16);  // tangent at 28, binormal at 40: not used
      const float w = load_le<float>(p + 52);
      v.weights = {1.0f - w, w};
      v.u = load_le<float>(p + 56), v.v = load_le<float>(p + 60);
      v.stored_bone = v.bones[0];
      v.links = 2;
      break;
    }
    case Ogf3Layout::fvf:
      v.position = vec(p);
      if (vs.fvf_normal >= 0) v.normal = vec(p + vs.fvf_normal);
      if (vs.fvf_uv >= 0) v.u = load_le<float>(p + vs.fvf_uv), v.v = load_le<float>(p + vs.fvf_uv + 4);
      break;
  }
  return v;
}

bool looks_like_ogf_v3(Bytes bytes) {
  if (bytes.size() < 12) return false;
  const std::uint32_t id = load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit;
  return id == kOgfHeader && load_le<std::uint32_t>(bytes.data() + 4) == 4 && bytes[8] == 3;
}

Result<OgfV3File> read_ogf_v3(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> OgfV3File {
    OgfV3File f;
    f.source = file;
    f.size = file->bytes().size();
    f.model.chunks = split_chunks(file->bytes(), 0);
    if (f.model.chunks.find(kOgfHeader) == nullptr) fail(0, "0x1", "missing OGF header chunk", "chunk 0x1", "none");
    ogf3::parse_visual(f.model, 0, f.read_findings);
    ogf3::parse_skeleton(f);
    ogf3::parse_motions(f);
    return f;
  });
}

}  // namespace boneyard::xray
