// Helpers for the glTF tests: a meshes tree of symlinks to the real samples
// (the samples are never copied into the repository), and the engine's pose convention written
// independently of the library (row-vector matrices, parent after child).
#pragma once

#include <array>
#include <filesystem>
#include <random>
#include <string>

#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "cli_harness.h"
#include "test_support.h"

namespace boneyard::test {

namespace fs = std::filesystem;

inline std::shared_ptr<const FileData> open_file(const fs::path& p) {
  auto f = FileData::open(p);
  return f.value();
}

// Builds <root>/meshes/<where>/<model>.ogf and one <root>/meshes/<ref>.omf per motion ref, as
// symlinks to the sample beside the model; returns the linked .ogf.
inline fs::path link_model(const fs::path& root, const fs::path& sample_ogf, const std::string& where) {
  const fs::path meshes = root / "meshes";
  fs::create_directories(meshes / where);
  const fs::path ogf = meshes / where / sample_ogf.filename();
  fs::create_symlink(sample_ogf, ogf);
  auto read = xray::read_ogf(open_file(sample_ogf));
  for (std::string ref : read->motion_refs) {
    std::replace(ref.begin(), ref.end(), '\\', '/');
    const fs::path target = meshes / (ref + ".omf");
    fs::create_directories(target.parent_path());
    const fs::path source = sample_ogf.parent_path() / (fs::path(ref).filename().string() + ".omf");
    if (fs::exists(source) && !fs::exists(target)) fs::create_symlink(source, target);
  }
  return ogf;
}

// Row-major 4x4 with row vectors (v' = v * M), as X-Ray's Fmatrix.
using RowMat = std::array<std::array<double, 4>, 4>;

// Fmatrix::rotation(q) stores the standard R(q) (row r, column c) and mk_xform puts T in row 3.
inline RowMat engine_xform(Quat q, const Vec3& t) {
  const double n = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
  const double x = q.x / n, y = q.y / n, z = q.z / n, w = q.w / n;
  RowMat m{};
  m[0] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 0};
  m[1] = {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 0};
  m[2] = {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), 0};
  m[3] = {t.x, t.y, t.z, 1};
  return m;
}

// Fmatrix::mul_43(parent, local): "local, then parent" = local * parent with row vectors.
inline RowMat engine_mul(const RowMat& parent, const RowMat& local) {
  RowMat c{};
  for (int r = 0; r < 4; ++r)
    for (int col = 0; col < 4; ++col)
      for (int k = 0; k < 4; ++k) c[r][col] += local[r][k] * parent[k][col];
  return c;
}

}  // namespace boneyard::test
