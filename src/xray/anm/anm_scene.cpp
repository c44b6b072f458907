// .anm <-> the neutral scene: the object's transform per frame as CObjectAnimator builds it
// (setXYZi of the rotation envelopes, the position), mirrored into glTF space as every X-Ray
// transform (docs/xray-gltf.md section 2; docs/xray-sdk.md "Conversions").
#include "boneyard/xray/anm/anm_scene.h"

#include <cmath>
#include <numbers>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/sdk_pose.h"
#include "boneyard/xray/xray_scene.h"
#include "xray/scene/xray_import_bones.h"
#include "xray/scene/xray_import_internal.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray {

namespace {

constexpr std::uint8_t kLinear = static_cast<std::uint8_t>(EnvelopeShape::linear);
constexpr std::uint32_t kConstant = static_cast<std::uint32_t>(EnvelopeBehaviour::constant);

Quat gltf_rotation(const Rot3<double>& r) {
  auto q = quaternion_of(r);
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {float(q[0] / n), float(q[1] / n), float(-q[2] / n), float(q[3] / n)};
}

// Linear keys of one channel, one per sample, without the inner keys of a run of equal values
// (a linear span between equal values holds them: the same curve).
std::vector<EnvelopeKey> linear_keys(const std::vector<float>& times, const std::vector<float>& values) {
  std::vector<EnvelopeKey> keys;
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) {
    const bool inner = i > 0 && i + 1 < n && values[i] == values[i - 1] && values[i] == values[i + 1];
    if (inner) continue;
    EnvelopeKey k;
    k.value = values[i];
    k.time = times[i];
    k.shape = kLinear;
    keys.push_back(k);
  }
  return keys;
}

}  // namespace

Result<scene::Scene> anm_to_scene(const AnmFile& file, std::string_view name, const AnmExportOptions& o, Diagnostics&) {
  const AnmMotion& m = file.motion;
  const std::int64_t frames = std::int64_t{m.frame_end} - std::int64_t{m.frame_start} + 1;
  if (frames < 1)
    return Finding{Severity::error, m.offset, "motion", "motion without frames", "end >= start",
                   std::to_string(m.frame_start) + ".." + std::to_string(m.frame_end)};
  if (!(m.fps > 0) || !std::isfinite(m.fps))
    return Finding{Severity::error, m.offset, "motion", "fps must be a positive number", "> 0", std::to_string(m.fps)};
  if (static_cast<std::uint64_t>(frames) > kMaxMotionFrames)
    return Finding{Severity::error, m.offset, "motion", "motion too long to convert", "<= " + frames_text(kMaxMotionFrames),
                   std::to_string(frames) + " frames"};
  std::array<std::vector<EnvelopeKey>, kMotionChannels> keys;
  std::array<std::size_t, kMotionChannels> span{};
  std::array<bool, kMotionChannels> ordered{};
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    decode_envelope_keys(m.channel(static_cast<MotionChannel>(c)), keys[c]);
    ordered[c] = keys_in_time_order(keys[c]);
  }
  auto value = [&](std::size_t c, float t) {
    const Envelope& e = m.channel(static_cast<MotionChannel>(c));
    if (!ordered[c]) return evaluate_envelope(keys[c], e.pre, e.post, t);
    return evaluate_envelope(keys[c], e.pre, e.post, t, span[c]);
  };
  const auto count = static_cast<std::size_t>(frames);
  scene::Animation a;
  a.name = cp1251_to_utf8(m.name);
  scene::Timeline times;
  times.times.resize(count);
  scene::Channel rc{0, scene::Channel::Path::rotation, 0, {}, {}};
  scene::Channel tc{0, scene::Channel::Path::translation, 0, {}, {}};
  rc.values.resize(count * 4);
  tc.values.resize(count * 3);
  for (std::size_t f = 0; f < count; ++f) {
    const float t = static_cast<float>(std::int64_t{m.frame_start} + static_cast<std::int64_t>(f)) / m.fps;
    times.times[f] = static_cast<float>(f) / m.fps;
    const Quat q = gltf_rotation(envelope_rotation(double(value(3, t)), double(value(4, t)), double(value(5, t))));
    float* r = rc.values.data() + f * 4;
    r[0] = q.x, r[1] = q.y, r[2] = q.z, r[3] = q.w;
    const Vec3 p = to_gltf(Vec3{value(0, t), value(1, t), value(2, t)});
    float* v = tc.values.data() + f * 3;
    v[0] = p.x, v[1] = p.y, v[2] = p.z;
  }
  scene::make_sign_continuous(rc.values);
  for (std::size_t f = 1; f < count; ++f)
    if (!(times.times[f] > times.times[f - 1]))
      return Finding{Severity::error, m.offset, "motion", "frames too close in time for float seconds (fps too high)",
                     "increasing times", std::to_string(m.fps) + " fps"};
  a.timelines.push_back(std::move(times));
  scene::Scene s;
  s.generator = "boneyard";
  s.skeleton.name = std::string(name);
  scene::Joint j;
  j.name = m.name.empty() ? std::string(name) : cp1251_to_utf8(m.name);
  j.rotation = {rc.values[0], rc.values[1], rc.values[2], rc.values[3]};
  j.translation = {tc.values[0], tc.values[1], tc.values[2]};
  nlohmann::json jx;
  put_name(jx, "name", m.name);
  json_of(j.extras)["xray"] = std::move(jx);
  s.skeleton.joints.push_back(std::move(j));
  a.channels.push_back(std::move(rc));
  a.channels.push_back(std::move(tc));
  s.animations.push_back(std::move(a));
  nlohmann::json hx;
  put_name(hx, "name", m.name);
  hx["version"] = m.version;
  hx["fps"] = compact_float(m.fps);
  hx["frame_start"] = m.frame_start;
  hx["frame_end"] = m.frame_end;
  hx["camera"] = o.camera;
  json_of(s.extras)["xray"]["anm"] = std::move(hx);
  if (o.camera) {
    scene::Camera cam;
    cam.name = s.skeleton.joints[0].name;
    cam.joint = 0;
    cam.yfov = kDefaultCameraFov * static_cast<float>(std::numbers::pi / 180.0);
    cam.znear = 0.1f;
    s.cameras.push_back(std::move(cam));
  }
  return s;
}

