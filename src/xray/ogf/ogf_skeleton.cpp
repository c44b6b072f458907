// OGF skeleton chunks: 0xD bone names, 0x10 IK data, motion refs 0x13/0x18, user data 0x11 and
// description 0x12. Layouts: ../shared/docs/xray-motions.md section 4. Every read is bounds
// checked; counts are checked against the bytes left before anything is allocated.
#include "ogf_internal.h"

#include <algorithm>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

namespace {

Vec3 read_vec3(ByteReader& r, std::string_view what) {
  Vec3 v;
  v.x = r.f32(what);
  v.y = r.f32(what);
  v.z = r.f32(what);
  return v;
}

// Smallest bone record in 0xD: two empty strings and the 60-byte box.
constexpr std::size_t kMinBoneNameRecord = 2 + 60;
// Smallest IK record: version, empty material, shape, joint data without friction, bind, mass.
constexpr std::size_t kMinIkRecord = 4 + 1 + kBoneShapeBytes + 4 + 48 + 4 + 4 + 4 + 4 + 4 + 12 + 12 + 4 + 12;

// Parents by exact stored name first (the first bone of that name), then as the engine compares
// (lower-cased). Both through hash maps: linear in the number of bones.
void resolve_parents(std::vector<OgfBone>& bones) {
  std::unordered_map<std::string_view, int> first_by_name;
  first_by_name.reserve(bones.size());
  for (std::size_t j = 0; j < bones.size(); ++j) first_by_name.emplace(bones[j].name, static_cast<int>(j));
  const BoneLookup lower(bones);
  for (auto& b : bones) {
    if (b.parent_name.empty()) continue;
    const auto it = first_by_name.find(b.parent_name);
    b.parent = it != first_by_name.end() ? it->second : lower.find(lower_ascii(b.parent_name));
  }
}

void parse_bone_names(const Chunk& c, OgfFile& f) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint32_t count = r.u32("bone count");
  // Checked before reserving: a count of 0xFFFFFFFF must fail here, not in the allocator.
  r.need_array(count, kMinBoneNameRecord, "bone records");
  f.bones.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    OgfBone& b = f.bones[i];
    b.offset = r.offset();
    try {
      b.name = std::string(r.stringz("name"));
      b.parent_name = std::string(r.stringz("parent name"));
      for (auto& v : b.obb.rotate) v = r.f32("box rotation");
      b.obb.translate = read_vec3(r, "box centre");
      b.obb.halfsize = read_vec3(r, "box half size");
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(i));
      throw;
    }
  }
  if (!r.at_end())
    f.read_findings.push_back({Severity::warning, r.offset(), "0xD", "bytes after the last bone record (kept)",
                               "0", std::to_string(r.remaining())});
  resolve_parents(f.bones);
}

void parse_ik_data(const Chunk& c, OgfFile& f) {
  ByteReader r(c.payload, c.payload_offset());
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    IkData ik;
    ik.offset = r.offset();
    try {
      if (r.remaining() < kMinIkRecord)
        fail(r.offset(), "", "IK data ends before the last bone", std::to_string(f.bones.size()) + " records",
             std::to_string(i) + " records and " + std::to_string(r.remaining()) + " bytes");
      ik.version = r.u32("version");
      ik.game_mtl = std::string(r.stringz("game material"));
      ik.shape = r.bytes(kBoneShapeBytes, "bone shape");
      JointData& j = ik.joint;
      j.type = r.u32("joint type");
      for (auto& l : j.limits) {
        l.lo = r.f32("joint limit");
        l.hi = r.f32("joint limit");
        l.spring = r.f32("joint limit spring");
        l.damping = r.f32("joint limit damping");
      }
      j.spring = r.f32("joint spring");
      j.damping = r.f32("joint damping");
      j.ik_flags = r.u32("ik flags");
      j.break_force = r.f32("break force");
      j.break_torque = r.f32("break torque");
      // The engine truncates the version to u16 and reads friction when it is non-zero.
      if (static_cast<std::uint16_t>(ik.version) != 0) j.friction = r.f32("friction");
      ik.bind_rotation = read_vec3(r, "bind rotation");
      ik.bind_position = read_vec3(r, "bind position");
      ik.mass = r.f32("mass");
      ik.center_of_mass = read_vec3(r, "centre of mass");
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(i));
      throw;
    }
    if (ik.version > 1)
      f.read_findings.push_back({Severity::warning, ik.offset, "0x10 bone " + std::to_string(i) + " version",
                                 "IK data version is not 0 or 1 (read as >= 1, like the engine)", "0 or 1",
                                 std::to_string(ik.version)});
    f.bones[i].ik = std::move(ik);
  }
  f.has_ik = true;
  if (!r.at_end())
    f.read_findings.push_back({Severity::warning, r.offset(), "0x10", "bytes after the last IK record (kept)", "0",
                               std::to_string(r.remaining())});
}

