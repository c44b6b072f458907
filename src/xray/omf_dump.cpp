#include "boneyard/omf_report.h"
#include "boneyard/text.h"

namespace boneyard::xray {

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
    mk && !mk->error ? out.value(cp1251_to_utf8(mk->name)) : out.null();
    out.key("frames");
    mk && !mk->error ? out.value(std::uint64_t{mk->frames}) : out.null();
    if (mp) {
      out.field("flags", std::uint64_t{mp->flags});
      out.field("bone_or_part", unsigned{mp->bone_or_part});
      out.field("motion_id", unsigned{mp->motion_id});
      out.field("speed", mp->speed).field("power", mp->power);
      out.field("accrue", mp->accrue).field("falloff", mp->falloff);
      dump_marks(out, *mp);
    }
    out.key("bones");
    if (mk && !mk->error) {
      out.begin_array();
      for (const auto& b : mk->bones) dump_bone(out, b, mk->frames, raw);
      out.end_array();
    } else {
      out.null();
      if (mk && mk->error) out.field("error", mk->error->message + " at byte " + std::to_string(mk->error->offset));
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
