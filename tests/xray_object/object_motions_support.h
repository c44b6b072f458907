// Shared by the tests of an .object's embedded motions (0x916): an object made from another with a
// motion list embedded (byte by byte, independently of the library's writers), each stored
// motion's bytes, and the animations of two scenes compared frame by frame.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "boneyard/core/file_io.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::test {

inline std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
inline void put32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  std::uint8_t t[4];
  std::memcpy(t, &v, 4);
  b.insert(b.end(), t, t + 4);
}

// `object` (an uncompressed .object) with `list` (u32 count + motion bodies, a .skls's bytes) as
// its chunk 0x916, placed where the SDK writes it: right after the bones (0x921), replacing a
// 0x916 it had. Anything after the body chunk stays.
inline std::vector<std::uint8_t> with_embedded_motions(const std::vector<std::uint8_t>& object,
                                                       const std::vector<std::uint8_t>& list) {
  const std::uint32_t body_size = le32(object, 4);
  std::vector<std::uint8_t> body;
  for (std::size_t at = 8; at + 8 <= 8 + std::size_t{body_size};) {
    const std::uint32_t id = le32(object, at), size = le32(object, at + 4);
    if (id != 0x916) body.insert(body.end(), object.begin() + std::ptrdiff_t(at), object.begin() + std::ptrdiff_t(at + 8 + size));
    if (id == 0x921) {
      put32(body, 0x916);
      put32(body, static_cast<std::uint32_t>(list.size()));
      body.insert(body.end(), list.begin(), list.end());
    }
    at += 8 + std::size_t{size};
  }
  std::vector<std::uint8_t> out;
  put32(out, le32(object, 0));
  put32(out, static_cast<std::uint32_t>(body.size()));
  out.insert(out.end(), body.begin(), body.end());
  out.insert(out.end(), object.begin() + std::ptrdiff_t(8 + body_size), object.end());
  return out;
}

// Each stored motion's bytes in the object's 0x916.
inline std::vector<std::vector<std::uint8_t>> stored_motion_bytes(const xray::ObjectFile& f) {
  std::vector<std::vector<std::uint8_t>> out;
  const Chunk* c = f.find(xray::kObjMotions);
  if (c == nullptr) return out;
  auto list = xray::read_motion_list(c->payload, c->payload_offset());
  EXPECT_TRUE(list);
  if (!list) return out;
  for (std::size_t i = 0; i < list->motions.size(); ++i) {
    const std::uint64_t begin = list->motions[i].offset - c->payload_offset();
    const std::uint64_t end =
        (i + 1 < list->motions.size() ? list->motions[i + 1].offset : list->tail_offset) - c->payload_offset();
    out.emplace_back(c->payload.begin() + std::ptrdiff_t(begin), c->payload.begin() + std::ptrdiff_t(end));
  }
  return out;
}

// A channel's value at sample `f` (a held channel's keys are all its one value).
inline const float* channel_value(const scene::Channel& c, std::size_t f) {
  const std::size_t width = c.path == scene::Channel::Path::rotation ? 4 : 3;
  const std::size_t keys = c.values.size() / width;
  return c.values.data() + std::min(f, keys - 1) * width;
}

// The frame count of an animation: its longest timeline.
inline std::size_t animation_frames(const scene::Animation& a) {
  std::size_t n = 0;
  for (const auto& t : a.timelines) n = std::max(n, t.times.size());
  return n;
}

// The two scenes' animations hold the same names and, per joint (by name) and frame, the same
// translations within `tolerance` metres and rotations within `tolerance` per component (either
// sign of the quaternion). Returns how many values differ.
inline std::size_t differing_samples(const scene::Scene& a, const scene::Scene& b, double tolerance) {
  std::size_t differ = 0;
  EXPECT_EQ(a.animations.size(), b.animations.size());
  for (std::size_t i = 0; i < std::min(a.animations.size(), b.animations.size()); ++i) {
    const scene::Animation& x = a.animations[i];
    const scene::Animation& y = b.animations[i];
    EXPECT_EQ(x.name, y.name);
    const std::size_t frames = animation_frames(x);
    EXPECT_EQ(frames, animation_frames(y)) << x.name;
    for (const auto& cx : x.channels) {
      const std::string& joint = a.skeleton.joints[cx.joint].name;
      const scene::Channel* cy = nullptr;
      for (const auto& c : y.channels)
        if (c.path == cx.path && b.skeleton.joints[c.joint].name == joint) cy = &c;
      if (cy == nullptr) {
        ADD_FAILURE() << x.name << ": no channel on " << joint;
        ++differ;
        continue;
      }
      const bool rot = cx.path == scene::Channel::Path::rotation;
      for (std::size_t f = 0; f < frames; ++f) {
        const float* p = channel_value(cx, f);
        const float* q = channel_value(*cy, f);
        double same = 0, flipped = 0;
        for (std::size_t k = 0; k < (rot ? 4u : 3u); ++k) {
          same = std::max(same, std::fabs(double(p[k]) - q[k]));
          flipped = std::max(flipped, std::fabs(double(p[k]) + q[k]));
        }
        if (std::min(same, rot ? flipped : same) > tolerance) ++differ;
      }
    }
  }
  return differ;
}

// Turns every rotation key of `joint` in animation `a` by `angle` about Y.
inline void turn_joint(scene::Scene& s, std::size_t a, const std::string& joint, float angle) {
  const float c = std::cos(angle / 2), sn = std::sin(angle / 2);
  for (auto& ch : s.animations[a].channels) {
    if (ch.path != scene::Channel::Path::rotation || s.skeleton.joints[ch.joint].name != joint) continue;
    for (std::size_t k = 0; k + 3 < ch.values.size(); k += 4) {
      const float x = ch.values[k], y = ch.values[k + 1], z = ch.values[k + 2], w = ch.values[k + 3];
      // (0, sn, 0, c) * (x, y, z, w)
      ch.values[k] = c * x + sn * z;
      ch.values[k + 1] = c * y + sn * w;
      ch.values[k + 2] = c * z - sn * x;
      ch.values[k + 3] = c * w - sn * y;
    }
    ch.shorts.clear();
  }
}

}  // namespace boneyard::test
