// Bind-pose angles and bone boxes for the template-less import (ogf_bones.h). Zero boxes are what
// made models vanish near the screen edges in blender-xray's exporter (its issue 642): the engine
// computes a skeleton's visibility box from the bone boxes (CKinematics::CalculateBones).
#include "ogf_bones.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "boneyard/xray/xray_scene.h"

namespace boneyard::xray::ogf_import {

Quat rotation_of(const scene::Mat4& m) {
  double c[3][3];  // c[col][row]
  for (int col = 0; col < 3; ++col) {
    const double x = m[std::size_t(col * 4)], y = m[std::size_t(col * 4 + 1)], z = m[std::size_t(col * 4 + 2)];
    const double l = std::sqrt(x * x + y * y + z * z);
    const double k = l > 0 ? 1 / l : 0;
    c[col][0] = x * k, c[col][1] = y * k, c[col][2] = z * k;
  }
  // r[row][col]; Shepperd's method.
  const double r00 = c[0][0], r11 = c[1][1], r22 = c[2][2];
  const double r01 = c[1][0], r10 = c[0][1], r02 = c[2][0], r20 = c[0][2], r12 = c[2][1], r21 = c[1][2];
  double x, y, z, w;
  const double tr = r00 + r11 + r22;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1) * 2;
    w = s / 4, x = (r21 - r12) / s, y = (r02 - r20) / s, z = (r10 - r01) / s;
  } else if (r00 > r11 && r00 > r22) {
    const double s = std::sqrt(1 + r00 - r11 - r22) * 2;
    w = (r21 - r12) / s, x = s / 4, y = (r01 + r10) / s, z = (r02 + r20) / s;
  } else if (r11 > r22) {
    const double s = std::sqrt(1 + r11 - r00 - r22) * 2;
    w = (r02 - r20) / s, x = (r01 + r10) / s, y = s / 4, z = (r12 + r21) / s;
  } else {
    const double s = std::sqrt(1 + r22 - r00 - r11) * 2;
    w = (r10 - r01) / s, x = (r02 + r20) / s, y = (r12 + r21) / s, z = s / 4;
  }
  return scene::normalized({float(x), float(y), float(z), float(w)});
}

Vec3 xyz_rotation(const Quat& q0) {
  const Quat q = scene::normalized(q0);
  const double x = q.x, y = q.y, z = q.z, w = q.w;
  // The standard matrix R(q), m[row][col], equals setHPB(h, p, b) with h = -r.y, p = -r.x,
  // b = -r.z; its entries: m21 = sin p, m20 = -cos p sin h, m22 = cos p cos h,
  // m01 = -cos p sin b, m11 = cos p cos b.
  const double m00 = 1 - 2 * (y * y + z * z), m01 = 2 * (x * y - z * w), m02 = 2 * (x * z + y * w);
  const double m11 = 1 - 2 * (x * x + z * z);
  const double m20 = 2 * (x * z - y * w), m21 = 2 * (y * z + x * w), m22 = 1 - 2 * (x * x + y * y);
  const double p = std::asin(std::clamp(m21, -1.0, 1.0));
  double h, b;
  if (std::fabs(std::cos(p)) > 1e-6) {
    h = std::atan2(-m20, m22);
    b = std::atan2(-m01, m11);
  } else {  // gimbal lock: b = 0, then m00 = cos h, m02 = sin h
    b = 0;
    h = std::atan2(m02, m00);
  }
  return {float(-p), float(-h), float(-b)};
}

namespace {

// Eigenvectors of a symmetric 3x3 matrix (cyclic Jacobi), as the columns of v.
void eigenvectors(double a[3][3], double v[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v[i][j] = i == j ? 1 : 0;
  for (int sweep = 0; sweep < 50; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    if (off < 1e-30) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (std::fabs(a[p][q]) < 1e-300) continue;
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; ++k) {  // A = J^T A J
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq, a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk, a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq, v[k][q] = s * vkp + c * vkq;
        }
      }
  }
}

struct Fit {
  double axes[3][3];  // rows: the box axes
  double lo[3], hi[3];
  double volume() const { return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]); }
};

