// The engine's and the SDK's pose arithmetic, shared by the SDK's motion formats (.skl/.skls, .anm)
// and their conversions: Fmatrix's setHPB/getHPB, Fquaternion::set, the rotation matrix of a
// quaternion, row-vector transforms composed as the engine composes them, and how the SDK
// quantises a compiled key (ExportSkeleton.cpp). Conventions and sources: docs/xray-sdk.md
// "Conversions".
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "boneyard/core/math.h"

namespace boneyard::xray {

// A 3x3 rotation as an Fmatrix stores it (rows i, j, k; the engine multiplies row vectors, v' = v M).
template <class T>
using Rot3 = std::array<std::array<T, 3>, 3>;

// Fmatrix::setHPB(h, p, b), in T's arithmetic (the SDK computes in float).
template <class T>
Rot3<T> set_hpb(T h, T p, T b);
// Fmatrix::getHPB: (h, p, b) with p in [-pi/2, pi/2]; b = 0 at the gimbal (|cos p| <= 16 eps).
template <class T>
std::array<T, 3> get_hpb(const Rot3<T>& m);
// Fquaternion::set(Fmatrix): the quaternion (x, y, z, w) whose Fmatrix::rotation is `m`, in the
// engine's branches (which also fix its sign: w > 0 when the trace is positive, else the component
// of the largest diagonal entry the engine picks).
template <class T>
std::array<T, 4> quaternion_of(const Rot3<T>& m);
// Fmatrix::rotation(q) for a unit quaternion (x, y, z, w).
template <class T>
Rot3<T> rotation_of(const std::array<T, 4>& q);

// A bone's or object's transform as the engine holds it: rotation rows and the translation row.
struct Pose {
  Rot3<double> r{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  std::array<double, 3> c{0, 0, 0};
};
// The transform that applies `first`, then `then` (the engine's mul_43(then, first): a local
// transform and its parent's world give mul_43(parent, local)).
Pose compose(const Pose& first, const Pose& then);
Pose inverse(const Pose& p);  // of a rigid transform

// The three rotation envelopes of a motion (h, p, b: CSMotion and COMotion evaluate R.y = h,
// R.x = p, R.z = b and build setXYZi(R) = setHPB(-h, -p, -b)).
Rot3<double> envelope_rotation(double h, double p, double b);
Rot3<float> envelope_rotation(float h, float p, float b);
// The envelope values (h, p, b) of a rotation: the negated getHPB, so that envelope_rotation gives
// the rotation back. Of the two triples that give one rotation, the one nearest `previous` (the
// frame before) is returned, each angle moved by whole turns to within pi of the previous one, so
// that consecutive keys do not jump by 2 pi or flip at the gimbal.
std::array<double, 3> envelope_angles(const Rot3<double>& m, const std::array<double, 3>* previous = nullptr);

// A stored rotation key (x, y, z, w) as a unit quaternion in double (the engine plays the stored
// components unnormalised; they are within 6e-5 of unit length).
std::array<double, 4> unit_key(const std::array<std::int16_t, 4>& key);

// The SDK's rotation key of a compiled frame: int(q * 32767) per component, truncated and clamped
// to +-32767 (ExportSkeleton.cpp), where `q` is the SDK's float quaternion of the frame's matrix.
// Before that, when some key's own direction is within `tolerance` (radians) of `exact` (the same
// rotation in double, in the sign of `q`), that key is returned: the angles of an .skls made from
// an .omf hold the stored keys' directions, to their float precision, and so give the stored
// integers back. Several keys on that direction (an axis, or a diagonal): the longest not over
// 32767, as truncation gives.
std::array<std::int16_t, 4> sdk_rotation_key(const std::array<float, 4>& q, const std::array<double, 4>& exact,
                                             double tolerance, bool* found = nullptr);
// The angular precision of three float angles (radians): half their ulps summed, the most the
// rotation they give can be off from the one they were rounded from.
double angle_precision(float h, float p, float b);

// One axis of a compiled translation track: the SDK's encoding (`keyed` false: the constant).
struct AxisEncoding {
  float size = 0, init = 0;
  bool found = false;
};
// The translation decoding of the engine: float(q) * size + init (docs/xray-omf.md).
inline float decode_translation(std::int32_t q, float size, float init) { return static_cast<float>(q) * size + init; }
// The size and init under which every value of `values` is exactly some key's decoding (keys within
// +-127, or +-32767 when `sixteen_bit`): what an .omf's keyed translation was stored with, found
// again from its decoded values (an .skls made from an .omf). Not found for values the SDK did not
// quantise (then the SDK's own rule applies).
AxisEncoding recover_axis_encoding(std::span<const float> values, bool sixteen_bit);

}  // namespace boneyard::xray
