// Motion-level edits of .skl/.skls files: select, delete, extract, rename, set params and marks,
// merge (skl_edit.h). Refused edits change nothing: every check runs before the first change.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "boneyard/core/text.h"
#include "boneyard/xray/skl/skl_edit.h"

namespace boneyard::xray {

namespace {

Finding skl_edit_error(std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, {}, std::move(message), std::move(expected), std::move(found)};
}

std::string skl_edit_fmt(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
  return b;
}

std::string skl_edit_show(const std::string& raw) { return "\"" + printable(raw) + "\""; }

bool skl_iequal(std::string_view a, std::string_view b) { return lower_ascii(a) == lower_ascii(b); }

Result<std::string> skl_motion_name(const std::string& utf8, const char* what) {
  auto cp = utf8_to_cp1251(utf8);
  if (!cp) return skl_edit_error(std::string(what) + " cannot be written in cp1251", "Latin or Cyrillic text", utf8);
  if (cp->empty()) return skl_edit_error(std::string(what) + " is empty", "a name", "\"\"");
  if (cp->find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos)
    return skl_edit_error(std::string(what) + " holds a NUL, CR or LF, which the SDK or the tools cannot keep", "printable text",
                      skl_edit_show(*cp));
  if (cp->size() > kMaxNameBytes)
    return skl_edit_error(std::string(what) + " too long for the engine", "at most 127 bytes", std::to_string(cp->size()));
  return *cp;
}

void keep_intervals_sorted(MotionMark& mark) {
  std::stable_sort(mark.intervals.begin(), mark.intervals.end(),
                   [](const MarkInterval& a, const MarkInterval& b) { return a.start < b.start; });
}

// Marks are times in the motion: [0, (end - start) / fps] seconds, with slack for decimal input.
constexpr float kSklMarkSlack = 1e-4f;

std::optional<Finding> check_skl_edit(const SklFile& f, const std::vector<std::size_t>& selected, const ParamEdit& e) {
  const std::pair<const char*, const std::optional<float>*> values[] = {
      {"--speed", &e.speed}, {"--power", &e.power}, {"--accrue", &e.accrue}, {"--falloff", &e.falloff}};
  for (const auto& [option, value] : values)
    if (*value && !valid_motion_param(**value))
      return skl_edit_error(std::string(option) + " must be a finite number >= 0", "a finite number >= 0", skl_edit_fmt(**value));
  for (std::size_t i : selected) {
    const SklMotion& m = f.motions[i];
    if (!e.add_marks.empty() && m.version < 6)
      return skl_edit_error("motion " + skl_edit_show(m.name) + " is version " + std::to_string(m.version) +
                            ", which holds no marks (only version 7 does)",
                        "a version 6 or 7 motion", "version " + std::to_string(m.version));
    if (e.flags && m.version == 4 && (*e.flags & ~(kMotionFx | kMotionStopAtEnd)) != 0)
      return skl_edit_error("motion " + skl_edit_show(m.name) + " is version 4, which stores only the fx and stop_at_end flags",
                        "fx, stop_at_end", motion_flag_words(*e.flags));
    const bool fx = e.flags ? (*e.flags & kMotionFx) != 0 : m.is_fx();
    if (e.part && fx) return skl_edit_error("FX motions start at a bone, not a part: use --bone", "a cycle", printable(m.name));
    if (e.bone && !fx) return skl_edit_error("cycles play on a part, not a bone: use --part", "an FX motion", printable(m.name));
    if (e.bone) {
      const auto wanted = utf8_to_cp1251(*e.bone).value_or("");
      if (std::none_of(m.bones.begin(), m.bones.end(), [&](const SklBone& b) { return skl_iequal(b.name, wanted); }))
        return skl_edit_error("motion " + skl_edit_show(m.name) + " has no bone of this name", "a bone of the motion", *e.bone);
    }
    const float length = m.fps > 0 ? static_cast<float>(m.frame_end - m.frame_start) / m.fps : 0.0f;
    for (const auto& mark : e.add_marks) {
      if (mark.name.empty() || mark.name.find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos)
        return skl_edit_error("mark names must be non-empty and without NUL, CR or LF", "a name", skl_edit_show(mark.name));
      if (!utf8_to_cp1251(mark.name)) return skl_edit_error("mark name cannot be written in cp1251", "Latin or Cyrillic text", mark.name);
      if (!std::isfinite(mark.start) || !std::isfinite(mark.end))
        return skl_edit_error("mark " + skl_edit_show(mark.name) + " times must be finite numbers of seconds", "finite numbers",
                          skl_edit_fmt(mark.start) + " " + skl_edit_fmt(mark.end));
      if (!(mark.start <= mark.end))
        return skl_edit_error("mark interval starts after it ends", "start <= end", skl_edit_fmt(mark.start) + " > " + skl_edit_fmt(mark.end));
      if (mark.start < -kSklMarkSlack || mark.end > length + kSklMarkSlack)
        return skl_edit_error("mark " + skl_edit_show(mark.name) + " lies outside motion " + skl_edit_show(m.name),
                          "times within [0, " + skl_edit_fmt(length) + "] s", "[" + skl_edit_fmt(mark.start) + ", " + skl_edit_fmt(mark.end) + "] s");
    }
  }
  if (e.part && !skl_iequal(*e.part, "all")) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(e.part->c_str(), &end, 10);
    if (e.part->empty() || *end != '\0' || v >= kNoBoneOrPart)
      return skl_edit_error("a .skls names no bone parts: --part takes a part index or all", "0-65534 or all", *e.part);
  }
  return std::nullopt;
}

