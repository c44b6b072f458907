// .omf -> .skl/.skls: each stored key decoded as the engine decodes it and written as stepped keys at
// t = frame / 30, the way Bardak's converter does (docs/xray-sdk.md "Conversions"), with the angles
// kept continuous and the frame range the SDK compiles back to the same frame count.
#include <cmath>
#include <cstring>
#include <optional>

#include "boneyard/core/text.h"
#include "boneyard/xray/sdk_pose.h"
#include "boneyard/xray/skl/skl_convert.h"
#include "skl_keys.h"

namespace boneyard::xray {

namespace {

// Bone names by motion-bone index (the record order of 0xE).
Result<std::vector<std::string>> record_names(const Params& p) {
  const std::size_t n = p.bone_count();
  std::vector<std::string> names(n);
  std::vector<bool> seen(n, false);
  if (p.version < 2 || p.parts_without_names)
    return Finding{Severity::error, p.offset, "0xF parts", "the bone parts do not name their bones, so the .skls bones would have no names",
                   "params version 2-4 with bone names", p.parts_without_names ? "the SDK's nameless part" : "version " + std::to_string(p.version)};
  std::size_t position = 0;
  for (const auto& part : p.parts)
    for (const auto& b : part.bones) {
      const std::size_t index = p.version == 2 ? position : b.index;
      ++position;
      if (index >= n || seen[index])
        return Finding{Severity::error, b.offset, "0xF parts", "motion-bone indices are not a permutation", "0.." + std::to_string(n - 1),
                       std::to_string(index)};
      seen[index] = true;
      names[index] = b.name;
    }
  return names;
}

// Which records are the roots an .object's ACTORTRANSFORM was applied to.
std::vector<bool> actor_roots(const std::vector<std::string>& names, const MotionSkeleton* skeleton) {
  std::vector<bool> roots(names.size(), false);
  if (!skeleton || !skeleton->actor_transform) return roots;
  for (std::size_t r = 0; r < names.size(); ++r)
    for (const auto& b : skeleton->bones)
      if (b.parent < 0 && lower_ascii(b.name) == lower_ascii(names[r])) roots[r] = true;
  return roots;
}

Pose actor_pose(const std::array<Vec3, 2>& t) {
  // mGT = translate(position) after setHPB(rotation.y, rotation.x, rotation.z) (ExportSkeleton.cpp).
  Pose p;
  p.r = set_hpb<double>(t[1].y, t[1].x, t[1].z);
  p.c = {t[0].x, t[0].y, t[0].z};
  return p;
}

}  // namespace

Result<SklFile> omf_to_skl_motions(const MotionSet& set, const OmfToSklOptions& o, Diagnostics& warnings) {
  auto names = record_names(set.params);
  if (!names) return names.error();
  const std::size_t n = names->size();
  const std::vector<bool> roots = actor_roots(names.value(), o.skeleton);
  const std::optional<Pose> actor_inverse =
      o.skeleton && o.skeleton->actor_transform ? std::optional<Pose>(inverse(actor_pose(*o.skeleton->actor_transform)))
                                                : std::nullopt;
  SklFile out;
  out.container = SklContainer::skls;
  const std::size_t count = std::min(set.params.motions.size(), set.motions.size());
  if (set.params.motions.size() != set.motions.size())
    warnings.add(Severity::warning, set.params.offset, "0xF motions",
                 "0xE and 0xF hold different numbers of motions: the first " + std::to_string(count) + " are converted",
                 std::to_string(set.params.motions.size()), std::to_string(set.motions.size()));
  std::size_t wide_flags = 0;
  std::array<SteppedChannel, kMotionChannels> channels;
  for (std::size_t m = 0; m < count; ++m) {
    const MotionParams& params = set.params.motions[m];
    const MotionKeys& keys = set.motions[m];
    const std::string where = "0xE/" + std::to_string(m + 1) + " motion \"" + printable(params.name) + "\"";
    if (!keys.readable) return Finding{keys.readable.error()};
    if (keys.bones.size() != n)
      return Finding{Severity::error, keys.offset, where, "records do not match the bone parts", std::to_string(n),
                     std::to_string(keys.bones.size())};
    if (keys.frames == 0) return Finding{Severity::error, keys.frames_offset(), where, "motion without frames", ">= 1", "0"};
    SklMotion sm;
    sm.name = params.name;
    sm.frame_start = 0;
    sm.frame_end = static_cast<std::int32_t>(keys.frames - 1);
    sm.fps = static_cast<float>(kSampleFps);
    sm.version = o.version != 0 ? o.version : (params.marks.empty() ? std::uint16_t{6} : std::uint16_t{7});
    sm.flags = params.flags & 0xFFu;
    if (params.flags > 0xFFu) ++wide_flags;
    sm.bone_or_part = params.bone_or_part;
    sm.speed = params.speed;
    sm.accrue = params.accrue;
    sm.falloff = params.falloff;
    sm.power = params.power;
    if (sm.version >= 7) sm.marks = params.marks;
    for (auto& mk : sm.marks) mk.offset = mk.count_offset = 0;
    sm.bones.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      const BoneKeys& b = keys.bones[r];
      for (auto& c : channels) c.clear();
      const bool static_rotation = b.rotation_static();
      const bool in_actor = roots[r] && actor_inverse.has_value();
      const std::uint32_t frames = !static_rotation || b.translation_keyed() ? keys.frames : 1;
      std::array<double, 3> angles{};
      std::array<double, 3> position{};
      std::array<std::int16_t, 4> last_key{};
      Vec3 last_t;
      for (std::uint32_t f = 0; f < frames; ++f) {
        const float time = static_cast<float>(f) / static_cast<float>(kSampleFps);
        const QuatKey k = b.rotation_key(static_rotation ? 0 : f);
        const std::array<std::int16_t, 4> key{k.x, k.y, k.z, k.w};
        const Vec3 t = b.translation(f);
        // Only a changed key is converted again (held poses repeat most keys).
        if (f == 0 || key != last_key || (in_actor && !(t == last_t))) {
          Pose local;
          local.r = rotation_of(unit_key(key));
          local.c = {t.x, t.y, t.z};
          if (in_actor) local = compose(local, *actor_inverse);
          if (f == 0 || key != last_key || in_actor) angles = envelope_angles(local.r, f == 0 ? nullptr : &angles);
          position = local.c;
          last_key = key;
          last_t = t;
        }
        if (!in_actor) position = {t.x, t.y, t.z};
        for (int c = 0; c < 3; ++c) channels[c].add(time, static_cast<float>(position[c]));
        for (int c = 0; c < 3; ++c) channels[3 + c].add(time, static_cast<float>(angles[c]));
      }
      std::array<Envelope, kMotionChannels> envelopes;
      for (std::size_t c = 0; c < kMotionChannels; ++c) envelopes[c] = channels[c].envelope();
      sm.bones[r] = make_skl_bone(out.keep_text(names.value()[r]), 0, EnvelopeLayout::v2, envelopes, *out.owned);
    }
    out.motions.push_back(std::move(sm));
  }
  if (wide_flags > 0)
    warnings.add(Severity::warning, set.params.offset, "0xF motions",
                 "motion flags above the low byte have no place in an .skls (it stores one byte): left out", "flags <= 0xFF",
                 std::to_string(wide_flags) + " motion(s)");
  out.declared_count = static_cast<std::uint32_t>(out.motions.size());
  return out;
}

}  // namespace boneyard::xray
