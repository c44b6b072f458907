// glTF scenes shaped like Blender's export of boneyard's MGS2 glTF (../shared/docs/blender-notes.md,
// measured in tests/blender/mgs2_roundtrip_test.py): skin joints depth-first, joint frames turned
// (bone_heuristic TEMPERANCE) at the same places, primitive extras dropped, and on request node,
// mesh, material and scene extras dropped, material extras as the Python repr string Blender
// makes of a value holding None, renamed joints and ".001" material suffixes. Plus a comparison
// of what a round trip must keep: parents, places, triangles with texture ids and culling.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <functional>
#include <string>
#include <vector>

#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/strips.h"
#include "mgs2_gltf_support.h"
#include "scene/extras_json.h"

namespace boneyard::test {

struct BlenderShape {
  bool node_extras = true;      // Blender's export_extras (custom properties) on
  bool material_extras = true;
  bool extras_as_repr = false;  // material extras as Blender stores a value with None: its repr
  bool rename_joints = false;   // "Bone", "Bone.001", ... instead of unit_N / joint_N
  bool material_suffix = false; // ".001" after every material name (Blender's repeated names)
  bool turn_frames = true;
};

namespace blender_shape_detail {

inline Quat mul(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
inline Quat conj(const Quat& q) { return {-q.x, -q.y, -q.z, q.w}; }
inline Vec3 rotate(const Quat& q, const Vec3& v) {
  const Quat r = mul(mul(q, Quat{v.x, v.y, v.z, 0}), conj(q));
  return {r.x, r.y, r.z};
}

// "{'tex_id': [1, 2, 3], 'names': ['a', None, None]}": how Blender's importer keeps an extras
// value it cannot store as a custom property, and its exporter writes it back (a JSON string).
inline std::string python_repr(const nlohmann::json& j) {
  if (j.is_null()) return "None";
  if (j.is_boolean()) return j.get<bool>() ? "True" : "False";
  if (j.is_string()) return "'" + j.get<std::string>() + "'";
  if (j.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < j.size(); ++i) s += (i ? ", " : "") + python_repr(j[i]);
    return s + "]";
  }
  if (j.is_object()) {
    std::string s = "{";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it, first = false) s += (first ? "'" : ", '") + it.key() + "': " + python_repr(it.value());
    return s + "}";
  }
  return j.dump();
}

}  // namespace blender_shape_detail

// The depth-first order Blender writes skin joints in: each root, then its subtrees in order.
inline std::vector<std::size_t> depth_first(const scene::Skeleton& sk) {
  std::vector<std::size_t> out;
  std::function<void(int)> visit = [&](int parent) {
    for (std::size_t i = 0; i < sk.joints.size(); ++i)
      if (sk.joints[i].parent == parent) out.push_back(i), visit(static_cast<int>(i));
  };
  visit(-1);
  return out;
}

// `s` (our export) as Blender's export of it would read, through a real .glb.
inline scene::Scene blender_shaped(scene::Scene s, const BlenderShape& shape, Diagnostics& w) {
  using namespace blender_shape_detail;
  const auto world = scene::world_matrices(s.skeleton);
  const auto order = depth_first(s.skeleton);
  std::vector<int> new_index(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) new_index[order[k]] = static_cast<int>(k);
  std::vector<scene::Joint> joints;
  std::vector<Quat> turn(order.size());  // world rotation of each (new) joint
  for (std::size_t k = 0; k < order.size(); ++k) {
    scene::Joint j = std::move(s.skeleton.joints[order[k]]);
    const double angle = shape.turn_frames ? 0.4 + 0.5 * double(k) : 0;  // up to 170 degrees
    const double sn = std::sin(angle / 2), norm = std::sqrt(3.0);
    turn[k] = {float(sn / norm), float(sn / norm), float(-sn / norm), float(std::cos(angle / 2))};
    const auto& m = world[order[k]];
    Vec3 place{float(m[12]), float(m[13]), float(m[14])};
    if (j.parent >= 0) {
      const int p = new_index[std::size_t(j.parent)];
      const auto& pm = world[std::size_t(j.parent)];
      const Vec3 rel{place.x - float(pm[12]), place.y - float(pm[13]), place.z - float(pm[14])};
      j.translation = rotate(conj(turn[std::size_t(p)]), rel);
      j.rotation = mul(conj(turn[std::size_t(p)]), turn[k]);
      j.parent = p;
    } else {
      j.translation = place;
      j.rotation = turn[k];
    }
    if (shape.rename_joints) j.name = k == 0 ? "Bone" : "Bone." + std::string(k < 10 ? "00" : "0") + std::to_string(k);
    if (!shape.node_extras) j.extras = {};
    joints.push_back(std::move(j));
  }
  s.skeleton.joints = std::move(joints);
  for (auto& mesh : s.meshes) {
    if (mesh.joint >= 0) mesh.joint = new_index[std::size_t(mesh.joint)];
    if (!shape.node_extras) mesh.extras = {};
    for (auto& p : mesh.primitives) {
      for (auto& j : p.joints) j = static_cast<std::uint16_t>(new_index[j]);
      p.extras = {};  // Blender keeps no primitive extras
    }
  }
  for (auto& m : s.materials) {
    if (!shape.material_extras) m.extras = {};
    else if (shape.extras_as_repr)
      for (auto& [key, value] : json_of(m.extras).items()) value = python_repr(value);
    if (shape.material_suffix) m.name += ".001";
  }
  if (!shape.node_extras) s.extras = {};
  return via_glb(s, w);
}

