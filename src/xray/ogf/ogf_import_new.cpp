// glTF -> .ogf without a template: a new model for the chosen game. A skin makes a skeletal model
// (bones = the skin's joints in node order, the bind pose from boneyard's joint extras or the rest
// pose, the SDK's default IK data, bone boxes from the vertices), whose children are skinned
// (1-link when every vertex follows one bone, which is also how rigid meshes on bone nodes are
// written); no skin makes a static hierarchy of FVF children. docs/ogf-write.md "Without a template".
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/xray/xray_scene.h"
#include "ogf_bones.h"
#include "ogf_import_internal.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_import_bones.h"
#include "xray/scene/xray_import_internal.h"

namespace boneyard::xray::ogf_import {

namespace {

using import_detail::extras_name;
using import_detail::member;
using import_detail::number;

struct Group {  // the primitives of one child: one material, one kind
  MaterialNames material;
  Kind kind = Kind::skinned;
  Soup soup;
  std::string where;
};

class NewModel {
 public:
  NewModel(const scene::Scene& s, const OgfImportOptions& o, Diagnostics& w, OgfImportStats& st)
      : s_(s), o_(o), warnings_(w), st_(st), game_(o.game == Game::keep ? Game::cop : o.game) {}

  Result<std::vector<std::uint8_t>> run() {
    if (s_.meshes.empty()) return import_error("meshes", "the glTF has no meshes to import", ">= 1 mesh", "0");
    skeletal_ = !s_.skeleton.skin.empty();
    if (skeletal_) {
      if (auto e = make_bones()) return *e;
    }
    std::vector<std::string> names;
    for (const auto& b : bones_) names.push_back(b.name);
    nodes_ = map_nodes(s_.skeleton, names);
    if (skeletal_) nodes_.bone_of_node = bone_of_node_;  // the skin's joints exactly
    if (auto e = gather()) return *e;
    std::vector<std::uint8_t> kids;
    ogf_build::Box top;
    std::vector<ogf_build::ChildGeometry> built;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      ChildPlan plan = plan_for(game_);
      plan.is_static = groups_[g].kind == Kind::statics;
      auto child = make_child(std::move(groups_[g].soup), plan, groups_[g].material.texture, groups_[g].material.shader,
                              groups_[g].where, warnings_, st_);
      if (!child) return child.error();
      top.add(ogf_build::bounds(child->vertices));
      ogf_build::put_chunk(kids, std::uint32_t(g), ogf_build::child_payload(child.value()));
      built.push_back(std::move(child).value());
    }
    st_.added = st_.children = groups_.size();
    if (!skeletal_) return static_model(kids, top);
    fit_boxes(bones_, built);
    return skeletal_model(kids, top);
  }

 private:
  // Bones: the skin's joints in node order (our export writes them in 0xD order; Blender's skin
  // order is depth-first, so the skin's order is never used), parents the nearest bone above.
  std::optional<Finding> make_bones() {
    std::vector<std::uint32_t> joints = s_.skeleton.skin;
    std::sort(joints.begin(), joints.end());
    joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
    bone_of_node_.assign(s_.skeleton.joints.size(), -1);
    for (std::size_t b = 0; b < joints.size(); ++b) bone_of_node_[joints[b]] = int(b);
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t b = 0; b < joints.size(); ++b) {
      const scene::Joint& j = s_.skeleton.joints[joints[b]];
      const std::string where = "node " + std::to_string(joints[b]) + " (\"" + escape_controls(j.name) + "\")";
      if (b == kMaxBones)
        return import_error(where, "too many bones for the engine (a 64-bit visibility mask)", "<= 64 bones",
                            std::to_string(joints.size()) + " joints in the skin");
      const auto raw = raw_node_name(j);
      if (!raw) return import_error(where, "bone name has no cp1251 form", "Latin or Cyrillic characters", j.name);
      if (raw->empty()) return import_error(where, "bone name is empty", "a name", "\"\"");
      if (const std::string p = name_problem(*raw); !p.empty()) {
        // The source model's own bone name (boneyard's extras) may be longer than the stock engine reads.
        const auto* x = member(json_of(j.extras), "xray");
        if (!x || !(member(*x, "name") || member(*x, "name_hex")) || raw->find('\0') != std::string::npos)
          return import_error(where, "bone name " + p, "<= 255 bytes");
        warnings_.add(Severity::warning, 0, where,
                      ogf_build::beyond_stock_warning("bytes in the bone name", raw->size(), "X-Ray", ogf_build::kMaxNameBytes),
                      "<= 255 bytes", std::to_string(raw->size()) + " bytes");
      }
      if (auto [it, fresh] = seen.emplace(lower_ascii(*raw), b); !fresh)
        return import_error(where, "duplicate bone name (the engine compares lower-cased names)", "unique",
                            "same as bone " + std::to_string(it->second));
      ogf_build::BoneRecord r;
      r.name = *raw;
      bones_.push_back(std::move(r));
    }
    const auto world = scene::world_matrices(s_.skeleton);
    std::vector<int> parent(joints.size(), -1);
    for (std::size_t b = 0; b < joints.size(); ++b) {
      for (int n = s_.skeleton.joints[joints[b]].parent, steps = 0; n >= 0 && steps <= int(joints.size() + 1);
           n = s_.skeleton.joints[std::size_t(n)].parent, ++steps)
        if (bone_of_node_[std::size_t(n)] >= 0) {
          parent[b] = bone_of_node_[std::size_t(n)];
          break;
        }
      if (parent[b] >= 0) bones_[b].parent = bones_[std::size_t(parent[b])].name;
    }
    return bind_pose(joints, world, parent);
  }

