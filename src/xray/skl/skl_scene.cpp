// .skl/.skls <-> the neutral scene, through what the .omf adapters use: the skeleton and extras of
// xray_scene.cpp, the importer's sampling of xray_import_motion.h (docs/xray-sdk.md "Conversions").
#include "boneyard/xray/skl/skl_scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/sdk_pose.h"
#include "boneyard/xray/skl/skl_convert.h"
#include "boneyard/xray/xray_scene.h"
#include "skl_keys.h"
#include "skl_sampler.h"
#include "xray/scene/xray_import_motion.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray {

namespace {

nlohmann::json vec3_json(const Vec3& v) {
  return nlohmann::json::array({compact_float(v.x), compact_float(v.y), compact_float(v.z)});
}

nlohmann::json parts_json(const std::vector<BonePart>& parts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& part : parts) {
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
    out.push_back(std::move(jp));
  }
  return out;
}

// The .omf export's animation extras for a motion, and the header only an .skls has.
nlohmann::json motion_extras(const SklMotion& m, std::size_t index, std::uint64_t frames) {
  nlohmann::json x;
  x["motion_set"] = 0;
  x["index"] = index;
  put_name(x, "name", m.name);
  put_name(x, "keys_name", m.name);
  x["frames"] = frames;
  x["flags"] = m.flags;
  x["flag_words"] = motion_flag_words(m.flags);
  x["bone_or_part"] = m.bone_or_part & 0xFFFFu;
  x["motion_id"] = index;
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
  x["skl"] = {{"version", m.version}, {"fps", compact_float(m.fps)}, {"frame_start", m.frame_start}};
  return x;
}

bool wanted(const std::vector<std::string>& globs, const std::string& cp1251_name) {
  if (globs.empty()) return true;
  const std::string name = cp1251_to_utf8(cp1251_name);
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return glob_match(g, name); });
}

// The unit quaternion (glTF space) of a compiled key's rotation.
Quat gltf_rotation(const Rot3<double>& r) {
  auto q = quaternion_of(r);
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {float(q[0] / n), float(q[1] / n), float(-q[2] / n), float(q[3] / n)};
}

std::array<double, 4> unit_key_of(const Quat& q) {
  const double n = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
  if (!(n > 0) || !std::isfinite(n)) return {0, 0, 0, 1};
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// A channel whose every sample is the same is written as held (two keys); else keyed per frame.
template <std::size_t N>
bool constant(const std::vector<float>& v) {
  for (std::size_t i = N; i < v.size(); ++i)
    if (v[i] != v[i % N]) return false;
  return true;
}

}  // namespace

