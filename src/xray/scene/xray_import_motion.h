// Internal to the glTF importers of X-Ray motions (.omf: xray_scene_import.cpp; the SDK's .skls:
// xray/skl): a read glTF scene's animations as per-bone, per-frame values in X-Ray space. The bone
// table, the joints matched to bones by name, the joint frames a DCC tool turned, each
// animation's frame count and channels; the formats then store the values their way.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/xray_scene.h"
#include "xray_import_bones.h"
#include "xray_import_internal.h"

namespace boneyard::xray::import_detail {

// One animation ready to be sampled bone by bone.
struct SceneMotion {
  std::string name;                   // cp1251: the extras' name, else the animation's
  std::string where;                  // "animation \"walk\"", for findings
  const nlohmann::json* extras;       // the animation's extras.xray (null-valued when absent)
  std::uint64_t frames = 0;           // the motion's frame count
  std::size_t sampled = 0;            // samples per channel (1 for a held motion)
  bool held = false;                  // every channel holds one value over the motion's frames
};

class SceneMotions {
 public:
  SceneMotions(const scene::Scene& s, const XrayImportOptions& o, Diagnostics& warnings)
      : s_(s), o_(o), warnings_(warnings) {}

  // The bone table (from --template, --skeleton or the extras), joints matched to its bones, and
  // the joint frames a DCC tool turned (named in one warning). Error: no skeleton source, a
  // skeleton mismatch, bone or part names the .omf cannot store.
  std::optional<Finding> prepare();
  const BoneTable& table() const { return table_; }
  std::size_t bones() const { return n_; }
  // Our exporter's motion sets (scene extras), and whether set `s` lists its records in the
  // bone table's order (its per-record extras then apply).
  const nlohmann::json* motion_sets() const { return sets_; }
  bool set_order_ok(std::size_t s) const { return s < set_order_ok_.size() && set_order_ok_[s]; }

  // Whether animation `a` is one of XrayImportOptions::motion_set's (every one without it).
  bool in_motion_set(std::size_t a) const;
  // Animation `a`: its name and channels per bone. Error: not sampled, a name without a cp1251
  // form or too long for the .omf, no channel on a skeleton bone. A deferred read's animation is
  // sampled here and kept until the next call (one animation's samples at a time): `out` and
  // source() point into it.
  std::optional<Finding> begin_motion(std::size_t a, SceneMotion& out);
  // The frame count of the animation begin_motion took (`template_frames`: the template motion's count, used when it agrees with the
  // glTF duration within half a frame), checked against the limits for one motion and for all so
  // far.
  std::optional<Finding> motion_frames(std::optional<std::uint32_t> template_frames, SceneMotion& out);
  // Bone r's values in the last motion: its channels, else `fallback` (a template record), else
  // the bind pose.
  RecordSource source(std::size_t r, const BoneKeys* fallback, std::size_t fallback_frames, std::size_t sampled) const;

  // The summaries of what was ignored over all motions (scale channels, channels on other nodes,
  // the default part): one warning each.
  void warn_summaries();

 private:
  std::optional<Finding> read_bones();
  void map_joints();
  std::optional<Finding> read_joint_turns();
  std::optional<Finding> map_channels(const scene::Animation& anim, const std::string& aw, std::size_t sampled);

  const scene::Scene& s_;
  const XrayImportOptions& o_;
  Diagnostics& warnings_;
  const nlohmann::json* sets_ = nullptr;
  BoneTable table_;
  std::size_t n_ = 0;
  std::vector<bool> set_order_ok_;
  std::vector<std::size_t> bone_of_;  // glTF node -> motion bone, or kNoBone
  std::vector<JointTurn> turns_;      // per motion bone
  scene::Animation sampled_;                 // the current animation's samples, when the read deferred them
  const scene::Animation* anim_ = nullptr;  // the current animation (sampled_ or the scene's)
  std::vector<const scene::Channel*> rot_ch_, tr_ch_;  // the last motion's channels per bone
  std::size_t outside_count_ = 0, scale_count_ = 0;
  std::string outside_first_, scale_first_;
  std::map<std::string, int> outside_nodes_;
  std::uint64_t total_frames_ = 0;
};

}  // namespace boneyard::xray::import_detail
