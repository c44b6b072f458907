// An .object's embedded motions (0x916) to and from the scene's animations, through the .skls
// conversion (xray/skl/skl_scene.h) on the object's own skeleton: the export gives exactly the
// poses `.skls -> glTF` gives on that model, and the import keeps every unedited motion's stored
// bytes (docs/xray-object.md "Motions").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/skl/skl_convert.h"
#include "boneyard/xray/skl/skl_scene.h"
#include "object_extras.h"
#include "object_motions.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_import_bones.h"
#include "xray/skl/skl_sampler.h"

namespace boneyard::xray::object_motions {

namespace {

using nlohmann::json;

// The skeleton the motions play on: the object's bones, ACTORTRANSFORM and parts; parts the
// skeleton cannot use (a bone in none) are left out, with a warning, since only the extras need them.
Result<MotionSkeleton> skeleton_of(const ObjectFile& f, Diagnostics* warnings) {
  auto sk = motion_skeleton(f, "the object");
  if (sk || f.bones.empty()) return sk;
  ObjectFile bare;
  bare.bones = f.bones;
  bare.actor_transform = f.actor_transform;
  auto without_parts = motion_skeleton(bare, "the object");
  if (without_parts && warnings)
    warnings->add(Severity::warning, sk.error().offset, sk.error().path,
                  "the bone parts do not cover the skeleton (" + sk.error().message +
                      "): the animations' extras list one part with every bone",
                  sk.error().expected, sk.error().found);
  return without_parts;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The header fields an animation carries (the .skls export's extras), compared as stored.
bool same_header(const SklMotion& a, const SklMotion& b) {
  if (a.name != b.name || a.frame_start != b.frame_start || a.frame_end != b.frame_end || !same_bits(a.fps, b.fps) ||
      (a.flags & 0xFFu) != (b.flags & 0xFFu) || (a.bone_or_part & 0xFFFFu) != (b.bone_or_part & 0xFFFFu) ||
      !same_bits(a.speed, b.speed) || !same_bits(a.accrue, b.accrue) || !same_bits(a.falloff, b.falloff) ||
      !same_bits(a.power, b.power) || a.marks.size() != b.marks.size())
    return false;
  for (std::size_t i = 0; i < a.marks.size(); ++i) {
    const MotionMark& x = a.marks[i];
    const MotionMark& y = b.marks[i];
    if (x.name != y.name || x.intervals.size() != y.intervals.size()) return false;
    for (std::size_t k = 0; k < x.intervals.size(); ++k)
      if (!same_bits(x.intervals[k].start, y.intervals[k].start) || !same_bits(x.intervals[k].end, y.intervals[k].end))
        return false;
  }
  return true;
}

bool near(double a, double b, double tolerance) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tolerance + 1e-6 * std::max(std::fabs(a), std::fabs(b));
}

// Every frame of both motions sampled as the compiler samples them: the same transforms within
// the tolerances.
bool same_poses(const SklMotion& a, const SklMotion& b, const MotionSkeleton& sk) {
  if (a.frame_start != b.frame_start || a.frame_end != b.frame_end || !same_bits(a.fps, b.fps)) return false;
  if (!(a.fps > 0) || !std::isfinite(a.fps) || a.frame_end < a.frame_start) return false;
  std::size_t unmatched_a = 0, unmatched_b = 0;
  const auto ma = match_bones(a, sk, unmatched_a);
  const auto mb = match_bones(b, sk, unmatched_b);
  if (unmatched_a != unmatched_b) return false;
  MotionSampler sa(sk), sb(sk);
  sa.start(ma);
  sb.start(mb);
  for (std::int64_t f = a.frame_start; f <= a.frame_end; ++f) {
    const float t = static_cast<float>(f) / a.fps;
    sa.sample(t);
    sb.sample(t);
    for (std::size_t i = 0; i < sk.bones.size(); ++i) {
      const Pose& x = sa.key(i).d;
      const Pose& y = sb.key(i).d;
      for (int r = 0; r < 3; ++r) {
        if (!near(x.c[std::size_t(r)], y.c[std::size_t(r)], kPoseTranslationTolerance)) return false;
        for (int c = 0; c < 3; ++c)
          if (!near(x.r[std::size_t(r)][std::size_t(c)], y.r[std::size_t(r)][std::size_t(c)], kPoseRotationTolerance))
            return false;
      }
    }
  }
  return true;
}

// Where each stored motion's bytes are in the template's 0x916 payload, and what follows them.
struct StoredMotions {
  Bytes payload;
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // begin, end in `payload`
  Bytes tail;
};

std::optional<StoredMotions> stored_motions(const ObjectFile& tpl) {
  const Chunk* c = tpl.find(kObjMotions);
  if (c == nullptr) return std::nullopt;
  auto list = read_motion_list(c->payload, c->payload_offset(), "0x916");
  if (!list || list->motions.size() != tpl.motions.size()) return std::nullopt;
  StoredMotions out;
  out.payload = c->payload;
  const std::uint64_t base = c->payload_offset();
  for (std::size_t i = 0; i < list->motions.size(); ++i) {
    const std::uint64_t begin = list->motions[i].offset - base;
    const std::uint64_t end = (i + 1 < list->motions.size() ? list->motions[i + 1].offset : list->tail_offset) - base;
    if (begin > end || end > c->payload.size()) return std::nullopt;
    out.spans.emplace_back(static_cast<std::size_t>(begin), static_cast<std::size_t>(end));
  }
  out.tail = list->tail;
  return out;
}

// The motion import takes animations as the glTF reader gives them: one timeline at 30 fps. A
// scene made in memory (an exporter's own, handed to the import without glTF bytes in between)
// keeps held channels on a timeline of their own: its animations are sampled on one timeline of
// frames at 30 fps (linear; rotations normalised), which gives an exporter's keys back exactly.
bool in_read_form(const scene::Scene& s) {
  if (s.sampler) return true;
  return std::all_of(s.animations.begin(), s.animations.end(), [](const auto& a) { return a.timelines.size() == 1; });
}

void sample_channel(const scene::Timeline& line, const scene::Channel& c, float t, std::size_t width, float* out) {
  const auto& times = line.times;
  const std::size_t keys = std::min(times.size(), c.values.size() / width);
  if (keys == 0) return;
  const std::size_t hi = static_cast<std::size_t>(std::upper_bound(times.begin(), times.begin() + std::ptrdiff_t(keys), t) - times.begin());
  if (hi == 0 || hi >= keys || times[hi - 1] == t) {
    const std::size_t k = hi == 0 ? 0 : hi - 1;
    std::copy_n(c.values.begin() + std::ptrdiff_t(k * width), width, out);
    return;
  }
  const float* a = c.values.data() + (hi - 1) * width;
  const float* b = c.values.data() + hi * width;
  const float u = (t - times[hi - 1]) / (times[hi] - times[hi - 1]);
  float sign = 1;
  if (width == 4 && a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0) sign = -1;
  double len = 0;
  for (std::size_t k = 0; k < width; ++k) {
    out[k] = a[k] + (sign * b[k] - a[k]) * u;
    len += double(out[k]) * out[k];
  }
  if (width == 4 && len > 0)
    for (std::size_t k = 0; k < 4; ++k) out[k] = static_cast<float>(out[k] / std::sqrt(len));
}

scene::Scene read_form(const scene::Scene& s) {
  scene::Scene out;
  out.skeleton = s.skeleton;
  out.extras = s.extras;
  for (const auto& a : s.animations) {
    scene::Animation r;
    r.name = a.name;
    r.extras = a.extras;
    float end = 0;
    for (const auto& line : a.timelines)
      if (!line.times.empty() && std::isfinite(line.times.back())) end = std::max(end, line.times.back());
    const double frames = std::round(double(end) * 30.0) + 1;
    if (!(frames <= double(kMaxMotionFrames))) {
      out.animations.push_back(a);  // the import names the limit
      continue;
    }
    const auto n = static_cast<std::size_t>(frames);
    scene::Timeline line;
    line.times.resize(n);
    for (std::size_t f = 0; f < n; ++f) line.times[f] = static_cast<float>(f) / 30.0f;
    for (const auto& c : a.channels) {
      if (c.timeline >= a.timelines.size()) continue;
      const std::size_t width = c.path == scene::Channel::Path::rotation ? 4 : 3;
      scene::Channel sampled{c.joint, c.path, 0, std::vector<float>(n * width, 0.0f), {}};
      for (std::size_t f = 0; f < n; ++f) sample_channel(a.timelines[c.timeline], c, line.times[f], width, sampled.values.data() + f * width);
      r.channels.push_back(std::move(sampled));
    }
    r.timelines = {std::move(line)};
    r.duration = end;
    r.frames = n;
    out.animations.push_back(std::move(r));
  }
  return out;
}

bool has_xray_extras(const scene::Animation& a) {
  return import_detail::member(json_of(a.extras), "xray") != nullptr;
}

}  // namespace

void add_motions(const ObjectFile& f, const std::vector<std::string>& globs, scene::Scene& s, Diagnostics& warnings) {
  const Chunk* chunk = f.find(kObjMotions);
  if (chunk == nullptr) return;
  if (!f.motions_error) {
    const Finding& e = f.motions_error.error();
    warnings.add(Severity::warning, e.offset, e.path,
                 "embedded motions do not read: the model is exported without animations (" + e.message + ")", e.expected,
                 e.found);
    return;
  }
  if (f.motions.empty()) return;
  if (f.bones.empty()) {
    warnings.add(Severity::warning, chunk->offset, "0x916",
                 "embedded motions in an object without bones: exported without animations", "bones", "none");
    return;
  }
  auto sk = skeleton_of(f, &warnings);
  if (!sk) {
    warnings.add(Severity::warning, sk.error().offset, sk.error().path,
                 "embedded motions left out of the export: " + sk.error().message, sk.error().expected, sk.error().found);
    return;
  }
  // Every frame of every motion is sampled for every bone and held until the glTF is written: a
  // few bytes of 0x916 can declare a million frames, so the samples have a budget (docs/safety.md).
  std::uint64_t sampled = 0;
  for (const auto& m : f.motions) {
    const std::string name = cp1251_to_utf8(m.name);
    if (!globs.empty() && std::none_of(globs.begin(), globs.end(), [&](const auto& g) { return glob_match(g, name); }))
      continue;
    const std::int64_t frames = std::int64_t{m.frame_end} - std::int64_t{m.frame_start} + 1;
    if (frames > 0) sampled += static_cast<std::uint64_t>(frames) * (7 * std::uint64_t{sk->bones.size()} + 1) * 4;
  }
  if (sampled > kMaxSampledBytesPerAnimation) {
    warnings.add(Severity::warning, chunk->offset, "0x916",
                 "embedded motions too long to sample for glTF (frames x bones): exported without animations",
                 "<= " + std::to_string(kMaxSampledBytesPerAnimation >> 20) + " MiB of samples",
                 std::to_string(sampled >> 20) + " MiB");
    return;
  }
  SklExportOptions eo;
  eo.skeleton = &sk.value();
  eo.motions = globs;
  Diagnostics motion_warnings;
  auto made = skl_to_scene(f.motions, s.skeleton.name, eo, motion_warnings);
  if (!made) {
    const Finding& e = made.error();
    warnings.add(Severity::warning, e.offset, "0x916 " + e.path,
                 "embedded motions left out of the export: " + e.message, e.expected, e.found);
    return;
  }
  for (const auto& w : motion_warnings.findings()) warnings.add(w);
  scene::Scene& ms = made.value();
  // The object scene's joints are its bones in the same order; matched by name all the same.
  std::map<std::string, std::uint32_t> joint_of;
  for (std::uint32_t j = 0; j < s.skeleton.joints.size(); ++j) joint_of.emplace(lower_ascii(s.skeleton.joints[j].name), j);
  std::vector<std::int64_t> target(ms.skeleton.joints.size(), -1);
  for (std::size_t j = 0; j < ms.skeleton.joints.size(); ++j)
    if (auto it = joint_of.find(lower_ascii(ms.skeleton.joints[j].name)); it != joint_of.end()) target[j] = it->second;
  for (auto& a : ms.animations) {
    std::vector<scene::Channel> channels;
    channels.reserve(a.channels.size());
    for (auto& c : a.channels) {
      if (c.joint >= target.size() || target[c.joint] < 0) continue;
      c.joint = static_cast<std::uint32_t>(target[c.joint]);
      channels.push_back(std::move(c));
    }
    a.channels = std::move(channels);
    s.animations.push_back(std::move(a));
  }
  if (const auto* x = import_detail::member(json_of(ms.extras), "xray"))
    if (const auto* sets = import_detail::member(*x, "motion_sets")) json_of(s.extras)["xray"]["motion_sets"] = *sets;
}

Result<MotionsChunk> motions_chunk(const scene::Scene& s, const std::vector<BoneData>& bones,
                                   const std::optional<std::array<Vec3, 2>>& actor_transform, const ObjectFile* tpl,
                                   Diagnostics& warnings) {
  MotionsChunk out;
  const bool template_has = tpl != nullptr && tpl->find(kObjMotions) != nullptr;
  if (s.animations.empty()) {
    // A glTF without animations: a template's motions stay (a DCC tool that exports no animations
    // did not delete them); a new object has none.
    if (template_has && !tpl->motions.empty())
      warnings.add(Severity::warning, 0, "animations",
                   "the glTF has no animations: the template's embedded motions (0x916) are kept as stored", "",
                   std::to_string(tpl->motions.size()) + " motion(s)");
    return out;
  }
  if (template_has && !tpl->motions_error) {
    warnings.add(Severity::warning, 0, "animations",
                 "the template's embedded motions do not read, so the glTF's animations cannot be merged with them: "
                 "0x916 is kept as stored and the animations are left out",
                 "", std::to_string(s.animations.size()) + " animation(s)");
    return out;
  }
  if (bones.empty()) {
    warnings.add(Severity::warning, 0, "animations", "the object has no bones to play the glTF's animations: left out", "",
                 std::to_string(s.animations.size()) + " animation(s)");
    return out;
  }
  ObjectFile model;
  if (tpl == nullptr) {
    model.bones = bones;
    model.actor_transform = actor_transform;
  }
  auto sk = skeleton_of(tpl ? *tpl : model, nullptr);
  if (!sk) return sk.error();
  SklImportOptions io;
  io.model = &sk.value();
  std::optional<scene::Scene> resampled;
  if (!in_read_form(s)) resampled = read_form(s);
  auto incoming = scene_to_skl(resampled ? *resampled : s, io, warnings);
  if (!incoming) {
    Finding e = incoming.error();
    e.message = "the glTF's animations as embedded motions: " + e.message;
    return e;
  }
  std::vector<SklMotion>& motions = incoming->motions;
  const std::optional<StoredMotions> stored = template_has ? stored_motions(*tpl) : std::nullopt;
  // Each animation's template motion: the first not yet taken with its name.
  std::vector<int> source(motions.size(), -1);
  if (stored) {
    std::vector<bool> taken(tpl->motions.size(), false);
    for (std::size_t i = 0; i < motions.size(); ++i)
      for (std::size_t t = 0; t < tpl->motions.size(); ++t)
        if (!taken[t] && tpl->motions[t].name == motions[i].name) {
          taken[t] = true;
          source[i] = static_cast<int>(t);
          break;
        }
  }
  std::vector<bool> keep(motions.size(), false);
  for (std::size_t i = 0; i < motions.size(); ++i) {
    if (source[i] < 0) continue;
    const SklMotion& original = tpl->motions[std::size_t(source[i])];
    SklMotion& m = motions[i];
    // An animation whose extras a DCC tool dropped keeps the template motion's header (its keys
    // were made at 30 fps from frame 0: a template motion with other timing differs and is rebuilt).
    if (i < s.animations.size() && !has_xray_extras(s.animations[i])) {
      m.flags = original.flags & 0xFFu;
      m.bone_or_part = original.bone_or_part & 0xFFFFu;
      m.speed = original.speed, m.accrue = original.accrue, m.falloff = original.falloff, m.power = original.power;
      m.marks = original.marks;
      m.version = !m.marks.empty() ? std::uint16_t{7} : original.version >= 6 ? original.version : std::uint16_t{6};
    }
    keep[i] = same_header(m, original) && same_poses(m, original, sk.value());
  }
  // The template's motions stay in its order (a DCC tool lists animations in an order of its own,
  // Blender alphabetically), the glTF's new ones follow in its order.
  std::vector<std::size_t> order;
  if (stored)
    for (std::size_t t = 0; t < tpl->motions.size(); ++t)
      for (std::size_t i = 0; i < motions.size(); ++i)
        if (source[i] == static_cast<int>(t)) order.push_back(i);
  for (std::size_t i = 0; i < motions.size(); ++i)
    if (source[i] < 0) order.push_back(i);
  const bool identity = stored && motions.size() == tpl->motions.size() &&
                        std::all_of(keep.begin(), keep.end(), [](bool k) { return k; });
  out.kept = static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true));
  out.rebuilt = motions.size() - out.kept;
  if (identity) return out;
  out.keep_template = false;
  // The count first (u32), then the motions.
  const auto count = static_cast<std::uint32_t>(motions.size());
  std::vector<std::uint8_t> payload(sizeof count);
  std::memcpy(payload.data(), &count, sizeof count);
  ByteWriter w(payload);
  for (const std::size_t i : order) {
    if (keep[i]) {
      const auto [begin, end] = stored->spans[std::size_t(source[i])];
      w.bytes(stored->payload.subspan(begin, end - begin));
    } else {
      write_skl_motion(w, motions[i]);
    }
  }
  if (stored) w.bytes(stored->tail);
  out.payload = std::move(payload);
  return out;
}

}  // namespace boneyard::xray::object_motions

namespace boneyard::xray {

Result<std::vector<std::uint8_t>> motions_of_object(const ObjectFile& object) {
  const Chunk* chunk = object.find(kObjMotions);
  if (chunk == nullptr)
    return Finding{Severity::error, 0, "", "the object has no embedded motions to save as a .skls file", "motions (0x916)",
                   "none"};
  if (!object.motions_error) return object.motions_error.error();
  std::vector<std::uint8_t> bytes(chunk->payload.begin(), chunk->payload.end());
  // The motions as stored: their own findings are not held against the copy.
  auto as_read = read_skls(FileData::from_vector(bytes));
  if (!as_read) return as_read.error();
  const Diagnostics own = validate_skl(as_read.value());
  return checked_skl_bytes(std::move(bytes), SklContainer::skls, &own);
}

}  // namespace boneyard::xray
