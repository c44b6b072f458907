// The bone table of the glTF -> .omf importer: which bones the motions have records for, in
// motion-bone-index order, from --template, --skeleton or our extras, and their bind pose.
#include <map>

#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"
#include "scene/extras_json.h"
#include "xray_import_bones.h"
#include "xray_import_internal.h"

namespace boneyard::xray::import_detail {


std::optional<std::vector<std::string>> names_by_index(const Params& p) {
  const std::size_t n = p.bone_count();
  std::vector<std::string> names(n);
  std::vector<bool> seen(n, false);
  std::size_t position = 0;
  for (const auto& part : p.parts)
    for (const auto& b : part.bones) {
      const std::size_t i = p.version == 2 ? position : b.index;
      ++position;
      if (i >= n || seen[i]) return std::nullopt;
      seen[i] = true;
      names[i] = b.name;
    }
  return names;
}

std::optional<Params> extras_params(const nlohmann::json& set) {
  Params p;
  p.version = number<std::uint16_t>(set, "params_version").value_or(4);
  const auto* parts = member(set, "parts");
  if (parts == nullptr || !parts->is_array() || parts->empty()) return std::nullopt;
  for (const auto& jp : *parts) {
    BonePart part;
    part.name = extras_name(jp, "name").value_or("default");
    const auto* bones = member(jp, "bones");
    if (bones == nullptr || !bones->is_array()) return std::nullopt;
    for (const auto& jb : *bones) {
      auto name = extras_name(jb, "name");
      auto index = number<std::uint32_t>(jb, "index");
      if (!name || !index) return std::nullopt;
      part.bones.push_back({*name, *index, 0});
    }
    p.parts.push_back(std::move(part));
  }
  return p;
}

bool same_names(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower_ascii(a[i]) != lower_ascii(b[i])) return false;
  return true;
}

// Rest pose per bone: the OGF's IK bind pose, else the one boneyard wrote in the joint's extras,
// else identity for a flat armature (an .omf exported without a model), else the glTF node's.
// Only the last is not known independently of the glTF (so joint frames cannot be checked).
namespace {

void add_bind_pose(const scene::Scene& s, const OgfFile* ogf, const std::optional<BoneLookup>& skeleton,
                   const MotionSkeleton* model, BoneTable& t) {
  std::map<std::string, std::size_t> model_bone;
  if (model)
    for (std::size_t i = 0; i < model->bones.size(); ++i) model_bone.emplace(lower_ascii(model->bones[i].name), i);
  std::map<std::string, std::size_t> node_by_name;
  for (std::size_t j = 0; j < s.skeleton.joints.size(); ++j) {
    auto cp = utf8_to_cp1251(s.skeleton.joints[j].name);
    if (cp) node_by_name.emplace(lower_ascii(*cp), j);
  }
  const auto* scene_x = member(json_of(s.extras), "xray");
  const auto* flat = scene_x ? member(*scene_x, "flat_armature") : nullptr;
  // Blender writes the true it read back as 1 (its custom properties have no booleans).
  const bool flat_armature = flat && ((flat->is_boolean() && flat->get<bool>()) || (flat->is_number() && flat->get<double>() != 0));
  for (const auto& n : t.names) {
    Quat q;
    Vec3 v;
    bool known = true;
    const int ob = skeleton ? skeleton->find(n) : -1;
    const auto it = node_by_name.find(lower_ascii(n));
    const auto* jx = it != node_by_name.end() ? member(json_of(s.skeleton.joints[it->second].extras), "xray") : nullptr;
    const auto extras_rot = jx ? vec3(*jx, "bind_rotation") : std::nullopt;
    const auto extras_pos = jx ? vec3(*jx, "bind_position") : std::nullopt;
    const auto mb = model ? model_bone.find(lower_ascii(n)) : model_bone.end();
    if (ob >= 0 && ogf->bones[ob].ik) {
      q = bind_quaternion(ogf->bones[ob].ik->bind_rotation);
      v = ogf->bones[ob].ik->bind_position;
    } else if (mb != model_bone.end() && model->rest_known) {
      q = bind_quaternion(model->bones[mb->second].rest_rotate);
      v = model->bones[mb->second].rest_offset;
    } else if (extras_rot && extras_pos) {
      q = bind_quaternion(*extras_rot);
      v = *extras_pos;
    } else if (flat_armature) {
      // identity
    } else if (it != node_by_name.end()) {
      q = from_gltf(s.skeleton.joints[it->second].rotation);
      v = from_gltf(s.skeleton.joints[it->second].translation);
      known = false;
    }
    t.bind_rotation.push_back(q);
    t.bind_translation.push_back(v);
    t.bind_known.push_back(known);
  }
}

}  // namespace

