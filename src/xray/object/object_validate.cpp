// What the SDK needs of an .object (CEditableObject::Load, CEditableMesh::LoadMesh and the export's
// GenerateSVertices), with the offset and path of each problem.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "boneyard/core/text.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray {

namespace {

void add(Diagnostics& d, Severity s, std::uint64_t offset, std::string path, std::string message, std::string expected = {},
         std::string found = {}) {
  d.add(s, offset, std::move(path), std::move(message), std::move(expected), std::move(found));
}

// Of a column of floats, how many are not finite and how many are below zero (-0 and NaN are not),
// counted from their bits without branches, eight at a time so that the compiler can use vectors:
// a mesh holds tens of thousands of values.
std::pair<std::size_t, std::size_t> float_counts(Bytes column) {
  const auto count = [](std::uint32_t bits, auto& non_finite, auto& negative) {
    non_finite += (bits & 0x7F800000u) == 0x7F800000u;
    negative += bits - 0x80000001u < 0x7F800000u;  // sign set: from the smallest below -0 to -infinity
  };
  std::size_t non_finite = 0, negative = 0;
  const std::size_t n = column.size() / 4;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint32_t bits[8], nf = 0, neg = 0;
    std::memcpy(bits, column.data() + 4 * i, sizeof bits);
    for (const std::uint32_t b : bits) count(b, nf, neg);
    non_finite += nf, negative += neg;
  }
  for (; i < n; ++i) count(load_le<std::uint32_t>(column.data() + 4 * i), non_finite, negative);
  return {non_finite, negative};
}

void validate_surfaces(const ObjectFile& f, Diagnostics& d) {
  if (f.surfaces_chunk == 0) {
    add(d, Severity::error, 0, "", "object has no surfaces chunk (the SDK asserts one)", "chunk 0x907", "none");
    return;
  }
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < f.surfaces.size(); ++i) {
    const ObjectSurface& s = f.surfaces[i];
    const std::string where = hex(f.surfaces_chunk) + " surface " + std::to_string(i) + " (" + printable(s.name) + ")";
    if (s.tc_count < 1)
      add(d, Severity::error, s.offset, where, "surface without texture coordinates (the SDK asserts at least one)", ">= 1",
          std::to_string(s.tc_count));
    else if (s.tc_count > 1)
      add(d, Severity::warning, s.offset, where, "surface with more than one set of texture coordinates (the SDK logs an error)",
          "1", std::to_string(s.tc_count));
    if (s.texture.empty()) add(d, Severity::warning, s.offset, where, "surface without a texture", "a texture path", "\"\"");
    if (s.shader.empty()) add(d, Severity::warning, s.offset, where, "surface without an engine shader", "a shader", "\"\"");
    if (auto [it, fresh] = seen.emplace(s.name, i); !fresh)
      add(d, Severity::warning, s.offset, where, "two surfaces with one name (meshes find the first)", "unique names",
          "same as surface " + std::to_string(it->second));
  }
}

