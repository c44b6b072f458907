// A neutral scene between game formats and interchange formats (glTF). It knows no game: adapters
// (src/xray/xray_scene.cpp, later MGS2) fill it, writers (src/gltf) read it.
//
// Conventions (those of glTF, so writers copy values without converting):
// right-handed, +Y up, metres, column vectors; quaternions x, y, z, w, unit length; a joint's
// world transform is parent_world * local(T, R, S).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "boneyard/math.h"

namespace boneyard::scene {

struct Joint {
  std::string name;  // UTF-8
  int parent = -1;   // index into Skeleton::joints, -1 for a root; parents need not come first,
                     // but the tree has no cycles (adapters reject those)
  // Rest (bind) pose, parent-relative.
  Vec3 translation;
  Quat rotation;
  Vec3 scale{1, 1, 1};
  nlohmann::json extras;  // null when empty
};

struct Skeleton {
  std::string name;  // name of the node that holds the joint roots (and later the meshes)
  std::vector<Joint> joints;
  nlohmann::json extras;
};

// Key times shared by several channels (in X-Ray, every keyed channel of a motion has the same
// frames; every static one has a single key at 0).
struct Timeline {
  std::vector<float> times;  // seconds, strictly increasing
};

struct Channel {
  enum class Path : std::uint8_t { translation, rotation, scale };
  std::uint32_t joint = 0;
  Path path = Path::rotation;
  std::uint32_t timeline = 0;  // index into Animation::timelines
  // Flat values: 3 floats per key (translation, scale) or 4 (rotation x, y, z, w).
  std::vector<float> values;
};

struct Animation {
  std::string name;  // UTF-8
  std::vector<Timeline> timelines;
  std::vector<Channel> channels;  // interpolation is LINEAR (slerp for rotations)
  nlohmann::json extras;
};

// Meshes and skins (issue 7) will be added here as `std::vector<Mesh> meshes` bound to the
// skeleton's joints; the writer already emits the skin so that adding them changes no layout.
struct Scene {
  Skeleton skeleton;
  std::vector<Animation> animations;
  std::string generator;  // asset.generator
  nlohmann::json extras;  // scene-level extras (format-specific data needed to convert back)
};

// Helpers shared by adapters and tests.
Quat normalized(Quat q);
float dot(const Quat& a, const Quat& b);
// Makes each quaternion in a flat x,y,z,w array lie in the hemisphere of its predecessor, so that
// LINEAR (slerp) interpolation takes the same shortest path as the engine.
void make_sign_continuous(std::vector<float>& xyzw);

// 4x4 column-major matrix (glTF accessor order).
using Mat4 = std::array<double, 16>;
Mat4 trs_matrix(const Vec3& t, const Quat& r, const Vec3& s);
Mat4 multiply(const Mat4& a, const Mat4& b);  // a * b
Mat4 inverse_affine(const Mat4& m);
// World (bind) matrices of every joint; parents are resolved recursively, not by order.
std::vector<Mat4> world_matrices(const Skeleton& skeleton);

}  // namespace boneyard::scene
