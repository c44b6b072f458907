// The SDK's frame sampling of skeletal motions (ExportSkeleton.cpp's ExportMotionKeys with
// EditObjectMotions.cpp's CalculateAnim; docs/xray-sdk.md "Conversions").
#include "skl_sampler.h"

#include <map>

#include "boneyard/core/text.h"

namespace boneyard::xray {

namespace {

// What SortBonesBySkeleton gives a bone the motion lacks: its rest pose. The bone's setXYZi angles
// as envelope values: h = rotate.y, p = rotate.x, b = rotate.z.
BoneFrame rest_frame(const MotionSkeletonBone& b) {
  BoneFrame fr;
  fr.h = b.rest_rotate.y, fr.p = b.rest_rotate.x, fr.b = b.rest_rotate.z;
  fr.f.r = envelope_rotation(fr.h, fr.p, fr.b);
  fr.f.c = {b.rest_offset.x, b.rest_offset.y, b.rest_offset.z};
  fr.d.r = envelope_rotation(double(fr.h), double(fr.p), double(fr.b));
  fr.d.c = {b.rest_offset.x, b.rest_offset.y, b.rest_offset.z};
  return fr;
}

}  // namespace

FloatPose compose(const FloatPose& first, const FloatPose& then) {
  FloatPose out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out.r[i][j] = first.r[i][0] * then.r[0][j] + first.r[i][1] * then.r[1][j] + first.r[i][2] * then.r[2][j];
  for (int j = 0; j < 3; ++j)
    out.c[j] = first.c[0] * then.r[0][j] + first.c[1] * then.r[1][j] + first.c[2] * then.r[2][j] + then.c[j];
  return out;
}

FloatPose inverse(const FloatPose& p) {
  FloatPose out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.r[i][j] = p.r[j][i];
  for (int j = 0; j < 3; ++j) out.c[j] = -(p.c[0] * out.r[0][j] + p.c[1] * out.r[1][j] + p.c[2] * out.r[2][j]);
  return out;
}

std::vector<const SklBone*> match_bones(const SklMotion& m, const MotionSkeleton& sk, std::size_t& unmatched) {
  std::map<std::string, const SklBone*> by_name;
  for (const auto& b : m.bones) by_name.emplace(lower_ascii(b.name), &b);
  std::vector<const SklBone*> out(sk.bones.size(), nullptr);
  std::size_t matched = 0;
  for (std::size_t i = 0; i < sk.bones.size(); ++i) {
    auto it = by_name.find(lower_ascii(sk.bones[i].name));
    if (it != by_name.end() && it->second != nullptr) {
      out[i] = it->second;
      it->second = nullptr;  // one skeleton bone per motion bone
      ++matched;
    }
  }
  unmatched = by_name.size() - matched;
  return out;
}

float MotionSampler::Track::value(std::size_t c, float t) {
  const Envelope e = bone->channel(c);
  if (!ordered[c]) return evaluate_envelope(keys[c], e.pre, e.post, t);
  return evaluate_envelope(keys[c], e.pre, e.post, t, span[c]);
}

MotionSampler::MotionSampler(const MotionSkeleton& sk) : sk_(sk) {
  const std::size_t n = sk.bones.size();
  if (sk.actor_transform) {
    // mGT: setHPB(rotation.y, rotation.x, rotation.z), then the translation (ExportSkeleton.cpp).
    const auto& t = *sk.actor_transform;
    actor_f_.r = set_hpb(t[1].y, t[1].x, t[1].z);
    actor_f_.c = {t[0].x, t[0].y, t[0].z};
    actor_d_.r = set_hpb<double>(t[1].y, t[1].x, t[1].z);
    actor_d_.c = {t[0].x, t[0].y, t[0].z};
  }
  std::vector<int> state(n, 0);
  // Parents before children, whatever the stored order (a cycle is broken where it closes).
  auto visit = [&](std::size_t i, auto& self) -> void {
    if (state[i] != 0) return;
    state[i] = 1;
    const int parent = sk.bones[i].parent;
    if (parent >= 0 && static_cast<std::size_t>(parent) < n) self(static_cast<std::size_t>(parent), self);
    state[i] = 2;
    order_.push_back(i);
  };
  for (std::size_t i = 0; i < n; ++i) visit(i, visit);
  rest_.resize(n);
  for (std::size_t i = 0; i < n; ++i) rest_[i] = rest_frame(sk.bones[i]);
  local_.resize(n);
  key_.resize(n);
  tracks_.resize(n);
}

void MotionSampler::start(const std::vector<const SklBone*>& matched) {
  world_orient_ = false;
  for (std::size_t i = 0; i < tracks_.size(); ++i) {
    Track& tr = tracks_[i];
    tr.bone = i < matched.size() ? matched[i] : nullptr;
    tr.span = {};
    if (!tr.bone) continue;
    for (std::size_t c = 0; c < kMotionChannels; ++c) {
      decode_envelope_keys(tr.bone->channel(c), tr.keys[c]);
      tr.ordered[c] = keys_in_time_order(tr.keys[c]);
    }
    if ((tr.bone->flags & kBoneWorldOrient) != 0) world_orient_ = true;
  }
  world_.resize(world_orient_ ? tracks_.size() : 0);
}

void MotionSampler::sample(float t) {
  for (std::size_t i : order_) {
    BoneFrame& fr = local_[i];
    Track& tr = tracks_[i];
    if (!tr.bone) {
      fr = rest_[i];
    } else {
      fr.f.c = {tr.value(0, t), tr.value(1, t), tr.value(2, t)};
      fr.h = tr.value(3, t), fr.p = tr.value(4, t), fr.b = tr.value(5, t);
      fr.f.r = envelope_rotation(fr.h, fr.p, fr.b);
      fr.d.r = envelope_rotation(double(fr.h), double(fr.p), double(fr.b));
      fr.d.c = {fr.f.c[0], fr.f.c[1], fr.f.c[2]};
    }
    const int parent = sk_.bones[i].parent;
    if (world_orient_) {
      // CalculateAnim: a world-oriented bone's rotation is its world rotation; the compiled key is
      // it made relative to the parent's world transform.
      BoneFrame& w = world_[i];
      if (parent >= 0) {
        const BoneFrame& pw = world_[static_cast<std::size_t>(parent)];
        w.f = compose(fr.f, pw.f);
        w.d = compose(fr.d, pw.d);
        if (tr.bone && (tr.bone->flags & kBoneWorldOrient) != 0) {
          w.f.r = fr.f.r, w.d.r = fr.d.r;
          fr.f = compose(fr.f, inverse(pw.f));
          fr.d = compose(fr.d, inverse(pw.d));
        }
      } else {
        w.f = fr.f, w.d = fr.d;
      }
    }
    BoneFrame& k = key_[i];
    k = fr;
    if (parent < 0 && sk_.actor_transform) {
      k.f = compose(fr.f, actor_f_);
      k.d = compose(fr.d, actor_d_);
    }
  }
}

}  // namespace boneyard::xray