  // The bind pose: boneyard's joint extras (the stored Euler angles, exact) where the joint still
  // sits there (frames turned by a DCC tool are fine, as in the .omf import), else the rest pose.
  std::optional<Finding> bind_pose(const std::vector<std::uint32_t>& joints, const std::vector<scene::Mat4>& world,
                                   const std::vector<int>& parent) {
    const std::size_t n = joints.size();
    std::vector<std::size_t> bone_of(s_.skeleton.joints.size(), import_detail::kNoBone);
    std::vector<Quat> rot(n);
    std::vector<Vec3> pos(n);
    std::vector<bool> known(n, false);
    for (std::size_t b = 0; b < n; ++b) {
      bone_of[joints[b]] = b;
      const scene::Joint& j = s_.skeleton.joints[joints[b]];
      const auto* x = member(json_of(j.extras), "xray");
      const auto r = x ? import_detail::vec3(*x, "bind_rotation") : std::nullopt;
      const auto p = x ? import_detail::vec3(*x, "bind_position") : std::nullopt;
      ogf_build::BoneRecord& rec = bones_[b];
      if (x) {
        if (auto m = extras_name(*x, "game_mtl"); m && name_problem(*m).empty()) rec.game_mtl = *m;
        rec.mass = number<float>(*x, "mass").value_or(rec.mass);
        rec.center_of_mass = import_detail::vec3(*x, "center_of_mass").value_or(rec.center_of_mass);
        rec.joint_type = number<std::uint32_t>(*x, "joint_type").value_or(rec.joint_type);
      }
      // The extras are relative to the bone's parent: usable when that is its node's parent.
      const int direct = s_.skeleton.joints[joints[b]].parent;
      const bool same_parent = parent[b] >= 0 ? direct == int(joints[std::size_t(parent[b])])
                                              : direct < 0 || bone_of_node_[std::size_t(direct)] < 0;
      if (r && p && same_parent) {
        rot[b] = bind_quaternion(*r), pos[b] = *p, known[b] = true;
        rec.bind_rotation = *r, rec.bind_position = *p;
        continue;
      }
      // Rest pose relative to the parent bone (nodes between them included), back in X-Ray space.
      const scene::Mat4 local = parent[b] >= 0
                                    ? scene::multiply(scene::inverse_affine(world[joints[std::size_t(parent[b])]]), world[joints[b]])
                                    : world[joints[b]];
      const Quat g = rotation_of(local);
      rec.bind_position = {float(local[12]), float(local[13]), float(-local[14])};
      rec.bind_rotation = xyz_rotation(Quat{g.x, g.y, -g.z, g.w});
    }
    std::vector<std::size_t> turned;
    auto turns = import_detail::joint_turns({s_.skeleton, bone_of, rot, pos, known}, turned);
    if (!turns) return turns.error();
    return std::nullopt;
  }

