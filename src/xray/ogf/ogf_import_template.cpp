// glTF -> .ogf with a template model: the glTF's meshes replace the template's children, and
// everything the glTF leaves as it was keeps its bytes. A template child is unchanged when the
// glTF still holds exactly what our exporter made of it (same arrays), or the same triangles
// within float noise (a DCC round trip); then its chunk is copied. docs/ogf-write.md "With a
// template".
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"
#include "ogf_import_internal.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_import_bones.h"
#include "xray/scene/xray_import_internal.h"

namespace boneyard::xray::ogf_import {

namespace {

using import_detail::member;
using import_detail::number;

struct Part {  // one exported or incoming primitive
  std::size_t mesh = 0, primitive = 0;
  Kind kind = Kind::skinned;
  int bone = -1;               // rigid meshes
  const scene::Mat4* world = nullptr;  // rigid and static meshes: node space -> model space
  std::string where;
};

enum class Fate : std::uint8_t { unclaimed, kept_exact, kept_noise, edited, broken_kept };

struct NewChild {
  Soup soup;
  MaterialNames material;
  Kind kind = Kind::skinned;
  std::string where;
};

bool near_matrix(const scene::Mat4* a, const scene::Mat4* b) {
  static const scene::Mat4 kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const scene::Mat4& x = a ? *a : kIdentity;
  const scene::Mat4& y = b ? *b : kIdentity;
  for (std::size_t k = 0; k < 16; ++k)
    if (std::fabs(x[k] - y[k]) > 1e-6) return false;
  return true;
}

std::string mesh_where(const scene::Scene& s, std::size_t m, std::size_t p) {
  return "mesh " + std::to_string(m) + " (\"" + escape_controls(s.meshes[m].name) + "\") primitive " + std::to_string(p);
}

// The game a template is for, from its vertex ids: numeric ids (or 3/4 links) are CS/CoP, magic
// 1L/2L ids alone SoC. A model without skinned children: CoP.
Game template_game(const OgfFile& t) {
  bool magic = false;
  for (const auto& c : t.children) {
    if (!c.readable || !c.vertices || c.vertices->links() == 0) continue;
    if (!ogf_build::is_magic_format(c.vertices->format) || c.vertices->links() > 2) return Game::cop;
    magic = true;
  }
  return magic ? Game::soc : Game::cop;
}

class TemplateImport {
 public:
  TemplateImport(const scene::Scene& s, const OgfImportOptions& o, Diagnostics& w, OgfImportStats& st)
      : s_(s), o_(o), t_(*o.template_ogf), warnings_(w), st_(st) {}

  Result<std::vector<std::uint8_t>> run() {
    if (s_.meshes.empty()) return import_error("meshes", "the glTF has no meshes to import", ">= 1 mesh", "0");
    game_ = o_.game == Game::keep ? template_game(t_) : o_.game;
    if (auto e = export_template()) return *e;
    std::vector<std::string> names;
    for (const auto& b : t_.bones) names.push_back(b.name);
    nodes_ = map_nodes(s_.skeleton, names);
    if (auto e = check_skeleton()) return *e;
    if (auto e = collect_incoming()) return *e;
    fate_.assign(t_.children.size(), Fate::unclaimed);
    edited_.resize(t_.children.size());
    if (auto e = match_tagged()) return *e;
    if (auto e = match_by_material()) return *e;
    for (std::size_t c = 0; c < t_.children.size(); ++c)
      if (fate_[c] == Fate::unclaimed && exported_parts_[c].empty()) {
        fate_[c] = Fate::broken_kept;
        warnings_.add(Severity::warning, t_.children[c].offset, t_.children[c].path(),
                      "template child that cannot be exported (it has errors) kept as stored");
      }
    return assemble();
  }

