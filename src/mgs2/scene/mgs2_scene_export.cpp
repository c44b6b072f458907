// .kms / .evm -> neutral scene (then glTF). One primitive per packet: the strip's vertices as they
// are stored (so an unedited file comes back byte for byte), triangles decoded from the kick
// flags. Everything glTF has no place for goes to extras (docs/mgs2-gltf.md).
#include <algorithm>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "boneyard/core/limits.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/mgs2/strips.h"
#include "mgs2_extras_text.h"
#include "mgs2_scene_common.h"

namespace boneyard::mgs2 {

using detail::append_b64;
using detail::append_uint;
using detail::append_uints;
using detail::Json;
using detail::jvec;
using detail::ObjectText;

namespace {

// Packets may point at the same vertex arrays, and a crafted file can make thousands of them share
// one: decoding every copy would multiply the file in memory. A file whose packets own their
// arrays needs at most one vertex per 8 bytes; sharing up to 4x that, plus a fixed slack, is allowed
// (docs/safety.md "Memory").
class VertexBudget {
 public:
  explicit VertexBudget(std::uint64_t file_size) : left_(file_size / 2 + kSharedVertexSlack) {}
  Status take(std::size_t n, std::uint64_t offset, const std::string& path) {
    if (n <= left_) {
      left_ -= n;
      return {};
    }
    return Finding{Severity::error, offset, path,
                   "packets share vertex arrays so much that decoding them would take far more memory than the file",
                   "<= " + std::to_string(left_) + " more vertices", std::to_string(n)};
  }

 private:
  std::uint64_t left_;
};

std::string hex_id(std::uint32_t id) {
  char b[16];
  std::snprintf(b, sizeof b, "%08X", id);
  return b;
}

std::string texture_label(std::uint32_t id, const TextureNames* names) {
  if (names != nullptr)
    if (const std::string* s = names->find(id)) return *s;
  return hex_id(id);
}

// One material per distinct texture set (and sidedness, and whether UV0 exists to map it).
class Materials {
 public:
  Materials(scene::Scene& s, const Mgs2ExportOptions& o) : s_(s), o_(o) {}

  std::uint32_t get(const std::array<std::uint32_t, 3>& tex, bool double_sided, bool has_uv0) {
    const auto key = std::make_tuple(tex[0], tex[1], tex[2], double_sided, has_uv0);
    if (auto it = index_.find(key); it != index_.end()) return it->second;
    scene::Material m;
    // Slots up to the last non-zero one, '+' between them (an empty slot in between as 00000000),
    // so that the name alone gives the ids back (mgs2_scene_identity.cpp reads it).
    const int slots = tex[2] != 0 ? 3 : tex[1] != 0 ? 2 : 1;
    for (int k = 0; k < slots; ++k) m.name += (k ? "+" : "") + texture_label(tex[k], o_.names);
    if (!double_sided) m.name += detail::kSingleSidedSuffix;
    m.double_sided = double_sided;
    if (has_uv0 && tex[0] != 0) {
      m.texture.id = tex[0];  // the registry finds <name>.ctxr with StrCode24(<name>.bmp) == id
      m.texture.origin = "texture " + texture_label(tex[0], o_.names);
    }
    // "" for a slot without a known name: a null would make Blender keep the whole value only as
    // its Python repr (a string), since custom properties hold no None.
    Json names = Json::array();
    for (auto id : tex) {
      const std::string* n = o_.names ? o_.names->find(id) : nullptr;
      names.push_back(n ? *n : std::string());
    }
    json_of(m.extras)[detail::kMaterialKey] = {{"tex_id", tex}, {"names", names}};
    const auto i = static_cast<std::uint32_t>(s_.materials.size());
    s_.materials.push_back(std::move(m));
    index_.emplace(key, i);
    return i;
  }

