// Normals from smoothing groups, as the SDKs compute them when they export or draw a mesh
// (CEditableMesh::GenerateFNormals / GenerateVNormals), and the reverse: smoothing groups that give
// a mesh's normals back. Rules and their sources: docs/xray-object.md "Smoothing groups".
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "boneyard/core/math.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray::object_smoothing {

// Fvector::mknormal: (p1 - p0) x (p2 - p1), normalised when its squared length exceeds FLT_MIN.
// Inline: it runs once per face of every mesh exported.
inline Vec3 face_normal(const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  const Vec3 v01{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z};
  const Vec3 v12{p2.x - p1.x, p2.y - p1.y, p2.z - p1.z};
  Vec3 n{v01.y * v12.z - v01.z * v12.y, v01.z * v12.x - v01.x * v12.z, v01.x * v12.y - v01.y * v12.x};
  float m = n.x * n.x + n.y * n.y + n.z * n.z;
  if (m > std::numeric_limits<float>::min()) {
    m = std::sqrt(1 / m);
    n.x *= m, n.y *= m, n.z *= m;
  }
  return n;
}

// CS/CoP face flags (face_smoth_flags.h): bit 3 marks a back face, which reads edge e as
// (4 - e) % 3; bit e (after that) marks edge e (corner e to corner e + 1) hard.
bool cop_soft_edge(std::uint32_t flags, int edge);
// Two faces smooth across their common edge (edge `ea` of a, `eb` of b): both sides soft and both
// faces front or both back.
bool cop_connected(std::uint32_t a, std::uint32_t b, int ea, int eb);

// The corners on each point in face order (the SDK's adjacency lists hold their faces, a face once
// per corner on the point): corners[start[p] .. start[p + 1]); a corner's face is corner / 3.
struct PointFaces {
  std::vector<std::uint32_t> start;
  std::vector<std::uint32_t> corners;
};
// Points and faces as given (corner points must be < points).
PointFaces point_faces(const std::vector<std::uint32_t>& corner_points, std::size_t points);

// A mesh's geometry for the normal rules: 3 corner points per face, positions, smoothing values.
struct Geometry {
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> corners;   // 3 per face
  std::vector<std::uint32_t> groups;    // 1 per face
  bool sg_mask = false;                 // the mesh's SG mask flag (SoC "MAX" bit masks)
};
Geometry geometry_of(const ObjectMesh& mesh);

// Each corner's normal (3 per face, X-Ray space) by the rules of `style`:
//  * SoC ids ("Maya"): -1 flat; else the faces around the point with the same id;
//  * SoC masks (the SG mask flag): 0 flat; else the faces around the point sharing a bit;
//  * CS/CoP flags: the faces around the point reachable across soft edges.
// Summed face normals, normalised when longer than 1e-7, else the normal of the point's first face.
std::vector<Vec3> corner_normals(const Geometry& g, SmoothingStyle style);
// The same, always by walking each point's list of faces as the SDK does (SoC ids take a single
// pass over the corners in corner_normals, which gives the same bits: tests compare the two).
std::vector<Vec3> corner_normals_by_point_lists(const Geometry& g, SmoothingStyle style);

// Smoothing values that reproduce `normals` (3 per face) on `g` in `style`: an edge two faces
// share is soft when both faces' normals at its two points agree (within `tolerance` per
// component). CS/CoP: per-face hard-edge bits; SoC: ids, one per set of faces joined by soft
// edges (-1 for a face smooth with nothing). `conflicts` counts the faces SoC ids cannot express
// (a soft edge inside a set that also meets at a point across a hard one).
std::vector<std::uint32_t> groups_from_normals(const Geometry& g, const std::vector<Vec3>& normals, SmoothingStyle style,
                                               float tolerance, std::size_t* conflicts = nullptr);

}  // namespace boneyard::xray::object_smoothing
