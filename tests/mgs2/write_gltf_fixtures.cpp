// Writes the MGS2 models the external glTF checks convert (tests/gltf/run_mgs2_checks.sh): the
// hand-laid fixtures and builder-made models (cube, envelope arm, EVM ribbon), plus a manifest
// line per file with the counts the glTF must show: joints, vertices, triangles (from the native
// packets: strip vertices of packets that draw, triangles decoded from the kick flags).
// Usage: write_gltf_fixtures DIR
#include <cstdio>
#include <fstream>

#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/strips.h"
#include "mgs2_fixture.h"
#include "mgs2_gltf_support.h"

using namespace boneyard;
using namespace boneyard::mgs2;

namespace {

std::FILE* manifest = nullptr;

void save(const std::string& dir, const std::string& name, const std::vector<std::uint8_t>& b) {
  std::ofstream(dir + "/" + name, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
  std::size_t joints = 0, verts = 0, tris = 0;
  const Bytes bytes(b.data(), b.size());
  if (name.ends_with(".kms")) {
    const KmsFile m = read_kms(FileData::from_view(bytes, nullptr)).value();
    joints = m.units.size();
    for (const auto& u : m.units)
      for (const auto& p : u.packets)
        if (const auto t = count_strip_triangles(p.norms.data, p.vertex_count()); t != 0) verts += p.vertex_count(), tris += t;
  } else {
    const EvmFile m = read_evm(FileData::from_view(bytes, nullptr)).value();
    joints = m.bones.size();
    for (const auto& p : m.packets)
      if (const auto t = count_strip_triangles(p.verts.data, p.vertex_count()); t != 0) verts += p.vertex_count(), tris += t;
  }
  std::fprintf(manifest, "%s %zu %zu %zu\n", name.c_str(), joints, verts, tris);
}

scene::Scene ribbon(int joints, int rows, float step) {
  using namespace boneyard::test;
  scene::Scene s;
  for (int j = 0; j < joints; ++j) s.skeleton.joints.push_back(joint("j", j - 1, {0, j ? 0.1f : 0.0f, 0}));
  std::vector<Vtx> vs;
  std::vector<std::uint32_t> idx;
  for (int r = 0; r < rows; ++r) {
    const float t = float(r) * step / 0.1f;
    const int j0 = std::min(int(t), joints - 1), j1 = std::min(j0 + 1, joints - 1);
    for (int c = 0; c < 2; ++c) {
      Vtx v{};
      v.pos = {0.05f * float(c), step * float(r), 0};
      v.normal = {0, 0, 1};
      v.uv = {float(c), float(r) / float(rows)};
      v.joints = {std::uint16_t(j0), std::uint16_t(j1), 0, 0};
      v.weights = j0 == j1 ? std::array<float, 4>{1, 0, 0, 0} : std::array<float, 4>{1 - (t - float(j0)), t - float(j0), 0, 0};
      vs.push_back(v);
    }
  }
  for (std::uint32_t r = 0; r + 1 < std::uint32_t(rows); ++r) {
    const std::uint32_t a = r * 2;
    idx.insert(idx.end(), {a, a + 1, a + 3, a, a + 3, a + 2});
  }
  scene::Mesh mesh;
  mesh.skinned = true;
  mesh.primitives.push_back(make_primitive(vs, idx));
  s.meshes.push_back(mesh);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_gltf_fixtures DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  manifest = std::fopen((dir + "/manifest.txt").c_str(), "w");
  if (manifest == nullptr) return 2;
  using namespace boneyard::test::mgs2fx;
  save(dir, "standard_ps2.kms", kms_bytes(standard_kms(false, false)));
  save(dir, "standard_mc_multitex.kms", kms_bytes(standard_kms(true, true)));
  save(dir, "standard_ps2.evm", evm_bytes(standard_evm(false, false, false)));
  save(dir, "standard_mc_large_v1.evm", evm_bytes(standard_evm(true, true, true)));
  Diagnostics w;
  {
    using namespace boneyard::test;
    scene::Scene cube;
    cube.skeleton.joints = {joint("root", -1, {0, 1, 0})};
    std::vector<Vtx> vs;
    std::vector<std::uint32_t> idx;
    add_box(vs, idx, {-0.1f, 0.9f, -0.1f}, {0.1f, 1.1f, 0.1f});
    scene::Mesh mesh;
    mesh.skinned = true;
    mesh.primitives.push_back(make_primitive(vs, idx));
    cube.meshes.push_back(mesh);
    save(dir, "cube.kms", scene_to_kms(cube, {}, w).value());
  }
  save(dir, "ribbon8.evm", scene_to_evm(ribbon(8, 15, 0.05f), {}, w).value());
  save(dir, "ribbon8.kms", scene_to_kms(ribbon(8, 15, 0.05f), {}, w).value());
  std::fclose(manifest);
  return 0;
}
