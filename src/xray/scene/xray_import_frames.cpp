// Joint frames turned by a DCC tool (Blender's default bone_heuristic='TEMPERANCE' re-orients
// every bone): the per-joint constant rotation between the glTF rest pose and the engine's bind
// pose, so that keys written in the turned frames come back in engine space. The derivation is in
// docs/xray-gltf-import.md ("Joint frames"); everything here is in glTF space (column vectors,
// world = parent * local), where the turn composes simply.
#include <cmath>
#include <cstdio>

#include "xray_import_internal.h"

namespace boneyard::xray::import_detail {

namespace {

struct DQuat {
  double x = 0, y = 0, z = 0, w = 1;
};

DQuat to_d(const Quat& q) {
  const double n = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
  if (!(n > 0) || !std::isfinite(n)) return {};
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}
Quat to_f(const DQuat& q) { return {float(q.x), float(q.y), float(q.z), float(q.w)}; }

DQuat mul(const DQuat& a, const DQuat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
DQuat inverse(const DQuat& q) { return {-q.x, -q.y, -q.z, q.w}; }

// v rotated by the unit quaternion q (q v q^-1).
void rotate(const DQuat& q, const double v[3], double out[3]) {
  const double tx = 2 * (q.y * v[2] - q.z * v[1]), ty = 2 * (q.z * v[0] - q.x * v[2]), tz = 2 * (q.x * v[1] - q.y * v[0]);
  out[0] = v[0] + q.w * tx + (q.y * tz - q.z * ty);
  out[1] = v[1] + q.w * ty + (q.z * tx - q.x * tz);
  out[2] = v[2] + q.w * tz + (q.x * ty - q.y * tx);
}

double angle_of(const DQuat& q) {
  const double s = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2 * std::atan2(s, std::fabs(q.w));
}

std::string metres(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g m", v);
  return b;
}

}  // namespace

Quat turned_rotation(const JointTurn& t, const float* xyzw) {
  const DQuat q = to_d({xyzw[0], xyzw[1], xyzw[2], xyzw[3]});
  return to_f(mul(mul(to_d(t.parent), q), inverse(to_d(t.own))));
}

Vec3 turned_translation(const JointTurn& t, const float* xyz) {
  const double v[3] = {xyz[0], xyz[1], xyz[2]};
  double r[3];
  rotate(to_d(t.parent), v, r);
  return {float(r[0]), float(r[1]), float(r[2])};
}

// Per glTF node (bones only): own turn C = B^-1 * C_parent * R', from R' = C_parent^-1 * B * C
// (the rest rotation written in the turned frames), and the position check t' = C_parent^-1 * t.
Result<std::vector<JointTurn>> joint_turns(const JointFrameInput& in, std::vector<std::size_t>& corrected) {
  const auto& joints = in.skeleton.joints;
  const std::size_t nodes = joints.size();
  std::vector<DQuat> own(nodes);
  std::vector<char> state(nodes, 0);  // 0 to do, 1 in progress, 2 done
  std::vector<JointTurn> turns(in.bind_known.size());
  corrected.clear();
  std::vector<std::size_t> chain;
  for (std::size_t start = 0; start < nodes; ++start) {
    // Parents first: walk up to the first finished (or root) node, then down the chain.
    chain.clear();
    for (std::size_t j = start; j < nodes && state[j] == 0; j = joints[j].parent < 0 ? nodes : std::size_t(joints[j].parent)) {
      state[j] = 1;
      chain.push_back(j);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const std::size_t j = *it;
      state[j] = 2;
      const int p = joints[j].parent;
      const DQuat parent = p >= 0 && std::size_t(p) < nodes ? own[p] : DQuat{};
      const std::size_t bone = j < in.bone_of.size() ? in.bone_of[j] : kNoBone;
      if (bone == kNoBone || bone >= in.bind_known.size() || !in.bind_known[bone]) {
        own[j] = {};  // no engine pose to compare with: the glTF rest pose is taken as it is
        continue;
      }
      const Quat bind_rot = from_gltf(in.bind_rotation[bone]);  // glTF space (the map is its own inverse)
      const Vec3 bind_pos = from_gltf(in.bind_translation[bone]);
      DQuat c = mul(mul(inverse(to_d(bind_rot)), parent), to_d(joints[j].rotation));
      if (angle_of(c) < kJointTurnSnap) c = {};
      own[j] = c;
      const double t[3] = {joints[j].translation.x, joints[j].translation.y, joints[j].translation.z};
      double back[3];
      rotate(parent, t, back);
      const double d = std::hypot(back[0] - bind_pos.x, back[1] - bind_pos.y, back[2] - bind_pos.z);
      if (!(d <= kJointPositionTolerance))
        return Finding{Severity::error, 0, "node \"" + joints[j].name + "\"",
                       "skeleton mismatch: the joint's rest position differs from the bind pose (another skeleton?)",
                       "within " + metres(kJointPositionTolerance) + " of the bind position",
                       metres(d) + " away"};
      if (turns[bone].turned) continue;  // a second node of the same bone: the first one counts
      turns[bone].parent = to_f(parent);
      turns[bone].own = to_f(c);
      turns[bone].turned = angle_of(parent) > 0 || angle_of(c) > 0;
      if (angle_of(c) > 0) corrected.push_back(bone);
    }
  }
  return turns;
}

}  // namespace boneyard::xray::import_detail