// A string that may lack its terminator at the very end of the chunk (hand-edited files):
// kept with a warning instead of failing the whole model.
std::string tolerant_string(ByteReader& r, std::string_view what, std::vector<Finding>& findings,
                            std::string_view path) {
  const Bytes rest = r.rest();
  const auto nul = std::find(rest.begin(), rest.end(), std::uint8_t{0});
  if (nul != rest.end()) return std::string(r.stringz(what));
  findings.push_back({Severity::warning, r.offset(), std::string(path), "string runs to the end of the chunk",
                      "a NUL terminator", "none"});
  const Bytes b = r.bytes(rest.size(), what);
  return std::string(b.begin(), b.end());
}

void parse_refs(OgfFile& f) {
  const Chunk* refs = f.chunks.find(kOgfMotionRefs);
  const Chunk* refs2 = f.chunks.find(kOgfMotionRefs2);
  if (refs != nullptr) {
    // CS/CoP engines read 0x13 first; SoC knows only 0x13.
    ByteReader r(refs->payload, refs->payload_offset());
    const std::string list = tolerant_string(r, "motion refs", f.read_findings, "0x13");
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      std::string item = list.substr(start, comma - start);
      const auto first = item.find_first_not_of(" \t");
      const auto last = item.find_last_not_of(" \t");
      item = first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
      if (!item.empty()) f.motion_refs.push_back(std::move(item));
      start = comma + 1;
    }
    f.motion_refs_chunk = kOgfMotionRefs;
    if (refs2 != nullptr)
      f.read_findings.push_back({Severity::info, refs2->offset, "0x18",
                                 "both motion ref chunks present; the engine uses 0x13", "one of 0x13/0x18",
                                 "both"});
    return;
  }
  if (refs2 == nullptr) return;
  ByteReader r(refs2->payload, refs2->payload_offset());
  try {
    const std::uint32_t count = r.u32("ref count");
    r.need_array(count, 1, "refs");
    for (std::uint32_t i = 0; i < count; ++i)
      f.motion_refs.push_back(tolerant_string(r, "ref " + std::to_string(i), f.read_findings, "0x18"));
  } catch (ParseError& e) {
    e.prepend_path("0x18");
    throw;
  }
  f.motion_refs_chunk = kOgfMotionRefs2;
}

void parse_description(const Chunk& c, OgfFile& f) {
  ByteReader r(c.payload, c.payload_offset());
  OgfDescription d;
  try {
    d.source = std::string(r.stringz("source"));
    d.build = std::string(r.stringz("build"));
    d.build_time = r.u32("build time");
    d.creator = std::string(r.stringz("creator"));
    d.create_time = r.u32("create time");
    d.modifier = std::string(r.stringz("modifier"));
    d.modify_time = r.u32("modify time");
    d.parsed = r.at_end();
  } catch (const ParseError&) {
    d = OgfDescription{};  // obfuscated descriptions exist; the chunk is kept raw either way
  }
  if (!d.parsed)
    f.read_findings.push_back({Severity::info, c.offset, "0x12", "description does not parse as the SDK writes it "
                               "(kept raw)", "6 fields", "other"});
  f.description = std::move(d);
}

}  // namespace

BoneLookup::BoneLookup(const std::vector<OgfBone>& bones) {
  first_by_lower_name_.reserve(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) first_by_lower_name_.emplace(lower_ascii(bones[i].name), static_cast<int>(i));
}

int BoneLookup::find(std::string_view engine_name) const {
  const auto it = first_by_lower_name_.find(std::string(engine_name));
  return it == first_by_lower_name_.end() ? -1 : it->second;
}

int OgfFile::find_bone(std::string_view engine_name) const {
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (lower_ascii(bones[i].name) == engine_name) return static_cast<int>(i);
  return -1;
}

