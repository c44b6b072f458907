// OGF skeleton + motion sets -> neutral scene in glTF space. Derivation of the mapping:
// docs/xray-gltf.md. In short: X-Ray matrices are row-vector (v' = v * M) and Fmatrix::rotation(q)
// stores the standard matrix R(q), so the rotation the engine applies is R(q)^T = R(conj q). Mirroring
// Z (S = diag(1, 1, -1)) maps a column-form transform A to S A S; for A = R(conj q) that is the
// rotation with quaternion (x, y, -z, w) of the stored q, and translations become (x, y, -z).
#include "boneyard/xray/xray_scene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "xray_scene_internal.h"

namespace boneyard::xray {

namespace {

// Absurd but finite translations occur in real files (size 0, init ~4.7e19): the engine plays them.
constexpr float kAbsurdTranslation = 1.0e4f;  // metres

nlohmann::json vec3_json(const Vec3& v) {
  return nlohmann::json::array({compact_float(v.x), compact_float(v.y), compact_float(v.z)});
}

nlohmann::json parts_json(const Params& p) {
  nlohmann::json parts = nlohmann::json::array();
  for (const auto& part : p.parts) {
    nlohmann::json jp;
    put_name(jp, "name", part.name);
    nlohmann::json bones = nlohmann::json::array();
    for (const auto& b : part.bones) {
      nlohmann::json jb;
      put_name(jb, "name", b.name);
      jb["index"] = b.index;
      bones.push_back(std::move(jb));
    }
    jp["bones"] = std::move(bones);
    parts.push_back(std::move(jp));
  }
  return parts;
}

nlohmann::json motion_json(const MotionParams& m, const MotionKeys& k, std::size_t set_index, std::size_t index) {
  nlohmann::json x;
  x["motion_set"] = set_index;
  x["index"] = index;
  put_name(x, "name", m.name);
  put_name(x, "keys_name", k.name);  // 0xE copy of the name (ignored by the engine; garbage in some files)
  x["frames"] = k.frames;
  x["flags"] = m.flags;
  x["flag_words"] = motion_flag_words(m.flags);
  x["bone_or_part"] = m.bone_or_part;
  x["motion_id"] = m.motion_id;
  x["speed"] = compact_float(m.speed);
  x["power"] = compact_float(m.power);
  x["accrue"] = compact_float(m.accrue);
  x["falloff"] = compact_float(m.falloff);
  nlohmann::json marks = nlohmann::json::array();
  for (const auto& mk : m.marks) {
    nlohmann::json jm;
    put_name(jm, "name", mk.name);
    nlohmann::json iv = nlohmann::json::array();
    for (const auto& i : mk.intervals) iv.push_back(nlohmann::json::array({compact_float(i.start), compact_float(i.end)}));
    jm["intervals"] = std::move(iv);
    marks.push_back(std::move(jm));
  }
  x["marks"] = std::move(marks);
  return x;
}

// Quaternion of a standard rotation matrix m[row][col] (Shepperd's method, in double).
Quat quat_from_matrix(const double m[3][3]) {
  const double tr = m[0][0] + m[1][1] + m[2][2];
  double x, y, z, w;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1.0) * 2;
    w = 0.25 * s;
    x = (m[2][1] - m[1][2]) / s;
    y = (m[0][2] - m[2][0]) / s;
    z = (m[1][0] - m[0][1]) / s;
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const double s = std::sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2;
    w = (m[2][1] - m[1][2]) / s;
    x = 0.25 * s;
    y = (m[0][1] + m[1][0]) / s;
    z = (m[0][2] + m[2][0]) / s;
  } else if (m[1][1] > m[2][2]) {
    const double s = std::sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2;
    w = (m[0][2] - m[2][0]) / s;
    x = (m[0][1] + m[1][0]) / s;
    y = 0.25 * s;
    z = (m[1][2] + m[2][1]) / s;
  } else {
    const double s = std::sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2;
    w = (m[1][0] - m[0][1]) / s;
    x = (m[0][2] + m[2][0]) / s;
    y = (m[1][2] + m[2][1]) / s;
    z = 0.25 * s;
  }
  return {float(x), float(y), float(z), float(w)};
}

