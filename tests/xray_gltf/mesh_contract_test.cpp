// The mesh contract of issue 7: in the bind pose and at frame 0 of every motion, a skinned
// vertex's world position by the glTF skinning equation (read back from the written .glb with
// tinygltf) equals the engine's skinning of the same vertex within 1e-4 m. The engine side is
// computed here from the native bytes, independently of the library: vertices decoded from the
// layout table of the notes (9.2), bind matrices from setHPB, key poses from the OMF keys, and
// v' = sum_k w_k * P * inverse(bind_world[b_k]) * anim_world[b_k] (row vectors, SkeletonX).
#include <cmath>
#include <cstring>

#include "scene/extras_json.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/gltf_files.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/xray_scene.h"
#include "gltf_model_support.h"

namespace boneyard::test {
namespace {

struct Model {
  const char* ogf;
  const char* where;   // folder under meshes/ (refs are resolved from there)
  std::size_t motions;  // animations expected in the glTF (0: bind pose only)
};

// Every sample OGF with meshes. lesnik, cat_weak, handflash and test_fmt refer to OMFs that are
// not among the samples (bind pose only); protein and flush_dead are type 10 (no motions).
const Model kModels[] = {
    {"cop/headflash_hud.ogf", "gwr/food/headflash", 1},
    {"cop/medkit_exo_hud.ogf", "gwr/equipment/medkit_exo", 5},
    {"soc/zombi_1.ogf", "monsters/zombi", 69},
    {"soc/wpn_binoculars_hud.ogf", "weapons/binoculars", 5},
    {"soc/rat_1.ogf", "monsters/rat", 45},
    {"cs/stalker_lesnik_1.ogf", "actors/stalker_lesnik", 0},
    {"cop/cat_weak.ogf", "monsters/cat", 0},
    {"cop/flush_dead.ogf", "monsters/flush", 0},
    {"cop/protein.ogf", "dynamics/zpf", 0},
    {"cop/handflash_hud.ogf", "dynamics/devices/dev_torch", 0},
    {"tools/test_fmt_ogf_gl.ogf", "test", 0},
};

// setXYZi(r) = setHPB(-r.y, -r.x, -r.z) as an Fmatrix (rows i, j, k), translation in row 3.
RowMat engine_bind_local(const Vec3& r, const Vec3& t) {
  const double h = -double(r.y), p = -double(r.x), b = -double(r.z);
  const double sh = std::sin(h), ch = std::cos(h), sp = std::sin(p), cp = std::cos(p), sb = std::sin(b),
               cb = std::cos(b);
  RowMat m{};
  m[0] = {ch * cb - sp * sh * sb, -cp * sb, sp * ch * sb + sh * cb, 0};
  m[1] = {sp * sh * cb + ch * sb, cp * cb, sh * sb - sp * ch * cb, 0};
  m[2] = {-cp * sh, sp, cp * ch, 0};
  m[3] = {t.x, t.y, t.z, 1};
  return m;
}

std::vector<RowMat> compose(const xray::OgfFile& ogf, const std::vector<RowMat>& local) {
  const std::size_t n = local.size();
  std::vector<RowMat> world(n);
  std::vector<bool> done(n, false);
  for (std::size_t pass = 0; pass < n; ++pass)
    for (std::size_t b = 0; b < n; ++b) {
      if (done[b]) continue;
      const int p = ogf.bones[b].parent;
      if (p < 0) world[b] = local[b], done[b] = true;
      else if (done[static_cast<std::size_t>(p)]) world[b] = engine_mul(world[static_cast<std::size_t>(p)], local[b]), done[b] = true;
    }
  return world;
}

RowMat rigid_inverse(const RowMat& m) {
  RowMat r{};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) r[a][b] = m[b][a];
  for (int c = 0; c < 3; ++c) r[3][c] = -(m[3][0] * r[0][c] + m[3][1] * r[1][c] + m[3][2] * r[2][c]);
  r[3][3] = 1;
  return r;
}

// A vertex straight from the bytes (notes 9.2): position, bones and the engine's weights.
struct RawVertex {
  double p[3];
  int bones[4];
  double w[4];
  int links;
};

RawVertex raw_vertex(const std::uint8_t* v, std::uint32_t format) {
  auto f = [&](std::size_t at) { float x; std::memcpy(&x, v + at, 4); return double(x); };
  auto u16 = [&](std::size_t at) { std::uint16_t x; std::memcpy(&x, v + at, 2); return int(x); };
  RawVertex r{};
  const int links = format == 0x12071980 ? 1 : format == 0x240E3300 ? 2 : static_cast<int>(format);
  r.links = links;
  if (links == 1) {
    for (int k = 0; k < 3; ++k) r.p[k] = f(4 * std::size_t(k));
    r.bones[0] = u16(56), r.w[0] = 1;
    return r;
  }
  const std::size_t pos = 2 * std::size_t(links), weights = pos + 48;
  for (int k = 0; k < 3; ++k) r.p[k] = f(pos + 4 * std::size_t(k));
  for (int k = 0; k < links; ++k) r.bones[k] = u16(2 * std::size_t(k));
  if (links == 2) {
    r.w[1] = f(weights), r.w[0] = 1 - r.w[1];
  } else {
    double rest = 1;
    for (int k = 0; k + 1 < links; ++k) rest -= (r.w[k] = f(weights + 4 * std::size_t(k)));
    r.w[links - 1] = rest;
  }
  return r;
}

std::array<double, 3> engine_skin(const RawVertex& v, const std::vector<RowMat>& skin) {
  std::array<double, 3> out{};
  for (int k = 0; k < v.links; ++k) {
    const RowMat& m = skin[static_cast<std::size_t>(v.bones[k])];
    for (int c = 0; c < 3; ++c)
      out[static_cast<std::size_t>(c)] += v.w[k] * (v.p[0] * m[0][c] + v.p[1] * m[1][c] + v.p[2] * m[2][c] + m[3][c]);
  }
  return out;
}

// glTF side of one mesh node: world positions of its vertices by the skinning equation (skinned)
// or by the node's world matrix (rigid), for the node poses `world`.
std::vector<std::array<double, 3>> gltf_positions(const tinygltf::Model& m, const tinygltf::Node& node,
                                                  const tinygltf::Primitive& prim, const std::vector<Mat4>& world,
                                                  const Mat4& node_world) {
  const int pos = prim.attributes.at("POSITION");
  const std::size_t count = m.accessors[static_cast<std::size_t>(pos)].count;
  std::vector<std::array<double, 3>> out(count);
  std::vector<Mat4> joint_mats;
  if (node.skin >= 0) {
    const auto& skin = m.skins[static_cast<std::size_t>(node.skin)];
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
      Mat4 ibm;
      for (std::size_t e = 0; e < 16; ++e) ibm[e] = accessor_value(m, skin.inverseBindMatrices, j, e);
      joint_mats.push_back(scene::multiply(world[static_cast<std::size_t>(skin.joints[j])], ibm));
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const double p[3] = {accessor_value(m, pos, i, 0), accessor_value(m, pos, i, 1), accessor_value(m, pos, i, 2)};
    auto apply = [&](const Mat4& a, double w) {
      for (int r = 0; r < 3; ++r)
        out[i][static_cast<std::size_t>(r)] += w * (a[std::size_t(r)] * p[0] + a[std::size_t(4 + r)] * p[1] +
                                                    a[std::size_t(8 + r)] * p[2] + a[std::size_t(12 + r)]);
    };
    if (node.skin < 0) {
      apply(node_world, 1);
      continue;
    }
    for (std::size_t k = 0; k < 4; ++k) {
      const double w = accessor_value(m, prim.attributes.at("WEIGHTS_0"), i, k);
      if (w != 0) apply(joint_mats[static_cast<std::size_t>(accessor_value(m, prim.attributes.at("JOINTS_0"), i, k))], w);
    }
  }
  return out;
}

TEST(MeshContract, SkinnedVerticesMatchTheEngineInBindPoseAndAtFrameZero) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  for (const auto& model : kModels) {
    SCOPED_TRACE(model.ogf);
    TempDir tmp;
    const fs::path ogf_path = link_model(tmp.path(), samples_dir() / "xray" / model.ogf, model.where);
    auto ogf = xray::read_ogf(open_file(ogf_path));
    ASSERT_TRUE(ogf);
    Diagnostics warnings;
    std::vector<fs::path> used;
    auto sc = ogf_scene_with_motions(ogf.value(), ogf_path, {}, warnings, &used);
    ASSERT_TRUE(sc) << format_finding(sc.error(), model.ogf);
    const fs::path glb = tmp.path() / "out.glb";
    ASSERT_TRUE(write_gltf_files(sc.value(), glb).ok());
    const tinygltf::Model m = load_glb(glb);
    ASSERT_EQ(m.animations.size(), model.motions);

    // Engine: bind chain, its inverse (CalculateM2B), and the motion set for the key poses.
    const std::size_t n = ogf->bones.size();
    std::vector<RowMat> bind_local(n);
    for (std::size_t b = 0; b < n; ++b)
      bind_local[b] = engine_bind_local(ogf->bones[b].ik->bind_rotation, ogf->bones[b].ik->bind_position);
    const auto bind_world = compose(ogf.value(), bind_local);
    std::vector<RowMat> m2b(n);
    for (std::size_t b = 0; b < n; ++b) m2b[b] = rigid_inverse(bind_world[b]);
    std::optional<xray::OmfFile> omf;
    const xray::MotionSet* set = ogf->motions ? &*ogf->motions : nullptr;
    if (!used.empty()) {
      auto r = xray::read_omf(open_file(used[0]));
      ASSERT_TRUE(r);
      omf = std::move(r).value();
      set = &omf->motions;
    }
    std::vector<std::size_t> rm(n);
    if (set != nullptr)
      for (const auto& part : set->params.parts)
        for (const auto& b : part.bones) rm[b.index] = static_cast<std::size_t>(ogf->find_bone(b.name));

    // Poses: -1 = bind (no animation), else frame 0 of animation a.
    double worst = 0;
    std::size_t checked = 0, skipped_negative = 0;
    for (int a = -1; a < static_cast<int>(m.animations.size()); ++a) {
      std::vector<RowMat> skin(n);  // engine mRenderTransform = m2b * anim world
      tinygltf::Animation none;
      const tinygltf::Animation& anim = a < 0 ? none : m.animations[static_cast<std::size_t>(a)];
      if (a < 0) {
        for (std::size_t b = 0; b < n; ++b) skin[b] = engine_mul(bind_world[b], m2b[b]);
      } else {
        const auto mi = static_cast<std::size_t>(anim.extras.Get("xray").Get("index").GetNumberAsInt());
        std::vector<RowMat> local(n);
        for (std::size_t rec = 0; rec < n; ++rec)
          local[rm[rec]] = engine_xform(set->motions[mi].bones[rec].rotation(0), set->motions[mi].bones[rec].translation(0));
        const auto world = compose(ogf.value(), local);
        for (std::size_t b = 0; b < n; ++b) skin[b] = engine_mul(world[b], m2b[b]);
      }
      const auto gw = gltf_world(m, anim, 0);
      for (std::size_t ni = 0; ni < m.nodes.size(); ++ni) {
        const auto& node = m.nodes[ni];
        if (node.mesh < 0) continue;
        for (const auto& prim : m.meshes[static_cast<std::size_t>(node.mesh)].primitives) {
          const auto ci = static_cast<std::size_t>(prim.extras.Get("xray").Get("child").GetNumberAsInt());
          const xray::OgfChild& child = ogf->children.at(ci);
          const auto got = gltf_positions(m, node, prim, gw, gw[ni]);
          // Rigid meshes hold the child's vertices of one bone, in order; skinned ones all of them.
          const int rigid_bone = node.skin >= 0 ? -1 : [&] {
            for (std::size_t b = 0; b < n; ++b)
              for (int c : m.nodes[b].children)
                if (static_cast<std::size_t>(c) == ni) return static_cast<int>(b);
            return -2;
          }();
          ASSERT_NE(rigid_bone, -2) << "rigid mesh node is not under a joint";
          std::size_t k = 0;
          for (std::size_t v = 0; v < child.vertices->count; ++v) {
            const RawVertex raw = raw_vertex(child.vertices->data.data() + v * child.vertices->stride, child.vertices->format);
            if (rigid_bone >= 0 && raw.bones[0] != rigid_bone) continue;
            ASSERT_LT(k, got.size());
            const auto& g = got[k++];
            if (*std::min_element(raw.w, raw.w + raw.links) < -1e-5) {
              ++skipped_negative;  // clamped for glTF (a warning says so)
              continue;
            }
            const auto e = engine_skin(raw, skin);
            const double err = std::max({std::fabs(g[0] - e[0]), std::fabs(g[1] - e[1]), std::fabs(g[2] + e[2])});
            worst = std::max(worst, err);
            ++checked;
            ASSERT_LT(err, 1e-4) << "child " << ci << " vertex " << v << (a < 0 ? " bind pose" : " " + anim.name);
          }
          EXPECT_EQ(k, got.size());
        }
      }
    }
    EXPECT_GT(checked, 0u);
    EXPECT_EQ(skipped_negative, 0u);
    std::printf("  %s: %zu vertex positions checked, worst difference %.2e m\n", model.ogf, checked, worst);
  }
}

}  // namespace
}  // namespace boneyard::test
