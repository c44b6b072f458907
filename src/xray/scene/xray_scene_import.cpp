// Sampled glTF scene -> .omf. The inverse of xray_scene.cpp: glTF (x, y, -z) and quaternion
// (x, y, -z, w) map back to X-Ray space unchanged in form (mirroring Z is its own inverse).
// Quantisation follows the SDK (../shared/docs/xray-motions.md 1.2); where the original bytes are
// known (a template record, or the size/init the exporter put in extras) and the values still
// quantise under them, those are reused, so an unedited round trip reproduces the file.
#include "boneyard/xray/xray_scene.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <map>

#include "boneyard/core/limits.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/core/text.h"
#include "xray_import_bones.h"
#include "xray_import_hints.h"
#include "xray_import_internal.h"
#include "xray_scene_internal.h"

namespace boneyard::xray {

namespace {

constexpr std::size_t kNone = import_detail::kNoBone;

using namespace import_detail;


// 0xF entry: the template's by name, then whatever our extras say; defaults otherwise.
MotionParams motion_params(const std::string& name, const nlohmann::json& x, const MotionParams* from_template,
                           std::size_t ordinal, bool& defaults_used) {
  MotionParams m = from_template ? *from_template : MotionParams{};
  if (!from_template) m.motion_id = static_cast<std::uint16_t>(ordinal);
  m.name = name;
  defaults_used = from_template == nullptr && !x.is_object();
  if (!x.is_object()) return m;
  m.flags = number<std::uint32_t>(x, "flags").value_or(m.flags);
  m.bone_or_part = number<std::uint16_t>(x, "bone_or_part").value_or(m.bone_or_part);
  m.motion_id = number<std::uint16_t>(x, "motion_id").value_or(m.motion_id);
  m.speed = number<float>(x, "speed").value_or(m.speed);
  m.power = number<float>(x, "power").value_or(m.power);
  m.accrue = number<float>(x, "accrue").value_or(m.accrue);
  m.falloff = number<float>(x, "falloff").value_or(m.falloff);
  if (const auto* marks = member(x, "marks"); marks && marks->is_array()) {
    m.marks.clear();
    for (const auto& jm : *marks) {
      MotionMark mk;
      mk.name = extras_name(jm, "name").value_or("");
      if (const auto* iv = member(jm, "intervals"); iv && iv->is_array())
        for (const auto& p : *iv)
          if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
            mk.intervals.push_back({p[0].get<float>(), p[1].get<float>()});
      m.marks.push_back(std::move(mk));
    }
  }
  return m;
}

// An error naming `where` when `name` cannot be stored as this kind of .omf name: the importer
// never writes a file that boneyard (or the engine) would then misread.
std::optional<Finding> name_error(const std::string& where, const std::string& what, const std::string& name,
                                  OmfName kind) {
  const Status storable = check_omf_name(name, kind);
  if (storable) return std::nullopt;
  return import_error(where, what + " " + storable.error().message, storable.error().expected,
                      "\"" + printable(name) + "\"");
}

// Part and bone names, wherever they came from (extras, template, skeleton).
std::optional<Finding> check_part_names(const Params& p) {
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    const std::string where = "bone part " + std::to_string(i);
    if (auto e = name_error(where, "part name", p.parts[i].name, OmfName::part)) return e;
    for (std::size_t b = 0; b < p.parts[i].bones.size(); ++b)
      if (auto e = name_error(where + " bone " + std::to_string(b), "bone name", p.parts[i].bones[b].name, OmfName::bone))
        return e;
  }
  return std::nullopt;
}

// Mark names of one motion; `x` is the animation's extras (a mark name there that has no cp1251
// encoding would otherwise become an empty name).
std::optional<Finding> check_mark_names(const MotionParams& m, const nlohmann::json& x, const std::string& aw) {
  const auto* marks = member(x, "marks");
  for (std::size_t i = 0; i < m.marks.size(); ++i) {
    const std::string where = aw + " mark " + std::to_string(i);
    if (marks && marks->is_array() && i < marks->size()) {
      const auto* utf8 = member((*marks)[i], "name");
      if (!extras_name((*marks)[i], "name") && utf8 && utf8->is_string())
        return import_error(where, "mark name has no cp1251 encoding", "Latin or Cyrillic characters",
                            utf8->get<std::string>());
    }
    if (auto e = name_error(where, "mark name", m.marks[i].name, OmfName::mark)) return e;
  }
  return std::nullopt;
}

// A template record as the encoding to keep: its flags, size and init.
RecordHint template_hint(const BoneKeys& k) {
  RecordHint h;
  h.present = true;
  h.flags = k.flags;
  h.rotation_crc = k.rotation_crc;
  h.translation_crc = k.translation_crc;
  h.size = k.translation_size;
  h.init = k.translation_init;
  return h;
}

// Constant or keyed rotation, constant, 8- or 16-bit translation, and its size and init.
bool same_encoding(const BoneKeys& a, const BoneKeys& b) {
  constexpr std::uint8_t kEncoding = kFlagRKeysAbsent | kFlagTKeysPresent | kFlagTKeys16;
  if ((a.flags & kEncoding) != (b.flags & kEncoding) || !(a.translation_init == b.translation_init)) return false;
  return !a.translation_keyed() || a.translation_size == b.translation_size;
}

// The hint of a held motion's record: its translation is constant, whatever the extras claim.
RecordHint without_keys(RecordHint hint) {
  hint.flags = static_cast<std::uint8_t>(hint.flags & ~kFlagTKeysPresent);
  return hint;
}

// The steps of scene_to_omf over one scene; the members are what the steps share. Each step that
// can fail returns the error, the first of which ends the import.
class OmfImporter {
 public:
  OmfImporter(const scene::Scene& s, const XrayImportOptions& o, Diagnostics& warnings, ImportStats& st)
      : s_(s), o_(o), warnings_(warnings), st_(st), tpl_(o.template_omf) {}