void parse_ogf_skeleton(OgfFile& f) {
  if (const Chunk* c = f.chunks.find(kOgfBoneNames)) {
    try {
      parse_bone_names(*c, f);
    } catch (ParseError& e) {
      e.prepend_path("0xD");
      throw;
    }
  }
  if (const Chunk* c = f.chunks.find(kOgfIkData)) {
    if (f.bones.empty() && !c->payload.empty())
      fail(c->payload_offset(), "0x10", "IK data without bone names (chunk 0xD)", "chunk 0xD", "none");
    try {
      parse_ik_data(*c, f);
    } catch (ParseError& e) {
      e.prepend_path("0x10");
      throw;
    }
  }
  parse_refs(f);
  if (const Chunk* c = f.chunks.find(kOgfUserData)) {
    Bytes b = c->payload;
    if (!b.empty() && b.back() == 0) b = b.first(b.size() - 1);
    f.user_data = std::string(b.begin(), b.end());
  }
  if (const Chunk* c = f.chunks.find(kOgfDesc)) parse_description(*c, f);
}

namespace {

// Reports the first parent cycle of two or more bones (a bone that is its own parent is reported
// by the caller). Each bone is walked at most once: linear in the number of bones.
void report_longer_cycle(const OgfFile& f, Diagnostics& out) {
  const std::size_t n = f.bones.size();
  enum : std::uint8_t { unvisited, on_walk, settled };
  std::vector<std::uint8_t> state(n, unvisited);
  std::vector<std::size_t> walk;
  for (std::size_t i = 0; i < n; ++i) {
    walk.clear();
    std::size_t cur = i;
    bool cycle = false;
    while (state[cur] == unvisited) {
      state[cur] = on_walk;
      walk.push_back(cur);
      const int p = f.bones[cur].parent;
      if (p < 0 || static_cast<std::size_t>(p) >= n) break;
      if (static_cast<std::size_t>(p) == cur) break;  // self-parent: reported by the caller
      cycle = state[static_cast<std::size_t>(p)] == on_walk;
      if (cycle) {
        cur = static_cast<std::size_t>(p);
        break;
      }
      cur = static_cast<std::size_t>(p);
    }
    for (auto w : walk) state[w] = settled;
    if (cycle) {
      const OgfBone& b = f.bones[cur];
      out.add(Severity::error, b.offset, "0xD bone " + std::to_string(cur) + " parent",
              "bone is part of a parent cycle", "a chain that ends at the root",
              "a cycle through bone " + std::to_string(cur) + " " + printable(b.name));
      return;  // one finding per file is enough for a cycle
    }
  }
}

}  // namespace

void validate_bone_tree(const OgfFile& f, Diagnostics& out) {
  const std::size_t n = f.bones.size();
  const bool has_motions = !f.motion_refs.empty() || f.motions.has_value();
  if (n > kMaxBones)
    out.add(Severity::error, f.bones[kMaxBones].offset, "0xD", "too many bones for the engine",
            "<= " + std::to_string(kMaxBones), std::to_string(n));
  std::vector<std::size_t> roots;
  // The first bone of each lower-cased name: duplicates found in one pass.
  std::unordered_map<std::string, std::size_t> first_by_lower_name;
  first_by_lower_name.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const OgfBone& b = f.bones[i];
    const std::string path = "0xD bone " + std::to_string(i);
    if (b.name.empty()) out.add(Severity::error, b.offset, path, "empty bone name", "a name", "\"\"");
    const auto [first, inserted] = first_by_lower_name.emplace(lower_ascii(b.name), i);
    if (!inserted)
      out.add(Severity::error, b.offset, path, "duplicate bone name (the engine compares lower-cased names)",
              "unique", "same as bone " + std::to_string(first->second));
    if (b.parent_name.empty()) {
      roots.push_back(i);
    } else if (b.parent < 0) {
      out.add(Severity::error, b.offset, path + " parent", "parent bone does not exist", "a bone name",
              printable(b.parent_name));
    } else if (b.parent == static_cast<int>(i)) {
      out.add(Severity::error, b.offset, path + " parent", "bone is its own parent", "another bone", b.name);
    }
  }
  report_longer_cycle(f, out);
  if (n > 0 && roots.empty())
    out.add(Severity::error, f.bones[0].offset, "0xD", "no root bone", "exactly one bone without parent", "none");
  if (roots.size() > 1) {
    // A second root is legal for a model without motions (a real weapon OGF has one); with
    // motions the engine updates only one tree, so the other would be misplaced.
    out.add(has_motions ? Severity::error : Severity::warning, f.bones[roots[1]].offset,
            "0xD bone " + std::to_string(roots[1]),
            has_motions ? "second root bone in a model with motions (the engine would misplace its subtree)"
                        : "second root bone",
            "exactly one root", std::to_string(roots.size()) + " roots");
  }
}

}  // namespace boneyard::xray
