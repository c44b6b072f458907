// A .cmdl with its model -> neutral scene (then glTF): what the Master Collection draws. The
// skeleton, materials and native extras come from the model's own export (mgs2_scene_export.cpp);
// the geometry is the .cmdl's: one primitive per record (docs/mgs2-cmdl.md "glTF").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "boneyard/mgs2/mgs2_scene.h"
#include "cmdl_internal.h"
#include "mgs2/scene/mgs2_scene_common.h"

namespace boneyard::mgs2 {

using detail::Json;

namespace {

inline constexpr const char* kRecordKey = "mgs2_cmdl";  // primitive extras: which record it drew

// Model-space rest positions of the KMS units (model units), as kms_to_scene places its joints.
std::vector<std::array<double, 3>> unit_world(const KmsFile& m) {
  std::vector<std::array<double, 3>> world(m.units.size());
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    const int p = m.units[i].parent;
    const std::array<double, 3> base = p >= 0 && static_cast<std::size_t>(p) < i
                                           ? world[std::size_t(p)]
                                           : std::array<double, 3>{m.header.position.x, m.header.position.y, m.header.position.z};
    const Vec3& t = m.units[i].position;
    world[i] = {base[0] + t.x, base[1] + t.y, base[2] + t.z};
  }
  return world;
}

// (mesh, sub-mesh) -> material of the model's primitive for that packet.
std::map<std::pair<std::size_t, std::size_t>, std::uint32_t> packet_materials(const scene::Scene& s, bool kms) {
  std::map<std::pair<std::size_t, std::size_t>, std::uint32_t> out;
  for (std::size_t i = 0; i < s.meshes.size(); ++i)
    for (const auto& p : s.meshes[i].primitives) {
      const Json* e = detail::jget(json_of(p.extras), detail::kPacketKey);
      if (e != nullptr) out[{kms ? i : 0, detail::jnum<std::size_t>(*e, "index", 0)}] = p.material;
    }
  return out;
}

struct Context {
  const CmdlFile& c;
  const detail::CmdlSource& src;
  const Mgs2ExportOptions& o;
  std::size_t n = 0;
  const std::uint8_t* col[8] = {};

  Context(const CmdlFile& cmdl, const detail::CmdlSource& s, const Mgs2ExportOptions& opts) : c(cmdl), src(s), o(opts), n(cmdl.vertex_count()) {
    for (int k = 0; k < 8; ++k) {
      const CmdlSection* sec = c.find(static_cast<CmdlColumn>(k));
      const std::size_t size = cmdl_column_info(static_cast<CmdlColumn>(k)).element_size;
      if (sec != nullptr && sec->data.size() == n * size) col[k] = sec->data.data();
    }
  }
  // The source packet and strip vertex an OIDX names, or nullptr.
  const detail::CmdlSourcePacket* strip_vertex(std::uint32_t oidx, std::size_t& local) const {
    const auto it = std::upper_bound(src.packets.begin(), src.packets.end(), oidx,
                                     [](std::uint64_t v, const detail::CmdlSourcePacket& p) { return v < p.strip_base; });
    if (it == src.packets.begin()) return nullptr;
    const detail::CmdlSourcePacket& p = *(it - 1);
    if (oidx - p.strip_base >= p.verts.size()) return nullptr;
    local = oidx - p.strip_base;
    return &p;
  }
};

// One record's vertices and triangles as a primitive; `offset` is added to positions (KMS: the
// unit's place) before scaling. Skin: the caller's.
scene::Primitive record_primitive(const Context& x, const CmdlMesh& m, const std::array<double, 3>& offset) {
  scene::Primitive prim;
  const std::size_t count = m.vertex_count;
  prim.positions.resize(count * 3);
  prim.normals.resize(count * 3);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t v = m.start_vertex + i;
    float p[4];
    std::memcpy(p, x.col[0] + v * 16, 16);
    for (int k = 0; k < 3; ++k) prim.positions[i * 3 + std::size_t(k)] = float((offset[std::size_t(k)] + p[k]) * x.o.scale);
    std::array<float, 3> nv{0, 1, 0};
    if (x.col[1] != nullptr) {
      const auto u = unpack_normal(load_le<std::uint32_t>(x.col[1] + v * 4));
      const float len = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      if (len > 0) nv = {u[0] / len, u[1] / len, u[2] / len};
    }
    std::copy(nv.begin(), nv.end(), prim.normals.begin() + long(i * 3));
  }
  int last = -1;
  for (int s = 0; s < 3; ++s)
    if (x.col[int(CmdlColumn::uv0) + s] != nullptr) last = s;
  for (int s = 0; s <= last; ++s) {
    std::vector<float> uv(count * 2, 0.0f);
    if (const std::uint8_t* d = x.col[int(CmdlColumn::uv0) + s])
      for (std::size_t i = 0; i < count * 2; ++i) uv[i] = half_to_float(load_le<std::uint16_t>(d + (m.start_vertex * 2 + i) * 2));
    prim.uvs.push_back(std::move(uv));
  }
  for (std::size_t i = m.start_index; i + 2 < std::size_t{m.start_index} + m.index_count; i += 3) {
    const std::uint32_t a = x.c.tail.index(i), b = x.c.tail.index(i + 1), c = x.c.tail.index(i + 2);
    // The .cmdl winds (0, 2, 1) of the strip's triangle: turned back so the same side faces out.
    for (std::uint32_t v : {a, c, b}) prim.indices.push_back(v - m.start_vertex);
  }
  return prim;
}

