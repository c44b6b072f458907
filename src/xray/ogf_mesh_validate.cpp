// Mesh findings of an OGF child. The same function backs `validate` and the glTF export (which
// refuses a child with errors and repairs what the warnings name), so both always agree.
#include <cmath>

#include "boneyard/ogf.h"

namespace boneyard::xray {

namespace {

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void validate_ogf_child(const OgfFile& file, const OgfChild& child, Diagnostics& out) {
  if (child.error) {
    out.add(*child.error);
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

}  // namespace boneyard::xray