Result<AnmFile> scene_to_anm(const scene::Scene& s, Diagnostics& warnings) {
  using import_detail::member;
  using import_detail::number;
  if (s.animations.empty()) return Finding{Severity::error, 0, "animations", "the glTF has no animations", ">= 1", "0"};
  if (s.animations.size() > 1)
    warnings.add(Severity::warning, 0, "animations", "an .anm holds one motion: the first animation is converted", "1 animation",
                 std::to_string(s.animations.size()));
  scene::Animation storage;  // the samples, when the read deferred them
  auto taken = scene::sampled_animation(s, 0, storage);
  if (!taken) return taken.error();
  const scene::Animation& a = *taken.value();
  const std::string aw = "animation \"" + escape_controls(a.name) + "\"";
  if (a.timelines.size() != 1 || a.timelines[0].times.empty())
    return Finding{Severity::error, 0, aw, "animation was not sampled (one timeline expected)", "", ""};
  // The node: the one with a camera, else the one our export wrote, else the first animated.
  std::vector<bool> animated(s.skeleton.joints.size(), false);
  for (const auto& c : a.channels)
    if (c.joint < animated.size() && c.path != scene::Channel::Path::scale) animated[c.joint] = true;
  int node = -1;
  for (const auto& cam : s.cameras)
    if (cam.joint < animated.size() && animated[cam.joint]) {
      node = static_cast<int>(cam.joint);
      break;
    }
  const auto* sx = member(json_of(s.extras), "xray");
  const auto* header = sx ? member(*sx, "anm") : nullptr;
  std::size_t animated_count = 0;
  for (bool b : animated) animated_count += b;
  if (node < 0)
    for (std::size_t i = 0; i < animated.size(); ++i)
      if (animated[i]) {
        node = static_cast<int>(i);
        break;
      }
  if (node < 0) return Finding{Severity::error, 0, aw, "no node is animated", "translation or rotation channels", "none"};
  if (animated_count > 1 && s.cameras.empty())
    warnings.add(Severity::warning, 0, aw, "several nodes are animated: the first one's motion is converted", "one node",
                 s.skeleton.joints[static_cast<std::size_t>(node)].name + " of " + std::to_string(animated_count));
  const std::size_t sampled = a.timelines[0].times.size();
  const scene::Channel* rot = nullptr;
  const scene::Channel* tr = nullptr;
  for (const auto& c : a.channels) {
    if (c.joint != static_cast<std::uint32_t>(node) || c.timeline != 0) continue;
    if (c.path == scene::Channel::Path::rotation && c.values.size() == sampled * 4) rot = &c;
    if (c.path == scene::Channel::Path::translation && c.values.size() == sampled * 3) tr = &c;
  }
  const scene::Joint& rest = s.skeleton.joints[static_cast<std::size_t>(node)];
  AnmFile out;
  AnmMotion& m = out.motion;
  const nlohmann::json none;
  const nlohmann::json& hx = header ? *header : none;
  auto name = import_detail::extras_name(hx, "name");
  if (!name) name = utf8_to_cp1251(a.name);
  if (!name) return Finding{Severity::error, 0, aw, "motion name has no cp1251 encoding", "Latin or Cyrillic characters", a.name};
  if (name->find('\0') != std::string::npos)
    return Finding{Severity::error, 0, aw, "motion name holds a NUL", "a name the .anm can store", printable(*name)};
  m.name = *name;
  m.version = kNewestAnmVersion;
  m.fps = number<float>(hx, "fps").value_or(static_cast<float>(kSampleFps));
  if (!(m.fps > 0) || !std::isfinite(m.fps)) m.fps = static_cast<float>(kSampleFps);
  m.frame_start = number<std::int32_t>(hx, "frame_start").value_or(0);
  const double duration = std::max(a.duration, double(a.timelines[0].times.back() - a.timelines[0].times.front()));
  m.frame_end = static_cast<std::int32_t>(m.frame_start + std::llround(duration * m.fps));
  std::vector<float> times(sampled);
  const float t0 = a.timelines[0].times.front();
  for (std::size_t i = 0; i < sampled; ++i)
    times[i] = static_cast<float>(m.frame_start) / m.fps + (a.timelines[0].times[i] - t0);
  std::array<std::vector<float>, kMotionChannels> values;
  for (auto& v : values) v.resize(sampled);
  std::array<double, 3> angles{};
  for (std::size_t i = 0; i < sampled; ++i) {
    const Quat q = rot ? import_detail::from_gltf_quat(rot->values.data() + i * 4) : import_detail::from_gltf(rest.rotation);
    const Vec3 t = tr ? import_detail::from_gltf(tr->values.data() + i * 3) : import_detail::from_gltf(rest.translation);
    const double n = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
    const std::array<double, 4> u = n > 0 ? std::array<double, 4>{q.x / n, q.y / n, q.z / n, q.w / n}
                                          : std::array<double, 4>{0, 0, 0, 1};
    angles = envelope_angles(rotation_of(u), i == 0 ? nullptr : &angles);
    values[0][i] = t.x, values[1][i] = t.y, values[2][i] = t.z;
    for (int c = 0; c < 3; ++c) values[3 + static_cast<std::size_t>(c)][i] = static_cast<float>(angles[static_cast<std::size_t>(c)]);
  }
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    const auto keys = linear_keys(times, values[c]);
    Envelope& e = m.stored[m.stored_index(static_cast<MotionChannel>(c))];
    e.layout = EnvelopeLayout::v2;
    e.pre = e.post = kConstant;
    e.key_count = static_cast<std::uint32_t>(keys.size());
    e.keys = out.keep(encode_envelope_keys(EnvelopeLayout::v2, keys));
  }
  out.chunks = {Chunk{kChunkObjectMotion, 0, {}}};
  out.motion_chunk = 0;
  return out;
}

}  // namespace boneyard::xray
