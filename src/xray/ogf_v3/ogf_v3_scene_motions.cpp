// The embedded motions of an OGF v3 model as scene animations at 30 fps. The engine matches each
// motion's parameters to the key set of the same name, and a key set holds one record per bone in
// 0xD order. 0x1A records are the v4 .omf record without 16-bit translations and with every
// rotation keyed, so they go through the .omf adapter (add_motions) as a motion set whose keys
// are views into the file. 0xE records interleave a rotation and a float translation per frame,
// which no .omf record holds: their rotations are copied into one array and exported by the same
// rotation code (SHORT components, sign-continuous), their translations as the stored floats.
#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "ogf_v3_internal.h"
#include "ogf_v3_scene_internal.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray::ogf3 {

namespace {

constexpr float kAbsurdTranslation = 1.0e4f;  // metres, as the .omf export warns

// The motion-bone index of every bone is its 0xD index. The model's parts when they list every
// bone once (ids and lower-cased names from 0xD, as a params version 3 .omf has them), else one part of all
// bones with a warning: the parts only name groups for the extras, the records follow 0xD.
std::vector<BonePart> parts_by_bone(const OgfV3File& f, Diagnostics& warnings) {
  const Ogf3Params& p = *f.params;
  std::vector<BonePart> out;
  std::vector<int> seen(f.bones.size(), 0);
  const auto by_name = bones_by_lower_name(f);
  bool ok = true;
  for (const auto& part : p.parts) {
    BonePart bp{part.name, {}, part.offset};
    for (const auto& b : part.bones) {
      int id = b.index ? int(*b.index) : -1;
      if (!b.index || (p.chunk == kOgf3SmParamsNew && p.version >= 2)) {
        const auto it = by_name.find(lower_ascii(b.name));
        id = it == by_name.end() ? -1 : it->second;
      }
      if (id < 0 || std::size_t(id) >= f.bones.size() || seen[std::size_t(id)]++ != 0) {
        ok = false;
        continue;
      }
      bp.bones.push_back({lower_ascii(f.bones[std::size_t(id)].name), std::uint32_t(id), b.offset});
    }
    out.push_back(std::move(bp));
  }
  if (ok && std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; })) return out;
  warnings.add(Severity::warning, p.offset, hex(p.chunk) + " parts",
               "bone parts do not list every bone once: the export names one part of every bone", "each bone once",
               "other");
  BonePart all{"default", {}, p.offset};
  for (std::size_t i = 0; i < f.bones.size(); ++i) all.bones.push_back({lower_ascii(f.bones[i].name), std::uint32_t(i), f.bones[i].offset});
  return {all};
}

MotionParams params_of(const Ogf3MotionParams& m) {
  MotionParams out;
  out.name = m.name;
  out.flags = m.flags;
  out.bone_or_part = m.bone_or_part;
  out.motion_id = m.motion_id;
  out.speed = m.speed, out.power = m.power, out.accrue = m.accrue, out.falloff = m.falloff;
  out.offset = m.offset;
  return out;
}

// The key set the engine gives a motion: the first of its name.
const Ogf3Motion* key_set(const Ogf3Motions& keys, const std::unordered_map<std::string, std::size_t>& by_name,
                          const std::string& name) {
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : &keys.motions[it->second];
}

Status new_layout(scene::Scene& s, const OgfV3File& f, const OgfFile& v4, const MotionExportOptions& o,
                  Diagnostics& warnings) {
  return add_motions(s, &v4, motion_set_of(f, warnings), "embedded", warnings, o);
}

bool wanted(const std::vector<std::string>& globs, const std::string& cp1251_name) {
  if (globs.empty()) return true;
  const std::string name = cp1251_to_utf8(cp1251_name);
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return glob_match(g, name); });
}