 private:
  scene::Scene& s_;
  const Mgs2ExportOptions& o_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, bool, bool>, std::uint32_t> index_;
};

// Normals (1.3.12) as unit vectors; the packet extras `e` get the stored triples ("normals") when
// normalising changed a value that re-quantisation would not give back (byte-exactness).
void decode_normals(Bytes norms, std::size_t n, std::vector<float>& out, ObjectText& e) {
  out.resize(n * 3);
  bool exact = true;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int16_t s[3] = {s16_at(norms, i, 0), s16_at(norms, i, 1), s16_at(norms, i, 2)};
    const double x = s[0] / 4096.0, y = s[1] / 4096.0, z = s[2] / 4096.0;
    const double len = std::sqrt(x * x + y * y + z * z);
    float f[3] = {0, 1, 0};  // a zero normal points up
    if (len > 0)
      for (int k = 0; k < 3; ++k) f[k] = static_cast<float>((k == 0 ? x : k == 1 ? y : z) / len);
    for (int k = 0; k < 3; ++k) {
      out[i * 3 + k] = f[k];
      // lround without the library call: f * 4096 has at most 24 significant bits, so adding
      // 0.5 (away from zero) is exact and truncating it rounds half away from zero.
      const double v = double(f[k]) * 4096.0;
      if (static_cast<long>(v + std::copysign(0.5, v)) != s[k]) exact = false;
    }
  }
  if (exact) return;
  std::vector<std::uint8_t> stored(n * 6);  // the three s16 of each record, as stored
  for (std::size_t i = 0; i < n; ++i) std::memcpy(&stored[i * 6], norms.data() + i * 8, 6);
  append_b64(e.value("normals"), stored.data(), stored.size());
}

// UV sets 0..last present (an absent set below a present one is zero-filled so that TEXCOORD_n
// stay contiguous; the packet extras' "uv_sets" say which are real). `stride` 4 (KMS) or 8 (EVM).
void decode_uvs(const std::array<ArrayRef, 3>& uvs, std::size_t n, std::size_t stride,
                std::vector<std::vector<float>>& out, ObjectText& e) {
  int last = -1;
  for (int s = 0; s < 3; ++s)
    if (uvs[s].present() && uvs[s].data.size() >= n * stride) last = s;
  std::string& present = e.value("uv_sets");
  for (int s = 0; s < 3; ++s) present.append(s == 0 ? "[" : ","), detail::append_bool(present, uvs[s].present());
  present.push_back(']');
  for (int s = 0; s <= last; ++s) {
    std::vector<float> uv(n * 2, 0.0f);
    if (uvs[s].present() && uvs[s].data.size() >= n * stride)
      for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 2; ++k)
          uv[i * 2 + k] = load_le<std::int16_t>(uvs[s].data.data() + i * stride + k * 2) / 4096.0f;
    out.push_back(std::move(uv));
  }
}

std::vector<std::uint32_t> triangle_indices(Bytes kick_records, std::size_t n) {
  std::vector<std::uint32_t> idx;
  for_each_strip_triangle(kick_records, n, [&](const Triangle& t) { idx.insert(idx.end(), t.begin(), t.end()); });
  return idx;
}

// What one conversion reuses for every packet's extras text.
struct PacketText {
  ObjectText fields;                 // the packet's object
  std::vector<std::uint8_t> column;  // one s16 column, gathered for base64
  std::string without;               // "without_triangles" elements so far, comma-separated
};

// One s16 column of records of `stride` bytes, as base64 (extras).
void append_column(std::string& out, Bytes records, std::size_t n, std::size_t stride, std::size_t at, PacketText& t) {
  t.column.resize(n * 2);
  for (std::size_t i = 0; i < n; ++i) std::memcpy(&t.column[i * 2], records.data() + i * stride + at, 2);
  append_b64(out, t.column.data(), t.column.size());
}
// All the s16 of an array, as base64.
void append_all_s16(std::string& out, Bytes data) { append_b64(out, data.data(), data.size() / 2 * 2); }

// A packet that draws no triangle has no place in glTF: its arrays go to extras whole.
template <class Packet>
void keep_without_triangles(const Packet& p, PacketText& t) {
  ObjectText& e = t.fields;
  append_all_s16(e.value("verts"), p.verts.data);
  append_all_s16(e.value("norms"), p.norms.data);
  std::string& uvs = e.value("uvs");
  uvs.push_back('[');
  for (const auto& a : p.uvs) {
    if (&a != &p.uvs[0]) uvs.push_back(',');
    if (a.present()) append_all_s16(uvs, a.data);
    else uvs.append("null");
  }
  uvs.push_back(']');
  if (!t.without.empty()) t.without.push_back(',');
  e.append_to(t.without);
}