void keep_one_node_per_bone(const scene::Skeleton& skeleton, std::vector<std::size_t>& bone_of) {
  std::vector<bool> in_skin(bone_of.size(), false);
  for (const std::uint32_t j : skeleton.skin)
    if (j < in_skin.size()) in_skin[j] = true;
  const auto rank = [&](std::size_t node) {
    if (in_skin[node]) return 2;
    const auto* x = node < skeleton.joints.size() ? member(json_of(skeleton.joints[node].extras), "xray") : nullptr;
    return x && member(*x, "bind_position") ? 1 : 0;
  };
  std::map<std::size_t, std::size_t> best;  // bone -> its node
  for (std::size_t n = 0; n < bone_of.size(); ++n) {
    if (bone_of[n] == kNoBone) continue;
    auto [it, fresh] = best.emplace(bone_of[n], n);
    if (!fresh && rank(n) > rank(it->second)) it->second = n;
  }
  for (std::size_t n = 0; n < bone_of.size(); ++n)
    if (bone_of[n] != kNoBone && best[bone_of[n]] != n) bone_of[n] = kNoBone;
}

Result<BoneTable> bone_table(const scene::Scene& s, const XrayImportOptions& o, const nlohmann::json* extras_set) {
  BoneTable t;
  const OgfFile* ogf = o.skeleton;
  std::optional<Params> from_extras = extras_set ? extras_params(*extras_set) : std::nullopt;
  if (o.template_omf != nullptr) {
    t.params = o.template_omf->motions.params;
    if (t.params.version < 2 || t.params.parts_without_names)
      return import_error("template 0xF parts", "the template's bone parts carry no names", "params version 3 or 4",
                          "version " + std::to_string(t.params.version));
    auto names = names_by_index(t.params);
    if (!names) return import_error("template 0xF parts", "motion-bone indices are not a permutation");
    t.names = std::move(*names);
  } else if (ogf != nullptr) {
    const BoneLookup skeleton(ogf->bones);
    std::vector<std::string> ogf_names;
    for (const auto& b : ogf->bones) ogf_names.push_back(lower_ascii(b.name));  // the engine's form
    auto names = from_extras ? names_by_index(*from_extras) : std::nullopt;
    // The exported parts name the bones the motions were made for: they must be the model's
    // (any order: the engine maps by name), else the glTF is for another skeleton.
    if (names) {
      if (names->size() != ogf_names.size())
        return import_error("skeleton", "skeleton mismatch: the glTF's motions are for another skeleton",
                            std::to_string(ogf_names.size()) + " bones as in --skeleton",
                            std::to_string(names->size()) + " bones in the glTF extras");
      for (const auto& n : *names)
        if (skeleton.find(n) < 0)
          return import_error("skeleton", "skeleton mismatch: a bone of the glTF's motions is missing from --skeleton",
                              "bone " + printable(n), "none");
    }
    if (names) {
      t.params = *from_extras;
      t.names = std::move(*names);
    } else {
      t.params.version = from_extras ? from_extras->version : 4;
      t.params.parts.push_back({"default", {}, 0});
      for (std::uint32_t i = 0; i < ogf_names.size(); ++i) t.params.parts[0].bones.push_back({ogf_names[i], i, 0});
      t.names = ogf_names;
      t.default_part = true;
    }
  } else if (o.model != nullptr) {
    // A model read into a MotionSkeleton (an .object): its bones in its order, its parts when it
    // has them, else the exported parts when they name exactly its bones, else one default part.
    std::vector<std::string> model_names;
    for (const auto& b : o.model->bones) model_names.push_back(b.name);
    auto names = from_extras ? names_by_index(*from_extras) : std::nullopt;
    if (!o.model->parts.empty()) {
      t.params.version = from_extras ? from_extras->version : 4;
      t.params.parts = o.model->parts;
      t.names = model_names;
    } else if (names && names->size() == model_names.size() && same_names(*names, model_names)) {
      t.params = *from_extras;
      t.names = std::move(*names);
    } else {
      t.params.version = from_extras ? from_extras->version : 4;
      t.params.parts.push_back({"default", {}, 0});
      for (std::uint32_t i = 0; i < model_names.size(); ++i) t.params.parts[0].bones.push_back({model_names[i], i, 0});
      t.names = model_names;
      t.default_part = true;
    }
  } else if (from_extras) {
    auto names = names_by_index(*from_extras);
    if (!names) return import_error("scenes[0].extras.xray parts", "motion-bone indices are not a permutation");
    t.params = *from_extras;
    t.names = std::move(*names);
  } else {
    return import_error("skeleton", "no skeleton: the glTF carries no boneyard extras",
                        "--skeleton model.ogf or --template old.omf", "none");
  }
  if (t.params.version < 3) t.params.version = 4;  // v1/v2 parts cannot be written with names+indices
  if (t.names.empty()) return import_error("skeleton", "the skeleton has no bones", ">= 1 bone", "0");
  const std::optional<BoneLookup> skeleton = ogf != nullptr ? std::optional<BoneLookup>(ogf->bones) : std::nullopt;
  if (ogf != nullptr) {
    if (ogf->bones.size() != t.names.size())
      return import_error("skeleton", "skeleton mismatch: bone counts differ", std::to_string(t.names.size()) + " bones",
                          std::to_string(ogf->bones.size()) + " in the .ogf");
    for (const auto& n : t.names)
      if (skeleton->find(n) < 0)
        return import_error("skeleton", "skeleton mismatch: bone missing from the .ogf", "bone " + printable(n), "none");
  }
  add_bind_pose(s, ogf, skeleton, o.model, t);
  return t;
}

}  // namespace boneyard::xray::import_detail
