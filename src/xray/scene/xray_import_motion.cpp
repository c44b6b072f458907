// A read glTF scene's animations per bone and frame in X-Ray space, for the importers of X-Ray
// motions (docs/xray-gltf-import.md section 2: skeleton, joints, joint frames, frame counts).
#include "xray_import_motion.h"

#include <algorithm>
#include <cmath>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "scene/extras_json.h"

namespace boneyard::xray::import_detail {

namespace {

std::optional<Finding> name_error(const std::string& where, const std::string& what, const std::string& name, OmfName kind) {
  const Status storable = check_omf_name(name, kind);
  if (storable) return std::nullopt;
  return import_error(where, what + " " + storable.error().message, storable.error().expected,
                      "\"" + printable(name) + "\"");
}

}  // namespace

std::optional<Finding> SceneMotions::prepare() {
  if (s_.animations.empty()) return import_error("animations", "the glTF has no animations", ">= 1 animation", "0");
  if (auto e = read_bones()) return e;
  map_joints();
  if (auto e = read_joint_turns()) return e;
  rot_ch_.resize(n_), tr_ch_.resize(n_);
  return std::nullopt;
}

// The bone table from the motion set the animations were exported from (the first animation's,
// else set 0), and which exported sets list their records in that table's order.
std::optional<Finding> SceneMotions::read_bones() {
  sets_ = member(json_of(s_.extras), "xray") ? member(json_of(s_.extras)["xray"], "motion_sets") : nullptr;
  std::size_t set_index = 0;
  if (const auto* x0 = member(json_of(s_.animations[0].extras), "xray"))
    set_index = number<std::size_t>(*x0, "motion_set").value_or(0);
  if (o_.motion_set) set_index = *o_.motion_set;
  const nlohmann::json* extras_set = sets_ && sets_->is_array() && set_index < sets_->size() ? &(*sets_)[set_index] : nullptr;
  auto table_r = bone_table(s_, o_, extras_set);
  if (!table_r) return table_r.error();
  table_ = std::move(table_r.value());
  for (std::size_t i = 0; i < table_.params.parts.size(); ++i) {
    const std::string where = "bone part " + std::to_string(i);
    if (auto e = name_error(where, "part name", table_.params.parts[i].name, OmfName::part)) return e;
    for (std::size_t b = 0; b < table_.params.parts[i].bones.size(); ++b)
      if (auto e = name_error(where + " bone " + std::to_string(b), "bone name", table_.params.parts[i].bones[b].name,
                              OmfName::bone))
        return e;
  }
  n_ = table_.names.size();
  // Exported records are in the extras set's record order; usable only if that is ours.
  set_order_ok_.assign(sets_ && sets_->is_array() ? sets_->size() : 0, false);
  for (std::size_t i = 0; i < set_order_ok_.size(); ++i)
    if (auto p = extras_params((*sets_)[i]))
      if (auto names = names_by_index(*p)) set_order_ok_[i] = same_names(*names, table_.names);
  return std::nullopt;
}

// glTF node -> motion-bone index, by name (exact first, then case-insensitive like the engine).
void SceneMotions::map_joints() {
  std::map<std::string, std::size_t> exact, folded;
  for (std::size_t i = 0; i < n_; ++i) {
    exact.emplace(table_.names[i], i);
    folded.emplace(lower_ascii(table_.names[i]), i);
  }
  bone_of_.assign(s_.skeleton.joints.size(), kNoBone);
  for (std::size_t j = 0; j < s_.skeleton.joints.size(); ++j) {
    const auto& jt = s_.skeleton.joints[j];
    auto cp = member(json_of(jt.extras), "xray") ? extras_name(json_of(jt.extras)["xray"], "name") : std::nullopt;
    if (!cp) cp = utf8_to_cp1251(jt.name);
    if (!cp) continue;
    if (auto it = exact.find(*cp); it != exact.end()) bone_of_[j] = it->second;
    else if (auto f = folded.find(lower_ascii(*cp)); f != folded.end()) bone_of_[j] = f->second;
  }
  keep_one_node_per_bone(s_.skeleton, bone_of_);
}

// Joint frames turned by the DCC tool (xray_import_frames.cpp): corrected, and named in one line.
std::optional<Finding> SceneMotions::read_joint_turns() {
  std::vector<std::size_t> corrected;
  auto turns = joint_turns({s_.skeleton, bone_of_, table_.bind_rotation, table_.bind_translation, table_.bind_known},
                           corrected);
  if (!turns) return turns.error();
  turns_ = std::move(turns.value());
  if (corrected.empty()) return std::nullopt;
  std::string names;
  for (std::size_t b : corrected) names += (names.empty() ? "" : ", ") + cp1251_to_utf8(table_.names[b]);
  warnings_.add(Severity::warning, 0, "skeleton",
                "joint frames are turned from the bind pose (as Blender's default bone_heuristic does); keys turned "
                "back into the engine's frames",
                "", std::to_string(corrected.size()) + " joint(s): " + names);
  return std::nullopt;
}

bool SceneMotions::in_motion_set(std::size_t a) const {
  if (!o_.motion_set) return true;
  const auto* x = member(json_of(s_.animations[a].extras), "xray");
  return x && number<std::size_t>(*x, "motion_set") == o_.motion_set;
}

std::optional<Finding> SceneMotions::begin_motion(std::size_t a, SceneMotion& out) {
  auto taken = scene::sampled_animation(s_, a, sampled_);
  if (!taken) return taken.error();
  anim_ = taken.value();
  const auto& anim = *anim_;
  out.where = "animation \"" + escape_controls(anim.name) + "\"";
  static const nlohmann::json kNull;
  out.extras = member(json_of(anim.extras), "xray") ? &json_of(anim.extras)["xray"] : &kNull;
  if (anim.timelines.size() != 1 || anim.timelines[0].times.empty())
    return import_error(out.where, "animation was not sampled (one timeline expected)");
  out.sampled = anim.timelines[0].times.size();
  auto name = extras_name(*out.extras, "name");
  if (!name) name = utf8_to_cp1251(anim.name);
  if (!name) return import_error(out.where, "motion name has no cp1251 encoding", "Latin or Cyrillic characters", anim.name);
  if (name->size() > kMaxNameBytes)
    return import_error(out.where, "motion name too long for the engine", "<= 127 bytes", std::to_string(name->size()));
  if (auto e = name_error(out.where, "motion name", *name, OmfName::motion)) return e;
  out.name = std::move(*name);
  return map_channels(anim, out.where, out.sampled);
}

// The motion's frame count: from the glTF duration (the template motion's count when they agree
// within half a frame), checked against the limits for one motion and for all so far. A motion
// whose every channel holds one value is read as one sample: it is "held", its records static
// and constant whatever the frame count, so nothing is allocated per frame for it. Files
// written before static motions spanned their length have no duration; their extras' frame
// count restores it (glTF holds the last key's value past the end, so that means the same).
std::optional<Finding> SceneMotions::motion_frames(std::optional<std::uint32_t> template_frames, SceneMotion& out) {
  const auto& anim = *anim_;
  const nlohmann::json& x = *out.extras;
  const std::size_t sampled = out.sampled;
  const double span = anim.duration * kSampleFps;  // in frames; bounded by the reader's limits
  std::uint64_t frames = sampled;
  if (sampled == 1 && span >= 0.5) frames = static_cast<std::uint64_t>(std::llround(span)) + 1;
  const auto* exported_frames = member(x, "frames");
  if (sampled == 1 && span < 0.5 && exported_frames && exported_frames->is_number_unsigned())
    frames = std::max<std::uint64_t>(1, exported_frames->get<std::uint64_t>());
  if (template_frames && std::fabs(span - double(*template_frames - 1)) <= 0.5) frames = *template_frames;
  out.held = sampled == 1 && frames > 1;
  out.frames = frames;
  if (frames > kMaxMotionFrames)
    return import_error(out.where, "motion too long to convert", "<= " + frames_text(kMaxMotionFrames),
                        std::to_string(frames) + " frames");
  total_frames_ += frames;
  if (total_frames_ > kMaxTotalFrames)
    return import_error(out.where, "motions too long in total to convert (the limit is for all motions of one conversion)",
                        "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(total_frames_) + " frames up to here");
  return std::nullopt;
}

// The channels of one animation per bone (rot_ch_, tr_ch_); scale channels and channels on
// nodes outside the skeleton are counted for the summary warnings.
std::optional<Finding> SceneMotions::map_channels(const scene::Animation& anim, const std::string& aw, std::size_t sampled) {
  std::fill(rot_ch_.begin(), rot_ch_.end(), nullptr);
  std::fill(tr_ch_.begin(), tr_ch_.end(), nullptr);
  std::size_t mapped = 0, first_unmapped = kNoBone;
  for (std::size_t c = 0; c < anim.channels.size(); ++c) {
    const auto& ch = anim.channels[c];
    const std::string node = ch.joint < s_.skeleton.joints.size() ? s_.skeleton.joints[ch.joint].name : "?";
    const char* path = ch.path == scene::Channel::Path::rotation ? "rotation"
                       : ch.path == scene::Channel::Path::translation ? "translation" : "scale";
    const std::string cw = aw + " channel " + std::to_string(c) + " (node \"" + node + "\" " + path + ")";
    if (ch.timeline != 0 || ch.values.size() != sampled * (ch.path == scene::Channel::Path::rotation ? 4 : 3))
      return import_error(cw, "channel was not sampled on the animation's timeline");
    if (ch.path == scene::Channel::Path::scale) {
      if (scale_count_++ == 0) scale_first_ = cw;
      continue;
    }
    const std::size_t bone = ch.joint < bone_of_.size() ? bone_of_[ch.joint] : kNoBone;
    if (bone == kNoBone) {
      if (first_unmapped == kNoBone) first_unmapped = c;
      if (outside_count_++ == 0) outside_first_ = cw;
      outside_nodes_[node] = 1;
      continue;
    }
    auto& slot = ch.path == scene::Channel::Path::rotation ? rot_ch_[bone] : tr_ch_[bone];
    if (slot) warnings_.add(Severity::warning, 0, cw, "second channel for the same bone and path; the later one is used");
    slot = &ch;
    ++mapped;
  }
  if (mapped == 0) {
    const std::size_t c = first_unmapped == kNoBone ? 0 : first_unmapped;
    const auto& ch = anim.channels[c];
    const std::string node = ch.joint < s_.skeleton.joints.size() ? s_.skeleton.joints[ch.joint].name : "?";
    return import_error(aw + " channel " + std::to_string(c) + " (node \"" + node + "\")",
                        "no channel of the animation targets a skeleton bone (joint names do not match)",
                        "node names such as \"" + table_.names[0] + "\"", "\"" + node + "\"");
  }
  return std::nullopt;
}

RecordSource SceneMotions::source(std::size_t r, const BoneKeys* fallback, std::size_t fallback_frames,
                                  std::size_t sampled) const {
  return RecordSource{rot_ch_[r], tr_ch_[r], fallback, fallback_frames, table_.bind_rotation[r], table_.bind_translation[r],
                      sampled, turns_[r].turned ? &turns_[r] : nullptr};
}

void SceneMotions::warn_summaries() {
  if (scale_count_ > 0)
    warnings_.add(Severity::warning, 0, scale_first_, "scale channels are ignored (X-Ray motions have no scale)", "",
                  std::to_string(scale_count_) + " scale channel(s)");
  if (outside_count_ > 0) {
    std::string nodes;
    for (const auto& [node, unused] : outside_nodes_) nodes += (nodes.empty() ? "" : ", ") + node;
    warnings_.add(Severity::warning, 0, outside_first_, "channels on nodes outside the skeleton are ignored",
                  "skeleton bones", std::to_string(outside_count_) + " channel(s) on " + nodes);
  }
}

}  // namespace boneyard::xray::import_detail