// Frames of the motions already in the scene (their extras record the stored frame count).
std::uint64_t scene_frames(const scene::Scene& s) {
  std::uint64_t total = 0;
  for (const auto& a : s.animations) {
    const auto x = json_of(a.extras).find("xray");
    if (x == json_of(a.extras).end()) continue;
    const auto f = x->find("frames");
    if (f != x->end() && f->is_number_unsigned()) total += f->get<std::uint64_t>();
  }
  return total;
}

// True when some record of the motion has per-frame keys (the 30 fps time ramp is needed).
bool any_keyed(const MotionKeys& k) {
  for (const BoneKeys& b : k.bones)
    if (!b.rotation_static() || b.translation_keyed()) return true;
  return false;
}

// Key times of the tracks that hold one value: t = 0, and the motion's end ((frames - 1) / 30 s)
// when it lasts longer than one frame.
scene::Timeline held_timeline(std::uint32_t frames) {
  scene::Timeline t{{0.0f}};
  if (frames > 1) t.times.push_back(static_cast<float>(frames - 1) / static_cast<float>(kSampleFps));
  return t;
}

// The motion's frame count against kMaxMotionFrames, and the conversion's running total against
// kMaxTotalFrames: static tracks store one key whatever the count, so the bytes bound neither.
std::optional<Finding> check_frame_limits(const MotionKeys& k, const MotionParams& params, std::size_t m,
                                          std::uint64_t& total) {
  const std::string path = "0xE/" + std::to_string(m + 1) + " motion \"" + printable(params.name) + "\"";
  if (k.frames > kMaxMotionFrames)
    return Finding{Severity::error, k.frames_offset(), path, "motion too long to convert",
                   "<= " + frames_text(kMaxMotionFrames), std::to_string(k.frames) + " frames"};
  total += k.frames;
  if (total > kMaxTotalFrames)
    return Finding{Severity::error, k.frames_offset(), path,
                   "motions too long in total to convert (the limit is for all motions of one conversion)",
                   "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(total) + " frames up to here"};
  return std::nullopt;
}

// --motions: a motion is exported when its (UTF-8) name matches one of the globs, or there are none.
bool wanted(const std::vector<std::string>& globs, const std::string& cp1251_name) {
  if (globs.empty()) return true;
  const std::string name = cp1251_to_utf8(cp1251_name);
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return glob_match(g, name); });
}

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool absurd(const Vec3& v) {
  return std::fabs(v.x) > kAbsurdTranslation || std::fabs(v.y) > kAbsurdTranslation ||
         std::fabs(v.z) > kAbsurdTranslation;
}

}  // namespace

void put_name(nlohmann::json& j, const char* key, const std::string& raw) {
  j[key] = cp1251_to_utf8(raw);
  const auto back = utf8_to_cp1251(j[key].get<std::string>());
  if (!back || *back != raw) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string h;
    for (unsigned char c : raw) {
      h += kHex[c >> 4];
      h += kHex[c & 15];
    }
    j[std::string(key) + "_hex"] = h;
  }
}

Quat to_gltf(const Quat& stored) {
  const Quat n = scene::normalized(stored);
  return {n.x, n.y, -n.z, n.w};
}

Quat bind_quaternion(const Vec3& r) {
  // Fmatrix::setHPB(h, p, b) with h = -y, p = -x, b = -z (setXYZi); rows are i, j, k.
  const double h = -double(r.y), p = -double(r.x), b = -double(r.z);
  const double sh = std::sin(h), ch = std::cos(h), sp = std::sin(p), cp = std::cos(p), sb = std::sin(b),
               cb = std::cos(b);
  const double cc = ch * cb, cs = ch * sb, sc = sh * cb, ss = sh * sb;
  const double m[3][3] = {{cc - sp * ss, -cp * sb, sp * cs + sc},
                          {sp * sc + cs, cp * cb, ss - sp * cc},
                          {-cp * sh, sp, cp * ch}};
  // The stored matrix is R(q) for the q returned here, exactly as for key quaternions.
  return quat_from_matrix(m);
}

