// Motion-level edits: select, delete, extract, rename, set params and marks, merge.
// Repair and retarget live in omf_repair.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/core/text.h"

namespace boneyard::xray {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

Finding edit_error(std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, {}, std::move(message), std::move(expected), std::move(found)};
}

std::string fmt(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string show(const std::string& raw) { return "\"" + printable(raw) + "\""; }

Result<std::string> to_cp1251_name(const std::string& utf8, const char* what) {
  auto cp = utf8_to_cp1251(utf8);
  if (!cp) return edit_error(std::string(what) + " cannot be written in cp1251", "Latin or Cyrillic text", utf8);
  if (cp->empty()) return edit_error(std::string(what) + " is empty", "a name", "\"\"");
  // The engine reads names up to a NUL, and the tools' text lists one per line.
  if (cp->find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos)
    return edit_error(std::string(what) + " holds a NUL, CR or LF, which the engine or the tools cannot keep",
                      "printable text", show(*cp));
  if (cp->size() > kMaxNameBytes)
    return edit_error(std::string(what) + " too long for the engine", "at most 127 bytes", std::to_string(cp->size()));
  return *cp;
}

// Structural edits need both chunks and every motion parsed: otherwise indices cannot be trusted.
std::optional<Finding> require_editable(const OmfFile& f) {
  const MotionSet& s = f.motions;
  if (!s.has_motions_chunk) return edit_error("file has no chunk 0xE", "chunks 0xE and 0xF", "0xF only");
  for (std::size_t i = 0; i < s.motions.size(); ++i)
    if (!s.motions[i].readable) return s.motions[i].readable.error();
  if (s.motions.size() != s.params.motions.size())
    return edit_error("0xE and 0xF motion counts differ; fix the file first", std::to_string(s.params.motions.size()),
                      std::to_string(s.motions.size()));
  return std::nullopt;
}

void erase_indices(OmfFile& f, const std::vector<bool>& remove) {
  MotionSet& s = f.motions;
  std::vector<MotionKeys> keys;
  std::vector<MotionParams> params;
  for (std::size_t i = 0; i < s.motions.size(); ++i) {
    if (remove[i]) continue;
    keys.push_back(std::move(s.motions[i]));
    params.push_back(std::move(s.params.motions[i]));
  }
  s.motions = std::move(keys);
  s.params.motions = std::move(params);
}

bool same_parts(const Params& a, const Params& b) {
  if (a.version != b.version || a.parts.size() != b.parts.size() || a.parts_without_names != b.parts_without_names)
    return false;
  for (std::size_t i = 0; i < a.parts.size(); ++i) {
    const auto& pa = a.parts[i];
    const auto& pb = b.parts[i];
    if (pa.name != pb.name || pa.bones.size() != pb.bones.size()) return false;
    for (std::size_t k = 0; k < pa.bones.size(); ++k)
      if (pa.bones[k].name != pb.bones[k].name || pa.bones[k].index != pb.bones[k].index) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<std::size_t>> select_motions(const OmfFile& file, const std::vector<std::string>& patterns) {
  std::vector<bool> hit(file.motions.params.motions.size(), false);
  for (const auto& utf8 : patterns) {
    const auto pattern = utf8_to_cp1251(utf8);
    if (!pattern) return edit_error("motion name cannot be written in cp1251", "Latin or Cyrillic text", utf8);
    bool any = false;
    for (std::size_t i = 0; i < hit.size(); ++i) {
      if (glob_match(*pattern, file.motions.params.motions[i].name)) {
        hit[i] = true;
        any = true;
      }
    }
    if (!any) return edit_error("no motion matches", "a motion name or glob", utf8);
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < hit.size(); ++i)
    if (hit[i]) out.push_back(i);
  return out;
}

void rebuild_motion_layout(OmfFile& file, EditReport& report) {
  MotionSet& s = file.motions;
  std::size_t dropped = 0;
  for (const auto& sub : s.subchunks)
    if (sub.kind == MotionsSubchunk::Kind::other) ++dropped;
  if (dropped > 0) report.changes.push_back("dropped " + std::to_string(dropped) + " 0xE sub-chunk(s) the engine never reads");
  const auto count = static_cast<std::uint32_t>(s.motions.size());
  std::vector<std::uint8_t> count_bytes(4);
  std::memcpy(count_bytes.data(), &count, 4);
  s.subchunks.clear();
  s.subchunks.push_back({MotionsSubchunk::Kind::count, 0, 0, 0, file.keep(std::move(count_bytes))});
  for (std::size_t i = 0; i < s.motions.size(); ++i) {
    s.motions[i].raw_id = static_cast<std::uint32_t>(i + 1);
    s.subchunks.push_back({MotionsSubchunk::Kind::motion, static_cast<std::uint32_t>(i + 1), 0, i, {}});
  }
  s.declared_count = count;
}

Result<EditReport> delete_motions(OmfFile& file, const std::vector<std::string>& patterns) {
  if (auto e = require_editable(file)) return *e;
  auto sel = select_motions(file, patterns);
  if (!sel) return sel.error();
  std::vector<bool> remove(file.motions.motions.size(), false);
  EditReport report;
  for (std::size_t i : sel.value()) {
    remove[i] = true;
    report.changes.push_back("deleted motion " + show(file.motions.params.motions[i].name));
  }
  erase_indices(file, remove);
  rebuild_motion_layout(file, report);
  return report;
}

Result<OmfFile> extract_motions(const OmfFile& file, const std::vector<std::string>& patterns, EditReport& report) {
  if (auto e = require_editable(file)) return *e;
  auto sel = select_motions(file, patterns);
  if (!sel) return sel.error();
  OmfFile out = file;
  std::vector<bool> remove(file.motions.motions.size(), true);
  for (std::size_t i : sel.value()) {
    remove[i] = false;
    report.changes.push_back("kept motion " + show(file.motions.params.motions[i].name));
  }
  erase_indices(out, remove);
  rebuild_motion_layout(out, report);
  return out;
}

Result<EditReport> rename_motion(OmfFile& file, const std::string& old_name, const std::string& new_name) {
  auto from = utf8_to_cp1251(old_name);
  auto to = to_cp1251_name(new_name, "new name");
  if (!to) return to.error();
  auto& params = file.motions.params.motions;
  std::size_t index = params.size();
  for (std::size_t i = 0; i < params.size(); ++i)
    if (from && iequal(params[i].name, *from)) index = i;
  if (index == params.size()) return edit_error("no motion has this name", "an existing motion", old_name);
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (i != index && iequal(params[i].name, to.value()) && params[i].is_fx() == params[index].is_fx())
      return edit_error("another motion already has this name", "a new name", new_name);
  }
  EditReport report;
  report.changes.push_back("renamed " + show(params[index].name) + " to " + show(to.value()));
  if (index < file.motions.motions.size() && file.motions.motions[index].readable &&
      file.motions.motions[index].name == params[index].name) {
    file.motions.motions[index].name = to.value();  // keep the (ignored) 0xE name in step when it was
  }
  params[index].name = to.value();
  return report;
}

Result<std::uint32_t> parse_motion_flags(const std::string& words) {
  static constexpr const char* kNames[] = {"fx",         "stop_at_end", "no_mix", "sync_part",
                                           "foot_steps", "root_mover",  "idle",   "weapon_bone"};
  std::uint32_t flags = 0;
  if (words.empty() || words == "none" || words == "-") return flags;
  std::size_t start = 0;
  while (start <= words.size()) {
    const std::size_t comma = words.find(',', start);
    const std::string word = words.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool known = false;
    for (std::uint32_t bit = 0; bit < 8; ++bit) {
      if (word == kNames[bit]) {
        flags |= 1u << bit;
        known = true;
      }
    }
    if (!known)
      return edit_error("unknown motion flag", "fx, stop_at_end, no_mix, sync_part, foot_steps, root_mover, idle, weapon_bone",
                        word);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return flags;
}

bool valid_motion_param(float value) { return std::isfinite(value) && value >= 0.0f; }

namespace {

std::optional<Finding> check_param_values(const ParamEdit& edit) {
  const std::pair<const char*, const std::optional<float>*> values[] = {
      {"--speed", &edit.speed}, {"--power", &edit.power}, {"--accrue", &edit.accrue}, {"--falloff", &edit.falloff}};
  for (const auto& [option, value] : values)
    if (*value && !valid_motion_param(**value))
      return edit_error(std::string(option) + " must be a finite number >= 0", "a finite number >= 0", fmt(**value));
  return std::nullopt;
}

// Marks are times in the motion: [0, (frames - 1) / 30 s]. A little slack for decimal input
// (0.1 is not exact in binary).
constexpr float kMarkSlack = 1e-4f;

std::optional<Finding> check_marks(const MotionSet& set, const std::vector<std::size_t>& selected,
                                   const std::vector<MarkEdit>& marks) {
  for (const auto& m : marks) {
    if (m.name.find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos || m.name.empty())
      return edit_error("mark names must be non-empty and without NUL, CR or LF", "a name", show(m.name));
    if (!std::isfinite(m.start) || !std::isfinite(m.end))
      return edit_error("mark " + show(m.name) + " times must be finite numbers of seconds", "finite numbers",
                        fmt(m.start) + " " + fmt(m.end));
    if (!(m.start <= m.end))
      return edit_error("mark interval starts after it ends", "start <= end", fmt(m.start) + " > " + fmt(m.end));
    for (std::size_t i : selected) {
      const std::string& motion = set.params.motions[i].name;
      if (i >= set.motions.size() || !set.motions[i].readable)
        return edit_error("cannot check mark " + show(m.name) + " against motion " + show(motion) +
                              ": its keys do not read",
                          "a readable motion", "unreadable keys");
      const std::uint32_t frames = set.motions[i].frames;
      const float length = frames > 1 ? static_cast<float>(frames - 1) / static_cast<float>(kSampleFps) : 0.0f;
      if (m.start < -kMarkSlack || m.end > length + kMarkSlack)
        return edit_error("mark " + show(m.name) + " lies outside motion " + show(motion) + " (" +
                              std::to_string(frames) + " frames)",
                          "times within [0, " + fmt(length) + "] s", "[" + fmt(m.start) + ", " + fmt(m.end) + "] s");
    }
  }
  return std::nullopt;
}

}  // namespace

Result<EditReport> set_params(OmfFile& file, const std::vector<std::string>& patterns, const ParamEdit& edit) {
  if (auto e = check_param_values(edit)) return *e;
  auto sel = select_motions(file, patterns);
  if (!sel) return sel.error();
  Params& p = file.motions.params;
  if (!edit.add_marks.empty() && p.version < 4)
    return edit_error("marks need params version 4 (use: boneyard omf retarget --params-version 4)", "version 4",
                      std::to_string(p.version));
  std::optional<std::uint16_t> part, bone;
  if (edit.part) {
    if (iequal(*edit.part, "all")) {
      part = kNoBoneOrPart;
    } else {
      for (std::size_t i = 0; i < p.parts.size(); ++i)
        if (iequal(p.parts[i].name, utf8_to_cp1251(*edit.part).value_or(""))) part = static_cast<std::uint16_t>(i);
      if (!part) return edit_error("no bone part has this name", "a part name or all", *edit.part);
    }
  }
  if (edit.bone) {
    // FX start bones are skeleton ids; the SDK writes the same numbering as the motion-bone index.
    std::size_t position = 0;
    for (const auto& prt : p.parts)
      for (const auto& b : prt.bones) {
        if (iequal(b.name, utf8_to_cp1251(*edit.bone).value_or("")))
          bone = static_cast<std::uint16_t>(p.version >= 3 ? b.index : position);
        ++position;
      }
    if (!bone) return edit_error("no bone has this name in the bone parts", "a bone name", *edit.bone);
  }
  if (auto e = check_marks(file.motions, sel.value(), edit.add_marks)) return *e;
  EditReport report;
  for (std::size_t i : sel.value()) {
    MotionParams& mp = p.motions[i];
    const std::string who = show(mp.name) + ": ";
    auto set_float = [&](const std::optional<float>& v, float& field, const char* name) {
      if (!v) return;
      report.changes.push_back(who + name + " " + fmt(field) + " -> " + fmt(*v));
      field = *v;
    };
    set_float(edit.speed, mp.speed, "speed");
    set_float(edit.power, mp.power, "power");
    set_float(edit.accrue, mp.accrue, "accrue");
    set_float(edit.falloff, mp.falloff, "falloff");
    if (edit.flags) {
      report.changes.push_back(who + "flags " + motion_flag_words(mp.flags) + " -> " + motion_flag_words(*edit.flags));
      if (((mp.flags ^ *edit.flags) & kMotionFx) && !part && !bone)
        report.warnings.push_back(who + "changed between cycle and FX: check --part/--bone");
      mp.flags = *edit.flags;
    }
    if (part) {
      if (mp.is_fx()) return edit_error("FX motions start at a bone, not a part: use --bone", "a cycle", printable(mp.name));
      report.changes.push_back(who + "part " + std::to_string(mp.bone_or_part) + " -> " + std::to_string(*part));
      mp.bone_or_part = *part;
    }
    if (bone) {
      if (!mp.is_fx()) return edit_error("cycles play on a part, not a bone: use --part", "an FX motion", printable(mp.name));
      report.changes.push_back(who + "bone " + std::to_string(mp.bone_or_part) + " -> " + std::to_string(*bone));
      mp.bone_or_part = *bone;
    }
    if (edit.clear_marks && !mp.marks.empty()) {
      report.changes.push_back(who + "cleared " + std::to_string(mp.marks.size()) + " mark(s)");
      mp.marks.clear();
    }
    for (const auto& m : edit.add_marks) {
      const std::string name = utf8_to_cp1251(m.name).value_or(m.name);
      auto it = std::find_if(mp.marks.begin(), mp.marks.end(), [&](const MotionMark& k) { return k.name == name; });
      if (it == mp.marks.end()) {
        mp.marks.push_back(MotionMark{name, {}, 0, 0});
        it = mp.marks.end() - 1;
      }
      it->intervals.push_back({m.start, m.end});
      // The engine's pick_mark stops at the first start past the time: keep intervals sorted.
      std::stable_sort(it->intervals.begin(), it->intervals.end(),
                       [](const MarkInterval& a, const MarkInterval& b) { return a.start < b.start; });
      report.changes.push_back(who + "mark " + show(name) + " + [" + fmt(m.start) + ", " + fmt(m.end) + "] s");
      if ((it->intervals.size() & 0xFF) == 0x0A || (it->intervals.size() & 0xFF) == 0x0D)
        report.warnings.push_back(who + "mark " + show(name) + " now has " + std::to_string(it->intervals.size()) +
                                  " intervals: the engine misreads that count");
    }
  }
  return report;
}

Result<OmfFile> merge_omfs(std::vector<OmfFile> files, bool rename_clashes, EditReport& report) {
  if (files.empty()) return edit_error("nothing to merge", "at least one file", "none");
  for (const auto& f : files)
    if (auto e = require_editable(f)) return *e;
  OmfFile out = std::move(files.front());
  for (std::size_t fi = 1; fi < files.size(); ++fi) {
    OmfFile& other = files[fi];
    // Say which of the two differs: a params version (3: no marks, 4: marks) is fixed by
    // `omf retarget --params-version`, different bones are not.
    if (out.motions.params.version != other.motions.params.version)
      return edit_error("params versions differ between the files to merge (file 1 and file " + std::to_string(fi + 1) +
                            "; `omf retarget --params-version` converts one)",
                        "version " + std::to_string(out.motions.params.version),
                        "version " + std::to_string(other.motions.params.version));
    if (!same_parts(out.motions.params, other.motions.params))
      return edit_error("bone parts differ between the files to merge (file " + std::to_string(fi + 1) + ")",
                        "the same parts, bone names and indices", "different");
    out.keep_alive.push_back(other.source);
    out.keep_alive.push_back(other.owned);
    for (auto& k : other.keep_alive) out.keep_alive.push_back(k);
    for (std::size_t i = 0; i < other.motions.motions.size(); ++i) {
      MotionParams mp = other.motions.params.motions[i];
      auto clash = [&](const std::string& name) {
        for (const auto& m : out.motions.params.motions)
          if (iequal(m.name, name) && m.is_fx() == mp.is_fx()) return true;
        return false;
      };
      if (clash(mp.name)) {
        if (!rename_clashes)
          return edit_error("motion name in more than one file (use --rename-clashes)", "unique names", printable(mp.name));
        std::string renamed;
        for (int n = 2; renamed.empty() || clash(renamed); ++n) renamed = mp.name + "_" + std::to_string(n);
        report.changes.push_back("renamed " + show(mp.name) + " from file " + std::to_string(fi + 1) + " to " + show(renamed));
        mp.name = renamed;
      }
      MotionKeys keys = other.motions.motions[i];
      if (keys.name == other.motions.params.motions[i].name) keys.name = mp.name;  // keep 0xE in step
      mp.motion_id = static_cast<std::uint16_t>(out.motions.params.motions.size());
      report.changes.push_back("added motion " + show(mp.name) + " from file " + std::to_string(fi + 1));
      out.motions.params.motions.push_back(std::move(mp));
      out.motions.motions.push_back(std::move(keys));
    }
  }
  if (out.motions.params.motions.size() > 0xFFFF)
    return edit_error("too many motions for chunk 0xF", "at most 65535", std::to_string(out.motions.params.motions.size()));
  rebuild_motion_layout(out, report);
  return out;
}

}  // namespace boneyard::xray