// The mesh extras: {"mgs2_mesh":{"packets":N,"unit":U,"without_triangles":[...]}} (no unit for
// an EVM, no list when every packet draws).
std::string mesh_extras(std::size_t packets, std::optional<std::size_t> unit, const PacketText& t) {
  ObjectText o;
  append_uint(o.value("packets"), packets);
  if (unit) append_uint(o.value("unit"), *unit);
  if (!t.without.empty()) o.value("without_triangles").append("[").append(t.without).append("]");
  return o.inside(detail::kMeshKey);
}

// Culling: single-sided only when the packet asks for culling (CULLAUTO|CULLON) and no drawing
// vertex keeps the "double-sided" low bits 0x0FFF.
bool double_sided(std::uint32_t flag, Bytes kick_records, std::size_t n) {
  if ((flag & 0x6) == 0) return true;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint16_t k = kick_at(kick_records, i);
    if ((k & kKickNoDraw) == 0 && (k & 0x0FFF) == 0x0FFF) return true;
  }
  return false;
}

Json scene_header(const char* format, Layout layout, double scale) {
  return Json{{"format", format}, {"layout", layout_name(layout)}, {"scale", scale}};
}

// The error for a scale that cannot place anything (both exporters check it first).
std::optional<Finding> scale_error(const Mgs2ExportOptions& o) {
  if (!(o.scale > 0) || !std::isfinite(o.scale))
    return Finding{Severity::error, 0, "--scale", "scale must be a positive number", "> 0", std::to_string(o.scale)};
  return std::nullopt;
}

scene::Scene new_scene(const char* skeleton_name) {
  scene::Scene s;
  s.generator = "boneyard";
  s.skeleton.name = skeleton_name;
  return s;
}


// Where a packet's kick flags and UVs are: KMS keeps kick flags with its normals and UVs as 4-byte
// records, EVM with its vertices and UVs as 8-byte records.
struct PacketArrays {
  Bytes kick_records;
  std::size_t uv_stride;
  std::string path;  // "unit 3 packet 2", for errors
};

// One packet as a primitive of `mesh` (or, when it draws nothing, kept in `t.without`): positions
// from `position(vertex, axis)` in glTF units, the skin from `skin(n, prim)`, the packet's fields
// from `extras(n, t)`; its extras also keep the raw normals that decoding would not give back and
// which UV sets exist.
template <class Packet, class Extras, class Position, class Skin>
Status add_packet(const Packet& p, const PacketArrays& arrays, const Extras& extras, const Position& position,
                  const Skin& skin, VertexBudget& vertices, Materials& materials, scene::Mesh& mesh, PacketText& t) {
  const std::size_t n = std::min<std::size_t>({p.vertex_count(), p.verts.data.size() / 8, p.norms.data.size() / 8});
  if (auto taken = vertices.take(n, p.file_offset, arrays.path); !taken) return taken;
  t.fields.clear();
  extras(n, t);
  scene::Primitive prim;
  prim.indices = triangle_indices(arrays.kick_records, n);
  if (prim.indices.empty()) {
    keep_without_triangles(p, t);
    return {};
  }
  prim.positions.resize(n * 3);
  for (std::size_t v = 0; v < n; ++v)
    for (int c = 0; c < 3; ++c) prim.positions[v * 3 + c] = float(position(v, c));
  decode_normals(p.norms.data, n, prim.normals, t.fields);
  decode_uvs(p.uvs, n, arrays.uv_stride, prim.uvs, t.fields);
  skin(n, prim);
  prim.material = materials.get(p.tex_id, double_sided(p.flag, arrays.kick_records, n), !prim.uvs.empty());
  set_json_text(prim.extras, t.fields.inside(detail::kPacketKey));
  mesh.primitives.push_back(std::move(prim));
  return {};
}

// The KMS packet fields glTF has no place for, as our primitive extras.
void kms_packet_extras(const KmsPacket& p, std::size_t k, std::size_t n, PacketText& t) {
  ObjectText& e = t.fields;
  append_uint(e.value("flag"), p.flag);
  append_uint(e.value("index"), k);
  append_column(e.value("kicks"), p.norms.data, n, 8, 6, t);
  append_uint(e.value("n_verts"), p.n_verts);
  append_uint(e.value("pad"), p.pad);
  append_uint(e.value("pad2"), p.pad2);
  append_uint(e.value("rgbs"), p.rgbs);
  append_uints(e.value("tex_id"), p.tex_id);
  append_uints(e.value("tex_pad"), p.tex_pad);
  append_column(e.value("w"), p.verts.data, n, 8, 6, t);
}