Result<scene::Scene> skeleton_scene(const OgfFile& ogf, std::string_view name) {
  if (ogf.bones.empty())
    return Finding{Severity::error, 0, "0xD", "model has no skeleton to export", "chunk 0xD with bones", "none"};
  Diagnostics tree;
  validate_bone_tree(ogf, tree);
  for (const auto& f : tree.findings())
    if (f.severity == Severity::error) return f;
  scene::Scene s;
  s.generator = "boneyard";
  s.skeleton.name = std::string(name);
  s.skeleton.joints.reserve(ogf.bones.size());
  for (const auto& b : ogf.bones) {
    scene::Joint j;
    j.name = cp1251_to_utf8(b.name);
    j.parent = b.parent;
    nlohmann::json x;
    put_name(x, "name", b.name);
    if (!b.ik) {
      // No IK data (0x10): the engine leaves the bind pose unset; each bone is taken at its
      // parent's origin, which is also what a model made again from the glTF gets.
      json_of(j.extras)["xray"] = std::move(x);
      s.skeleton.joints.push_back(std::move(j));
      continue;
    }
    const IkData& ik = *b.ik;
    j.translation = to_gltf(ik.bind_position);
    j.rotation = to_gltf(bind_quaternion(ik.bind_rotation));
    put_name(x, "game_mtl", ik.game_mtl);
    x["bind_rotation"] = vec3_json(ik.bind_rotation);
    x["bind_position"] = vec3_json(ik.bind_position);
    x["mass"] = compact_float(ik.mass);
    x["center_of_mass"] = vec3_json(ik.center_of_mass);
    x["joint_type"] = ik.joint.type;
    json_of(j.extras)["xray"] = std::move(x);
    s.skeleton.joints.push_back(std::move(j));
  }
  json_of(s.extras)["xray"]["motion_sets"] = nlohmann::json::array();
  return s;
}

void warn_no_bind_pose(const OgfFile& ogf, Diagnostics& warnings) {
  if (ogf.bones.empty() || ogf.has_ik) return;
  warnings.add(Severity::warning, 0, "0x10",
               "no IK data: the bind pose is not stored (the engine leaves it unset); exported with every bone at its "
               "parent's origin, as a model made again from the glTF will have it",
               "chunk 0x10", "none");
}

scene::Scene flat_scene(const MotionSet& set, std::string_view name) {
  scene::Scene s;
  s.generator = "boneyard";
  s.skeleton.name = std::string(name);
  const Params& p = set.params;
  const std::size_t n = p.bone_count();
  s.skeleton.joints.resize(n);
  std::size_t position = 0;
  for (const auto& part : p.parts)
    for (const auto& b : part.bones) {
      // v2 has no index (the position is the index); v3/v4 store the motion-bone index.
      const std::size_t i = p.version == 2 ? position : b.index;
      ++position;
      if (i >= n || !s.skeleton.joints[i].name.empty()) continue;  // add_motions reports these
      s.skeleton.joints[i].name = b.name.empty() ? "bone_" + std::to_string(i) : cp1251_to_utf8(b.name);
    }
  for (std::size_t i = 0; i < n; ++i)
    if (s.skeleton.joints[i].name.empty()) s.skeleton.joints[i].name = "bone_" + std::to_string(i);
  json_of(s.extras)["xray"]["motion_sets"] = nlohmann::json::array();
  json_of(s.extras)["xray"]["flat_armature"] = true;
  return s;
}

namespace {

// rm[motion-bone index] = joint, as motions_value::load builds it; errors when the set does not
// fit the skeleton.
Status motion_bone_map(const scene::Scene& s, const OgfFile* ogf, const MotionSet& set, std::vector<int>& rm) {
  const Params& p = set.params;
  const std::size_t n = s.skeleton.joints.size();
  if (p.bone_count() != n)
    return Finding{Severity::error, p.offset, "0xF parts", "bone-count mismatch between the motions and the skeleton",
                   std::to_string(n) + " bones", std::to_string(p.bone_count())};
  if (ogf != nullptr && (p.version < 2 || p.parts_without_names))
    return Finding{Severity::error, p.offset, "0xF parts", "bone parts carry no names, so bones cannot be matched",
                   "params version 3 or 4 with names", "version " + std::to_string(p.version)};
  rm.assign(n, -1);
  const std::optional<BoneLookup> skeleton = ogf != nullptr ? std::optional<BoneLookup>(ogf->bones) : std::nullopt;
  std::size_t position = 0;
  for (const auto& part : p.parts)
    for (const auto& b : part.bones) {
      const std::size_t index = p.version == 2 ? position : b.index;
      const int joint = skeleton ? skeleton->find(b.name) : static_cast<int>(index);
      ++position;
      if (joint < 0)
        return Finding{Severity::error, b.offset, "0xF part bone", "bone name missing from the skeleton",
                       "one of the model's bones", printable(b.name)};
      if (index >= n || rm[index] >= 0)
        return Finding{Severity::error, b.offset, "0xF part bone " + printable(b.name),
                       "motion-bone indices are not a permutation", "unique index < " + std::to_string(n),
                       std::to_string(index)};
      rm[index] = joint;
    }
  return {};
}

}  // namespace

