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
#include "xray_import_motion.h"
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
    if (auto e = motions_.prepare()) return *e;
    n_ = motions_.bones();
    if (tpl_)
      for (std::size_t i = 0; i < tpl_->motions.params.motions.size() && i < tpl_->motions.motions.size(); ++i)
        tpl_by_name_.emplace(tpl_->motions.params.motions[i].name, i);
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
  bool in_motion_set(std::size_t a) const { return motions_.in_motion_set(a); }

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
    SceneMotion motion;
    if (auto e = motions_.begin_motion(a, motion)) return e;
    const std::string& aw = motion.where;
    const nlohmann::json& x = *motion.extras;
    const std::string* name = &motion.name;
    const std::size_t ti = template_motion(*name);
    const MotionKeys* tmk = ti != kNone && tpl_->motions.motions[ti].readable &&
                                    tpl_->motions.motions[ti].bones.size() == n_ && tpl_->motions.motions[ti].frames > 0
                                ? &tpl_->motions.motions[ti]
                                : nullptr;
    if (auto e = motions_.motion_frames(tmk ? std::optional<std::uint32_t>(tmk->frames) : std::nullopt, motion)) return e;
    const bool held = motion.held;
    const std::uint64_t frames = motion.frames;
    const std::size_t sampled = motion.sampled;
    // Exported records are in their motion set's record order: usable when that is ours.
    const auto motion_set = number<std::size_t>(x, "motion_set");
    const bool hints_usable = motion_set && motions_.set_order_ok(*motion_set);
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
    if (defaults) default_motions_.push_back(s_.animations[a].name);
    keys_out_.push_back(std::move(mk));
    tpl_index_.push_back(ti);
    return std::nullopt;
  }

  // Record r of a motion: the template's rotation and translation where they still hold, else
  // quantised from the channels (under the exported layout hint when there is one).
  void build_record(std::size_t r, const MotionKeys* tmk, const RecordHint& exported, std::uint64_t frames,
                    std::size_t sampled, bool held, BoneKeys& b) {
    RecordSource src = motions_.source(r, tmk ? &tmk->bones[r] : nullptr, tmk ? tmk->frames : 0, sampled);
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
    motions_.warn_summaries();
    if (st_.template_encodings_changed > 0)
      warnings_.add(Severity::warning, 0, "0xE records",
                    "tracks changed encoding from the template's (edited, or no longer within half a step of its "
                    "constant, 8/16-bit size and init)",
                    "", std::to_string(st_.template_encodings_changed) + " of " + std::to_string(st_.records) + " record(s)");
    if (motions_.table().default_part)
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
    out.motions.params = motions_.table().params;
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
  SceneMotions motions_{s_, o_, warnings_};
  std::size_t n_ = 0;  // motion bones
  std::multimap<std::string, std::size_t> tpl_by_name_;
  std::map<std::string, std::size_t> used_names_;  // same-named motions take template matches in order
  OmfFile out_;
  std::vector<MotionKeys> keys_out_;
  std::vector<MotionParams> params_out_;
  std::vector<std::size_t> tpl_index_;  // per new motion: template motion or kNone
  std::vector<std::string> default_motions_;
};

}  // namespace

Result<OmfFile> scene_to_omf(const scene::Scene& s, const XrayImportOptions& o, Diagnostics& warnings, ImportStats* stats) {
  ImportStats local;
  ImportStats& st = stats ? *stats : local;
  st = {};
  return OmfImporter(s, o, warnings, st).run();
}

}  // namespace boneyard::xray