// 0xE: per motion a held timeline (t = 0 and the end, for one-frame motions) and the 30 fps ramp.
Status float_layout(scene::Scene& s, const OgfV3File& f, const MotionExportOptions& o, Diagnostics& warnings) {
  const Ogf3Params& p = *f.params;
  const std::size_t n = s.skeleton.joints.size();
  auto& sets = json_of(s.extras)["xray"]["motion_sets"];
  const std::size_t set_index = sets.size();
  nlohmann::json jset;
  jset["source"] = "embedded";
  jset["params_chunk"] = hex(p.chunk);
  jset["keys_chunk"] = hex(f.motions->chunk);
  // The parts as an .omf would hold them (what the glTF -> .omf import reads), as for 0x1A.
  jset["params_version"] = 3;
  nlohmann::json parts = nlohmann::json::array();
  for (const auto& part : parts_by_bone(f, warnings)) {
    nlohmann::json jp;
    put_name(jp, "name", part.name);
    jp["bones"] = nlohmann::json::array();
    for (const auto& b : part.bones) {
      nlohmann::json jb;
      put_name(jb, "name", b.name);
      jb["index"] = b.index;
      jp["bones"].push_back(std::move(jb));
    }
    parts.push_back(std::move(jp));
  }
  jset["parts"] = std::move(parts);
  sets.push_back(std::move(jset));
  std::uint64_t total = 0;
  std::size_t float_tracks = 0;
  const auto by_name = key_sets_by_name(*f.motions);
  for (std::size_t m = 0; m < p.motions.size(); ++m) {
    const Ogf3MotionParams& mp = p.motions[m];
    if (!wanted(o.motions, mp.name)) continue;
    const Ogf3Motion* k = key_set(*f.motions, by_name, mp.name);
    const std::string where = "0xE motion \"" + printable(mp.name) + "\"";
    if (k == nullptr) {
      warnings.add(Severity::warning, mp.offset, where, "motion without a key set of its name: left out", "a key set", "none");
      continue;
    }
    if (!k->readable) return k->readable.error();
    if (k->bones.size() != n)
      return Finding{Severity::error, k->offset, where, "wrong number of bone records", std::to_string(n),
                     std::to_string(k->bones.size())};
    if (k->frames > kMaxMotionFrames)
      return Finding{Severity::error, k->frames_offset, where, "motion too long to convert",
                     "<= " + frames_text(kMaxMotionFrames), std::to_string(k->frames) + " frames"};
    if ((total += k->frames) > kMaxTotalFrames)
      return Finding{Severity::error, k->frames_offset, where, "motions too long in total to convert",
                     "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(total) + " frames up to here"};
    scene::Animation a;
    a.name = cp1251_to_utf8(mp.name);
    nlohmann::json x;
    x["motion_set"] = set_index;
    x["index"] = m;
    put_name(x, "name", mp.name);
    x["frames"] = k->frames;
    x["flags"] = mp.flags;
    x["flag_words"] = motion_flag_words(mp.flags);
    x["bone_or_part"] = mp.bone_or_part;
    x["motion_id"] = mp.motion_id;
    x["speed"] = compact_float(mp.speed);
    x["power"] = compact_float(mp.power);
    x["accrue"] = compact_float(mp.accrue);
    x["falloff"] = compact_float(mp.falloff);
    json_of(a.extras)["xray"] = std::move(x);
    const bool held = k->frames == 1;
    a.timelines.push_back({{0.0f}});
    if (!held) {
      a.timelines[0].times.push_back(float(k->frames - 1) / float(kSampleFps));
      scene::Timeline t;
      t.times.resize(k->frames);
      for (std::uint32_t i = 0; i < k->frames; ++i) t.times[i] = float(i) / float(kSampleFps);
      a.timelines.push_back(std::move(t));
    }
    std::vector<std::uint8_t> rotations(std::size_t{k->frames} * 8);  // one bone's keys at a time
    for (std::size_t r = 0; r < n; ++r) {
      const Ogf3BoneKeys& b = k->bones[r];
      for (std::size_t i = 0; i < k->frames; ++i)
        std::copy_n(b.keys.data() + i * 20, 8, rotations.data() + i * 8);
      BoneKeys rot_keys;
      rot_keys.rotation_keys = rotations;
      scene::Channel rot{std::uint32_t(r), scene::Channel::Path::rotation, held ? 0u : 1u, {}, {}};
      float_tracks += export_rotation(rot_keys, k->frames, false, o.float_rotations, rot).floats && !o.float_rotations;
      a.channels.push_back(std::move(rot));
      scene::Channel tr{std::uint32_t(r), scene::Channel::Path::translation, held ? 0u : 1u, {}, {}};
      tr.values.resize(std::size_t{k->frames} * 3);
      bool warned = false;
      for (std::size_t i = 0; i < k->frames; ++i) {
        Vec3 t = b.translation(i);
        const bool is_finite = std::isfinite(t.x) && std::isfinite(t.y) && std::isfinite(t.z);
        if (!is_finite || std::max({std::fabs(t.x), std::fabs(t.y), std::fabs(t.z)}) > kAbsurdTranslation) {
          if (!warned)
            warnings.add(Severity::warning, b.offset + i * 20 + 8, where + " bone " + s.skeleton.joints[r].name,
                         is_finite ? "absurd translation magnitude exported as stored (the engine plays it)"
                                : "non-finite translation replaced by the bind position",
                         "|t| <= 1e4 m", is_finite ? "more" : "NaN or infinity");
          warned = true;
          if (!is_finite) {
            const auto& j = s.skeleton.joints[r];
            t = {j.translation.x, j.translation.y, -j.translation.z};
          }
        }
        const Vec3 g = to_gltf(t);
        tr.values[i * 3] = g.x, tr.values[i * 3 + 1] = g.y, tr.values[i * 3 + 2] = g.z;
      }
      a.channels.push_back(std::move(tr));
    }
    s.animations.push_back(std::move(a));
  }
  if (float_tracks > 0)
    warnings.add(Severity::warning, 0, "0xE", "rotation tracks written as normalised floats: a key is not near unit "
                 "length or holds -32768", "stored 16-bit components", std::to_string(float_tracks) + " track(s)");
  return {};
}

}  // namespace