// KMS: the weight of the strip vertex the OIDX names (own unit, the rest to the parent, as the
// model's own export gives it); rigid to the unit when the OIDX names none.
void kms_record_skin(const Context& x, const CmdlMesh& m, std::size_t unit, int parent, scene::Primitive& prim) {
  const std::size_t count = m.vertex_count;
  prim.joints.assign(count * 4, 0);
  prim.weights.assign(count * 4, 0.0f);
  const std::uint8_t* oidx = x.col[int(CmdlColumn::original_index)];
  for (std::size_t i = 0; i < count; ++i) {
    float w = 1.0f;
    std::size_t local = 0;
    if (oidx != nullptr)
      if (const auto* p = x.strip_vertex(load_le<std::uint32_t>(oidx + (m.start_vertex + i) * 4), local)) w = p->own_weight[local];
    prim.joints[i * 4] = static_cast<std::uint16_t>(unit);
    prim.weights[i * 4] = w;
    if (parent >= 0 && static_cast<std::size_t>(parent) < unit && w < 1.0f) {
      prim.joints[i * 4 + 1] = static_cast<std::uint16_t>(parent);
      prim.weights[i * 4 + 1] = 1.0f - w;
    }
  }
  scene::clean_weights(prim, static_cast<std::uint16_t>(unit));
}

// EVM: BONI slots through the record's bone list, BONW weights; a slot that names no joint is
// left out (the weights are renormalised).
void evm_record_skin(const Context& x, const CmdlMesh& m, std::size_t n_joints, scene::Primitive& prim) {
  if (n_joints == 0) return;
  const std::size_t count = m.vertex_count;
  prim.joints.assign(count * 4, 0);
  prim.weights.assign(count * 4, 0.0f);
  const std::uint8_t* boni = x.col[int(CmdlColumn::bone_index)];
  const std::uint8_t* bonw = x.col[int(CmdlColumn::bone_weight)];
  for (std::size_t i = 0; i < count && boni != nullptr && bonw != nullptr; ++i) {
    const std::size_t v = m.start_vertex + i;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t slot = boni[v * 4 + k];
      if (slot >= m.bones.size() || m.bones[slot] >= n_joints) continue;
      prim.joints[i * 4 + k] = static_cast<std::uint16_t>(m.bones[slot]);
      prim.weights[i * 4 + k] = half_to_float(load_le<std::uint16_t>(bonw + v * 8 + k * 2));
    }
  }
  scene::clean_weights(prim, 0);
}

