// The writer side of the .ogf layouts (ogf_build.h). Field order follows the reader
// (ogf_mesh.cpp, ogf_skeleton.cpp), which follows ../shared/docs/xray-motions.md section 9.
#include "ogf_build.h"

#include <algorithm>
#include <cmath>

#include "boneyard/core/chunks.h"

namespace boneyard::xray::ogf_build {

std::uint32_t skinned_format(int links, bool magic) {
  static constexpr std::uint32_t kMagic[4] = {kMagic1Link, kMagic2Link, kMagic3Link, kMagic4Link};
  const int l = std::clamp(links, 1, 4);
  return magic ? kMagic[l - 1] : static_cast<std::uint32_t>(l);
}

bool is_magic_format(std::uint32_t format) {
  return format == kMagic1Link || format == kMagic2Link || format == kMagic3Link || format == kMagic4Link;
}

void Box::add(const Vec3& p) {
  if (empty) {
    min = max = p;
    empty = false;
    return;
  }
  min = {std::min(min.x, p.x), std::min(min.y, p.y), std::min(min.z, p.z)};
  max = {std::max(max.x, p.x), std::max(max.y, p.y), std::max(max.z, p.z)};
}

void Box::add(const Box& b) {
  if (b.empty) return;
  add(b.min);
  add(b.max);
}

std::array<float, 6> box_floats(const Box& b) {
  if (b.empty) return {};
  return {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
}

std::array<float, 4> sphere_floats(const Box& b) {
  if (b.empty) return {};
  const Vec3 c{(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2};
  const double dx = b.max.x - c.x, dy = b.max.y - c.y, dz = b.max.z - c.z;
  return {c.x, c.y, c.z, static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz))};
}

Box box_of(const OgfHeader& h) {
  Box b;
  b.add(Vec3{h.bbox[0], h.bbox[1], h.bbox[2]});
  b.add(Vec3{h.bbox[3], h.bbox[4], h.bbox[5]});
  return b;
}

std::vector<std::uint8_t> header_payload(std::uint8_t type, std::uint16_t shader_id, const Box& box) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.u8(4);
  w.u8(type);
  w.u16(shader_id);
  for (float f : box_floats(box)) w.f32(f);
  for (float f : sphere_floats(box)) w.f32(f);
  return out;
}

Box bounds(const std::vector<OgfVertex>& vertices) {
  Box b;
  for (const auto& v : vertices) b.add(v.position);
  return b;
}

