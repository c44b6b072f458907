// The contract of issue 4: a joint's world transform at frame k in the written glTF equals the
// engine's composition of the OMF keys up the OGF hierarchy (each stored quaternion normalised
// first, per CLARIFICATIONS), converted to glTF space. The glTF side is read back from the file
// with tinygltf (an independent reader), not taken from the in-memory scene.
#include <tiny_gltf.h>

#include <cmath>
#include <map>

#include "scene/extras_json.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/gltf_files.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/xray_scene.h"
#include "gltf_model_support.h"

namespace boneyard::test {
namespace {

using scene::Mat4;

struct Pair {
  const char* ogf;
  const char* where;  // folder under meshes/ for the model
  std::size_t bones, motions;
};

const Pair kPairs[] = {
    {"cop/headflash_hud.ogf", "gwr/food/headflash", 1, 1},
    {"cop/medkit_exo_hud.ogf", "gwr/equipment/medkit_exo", 8, 5},
    {"soc/zombi_1.ogf", "monsters/zombi", 41, 69},
    {"soc/wpn_binoculars_hud.ogf", "weapons/binoculars", 44, 5},
    {"soc/rat_1.ogf", "monsters/rat", 29, 45},  // embedded motions
};

TEST(PoseContract, EverySamplePairMatchesTheEngineWithin1e4) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  for (const auto& pair : kPairs) {
    SCOPED_TRACE(pair.ogf);
    TempDir tmp;
    const fs::path sample = samples_dir() / "xray" / pair.ogf;
    const fs::path ogf_path = link_model(tmp.path(), sample, pair.where);
    auto ogf = xray::read_ogf(open_file(ogf_path));
    ASSERT_TRUE(ogf) << format_finding(ogf.error(), pair.ogf);
    ASSERT_EQ(ogf->bones.size(), pair.bones);

    Diagnostics warnings;
    std::vector<fs::path> used;
    auto sc = ogf_scene_with_motions(ogf.value(), ogf_path, {}, warnings, &used);
    ASSERT_TRUE(sc) << format_finding(sc.error(), pair.ogf);
    EXPECT_EQ(warnings.count(Severity::warning), 0u);
    const fs::path glb = tmp.path() / "out.glb";
    ASSERT_TRUE(write_gltf_files(sc.value(), glb).ok());
    const tinygltf::Model model = load_glb(glb);
    ASSERT_EQ(model.animations.size(), pair.motions);
    ASSERT_EQ(model.skins.size(), 1u);
    ASSERT_EQ(model.skins[0].joints.size(), pair.bones);

    // The motion set, read independently: the referenced .omf, or the model's own 0xE/0xF.
    std::optional<xray::OmfFile> omf;
    const xray::MotionSet* set = nullptr;
    if (ogf->motion_refs.empty()) {
      set = &*ogf->motions;
    } else {
      ASSERT_EQ(used.size(), 1u);
      auto read = xray::read_omf(open_file(used[0]));
      ASSERT_TRUE(read);
      omf = std::move(read).value();
      set = &omf->motions;
    }
    // Engine bone mapping (motions_value::load): record i belongs to the bone named by the part
    // entry with motion-bone index i, OGF names lower-cased.
    const std::size_t n = ogf->bones.size();
    std::vector<std::size_t> rm(n);
    for (const auto& part : set->params.parts)
      for (const auto& b : part.bones) {
        const int j = ogf->find_bone(b.name);
        ASSERT_GE(j, 0) << b.name;
        rm[b.index] = static_cast<std::size_t>(j);
      }
    // Joints are nodes 0..n-1 in 0xD order (skin joints list them in that order).
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(model.skins[0].joints[i], static_cast<int>(i));

    double worst = 0;
    std::size_t checked = 0;
    for (const auto& anim : model.animations) {
      const std::size_t mi = static_cast<std::size_t>(anim.extras.Get("xray").Get("index").GetNumberAsInt());
      const auto& keys = set->motions[mi];
      for (std::size_t f = 0; f < keys.frames; ++f) {
        // Engine: local = mk_xform(Q, T) from the keys; world = mul_43(parent world, local).
        std::vector<RowMat> local(n), world(n);
        bool absurd = false;
        for (std::size_t rec = 0; rec < n; ++rec) {
          const auto& bk = keys.bones[rec];
          const Vec3 t = bk.translation(f);
          absurd |= std::fabs(t.x) > 1e4f || std::fabs(t.y) > 1e4f || std::fabs(t.z) > 1e4f;
          local[rm[rec]] = engine_xform(bk.rotation(f), t);
        }
        if (absurd) {
          ADD_FAILURE() << "absurd translation in a pose-checked sample motion";  // none in these pairs
          continue;
        }
        std::vector<bool> done(n, false);
        for (std::size_t pass = 0; pass < n; ++pass)
          for (std::size_t b = 0; b < n; ++b) {
            if (done[b]) continue;
            const int p = ogf->bones[b].parent;
            if (p < 0) {
              world[b] = local[b], done[b] = true;
            } else if (done[static_cast<std::size_t>(p)]) {
              world[b] = engine_mul(world[static_cast<std::size_t>(p)], local[b]), done[b] = true;
            }
          }
        const auto gw = gltf_world(model, anim, f);
        for (std::size_t b = 0; b < n; ++b) {
          const RowMat& w = world[b];
          const Mat4& g = gw[b];
          // Engine position (row 3) mirrored in Z; engine rotation W (row vectors) is the column
          // matrix W^T, mirrored: S W^T S, i.e. element (r, c) = s_r s_c W[c][r].
          const double pos_err = std::max({std::fabs(g[12] - w[3][0]), std::fabs(g[13] - w[3][1]),
                                           std::fabs(g[14] + w[3][2])});
          double rot_err = 0;
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
              const double s = (r == 2 ? -1.0 : 1.0) * (c == 2 ? -1.0 : 1.0);
              rot_err = std::max(rot_err, std::fabs(g[c * 4 + r] - s * w[c][r]));
            }
          worst = std::max({worst, pos_err, rot_err});
          ++checked;
          ASSERT_LT(pos_err, 1e-4) << anim.name << " frame " << f << " bone " << ogf->bones[b].name;
          ASSERT_LT(rot_err, 1e-4) << anim.name << " frame " << f << " bone " << ogf->bones[b].name;
        }
      }
    }
    EXPECT_GT(checked, 0u);
    std::printf("  %s: %zu joint poses checked, worst difference %.2e\n", pair.ogf, checked, worst);
  }
}