  Result<OmfFile> run() {
    if (s_.animations.empty()) return import_error("animations", "the glTF has no animations", ">= 1 animation", "0");
    if (auto e = read_bones()) return *e;
    map_joints();
    if (auto e = read_joint_turns()) return *e;
    if (tpl_)
      for (std::size_t i = 0; i < tpl_->motions.params.motions.size() && i < tpl_->motions.motions.size(); ++i)
        tpl_by_name_.emplace(tpl_->motions.params.motions[i].name, i);
    rot_ch_.resize(n_), tr_ch_.resize(n_);
    for (std::size_t a = 0; a < s_.animations.size(); ++a)
      if (in_motion_set(a))
        if (auto e = import_motion(a)) return *e;
    st_.motions = keys_out_.size();
    warn_summaries();
    OmfFile out = assemble();
    drop_marks_the_version_cannot_hold(out);
    return out;
  }

 private:
  // The bone table from the motion set the animations were exported from (the first animation's,
  // else set 0), and which exported sets list their records in that table's order.
  std::optional<Finding> read_bones() {
    sets_ = member(json_of(s_.extras), "xray") ? member(json_of(s_.extras)["xray"], "motion_sets") : nullptr;
    std::size_t set_index = 0;
    if (const auto* x0 = member(json_of(s_.animations[0].extras), "xray")) set_index = number<std::size_t>(*x0, "motion_set").value_or(0);
    if (o_.motion_set) set_index = *o_.motion_set;
    const nlohmann::json* extras_set =
        sets_ && sets_->is_array() && set_index < sets_->size() ? &(*sets_)[set_index] : nullptr;
    auto table_r = bone_table(s_, o_, extras_set);
    if (!table_r) return table_r.error();
    table_ = std::move(table_r.value());
    if (auto e = check_part_names(table_.params)) return *e;
    n_ = table_.names.size();
    // Exported records are in the extras set's record order; usable only if that is ours.
    set_order_ok_.assign(sets_ && sets_->is_array() ? sets_->size() : 0, false);
    for (std::size_t i = 0; i < set_order_ok_.size(); ++i)
      if (auto p = extras_params((*sets_)[i]))
        if (auto names = names_by_index(*p)) set_order_ok_[i] = same_names(*names, table_.names);
    return std::nullopt;
  }

  bool in_motion_set(std::size_t a) const {
    if (!o_.motion_set) return true;
    const auto* x = member(json_of(s_.animations[a].extras), "xray");
    return x && number<std::size_t>(*x, "motion_set") == o_.motion_set;
  }

