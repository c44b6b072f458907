// Limits of the stock engines against what the model already is (issue 37 scope 3): a model of a
// modded engine (the hands of an Anomaly-based mod carry 53 motion refs, the stock CoP engine
// reads 48) is rebuilt with a warning naming the stock limit and the count; going further than the
// source did is still an error. A motion file a model's ref names that does not fit its skeleton
// is left out with a warning naming it, and the model exports with the motions that fit.
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf/ogf_edit.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "hands_standin.h"
#include "model_support.h"

namespace boneyard::test::stock_limits {
namespace {

std::vector<std::string> refs(std::size_t n, const std::string& stem = "anims\\hands_") {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(stem + std::to_string(i));
  return out;
}

// The stand-in hands model with `n` refs (none of which is found: the model alone) through glTF.
struct Hands {
  xray::OgfFile ogf;
  scene::Scene scene;
};
Hands hands_with_refs(std::size_t n) {
  hands_detail::Random r{42};
  Hands h{ogf_from(hands_detail::model_file(hands_detail::hand_bones(), refs(n), r)), {}};
  xray::XrayExportOptions o;
  o.input = "wpn_hand_standin.ogf";
  Diagnostics w;
  auto sc = xray::ogf_to_scene(h.ogf, o, w);
  EXPECT_TRUE(sc) << sc.error().message;
  const auto glb = gltf::write(sc.value(), gltf::Container::glb).main;
  gltf::ReadOptions ro;
  ro.require_animations = false;
  auto back = gltf::read(Bytes(glb.data(), glb.size()), {}, ro, w);
  EXPECT_TRUE(back);
  h.scene = std::move(back).value();
  return h;
}

bool has_warning(const Diagnostics& w, const std::string& text) {
  for (const auto& f : w.findings())
    if (f.severity == Severity::warning && f.message.find(text) != std::string::npos) return true;
  return false;
}

TEST(StockLimits, ModelWithMoreRefsThanCopReadsIsMadeAgainWithAWarning) {
  const Hands h = hands_with_refs(53);
  Diagnostics w;
  auto made = xray::scene_to_ogf_bytes(h.scene, {}, w);
  ASSERT_TRUE(made) << made.error().message;
  const xray::OgfFile again = ogf_from(made.value());
  EXPECT_EQ(again.motion_refs, h.ogf.motion_refs);
  EXPECT_EQ(again.header.type, 3);
  EXPECT_TRUE(has_warning(w, "53 motion refs, more than the stock CS/CoP engine reads (48); kept as in the source model"));
}

TEST(StockLimits, RefsBeyondWhatTheSourceHadStayAnError) {
  const Hands h = hands_with_refs(53);
  Diagnostics w;
  xray::OgfImportOptions o;
  o.motion_refs = refs(54, "anims\\new_");
  auto more = xray::scene_to_ogf_bytes(h.scene, o, w);
  ASSERT_FALSE(more);
  EXPECT_EQ(more.error().message, "too many motion refs for the game");
  EXPECT_EQ(more.error().expected, "<= 48 (or the source model's 53)");
  EXPECT_EQ(more.error().found, "54");
  o.motion_refs = refs(50, "anims\\new_");  // no further than the source: allowed, with the warning
  Diagnostics w2;
  ASSERT_TRUE(xray::scene_to_ogf_bytes(h.scene, o, w2));
  EXPECT_TRUE(has_warning(w2, "50 motion refs, more than the stock CS/CoP engine reads (48)"));
  // A game the user names holds its own limits, whatever the source had.
  o.motion_refs.reset();
  o.game = xray::Game::cop;
  EXPECT_FALSE(xray::scene_to_ogf_bytes(h.scene, o, w2));
  // A model within the limit stays quiet, and one without a source beyond it is refused as before.
  const Hands few = hands_with_refs(3);
  Diagnostics quiet;
  ASSERT_TRUE(xray::scene_to_ogf_bytes(few.scene, {}, quiet));
  EXPECT_FALSE(has_warning(quiet, "motion refs, more than"));
  xray::OgfImportOptions many;
  many.motion_refs = refs(49);
  auto refused = xray::scene_to_ogf_bytes(few.scene, many, quiet);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().expected, "<= 48");
}

TEST(StockLimits, TemplateImportAndEditKeepWhatTheFileHas) {
  const Hands h = hands_with_refs(53);
  Diagnostics w;
  xray::OgfImportOptions o;
  o.template_ogf = &h.ogf;
  auto same = xray::scene_to_ogf_bytes(h.scene, o, w);
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_EQ(same.value(), write_ogf(h.ogf));
  // --motion-refs with the template: as many as the template holds pass with a warning, more fail.
  o.motion_refs = refs(53, "anims\\renamed_");
  ASSERT_TRUE(xray::scene_to_ogf_bytes(h.scene, o, w));
  EXPECT_TRUE(has_warning(w, "53 motion refs, more than the stock CS/CoP engine reads (48)"));
  o.motion_refs = refs(54);
  auto more = xray::scene_to_ogf_bytes(h.scene, o, w);
  ASSERT_FALSE(more);
  EXPECT_EQ(more.error().expected, "at most 48 (or the source model's 53)");
  // `ogf motion-refs` likewise.
  xray::OgfFile f = h.ogf;
  auto edited = xray::set_motion_refs(f, refs(52, "anims\\other_"));
  ASSERT_TRUE(edited) << edited.error().message;
  ASSERT_EQ(edited->warnings.size(), 1u);
  EXPECT_EQ(edited->warnings[0], "52 motion refs, more than the stock CS/CoP engine reads (48); kept as in the source "
                                 "model (a modded engine reads them)");
  EXPECT_FALSE(xray::set_motion_refs(f, refs(60)));
  // Retargeting to SoC is the user's change of engine: SoC's 3 refs hold.
  xray::OgfFile g = h.ogf;
  EXPECT_FALSE(xray::retarget_ogf(g, xray::Game::soc));
}

// A motion set for `bones` bones named b0, b1, ... (one static motion).
std::vector<std::uint8_t> motions_for(const std::vector<std::string>& bones) {
  OmfSpec spec;
  PartSpec part{"default", {}};
  std::vector<BoneSpec> records;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    part.bones.push_back({bones[i], std::uint32_t(i)});
    records.push_back(BoneSpec{0x02, {{0, 0, 0, 32767}}, {}, {}, {0, 0, 0}});
  }
  spec.parts = {part};
  spec.keys = {{"idle_" + std::to_string(bones.size()), 2, records, {}}};
  spec.params = {{"idle_" + std::to_string(bones.size()), 0, 0xFFFF, 0, 1, 1, 2, 2, {}}};
  return omf_bytes(spec);
}

