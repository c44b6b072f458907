// Findings of an .ogf: its container, skeleton, embedded motions and mesh children. The child
// check also backs the glTF export (which refuses a child with errors and repairs what the
// warnings name), so both always agree.
#include <cmath>

#include "boneyard/core/text.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "ogf_internal.h"

namespace boneyard::xray {

namespace {

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void validate_ogf_child(const OgfFile& file, const OgfChild& child, Diagnostics& out) {
  if (!child.readable) {
    out.add(child.readable.error());
    return;
  }
  const std::string where = child.path();
  const OgfVertices& vs = *child.vertices;
  if (child.index_count % 3 != 0)
    out.add(Severity::error, child.indices_offset - 4, where + " 0x4 index count",
            "index count is not a multiple of 3 (a triangle list)", "a multiple of 3",
            std::to_string(child.index_count));
  for (std::size_t i = 0; i < child.index_count; ++i) {
    const std::uint16_t v = child.index_at(i);
    if (v >= vs.count) {
      out.add(Severity::error, child.indices_offset + 2 * i, where + " 0x4 index " + std::to_string(i),
              "index past the vertex count", "< " + std::to_string(vs.count), std::to_string(v));
      break;  // one is enough to refuse the child; the offset leads to it
    }
  }
  if (!child.windows.empty()) {
    // Window 0 is the full-detail mesh the export draws; it must lie inside both buffers.
    const SlideWindow& w = child.windows[0];
    if (std::uint64_t{w.offset} + 3ull * w.triangles > child.index_count)
      out.add(Severity::error, child.windows_offset, where + " 0x6 window 0", "slide window past the index buffer",
              "offset + 3 x triangles <= " + std::to_string(child.index_count),
              std::to_string(w.offset) + " + 3 x " + std::to_string(w.triangles));
    if (w.vertices > vs.count)
      out.add(Severity::error, child.windows_offset + 6, where + " 0x6 window 0 vertices",
              "slide window uses more vertices than the child has", "<= " + std::to_string(vs.count),
              std::to_string(w.vertices));
  }
  std::size_t bad_uv = 0, bad_normal = 0;
  std::uint64_t first_uv = 0, first_normal = 0;
  const int links = vs.links();
  for (std::size_t i = 0; i < vs.count; ++i) {
    const OgfVertex v = decode_vertex(vs, i);
    const std::uint64_t at = vs.offset + i * vs.stride;
    for (int k = 0; k < links; ++k)
      if (v.bones[k] >= file.bones.size()) {
        out.add(Severity::error, at, where + " 0x3 vertex " + std::to_string(i) + " bone",
                "bone index past the skeleton", "< " + std::to_string(file.bones.size()) + " (0xD bones)",
                std::to_string(v.bones[k]));
        return;  // the child is refused; one finding locates it
      }
    if (!std::isfinite(v.u) || !std::isfinite(v.v)) first_uv = bad_uv++ == 0 ? at : first_uv;
    const bool has_normal = links > 0 || vs.fvf_normal >= 0;
    const double len2 = double(v.normal.x) * v.normal.x + double(v.normal.y) * v.normal.y +
                        double(v.normal.z) * v.normal.z;
    if (has_normal && (!finite(v.normal) || !(len2 > 1e-12))) first_normal = bad_normal++ == 0 ? at : first_normal;
  }
  if (bad_uv != 0)
    out.add(Severity::warning, first_uv, where + " 0x3 texture coordinates",
            "NaN or infinite texture coordinates (glTF export writes 0)", "finite",
            std::to_string(bad_uv) + " vertices");
  if (bad_normal != 0)
    out.add(Severity::warning, first_normal, where + " 0x3 normals",
            "zero or non-finite normals (glTF export recomputes them from the faces)", "non-zero, finite",
            std::to_string(bad_normal) + " vertices");
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
    out.add(Severity::warning, 0, "0x10",
            "no IK data: the bind pose is not stored (the engine leaves it unset; the glTF export puts every bone at its "
            "parent's origin)",
            "chunk 0x10", "none");
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