// 0x1A: a motion set of the .omf model over the same bytes (rotation keys and 8-bit translation
// tracks are views); flags become the .omf's "translation keyed" bit, rotations are never static.
MotionSet motion_set_of(const OgfV3File& f, Diagnostics& warnings) {
  MotionSet set;
  set.motions_raw_id = f.motions->chunk;
  set.motions_offset = f.motions->offset;
  set.declared_count = f.motions->declared_count;
  set.params.raw_id = f.params->chunk;
  set.params.offset = f.params->offset;
  set.params.version = 3;
  set.params.parts = parts_by_bone(f, warnings);
  const auto by_name = key_sets_by_name(*f.motions);
  for (const auto& m : f.params->motions) {
    const Ogf3Motion* k = key_set(*f.motions, by_name, m.name);
    if (k == nullptr) {
      warnings.add(Severity::warning, m.offset, hex(f.params->chunk) + " motion " + printable(m.name),
                   "motion without a key set of its name: left out", "a key set", "none");
      continue;
    }
    set.params.motions.push_back(params_of(m));
    MotionKeys mk;
    mk.raw_id = k->raw_id;
    mk.offset = k->offset;
    mk.name = k->name;
    mk.frames = k->frames;
    mk.readable = k->readable;
    for (const auto& b : k->bones) {
      BoneKeys bk;
      bk.offset = b.offset;
      bk.flags = b.flags != 0 ? kFlagTKeysPresent : 0;
      bk.rotation_crc = b.rotation_crc;
      bk.rotation_keys = b.keys;
      bk.translation_crc = b.translation_crc;
      bk.translation_keys = b.translation_keys;
      bk.translation_size = b.size;
      bk.translation_init = b.init;
      mk.bones.push_back(bk);
    }
    set.motions.push_back(std::move(mk));
  }
  return set;
}

Status add_embedded_motions(scene::Scene& s, const OgfV3File& f, const OgfFile& v4, const MotionExportOptions& o,
                            Diagnostics& warnings) {
  if (f.motions->floats()) return float_layout(s, f, o, warnings);
  return new_layout(s, f, v4, o, warnings);
}

}  // namespace boneyard::xray::ogf3