Result<scene::Scene> skl_to_scene(const std::vector<SklMotion>& motions, std::string_view name,
                                  const SklExportOptions& o, Diagnostics& warnings) {
  const MotionSkeleton own = o.skeleton ? MotionSkeleton{} : motion_skeleton(motions);
  const MotionSkeleton& sk = o.skeleton ? *o.skeleton : own;
  if (sk.bones.empty())
    return Finding{Severity::error, 0, "skeleton", "no bones to export the motions on", ">= 1 bone", "0"};
  scene::Scene s;
  s.generator = "boneyard";
  s.skeleton.name = std::string(name);
  for (const auto& b : sk.bones) {
    scene::Joint j;
    j.name = cp1251_to_utf8(b.name);
    j.parent = b.parent;
    nlohmann::json x;
    put_name(x, "name", b.name);
    if (sk.rest_known) {
      j.translation = to_gltf(b.rest_offset);
      j.rotation = to_gltf(bind_quaternion(b.rest_rotate));
      x["bind_rotation"] = vec3_json(b.rest_rotate);
      x["bind_position"] = vec3_json(b.rest_offset);
    }
    json_of(j.extras)["xray"] = std::move(x);
    s.skeleton.joints.push_back(std::move(j));
  }
  std::vector<BonePart> parts = sk.parts;
  if (parts.empty()) {
    parts.push_back({"default", {}, 0});
    for (std::uint32_t i = 0; i < sk.bones.size(); ++i) parts[0].bones.push_back({sk.bones[i].name, i, 0});
  }
  auto& xs = json_of(s.extras)["xray"];
  xs["motion_sets"] = nlohmann::json::array({{{"source", std::string(name)}, {"params_version", 4}, {"parts", parts_json(parts)}}});
  if (!sk.rest_known) {
    xs["flat_armature"] = true;
    warnings.add(Severity::warning, 0, "skeleton",
                 "no skeleton given: the bones are a flat armature with identity rest poses (the keys are parent-relative, "
                 "so the pose is not the model's; give --skeleton model.ogf or .object)",
                 "", std::to_string(sk.bones.size()) + " bones");
  }
  MotionSampler sampler(sk);
  std::uint64_t total_frames = 0;
  std::size_t lacking = 0, extra = 0;
  const std::size_t n = sk.bones.size();
  std::vector<std::vector<float>> rot(n), tr(n);
  for (std::size_t m = 0; m < motions.size(); ++m) {
    const SklMotion& sm = motions[m];
    if (!wanted(o.motions, sm.name)) continue;
    const std::string where = "motion " + std::to_string(m) + " \"" + printable(sm.name) + "\"";
    const std::int64_t frames = std::int64_t{sm.frame_end} - std::int64_t{sm.frame_start} + 1;
    if (frames < 1)
      return Finding{Severity::error, sm.offset, where, "motion without frames", "end >= start",
                     std::to_string(sm.frame_start) + ".." + std::to_string(sm.frame_end)};
    if (!(sm.fps > 0) || !std::isfinite(sm.fps))
      return Finding{Severity::error, sm.offset, where, "fps must be a positive number", "> 0", std::to_string(sm.fps)};
    if (static_cast<std::uint64_t>(frames) > kMaxMotionFrames)
      return Finding{Severity::error, sm.offset, where, "motion too long to convert", "<= " + frames_text(kMaxMotionFrames),
                     std::to_string(frames) + " frames"};
    total_frames += static_cast<std::uint64_t>(frames);
    if (total_frames > kMaxTotalFrames)
      return Finding{Severity::error, sm.offset, where,
                     "motions too long in total to convert (the limit is for all motions of one conversion)",
                     "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(total_frames) + " frames up to here"};
    std::size_t unmatched = 0;
    const auto matched = match_bones(sm, sk, unmatched);
    if (unmatched > 0) ++extra;
    if (std::count(matched.begin(), matched.end(), nullptr) > 0) {
      if (!sk.rest_known)
        return Finding{Severity::error, sm.offset, where,
                       "the motion lacks bones of the first motion, and without --skeleton there is no rest pose for them",
                       std::to_string(n) + " bones", std::to_string(n - static_cast<std::size_t>(std::count(matched.begin(), matched.end(), nullptr)))};
      ++lacking;
    }
    const auto count = static_cast<std::size_t>(frames);
    sampler.start(matched);
    for (std::size_t i = 0; i < n; ++i) {
      rot[i].resize(count * 4);
      tr[i].resize(count * 3);
    }
    for (std::size_t f = 0; f < count; ++f) {
      sampler.sample(static_cast<float>(std::int64_t{sm.frame_start} + static_cast<std::int64_t>(f)) / sm.fps);
      for (std::size_t i = 0; i < n; ++i) {
        const BoneFrame& k = sampler.key(i);
        const Quat q = gltf_rotation(k.d.r);
        float* r = rot[i].data() + f * 4;
        r[0] = q.x, r[1] = q.y, r[2] = q.z, r[3] = q.w;
        const Vec3 t = to_gltf(Vec3{k.f.c[0], k.f.c[1], k.f.c[2]});
        float* v = tr[i].data() + f * 3;
        v[0] = t.x, v[1] = t.y, v[2] = t.z;
      }
    }
    scene::Animation a;
    a.name = cp1251_to_utf8(sm.name);
    json_of(a.extras)["xray"] = motion_extras(sm, m, static_cast<std::uint64_t>(count));
    scene::Timeline held{{0.0f}};
    if (count > 1) held.times.push_back(static_cast<float>(count - 1) / static_cast<float>(kSampleFps));
    a.timelines.push_back(held);
    scene::Timeline full;
    full.times.resize(count);
    for (std::size_t f = 0; f < count; ++f) full.times[f] = static_cast<float>(f) / static_cast<float>(kSampleFps);
    if (count > 1) a.timelines.push_back(std::move(full));
    const std::size_t held_keys = a.timelines[0].times.size();
    for (std::size_t i = 0; i < n; ++i) {
      scene::make_sign_continuous(rot[i]);
      scene::Channel rc{static_cast<std::uint32_t>(i), scene::Channel::Path::rotation, 0, {}, {}};
      if (count == 1 || constant<4>(rot[i])) {
        rc.values.assign(rot[i].begin(), rot[i].begin() + 4);
        for (std::size_t k = 1; k < held_keys; ++k) rc.values.insert(rc.values.end(), rot[i].begin(), rot[i].begin() + 4);
      } else {
        rc.timeline = 1;
        rc.values = rot[i];
      }
      a.channels.push_back(std::move(rc));
      scene::Channel tc{static_cast<std::uint32_t>(i), scene::Channel::Path::translation, 0, {}, {}};
      if (count == 1 || constant<3>(tr[i])) {
        tc.values.assign(tr[i].begin(), tr[i].begin() + 3);
        for (std::size_t k = 1; k < held_keys; ++k) tc.values.insert(tc.values.end(), tr[i].begin(), tr[i].begin() + 3);
      } else {
        tc.timeline = 1;
        tc.values = tr[i];
      }
      a.channels.push_back(std::move(tc));
    }
    s.animations.push_back(std::move(a));
  }
  if (lacking > 0)
    warnings.add(Severity::warning, 0, "motions",
                 "motions lack bones of the skeleton (" + sk.source + "): those bones keep their rest pose, as the SDK gives them",
                 "", std::to_string(lacking) + " motion(s)");
  if (extra > 0)
    warnings.add(Severity::warning, 0, "motions", "motions have bones the skeleton (" + sk.source + ") lacks: left out", "",
                 std::to_string(extra) + " motion(s)");
  return s;
}

Result<SklFile> scene_to_skl(const scene::Scene& s, const SklImportOptions& o, Diagnostics& warnings) {
  XrayImportOptions io;
  io.skeleton = o.skeleton;
  io.model = o.model;
  import_detail::SceneMotions motions(s, io, warnings);
  if (auto e = motions.prepare()) return *e;
  const auto& table = motions.table();
  const std::size_t n = motions.bones();
  // The roots an object's ACTORTRANSFORM was applied to (the export put them in it).
  std::vector<bool> in_actor(n, false);
  Pose actor_inverse;
  if (o.model && o.model->actor_transform) {
    const auto& t = *o.model->actor_transform;
    Pose actor;
    actor.r = set_hpb<double>(t[1].y, t[1].x, t[1].z);
    actor.c = {t[0].x, t[0].y, t[0].z};
    actor_inverse = inverse(actor);
    for (std::size_t r = 0; r < n; ++r)
      for (const auto& b : o.model->bones)
        if (b.parent < 0 && lower_ascii(b.name) == lower_ascii(table.names[r])) in_actor[r] = true;
  }
  SklFile out;
  out.container = SklContainer::skls;
  std::array<SteppedChannel, kMotionChannels> channels;
  for (std::size_t a = 0; a < s.animations.size(); ++a) {
    import_detail::SceneMotion motion;
    if (auto e = motions.begin_motion(a, motion)) return *e;
    if (auto e = motions.motion_frames(std::nullopt, motion)) return *e;
    const nlohmann::json& x = *motion.extras;
    SklMotion sm;
    sm.name = motion.name;
    const auto* skl = import_detail::member(x, "skl");
    const nlohmann::json none;
    const nlohmann::json& sx = skl ? *skl : none;
    sm.fps = import_detail::number<float>(sx, "fps").value_or(static_cast<float>(kSampleFps));
    if (!(sm.fps > 0) || !std::isfinite(sm.fps)) sm.fps = static_cast<float>(kSampleFps);
    sm.frame_start = import_detail::number<std::int32_t>(sx, "frame_start").value_or(0);
    sm.frame_end = static_cast<std::int32_t>(std::int64_t{sm.frame_start} + static_cast<std::int64_t>(motion.frames) - 1);
    sm.flags = import_detail::number<std::uint32_t>(x, "flags").value_or(0) & 0xFFu;
    sm.bone_or_part = import_detail::number<std::uint16_t>(x, "bone_or_part").value_or(kNoBoneOrPart);
    sm.speed = import_detail::number<float>(x, "speed").value_or(1.0f);
    sm.power = import_detail::number<float>(x, "power").value_or(1.0f);
    sm.accrue = import_detail::number<float>(x, "accrue").value_or(2.0f);
    sm.falloff = import_detail::number<float>(x, "falloff").value_or(2.0f);
    if (const auto* marks = import_detail::member(x, "marks"); marks && marks->is_array())
      for (const auto& jm : *marks) {
        MotionMark mk;
        mk.name = import_detail::extras_name(jm, "name").value_or("");
        if (const auto* iv = import_detail::member(jm, "intervals"); iv && iv->is_array())
          for (const auto& p : *iv)
            if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
              mk.intervals.push_back({p[0].get<float>(), p[1].get<float>()});
        sm.marks.push_back(std::move(mk));
      }
    const auto version = import_detail::number<std::uint16_t>(sx, "version");
    sm.version = version && (*version == 6 || *version == 7) ? *version : std::uint16_t{6};
    if (!sm.marks.empty()) sm.version = 7;
    sm.bones.resize(n);
    const std::size_t frames = motion.held ? 1 : static_cast<std::size_t>(motion.frames);
    for (std::size_t r = 0; r < n; ++r) {
      const import_detail::RecordSource src = motions.source(r, nullptr, 0, motion.sampled);
      for (auto& c : channels) c.clear();
      std::array<double, 3> angles{};
      for (std::size_t f = 0; f < frames; ++f) {
        const float time = static_cast<float>(std::int64_t{sm.frame_start} + static_cast<std::int64_t>(f)) / sm.fps;
        const Quat q = src.rot(f);
        const Vec3 t = src.tr(f);
        Pose local;
        local.r = rotation_of(unit_key_of(q));
        local.c = {t.x, t.y, t.z};
        if (in_actor[r]) local = compose(local, actor_inverse);
        angles = envelope_angles(local.r, f == 0 ? nullptr : &angles);
        for (int c = 0; c < 3; ++c) channels[c].add(time, static_cast<float>(local.c[c]));
        for (int c = 0; c < 3; ++c) channels[3 + c].add(time, static_cast<float>(angles[c]));
      }
      std::array<Envelope, kMotionChannels> envelopes;
      for (std::size_t c = 0; c < kMotionChannels; ++c) envelopes[c] = channels[c].envelope();
      sm.bones[r] = make_skl_bone(out.keep_text(table.names[r]), 0, EnvelopeLayout::v2, envelopes, *out.owned);
    }
    out.motions.push_back(std::move(sm));
  }
  motions.warn_summaries();
  out.declared_count = static_cast<std::uint32_t>(out.motions.size());
  return out;
}

}  // namespace boneyard::xray
