// `info` text and `dump` JSON of motions (schema: docs/json-schema.md).
#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "boneyard/xray/omf/omf_report.h"
#include "boneyard/core/text.h"

namespace boneyard::xray {

namespace {

// GCC checks the format as the C library boneyard uses reads it (gnu_printf: %zu; its `printf`
// means msvcrt's on mingw, which has no %zu); clang knows only `printf`.
#if defined(__clang__)
void appendf(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
#else
void appendf(std::string& s, const char* fmt, ...) __attribute__((format(gnu_printf, 2, 3)));
#endif
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
    if (mk && mk->readable) {
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
    if (mk && !mk->readable) appendf(s, "        unreadable keys: %s\n", mk->readable.error().message.c_str());
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

// ---- dump

namespace {

void vec3(JsonWriter& out, const Vec3& v) {
  out.begin_array().value(v.x).value(v.y).value(v.z).end_array();
}

// Rotation components take one of 65536 values (s16 / 32767): their shortest texts are formatted
// once, which makes dumping rotation keys a table lookup instead of a float-to-text conversion.
std::string_view quat_component_text(std::int16_t q) {
  struct Table {
    std::vector<char> text;
    std::vector<std::uint32_t> start;
    Table() : start(65537) {
      text.reserve(65536 * 12);
      for (int v = -32768; v <= 32767; ++v) {
        start[static_cast<std::size_t>(v + 32768)] = static_cast<std::uint32_t>(text.size());
        JsonWriter w;
        w.value(quat_component(static_cast<std::int16_t>(v)));
        text.insert(text.end(), w.str().begin(), w.str().end());
      }
      start[65536] = static_cast<std::uint32_t>(text.size());
    }
  };
  static const Table table;
  const auto i = static_cast<std::size_t>(q + 32768);
  return {table.text.data() + table.start[i], table.start[i + 1] - table.start[i]};
}

void dump_bone(JsonWriter& out, const BoneKeys& b, std::uint32_t frames, bool raw) {
  out.begin_object();
  out.field("flags", unsigned{b.flags});
  out.key("rotation").begin_array();
  const std::size_t nr = b.rotation_static() ? 1 : frames;
  for (std::size_t k = 0; k < nr; ++k) {
    const QuatKey q = b.rotation_key(k);  // decoded exactly as rotation(k), via the table
    out.begin_array().number_text(quat_component_text(q.x)).number_text(quat_component_text(q.y));
    out.number_text(quat_component_text(q.z)).number_text(quat_component_text(q.w)).end_array();
  }
  out.end_array();
  out.key("translation").begin_array();
  const std::size_t nt = b.translation_keyed() ? frames : 1;
  for (std::size_t k = 0; k < nt; ++k) vec3(out, b.translation(k));
  out.end_array();
  if (raw) {
    if (!b.rotation_static()) out.field("rotation_crc", std::uint64_t{b.rotation_crc});
    out.key("rotation_keys").begin_array();
    for (std::size_t k = 0; k < nr; ++k) {
      const QuatKey q = b.rotation_key(k);
      out.begin_array().value(int{q.x}).value(int{q.y}).value(int{q.z}).value(int{q.w}).end_array();
    }
    out.end_array();
    if (b.translation_keyed()) {
      out.field("translation_crc", std::uint64_t{b.translation_crc});
      out.key("translation_keys").begin_array();
      for (std::size_t k = 0; k < frames; ++k) {
        const auto q = b.translation_key(k);
        out.begin_array().value(q[0]).value(q[1]).value(q[2]).end_array();
      }
      out.end_array();
      out.key("translation_size");
      vec3(out, b.translation_size);
      out.key("translation_init");
      vec3(out, b.translation_init);
    }
  }
  out.end_object();
}

void dump_marks(JsonWriter& out, const MotionParams& m) {
  out.key("marks").begin_array();
  for (const auto& mark : m.marks) {
    out.begin_object().field("name", cp1251_to_utf8(mark.name));
    out.key("intervals").begin_array();
    for (const auto& iv : mark.intervals) out.begin_array().value(iv.start).value(iv.end).end_array();
    out.end_array().end_object();
  }
  out.end_array();
}

}  // namespace

void dump_motion_set(JsonWriter& out, const MotionSet& set, bool raw) {
  const Params& p = set.params;
  out.field("params_version", unsigned{p.version});
  out.key("parts").begin_array();
  for (const auto& part : p.parts) {
    out.begin_object().field("name", cp1251_to_utf8(part.name));
    out.key("bones").begin_array();
    for (const auto& bone : part.bones) {
      out.begin_object().key("name");
      if (p.version == 1 || p.parts_without_names)
        out.null();
      else
        out.value(cp1251_to_utf8(bone.name));
      out.field("index", std::uint64_t{bone.index}).end_object();
    }
    out.end_array().end_object();
  }
  out.end_array();
  out.key("motions").begin_array();
  const std::size_t n = std::max(p.motions.size(), set.motions.size());
  for (std::size_t i = 0; i < n; ++i) {
    out.newline();
    out.begin_object();
    const MotionParams* mp = i < p.motions.size() ? &p.motions[i] : nullptr;
    const MotionKeys* mk = i < set.motions.size() ? &set.motions[i] : nullptr;
    out.key("name");
    mp ? out.value(cp1251_to_utf8(mp->name)) : out.null();
    out.key("keys_name");
    mk && mk->readable ? out.value(cp1251_to_utf8(mk->name)) : out.null();
    out.key("frames");
    mk && mk->readable ? out.value(std::uint64_t{mk->frames}) : out.null();
    if (mp) {
      out.field("flags", std::uint64_t{mp->flags});
      out.field("bone_or_part", unsigned{mp->bone_or_part});
      out.field("motion_id", unsigned{mp->motion_id});
      out.field("speed", mp->speed).field("power", mp->power);
      out.field("accrue", mp->accrue).field("falloff", mp->falloff);
      dump_marks(out, *mp);
    }
    out.key("bones");
    if (mk && mk->readable) {
      out.begin_array();
      for (const auto& b : mk->bones) dump_bone(out, b, mk->frames, raw);
      out.end_array();
    } else {
      out.null();
      if (mk && !mk->readable) out.field("error", mk->readable.error().message + " at byte " + std::to_string(mk->readable.error().offset));
    }
    out.end_object();
  }
  out.end_array();
}

void dump_omf(JsonWriter& out, const OmfFile& file, bool raw) {
  out.begin_object();
  out.field("format", "omf");
  dump_motion_set(out, file.motions, raw);
  out.end_object();
}

}  // namespace boneyard::xray