void validate_skeleton(const ObjectFile& f, Diagnostics& d) {
  std::unordered_map<std::string, std::size_t> index;
  std::unordered_map<std::string, std::size_t> wmaps;
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const BoneData& b = f.bones[i];
    validate_bone_data(b, true, d);
    if (auto [it, fresh] = index.emplace(bone_key(b.name), i); !fresh)
      add(d, Severity::error, b.offset, b.path, "duplicate bone name (the SDK lower-cases names)", "unique names",
          "same as bone " + std::to_string(it->second));
    if (!b.wmap.empty())
      if (auto [it, fresh] = wmaps.emplace(b.wmap, i); !fresh)
        add(d, Severity::warning, b.offset, b.path, "two bones with one weight map (its weights go to the first)",
            "unique weight maps", "same as bone " + std::to_string(it->second));
  }
  std::size_t roots = 0;
  std::vector<int> parent(f.bones.size(), -1);
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const BoneData& b = f.bones[i];
    if (b.parent.empty()) {
      ++roots;
      continue;
    }
    const auto it = index.find(bone_key(b.parent));
    if (it == index.end())
      add(d, Severity::error, b.offset, b.path, "parent bone not found", "a bone name", printable(b.parent));
    else
      parent[i] = static_cast<int>(it->second);
  }
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    std::size_t steps = 0;
    for (int p = parent[i]; p >= 0; p = parent[static_cast<std::size_t>(p)])
      if (++steps > f.bones.size()) {
        add(d, Severity::error, f.bones[i].offset, f.bones[i].path, "bone is part of a parent cycle", "a tree", "a cycle");
        break;
      }
  }
  if (!f.bones.empty() && roots == 0)
    add(d, Severity::error, 0, hex(f.bones_chunk), "no root bone", "one bone without a parent", "none");
  else if (roots > 1)
    add(d, Severity::warning, 0, hex(f.bones_chunk), "more than one root bone (the engine animates one tree)", "1",
        std::to_string(roots));
  if (f.parts) validate_bone_parts(*f.parts, f.bones, hex(f.parts->chunk), d);
}

// The embedded motions (0x916): each as the .skls validator sees it, and its bones against the
// object's (the SDK sorts a motion's bones by the skeleton's names, CSMotion::SortBonesBySkeleton).
void validate_motions(const ObjectFile& f, Diagnostics& d) {
  if (!f.find(kObjMotions)) return;
  if (!f.motions_error) {
    d.add(f.motions_error.error());
    return;
  }
  std::unordered_map<std::string, std::size_t> bone_of;
  for (std::size_t i = 0; i < f.bones.size(); ++i) bone_of.emplace(bone_key(f.bones[i].name), i);
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const SklMotion& m = f.motions[i];
    const std::string where = "0x916 motion " + std::to_string(i) + " \"" + printable(m.name) + "\"";
    validate_skl_motion(m, where, d);
    std::size_t unknown = 0;
    std::string first;
    for (const auto& b : m.bones)
      if (!bone_of.count(bone_key(b.name)) && unknown++ == 0) first = printable(b.name);
    if (unknown)
      add(d, Severity::error, m.offset, where, "motion bones the object does not have", "the object's bone names",
          std::to_string(unknown) + " bone(s), the first " + first);
    if (m.bones.size() != f.bones.size() && unknown == 0)
      add(d, Severity::warning, m.offset, where, "motion does not animate every bone", std::to_string(f.bones.size()) + " bones",
          std::to_string(m.bones.size()));
  }
}

}  // namespace