void apply_skl_edit(SklMotion& m, const ParamEdit& e, EditReport& report) {
  const std::string who = skl_edit_show(m.name) + ": ";
  auto set_float = [&](const std::optional<float>& v, float& field, const char* name) {
    if (!v) return;
    report.changes.push_back(who + name + " " + skl_edit_fmt(field) + " -> " + skl_edit_fmt(*v));
    field = *v;
  };
  set_float(e.speed, m.speed, "speed");
  set_float(e.power, m.power, "power");
  set_float(e.accrue, m.accrue, "accrue");
  set_float(e.falloff, m.falloff, "falloff");
  if (e.flags) {
    report.changes.push_back(who + "flags " + motion_flag_words(m.flags) + " -> " + motion_flag_words(*e.flags));
    if (((m.flags ^ *e.flags) & kMotionFx) && !e.part && !e.bone)
      report.warnings.push_back(who + "changed between cycle and FX: check --part/--bone");
    if (m.version == 4) {
      m.v4_flag_bytes[0] = (*e.flags & kMotionFx) ? 1 : 0;
      m.v4_flag_bytes[1] = (*e.flags & kMotionStopAtEnd) ? 1 : 0;
    }
    m.flags = m.version == 5 ? (m.flags & ~0xFFu) | *e.flags : *e.flags;
  }
  if (e.part) {
    const std::uint32_t part = skl_iequal(*e.part, "all") ? kNoBoneOrPart : static_cast<std::uint32_t>(std::stoul(*e.part));
    report.changes.push_back(who + "part " + std::to_string(m.bone_or_part) + " -> " + std::to_string(part));
    m.bone_or_part = part;
  }
  if (e.bone) {
    const auto wanted = utf8_to_cp1251(*e.bone).value_or("");
    std::uint32_t index = 0;
    while (!skl_iequal(m.bones[index].name, wanted)) ++index;
    report.changes.push_back(who + "bone " + std::to_string(m.bone_or_part) + " -> " + std::to_string(index));
    m.bone_or_part = index;
  }
  if (e.clear_marks && !m.marks.empty()) {
    report.changes.push_back(who + "cleared " + std::to_string(m.marks.size()) + " mark(s)");
    m.marks.clear();
  }
  if (!e.add_marks.empty() && m.version == 6) {
    m.version = 7;
    report.changes.push_back(who + "version 6 -> 7 (the version that holds marks)");
  }
  for (const auto& add : e.add_marks) {
    const std::string name = utf8_to_cp1251(add.name).value_or(add.name);
    auto it = std::find_if(m.marks.begin(), m.marks.end(), [&](const MotionMark& k) { return k.name == name; });
    if (it == m.marks.end()) {
      m.marks.push_back(MotionMark{name, {}, 0, 0});
      it = m.marks.end() - 1;
    }
    it->intervals.push_back({add.start, add.end});
    keep_intervals_sorted(*it);
    report.changes.push_back(who + "mark " + skl_edit_show(name) + " + [" + skl_edit_fmt(add.start) + ", " + skl_edit_fmt(add.end) + "] s");
  }
}

bool skl_name_taken(const std::vector<SklMotion>& motions, const std::string& name, std::size_t except) {
  for (std::size_t i = 0; i < motions.size(); ++i)
    if (i != except && skl_iequal(motions[i].name, name)) return true;
  return false;
}

// `f` as a new file of `container` holding `motions`.
Result<SklFile> skl_with_motions(const SklFile& f, std::vector<SklMotion> motions, SklContainer container) {
  if (container == SklContainer::skl && motions.size() != 1)
    return skl_edit_error("a .skl holds one motion", "1 motion", std::to_string(motions.size()) + " motions");
  SklFile out;
  out.container = container;
  out.source = f.source;
  out.keep_alive = f.keep_alive;
  out.keep_alive.push_back(f.owned);
  out.motions = std::move(motions);
  if (container == SklContainer::skl) {
    if (f.container == SklContainer::skl) {  // the same file's chunks, minus nothing
      out.chunks = f.chunks;
      out.motion_chunk = f.motion_chunk;
      out.motion_unpacked = f.motion_unpacked;
      out.tail = f.tail;
      out.trailing = f.trailing;
      out.overrun = f.overrun;
    } else {
      out.chunks = {Chunk{kChunkSkeletonMotion, 0, {}}};
    }
  }
  out.declared_count = static_cast<std::uint32_t>(out.motions.size());
  return out;
}

}  // namespace

