// Internal to the scene -> .object import (object_import.cpp, object_mesh_write.cpp): the triangles
// of one mesh in X-Ray space, and how a mesh's chunks are laid out from them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray::object_import {

// How far a corner normal may move and still be the one the smoothing groups gave (per component
// of unit normals). An .object's normals are derived, and Blender's custom normals average the
// normals of one fan that agree within 1e-4 in their dot product (0.81 degrees, 0.0141 in chord):
// an unedited mesh comes back with such corners moved by up to that much.
constexpr double kDerivedNormalTolerance = 1.5e-2;

// The vertices and triangles of one .object mesh, gathered from the scene's primitives and turned
// back into X-Ray space (positions, normals, winding), bones instead of joints.
struct MeshSoup {
  std::vector<Vec3> positions, normals;
  std::vector<std::vector<float>> uvs;  // per UV map, 2 per vertex
  // Per vertex: influences (bone, weight), heaviest first; the weights as the scene gives them.
  std::vector<std::vector<std::pair<std::uint16_t, float>>> influences;
  std::vector<std::int64_t> point_hint;  // the point a vertex was exported from (extras), or -1
  struct Triangle {
    std::uint32_t v[3];       // X-Ray winding
    std::uint32_t surface;    // index into the object's surfaces
    std::optional<std::uint32_t> group;  // the exported smoothing value (extras), when known
    std::optional<std::uint32_t> face;   // the exported face index (extras), when known
    // The smoothing value of the template face this triangle still is (same corners, same normals),
    // in the written style and this triangle's corner order: kept where the extras are gone.
    std::optional<std::uint32_t> template_group;
  };
  std::vector<Triangle> triangles;
};

// How a rebuilt mesh is laid out: a template mesh's name, flags, options, UV map names and chunk
// order, or the SDK's defaults.
struct MeshLayout {
  std::string name;  // raw cp1251
  std::uint8_t flags = 1;  // visible
  std::array<std::uint32_t, 2> options{0, 0};
  std::vector<std::string> uv_names;  // raw cp1251 per UV map (missing ones: "Texture", "Texture1", ...)
  std::vector<std::uint32_t> chunk_order;  // the template's chunk ids, in its order (empty: the SDK's)
  std::vector<std::string> surface_order;  // SFACE order of the template mesh (surface names)
  // The template mesh's points: without exported points (a DCC tool dropped the extras), welded
  // points at one of these positions take its place in the order, new ones come after.
  std::vector<Vec3> template_points;
};

struct MeshWriteResult {
  std::vector<std::uint8_t> payload;     // the mesh chunk's payload
  std::size_t smoothing_conflicts = 0;   // faces whose normals the written groups do not give back
  bool groups_from_extras = false;
};

// Marks each triangle of `soup` that is still a face of `tm` (the same corner positions within
// float noise, in any rotation, and the normals the SDK's rules give that face in `style`) with
// that face's smoothing value (a CS/CoP value's edge bits turned with the rotation).
void match_template_faces(MeshSoup& soup, const ObjectMesh& tm, SmoothingStyle style);

// Lays the mesh out: points welded by position (and the exported point, when known), faces,
// per-map UV vmaps (a continuous one per point, a discontinuous one for corners that differ) and
// one weight vmap per bone (named by `weight_maps[bone]`), deduplicated vmrefs, smoothing groups
// (the exported values when every triangle has one, else rebuilt from the normals in `style`),
// the surfaces' faces, the bounding box.
MeshWriteResult write_mesh(const MeshSoup& soup, const MeshLayout& layout, const std::vector<ObjectSurface>& surfaces,
                           const std::vector<std::string>& weight_maps, SmoothingStyle style);

}  // namespace boneyard::xray::object_import