void validate_object_mesh(const ObjectFile& f, const ObjectMesh& m, Diagnostics& d, bool errors_only) {
  const bool warnings = !errors_only;
  const std::string base = m.path() + (m.name.empty() ? "" : " (" + printable(m.name) + ")");
  if (!m.readable) {
    d.add(m.readable.error());
    return;
  }
  auto require = [&](std::uint32_t id, const char* what) {
    if (m.chunks.find(id) == nullptr)
      add(d, Severity::error, m.offset, base, std::string("mesh has no ") + what + " chunk (the SDK asserts it)", hex(id), "none");
  };
  require(kMeshName, "name");
  require(kMeshBbox, "bounding box");
  require(kMeshFlags, "flags");
  require(kMeshPoints, "points");
  require(kMeshFaces, "faces");
  require(kMeshVmrefs, "vmrefs");
  require(kMeshSurfaceFaces, "surface faces");
  if (m.vmaps_chunk == 0) add(d, Severity::error, m.offset, base, "mesh has no vertex maps chunk", "0x1012", "none");
  if (m.chunks.find(kMeshPoints) && m.point_count < 3)
    add(d, Severity::error, m.offset, base + " 0x1005", "mesh with fewer than 3 points (the SDK refuses it)", ">= 3",
        std::to_string(m.point_count));
  if (m.chunks.find(kMeshFaces) && m.face_count == 0)
    add(d, Severity::error, m.offset, base + " 0x1006", "mesh without faces (the SDK refuses it)", ">= 1", "0");
  if (m.has_smoothing && m.smoothing.size() != std::size_t{m.face_count} * 4) {
    const Chunk* c = m.chunks.find(kMeshSmoothing);
    add(d, Severity::error, c ? c->offset : m.offset, base + " 0x1013", "smoothing groups do not match the face count",
        std::to_string(std::size_t{m.face_count} * 4) + " bytes", std::to_string(m.smoothing.size()) + " bytes");
  }
  if (!m.normals.empty() && m.normals.size() != std::size_t{m.face_count} * 36) {
    const Chunk* c = m.chunks.find(kMeshNormals);
    add(d, Severity::warning, c ? c->offset : m.offset, base + " 0x1014", "split normals do not match the face count",
        std::to_string(std::size_t{m.face_count} * 36) + " bytes", std::to_string(m.normals.size()) + " bytes");
  }
  // Vertex maps.
  std::vector<bool> weight_has_bone(m.vmaps.size(), true);
  for (std::size_t v = 0; v < m.vmaps.size(); ++v) {
    const ObjectVmap& vm = m.vmaps[v];
    const std::string where = base + " " + hex(m.vmaps_chunk) + " vmap " + std::to_string(v) + " (" + printable(vm.name) + ")";
    if ((vm.type & 3) > 1) {
      add(d, Severity::error, vm.offset, where, "unknown vertex map type", "0 (UV) or 1 (weight)", std::to_string(vm.type));
      continue;
    }
    if (vm.is_uv() && vm.dim != 2)
      add(d, Severity::error, vm.offset, where, "UV map whose dimension is not 2", "2", std::to_string(vm.dim));
    if (vm.is_weight() && vm.dim != 1)
      add(d, Severity::error, vm.offset, where, "weight map whose dimension is not 1", "1", std::to_string(vm.dim));
    if (vm.is_weight() && !f.bones.empty() && f.bone_of_weight_map(vm.name) < 0) {
      weight_has_bone[v] = false;
      add(d, Severity::error, vm.offset, where, "weight map of no bone (the SDK stops: \"Can't find bone assigned to weight map\")",
          "a bone's weight map", printable(vm.name));
    }
    // Counted without branches, a column at a time (a mesh holds tens of thousands of values): an
    // index read as unsigned is past the mesh when negative too; a float is non-finite when its
    // exponent bits are all set, negative (x < 0) when its sign is set and it is neither -0 nor NaN.
    const auto past = [](Bytes column, std::uint32_t limit) {
      std::size_t n = 0;
      for (std::size_t i = 0; i + 4 <= column.size(); i += 4) n += load_le<std::uint32_t>(column.data() + i) >= limit;
      return n;
    };
    const std::size_t bad_points = past(vm.points, m.point_count), bad_faces = past(vm.faces, m.face_count);
    const auto [non_finite, negative_any] = warnings ? float_counts(vm.values) : std::pair<std::size_t, std::size_t>{};
    const std::size_t negative = vm.is_weight() ? negative_any : 0;
    if (bad_points) add(d, Severity::error, vm.offset, where, "vertex map entries name points past the mesh", "< " + std::to_string(m.point_count), std::to_string(bad_points) + " entries");
    if (bad_faces) add(d, Severity::error, vm.offset, where, "vertex map entries name faces past the mesh", "< " + std::to_string(m.face_count), std::to_string(bad_faces) + " entries");
    if (non_finite) add(d, Severity::warning, vm.offset, where, "non-finite vertex map values", "finite numbers", std::to_string(non_finite) + " values");
    if (negative) add(d, Severity::warning, vm.offset, where, "negative weights", ">= 0", std::to_string(negative) + " values");
  }
  // Vmrefs.
  // Per vmref, what the corners using it need (computed once, not per corner): whether every entry
  // exists, whether it has a UV and a weight, and the point its entries' values belong to: one
  // point, or several (then checked entry by entry), with how many entries name one. Eight bytes
  // each: the faces read them at random.
  enum : std::uint8_t { kOk = 1, kUv = 2, kWeight = 4, kOnePoint = 8, kPoints = 16 };
  struct RefInfo {
    std::uint32_t point = 0;
    std::uint8_t pointed = 0, flags = kOk;
  };
  std::vector<RefInfo> refs(warnings ? m.vmref_count : 0);
  {
    struct MapInfo {
      std::uint32_t size;
      std::uint8_t flags;
      const std::uint8_t* points;
    };
    std::vector<MapInfo> maps;
    maps.reserve(m.vmaps.size());
    for (const auto& vm : m.vmaps)
      maps.push_back({std::uint32_t(vm.size), std::uint8_t((vm.is_uv() ? kUv : 0) | (vm.is_weight() ? kWeight : 0)),
                      vm.points.empty() ? nullptr : vm.points.data()});
    std::size_t bad = 0;
    std::string first;
    for (std::size_t r = 0; r < m.vmref_count; ++r) {
      const std::uint8_t* entry = m.vmrefs.data() + m.vmref_at[r];
      const std::size_t n = *entry++;
      RefInfo ri;
      for (std::size_t k = 0; k < n; ++k, entry += 8) {
        // Read as unsigned, a negative map or index is past the end too.
        const std::uint32_t vmap = load_le<std::uint32_t>(entry), index = load_le<std::uint32_t>(entry + 4);
        if (vmap >= maps.size() || index >= maps[vmap].size) {
          ri.flags = 0;
          if (bad++ == 0)
            first = "vmref " + std::to_string(r) + " entry " + std::to_string(k) + " (" + std::to_string(std::int32_t(vmap)) +
                    ", " + std::to_string(std::int32_t(index)) + ")";
          continue;
        }
        if (!warnings) continue;  // the rest serves the corner warnings
        const MapInfo& mi = maps[vmap];
        ri.flags |= mi.flags;
        if (mi.points == nullptr) continue;
        const std::uint32_t q = load_le<std::uint32_t>(mi.points + 4 * std::size_t(index));
        ++ri.pointed;
        if (!(ri.flags & (kOnePoint | kPoints)))
          ri.point = q, ri.flags |= kOnePoint;
        else if ((ri.flags & kOnePoint) && ri.point != q)
          ri.flags = std::uint8_t((ri.flags & ~kOnePoint) | kPoints);
      }
      if (warnings) refs[r] = (ri.flags & kOk) ? ri : RefInfo{0, 0, 0};
    }
    if (bad)
      add(d, Severity::error, m.offset, base + " 0x1008", "vmref entries name a vertex map or value that does not exist",
          "entries within the vmaps", std::to_string(bad) + " entries, the first " + first);
  }
  // Faces.
  std::size_t bad_points = 0, bad_refs = 0, degenerate = 0, no_uv = 0, no_weight = 0, point_mismatch = 0;
  std::size_t first_degenerate = 0;
  const bool skinned = !f.bones.empty();
  if (!warnings) {
    // The errors alone (the export's check before it follows any index): counted without
    // branches; the first degenerate face is looked for only when there is one.
    for (std::size_t fi = 0; fi < m.face_count; ++fi) {
      const std::uint32_t p0 = m.corner_point(fi, 0), p1 = m.corner_point(fi, 1), p2 = m.corner_point(fi, 2);
      bad_points += std::size_t{p0 >= m.point_count} + std::size_t{p1 >= m.point_count} + std::size_t{p2 >= m.point_count};
      bad_refs += std::size_t{m.corner_vmref(fi, 0) >= m.vmref_count} + std::size_t{m.corner_vmref(fi, 1) >= m.vmref_count} +
                  std::size_t{m.corner_vmref(fi, 2) >= m.vmref_count};
      degenerate += static_cast<std::size_t>((p0 == p1) | (p1 == p2) | (p0 == p2));
    }
    if (degenerate)
      while (m.corner_point(first_degenerate, 0) != m.corner_point(first_degenerate, 1) &&
             m.corner_point(first_degenerate, 1) != m.corner_point(first_degenerate, 2) &&
             m.corner_point(first_degenerate, 0) != m.corner_point(first_degenerate, 2))
        ++first_degenerate;
  }
  for (std::size_t fi = 0; warnings && fi < m.face_count; ++fi) {
    std::uint32_t p[3];
    for (int k = 0; k < 3; ++k) {
      p[k] = m.corner_point(fi, k);
      const std::uint32_t r = m.corner_vmref(fi, k);
      bad_points += p[k] >= m.point_count;
      if (r >= m.vmref_count) {
        ++bad_refs;
        continue;
      }
      if (!warnings) continue;
      const RefInfo ri = refs[r];  // flags 0 for a vmref with a missing entry: nothing counted
      no_uv += (ri.flags & (kOk | kUv)) == kOk;
      no_weight += skinned & ((ri.flags & (kOk | kWeight)) == kOk);
      if (ri.flags & kOnePoint) {
        point_mismatch += ri.point != p[k] ? ri.pointed : 0;
        continue;
      }
      if (!(ri.flags & kPoints)) continue;
      for (std::size_t k2 = 0; k2 < m.vmref_size(r); ++k2) {
        const VmrefEntry e = m.vmref_entry(r, k2);
        const ObjectVmap& vm = m.vmaps[std::size_t(e.vmap)];
        if (!vm.points.empty() && std::uint32_t(vm.point(std::size_t(e.index))) != p[k]) ++point_mismatch;
      }
    }
    if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2])
      if (degenerate++ == 0) first_degenerate = fi;
  }
  if (bad_points)
    add(d, Severity::error, m.offset, base + " 0x1006", "faces name points past the mesh", "< " + std::to_string(m.point_count), std::to_string(bad_points) + " corners");
  if (bad_refs)
    add(d, Severity::error, m.offset, base + " 0x1006", "faces name vmrefs past the list", "< " + std::to_string(m.vmref_count), std::to_string(bad_refs) + " corners");
  if (degenerate) {
    const Chunk* c = m.chunks.find(kMeshFaces);
    add(d, Severity::error, c ? c->payload_offset() + 4 + 24 * first_degenerate : m.offset,
        base + " 0x1006 face " + std::to_string(first_degenerate),
        "invalid face: a point used twice (no area and no normal; blender-xray reports \"Invalid face\")",
        "three different points", std::to_string(degenerate) + " face(s)");
  }
  if (no_uv) add(d, Severity::warning, m.offset, base + " 0x1008", "corners without a UV (the SDK exports an undefined one)", "a UV per corner", std::to_string(no_uv) + " corners");
  if (no_weight)
    add(d, Severity::warning, m.offset, base + " 0x1008", "corners of a skinned object without a weight (the SDK cannot bind them on export)",
        "a weight per corner", std::to_string(no_weight) + " corners");
  if (point_mismatch)
    add(d, Severity::warning, m.offset, base + " 0x1008", "vmref entries whose vertex map value belongs to another point",
        "the corner's point", std::to_string(point_mismatch) + " entries");
  // Surfaces.
  std::vector<int> surface_of(warnings ? m.face_count : 0, -1);
  std::size_t doubled = 0;
  for (std::size_t s = 0; s < m.surfaces.size(); ++s) {
    const SurfaceFaces& sf = m.surfaces[s];
    const std::string where = base + " 0x1009 surface " + std::to_string(s) + " (" + printable(sf.surface) + ")";
    if (f.find_surface(sf.surface) < 0)
      add(d, Severity::error, sf.offset, where, "faces of a surface the object does not have", "a surface name", printable(sf.surface));
    if (sf.count == 0) add(d, Severity::error, sf.offset, where, "empty surface (the SDK refuses the mesh)", ">= 1 face", "0");
    std::size_t past = 0;
    for (std::size_t i = 0; i < sf.count; ++i) {
      const std::uint32_t fi = sf.face(i);
      if (fi >= m.face_count) {
        ++past;
        continue;
      }
      if (!warnings) continue;
      if (surface_of[fi] >= 0 && surface_of[fi] != int(s)) ++doubled;
      surface_of[fi] = int(s);
    }
    if (past) add(d, Severity::error, sf.offset, where, "surface faces past the mesh", "< " + std::to_string(m.face_count), std::to_string(past) + " faces");
  }
  const auto loose = static_cast<std::size_t>(std::count(surface_of.begin(), surface_of.end(), -1));
  if (loose && warnings)
    add(d, Severity::warning, m.offset, base + " 0x1009", "faces in no surface (the SDK exports only the surfaces' faces)",
        "every face in a surface", std::to_string(loose) + " faces");
  if (doubled)
    add(d, Severity::warning, m.offset, base + " 0x1009", "faces in two surfaces", "each face in one", std::to_string(doubled) + " faces");
  // Points.
  std::size_t non_finite = 0;
  for (std::size_t i = 0; i < m.point_count; ++i) {
    const Vec3 v = m.point(i);
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) ++non_finite;
  }
  if (non_finite) add(d, Severity::error, m.offset, base + " 0x1005", "non-finite point positions", "finite numbers", std::to_string(non_finite) + " points");
}