 private:
  // What our exporter makes of the template: the reference each incoming primitive is compared with.
  std::optional<Finding> export_template() {
    if (!t_.bones.empty()) {
      auto sc = skeleton_scene(t_, "template");
      if (!sc) {
        Finding f = sc.error();
        f.path = "template " + f.path;
        return f;
      }
      exported_ = std::move(sc).value();
    }
    XrayExportOptions eo;
    eo.keep_going = true;  // a broken child is kept as stored instead
    Diagnostics ignored;
    (void)add_meshes(exported_, t_, eo, ignored);
    exported_worlds_ = scene::world_matrices(exported_.skeleton);
    exported_parts_.resize(t_.children.size());
    identity_.resize(exported_.skeleton.joints.size());
    for (std::size_t j = 0; j < identity_.size(); ++j) identity_[j] = int(j);
    for (std::size_t m = 0; m < exported_.meshes.size(); ++m) {
      const scene::Mesh& mesh = exported_.meshes[m];
      for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        const auto* x = member(json_of(mesh.primitives[p].extras), "xray");
        const auto child = x ? number<std::size_t>(*x, "child") : std::nullopt;
        if (!child || *child >= t_.children.size()) continue;
        Part part{m, p, mesh.skinned ? Kind::skinned : mesh.joint >= 0 ? Kind::rigid : Kind::statics, mesh.joint,
                  nullptr, "template " + t_.children[*child].path()};
        if (!mesh.skinned && mesh.joint >= 0) part.world = &exported_worlds_[std::size_t(mesh.joint)];
        exported_parts_[*child].push_back(part);
      }
    }
    return std::nullopt;
  }

  // Joints must sit where the template's bind pose puts them (turned frames are fine: the .omf
  // import's check, xray_import_frames.cpp).
  std::optional<Finding> check_skeleton() {
    if (t_.bones.empty() || !t_.has_ik) return std::nullopt;
    std::vector<std::size_t> bone_of(nodes_.bone_of_node.size(), import_detail::kNoBone);
    for (std::size_t n = 0; n < bone_of.size(); ++n)
      if (nodes_.bone_of_node[n] >= 0) bone_of[n] = std::size_t(nodes_.bone_of_node[n]);
    std::vector<Quat> rot;
    std::vector<Vec3> pos;
    std::vector<bool> known;
    for (const auto& b : t_.bones) {
      rot.push_back(b.ik ? bind_quaternion(b.ik->bind_rotation) : Quat{});
      pos.push_back(b.ik ? b.ik->bind_position : Vec3{});
      known.push_back(b.ik.has_value());
    }
    std::vector<std::size_t> turned;
    auto turns = import_detail::joint_turns({s_.skeleton, bone_of, rot, pos, known}, turned);
    if (!turns) return turns.error();
    return std::nullopt;
  }

  std::optional<Finding> collect_incoming() {
    for (std::size_t m = 0; m < s_.meshes.size(); ++m) {
      const scene::Mesh& mesh = s_.meshes[m];
      for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        Part part{m, p, Kind::skinned, -1, nullptr, mesh_where(s_, m, p)};
        if (!mesh.skinned) {
          const bool on_node = mesh.joint >= 0 && std::size_t(mesh.joint) < nodes_.world.size();
          part.bone = on_node ? nodes_.bone_for(mesh.joint) : -1;
          part.kind = part.bone >= 0 && !t_.bones.empty() ? Kind::rigid : Kind::statics;
          part.world = on_node ? &nodes_.world[std::size_t(mesh.joint)] : nullptr;
        }
        const auto* x = member(json_of(mesh.primitives[p].extras), "xray");
        const auto child = x ? number<std::size_t>(*x, "child") : std::nullopt;
        if (child && *child < t_.children.size() && !exported_parts_[*child].empty()) tagged_[*child].push_back(incoming_.size());
        else untagged_.push_back(incoming_.size());
        incoming_.push_back(part);
      }
    }
    return std::nullopt;
  }

  const scene::Primitive& prim(const scene::Scene& s, const Part& p) const {
    return s.meshes[p.mesh].primitives[p.primitive];
  }

  Result<Soup> soup_of(const scene::Scene& s, const std::vector<Part>& parts, const std::vector<int>& bone_of_joint) const {
    Soup all;
    for (const auto& p : parts) {
      auto one = to_soup(prim(s, p), p.kind, p.world, bone_of_joint, p.bone, p.where);
      if (!one) return one.error();
      append(all, one.value());
    }
    return all;
  }