// The rest pose (node TRS) is the IK bind pose, and the inverse bind matrices invert it.
TEST(PoseContract, RestPoseIsIkBindAndIbmsInvertIt) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  TempDir tmp;
  const fs::path sample = samples_dir() / "xray/soc/zombi_1.ogf";
  auto ogf = xray::read_ogf(open_file(sample));
  ASSERT_TRUE(ogf);
  auto sc = xray::skeleton_scene(ogf.value(), "zombi");
  ASSERT_TRUE(sc);
  const fs::path glb = tmp.path() / "rest.glb";
  ASSERT_TRUE(write_gltf_files(sc.value(), glb).ok());
  const auto model = load_glb(glb);
  tinygltf::Animation none;
  const auto gw = gltf_world(model, none, 0);
  std::size_t count = 0;
  const float* ibm = accessor_floats(model, model.skins[0].inverseBindMatrices, count);
  ASSERT_EQ(count, ogf->bones.size());
  for (std::size_t b = 0; b < count; ++b) {
    // Engine bind chain: setXYZi(rot) with T = pos, composed like the keys.
    RowMat w{};
    std::vector<std::size_t> chain;
    for (int c = static_cast<int>(b); c >= 0; c = ogf->bones[static_cast<std::size_t>(c)].parent)
      chain.push_back(static_cast<std::size_t>(c));
    bool first = true;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const auto& ik = *ogf->bones[*it].ik;
      const RowMat l = engine_xform(xray::bind_quaternion(ik.bind_rotation), ik.bind_position);
      w = first ? l : engine_mul(w, l);
      first = false;
    }
    EXPECT_NEAR(gw[b][12], w[3][0], 1e-5);
    EXPECT_NEAR(gw[b][13], w[3][1], 1e-5);
    EXPECT_NEAR(gw[b][14], -w[3][2], 1e-5);
    const Mat4 id = scene::multiply(gw[b], [&] {
      Mat4 m{};
      for (int k = 0; k < 16; ++k) m[k] = ibm[b * 16 + k];
      return m;
    }());
    for (int k = 0; k < 16; ++k) EXPECT_NEAR(id[k], (k % 5 == 0) ? 1.0 : 0.0, 1e-5);
  }
}

}  // namespace
}  // namespace boneyard::test