Diagnostics validate_object(const ObjectFile& f) {
  Diagnostics d;
  for (const auto& x : f.read_findings) d.add(x);
  if (!f.version)
    add(d, Severity::error, 0, "", "object has no version chunk (the SDK asserts it)", "chunk 0x900", "none");
  else if (*f.version != kObjectVersion)
    add(d, Severity::error, f.find(kObjVersion)->payload_offset(), "0x900", "unsupported object version (the SDK refuses it)",
        "16 (0x10)", std::to_string(*f.version));
  if (!f.flags) add(d, Severity::error, 0, "", "object has no flags chunk (the SDK asserts it)", "chunk 0x903", "none");
  validate_surfaces(f, d);
  std::unordered_set<std::string> names;
  for (const auto& m : f.meshes) {
    validate_object_mesh(f, m, d);
    if (m.readable && !names.insert(m.name).second)
      add(d, Severity::warning, m.offset, m.path(), "two meshes with one name (the SDK renames the second)", "unique names",
          printable(m.name));
  }
  if (f.meshes.empty()) add(d, Severity::warning, 0, "0x910", "object without meshes", ">= 1 mesh", "0");
  validate_skeleton(f, d);
  validate_motions(f, d);
  if (f.actor_transform)
    for (const Vec3& v : *f.actor_transform)
      if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
        add(d, Severity::error, f.find(kObjActorTransform)->offset, "0x920", "non-finite actor transform", "finite numbers", "NaN or infinity");
  if (f.description && !f.description->parsed)
    add(d, Severity::info, f.find(kObjDescription)->offset, "0x922", "description in a layout boneyard does not parse (kept as stored)");
  static constexpr std::uint32_t kKnown[] = {kObjVersion, 0x902, kObjFlags, kObjSurfaces, kObjSurfaces2, kObjSurfaces3, kObjMeshes,
                                             kObjLibVersion, kObjClassScript, kObjBonesOld, kObjObjectMotions, kObjMotions,
                                             kObjSurfacesXrlc, kBonePartsOldChunk, kObjActorTransform, kObjBones, kObjDescription,
                                             kBonePartsChunk, kObjMotionRefsSoc, kObjLodRef, kObjMotionRefs};
  for (const Chunk& c : f.chunks.chunks)
    if (std::find(std::begin(kKnown), std::end(kKnown), c.id()) == std::end(kKnown))
      add(d, Severity::info, c.offset, hex(c.raw_id), "unknown object chunk (kept)");
  if (f.compressed)
    for (auto& x : d.findings())
      if (x.path.rfind("unpacked body", 0) != 0) x.path = "unpacked body" + (x.path.empty() ? "" : " " + x.path);
  d.sort_by_offset();
  return d;
}

}  // namespace boneyard::xray
