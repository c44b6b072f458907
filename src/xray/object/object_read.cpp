// Reading an .object: the body chunk (unpacked when compressed), then every body chunk the SDK
// reads (CEditableObject::Load), each parsed beside its stored bytes.
#include <algorithm>

#include "boneyard/core/text.h"
#include "core/byte_reader.h"
#include "object_internal.h"

namespace boneyard::xray {

std::string_view smoothing_style_name(SmoothingStyle s) { return s == SmoothingStyle::soc ? "soc" : "cscop"; }

int ObjectFile::bone_of_weight_map(std::string_view wmap) const {
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (bones[i].wmap == wmap) return static_cast<int>(i);
  // Bones of old files (and some exporters) leave the weight map empty: the name is the map's.
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (bones[i].wmap.empty() && bones[i].name == wmap) return static_cast<int>(i);
  return -1;
}

int ObjectFile::find_surface(std::string_view name) const {
  for (std::size_t i = 0; i < surfaces.size(); ++i)
    if (surfaces[i].name == name) return static_cast<int>(i);
  return -1;
}

bool looks_like_object(Bytes bytes) {
  return bytes.size() >= 8 && (load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit) == kObjectBody;
}

namespace {

std::string read_string(ByteReader& r, std::string_view what) { return std::string(r.stringz(what)); }

std::vector<ObjectSurface> read_surfaces(const Chunk& c, const Chunk* xrlc) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint32_t n = r.u32("surface count");
  r.need_array(n, c.id() == kObjSurfaces ? 15 : 18, "surfaces");
  std::vector<ObjectSurface> out;
  out.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string where = "surface " + std::to_string(i);
    ObjectSurface s;
    s.offset = r.offset();
    try {
      s.name = read_string(r, "name");
      s.shader = read_string(r, "shader");
      if (c.id() == kObjSurfaces) {
        s.flags = r.u8("two-sided");
        s.fvf = r.u32("fvf");
        s.tc_count = r.u32("texture coordinate count");
        s.texture = read_string(r, "texture");
        s.vmap = read_string(r, "vmap");
        s.compiler_shader = "default";
      } else {
        s.compiler_shader = read_string(r, "compiler shader");
        if (c.id() == kObjSurfaces3) s.game_mtl = read_string(r, "game material");
        s.texture = read_string(r, "texture");
        s.vmap = read_string(r, "vmap");
        s.flags = r.u32("flags");
        s.fvf = r.u32("fvf");
        s.tc_count = r.u32("texture coordinate count");
      }
    } catch (ParseError& e) {
      e.prepend_path(where);
      throw;
    }
    out.push_back(std::move(s));
  }
  if (c.id() == kObjSurfaces && xrlc != nullptr) {
    ByteReader x(xrlc->payload, xrlc->payload_offset());
    for (auto& s : out) s.compiler_shader = read_string(x, "0x918 compiler shader");
  }
  return out;
}

std::optional<ObjectDescription> read_description(const Chunk& c) {
  for (const std::uint8_t time_size : {std::uint8_t{4}, std::uint8_t{8}}) {
    ObjectDescription d;
    d.time_size = time_size;
    ByteReader r(c.payload, c.payload_offset());
    try {
      d.creator = read_string(r, "creator");
      d.create_time = time_size == 4 ? r.u32("time") : r.u64("time");
      d.modifier = read_string(r, "modifier");
      d.modify_time = time_size == 4 ? r.u32("time") : r.u64("time");
    } catch (const ParseError&) {
      continue;
    }
    if (!r.at_end()) continue;
    d.parsed = true;
    return d;
  }
  return ObjectDescription{};
}

void read_motion_refs(ObjectFile& f) {
  if (const Chunk* c = f.find(kObjMotionRefsSoc)) {
    // The SDK reads this one first: comma-separated items of one string (_GetItem).
    ByteReader r(c->payload, c->payload_offset());
    f.motion_refs_chunk = kObjMotionRefsSoc;
    const std::string all = read_string(r, "0x924 motion refs");
    for (std::size_t start = 0; start <= all.size();) {
      const std::size_t comma = std::min(all.find(',', start), all.size());
      if (comma > start) f.motion_refs.push_back(all.substr(start, comma - start));
      start = comma + 1;
    }
  } else if (const Chunk* c3 = f.find(kObjMotionRefs)) {
    ByteReader r(c3->payload, c3->payload_offset());
    f.motion_refs_chunk = kObjMotionRefs;
    const std::uint32_t n = r.u32("0x926 motion ref count");
    r.need_array(n, 1, "0x926 motion refs");
    for (std::uint32_t i = 0; i < n; ++i) f.motion_refs.push_back(read_string(r, "0x926 motion ref"));
  }
}