// Weights of a KMS packet of unit `unit`: an envelope packet gives w/4096 to the unit and the
// rest to its parent; any other is rigid to the unit.
void kms_skin(const KmsPacket& p, std::size_t n, std::size_t unit, int parent, scene::Primitive& prim) {
  const bool envelope = (p.flag & kPackEnvelope) != 0 && parent >= 0;
  prim.joints.assign(n * 4, 0);
  prim.weights.assign(n * 4, 0.0f);
  for (std::size_t v = 0; v < n; ++v) {
    prim.joints[v * 4] = static_cast<std::uint16_t>(unit);
    if (envelope) {
      const float w = std::clamp(s16_at(p.verts.data, v, 3) / 4096.0f, 0.0f, 1.0f);
      prim.weights[v * 4] = w;
      prim.joints[v * 4 + 1] = static_cast<std::uint16_t>(parent);
      prim.weights[v * 4 + 1] = 1.0f - w;
    } else {
      prim.weights[v * 4] = 1.0f;
    }
  }
  scene::clean_weights(prim, static_cast<std::uint16_t>(unit));
}

// Joints from the EVM bones. The bind pose is pure translation: world = root offset, so the
// inverse bind matrix is the translation by the negated root offset; parent-relative
// translations follow from it.
void evm_joints(const EvmFile& m, const Mgs2ExportOptions& o, Diagnostics& warnings, scene::Scene& s) {
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const EvmBone& b = m.bones[i];
    scene::Joint j;
    j.name = "joint_" + std::to_string(i);
    const int p = b.parent;
    j.parent = p >= 0 && static_cast<std::size_t>(p) < i ? p : -1;
    if (j.parent == -1 && p != -1)
      warnings.add(Severity::warning, b.file_offset + 4, "joint " + std::to_string(i) + " parent",
                   "parent is not an earlier joint; exported as a root", "-1 or < " + std::to_string(i), std::to_string(p));
    const Vec3 base = j.parent >= 0 ? m.bones[std::size_t(j.parent)].root_offset : Vec3{};
    j.translation = {float((double(b.root_offset.x) - base.x) * o.scale), float((double(b.root_offset.y) - base.y) * o.scale),
                     float((double(b.root_offset.z) - base.z) * o.scale)};
    json_of(j.extras)[detail::kJointKey] = {{"index", i},
                                   {"flag", b.flag},
                                   {"parent", b.parent},
                                   {"translation", jvec(b.translation)},
                                   {"root_offset", jvec(b.root_offset)},
                                   {"box_min", jvec(b.box_min)},
                                   {"box_max", jvec(b.box_max)},
                                   {"extended", i >= m.header.n_models}};
    s.skeleton.joints.push_back(std::move(j));
  }
}

// The packet fields glTF has no place for, as our primitive extras.
void evm_packet_extras(const EvmPacket& p, std::size_t k, std::size_t n, PacketText& t) {
  ObjectText& e = t.fields;
  append_uint(e.value("flag"), p.flag);
  append_uint(e.value("flag_pad"), p.flag_pad);
  append_uint(e.value("index"), k);
  append_column(e.value("kicks"), p.verts.data, n, 8, 6, t);
  append_uints(e.value("mat_id"), p.mat_id);
  append_uint(e.value("n_mats"), p.n_mats);
  append_uint(e.value("n_verts"), p.n_verts);
  append_column(e.value("norm_pad"), p.norms.data, n, 8, 6, t);
  append_uint(e.value("pad"), p.pad);
  append_uint(e.value("rgbs"), p.rgbs);
  append_uints(e.value("tex_id"), p.tex_id);
  append_uints(e.value("tex_pad"), p.tex_pad);
  std::string& uvwp = e.value("uv_wp");  // the w and pad of each UV record (w is 1.0 = 4096 in practice)
  uvwp.push_back('[');
  for (const auto& a : p.uvs) {
    if (&a != &p.uvs[0]) uvwp.push_back(',');
    if (!a.present() || a.data.size() < n * 8) {
      uvwp.append("null");
      continue;
    }
    uvwp.append("{\"pad\":");
    append_column(uvwp, a.data, n, 8, 6, t);
    uvwp.append(",\"w\":");
    append_column(uvwp, a.data, n, 8, 4, t);
    uvwp.push_back('}');
  }
  uvwp.push_back(']');
  std::string& weights = e.value("weights");
  if (p.weights.present()) append_b64(weights, p.weights.data.data(), p.weights.data.size());
  else weights.append("null");
}

