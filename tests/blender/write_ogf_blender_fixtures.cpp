// Writes boneyard-made .ogf models for blender-xray to read (blender_xray_ogf_test.py), each with
// what it must contain, taken from the glTF scene it was made from (not from the written file):
// OUT_DIR/<name>.ogf and OUT_DIR/expect.json = {name: {"bones": [[name, parent]...], "corners":
// [[x, y, z, u, v, {bone: weight}]...] (X-Ray space, every triangle corner), "materials":
// [[texture, shader]...]}}. The models: the binoculars with one vertex moved (template import),
// zombi_1 without a template for SoC and CoP, protein (rigid) and a static model. Exit 3 when the
// samples are absent.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "boneyard/core/text.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "ogf_mesh_fixture.h"
#include "scene/extras_json.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;

std::optional<xray::OgfFile> load(const fs::path& p) {
  auto f = FileData::open(p);
  if (!f) return std::nullopt;
  auto r = xray::read_ogf(std::move(f).value());
  if (!r) return std::nullopt;
  return std::move(r).value();
}

// Our export of the model, through a .glb in memory, read back as `convert` reads a glTF.
scene::Scene exported(const xray::OgfFile& ogf) {
  scene::Scene s;
  if (ogf.bones.empty()) s.skeleton.name = "static";
  else s = xray::skeleton_scene(ogf, "model").value();
  Diagnostics w;
  (void)xray::add_meshes(s, ogf, {}, w);
  const auto glb = gltf::write(s, gltf::Container::glb).main;
  gltf::ReadOptions o;
  o.require_animations = false;
  return gltf::read(Bytes(glb.data(), glb.size()), {}, o, w).value();
}

// What the scene says the model holds, in X-Ray space.
nlohmann::json expectation(const scene::Scene& s) {
  nlohmann::json e;
  e["bones"] = nlohmann::json::array();
  const auto& joints = s.skeleton.joints;
  std::vector<bool> bone(joints.size(), false);
  for (auto j : s.skeleton.skin) bone[j] = true;
  for (std::size_t j = 0; j < joints.size(); ++j)
    if (bone[j]) e["bones"].push_back({joints[j].name, joints[j].parent >= 0 && bone[std::size_t(joints[j].parent)] ? joints[std::size_t(joints[j].parent)].name : ""});
  const auto world = scene::world_matrices(s.skeleton);
  e["corners"] = nlohmann::json::array();
  std::set<std::pair<std::string, std::string>> materials;
  for (const auto& m : s.meshes) {
    // A rigid mesh's node: its own bone, or (our export's static meshes) the model's root node.
    const scene::Mat4* w = m.skinned || m.joint < 0 ? nullptr : &world[std::size_t(m.joint)];
    const std::string rigid_bone = !m.skinned && m.joint >= 0 && bone[std::size_t(m.joint)] ? joints[std::size_t(m.joint)].name : "";
    for (const auto& p : m.primitives) {
      const auto& mx = json_of(s.materials[p.material].extras)["xray"];
      materials.insert({mx.value("texture", ""), mx.value("shader", "")});
      for (std::size_t t = 0; t < p.indices.size(); ++t) {
        const std::size_t i = p.indices[t];
        double g[3] = {p.positions[i * 3], p.positions[i * 3 + 1], p.positions[i * 3 + 2]};
        if (w) {
          const auto& a = *w;
          const double x = g[0], y = g[1], z = g[2];
          for (int r = 0; r < 3; ++r) g[r] = a[std::size_t(r)] * x + a[std::size_t(4 + r)] * y + a[std::size_t(8 + r)] * z + a[std::size_t(12 + r)];
        }
        nlohmann::json weights = nlohmann::json::object();
        if (!p.joints.empty()) {
          for (int k = 0; k < 4; ++k)
            if (p.weights[i * 4 + std::size_t(k)] > 0) {
              const std::string name = joints[p.joints[i * 4 + std::size_t(k)]].name;
              weights[name] = weights.value(name, 0.0) + p.weights[i * 4 + std::size_t(k)];
            }
        } else if (!rigid_bone.empty()) {
          weights[rigid_bone] = 1.0;
        }
        e["corners"].push_back({g[0], g[1], -g[2], p.uvs[0][i * 2], p.uvs[0][i * 2 + 1], weights});
      }
    }
  }
  e["materials"] = nlohmann::json::array();
  for (const auto& [t, sh] : materials) e["materials"].push_back({t, sh});
  return e;
}

bool write(const fs::path& path, const std::vector<std::uint8_t>& b) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return static_cast<bool>(out);
}

bool make(const fs::path& dir, const std::string& name, const scene::Scene& s, const xray::OgfImportOptions& o,
          nlohmann::json& expect) {
  Diagnostics w;
  auto bytes = xray::scene_to_ogf_bytes(s, o, w);
  if (!bytes) {
    std::fprintf(stderr, "%s: %s: %s\n", name.c_str(), bytes.error().path.c_str(), bytes.error().message.c_str());
    return false;
  }
  expect[name] = expectation(s);
  return write(dir / (name + ".ogf"), bytes.value());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: write_ogf_blender_fixtures SAMPLES_DIR OUT_DIR\n");
    return 2;
  }
  const fs::path samples = fs::path(argv[1]) / "xray", dir = argv[2];
  fs::create_directories(dir);
  auto binoculars = load(samples / "soc/wpn_binoculars_hud.ogf");
  auto zombi = load(samples / "soc/zombi_1.ogf");
  auto protein = load(samples / "cop/protein.ogf");
  if (!binoculars || !zombi || !protein) return 3;
  nlohmann::json expect;
  bool ok = true;
  {  // template import with one vertex of child 1 moved by 1 cm
    scene::Scene s = exported(*binoculars);
    for (auto& m : s.meshes)
      for (auto& p : m.primitives)
        if (json_of(p.extras)["xray"].value("child", 99) == 1) p.positions[1] += 0.01f;
    xray::OgfImportOptions o;
    o.template_ogf = &*binoculars;
    ok = ok && make(dir, "edited_binoculars", s, o, expect);
  }
  {
    const scene::Scene s = exported(*zombi);
    xray::OgfImportOptions o;
    o.game = xray::Game::soc;
    ok = ok && make(dir, "new_zombi_soc", s, o, expect);
    o.game = xray::Game::cop;
    ok = ok && make(dir, "new_zombi_cop", s, o, expect);
  }
  ok = ok && make(dir, "new_protein", exported(*protein), {}, expect);
  {  // a static model: two FVF children
    using namespace boneyard::test;
    ChildSpec a;
    a.type = 0;
    a.format = 0x112;
    for (int i = 0; i < 4; ++i) {
      MeshVertex v;
      v.p = {float(i % 2), float(i / 2), 0.25f};
      v.n = {0, 0, -1};
      v.u = float(i % 2), v.v = float(i / 2);
      a.vertices.push_back(static_vertex(v));
    }
    a.indices = {0, 1, 2, 1, 3, 2};
    Buf f;
    f.chunk(0x1, child_header(1)).chunk(0x9, children({child(a)}));
    auto r = xray::read_ogf(FileData::from_vector(f.b));
    ok = ok && r && make(dir, "new_static", exported(r.value()), {}, expect);
  }
  std::ofstream(dir / "expect.json") << expect.dump();
  return ok ? 0 : 1;
}
