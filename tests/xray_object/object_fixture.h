// Test fixtures for .object and .bones files, laid out field by field here (independently of the
// library's writers) from ../shared/docs/sdk-formats.md sections 1.1 and 1.2.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "omf_fixture.h"  // Buf

namespace boneyard::test {

struct ObjVmap {
  std::string name = "Texture";
  std::uint8_t dim = 2, polymap = 0, type = 0;
  std::vector<float> values;          // size x dim
  std::vector<std::int32_t> points;   // size
  std::vector<std::int32_t> faces;    // size when polymap
};

struct ObjMesh {
  std::string name = "mesh";
  std::uint8_t flags = 1;
  std::vector<std::array<float, 3>> points;
  // Per face: 3 x (point, vmref).
  std::vector<std::array<std::uint32_t, 6>> faces;
  std::vector<std::uint32_t> groups;  // empty: no 0x1013 chunk
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> vmrefs;
  std::vector<std::pair<std::string, std::vector<std::uint32_t>>> surfaces;  // SFACE
  std::vector<ObjVmap> vmaps;
  bool write_bbox = true, write_options = true;
};

struct ObjSurface {
  std::string name = "surface", shader = "models\\model", cshader = "default", gamemtl = "default_object",
              texture = "wpn\\wpn_test", vmap = "Texture";
  std::uint32_t flags = 0, fvf = 0x112, tc = 1;
};

struct ObjBone {
  std::string name, parent, wmap;
  std::array<float, 3> offset{}, rotate{};
  float length = 0;
  std::uint16_t shape_type = 0;
  std::uint32_t joint_type = 0;
  float mass = 10;
  bool doubled_def = true;  // CBone::Save writes DEF twice
};

inline Buf obj_vmaps(const std::vector<ObjVmap>& vmaps) {
  Buf v;
  v.u32(static_cast<std::uint32_t>(vmaps.size()));
  for (const auto& m : vmaps) {
    v.str(m.name).u8(m.dim).u8(m.polymap).u8(m.type).u32(static_cast<std::uint32_t>(m.points.size()));
    for (float f : m.values) v.f32(f);
    for (auto p : m.points) v.raw(p);
    if (m.polymap)
      for (auto f : m.faces) v.raw(f);
  }
  return v;
}

inline Buf obj_mesh(const ObjMesh& m) {
  Buf b;
  b.chunk(0x1000, Buf().u16(0x11)).chunk(0x1001, Buf().str(m.name));
  if (m.write_bbox) {
    std::array<float, 6> box{};
    for (std::size_t i = 0; i < m.points.size(); ++i)
      for (int k = 0; k < 3; ++k) {
        const float x = m.points[i][std::size_t(k)];
        if (i == 0 || x < box[std::size_t(k)]) box[std::size_t(k)] = x;
        if (i == 0 || x > box[std::size_t(k) + 3]) box[std::size_t(k) + 3] = x;
      }
    Buf bb;
    for (float f : box) bb.f32(f);
    b.chunk(0x1004, bb);
  }
  b.chunk(0x1002, Buf().u8(m.flags));
  if (m.write_options) b.chunk(0x1010, Buf().u32(0).u32(0));
  Buf pts;
  pts.u32(static_cast<std::uint32_t>(m.points.size()));
  for (const auto& p : m.points) pts.f32(p[0]).f32(p[1]).f32(p[2]);
  b.chunk(0x1005, pts);
  Buf fc;
  fc.u32(static_cast<std::uint32_t>(m.faces.size()));
  for (const auto& f : m.faces)
    for (auto x : f) fc.u32(x);
  b.chunk(0x1006, fc);
  if (!m.groups.empty()) {
    Buf sg;
    for (auto g : m.groups) sg.u32(g);
    b.chunk(0x1013, sg);
  }
  Buf vr;
  vr.u32(static_cast<std::uint32_t>(m.vmrefs.size()));
  for (const auto& r : m.vmrefs) {
    vr.u8(static_cast<unsigned>(r.size()));
    for (const auto& [map, index] : r) vr.raw(map).raw(index);
  }
  b.chunk(0x1008, vr);
  Buf sf;
  sf.u16(static_cast<unsigned>(m.surfaces.size()));
  for (const auto& [name, faces] : m.surfaces) {
    sf.str(name).u32(static_cast<std::uint32_t>(faces.size()));
    for (auto f : faces) sf.u32(f);
  }
  b.chunk(0x1009, sf);
  b.chunk(0x1012, obj_vmaps(m.vmaps));
  return b;
}

// SaveData (what a .bones record holds), after Save's header when `full`.
inline Buf obj_bone(const ObjBone& bone, bool full) {
  Buf b;
  if (full) {
    b.chunk(0x1, Buf().u16(2));
    b.chunk(0x2, Buf().str(bone.name).str(bone.parent).str(bone.wmap.empty() ? bone.name : bone.wmap));
    Buf pose;
    for (float f : bone.offset) pose.f32(f);
    for (float f : bone.rotate) pose.f32(f);
    pose.f32(bone.length);
    b.chunk(0x3, pose);
  }
  if (!full || bone.doubled_def) b.chunk(0x2, Buf().str(bone.name));
  b.chunk(0x4, Buf().str("default_object"));
  Buf shape;
  shape.u16(bone.shape_type).u16(0);
  for (int k = 0; k < 9; ++k) shape.f32(k % 4 == 0 ? 1.0f : 0.0f);
  for (int k = 0; k < 6 + 4 + 8; ++k) shape.f32(0);
  b.chunk(0x5, shape);
  b.chunk(0x8, Buf().u32(0));
  Buf joint;
  joint.u32(bone.joint_type);
  for (int k = 0; k < 3; ++k) joint.f32(0).f32(0).f32(1).f32(1);
  joint.f32(1).f32(1);
  b.chunk(0x6, joint);
  b.chunk(0x9, Buf().f32(0).f32(0));
  b.chunk(0x10, Buf().f32(0));
  b.chunk(0x7, Buf().f32(bone.mass).f32(0).f32(0).f32(0));
  return b;
}

struct ObjFile {
  std::vector<ObjMesh> meshes;
  std::vector<ObjSurface> surfaces{ObjSurface{}};
  std::vector<ObjBone> bones;
  std::vector<std::pair<std::string, std::vector<std::string>>> parts;
  std::vector<std::string> refs;
  bool soc_refs = true;
  std::uint32_t flags = 0;
};

// The body's chunks in the CoP SDK's order (CEditableObject::Save).
inline Buf obj_body(const ObjFile& o) {
  Buf b;
  b.chunk(0x900, Buf().u16(0x10)).chunk(0x912, Buf().str("")).chunk(0x925, Buf().str("")).chunk(0x903, Buf().u32(o.flags));
  Buf meshes;
  for (std::size_t i = 0; i < o.meshes.size(); ++i) meshes.chunk(static_cast<std::uint32_t>(i), obj_mesh(o.meshes[i]));
  b.chunk(0x910, meshes);
  Buf s;
  s.u32(static_cast<std::uint32_t>(o.surfaces.size()));
  for (const auto& x : o.surfaces) s.str(x.name).str(x.shader).str(x.cshader).str(x.gamemtl).str(x.texture).str(x.vmap).u32(x.flags).u32(x.fvf).u32(x.tc);
  b.chunk(0x907, s);
  if (!o.bones.empty()) {
    Buf bones;
    for (std::size_t i = 0; i < o.bones.size(); ++i) bones.chunk(static_cast<std::uint32_t>(i), obj_bone(o.bones[i], true));
    b.chunk(0x921, bones);
  }
  if (!o.refs.empty()) {
    if (o.soc_refs) {
      std::string all;
      for (const auto& r : o.refs) all += (all.empty() ? "" : ",") + r;
      b.chunk(0x924, Buf().str(all));
    } else {
      Buf r;
      r.u32(static_cast<std::uint32_t>(o.refs.size()));
      for (const auto& x : o.refs) r.str(x);
      b.chunk(0x926, r);
    }
  }
  if (!o.parts.empty()) {
    Buf p;
    p.u32(static_cast<std::uint32_t>(o.parts.size()));
    for (const auto& [name, bones] : o.parts) {
      p.str(name).u32(static_cast<std::uint32_t>(bones.size()));
      for (const auto& n : bones) p.str(n);
    }
    b.chunk(0x923, p);
  }
  b.chunk(0x922, Buf().str("test").u32(0).str("").u32(0));
  return b;
}

inline std::vector<std::uint8_t> obj_bytes(const ObjFile& o) { return Buf().chunk(0x7777, obj_body(o)).b; }

// A quad (two triangles) in the XZ plane, one UV map (a value per corner, discontinuous), one
// surface: the smallest object the SDK loads.
inline ObjMesh quad_mesh() {
  ObjMesh m;
  m.points = {{-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {1, 0, 1}};
  m.faces = {{{0, 0, 2, 1, 1, 2}}, {{1, 3, 2, 4, 3, 5}}};
  m.groups = {0, 0};
  ObjVmap uv;
  uv.polymap = 1;
  uv.values = {0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0};
  uv.points = {0, 2, 1, 1, 2, 3};
  uv.faces = {0, 0, 0, 1, 1, 1};
  m.vmaps = {uv};
  for (std::int32_t i = 0; i < 6; ++i) m.vmrefs.push_back({{0, i}});
  m.surfaces = {{"surface", {0, 1}}};
  return m;
}

}  // namespace boneyard::test