// Up to 4 influences per vertex of an EVM packet, heaviest first, on joints below nb; counts the
// vertices that had more and the influences whose palette slot names no joint.
void evm_skin(const EvmFile& m, const EvmPacket& p, std::size_t n, std::size_t nb, scene::Primitive& prim,
              std::size_t& over_four, std::size_t& unresolved) {
  prim.joints.assign(n * 4, 0);
  prim.weights.assign(n * 4, 0.0f);
  for (std::size_t v = 0; v < n; ++v) {
    std::array<EvmInfluence, 8> inf{};
    std::size_t c = evm_influences(m, p, v, inf);
    std::size_t kept = 0;
    c = std::min<std::size_t>(c, inf.size());
    for (std::size_t a = 1; a < c; ++a)  // by decreasing weight (at most 8: insertion sort)
      for (std::size_t b = a; b > 0 && inf[b].weight > inf[b - 1].weight; --b) std::swap(inf[b], inf[b - 1]);
    for (std::size_t q = 0; q < c; ++q) {
      if (inf[q].joint < 0 || static_cast<std::size_t>(inf[q].joint) >= nb) {
        ++unresolved;
        continue;
      }
      if (kept == 4) {
        ++over_four;
        break;
      }
      prim.joints[v * 4 + kept] = static_cast<std::uint16_t>(inf[q].joint);
      prim.weights[v * 4 + kept] = inf[q].weight;
      ++kept;
    }
  }
  scene::clean_weights(prim, 0);
}

}  // namespace

Result<scene::Scene> kms_to_scene(const KmsFile& m, const Mgs2ExportOptions& o, Diagnostics& warnings) {
  if (auto e = scale_error(o)) return *e;
  scene::Scene s = new_scene("kms");
  const KmsHeader& h = m.header;
  Json head = scene_header("kms", m.layout, o.scale);
  head["data_format"] = h.data_format;
  head["n_models"] = h.n_models;
  head["texture"] = h.texture;
  head["pad"] = h.pad;
  head["bbox_min"] = jvec(h.bbox_min);
  head["bbox_max"] = jvec(h.bbox_max);
  head["position"] = jvec(h.position);
  json_of(s.extras)[detail::kSceneKey] = std::move(head);

  // World rest positions (model units): base position plus the offsets up the parent chain.
  const std::size_t n_units = m.units.size();
  if (n_units > 0xFFFF)  // glTF JOINTS_0 are 16-bit here
    return Finding{Severity::error, 8, "n_x_models", "too many units for glTF joints", "<= 65535", std::to_string(n_units)};
  std::vector<std::array<double, 3>> world(n_units);
  std::vector<int> parent(n_units, -1);
  for (std::size_t i = 0; i < n_units; ++i) {
    const int p = m.units[i].parent;
    // A parent must come earlier (the validator reports others); anything else is treated as a root.
    if (p >= 0 && static_cast<std::size_t>(p) < i) parent[i] = p;
    else if (p != -1)
      warnings.add(Severity::warning, m.units[i].file_offset + 0x2C, "unit " + std::to_string(i) + " parent",
                   "parent is not an earlier unit; exported as a root", "-1 or < " + std::to_string(i), std::to_string(p));
    const Vec3& t = m.units[i].position;
    const std::array<double, 3> base = parent[i] >= 0 ? world[std::size_t(parent[i])]
                                                       : std::array<double, 3>{h.position.x, h.position.y, h.position.z};
    world[i] = {base[0] + t.x, base[1] + t.y, base[2] + t.z};
  }
  Materials materials(s, o);
  VertexBudget vertices(m.file_size);
  PacketText packet_text;
  for (std::size_t i = 0; i < n_units; ++i) {
    const KmsUnit& u = m.units[i];
    scene::Joint j;
    j.name = "unit_" + std::to_string(i);
    j.parent = parent[i];
    const double* base = parent[i] >= 0 ? world[std::size_t(parent[i])].data() : nullptr;
    j.translation = {float((world[i][0] - (base ? base[0] : 0)) * o.scale), float((world[i][1] - (base ? base[1] : 0)) * o.scale),
                     float((world[i][2] - (base ? base[2] : 0)) * o.scale)};
    json_of(j.extras)[detail::kJointKey] = {{"index", i},          {"type", u.type},        {"parent", u.parent},
                                   {"position", jvec(u.position)}, {"bbox_min", jvec(u.bbox_min)},
                                   {"bbox_max", jvec(u.bbox_max)}, {"pad", u.pad}, {"extended", (u.type & kUnitExtend) != 0}};
    s.skeleton.joints.push_back(std::move(j));

    scene::Mesh mesh;
    mesh.name = "unit_" + std::to_string(i);
    mesh.skinned = true;
    packet_text.without.clear();  // packets that draw nothing: glTF cannot hold them, extras can
    for (std::size_t k = 0; k < u.packets.size(); ++k) {
      const KmsPacket& p = u.packets[k];
      const PacketArrays arrays{p.norms.data, 4, "unit " + std::to_string(i) + " packet " + std::to_string(k)};
      const auto positions = [&](std::size_t v, int c) { return (world[i][c] + s16_at(p.verts.data, v, c)) * o.scale; };
      const auto skin = [&](std::size_t n, scene::Primitive& prim) { kms_skin(p, n, i, parent[i], prim); };
      const auto extras = [&](std::size_t n, PacketText& t) { kms_packet_extras(p, k, n, t); };
      if (auto added = add_packet(p, arrays, extras, positions, skin, vertices, materials, mesh, packet_text); !added)
        return added.error();
    }
    set_json_text(mesh.extras, mesh_extras(u.packets.size(), i, packet_text));
    s.meshes.push_back(std::move(mesh));
  }
  return s;
}