Status motions_fit(const scene::Scene& s, const OgfFile* ogf, const MotionSet& set) {
  std::vector<int> rm;
  return motion_bone_map(s, ogf, set, rm);
}

Status add_motions(scene::Scene& s, const OgfFile* ogf, const MotionSet& set, std::string_view source,
                   Diagnostics& warnings, const MotionExportOptions& options) {
  std::uint64_t frames = scene_frames(s);
  return add_motion_set(s, ogf, set, source, warnings, options, frames);
}

Status add_motion_set(scene::Scene& s, const OgfFile* ogf, const MotionSet& set, std::string_view source,
                      Diagnostics& warnings, const MotionExportOptions& options, std::uint64_t& total_frames) {
  const Params& p = set.params;
  const std::size_t n = s.skeleton.joints.size();
  std::vector<int> rm;
  if (auto fit = motion_bone_map(s, ogf, set, rm); !fit) return fit;
  if (set.motions.size() < p.motions.size())
    return Finding{Severity::error, set.motions_offset, "0xE", "fewer key sets than motion params (0xF)",
                   std::to_string(p.motions.size()), std::to_string(set.motions.size())};
  if (set.motions.size() > p.motions.size())
    warnings.add(Severity::warning, set.motions_offset, std::string(source) + " 0xE",
                 "key sets without params are never played; skipped", std::to_string(p.motions.size()),
                 std::to_string(set.motions.size()));

  const std::size_t set_index = json_of(s.extras)["xray"]["motion_sets"].size();
  nlohmann::json jset;
  jset["source"] = std::string(source);
  jset["params_version"] = p.version;
  jset["parts"] = parts_json(p);
  json_of(s.extras)["xray"]["motion_sets"].push_back(std::move(jset));

  std::size_t float_tracks = 0;
  for (std::size_t m = 0; m < p.motions.size(); ++m) {
    if (!wanted(options.motions, p.motions[m].name)) continue;
    const MotionKeys& k = set.motions[m];
    const std::string where = std::string(source) + " motion " + std::to_string(m);
    if (!k.readable) {
      Finding f = k.readable.error();
      f.path = where + " " + f.path;
      return f;
    }
    if (k.bones.size() != n)
      return Finding{Severity::error, k.offset, "0xE/" + std::to_string(m + 1), "wrong number of bone records",
                     std::to_string(n), std::to_string(k.bones.size())};
    if (k.frames == 0)
      return Finding{Severity::error, k.offset, "0xE/" + std::to_string(m + 1), "motion has no frames", ">= 1", "0"};
    if (auto err = check_frame_limits(k, p.motions[m], m, total_frames)) return *err;
    scene::Animation a;
    a.name = cp1251_to_utf8(p.motions[m].name);
    json_of(a.extras)["xray"] = motion_json(p.motions[m], k, set_index, m);
    // Static and constant tracks hold one value: a key at 0 and, so that every DCC keeps the
    // motion's length even when all its tracks are static, the same value again at the end.
    a.timelines.push_back(held_timeline(k.frames));
    if (k.frames > 1 && any_keyed(k)) {
      scene::Timeline t;
      t.times.resize(k.frames);
      for (std::uint32_t i = 0; i < k.frames; ++i) t.times[i] = static_cast<float>(i) / static_cast<float>(kSampleFps);
      a.timelines.push_back(std::move(t));
    }
    a.channels.reserve(2 * n);
    std::vector<RotationExport> rotations(n);
    for (std::size_t r = 0; r < n; ++r) {
      const BoneKeys& bk = k.bones[r];
      const auto joint = static_cast<std::uint32_t>(rm[r]);
      scene::Channel rot{joint, scene::Channel::Path::rotation, 0, {}, {}};
      const bool rot_held = bk.rotation_static() || k.frames == 1;
      rot.timeline = rot_held ? 0 : 1;
      rotations[r] = export_rotation(bk, rot_held ? a.timelines[0].times.size() : k.frames, rot_held,
                                     options.float_rotations, rot);
      float_tracks += rotations[r].floats && !options.float_rotations;
      a.channels.push_back(std::move(rot));

      scene::Channel tr{joint, scene::Channel::Path::translation, 0, {}, {}};
      const bool tr_held = !bk.translation_keyed() || k.frames == 1;
      const std::size_t tkeys = tr_held ? a.timelines[0].times.size() : k.frames;
      tr.timeline = tr_held ? 0 : 1;
      tr.values.resize(tkeys * 3);
      bool warned = false;
      for (std::size_t f = 0; f < tkeys; ++f) {
        Vec3 t = bk.translation(tr_held ? 0 : f);
        if (!finite(t)) {
          // glTF forbids NaN/infinity; the rest pose is the least surprising stand-in.
          t = ogf != nullptr && ogf->bones[joint].ik ? ogf->bones[joint].ik->bind_position : Vec3{};
          if (!warned)
            warnings.add(Severity::warning, bk.offset, where + " bone " + s.skeleton.joints[joint].name,
                         "non-finite translation replaced by the bind position", "finite", "NaN or infinity");
          warned = true;
        } else if (absurd(t) && !warned) {
          warnings.add(Severity::warning, bk.offset, where + " bone " + s.skeleton.joints[joint].name,
                       "absurd translation magnitude exported as stored (the engine plays it)",
                       "|t| <= 1e4 m", std::to_string(std::max({std::fabs(t.x), std::fabs(t.y), std::fabs(t.z)})));
          warned = true;
        }
        const Vec3 g = to_gltf(t);
        float* v = tr.values.data() + f * 3;
        v[0] = g.x, v[1] = g.y, v[2] = g.z;
      }
      a.channels.push_back(std::move(tr));
    }
    // For a byte-exact re-import without the .omf (xray_import.h).
    json_of(a.extras)["xray"]["tracks"] = motion_tracks_extras(k, rotations, options.float_rotations);
    s.animations.push_back(std::move(a));
  }
  if (float_tracks > 0)
    warnings.add(Severity::warning, 0, std::string(source),
                 "rotation tracks written as normalised floats: a key is not near unit length or holds -32768, "
                 "which a normalised SHORT output cannot carry exactly",
                 "stored 16-bit components", std::to_string(float_tracks) + " track(s)");
  return {};
}