// ---- what a round trip must keep ---------------------------------------------------------------

using Corner = std::array<long long, 5>;  // model-space position x 100, UV0 x 4096
struct Tri {
  int unit;  // KMS unit, -1 for EVM
  std::array<std::uint32_t, 3> tex;
  bool culled;
  std::array<Corner, 3> corners;  // rotated to start at the smallest, winding kept
  auto operator<=>(const Tri&) const = default;
};
struct ModelView {
  std::vector<int> parents;
  std::vector<std::array<double, 3>> places;
  std::vector<Tri> tris;
};

template <class Packet, class Place>
void add_triangles(ModelView& v, int unit, const Packet& p, Bytes kicks, std::size_t uv_stride, double pos_scale, Place place) {
  const std::size_t n = std::min<std::size_t>(p.vertex_count(), p.verts.data.size() / 8);
  const auto corner = [&](std::uint32_t i) {
    Corner c{};
    for (int k = 0; k < 3; ++k) c[std::size_t(k)] = std::llround((place[std::size_t(k)] + mgs2::s16_at(p.verts.data, i, std::size_t(k)) * pos_scale) * 100);
    if (p.uvs[0].present() && p.uvs[0].data.size() >= n * uv_stride)
      for (int k = 0; k < 2; ++k) c[std::size_t(3 + k)] = load_le<std::int16_t>(p.uvs[0].data.data() + i * uv_stride + std::size_t(k) * 2);
    return c;
  };
  for (const auto& t : mgs2::decode_strip(kicks, n)) {
    std::array<Corner, 3> c{corner(t[0]), corner(t[1]), corner(t[2])};
    std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
    v.tris.push_back({unit, p.tex_id, (p.flag & 0x6) != 0, c});
  }
}

inline ModelView view_of(const mgs2::KmsFile& m) {
  ModelView v;
  for (const auto& u : m.units) {
    const bool child = u.parent >= 0 && std::size_t(u.parent) < v.places.size();
    const auto base = child ? v.places[std::size_t(u.parent)]
                            : std::array<double, 3>{m.header.position.x, m.header.position.y, m.header.position.z};
    v.parents.push_back(u.parent);
    v.places.push_back({base[0] + u.position.x, base[1] + u.position.y, base[2] + u.position.z});
  }
  for (std::size_t i = 0; i < m.units.size(); ++i)
    for (const auto& p : m.units[i].packets) add_triangles(v, int(i), p, p.norms.data, 4, 1.0, v.places[i]);
  std::sort(v.tris.begin(), v.tris.end());
  return v;
}

inline ModelView view_of(const mgs2::EvmFile& m) {
  ModelView v;
  for (const auto& b : m.bones) v.parents.push_back(b.parent), v.places.push_back({b.root_offset.x, b.root_offset.y, b.root_offset.z});
  for (const auto& p : m.packets) add_triangles(v, -1, p, p.verts.data, 8, m.position_scale(), std::array<double, 3>{});
  std::sort(v.tris.begin(), v.tris.end());
  return v;
}

template <class Model>
void expect_same_identity(const Model& original, const Model& back) {
  const ModelView a = view_of(original), b = view_of(back);
  EXPECT_EQ(a.parents, b.parents);
  ASSERT_EQ(a.places.size(), b.places.size());
  for (std::size_t i = 0; i < a.places.size(); ++i)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a.places[i][std::size_t(k)], b.places[i][std::size_t(k)], 1e-3) << "joint " << i;
  EXPECT_EQ(a.tris.size(), b.tris.size());
  EXPECT_TRUE(a.tris == b.tris) << "triangles (corners, texture ids or culling) differ";
}

}  // namespace boneyard::test