TEST(StockLimits, MotionFileThatDoesNotFitIsLeftOutWithAWarningNamingIt) {
  hands_detail::Random r{7};
  const auto bones = hands_detail::hand_bones();
  const xray::OgfFile ogf = ogf_from(hands_detail::model_file(bones, refs(2), r));
  std::vector<std::string> names;
  for (const auto& b : bones) names.push_back(b.name);
  xray::XrayExportOptions o;
  o.input = "wpn_hand_standin.ogf";
  o.ref_motions.resize(2);
  o.ref_motions[0].files.push_back({"meshes/anims/hands_0.omf", "../anims/hands_0.omf",
                                    xray::read_omf(FileData::from_vector(motions_for(names)))});
  o.ref_motions[1].files.push_back({"meshes/anims/hands_1.omf", "../anims/hands_1.omf",
                                    xray::read_omf(FileData::from_vector(motions_for({"wpn_body", "flash"})))});
  Diagnostics w;
  auto sc = xray::ogf_to_scene(ogf, o, w);
  ASSERT_TRUE(sc) << sc.error().message;
  ASSERT_EQ(sc->animations.size(), 1u);
  EXPECT_EQ(sc->animations[0].name, "idle_42");
  bool named = false;
  for (const auto& f : w.findings())
    named |= f.severity == Severity::warning && f.path.rfind("meshes/anims/hands_1.omf", 0) == 0 &&
             f.message.find("motion file left out: it does not fit the model's skeleton") != std::string::npos;
  EXPECT_TRUE(named) << w.findings().size();
}

}  // namespace
}  // namespace boneyard::test::stock_limits