  // glTF node -> motion-bone index, by name (exact first, then case-insensitive like the engine).
  void map_joints() {
    std::map<std::string, std::size_t> exact, folded;
    for (std::size_t i = 0; i < n_; ++i) {
      exact.emplace(table_.names[i], i);
      folded.emplace(lower_ascii(table_.names[i]), i);
    }
    bone_of_.assign(s_.skeleton.joints.size(), kNone);
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
  std::optional<Finding> read_joint_turns() {
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

  // The motion's frame count: from the glTF duration (the template motion's count when they agree
  // within half a frame), checked against the limits for one motion and for all so far. A motion
  // whose every channel holds one value is read as one sample: it is "held", its records static
  // and constant whatever the frame count, so nothing below is allocated per frame for it. Files
  // written before static motions spanned their length have no duration; their extras' frame
  // count restores it (glTF holds the last key's value past the end, so that means the same).
  std::optional<Finding> motion_frames(const scene::Animation& anim, const nlohmann::json& x, const MotionKeys* tmk,
                                       const std::string& aw, bool& held, std::uint64_t& frames) {
    const std::size_t sampled = anim.timelines[0].times.size();
    const double span = anim.duration * kSampleFps;  // in frames; bounded by the reader's limits
    frames = sampled;
    if (sampled == 1 && span >= 0.5) frames = static_cast<std::uint64_t>(std::llround(span)) + 1;
    const auto* exported_frames = member(x, "frames");
    if (sampled == 1 && span < 0.5 && exported_frames && exported_frames->is_number_unsigned())
      frames = std::max<std::uint64_t>(1, exported_frames->get<std::uint64_t>());
    if (tmk && std::fabs(span - double(tmk->frames - 1)) <= 0.5) frames = tmk->frames;
    held = sampled == 1 && frames > 1;
    if (frames > kMaxMotionFrames)
      return import_error(aw, "motion too long to convert", "<= " + frames_text(kMaxMotionFrames),
                          std::to_string(frames) + " frames");
    total_frames_ += frames;
    if (total_frames_ > kMaxTotalFrames)
      return import_error(aw, "motions too long in total to convert (the limit is for all motions of one conversion)",
                          "<= " + frames_text(kMaxTotalFrames) + " in all",
                          std::to_string(total_frames_) + " frames up to here");
    return std::nullopt;
  }

  // The channels of one animation per bone (rot_ch_, tr_ch_); scale channels and channels on
  // nodes outside the skeleton are counted for the summary warnings.
  std::optional<Finding> map_channels(const scene::Animation& anim, const std::string& aw, std::size_t sampled) {
    std::fill(rot_ch_.begin(), rot_ch_.end(), nullptr);
    std::fill(tr_ch_.begin(), tr_ch_.end(), nullptr);
    std::size_t mapped = 0, first_unmapped = kNone;
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
      const std::size_t bone = ch.joint < bone_of_.size() ? bone_of_[ch.joint] : kNone;
      if (bone == kNone) {
        if (first_unmapped == kNone) first_unmapped = c;
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
      const std::size_t c = first_unmapped == kNone ? 0 : first_unmapped;
      const auto& ch = anim.channels[c];
      const std::string node = ch.joint < s_.skeleton.joints.size() ? s_.skeleton.joints[ch.joint].name : "?";
      return import_error(aw + " channel " + std::to_string(c) + " (node \"" + node + "\")",
                          "no channel of the animation targets a skeleton bone (joint names do not match)",
                          "node names such as \"" + table_.names[0] + "\"", "\"" + node + "\"");
    }
    return std::nullopt;
  }

  // The template's motion of the same name (the k-th of several same-named ones for the k-th).
  std::size_t template_motion(const std::string& name) {
    std::size_t ti = kNone;
    if (tpl_) {
      const std::size_t nth = used_names_[name]++;
      auto range = tpl_by_name_.equal_range(name);
      std::size_t k = 0;
      for (auto it = range.first; it != range.second; ++it, ++k)
        if (k == nth) ti = it->second;
    }
    return ti;
  }

  std::optional<Finding> import_motion(std::size_t a) {
    // A deferred read's animation is sampled here and its samples dropped after it (one at a time).
    scene::Animation storage;
    auto taken = scene::sampled_animation(s_, a, storage);
    if (!taken) return taken.error();
    const auto& anim = *taken.value();
    const std::string aw = "animation \"" + escape_controls(anim.name) + "\"";
    static const nlohmann::json kNull;
    const nlohmann::json& x = member(json_of(anim.extras), "xray") ? json_of(anim.extras)["xray"] : kNull;
    if (anim.timelines.size() != 1 || anim.timelines[0].times.empty())
      return import_error(aw, "animation was not sampled (one timeline expected)");
    const std::size_t sampled = anim.timelines[0].times.size();
    auto name = extras_name(x, "name");
    if (!name) name = utf8_to_cp1251(anim.name);
    if (!name) return import_error(aw, "motion name has no cp1251 encoding", "Latin or Cyrillic characters", anim.name);
    if (name->size() > kMaxNameBytes)
      return import_error(aw, "motion name too long for the engine", "<= 127 bytes", std::to_string(name->size()));
    if (auto e = name_error(aw, "motion name", *name, OmfName::motion)) return e;
    if (auto e = map_channels(anim, aw, sampled)) return e;
    const std::size_t ti = template_motion(*name);
    const MotionKeys* tmk = ti != kNone && tpl_->motions.motions[ti].readable &&
                                    tpl_->motions.motions[ti].bones.size() == n_ && tpl_->motions.motions[ti].frames > 0
                                ? &tpl_->motions.motions[ti]
                                : nullptr;
    bool held = false;
    std::uint64_t frames = 0;
    if (auto e = motion_frames(anim, x, tmk, aw, held, frames)) return e;
    // Exported records are in their motion set's record order: usable when that is ours.
    const auto motion_set = number<std::size_t>(x, "motion_set");
    const bool hints_usable = motion_set && *motion_set < set_order_ok_.size() && set_order_ok_[*motion_set];
    const std::vector<RecordHint> hints = record_hints(hints_usable ? x : nlohmann::json(), n_);

    MotionKeys mk;
    mk.name = extras_name(x, "keys_name").value_or(tmk ? tmk->name : *name);
    if (auto e = name_error(aw, "keys name", mk.name, OmfName::motion)) return e;
    mk.frames = static_cast<std::uint32_t>(frames);
    if (tmk && tmk->frames == frames) mk.tail = tmk->tail;
    mk.bones.resize(n_);
    for (std::size_t r = 0; r < n_; ++r) build_record(r, tmk, hints[r], frames, sampled, held, mk.bones[r]);
    bool defaults = false;
    params_out_.push_back(motion_params(*name, x, ti != kNone ? &tpl_->motions.params.motions[ti] : nullptr,
                                        keys_out_.size(), defaults));
    if (auto e = check_mark_names(params_out_.back(), x, aw)) return e;
    if (defaults) default_motions_.push_back(anim.name);
    keys_out_.push_back(std::move(mk));
    tpl_index_.push_back(ti);
    return std::nullopt;
  }

  // Record r of a motion: the template's rotation and translation where they still hold, else
  // quantised from the channels (under the exported layout hint when there is one).
  void build_record(std::size_t r, const MotionKeys* tmk, const RecordHint& exported, std::uint64_t frames,
                    std::size_t sampled, bool held, BoneKeys& b) {
    RecordSource src{rot_ch_[r], tr_ch_[r], tmk ? &tmk->bones[r] : nullptr, tmk ? tmk->frames : 0,
                     table_.bind_rotation[r], table_.bind_translation[r], sampled,
                     turns_[r].turned ? &turns_[r] : nullptr};
    const BoneKeys* tk = tmk && tmk->frames == frames ? &tmk->bones[r] : nullptr;
    const bool reuse_rot = tk && rotation_matches(src, *tk, frames);
    const bool reuse_tr = tk && translation_matches(src, *tk, frames);
    ++st_.records;
    if (reuse_rot && reuse_tr) {
      b = *tk;  // verbatim: flags, CRCs, keys, size and init
      ++st_.template_records;
      return;
    }
    // The encoding to keep: the template record's (any frame count), else the exported one's.
    const BoneKeys* tkr = tmk ? &tmk->bones[r] : nullptr;
    const RecordHint hint = tkr ? template_hint(*tkr) : exported;
    if (reuse_rot) {
      b.flags |= static_cast<std::uint8_t>(tk->flags & kFlagRKeysAbsent);
      b.rotation_keys = tk->rotation_keys;
      b.rotation_crc = tk->rotation_crc;
    } else {
      // A held motion's one sample becomes a static key (a "keyed" hint cannot hold for it).
      quantise_rotation(src, held ? 1 : frames, held || !hint.present || (hint.flags & kFlagRKeysAbsent), out_, b);
      if (!tkr && !held) restore_rotation(src, frames, exported, out_, b);
    }
    if (reuse_tr) {
      b.flags |= static_cast<std::uint8_t>(tk->flags & (kFlagTKeysPresent | kFlagTKeys16));
      b.translation_keys = tk->translation_keys;
      b.translation_crc = tk->translation_crc;
      b.translation_size = tk->translation_size;
      b.translation_init = tk->translation_init;
    } else {
      if (quantise_translation(src, held ? 1 : frames, held ? without_keys(hint) : hint, o_.hq, out_, b))
        ++(tkr ? st_.template_layouts : st_.extras_layouts);
      if (!tkr && !held && !o_.hq) restore_translation(src, frames, exported, out_, b);
    }
    // Flag bits the engine does not read, as stored.
    if (hint.present) b.flags = static_cast<std::uint8_t>(b.flags | (hint.flags & ~kRecordEncodingFlags));
    if (tkr && !same_encoding(*tkr, b)) ++st_.template_encodings_changed;
    if (exported.present && exported.legacy) {
      ++st_.crc_checked;
      const bool rot_same = b.rotation_static() ? true : exported.rotation_crc == b.rotation_crc;
      const bool tr_same = b.translation_keyed() ? exported.translation_crc == b.translation_crc : true;
      if (rot_same && tr_same && exported.flags == b.flags) ++st_.crc_matches;
    }
  }

  // Ignored channels are summarised once per file (a glTF for another rig would otherwise print
  // thousands of lines): how many, on which nodes, and the first one with its full path.
  void warn_summaries() {
    if (scale_count_ > 0)
      warnings_.add(Severity::warning, 0, scale_first_, "scale channels are ignored (X-Ray motions have no scale)", "",
                    std::to_string(scale_count_) + " scale channel(s)");
    if (outside_count_ > 0) {
      std::string nodes;
      for (const auto& [node, unused] : outside_nodes_) nodes += (nodes.empty() ? "" : ", ") + node;
      warnings_.add(Severity::warning, 0, outside_first_, "channels on nodes outside the skeleton are ignored",
                    "skeleton bones", std::to_string(outside_count_) + " channel(s) on " + nodes);
    }
    if (st_.template_encodings_changed > 0)
      warnings_.add(Severity::warning, 0, "0xE records",
                    "tracks changed encoding from the template's (edited, or no longer within half a step of its "
                    "constant, 8/16-bit size and init)",
                    "", std::to_string(st_.template_encodings_changed) + " of " + std::to_string(st_.records) + " record(s)");
    if (table_.default_part)
      warnings_.add(Severity::warning, 0, "0xF parts", "no bone parts in the glTF or a template: one part \"default\" with all bones",
                    "", std::to_string(n_) + " bones");
    if (!default_motions_.empty()) {
      std::string list;
      for (const auto& m : default_motions_) list += (list.empty() ? "" : ", ") + m;
      warnings_.add(Severity::warning, 0, "0xF motions",
                    "no params in the glTF or a template: defaults used (speed 1, power 1, accrue 2, falloff 2, flags 0, all parts)",
                    "", std::to_string(default_motions_.size()) + " motion(s): " + list);
    }
  }

  // Params versions below 4 store no marks (the writer leaves them out): marks from the extras
  // are dropped with a warning naming the motions, as `omf retarget` does.
  void drop_marks_the_version_cannot_hold(OmfFile& out) {
    auto& p = out.motions.params;
    if (p.version >= 4) return;
    std::string names;
    std::size_t count = 0;
    for (auto& m : p.motions)
      if (!m.marks.empty()) {
        if (count++ < 8) names += (names.empty() ? "" : ", ") + cp1251_to_utf8(m.name);
        m.marks.clear();
      }
    if (count > 0)
      warnings_.add(Severity::warning, 0, "0xF marks",
                    "params version " + std::to_string(p.version) + " stores no marks: left out", "params version 4",
                    std::to_string(count) + " motion(s) with marks: " + names);
  }

  // Whether the template holds exactly these motions, each matched once.
  bool template_holds_same_set() const {
    bool same_set = tpl_ != nullptr && tpl_->motions.motions.size() == tpl_->motions.params.motions.size() &&
                    tpl_->motions.params.motions.size() == keys_out_.size();
    if (same_set) {
      std::vector<bool> hit(keys_out_.size(), false);
      for (std::size_t ti : tpl_index_) {
        if (ti == kNone || hit[ti]) { same_set = false; break; }
        hit[ti] = true;
      }
    }
    return same_set;
  }

  // The template's container when it holds exactly these motions: its layout, unknown chunks
  // and motion order survive, and unedited motions keep their bytes. Else a new container.
  OmfFile assemble() {
    OmfFile& out = out_;
    if (template_holds_same_set()) {
      auto own = out.owned;  // keys quantised so far live here
      out = *tpl_;
      out.keep_alive.push_back(tpl_->owned);
      out.keep_alive.push_back(tpl_->source);
      out.owned = own;
      for (std::size_t m = 0; m < keys_out_.size(); ++m) {
        MotionKeys& slot = out.motions.motions[tpl_index_[m]];
        keys_out_[m].raw_id = slot.raw_id;
        keys_out_[m].offset = slot.offset;
        slot = std::move(keys_out_[m]);
        out.motions.params.motions[tpl_index_[m]] = std::move(params_out_[m]);
      }
      st_.template_container = true;
      return std::move(out);
    }
    out.chunks = {{TopChunk::Kind::motions, kChunkMotions, 0, {}}, {TopChunk::Kind::params, kChunkParams, 0, {}}};
    if (tpl_) {
      out.keep_alive.push_back(tpl_->owned);
      out.keep_alive.push_back(tpl_->source);
    }
    out.motions.params = table_.params;
    out.motions.params.motions = std::move(params_out_);
    out.motions.params.tail = {};
    out.motions.params.raw_id = kChunkParams;
    out.motions.motions = std::move(keys_out_);
    EditReport report;
    rebuild_motion_layout(out, report);
    return std::move(out);
  }

  const scene::Scene& s_;
  const XrayImportOptions& o_;
  Diagnostics& warnings_;
  ImportStats& st_;
  const OmfFile* tpl_;
  const nlohmann::json* sets_ = nullptr;  // the exported motion sets in our scene extras
  BoneTable table_;
  std::size_t n_ = 0;  // motion bones
  std::vector<bool> set_order_ok_;
  std::vector<std::size_t> bone_of_;  // glTF node -> motion bone, or kNone
  std::vector<JointTurn> turns_;      // per motion bone
  std::multimap<std::string, std::size_t> tpl_by_name_;
  std::map<std::string, std::size_t> used_names_;  // same-named motions take template matches in order
  OmfFile out_;
  std::vector<MotionKeys> keys_out_;
  std::vector<MotionParams> params_out_;
  std::vector<std::size_t> tpl_index_;  // per new motion: template motion or kNone
  std::vector<std::string> default_motions_;
  std::vector<const scene::Channel*> rot_ch_, tr_ch_;  // the animation's channels per motion bone
  std::size_t outside_count_ = 0, scale_count_ = 0;
  std::string outside_first_, scale_first_;
  std::map<std::string, int> outside_nodes_;
  std::uint64_t total_frames_ = 0;
};

}  // namespace

Result<OmfFile> scene_to_omf(const scene::Scene& s, const XrayImportOptions& o, Diagnostics& warnings, ImportStats* stats) {
  ImportStats local;
  ImportStats& st = stats ? *stats : local;
  st = {};
  return OmfImporter(s, o, warnings, st).run();
}

}  // namespace boneyard::xray
