// Findings of an OGF v3 model: its container, its visuals (geometry, progressive data), the bone
// tree (the v4 rules, on skeleton_as_v4), the IK data and the motions. The glTF export refuses a
// visual with errors and repairs what the warnings name, so both use validate_visual.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "boneyard/core/crc32.h"
#include "boneyard/core/text.h"
#include "ogf_v3_internal.h"
#include "ogf_v3_validate.h"

namespace boneyard::xray {

namespace ogf3 {

namespace {

std::string fmt_float(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

bool known_chunk(std::uint32_t id) { return id >= 1 && id <= kOgf3MotionRefs && id != 4; }

void validate_container(const OgfV3File& f, Diagnostics& out) {
  const ChunkList& c = f.model.chunks;
  if (c.overrun && c.overrun->truncated_chunk()) {
    const auto& o = *c.overrun;
    out.add(Severity::error, o.offset, hex(o.raw_id & ~kChunkCompressBit), "chunk truncated: its size runs past the end of the file",
            std::to_string(o.declared_size) + " bytes", std::to_string(o.available) + " bytes available");
  } else if (!c.trailing.empty()) {
    out.add(Severity::warning, c.trailing_offset, "", "bytes after the last chunk (kept)", "0",
            std::to_string(c.trailing.size()) + " bytes");
  }
  std::set<std::uint32_t> seen;
  for (const auto& ch : c.chunks) {
    if (ch.compress_bit())
      out.add(Severity::info, ch.offset, hex(ch.id()), "chunk id has bit 31 set (the compressed mark): read as stored",
              hex(ch.id()), hex(ch.raw_id));
    if (!known_chunk(ch.id()))
      out.add(Severity::info, ch.offset, hex(ch.id()), "chunk OGF v3 does not define (kept)", "0x1-0x1D", hex(ch.id()));
    else if (!seen.insert(ch.id()).second)
      out.add(Severity::warning, ch.offset, hex(ch.id()), "repeated chunk: the engine reads the first (kept)", "one",
              "more");
  }
}

// Warnings that are tallied (the first occurrence named, with the count) instead of one per item.
struct Tally {
  std::size_t count = 0;
  Finding first;
  void hit(Finding f) {
    if (count++ == 0) first = std::move(f);
  }
  void report(Diagnostics& out) const {
    if (count == 0) return;
    Finding f = first;
    if (count > 1) f.message += " (" + std::to_string(count) + " in all; the first is named)";
    out.add(std::move(f));
  }
};

void validate_lod(const Ogf3Visual& v, Diagnostics& out) {
  const Ogf3LodData& l = *v.lod;
  const std::uint32_t n = v.vertices ? v.vertices->count : 0;
  const std::string where = v.where(kOgf3LodData);
  if (l.min_vertices > n) {
    out.add(Severity::error, l.offset + 16, where + "/1 minimum vertices", "progressive base uses more vertices than the visual has",
            "<= " + std::to_string(n), std::to_string(l.min_vertices));
    return;
  }
  if (l.vsplit_count() != n - l.min_vertices)
    out.add(Severity::error, l.vsplits_offset, where + "/2", "one vertex split per vertex above the base expected",
            std::to_string(n - l.min_vertices), std::to_string(l.vsplit_count()));
  if (l.min_indices > v.index_count)
    out.add(Severity::error, l.offset + 20, where + "/1 minimum indices", "progressive base uses more indices than stored",
            "<= " + std::to_string(v.index_count), std::to_string(l.min_indices));
  std::uint64_t fixes = 0;
  for (std::size_t k = 0; k < l.vsplit_count(); ++k) fixes += l.vsplits[k * 4 + 3];
  if (fixes > l.fix_face_count)
    out.add(Severity::error, l.vsplits_offset, where + "/2", "vertex splits fix more index slots than sub-chunk 3 lists",
            "<= " + std::to_string(l.fix_face_count), std::to_string(fixes));
  for (std::size_t i = 0; i < l.fix_face_count; ++i) {
    const std::uint16_t slot = load_le<std::uint16_t>(l.fix_faces.data() + 2 * i);
    if (slot >= v.index_count) {
      out.add(Severity::error, l.fix_faces_offset + 2 * i, where + "/3 fix face " + std::to_string(i),
              "fix face past the index buffer", "< " + std::to_string(v.index_count), std::to_string(slot));
      break;
    }
  }
}

}  // namespace

void validate_visual(const OgfV3File& f, const Ogf3Visual& v, Diagnostics& out) {
  if (!v.readable) {
    out.add(v.readable.error());
    return;
  }
  for (std::uint32_t id : {kOgf3VContainer, kOgf3IContainer, kOgf3ChildrenL, kOgf3TextureL})
    if (const Chunk* c = v.chunks.find(id))
      out.add(Severity::info, c->offset, v.where(id), "a level visual's reference into the level's buffers "
              "(not in this file): not exported (kept)");
  if (!v.child_refs.empty())
    out.add(Severity::info, v.chunks.find(kOgf3ChildRefs)->offset, v.where(kOgf3ChildRefs),
            "children in other files: not exported", "-", std::to_string(v.child_refs.size()) + " file(s)");
  if (!v.lods.empty())
    out.add(Severity::info, v.chunks.find(kOgf3Lods)->offset, v.where(kOgf3Lods), "LOD visuals: kept, not exported",
            "-", std::to_string(v.lods.size()));
  const std::uint8_t type = v.header.type;
  if (ogf3_type_name(type).empty())
    out.add(Severity::warning, v.chunks.find(kOgfHeader)->payload_offset() + 1, v.where(kOgfHeader) + " type",
            "model type OGF v3 does not define", "0-4, 6-0xC or 0xF", std::to_string(type));
  if ((type == 2 || type == 3) && v.vertices && !v.lod)
    out.add(Severity::warning, v.offset, v.where(kOgf3LodData), "progressive visual without progressive data: "
            "exported as its index buffer holds it", "chunk 0x9", "none");
  if (v.vertices.has_value() != (v.chunks.find(kOgf3Indices) != nullptr))
    out.add(Severity::error, v.offset, v.path.empty() ? "0x7/0x8" : v.path + " 0x7/0x8",
            "vertices without indices or indices without vertices", "both", v.vertices ? "vertices only" : "indices only");
  if (!v.vertices) return;
  const Ogf3Vertices& vs = *v.vertices;
  const std::string where = v.where(kOgf3Vertices);
  if (v.index_count % 3 != 0)
    out.add(Severity::error, v.indices_offset - 4, v.where(kOgf3Indices) + " index count",
            "index count is not a multiple of 3 (a triangle list)", "a multiple of 3", std::to_string(v.index_count));
  for (std::size_t i = 0; i < v.index_count; ++i)
    if (v.index_at(i) >= vs.count) {
      out.add(Severity::error, v.indices_offset + 2 * i, v.where(kOgf3Indices) + " index " + std::to_string(i),
              "index past the vertex count", "< " + std::to_string(vs.count), std::to_string(v.index_at(i)));
      break;
    }
  if (v.lod) validate_lod(v, out);
  Tally bones, weights, uvs, normals;
  for (std::size_t i = 0; i < vs.count; ++i) {
    const Ogf3Vertex x = decode_vertex(vs, i);
    const std::uint64_t at = vs.offset + i * vs.stride;
    const std::string path = where + " vertex " + std::to_string(i);
    if (x.links == 1 && x.stored_bone >= f.bones.size())
      bones.hit({Severity::error, at + 32, path + " bone", "bone index past the skeleton",
                 "< " + std::to_string(f.bones.size()) + " (0xD bones)", std::to_string(x.stored_bone)});
    for (int k = 0; k < 2 && x.links == 2; ++k)
      if (x.bones[std::size_t(k)] >= f.bones.size()) {
        bones.hit({Severity::error, at + 2 * std::uint64_t(k), path + " bone " + std::to_string(k),
                   "bone index past the skeleton", "< " + std::to_string(f.bones.size()) + " (0xD bones)",
                   std::to_string(x.bones[std::size_t(k)])});
        break;
      }
    if (x.links == 2 && !(x.weights[1] >= 0.0f && x.weights[1] <= 1.0f))
      weights.hit({Severity::warning, at + 52, path + " weight",
                   "2-link weight outside [0, 1] (the weight's place in a v3 2-link vertex is inferred from two readers: "
                   "docs/xray-ogf-v3.md)", "0..1", fmt_float(x.weights[1])});
    if (!std::isfinite(x.u) || !std::isfinite(x.v))
      uvs.hit({Severity::warning, at, path + " uv", "texture coordinate is not finite (exported as 0)", "a number",
               "NaN or infinity"});
    if ((x.links > 0 || vs.fvf_normal >= 0) &&
        (!finite(x.normal) || double(x.normal.x) * x.normal.x + double(x.normal.y) * x.normal.y +
                                      double(x.normal.z) * x.normal.z < 1e-12))
      normals.hit({Severity::warning, at, path + " normal", "normal is zero or not finite (recomputed from the faces "
                   "on export)", "a direction", "none"});
  }
  bones.report(out);
  weights.report(out);
  uvs.report(out);
  normals.report(out);
}

void for_each_visual(const Ogf3Visual& v, const std::function<void(const Ogf3Visual&)>& fn) {
  fn(v);
  for (const auto& c : v.children) for_each_visual(c, fn);
  for (const auto& c : v.lods) for_each_visual(c, fn);
}

namespace {

void validate_skeleton(const OgfV3File& f, Diagnostics& out) {
  const std::uint8_t type = f.model.header.type;
  const bool skeletal = type == 4 || type == 0xF;
  if (skeletal && f.bones.empty())
    out.add(Severity::error, 0, "0xD", "skeleton model without bones", "chunk 0xD with bones",
            f.model.chunks.find(kOgf3BoneNames) ? "0 bones" : "none");
  if (!f.bones.empty() && !f.has_bind_pose())
    out.add(Severity::warning, f.model.chunks.find(kOgf3BoneNames)->offset, "0x17/0x19/0x1C",
            "no IK data: the bones have no bind pose (exported with identity rest poses)", "one of 0x17, 0x19, 0x1C",
            "none");
  if (f.bind_in_model_space())
    out.add(Severity::info, f.model.chunks.find(kOgf3IkData0)->offset, "0x17",
            "bind pose stored relative to the model (S_IKDATA_0): made relative to each parent on export");
  validate_bone_tree(skeleton_as_v4(f), out);
}

// The bones a part lists, as bone ids (-1 where the name or index names none).
int part_bone_id(const OgfV3File& f, const std::unordered_map<std::string, int>& by_name_map, const Ogf3Params& p,
                 const Ogf3PartBone& b, const std::string& path, Diagnostics& out) {
  const int n = static_cast<int>(f.bones.size());
  if (b.index && *b.index >= std::uint32_t(n)) {
    out.add(Severity::error, b.offset, path, "part bone index past the skeleton", "< " + std::to_string(n),
            std::to_string(*b.index));
    return -1;
  }
  if (p.chunk == kOgf3SmParamsNew && p.version >= 2) {
    const auto it = by_name_map.find(lower_ascii(b.name));
    const int by_name = it == by_name_map.end() ? -1 : it->second;
    if (by_name < 0) {
      out.add(Severity::error, b.offset, path, "part bone name is not a bone of the skeleton", "a name of 0xD",
              printable(b.name));
      return -1;
    }
    if (b.index && int(*b.index) != by_name)
      out.add(Severity::error, b.offset, path, "part bone name and index name different bones",
              "bone " + std::to_string(by_name) + " " + printable(b.name), "bone " + std::to_string(*b.index));
    return by_name;
  }
  return int(*b.index);
}

void validate_params(const OgfV3File& f, const Ogf3Params& p, Diagnostics& out) {
  const std::string chunk = hex(p.chunk);
  std::vector<int> covered(f.bones.size(), 0);
  const auto by_name = bones_by_lower_name(f);
  for (std::size_t i = 0; i < p.parts.size(); ++i)
    for (std::size_t b = 0; b < p.parts[i].bones.size(); ++b) {
      const int id = part_bone_id(f, by_name, p, p.parts[i].bones[b],
                                  chunk + " part " + std::to_string(i) + " bone " + std::to_string(b), out);
      if (id >= 0) ++covered[std::size_t(id)];
    }
  for (std::size_t i = 0; i < covered.size(); ++i)
    if (covered[i] != 1) {
      out.add(Severity::warning, p.offset, chunk + " parts", "bone parts do not list every bone once (the glTF extras get "
              "one part of every bone)", "each bone in one part", "bone " + std::to_string(i) + " " +
              printable(f.bones[i].name) + " listed " + std::to_string(covered[i]) + " times");
      break;
    }
  if (!p.tail.empty())
    out.add(Severity::warning, p.tail_offset, chunk, "bytes after the last motion parameters (kept)", "0",
            std::to_string(p.tail.size()));
  std::vector<bool> ids(p.motions.size(), false);
  std::unordered_set<std::string> names;
  for (std::size_t i = 0; i < p.motions.size(); ++i) {
    const Ogf3MotionParams& m = p.motions[i];
    const std::string path = chunk + " motion " + std::to_string(i) + " \"" + printable(m.name) + "\"";
    if (m.is_fx() && m.bone_or_part >= f.bones.size())
      out.add(Severity::error, m.offset, path + " bone", "fx motion names a bone past the skeleton",
              "< " + std::to_string(f.bones.size()), std::to_string(m.bone_or_part));
    if (!m.is_fx() && m.bone_or_part != kNoBoneOrPart && m.bone_or_part >= p.parts.size())
      out.add(Severity::error, m.offset, path + " part", "cycle names a part that does not exist",
              "< " + std::to_string(p.parts.size()) + " or 65535 (all)", std::to_string(m.bone_or_part));
    if (m.motion_id >= p.motions.size() || ids[m.motion_id])
      out.add(Severity::warning, m.offset, path + " motion id", "motion ids are not 0..n-1 once each (the engine "
              "puts each motion in slot motion id)", "< " + std::to_string(p.motions.size()) + ", unique",
              std::to_string(m.motion_id));
    else
      ids[m.motion_id] = true;
    if (!names.insert(lower_ascii(m.name)).second)
      out.add(Severity::info, m.offset, path, "repeated motion name: the engine keeps one", "unique", "repeated");
  }
}

void validate_keys(const Ogf3Motions& set, Diagnostics& out) {
  const std::string chunk = hex(set.chunk);
  if (!set.declared_count)
    out.add(Severity::error, set.offset, chunk + "/0", "missing motion count sub-chunk", "sub-chunk 0 with a u32", "none");
  else if (*set.declared_count != set.motions.size())
    out.add(Severity::warning, set.offset, chunk + "/0", "motion count differs from the key sets present",
            std::to_string(*set.declared_count), std::to_string(set.motions.size()));
  for (const auto& o : set.other)
    out.add(Severity::warning, o.offset, chunk + "/" + std::to_string(o.id()),
            "sub-chunk the engine never reads (duplicate id or after a gap; kept)");
  Tally crc, quat;
  for (std::size_t m = 0; m < set.motions.size(); ++m) {
    const Ogf3Motion& k = set.motions[m];
    const std::string path = chunk + "/" + std::to_string(m + 1);
    if (!k.readable) {
      out.add(k.readable.error());
      continue;
    }
    if (!k.tail.empty())
      out.add(Severity::warning, k.tail_offset, path, "bytes after the last bone record (kept)", "0",
              std::to_string(k.tail.size()));
    for (std::size_t b = 0; b < k.bones.size(); ++b) {
      const Ogf3BoneKeys& bk = k.bones[b];
      const std::string bone = path + " bone " + std::to_string(b);
      if (!bk.floats) {
        if (crc32(bk.keys) != bk.rotation_crc)
          crc.hit({Severity::warning, bk.offset + 1, bone + " rotation CRC", "stored CRC is not the keys' CRC (the "
                   "engine does not check it)", hex(crc32(bk.keys)), hex(bk.rotation_crc)});
        if (bk.flags != 0 && crc32(bk.translation_keys) != bk.translation_crc)
          crc.hit({Severity::warning, bk.translation_offset(), bone + " translation CRC", "stored CRC is not the keys' "
                   "CRC (the engine does not check it)", hex(crc32(bk.translation_keys)), hex(bk.translation_crc)});
      }
      for (std::size_t i = 0; i < k.frames; ++i) {
        const float len = bk.rotation(i).norm();
        if (!(std::fabs(len - 1.0f) < 0.01f)) {
          quat.hit({Severity::warning, bk.offset + (bk.floats ? i * 20 : 5 + i * 8), bone + " rotation key " + std::to_string(i),
                    "rotation key is not a unit quaternion (normalised on export)", "length 1", fmt_float(len)});
          break;
        }
      }
    }
  }
  crc.report(out);
  quat.report(out);
}

void validate_motions(const OgfV3File& f, Diagnostics& out) {
  if (!f.motion_refs.empty() && (f.params || f.motions))
    out.add(Severity::info, f.model.chunks.find(kOgf3MotionRefs)->offset, "0x1D",
            "the model has motion refs and embedded motions: the engine uses the refs", "one of them", "both");
  if (f.params) validate_params(f, *f.params, out);
  if (f.motions) validate_keys(*f.motions, out);
  if (f.params && !f.motions)
    out.add(Severity::error, f.params->offset, hex(f.params->chunk), "motion parameters without key sets",
            "chunk 0x1A or 0xE", "none");
  if (f.motions && !f.params)
    out.add(Severity::warning, f.motions->offset, hex(f.motions->chunk), "key sets without motion parameters are never played",
            "chunk 0x14 or 0x12", "none");
  if (f.model.header.type == 4 && f.motion_refs.empty() && !f.params)
    out.add(Severity::warning, 0, "0x1", "animated model without motion chunks: the oldest builds read its motions "
            "from <model>.ltx, which boneyard does not read", "0x1D, or 0x12/0x14 with 0xE/0x1A", "none");
  if (!f.params || !f.motions) return;
  // The engine finds each motion's key set by name.
  const auto key_sets = key_sets_by_name(*f.motions);
  std::vector<bool> used(f.motions->motions.size(), false);
  for (std::size_t i = 0; i < f.params->motions.size(); ++i) {
    const auto& m = f.params->motions[i];
    const auto it = key_sets.find(m.name);
    if (it == key_sets.end()) {
      out.add(Severity::error, m.offset, hex(f.params->chunk) + " motion " + std::to_string(i), "no key set of this name",
              "a sub-chunk of " + hex(f.motions->chunk) + " named " + printable(m.name), "none");
      continue;
    }
    used[it->second] = true;
  }
  for (std::size_t i = 0; i < f.motions->motions.size(); ++i)
    if (f.motions->motions[i].readable && !used[i])
      out.add(Severity::warning, f.motions->motions[i].offset, hex(f.motions->chunk) + "/" + std::to_string(i + 1),
              "key set no motion parameters name: never played", "a name of " + hex(f.params->chunk),
              printable(f.motions->motions[i].name));
}

}  // namespace

}  // namespace ogf3

Diagnostics validate_ogf_v3(const OgfV3File& f) {
  Diagnostics out;
  for (const auto& r : f.read_findings) out.add(r);
  ogf3::validate_container(f, out);
  ogf3::for_each_visual(f.model, [&](const Ogf3Visual& v) { ogf3::validate_visual(f, v, out); });
  ogf3::validate_skeleton(f, out);
  ogf3::validate_motions(f, out);
  return out;
}

}  // namespace boneyard::xray