Result<std::vector<std::size_t>> select_skl_motions(const SklFile& file, const std::vector<std::string>& patterns) {
  std::vector<bool> hit(file.motions.size(), false);
  for (const auto& utf8 : patterns) {
    const auto pattern = utf8_to_cp1251(utf8);
    if (!pattern) return skl_edit_error("motion name cannot be written in cp1251", "Latin or Cyrillic text", utf8);
    bool any = false;
    for (std::size_t i = 0; i < hit.size(); ++i) {
      if (glob_match(*pattern, file.motions[i].name)) {
        hit[i] = true;
        any = true;
      }
    }
    if (!any) return skl_edit_error("no motion matches", "a motion name or glob", utf8);
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < hit.size(); ++i)
    if (hit[i]) out.push_back(i);
  return out;
}

Result<EditReport> delete_skl_motions(SklFile& file, const std::vector<std::string>& patterns) {
  if (file.container == SklContainer::skl)
    return skl_edit_error("a .skl holds one motion: there is nothing to delete from it", "a .skls", "a .skl");
  auto sel = select_skl_motions(file, patterns);
  if (!sel) return sel.error();
  std::vector<bool> remove(file.motions.size(), false);
  EditReport report;
  for (std::size_t i : sel.value()) {
    remove[i] = true;
    report.changes.push_back("deleted motion " + skl_edit_show(file.motions[i].name));
  }
  std::vector<SklMotion> kept;
  for (std::size_t i = 0; i < file.motions.size(); ++i)
    if (!remove[i]) kept.push_back(std::move(file.motions[i]));
  file.motions = std::move(kept);
  file.declared_count = static_cast<std::uint32_t>(file.motions.size());
  return report;
}

Result<SklFile> extract_skl_motions(const SklFile& file, const std::vector<std::string>& patterns,
                                    SklContainer container, EditReport& report) {
  auto sel = select_skl_motions(file, patterns);
  if (!sel) return sel.error();
  std::vector<SklMotion> chosen;
  for (std::size_t i : sel.value()) {
    chosen.push_back(file.motions[i]);
    report.changes.push_back("kept motion " + skl_edit_show(file.motions[i].name));
  }
  return skl_with_motions(file, std::move(chosen), container);
}

Result<EditReport> rename_skl_motion(SklFile& file, const std::string& old_name, const std::string& new_name) {
  const auto from = utf8_to_cp1251(old_name);
  auto to = skl_motion_name(new_name, "new name");
  if (!to) return to.error();
  std::size_t index = file.motions.size();
  for (std::size_t i = 0; i < file.motions.size() && index == file.motions.size(); ++i)
    if (from && skl_iequal(file.motions[i].name, *from)) index = i;
  if (index == file.motions.size()) return skl_edit_error("no motion has this name", "an existing motion", old_name);
  if (skl_name_taken(file.motions, to.value(), index))
    return skl_edit_error("another motion already has this name", "a new name", new_name);
  EditReport report;
  report.changes.push_back("renamed " + skl_edit_show(file.motions[index].name) + " to " + skl_edit_show(to.value()));
  file.motions[index].name = to.value();
  return report;
}

Result<EditReport> set_skl_params(SklFile& file, const std::vector<std::string>& patterns, const ParamEdit& edit) {
  auto sel = select_skl_motions(file, patterns);
  if (!sel) return sel.error();
  if (auto e = check_skl_edit(file, sel.value(), edit)) return *e;
  EditReport report;
  for (std::size_t i : sel.value()) apply_skl_edit(file.motions[i], edit, report);
  return report;
}

Result<SklFile> merge_skls(std::vector<SklFile> files, bool rename_clashes, SklContainer container, EditReport& report) {
  if (files.empty()) return skl_edit_error("nothing to merge", "at least one file", "none");
  std::vector<SklMotion> motions = files.front().motions;
  SklFile base = files.front();
  for (std::size_t fi = 1; fi < files.size(); ++fi) {
    SklFile& other = files[fi];
    base.keep_alive.push_back(other.source);
    base.keep_alive.push_back(other.owned);
    for (auto& k : other.keep_alive) base.keep_alive.push_back(k);
    for (auto& m : other.motions) {
      if (skl_name_taken(motions, m.name, motions.size())) {
        if (!rename_clashes)
          return skl_edit_error("motion name in more than one file (use --rename-clashes)", "unique names", printable(m.name));
        std::string renamed;
        for (int n = 2; renamed.empty() || skl_name_taken(motions, renamed, motions.size()); ++n)
          renamed = m.name + "_" + std::to_string(n);
        report.changes.push_back("renamed " + skl_edit_show(m.name) + " from file " + std::to_string(fi + 1) + " to " + skl_edit_show(renamed));
        m.name = renamed;
      }
      report.changes.push_back("added motion " + skl_edit_show(m.name) + " from file " + std::to_string(fi + 1));
      motions.push_back(std::move(m));
    }
  }
  if (container == SklContainer::skl && base.container == SklContainer::skl && files.size() > 1)
    base.container = SklContainer::skls;  // chunks of the first .skl are not the merged file's
  return skl_with_motions(base, std::move(motions), container);
}

}  // namespace boneyard::xray
