// Small float vector/quaternion types shared by the formats and the scene.
#pragma once

#include <array>
#include <cmath>

namespace boneyard {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

// Component order x, y, z, w (as stored in X-Ray keys and in glTF).
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
  friend bool operator==(const Quat&, const Quat&) = default;
  float norm() const { return std::sqrt(x * x + y * y + z * z + w * w); }
};

}  // namespace boneyard