  std::vector<Part> parts(const std::vector<std::size_t>& ids) const {
    std::vector<Part> out;
    for (auto i : ids) out.push_back(incoming_[i]);
    return out;
  }

  // Our unedited export: every exported primitive of the child has an incoming twin with equal
  // arrays, in the same place (rigid: the same bone and node matrix).
  bool exactly_exported(std::size_t c, const std::vector<std::size_t>& ids) const {
    const auto& want = exported_parts_[c];
    if (want.size() != ids.size()) return false;
    std::vector<bool> used(ids.size(), false);
    for (const auto& e : want) {
      bool found = false;
      for (std::size_t k = 0; k < ids.size() && !found; ++k) {
        const Part& in = incoming_[ids[k]];
        if (used[k] || in.kind != e.kind || (e.kind == Kind::rigid && in.bone != e.bone)) continue;
        if (e.kind != Kind::skinned && !near_matrix(e.world, in.world)) continue;
        found = used[k] = same_arrays(prim(exported_, e), prim(s_, in), nodes_.bone_of_node);
      }
      if (!found) return false;
    }
    return true;
  }

  MaterialNames material_of(const Part& p) const { return material_names(s_, prim(s_, p).material); }

  bool same_material(const MaterialNames& m, const OgfChild& c) const {
    return !m.error && m.texture == c.texture && m.shader == c.shader;
  }

  // Primitives tagged with a child index (extras.xray.child, our export; lost in Blender).
  std::optional<Finding> match_tagged() {
    for (auto& [c, ids] : tagged_) {
      const OgfChild& child = t_.children[c];
      MaterialNames mat = material_of(incoming_[ids[0]]);
      if (mat.error) mat = {child.texture, child.shader, false, std::nullopt, std::nullopt};  // the child says what it was
      const bool material_kept = same_material(mat, child);
      if (material_kept && exactly_exported(c, ids)) {
        fate_[c] = Fate::kept_exact;
        continue;
      }
      auto pool = soup_of(s_, parts(ids), nodes_.bone_of_node);
      if (!pool) return pool.error();
      auto want = soup_of(exported_, exported_parts_[c], identity_);
      if (!want) return want.error();
      std::vector<bool> taken;
      if (material_kept && want->indices.size() == pool->indices.size() && find_triangles(want.value(), pool.value(), taken)) {
        fate_[c] = Fate::kept_noise;
        continue;
      }
      fate_[c] = Fate::edited;
      edited_[c] = NewChild{std::move(pool).value(), mat, incoming_[ids[0]].kind, incoming_[ids[0]].where};
    }
    return std::nullopt;
  }