namespace {

void vec3(ByteWriter& w, const Vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

}  // namespace

void write_vertex(ByteWriter& w, const OgfVertex& v, int links) {
  auto pntb = [&] {
    vec3(w, v.position);
    vec3(w, v.normal);
    vec3(w, v.tangent);
    vec3(w, v.binormal);
  };
  if (links == 0) {  // FVF 0x112
    vec3(w, v.position);
    vec3(w, v.normal);
    w.f32(v.u);
    w.f32(v.v);
    return;
  }
  // Unused slots repeat bone 0 with weight 0, as the SDK fills them.
  auto bone = [&](int k) { return k < v.links ? v.bones[static_cast<std::size_t>(k)] : v.bones[0]; };
  auto weight = [&](int k) { return k < v.links ? v.weights[static_cast<std::size_t>(k)] : 0.0f; };
  if (links == 1) {
    pntb();
    w.f32(v.u);
    w.f32(v.v);
    w.u32(v.bones[0]);
    return;
  }
  for (int k = 0; k < links; ++k) w.u16(bone(k));
  pntb();
  if (links == 2) {
    // lerp(bone 0, bone 1, w): the SDK stores w(b1) / (w(b0) + w(b1)); a one-bone vertex is
    // {b, b} with 0 (SoC's choice; the engine ignores the value when both bones are equal).
    const float sum = weight(0) + weight(1);
    w.f32(v.links >= 2 && sum > 0 ? weight(1) / sum : 0.0f);
  } else {
    for (int k = 0; k + 1 < links; ++k) w.f32(weight(k));  // the last one is implied
  }
  w.f32(v.u);
  w.f32(v.v);
}

std::string beyond_stock_warning(const std::string& what, std::size_t count, const std::string& engine,
                                 std::size_t limit) {
  return std::to_string(count) + " " + what + ", more than the stock " + engine + " engine reads (" +
         std::to_string(limit) + "); kept as in the source model (a modded engine reads them)";
}

std::string stock_limit_text(std::size_t limit, std::size_t source) {
  return "at most " + std::to_string(limit) +
         (source > limit ? " (or the source model's " + std::to_string(source) + ")" : std::string());
}

std::vector<std::uint8_t> motion_refs_payload(const std::vector<std::string>& refs, std::uint32_t chunk) {
  std::vector<std::uint8_t> out;
  out.reserve(64);  // never empty: GCC 12 warns falsely about the first write into an empty vector
  ByteWriter w(out);
  if (chunk == kOgfMotionRefs) {
    std::string joined;
    for (const auto& r : refs) joined += (joined.empty() ? "" : ",") + r;
    w.stringz(joined);
  } else {
    w.u32(static_cast<std::uint32_t>(refs.size()));
    for (const auto& r : refs) w.stringz(r);
  }
  return out;
}

void put_chunk(std::vector<std::uint8_t>& out, std::uint32_t raw_id, Bytes payload) {
  ByteWriter w(out);
  write_chunk(w, raw_id, payload);
}

std::vector<std::uint8_t> child_payload(const ChildGeometry& c) {
  std::vector<std::uint8_t> out;
  put_chunk(out, kOgfHeader, header_payload(c.type, 0, bounds(c.vertices)));
  std::vector<std::uint8_t> tex;
  ByteWriter t(tex);
  t.stringz(c.texture);
  t.stringz(c.shader);
  put_chunk(out, kOgfTexture, tex);
  std::vector<std::uint8_t> vtx;
  ByteWriter v(vtx);
  v.u32(c.format);
  v.u32(static_cast<std::uint32_t>(c.vertices.size()));
  for (const auto& x : c.vertices) write_vertex(v, x, c.links);
  put_chunk(out, kOgfVertices, vtx);
  std::vector<std::uint8_t> idx;
  ByteWriter i(idx);
  i.u32(static_cast<std::uint32_t>(c.indices.size()));
  for (auto x : c.indices) i.u16(x);
  put_chunk(out, kOgfIndices, idx);
  return out;
}

std::vector<std::uint8_t> bone_names_payload(const std::vector<BoneRecord>& bones) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.u32(static_cast<std::uint32_t>(bones.size()));
  for (const auto& b : bones) {
    w.stringz(b.name);
    w.stringz(b.parent);
    for (float f : b.obb.rotate) w.f32(f);
    vec3(w, b.obb.translate);
    vec3(w, b.obb.halfsize);
  }
  return out;
}

std::vector<std::uint8_t> ik_data_payload(const std::vector<BoneRecord>& bones) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  for (const auto& b : bones) {
    w.u32(1);  // OGF_IKDATA_VERSION: friction follows the break torque
    w.stringz(b.game_mtl);
    // SBoneShape::Reset: type stNone, flags 0, box invalidate() (identity rotation, zero
    // centre and size), sphere and cylinder zero. 2 + 2 + 60 + 16 + 32 = 112 bytes.
    w.u16(0);
    w.u16(0);
    for (int k = 0; k < 9; ++k) w.f32(k % 4 == 0 ? 1.0f : 0.0f);
    w.zeros(6 * 4 + 16 + 32);
    // SJointIKData::Reset: limits (0, 0) with spring and damping 1 per axis.
    w.u32(b.joint_type);
    for (int k = 0; k < 3; ++k) {
      w.f32(0);
      w.f32(0);
      w.f32(1);
      w.f32(1);
    }
    w.f32(1);  // spring
    w.f32(1);  // damping
    w.u32(0);  // ik flags
    w.f32(0);  // break force
    w.f32(0);  // break torque
    w.f32(0);  // friction
    vec3(w, b.bind_rotation);
    vec3(w, b.bind_position);
    w.f32(b.mass);
    vec3(w, b.center_of_mass);
  }
  return out;
}

std::vector<std::uint8_t> description_payload(const std::string& source, const std::string& creator) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  // Times are 0: blender-xray stores the creation time as a signed int (2^31 and up fail), and a
  // fixed value keeps the output reproducible.
  w.stringz(source);
  w.stringz("boneyard");  // build name
  w.u32(0);
  w.stringz(creator);
  w.u32(0);
  w.stringz("");  // modifier
  w.u32(0);
  return out;
}

}  // namespace boneyard::xray::ogf_build