void resolve_duplicate_motions(scene::Scene& s, Diagnostics& warnings) {
  // Winner per (fx, lower-case name): the latest motion set; inside it, the first motion.
  std::map<std::pair<bool, std::string>, std::pair<std::size_t, std::size_t>> winner;  // -> (set, animation)
  auto key_of = [](const scene::Animation& a) {
    const auto& x = json_of(a.extras).at("xray");
    return std::make_pair((x.at("flags").get<std::uint32_t>() & kMotionFx) != 0, lower_ascii(a.name));
  };
  for (std::size_t i = 0; i < s.animations.size(); ++i) {
    const auto key = key_of(s.animations[i]);
    const std::size_t set = json_of(s.animations[i].extras).at("xray").at("motion_set").get<std::size_t>();
    auto it = winner.find(key);
    if (it == winner.end() || it->second.first < set) winner[key] = {set, i};
  }
  const auto& sets = json_of(s.extras)["xray"]["motion_sets"];
  std::vector<bool> keep(s.animations.size(), false);
  for (std::size_t i = 0; i < s.animations.size(); ++i) {
    const auto& w = winner[key_of(s.animations[i])];
    keep[i] = w.second == i;
    if (keep[i]) continue;
    const auto& lost = json_of(s.animations[i].extras).at("xray");
    const auto& won = json_of(s.animations[w.second].extras).at("xray");
    warnings.add(Severity::info, 0, "motion " + s.animations[i].name,
                 w.first == lost.at("motion_set").get<std::size_t>()
                     ? "duplicate motion name in one motion set: the engine keeps the first"
                     : "motion replaced by a later motion ref with the same name (the engine uses the last)",
                 sets[won.at("motion_set").get<std::size_t>()]["source"].get<std::string>() + " #" +
                     std::to_string(won.at("index").get<std::size_t>()),
                 sets[lost.at("motion_set").get<std::size_t>()]["source"].get<std::string>() + " #" +
                     std::to_string(lost.at("index").get<std::size_t>()));
  }
  std::vector<scene::Animation> kept;
  kept.reserve(winner.size());
  for (std::size_t i = 0; i < s.animations.size(); ++i)
    if (keep[i]) kept.push_back(std::move(s.animations[i]));
  s.animations = std::move(kept);
}

}  // namespace boneyard::xray