  // Untagged primitives, grouped by material: each template child of that material whose
  // triangles are all among them is unchanged; what is left is written into the first template
  // child of the material that is not, or into a new child.
  std::optional<Finding> match_by_material() {
    std::vector<std::pair<MaterialNames, std::vector<std::size_t>>> groups;
    for (auto i : untagged_) {
      MaterialNames m = material_of(incoming_[i]);
      if (m.error) {
        Finding f = *m.error;
        f.path = incoming_[i].where + " " + f.path;
        return f;
      }
      if (m.beyond_stock && long_names_.insert(m.texture + '\n' + m.shader).second) warnings_.add(*m.beyond_stock);
      if (m.shader_defaulted) {
        // A DCC's default glTF export drops extras (Blender's does): a material named after a
        // template child's texture means that child's material, shader included.
        const auto same_texture = std::find_if(t_.children.begin(), t_.children.end(),
                                               [&](const OgfChild& c) { return c.texture == m.texture; });
        if (same_texture != t_.children.end()) m.shader = same_texture->shader, m.shader_defaulted = false;
      }
      if (m.shader_defaulted && defaulted_.insert(m.texture).second)
        warnings_.add(Severity::warning, 0, incoming_[i].where, "material has no shader (extras xray.shader): models\\model used",
                      "extras xray.shader", "none");
      auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) {
        return x.first.texture == m.texture && x.first.shader == m.shader;
      });
      if (g == groups.end()) groups.push_back({m, {i}});
      else g->second.push_back(i);
    }
    for (auto& [mat, ids] : groups) {
      auto pool_r = soup_of(s_, parts(ids), nodes_.bone_of_node);
      if (!pool_r) return pool_r.error();
      const Soup& pool = pool_r.value();
      std::vector<bool> taken(pool.indices.size() / 3, false);
      std::vector<std::size_t> unmatched;
      for (std::size_t c = 0; c < t_.children.size(); ++c) {
        if (fate_[c] != Fate::unclaimed || exported_parts_[c].empty() || !same_material(mat, t_.children[c])) continue;
        auto want = soup_of(exported_, exported_parts_[c], identity_);
        if (!want) return want.error();
        if (find_triangles(want.value(), pool, taken)) fate_[c] = Fate::kept_noise;
        else unmatched.push_back(c);
      }
      Soup rest = remaining(pool, taken);
      if (rest.indices.empty()) continue;
      rest.moved_weight = pool.moved_weight, rest.moved_vertices = pool.moved_vertices;
      const Kind kind = incoming_[ids[0]].kind;
      if (!unmatched.empty()) {
        fate_[unmatched[0]] = Fate::edited;
        edited_[unmatched[0]] = NewChild{std::move(rest), mat, kind, incoming_[ids[0]].where};
      } else {
        added_.push_back(NewChild{std::move(rest), mat, kind, incoming_[ids[0]].where});
      }
    }
    return std::nullopt;
  }

  ChildPlan plan_for_child(const OgfChild* c, Kind kind) const {
    ChildPlan p = plan_for(game_);
    if (c != nullptr && c->vertices) {
      p.is_static = c->vertices->links() == 0;
      p.magic = game_ == Game::soc || ogf_build::is_magic_format(c->vertices->format);
      p.min_links = std::max(1, std::min(c->vertices->links(), p.max_links));
    }
    if (c == nullptr) p.is_static = kind == Kind::statics;
    return p;
  }

  Result<std::vector<std::uint8_t>> build(const NewChild& n, const OgfChild* c) {
    const std::string where = c ? n.where + " (template " + c->path() + ")" : n.where;
    if (!c) {
      if (n.kind == Kind::statics && !t_.bones.empty())
        return import_error(n.where, "mesh has no skin and hangs on no bone of the model", "a skinned mesh or a mesh on a bone node", "none");
    }
    auto geometry = make_child(n.soup, plan_for_child(c, n.kind), n.material.texture, n.material.shader, where, warnings_, st_);
    if (!geometry) return geometry.error();
    if (c && !c->windows.empty())
      warnings_.add(Severity::warning, c->offset, c->path(),
                    "edited progressive child written as a plain skinned visual (type 5, no slide windows): its "
                    "stored levels of detail no longer match the mesh and are dropped");
    return ogf_build::child_payload(geometry.value());
  }

  Result<std::vector<std::uint8_t>> assemble() {
    bool changed = !added_.empty();
    for (auto f : fate_) changed = changed || f == Fate::edited || f == Fate::unclaimed;
    for (auto f : fate_) {
      st_.kept += f == Fate::kept_exact || f == Fate::broken_kept;
      st_.kept_within_noise += f == Fate::kept_noise;
      st_.edited += f == Fate::edited;
      st_.removed += f == Fate::unclaimed;
    }
    st_.added = added_.size();
    st_.children = t_.children.size() - st_.removed + added_.size();
    if (!changed) return write_ogf(t_);  // every child as stored: the template's bytes
    std::vector<std::uint8_t> kids;
    ogf_build::Box top;
    std::uint32_t next = 0;
    for (std::size_t c = 0; c < t_.children.size(); ++c) {
      const OgfChild& child = t_.children[c];
      if (fate_[c] == Fate::unclaimed) {
        warnings_.add(Severity::warning, child.offset, child.path(), "template child removed: the glTF no longer has it");
        continue;
      }
      if (fate_[c] == Fate::edited) {
        auto payload = build(*edited_[c], &child);
        if (!payload) return payload.error();
        add_child(kids, next++, payload.value(), top);
        continue;
      }
      // Kept: the child's own bytes (its chunk id renumbered when an earlier child went).
      const Chunk* raw = child_chunk(c);
      if (raw == nullptr) return import_error(child.path(), "template child not found in chunk 0x9");
      ogf_build::put_chunk(kids, next++, raw->payload);
      if (child.readable) top.add(ogf_build::box_of(child.header));
    }
    for (const auto& n : added_) {
      auto payload = build(n, nullptr);
      if (!payload) return payload.error();
      add_child(kids, next++, payload.value(), top);
    }
    return container(kids, top);
  }

  const Chunk* child_chunk(std::size_t c) {
    if (!children_list_) {
      const Chunk* k = t_.chunks.find(kOgfChildren);
      children_list_ = k ? split_chunks(k->payload, k->payload_offset()) : ChunkList{};
    }
    return children_list_->find(std::uint32_t(c));
  }

  void add_child(std::vector<std::uint8_t>& kids, std::uint32_t id, const std::vector<std::uint8_t>& payload,
                 ogf_build::Box& top) {
    ogf_build::put_chunk(kids, id, payload);
    // The child's box is at the start of its header chunk (8 + 4 bytes in).
    ogf_build::Box b;
    b.add(Vec3{load_le<float>(&payload[12]), load_le<float>(&payload[16]), load_le<float>(&payload[20])});
    b.add(Vec3{load_le<float>(&payload[24]), load_le<float>(&payload[28]), load_le<float>(&payload[32])});
    top.add(b);
  }

  // The template's chunks in their order with the header's box recomputed (the merge of the
  // children's boxes, as the SDK's ComputeBounding) and 0x9 replaced.
  std::vector<std::uint8_t> container(const std::vector<std::uint8_t>& kids, const ogf_build::Box& top) {
    std::vector<std::uint8_t> out;
    out.reserve(t_.size + kids.size());
    bool placed = false;
    const bool has_children = t_.chunks.find(kOgfChildren) != nullptr;
    for (const auto& c : t_.chunks.chunks) {
      if (c.id() == kOgfHeader && !placed_header_) {
        placed_header_ = true;
        ogf_build::put_chunk(out, c.raw_id, ogf_build::header_payload(t_.header.type, t_.header.shader_id, top));
        if (!has_children && t_.chunks.find(kOgfDesc) == nullptr) ogf_build::put_chunk(out, kOgfChildren, kids), placed = true;
      } else if (c.id() == kOgfChildren && !placed) {
        ogf_build::put_chunk(out, c.raw_id, kids);
        placed = true;
      } else {
        ogf_build::put_chunk(out, c.raw_id, c.payload);
        if (c.id() == kOgfDesc && !has_children && !placed) ogf_build::put_chunk(out, kOgfChildren, kids), placed = true;
      }
    }
    out.insert(out.end(), t_.chunks.trailing.begin(), t_.chunks.trailing.end());
    return out;
  }

  const scene::Scene& s_;
  const OgfImportOptions& o_;
  const OgfFile& t_;
  Diagnostics& warnings_;
  OgfImportStats& st_;
  Game game_ = Game::cop;
  scene::Scene exported_;
  std::vector<scene::Mat4> exported_worlds_;
  std::vector<std::vector<Part>> exported_parts_;  // per template child
  std::vector<int> identity_;
  NodeBones nodes_;
  std::vector<Part> incoming_;
  std::map<std::size_t, std::vector<std::size_t>> tagged_;  // child -> incoming
  std::vector<std::size_t> untagged_;
  std::vector<Fate> fate_;
  std::vector<std::optional<NewChild>> edited_;
  std::vector<NewChild> added_;
  std::set<std::string> defaulted_;
  std::set<std::string> long_names_;  // materials whose names were warned about (beyond_stock)
  std::optional<ChunkList> children_list_;
  bool placed_header_ = false;
};

}  // namespace

Result<std::vector<std::uint8_t>> import_with_template(const scene::Scene& s, const OgfImportOptions& o,
                                                       Diagnostics& warnings, OgfImportStats& stats) {
  return TemplateImport(s, o, warnings, stats).run();
}

}  // namespace boneyard::xray::ogf_import