  // Every primitive into its child: primitives of one material and kind share a child (the SDK
  // splits a model per surface).
  std::optional<Finding> gather() {
    for (std::size_t m = 0; m < s_.meshes.size(); ++m) {
      const scene::Mesh& mesh = s_.meshes[m];
      for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        const std::string where = "mesh " + std::to_string(m) + " (\"" + escape_controls(mesh.name) + "\") primitive " + std::to_string(p);
        Kind kind = Kind::skinned;
        int bone = -1;
        const scene::Mat4* world = nullptr;
        if (!mesh.skinned) {
          const bool on_node = mesh.joint >= 0 && std::size_t(mesh.joint) < nodes_.world.size();
          bone = skeletal_ && on_node ? nodes_.bone_for(mesh.joint) : -1;
          kind = skeletal_ ? Kind::rigid : Kind::statics;
          world = on_node ? &nodes_.world[std::size_t(mesh.joint)] : nullptr;
          if (skeletal_ && bone < 0)
            return import_error(where, "mesh has no skin and hangs on no bone of the skeleton",
                                "a skinned mesh, or a mesh on a joint node", "none");
        }
        MaterialNames mat = material_names(s_, mesh.primitives[p].material);
        if (mat.error) {
          Finding f = *mat.error;
          f.path = where + " " + f.path;
          return f;
        }
        if (mat.shader_defaulted)
          warnings_.add(Severity::warning, 0, where, "material has no shader (extras xray.shader): models\\model used",
                        "extras xray.shader", "none");
        auto soup = to_soup(mesh.primitives[p], kind, world, nodes_.bone_of_node, bone, where);
        if (!soup) return soup.error();
        const Kind group_kind = kind == Kind::rigid ? Kind::skinned : kind;
        auto g = std::find_if(groups_.begin(), groups_.end(), [&](const Group& x) {
          return x.kind == group_kind && x.material.texture == mat.texture && x.material.shader == mat.shader;
        });
        if (g == groups_.end()) {
          if (mat.beyond_stock) warnings_.add(*mat.beyond_stock);
          groups_.push_back({mat, group_kind, {}, where});
          g = groups_.end() - 1;
        }
        append(g->soup, soup.value());
      }
    }
    return std::nullopt;
  }

  std::vector<std::uint8_t> description() const {
    auto name = utf8_to_cp1251(s_.skeleton.name);
    return ogf_build::description_payload(name && name_problem(*name).empty() ? *name : std::string("boneyard"), "boneyard");
  }

  Result<std::vector<std::uint8_t>> static_model(const std::vector<std::uint8_t>& kids, const ogf_build::Box& top) {
    // A hierarchy even for one child: the SDK writes a single part as MT_NORMAL, but that puts
    // the geometry at the top level, where no reader of 0x9 children would find it.
    std::vector<std::uint8_t> out;
    ogf_build::put_chunk(out, kOgfHeader, ogf_build::header_payload(ogf_build::kTypeHierarchy, 0, top));
    ogf_build::put_chunk(out, kOgfDesc, description());
    ogf_build::put_chunk(out, kOgfChildren, kids);
    return out;
  }

  Result<std::vector<std::uint8_t>> skeletal_model(const std::vector<std::uint8_t>& kids, const ogf_build::Box& top) {
    auto refs = motion_refs();
    if (!refs) return refs.error();
    auto user = user_data();
    if (!user) return user.error();
    std::vector<std::uint8_t> out;
    const auto embedded = refs->empty() ? embedded_motion_set() : std::nullopt;
    const bool animated = !refs->empty() || embedded;
    ogf_build::put_chunk(out, kOgfHeader,
                         ogf_build::header_payload(animated ? ogf_build::kTypeSkeletonAnim : ogf_build::kTypeSkeletonRigid, 0, top));
    ogf_build::put_chunk(out, kOgfDesc, description());
    ogf_build::put_chunk(out, kOgfChildren, kids);
    ogf_build::put_chunk(out, kOgfBoneNames, ogf_build::bone_names_payload(bones_));
    ogf_build::put_chunk(out, kOgfIkData, ogf_build::ik_data_payload(bones_));
    if (!user->empty()) {
      std::vector<std::uint8_t> p(user->begin(), user->end());
      p.push_back(0);
      ogf_build::put_chunk(out, kOgfUserData, p);
    }
    if (!refs->empty()) {  // SoC reads only 0x13; the CS/CoP SDK writes 0x18
      const std::uint32_t chunk = game_ == Game::soc ? kOgfMotionRefs : kOgfMotionRefs2;
      ogf_build::put_chunk(out, chunk, ogf_build::motion_refs_payload(*refs, chunk));
    } else if (embedded) {
      // The model's own motions (0xE, 0xF: an .omf's chunks), imported onto the bones just laid out.
      auto skeleton = read_ogf(FileData::from_vector(out));
      if (!skeleton) return skeleton.error();
      XrayImportOptions io;
      io.skeleton = &skeleton.value();
      io.motion_set = *embedded;
      auto motions = scene_to_omf_bytes(s_, io, warnings_);
      if (!motions) {
        Finding f = motions.error();
        f.path = "embedded motions " + f.path;
        return f;
      }
      out.insert(out.end(), motions->begin(), motions->end());
    }
    return out;
  }

  // The motion set boneyard's export made of the model's embedded motions (extras: source
  // "embedded"), when the glTF still has animations of it: a model made anew embeds them again.
  std::optional<std::size_t> embedded_motion_set() const {
    const auto* x = member(json_of(s_.extras), "xray");
    const auto* sets = x ? member(*x, "motion_sets") : nullptr;
    if (!sets || !sets->is_array()) return std::nullopt;
    for (std::size_t k = 0; k < sets->size(); ++k) {
      const auto* src = member((*sets)[k], "source");
      if (!src || !src->is_string() || src->get<std::string>() != "embedded") continue;
      for (const auto& a : s_.animations) {
        const auto* ax = member(json_of(a.extras), "xray");
        if (ax && number<std::size_t>(*ax, "motion_set") == k) return k;
      }
    }
    return std::nullopt;
  }

  // --motion-refs, else the refs the export recorded (scene extras: motion_refs, or the sources
  // of the motion sets it read; "embedded" is none).
  Result<std::vector<std::string>> motion_refs() const {
    std::vector<std::string> out;
    auto add = [&](const std::string& utf8) -> std::optional<Finding> {
      auto cp = utf8_to_cp1251(utf8);
      if (!cp) return import_error("motion refs", "motion ref has no cp1251 form", "Latin or Cyrillic characters", utf8);
      if (cp->empty() || std::find(out.begin(), out.end(), *cp) != out.end()) return std::nullopt;
      if (cp->find_first_of(std::string(",\0", 2)) != std::string::npos || cp->size() > 259)
        return import_error("motion refs", "motion ref the format cannot hold (comma, NUL or over 259 bytes)", "a path",
                            utf8);
      out.push_back(*cp);
      return std::nullopt;
    };
    // The refs of the model the glTF was exported from, as its extras recorded them: a count the
    // stock engine would not read but the source already had stays (with a warning).
    std::size_t source_refs = 0;
    const auto* x = member(json_of(s_.extras), "xray");
    if (const auto* refs = x ? member(*x, "motion_refs") : nullptr; refs && refs->is_array()) source_refs = refs->size();
    if (o_.game != Game::keep) source_refs = 0;  // a game the user chose holds its own limits
    if (o_.motion_refs) {
      for (const auto& r : *o_.motion_refs)
        if (auto e = add(r)) return *e;
    } else if (x) {
      if (const auto* refs = member(*x, "motion_refs"); refs && refs->is_array()) {
        for (const auto& r : *refs)
          if (r.is_string())
            if (auto e = add(r.get<std::string>())) return *e;
      } else if (const auto* sets = member(*x, "motion_sets"); sets && sets->is_array()) {
        for (const auto& set : *sets) {
          const auto* src = member(set, "source");
          if (!src || !src->is_string() || !member(set, "file")) continue;  // "embedded" has no file
          std::string ref = src->get<std::string>();
          if (const auto arrow = ref.find(" -> "); arrow != std::string::npos) ref.resize(arrow);
          if (auto e = add(ref)) return *e;
        }
      }
    }
    const std::size_t max_refs = game_ == Game::soc ? 3 : 48;
    switch (ogf_build::beyond_stock(max_refs, out.size(), source_refs)) {
      case ogf_build::Beyond::further:
        return import_error("motion refs", "too many motion refs for the game",
                            "<= " + std::to_string(max_refs) +
                                (source_refs > max_refs ? " (or the source model's " + std::to_string(source_refs) + ")" : ""),
                            std::to_string(out.size()));
      case ogf_build::Beyond::as_source:
        warnings_.add(Severity::warning, 0, "motion refs",
                      ogf_build::beyond_stock_warning("motion refs", out.size(), game_ == Game::soc ? "SoC" : "CS/CoP", max_refs),
                      "<= " + std::to_string(max_refs), std::to_string(out.size()));
        break;
      case ogf_build::Beyond::within:
        break;
    }
    return out;
  }

  Result<std::string> user_data() const {
    std::optional<std::string> text;
    if (o_.user_data) {
      text = utf8_to_cp1251(*o_.user_data);
      if (!text) return import_error("user data", "user data has no cp1251 form", "Latin or Cyrillic characters");
    } else if (const auto* x = member(json_of(s_.extras), "xray")) {
      text = extras_name(*x, "user_data");
    }
    if (text && text->find('\0') != std::string::npos)
      return import_error("user data", "user data contains a NUL byte (the chunk is one string)");
    return text.value_or("");
  }

  const scene::Scene& s_;
  const OgfImportOptions& o_;
  Diagnostics& warnings_;
  OgfImportStats& st_;
  Game game_;
  bool skeletal_ = false;
  std::vector<ogf_build::BoneRecord> bones_;
  std::vector<int> bone_of_node_;
  NodeBones nodes_;
  std::vector<Group> groups_;
};

}  // namespace

Result<std::vector<std::uint8_t>> import_new_model(const scene::Scene& s, const OgfImportOptions& o,
                                                   Diagnostics& warnings, OgfImportStats& stats) {
  return NewModel(s, o, warnings, stats).run();
}

}  // namespace boneyard::xray::ogf_import