void read_object_bones(ObjectFile& f) {
  if (const Chunk* c = f.find(kObjBones)) {
    f.bones_chunk = kObjBones;
    const ChunkList list = split_chunks(c->payload, c->payload_offset());
    if (list.overrun && list.overrun->truncated_chunk())
      fail(list.overrun->offset, "0x921 " + hex(list.overrun->raw_id), "chunk runs past the end of the bones",
           std::to_string(list.overrun->declared_size) + " bytes", std::to_string(list.overrun->available) + " bytes left");
    for (std::uint32_t id = 0;; ++id) {
      const Chunk* b = list.find(id);
      if (b == nullptr || b->compress_bit()) break;
      f.bones.push_back(parse_bone_chunks(*b, "0x921/" + std::to_string(id), f.read_findings));
    }
    if (list.chunks.size() != f.bones.size())
      f.read_findings.push_back({Severity::warning, c->offset, "0x921",
                                 "bone chunks after a gap in the ids (the SDK stops at the first missing id; kept, never read)",
                                 std::to_string(f.bones.size()) + " chunks", std::to_string(list.chunks.size())});
  } else if (const Chunk* old = f.find(kObjBonesOld)) {
    f.bones_chunk = kObjBonesOld;
    f.bones = parse_old_bones(*old, f.read_findings);
  }
  // CEditableObject::Load checks the old parts first.
  if (const Chunk* p = f.find(kBonePartsOldChunk))
    f.parts = parse_bone_parts(*p);
  else if (const Chunk* p2 = f.find(kBonePartsChunk))
    f.parts = parse_bone_parts(*p2);
}

void read_meshes(ObjectFile& f) {
  const Chunk* c = f.find(kObjMeshes);
  if (c == nullptr) return;
  const ChunkList list = split_chunks(c->payload, c->payload_offset());
  if (list.overrun && list.overrun->truncated_chunk())
    fail(list.overrun->offset, "0x910 " + hex(list.overrun->raw_id), "chunk runs past the end of the meshes",
         std::to_string(list.overrun->declared_size) + " bytes", std::to_string(list.overrun->available) + " bytes left");
  for (std::uint32_t id = 0;; ++id) {
    const Chunk* mc = list.find(id);
    if (mc == nullptr || mc->compress_bit()) break;
    ObjectMesh m;
    m.index = id;
    m.offset = mc->offset;
    m.chunks = split_chunks(mc->payload, mc->payload_offset());
    auto parsed = catch_parse_errors([&]() -> bool {
      try {
        object_detail::read_mesh(m, f.read_findings);
      } catch (ParseError& e) {
        e.prepend_path(m.path());
        throw;
      }
      return true;
    });
    if (!parsed) m.readable = parsed.error();
    f.meshes.push_back(std::move(m));
  }
  if (list.chunks.size() != f.meshes.size())
    f.read_findings.push_back({Severity::warning, c->offset, "0x910",
                               "mesh chunks after a gap in the ids (the SDK stops at the first missing id; kept, never read)",
                               std::to_string(f.meshes.size()) + " chunks", std::to_string(list.chunks.size())});
}

