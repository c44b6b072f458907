// The engine's pose formulas and the SDK's key quantisation (xray/sdk_pose.h), checked against
// values worked out here from the formulas' definitions (rotations about one axis, the engine's
// quaternion branches) and on random keys: a stored key's float angles give the stored key back.
#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "boneyard/xray/sdk_pose.h"

namespace boneyard::xray {
namespace {

constexpr double kPi = std::numbers::pi;

double max_diff(const Rot3<double>& a, const Rot3<double>& b) {
  double d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d = std::max(d, std::fabs(a[i][j] - b[i][j]));
  return d;
}

std::array<std::int16_t, 4> truncated(const std::array<float, 4>& q) {
  std::array<std::int16_t, 4> k{};
  for (int i = 0; i < 4; ++i) k[i] = static_cast<std::int16_t>(std::clamp(static_cast<int>(q[i] * 32767.0f), -32767, 32767));
  return k;
}

// What the compiler does with the float envelope values of a frame (sdk_pose.h's contract).
std::array<std::int16_t, 4> compiled_key(float h, float p, float b, bool* found = nullptr) {
  const auto qf = quaternion_of(envelope_rotation(h, p, b));
  auto exact = quaternion_of(envelope_rotation(double(h), double(p), double(b)));
  double dot = 0, n = 0;
  for (int i = 0; i < 4; ++i) dot += exact[i] * qf[i], n += exact[i] * exact[i];
  for (auto& c : exact) c = (dot < 0 ? -c : c) / std::sqrt(n);
  return sdk_rotation_key(qf, exact, angle_precision(h, p, b) + 1e-9, found);
}

TEST(SdkPose, SetHpbIsRotationsAboutYXZ) {
  // setHPB(h, 0, 0) turns about +Y, setHPB(0, p, 0) about +X, setHPB(0, 0, b) about +Z, each as the
  // engine's row vectors see it; the general matrix is their product b, then p, then h.
  const double h = 0.7, p = -0.4, b = 1.3;
  const Rot3<double> ry{{{std::cos(h), 0, std::sin(h)}, {0, 1, 0}, {-std::sin(h), 0, std::cos(h)}}};
  const Rot3<double> rx{{{1, 0, 0}, {0, std::cos(p), -std::sin(p)}, {0, std::sin(p), std::cos(p)}}};
  const Rot3<double> rz{{{std::cos(b), -std::sin(b), 0}, {std::sin(b), std::cos(b), 0}, {0, 0, 1}}};
  EXPECT_LT(max_diff(set_hpb(h, 0.0, 0.0), ry), 1e-15);
  EXPECT_LT(max_diff(set_hpb(0.0, p, 0.0), rx), 1e-15);
  EXPECT_LT(max_diff(set_hpb(0.0, 0.0, b), rz), 1e-15);
  Rot3<double> m{};
  auto mul = [](const Rot3<double>& a, const Rot3<double>& c) {
    Rot3<double> o{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) o[i][j] += a[i][k] * c[k][j];
    return o;
  };
  m = mul(mul(rz, rx), ry);
  EXPECT_LT(max_diff(set_hpb(h, p, b), m), 1e-15);
}

TEST(SdkPose, GetHpbInvertsSetHpbAndTheTwinTripleIsTheSameRotation) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-kPi, kPi), pitch(-kPi / 2 + 1e-3, kPi / 2 - 1e-3);
  for (int i = 0; i < 2000; ++i) {
    const double h = angle(rng), p = pitch(rng), b = angle(rng);
    const auto m = set_hpb(h, p, b);
    const auto hpb = get_hpb(m);
    EXPECT_NEAR(hpb[0], h, 1e-9);
    EXPECT_NEAR(hpb[1], p, 1e-9);
    EXPECT_NEAR(hpb[2], b, 1e-9);
    EXPECT_LT(max_diff(set_hpb(h + kPi, kPi - p, b + kPi), m), 1e-12);
  }
}

TEST(SdkPose, QuaternionOfFollowsTheEnginesBranches) {
  // Positive trace: w > 0. A half turn about X (trace -1, largest diagonal _11): x > 0. About Y
  // (_22 largest; the engine's else-branch compares _33 with _11): y > 0. About Z: z > 0.
  const auto half_x = quaternion_of(set_hpb(0.0, kPi, 0.0));
  EXPECT_NEAR(half_x[0], 1.0, 1e-12);
  const auto half_y = quaternion_of(set_hpb(kPi, 0.0, 0.0));
  EXPECT_NEAR(half_y[1], 1.0, 1e-12);
  const auto half_z = quaternion_of(set_hpb(0.0, 0.0, kPi));
  EXPECT_NEAR(half_z[2], 1.0, 1e-12);
  // Envelope heading H turns by setHPB(-H): the quaternion (0, -sin(H/2), 0, cos(H/2)).
  const auto q = quaternion_of(envelope_rotation(0.5, 0.0, 0.0));
  EXPECT_NEAR(q[1], -std::sin(0.25), 1e-15);
  EXPECT_NEAR(q[3], std::cos(0.25), 1e-15);
  // rotation_of is the matrix quaternion_of reads back.
  std::mt19937 rng(3);
  std::normal_distribution<double> g;
  for (int i = 0; i < 1000; ++i) {
    std::array<double, 4> r{g(rng), g(rng), g(rng), g(rng)};
    const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    for (auto& c : r) c /= n;
    const auto back = quaternion_of(rotation_of(r));
    const double dot = back[0] * r[0] + back[1] * r[1] + back[2] * r[2] + back[3] * r[3];
    EXPECT_NEAR(std::fabs(dot), 1.0, 1e-12);
  }
}