Fit fit(const std::vector<Vec3>& pts, const double axes[3][3]) {
  Fit f;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) f.axes[i][k] = axes[i][k];
    f.lo[i] = 1e300, f.hi[i] = -1e300;
  }
  for (const auto& p : pts)
    for (int i = 0; i < 3; ++i) {
      const double d = axes[i][0] * p.x + axes[i][1] * p.y + axes[i][2] * p.z;
      f.lo[i] = std::min(f.lo[i], d), f.hi[i] = std::max(f.hi[i], d);
    }
  return f;
}

Obb box_of(const std::vector<Vec3>& pts) {
  Obb o;
  o.rotate = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  if (pts.size() < 3) return o;  // invalidate(): identity, zero size
  double mean[3] = {0, 0, 0};
  for (const auto& p : pts) mean[0] += p.x, mean[1] += p.y, mean[2] += p.z;
  for (double& m : mean) m /= double(pts.size());
  double cov[3][3] = {};
  for (const auto& p : pts) {
    const double d[3] = {p.x - mean[0], p.y - mean[1], p.z - mean[2]};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) cov[i][j] += d[i] * d[j];
  }
  double vec[3][3];
  eigenvectors(cov, vec);
  double pca[3][3], ident[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) pca[i][k] = vec[k][i];
  // A proper rotation: the third axis is the cross product of the first two.
  pca[2][0] = pca[0][1] * pca[1][2] - pca[0][2] * pca[1][1];
  pca[2][1] = pca[0][2] * pca[1][0] - pca[0][0] * pca[1][2];
  pca[2][2] = pca[0][0] * pca[1][1] - pca[0][1] * pca[1][0];
  const Fit a = fit(pts, pca), b = fit(pts, ident);
  const Fit& best = a.volume() < b.volume() ? a : b;
  double centre[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const double mid = (best.lo[i] + best.hi[i]) / 2;
    for (int k = 0; k < 3; ++k) centre[k] += mid * best.axes[i][k];
    (&o.halfsize.x)[i] = float((best.hi[i] - best.lo[i]) / 2);
    for (int k = 0; k < 3; ++k) o.rotate[std::size_t(i * 3 + k)] = float(best.axes[i][k]);
  }
  o.translate = {float(centre[0]), float(centre[1]), float(centre[2])};
  return o;
}

}  // namespace

void fit_boxes(std::vector<ogf_build::BoneRecord>& bones, const std::vector<ogf_build::ChildGeometry>& children) {
  // The bind pose as a skeleton in glTF space, to bring model-space points into each bone's space.
  scene::Skeleton sk;
  std::unordered_map<std::string, int> index;
  for (std::size_t b = 0; b < bones.size(); ++b) index.emplace(bones[b].name, int(b));
  for (const auto& b : bones) {
    scene::Joint j;
    const auto it = index.find(b.parent);
    j.parent = b.parent.empty() || it == index.end() ? -1 : it->second;
    j.translation = to_gltf(b.bind_position);
    j.rotation = to_gltf(bind_quaternion(b.bind_rotation));
    sk.joints.push_back(j);
  }
  auto inverse = scene::world_matrices(sk);
  for (auto& m : inverse) m = scene::inverse_affine(m);
  std::vector<std::vector<Vec3>> points(bones.size());
  for (const auto& c : children) {
    if (c.links == 0) continue;
    for (const auto& v : c.vertices) {
      const std::size_t b = v.bones[0];  // the heaviest influence
      if (b >= bones.size()) continue;
      const scene::Mat4& m = inverse[b];
      const double g[3] = {v.position.x, v.position.y, -v.position.z};  // glTF model space
      const double l[3] = {m[0] * g[0] + m[4] * g[1] + m[8] * g[2] + m[12], m[1] * g[0] + m[5] * g[1] + m[9] * g[2] + m[13],
                           m[2] * g[0] + m[6] * g[1] + m[10] * g[2] + m[14]};
      points[b].push_back({float(l[0]), float(l[1]), float(-l[2])});  // bone space, X-Ray
    }
  }
  for (std::size_t b = 0; b < bones.size(); ++b) bones[b].obb = box_of(points[b]);
}

}  // namespace boneyard::xray::ogf_import