void read_body(ObjectFile& f, std::uint64_t base) {
  f.chunks = split_chunks(f.body, base);
  if (f.chunks.overrun && f.chunks.overrun->truncated_chunk())
    fail(f.chunks.overrun->offset, hex(f.chunks.overrun->raw_id), "chunk runs past the end of the object body",
         std::to_string(f.chunks.overrun->declared_size) + " bytes", std::to_string(f.chunks.overrun->available) + " bytes left");
  if (!f.chunks.trailing.empty())
    f.read_findings.push_back({Severity::warning, f.chunks.trailing_offset, "", "bytes after the body's last chunk (kept)",
                               "none", std::to_string(f.chunks.trailing.size()) + " bytes"});
  if (const Chunk* v = f.find(kObjVersion)) {
    ByteReader r(v->payload, v->payload_offset());
    f.version = r.u16("0x900 version");
  }
  if (const Chunk* fl = f.find(kObjFlags)) {
    ByteReader r(fl->payload, fl->payload_offset());
    f.flags_size = fl->payload.size() >= 4 ? 4 : 1;
    f.flags = f.flags_size == 4 ? r.u32("0x903 flags") : r.u8("0x903 flags");
  }
  if (const Chunk* c = f.find(kObjClassScript)) {
    ByteReader r(c->payload, c->payload_offset());
    f.user_data = read_string(r, "0x912 user data");
  }
  if (const Chunk* c = f.find(kObjLodRef)) {
    ByteReader r(c->payload, c->payload_offset());
    f.lod_ref = read_string(r, "0x925 LOD reference");
  }
  // The SDK's order of preference: 0x907, 0x906, then 0x905 (+ 0x918).
  for (const std::uint32_t id : {kObjSurfaces3, kObjSurfaces2, kObjSurfaces}) {
    if (const Chunk* c = f.find(id)) {
      f.surfaces_chunk = id;
      try {
        f.surfaces = read_surfaces(*c, f.find(kObjSurfacesXrlc));
      } catch (ParseError& e) {
        e.prepend_path(hex(id));
        throw;
      }
      break;
    }
  }
  read_meshes(f);
  read_object_bones(f);
  read_motion_refs(f);
  if (const Chunk* c = f.find(kObjMotions)) {
    ByteReader r(c->payload, c->payload_offset());
    f.motion_count = r.u32("0x916 motion count");
    auto list = read_motion_list(c->payload, c->payload_offset(), "0x916");
    if (list)
      f.motions = std::move(list->motions);
    else
      f.motions_error = list.error();
  }
  if (const Chunk* c = f.find(kObjActorTransform)) {
    ByteReader r(c->payload, c->payload_offset());
    std::array<Vec3, 2> t{};
    for (auto& v : t) {
      v.x = r.f32("0x920 actor transform");
      v.y = r.f32("0x920 actor transform");
      v.z = r.f32("0x920 actor transform");
    }
    f.actor_transform = t;
  }
  if (const Chunk* c = f.find(kObjDescription)) f.description = read_description(*c);
}

}  // namespace

Result<ObjectFile> read_object(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> ObjectFile {
    ObjectFile f;
    f.source = file;
    f.size = file->bytes().size();
    f.file_chunks = split_chunks(file->bytes(), 0);
    if (f.file_chunks.chunks.empty() || f.file_chunks.chunks.front().id() != kObjectBody) {
      if (f.file_chunks.overrun && (f.file_chunks.overrun->raw_id & ~kChunkCompressBit) == kObjectBody)
        fail(0, hex(f.file_chunks.overrun->raw_id), "truncated object: the body chunk runs past the end of the file",
             std::to_string(f.file_chunks.overrun->declared_size) + " bytes",
             std::to_string(f.file_chunks.overrun->available) + " bytes left");
      fail(0, "", "not an .object file: the first chunk is not the object body", "chunk 0x7777", "none");
    }
    for (std::size_t i = 1; i < f.file_chunks.chunks.size(); ++i)
      f.read_findings.push_back({Severity::warning, f.file_chunks.chunks[i].offset, hex(f.file_chunks.chunks[i].raw_id),
                                 "chunk after the object body (the SDK reads only the body; kept)", {}, {}});
    if (!f.file_chunks.trailing.empty())
      f.read_findings.push_back({Severity::warning, f.file_chunks.trailing_offset, "", "bytes after the body chunk (kept)", "none",
                                 std::to_string(f.file_chunks.trailing.size()) + " bytes"});
    const Chunk& body = f.file_chunks.chunks.front();
    // The SDK opens the body with open_chunk: bit 31 of its id means LZHuf-packed.
    auto content = open_chunk(body, hex(body.raw_id));
    if (!content) throw ParseError(content.error());
    f.compressed = content->is_unpacked();
    f.unpacked = content->unpacked;
    f.body = content->bytes;
    read_body(f, f.compressed ? 0 : body.payload_offset());
    return f;
  });
}

}  // namespace boneyard::xray
