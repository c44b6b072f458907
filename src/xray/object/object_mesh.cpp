// Reading one mesh of an .object (a 0x910 child): CEditableMesh::LoadMesh's chunks, arrays kept as
// views into the body. Every count is checked against the bytes left before anything is kept.
#include "object_internal.h"

#include "boneyard/core/text.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

std::string ObjectMesh::path() const { return hex(kObjMeshes) + "/" + std::to_string(index); }

namespace object_detail {

namespace {

// An array of `count` elements of `size` bytes after a u32 count.
Bytes counted_array(ByteReader& r, std::uint32_t& count, std::size_t size, std::string_view what) {
  count = r.u32(std::string(what) + " count");
  r.need_array(count, size, what);
  return r.bytes(std::size_t{count} * size, what);
}

void read_vmaps(const Chunk& c, ObjectMesh& m) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint32_t n = r.u32("vmap count");
  // Name NUL + the fields that follow it, at least.
  r.need_array(n, c.id() == kMeshVmaps2 ? 8 : c.id() == kMeshVmaps1 ? 7 : 5, "vmaps");
  m.vmaps.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string where = "vmap " + std::to_string(i);
    ObjectVmap v;
    v.offset = r.offset();
    try {
      v.name = std::string(r.stringz("name"));
      if (c.id() == kMeshVmaps0) {
        v.dim = 2;
        v.type = kVmapUv;
      } else {
        v.dim = r.u8("dimension");
        if (c.id() == kMeshVmaps2) v.polymap = r.u8("discontinuous flag");
        v.type = r.u8("type");
      }
      v.size = r.u32("size");
      r.need_array(v.size, std::size_t{v.dim} * 4, "values");
      v.values = r.bytes(std::size_t{v.size} * v.dim * 4, "values");
      if (c.id() == kMeshVmaps2) {
        r.need_array(v.size, 4, "point indices");
        v.points = r.bytes(std::size_t{v.size} * 4, "point indices");
        if (v.polymap) {
          r.need_array(v.size, 4, "face indices");
          v.faces = r.bytes(std::size_t{v.size} * 4, "face indices");
        }
      }
    } catch (ParseError& e) {
      e.prepend_path(where);
      throw;
    }
    m.vmaps.push_back(std::move(v));
  }
  if (!r.at_end()) fail(r.offset(), "", "bytes after the last vmap", "end of chunk", std::to_string(r.remaining()) + " bytes");
}

void read_vmrefs(const Chunk& c, ObjectMesh& m) {
  ByteReader r(c.payload, c.payload_offset());
  m.vmref_count = r.u32("vmref count");
  r.need_array(m.vmref_count, 1, "vmrefs");
  m.vmrefs = r.rest();
  m.vmref_at.reserve(m.vmref_count);
  for (std::uint32_t i = 0; i < m.vmref_count; ++i) {
    m.vmref_at.push_back(static_cast<std::uint32_t>(r.position() - 4));
    // The record's name is made only for the error: real meshes hold thousands of vmrefs.
    if (r.remaining() < 1) r.u8("vmref " + std::to_string(i) + " entry count");
    const std::uint8_t n = r.u8("vmref entry count");
    if (r.remaining() < std::size_t{n} * 8) r.skip(std::size_t{n} * 8, "vmref " + std::to_string(i) + " entries");
    r.skip(std::size_t{n} * 8, "vmref entries");
  }
  if (!r.at_end()) fail(r.offset(), "", "bytes after the last vmref", "end of chunk", std::to_string(r.remaining()) + " bytes");
}

void read_surface_faces(const Chunk& c, ObjectMesh& m) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint16_t n = r.u16("surface count");
  r.need_array(n, 5, "surfaces");
  for (std::uint16_t i = 0; i < n; ++i) {
    SurfaceFaces s;
    s.offset = r.offset();
    const std::string where = "surface " + std::to_string(i);
    s.surface = std::string(r.stringz(where + " name"));
    s.faces = counted_array(r, s.count, 4, where + " faces");
    m.surfaces.push_back(std::move(s));
  }
  if (!r.at_end()) fail(r.offset(), "", "bytes after the last surface", "end of chunk", std::to_string(r.remaining()) + " bytes");
}

}  // namespace

void read_mesh(ObjectMesh& m, std::vector<Finding>& notes) {
  if (m.chunks.overrun && m.chunks.overrun->truncated_chunk())
    fail(m.chunks.overrun->offset, hex(m.chunks.overrun->raw_id), "chunk runs past the end of the mesh",
         std::to_string(m.chunks.overrun->declared_size) + " bytes", std::to_string(m.chunks.overrun->available) + " bytes left");
  if (!m.chunks.trailing.empty())
    notes.push_back({Severity::warning, m.chunks.trailing_offset, m.path(), "bytes after the mesh's last chunk (kept)", "none",
                     std::to_string(m.chunks.trailing.size()) + " bytes"});
  const Chunk* version = m.chunks.find(kMeshVersion);
  if (version == nullptr) fail(m.offset, "", "mesh has no version chunk", "chunk 0x1000", "none");
  if (version->payload.size() < 2) fail(version->payload_offset(), "0x1000", "truncated", "2 bytes", std::to_string(version->payload.size()) + " bytes");
  m.version = load_le<std::uint16_t>(version->payload.data());
  if (m.version != kMeshVersionCurrent)
    fail(version->payload_offset(), "0x1000", "unsupported mesh version (the SDK refuses the mesh)", "17 (0x11)",
         std::to_string(m.version));
  for (const Chunk& c : m.chunks.chunks) {
    const std::string where = hex(c.raw_id);
    ByteReader r(c.payload, c.payload_offset());
    try {
      switch (c.id()) {
        case kMeshVersion:
          break;
        case kMeshName:
          m.name = std::string(r.stringz("name"));
          break;
        case kMeshBbox: {
          std::array<float, 6> b{};
          for (float& f : b) f = r.f32("bounding box");
          m.bbox = b;
          break;
        }
        case kMeshFlags:
          m.flags = r.u8("flags");
          break;
        case kMeshOptions: {
          const std::uint32_t a = r.u32("options");
          m.options = std::array<std::uint32_t, 2>{a, r.u32("options")};
          break;
        }
        case kMeshPoints:
          m.points = counted_array(r, m.point_count, 12, "points");
          break;
        case kMeshFaces:
          m.faces = counted_array(r, m.face_count, 24, "faces");
          break;
        case kMeshSmoothing:
          m.has_smoothing = true;
          m.smoothing = c.payload;
          break;
        case kMeshVmrefs:
          read_vmrefs(c, m);
          break;
        case kMeshSurfaceFaces:
          read_surface_faces(c, m);
          break;
        case kMeshVmaps0:
        case kMeshVmaps1:
        case kMeshVmaps2:
          // The SDK reads VMAPS_2 if present, else VMAPS_1, else VMAPS_0.
          if (m.vmaps_chunk == 0 || c.id() > m.vmaps_chunk) {
            m.vmaps.clear();
            m.vmaps_chunk = c.id();
            read_vmaps(c, m);
          }
          break;
        case kMeshNormals:
          m.normals = c.payload;
          break;
        default:
          notes.push_back({Severity::info, c.offset, m.path() + " " + where, "unknown mesh chunk (kept)", {}, {}});
          break;
      }
    } catch (ParseError& e) {
      e.prepend_path(where);
      throw;
    }
  }
}

}  // namespace object_detail

}  // namespace boneyard::xray