// Why a record cannot be drawn (its ranges or indices leave it), or "".
std::string unusable(const Context& x, const CmdlMesh& m) {
  if (std::uint64_t{m.start_vertex} + m.vertex_count > x.n) return "vertex range past the vertex count";
  if (std::uint64_t{m.start_index} + m.index_count > x.c.tail.n_indices) return "index range past the index count";
  for (std::size_t i = m.start_index; i < std::size_t{m.start_index} + m.index_count; ++i) {
    const std::uint32_t v = x.c.tail.index(i);
    if (v < m.start_vertex || v - m.start_vertex >= m.vertex_count) return "an index outside the record's vertices";
  }
  return {};
}

template <class Model>
Result<scene::Scene> from_cmdl(const CmdlFile& c, const Model& model, const Mgs2ExportOptions& o, Diagnostics& warnings) {
  constexpr bool kms = std::is_same_v<Model, KmsFile>;
  if (c.find(CmdlColumn::position) == nullptr || c.find(CmdlColumn::position)->data.size() != c.vertex_count() * 16)
    return Finding{Severity::error, 0, "POS0", "no usable POS0 section: nothing to draw", "a POS0 section", "none"};
  Result<scene::Scene> sc = Finding{};
  if constexpr (kms) {
    sc = kms_to_scene(model, o, warnings);
  } else {
    sc = evm_to_scene(model, o, warnings);
  }
  if (!sc) return sc.error();
  auto src = detail::cmdl_source(model);
  if (!src) return src.error();
  scene::Scene s = std::move(sc).value();
  const auto materials = packet_materials(s, kms);
  for (auto& mesh : s.meshes) {
    mesh.primitives.clear();
    if (Json* me = &json_of(mesh.extras); me->is_object() && me->contains(detail::kMeshKey)) (*me)[detail::kMeshKey].erase("without_triangles");
  }
  json_of(s.extras)[detail::kSceneKey]["source"] = "cmdl";
  const Context x(c, src.value(), o);
  std::vector<std::array<double, 3>> world;
  if constexpr (kms) world = unit_world(model);
  std::size_t skipped = 0;
  for (std::size_t r = 0; r < c.tail.meshes.size(); ++r) {
    const CmdlMesh& m = c.tail.meshes[r];
    const std::size_t mesh = kms ? m.mesh : 0;
    if (mesh >= s.meshes.size() || !unusable(x, m).empty() || m.index_count < 3) {
      skipped += m.index_count >= 3 ? 1 : 0;
      continue;
    }
    scene::Primitive prim = record_primitive(x, m, kms ? world[mesh] : std::array<double, 3>{});
    if constexpr (kms) {
      kms_record_skin(x, m, mesh, model.units[mesh].parent, prim);
    } else {
      evm_record_skin(x, m, model.bones.size(), prim);
    }
    const auto it = materials.find({mesh, m.sub_mesh});
    prim.material = it == materials.end() ? scene::kNoMaterial : it->second;
    json_of(prim.extras)[kRecordKey] = {{"record", r}, {"mesh", m.mesh}, {"sub_mesh", m.sub_mesh}};
    s.meshes[mesh].primitives.push_back(std::move(prim));
  }
  if (skipped != 0)
    warnings.add(Severity::warning, c.tail.file_offset, "tail", "records left out: they name no mesh of the model or leave their ranges",
                 "0", std::to_string(skipped));
  return s;
}

}  // namespace

Result<scene::Scene> cmdl_to_scene(const CmdlFile& cmdl, const KmsFile& model, const Mgs2ExportOptions& o, Diagnostics& warnings) {
  return from_cmdl(cmdl, model, o, warnings);
}
Result<scene::Scene> cmdl_to_scene(const CmdlFile& cmdl, const EvmFile& model, const Mgs2ExportOptions& o, Diagnostics& warnings) {
  return from_cmdl(cmdl, model, o, warnings);
}

}  // namespace boneyard::mgs2