Result<scene::Scene> evm_to_scene(const EvmFile& m, const Mgs2ExportOptions& o, Diagnostics& warnings) {
  if (auto e = scale_error(o)) return *e;
  scene::Scene s = new_scene("evm");
  const EvmHeader& h = m.header;
  Json head = scene_header("evm", m.layout, o.scale);
  head["n_models"] = h.n_models;
  head["type"] = h.type;
  head["texture"] = h.texture;
  head["bbox_min"] = jvec(h.bbox_min);
  head["bbox_max"] = jvec(h.bbox_max);
  head["mc_pad"] = h.mc_pad;
  json_of(s.extras)[detail::kSceneKey] = std::move(head);
  const std::size_t nb = m.bones.size();
  if (nb > 0xFFFF)
    return Finding{Severity::error, 4, "n_x_models", "too many joints for glTF", "<= 65535", std::to_string(nb)};
  evm_joints(m, o, warnings, s);
  Materials materials(s, o);
  scene::Mesh mesh;
  mesh.name = "evm";
  mesh.skinned = nb > 0;
  PacketText packet_text;
  const double pscale = double(m.position_scale()) * o.scale;
  std::size_t over_four = 0, unresolved = 0;
  VertexBudget vertices(m.file_size);
  for (std::size_t k = 0; k < m.packets.size(); ++k) {
    const EvmPacket& p = m.packets[k];
    const PacketArrays arrays{p.verts.data, 8, "packet " + std::to_string(k)};
    const auto positions = [&](std::size_t v, int c) { return s16_at(p.verts.data, v, c) * pscale; };
    const auto skin = [&](std::size_t n, scene::Primitive& prim) {
      if (nb > 0) evm_skin(m, p, n, nb, prim, over_four, unresolved);
    };
    const auto extras = [&](std::size_t n, PacketText& t) { evm_packet_extras(p, k, n, t); };
    if (auto added = add_packet(p, arrays, extras, positions, skin, vertices, materials, mesh, packet_text); !added)
      return added.error();
  }
  if (over_four != 0)
    warnings.add(Severity::warning, 0, "weights", "vertices with more than 4 influences: the smallest were dropped",
                 "<= 4 per vertex", std::to_string(over_four));
  if (unresolved != 0)
    warnings.add(Severity::warning, 0, "weights", "influences whose palette names no joint were dropped", "0",
                 std::to_string(unresolved));
  set_json_text(mesh.extras, mesh_extras(m.packets.size(), std::nullopt, packet_text));
  s.meshes.push_back(std::move(mesh));
  return s;
}

}  // namespace boneyard::mgs2
