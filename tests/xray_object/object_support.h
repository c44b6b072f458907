// Shared by the .object tests: the SDK samples, the export to an in-memory .glb and back, and a
// comparison of two scenes' meshes as sets of triangles (what a DCC round trip may reorder).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/object/object_scene.h"
#include "test_support.h"

namespace boneyard::test {

// Every file with `extension` under samples/xray/sdk (sorted).
inline std::vector<std::filesystem::path> sdk_samples(const std::string& extension) {
  std::vector<std::filesystem::path> out;
  const auto root = samples_dir() / "xray" / "sdk";
  if (!std::filesystem::is_directory(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == extension) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// blender-xray's files that are broken on purpose (its tests expect errors).
inline bool broken_on_purpose(const std::filesystem::path& p) {
  const std::string n = p.filename().string();
  return n == "test_fmt_broken.object" || n == "test_fmt_invalid_face.object";
}

inline xray::ObjectFile load_object(const std::filesystem::path& p) {
  auto f = FileData::open(p);
  EXPECT_TRUE(f) << p;
  auto r = xray::read_object(std::move(f).value());
  EXPECT_TRUE(r) << p << ": " << (r ? "" : r.error().path + ": " + r.error().message);
  return r ? std::move(r).value() : xray::ObjectFile{};
}

inline xray::ObjectFile object_of(const std::vector<std::uint8_t>& bytes) {
  auto r = xray::read_object(FileData::from_vector(bytes));
  EXPECT_TRUE(r) << (r ? "" : r.error().path + ": " + r.error().message);
  return r ? std::move(r).value() : xray::ObjectFile{};
}

inline scene::Scene object_scene(const xray::ObjectFile& f) {
  Diagnostics w;
  auto s = xray::object_to_scene(f, "model", {}, w);
  EXPECT_TRUE(s) << (s ? "" : s.error().path + ": " + s.error().message);
  return s ? std::move(s).value() : scene::Scene{};
}

// Through glTF bytes and back, as `convert` does.
inline scene::Scene through_glb(const scene::Scene& s) {
  const auto glb = gltf::write(s, gltf::Container::glb).main;
  gltf::ReadOptions o;
  o.require_animations = false;
  Diagnostics w;
  auto r = gltf::read(Bytes(glb.data(), glb.size()), {}, o, w);
  EXPECT_TRUE(r) << (r ? "" : r.error().path + ": " + r.error().message);
  return r ? std::move(r).value() : scene::Scene{};
}

// One corner of a triangle: position, normal, every UV layer and the weights by joint name.
struct Corner {
  std::array<float, 3> p{}, n{};
  std::vector<float> uv;
  std::map<std::string, float> w;
};
using Triangle = std::array<Corner, 3>;

// Each material's triangles (by material name), every corner's attributes read from the scene.
inline std::map<std::string, std::vector<Triangle>> triangles_by_material(const scene::Scene& s, bool with_normals = true) {
  std::map<std::string, std::vector<Triangle>> out;
  for (const auto& m : s.meshes)
    for (const auto& p : m.primitives) {
      const std::string mat = p.material < s.materials.size() ? s.materials[p.material].name : "";
      for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
        Triangle tri;
        for (int k = 0; k < 3; ++k) {
          const std::uint32_t v = p.indices[t + std::size_t(k)];
          Corner& c = tri[std::size_t(k)];
          for (int i = 0; i < 3; ++i) c.p[std::size_t(i)] = p.positions[v * 3 + std::uint32_t(i)];
          if (with_normals && p.normals.size() == p.positions.size())
            for (int i = 0; i < 3; ++i) c.n[std::size_t(i)] = p.normals[v * 3 + std::uint32_t(i)];
          for (const auto& uv : p.uvs) c.uv.insert(c.uv.end(), {uv[v * 2], uv[v * 2 + 1]});
          for (std::size_t k2 = 0; k2 < 4 && v * 4 + k2 < p.weights.size(); ++k2) {
            const float w = p.weights[v * 4 + k2];
            if (w > 0) c.w[s.skeleton.joints[p.joints[v * 4 + k2]].name] += w;
          }
        }
        out[mat].push_back(tri);
      }
    }
  return out;
}

inline bool same_corner(const Corner& a, const Corner& b, double tol) {
  for (int i = 0; i < 3; ++i)
    if (std::fabs(a.p[std::size_t(i)] - b.p[std::size_t(i)]) > tol || std::fabs(a.n[std::size_t(i)] - b.n[std::size_t(i)]) > 2e-3)
      return false;
  if (a.uv.size() != b.uv.size()) return false;
  for (std::size_t i = 0; i < a.uv.size(); ++i)
    if (std::fabs(a.uv[i] - b.uv[i]) > 1e-5) return false;
  for (const auto& [j, w] : a.w) {
    const auto it = b.w.find(j);
    if (std::fabs(w - (it == b.w.end() ? 0.0f : it->second)) > 1e-4) return false;
  }
  for (const auto& [j, w] : b.w)
    if (!a.w.count(j) && w > 1e-4) return false;
  return true;
}

// How many triangles of `want` have no equal triangle (any rotation of its corners) in `have`,
// each triangle of `have` used once.
inline std::size_t missing_triangles(const std::vector<Triangle>& want, const std::vector<Triangle>& have, double tol = 1e-5) {
  std::multimap<long long, std::size_t> grid;  // by x of the first corner's position, coarsely
  auto key = [](const Triangle& t) {
    float x = std::min({t[0].p[0], t[1].p[0], t[2].p[0]});
    return static_cast<long long>(std::floor(x * 1000.0f));
  };
  for (std::size_t i = 0; i < have.size(); ++i) grid.emplace(key(have[i]), i);
  std::vector<bool> used(have.size(), false);
  std::size_t missing = 0;
  for (const auto& t : want) {
    bool found = false;
    const long long k = key(t);
    for (long long d = -1; d <= 1 && !found; ++d) {
      auto [lo, hi] = grid.equal_range(k + d);
      for (auto it = lo; it != hi && !found; ++it) {
        if (used[it->second]) continue;
        const Triangle& h = have[it->second];
        for (int r = 0; r < 3 && !found; ++r)
          found = same_corner(t[0], h[std::size_t(r)], tol) && same_corner(t[1], h[std::size_t((r + 1) % 3)], tol) &&
                  same_corner(t[2], h[std::size_t((r + 2) % 3)], tol);
        if (found) used[it->second] = true;
      }
    }
    missing += found ? 0 : 1;
  }
  return missing;
}

}  // namespace boneyard::test