TEST(SdkPose, EnvelopeAnglesStayContinuous) {
  // Three turns about Y and a pass through the gimbal: no step between frames jumps by a turn or
  // flips; each triple gives the frame's rotation.
  std::array<double, 3> prev{};
  for (int f = 0; f <= 300; ++f) {
    const double t = f / 100.0;
    const auto m = set_hpb(t * 2 * kPi, std::sin(t * 3) * 1.6, 0.3 * t);
    const auto a = envelope_angles(m, f == 0 ? nullptr : &prev);
    EXPECT_LT(max_diff(envelope_rotation(a[0], a[1], a[2]), m), 1e-9) << f;
    if (f > 0) {
      for (int c = 0; c < 3; ++c) EXPECT_LT(std::fabs(a[c] - prev[c]), 0.5) << "frame " << f << " angle " << c;
    }
    prev = a;
  }
}

TEST(SdkPose, StoredKeysComeBackFromTheirFloatAngles) {
  // The SDK's keys (truncated float quaternions), decoded, turned into float angles as the .omf ->
  // .skls conversion does, and compiled again: every key comes back, sign included.
  std::mt19937 rng(11);
  std::normal_distribution<double> g;
  int same = 0, n = 20000;
  for (int i = 0; i < n; ++i) {
    std::array<double, 4> r{g(rng), g(rng), g(rng), g(rng)};
    const double len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    for (auto& c : r) c /= len;
    // The sign the SDK's Fquaternion::set gives this rotation, then its truncation.
    const auto sdk = quaternion_of(rotation_of(std::array<float, 4>{float(r[0]), float(r[1]), float(r[2]), float(r[3])}));
    const auto key = truncated(sdk);
    const auto a = envelope_angles(rotation_of(unit_key(key)));
    bool found = false;
    const auto back = compiled_key(float(a[0]), float(a[1]), float(a[2]), &found);
    same += back == key;
    if (back != key && i < 5000) ADD_FAILURE() << "key " << key[0] << " " << key[1] << " " << key[2] << " " << key[3];
  }
  EXPECT_EQ(same, n);
}

TEST(SdkPose, NewAnglesGetTheSdksTruncation) {
  // Angles that are no stored key's: the SDK's int(q * 32767), as it computes q in float.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> angle(-3.0f, 3.0f);
  int sdk = 0, n = 20000;
  for (int i = 0; i < n; ++i) {
    const float h = angle(rng), p = angle(rng) / 2, b = angle(rng);
    const auto q = quaternion_of(envelope_rotation(h, p, b));
    sdk += compiled_key(h, p, b) == truncated(q);
  }
  EXPECT_GE(sdk, n - 2) << "keys that took another direction's key";
}

TEST(SdkPose, TranslationEncodingsAreFoundAgain) {
  // Tracks quantised here by the SDK's formulas in float (ExportSkeleton.cpp), decoded as the engine
  // decodes them: the encoding found again decodes to the same values, and is the stored one.
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> pos(-2.0f, 2.0f), range(0.0001f, 2.0f);
  int exact = 0, n = 3000;
  for (int i = 0; i < n; ++i) {
    const bool sixteen = i % 2 == 1;
    const float k = sixteen ? 32767.0f : 127.0f;
    const float centre0 = pos(rng), half0 = range(rng);
    std::vector<float> t(40);
    for (auto& v : t) v = centre0 + half0 * std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    const float lo = *std::min_element(t.begin(), t.end()), hi = *std::max_element(t.begin(), t.end());
    const float centre = (hi + lo) * 0.5f, half = (hi - lo) * 0.5f, size = half / k;
    std::vector<float> decoded;
    for (float v : t) {
      const int q = std::clamp(static_cast<int>(k * (v - centre) / half), sixteen ? -32767 : -128, sixteen ? 32767 : 127);
      decoded.push_back(decode_translation(q, size, centre));
    }
    const auto enc = recover_axis_encoding(decoded, sixteen);
    ASSERT_TRUE(enc.found) << i;
    for (float v : decoded) {
      const int q = static_cast<int>(std::nearbyint((double(v) - enc.init) / enc.size));
      EXPECT_EQ(decode_translation(q, enc.size, enc.init), v);
    }
    exact += enc.size == size && enc.init == centre;
  }
  EXPECT_GE(exact, n * 99 / 100) << "encodings other than the stored one";
  // Values no quantisation made: no encoding.
  std::vector<float> free{0.1f, 0.2f, 0.3001f, 0.45f, 0.7f};
  EXPECT_FALSE(recover_axis_encoding(free, false).found);
}

}  // namespace
}  // namespace boneyard::xray
