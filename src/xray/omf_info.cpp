#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "boneyard/omf_report.h"
#include "boneyard/text.h"

namespace boneyard::xray {

namespace {

void appendf(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& s, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0) s.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

std::string part_or_bone(const MotionParams& m, const Params& p) {
  if (m.bone_or_part == kNoBoneOrPart) return m.is_fx() ? "root" : "all";
  if (m.is_fx()) return "bone " + std::to_string(m.bone_or_part);
  if (m.bone_or_part < p.parts.size()) return printable(p.parts[m.bone_or_part].name);
  return "part " + std::to_string(m.bone_or_part) + "?";
}

std::string marks_text(const MotionParams& m) {
  if (m.marks.empty()) return "-";
  std::string s;
  for (const auto& mark : m.marks) {
    if (!s.empty()) s += "; ";
    s += printable(mark.name);
    for (const auto& iv : mark.intervals) appendf(s, " %.3g-%.3gs", iv.start, iv.end);
  }
  return s;
}

}  // namespace

std::string describe_motion_set(const MotionSet& set) {
  const Params& p = set.params;
  std::string s;
  appendf(s, "  params version %u, %zu part(s), %zu bone(s)\n", p.version, p.parts.size(), p.bone_count());
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    const auto& part = p.parts[i];
    appendf(s, "  part %zu \"%s\" (%zu bones):", i, printable(part.name).c_str(), part.bones.size());
    for (const auto& b : part.bones) {
      if (p.version >= 2 && !p.parts_without_names)
        appendf(s, " %s", printable(b.name).c_str());
      if (p.version != 2) appendf(s, "%s#%u", (p.version >= 2 && !p.parts_without_names) ? "" : " ", b.index);
    }
    s += '\n';
  }
  const std::size_t n = std::max(p.motions.size(), set.motions.size());
  appendf(s, "  motions: %zu (0xE declares %s)\n", n,
          set.declared_count ? std::to_string(*set.declared_count).c_str() : "none");
  if (n > 0) {
    appendf(s, "  %4s  %-28s %6s %8s %-5s %-14s %6s %6s %6s %7s  %-25s %-24s %s\n", "#", "name", "frames", "seconds",
            "kind", "part/bone", "speed", "power", "accrue", "falloff", "effective (engine)", "flags", "marks");
  }
  std::size_t rot_static = 0, rot_keyed = 0, tr_const = 0, tr8 = 0, tr16 = 0, keys = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const MotionParams* mp = i < p.motions.size() ? &p.motions[i] : nullptr;
    const MotionKeys* mk = i < set.motions.size() ? &set.motions[i] : nullptr;
    std::string frames = "?", secs = "?";
    if (mk && !mk->error) {
      frames = std::to_string(mk->frames);
      char b[32];
      // The clip plays keys 0..frames-1 at 30 fps: duration (frames - 1) / 30 s.
      std::snprintf(b, sizeof b, "%.3f", mk->frames > 0 ? (mk->frames - 1) / double(kSampleFps) : 0.0);
      secs = b;
      for (const auto& bone : mk->bones) {
        bone.rotation_static() ? ++rot_static : ++rot_keyed;
        if (!bone.translation_keyed())
          ++tr_const;
        else
          bone.translation_16bit() ? ++tr16 : ++tr8;
        keys += bone.rotation_key_count() + bone.translation_key_count();
      }
    }
    if (mp) {
      // What the engine plays: quantised, accrue/falloff x1.5, falloff clamped below accrue on cycles (*).
      const EffectiveParams e = effective_params(*mp);
      char eff[64];
      std::snprintf(eff, sizeof eff, "%.4g/%.4g/%.4g/%.4g%s", e.speed, e.power, e.accrue, e.falloff,
                    e.falloff_clamped ? "*" : "");
      appendf(s, "  %4zu  %-28s %6s %8s %-5s %-14s %6.3g %6.3g %6.3g %7.3g  %-25s %-24s %s\n", i,
              printable(mp->name).c_str(), frames.c_str(), secs.c_str(), mp->is_fx() ? "fx" : "cycle",
              part_or_bone(*mp, p).c_str(), mp->speed, mp->power, mp->accrue, mp->falloff, eff,
              motion_flag_words(mp->flags).c_str(), marks_text(*mp).c_str());
    } else {
      appendf(s, "  %4zu  %-28s %6s %8s (no 0xF entry)\n", i, ("[" + printable(mk->name) + "]").c_str(),
              frames.c_str(), secs.c_str());
    }
    if (mk && mk->error) appendf(s, "        unreadable keys: %s\n", mk->error->message.c_str());
  }
  appendf(s,
          "  keys: rotation tracks %zu keyed + %zu static; translation tracks %zu 8-bit + %zu 16-bit + %zu "
          "constant; %zu stored keys\n",
          rot_keyed, rot_static, tr8, tr16, tr_const, keys);
  if (n > 0) s += "  effective = speed/power/accrue/falloff as the engine plays them (* = falloff clamped below accrue)\n";
  return s;
}

std::string describe_omf(const OmfFile& file) {
  std::string s;
  appendf(s, "  format: X-Ray skeletal motions (.omf), %llu bytes\n", static_cast<unsigned long long>(file.size));
  return s + describe_motion_set(file.motions);
}

int sniff_omf(Bytes bytes, std::string_view extension) {
  if (!looks_like_omf(bytes)) return 0;
  return extension == ".omf" ? 90 : 80;
}


}  // namespace boneyard::xray
