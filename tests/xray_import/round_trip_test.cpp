// OMF -> glTF (our exporter) -> OMF over every real sample: the identical file with --template
// and without it (SHORT rotations and the `tracks` extras, docs/xray-gltf-import.md section 3),
// every decoded key within one quantisation step, and a result that re-reads and validates
// without errors. With --float-rotations, identical with --template and within a step without.
#include <cmath>
#include <cstdio>

#include "scene/extras_json.h"
#include "boneyard/xray/omf/omf.h"
#include "import_support.h"

namespace boneyard::test {
namespace {

struct Sample {
  std::string omf;  // relative to samples/xray; empty = the OGF's embedded motions
  std::string ogf;  // empty = flat armature (no skeleton)
};

// The five model/motion pairs, then every standalone .omf on a flat armature.
std::vector<Sample> samples() {
  std::vector<Sample> v = {{"cop/headflash_hud_anims.omf", "cop/headflash_hud.ogf"},
                           {"cop/medkit_exo_anims.omf", "cop/medkit_exo_hud.ogf"},
                           {"soc/zombi_animation.omf", "soc/zombi_1.ogf"},
                           {"soc/wpn_binoculars_hud_animations.omf", "soc/wpn_binoculars_hud.ogf"},
                           {"", "soc/rat_1.ogf"}};
  std::vector<std::string> omfs;
  for (const auto& e : fs::recursive_directory_iterator(samples_dir() / "xray"))
    if (e.path().extension() == ".omf") omfs.push_back(fs::relative(e.path(), samples_dir() / "xray").string());
  std::sort(omfs.begin(), omfs.end());
  for (const auto& o : omfs) v.push_back({o, ""});
  return v;
}

// Every decoded key of `got` within one step of `want` (rotations normalised and sign-aligned,
// translations within size/2 of the original's size per axis, plus float rounding).
void expect_keys_within_a_step(const xray::MotionSet& want, const xray::MotionSet& got, double translation_steps,
                               const std::string& what) {
  ASSERT_EQ(want.params.motions.size(), got.params.motions.size()) << what;
  for (std::size_t m = 0; m < want.params.motions.size(); ++m) {
    const auto& a = want.motions[m];
    const auto& b = got.motions[m];
    ASSERT_EQ(want.params.motions[m].name, got.params.motions[m].name) << what;
    ASSERT_EQ(a.frames, b.frames) << what << " motion " << m;
    ASSERT_EQ(a.bones.size(), b.bones.size());
    for (std::size_t r = 0; r < a.bones.size(); ++r)
      for (std::size_t f = 0; f < a.frames; ++f) {
        const Quat qa = scene::normalized(a.bones[r].rotation(f));
        Quat qb = scene::normalized(b.bones[r].rotation(f));
        if (scene::dot(qa, qb) < 0) qb = {-qb.x, -qb.y, -qb.z, -qb.w};
        const double tol = 1.0 / 32767 + 1e-6;
        ASSERT_TRUE(std::fabs(qa.x - qb.x) <= tol && std::fabs(qa.y - qb.y) <= tol && std::fabs(qa.z - qb.z) <= tol &&
                    std::fabs(qa.w - qb.w) <= tol)
            << what << " motion " << m << " record " << r << " frame " << f;
        const Vec3 ta = a.bones[r].translation(f), tb = b.bones[r].translation(f);
        const Vec3 size = a.bones[r].translation_keyed() ? a.bones[r].translation_size : Vec3{};
        auto near = [&](float x, float y, float s) {
          return std::fabs(double(x) - y) <=
                 translation_steps * std::fabs(double(s)) + 4e-7 * std::max(std::fabs(x), std::fabs(y)) + 1e-9;
        };
        ASSERT_TRUE(near(ta.x, tb.x, size.x) && near(ta.y, tb.y, size.y) && near(ta.z, tb.z, size.z))
            << what << " motion " << m << " record " << r << " frame " << f << ": " << ta.x << "," << ta.y << ","
            << ta.z << " vs " << tb.x << "," << tb.y << "," << tb.z;
      }
  }
}

// Every sample, exported with SHORT rotations (default) or float ones.
void round_trip_every_sample(bool float_rotations) {
  std::size_t checked = 0, exact_without_template = 0;
  for (const auto& s : samples()) {
    const std::string what = s.omf.empty() ? s.ogf + " (embedded)" : s.omf + (s.ogf.empty() ? " (flat)" : "");
    SCOPED_TRACE(what);
    std::optional<xray::OgfFile> ogf;
    std::optional<xray::OmfFile> omf;
    if (!s.ogf.empty()) {
      auto r = xray::read_ogf(load(samples_dir() / "xray" / s.ogf));
      ASSERT_TRUE(r);
      ogf = std::move(r).value();
    }
    xray::OmfFile original;
    if (!s.omf.empty()) {
      auto r = xray::read_omf(load(samples_dir() / "xray" / s.omf));
      ASSERT_TRUE(r);
      original = std::move(r).value();
    } else {
      ASSERT_TRUE(ogf->motions.has_value());
      auto bytes = xray::extract_omf(*ogf);
      ASSERT_TRUE(bytes);
      auto r = xray::read_omf(FileData::from_vector(std::move(bytes).value()));
      ASSERT_TRUE(r);
      original = std::move(r).value();
    }
    std::string why;
    auto glb = export_glb(original.motions, ogf ? &*ogf : nullptr, &why, float_rotations);
    if (!glb) {
      std::printf("  %-48s not exportable (%s): skipped\n", what.c_str(), why.c_str());
      continue;
    }
    if (original.motions.params.motions.empty()) {
      // Legal (cop/hand_unarmed.omf), but its glTF has no animations, which the import rejects.
      std::printf("  %-48s has no motions: its glTF is rejected as bad input, skipped\n", what.c_str());
      continue;
    }
    Diagnostics rw;
    auto sc = read_glb(*glb, rw);
    ASSERT_TRUE(sc) << format_finding(sc.error(), what);

    // With the template: the identical file.
    {
      xray::XrayImportOptions o;
      o.template_omf = &original;
      Diagnostics w;
      xray::ImportStats st;
      auto out = xray::scene_to_omf(sc.value(), o, w, &st);
      ASSERT_TRUE(out) << format_finding(out.error(), what);
      EXPECT_TRUE(xray::write_omf(out.value()) == xray::write_omf(original)) << "template round trip differs";
      EXPECT_EQ(st.template_records, st.records);
    }
    // Without a template: from the extras (and the skeleton when there is one).
    for (bool use_skeleton : {true, false}) {
      if (use_skeleton && !ogf) continue;
      xray::XrayImportOptions o;
      o.skeleton = use_skeleton ? &*ogf : nullptr;
      Diagnostics w;
      xray::ImportStats st;
      auto out = xray::scene_to_omf(sc.value(), o, w, &st);
      ASSERT_TRUE(out) << format_finding(out.error(), what);
      const auto bytes = xray::write_omf(out.value());
      auto back = xray::read_omf(FileData::from_vector(bytes));
      ASSERT_TRUE(back) << "written .omf does not re-read";
      const Diagnostics d = xray::validate_omf(back.value());
      for (const auto& f : d.findings()) EXPECT_NE(f.severity, Severity::error) << format_finding(f, what);
      expect_keys_within_a_step(original.motions, back->motions, 0.5, what);
      const bool exact = bytes == xray::write_omf(original);
      if (!float_rotations) {
        EXPECT_TRUE(exact) << "without template" << (use_skeleton ? ", with --skeleton" : "");
      }
      if (!use_skeleton) {
        exact_without_template += exact;
        std::printf("  %-48s without template: %s (%zu keyed under exported size/init)\n", what.c_str(),
                    exact ? "byte-exact" : "not byte-exact", st.extras_layouts);
      }
    }
    ++checked;
  }
  std::printf("  %zu samples round-tripped, %zu byte-exact without a template%s\n", checked, exact_without_template,
              float_rotations ? " (--float-rotations)" : "");
  EXPECT_GE(checked, 16u);
}

TEST(ImportRoundTrip, EverySampleIdenticalWithAndWithoutTemplate) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  round_trip_every_sample(false);
}

TEST(ImportRoundTrip, FloatRotationsWithinAStepAndIdenticalWithTemplate) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  round_trip_every_sample(true);
}

// Without the exporter's tracks extras the translation keys are requantised the SDK's way (truncation):
// within one step, not half.
TEST(ImportRoundTrip, WithoutRecordsExtrasTranslationsWithinOneStep) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto ogf = xray::read_ogf(load(samples_dir() / "xray/soc/zombi_1.ogf"));
  auto omf = xray::read_omf(load(samples_dir() / "xray/soc/zombi_animation.omf"));
  ASSERT_TRUE(ogf && omf);
  auto glb = export_glb(omf->motions, &ogf.value());
  ASSERT_TRUE(glb);
  Diagnostics w;
  auto sc = read_glb(*glb, w);
  ASSERT_TRUE(sc);
  for (auto& a : sc->animations) json_of(a.extras)["xray"].erase("tracks");
  xray::XrayImportOptions o;
  o.skeleton = &ogf.value();
  auto out = xray::scene_to_omf(sc.value(), o, w);
  ASSERT_TRUE(out);
  auto back = xray::read_omf(FileData::from_vector(xray::write_omf(out.value())));
  ASSERT_TRUE(back);
  // 1 step plus float noise in the recomputed size (the SDK truncates: a value just below an integer
  // multiple of the step loses a whole step).
  expect_keys_within_a_step(omf->motions, back->motions, 1.001, "zombi without records");
}

}  // namespace
}  // namespace boneyard::test

namespace boneyard::test {
namespace {

// An edit to one bone of one motion changes only that record; every other record keeps the
// template's bytes. --hq makes every newly keyed translation 16-bit.
TEST(ImportRoundTrip, EditedBoneChangesOnlyItsRecordAndHqIs16Bit) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto ogf = xray::read_ogf(load(samples_dir() / "xray/soc/wpn_binoculars_hud.ogf"));
  auto omf = xray::read_omf(load(samples_dir() / "xray/soc/wpn_binoculars_hud_animations.omf"));
  ASSERT_TRUE(ogf && omf);
  auto glb = export_glb(omf->motions, &ogf.value());
  ASSERT_TRUE(glb);
  Diagnostics w;
  auto sc = read_glb(*glb, w);
  ASSERT_TRUE(sc);
  // Move the first translation channel of animation 0 by 10 cm on x, every frame.
  auto& anim = sc->animations[0];
  std::size_t edited = anim.channels.size();
  for (std::size_t c = 0; c < anim.channels.size() && edited == anim.channels.size(); ++c)
    if (anim.channels[c].path == scene::Channel::Path::translation) edited = c;
  ASSERT_LT(edited, anim.channels.size());
  for (std::size_t i = 0; i < anim.channels[edited].values.size(); i += 3) anim.channels[edited].values[i] += 0.1f;
  const std::string bone = anim.channels[edited].joint < sc->skeleton.joints.size()
                               ? sc->skeleton.joints[anim.channels[edited].joint].name : "";
  for (bool hq : {false, true}) {
    xray::XrayImportOptions o;
    o.template_omf = &omf.value();
    o.hq = hq;
    xray::ImportStats st;
    auto out = xray::scene_to_omf(sc.value(), o, w, &st);
    ASSERT_TRUE(out);
    EXPECT_TRUE(st.template_container);
    EXPECT_EQ(st.template_records + 1, st.records) << "only the edited record is new";
    const auto& parts = omf->motions.params;
    std::size_t changed = 0;
    for (std::size_t m = 0; m < omf->motions.motions.size(); ++m)
      for (std::size_t r = 0; r < omf->motions.motions[m].bones.size(); ++r) {
        const auto& a = omf->motions.motions[m].bones[r];
        const auto& b = out->motions.motions[m].bones[r];
        const bool same = a.flags == b.flags && std::equal(a.rotation_keys.begin(), a.rotation_keys.end(),
                                                           b.rotation_keys.begin(), b.rotation_keys.end()) &&
                          std::equal(a.translation_keys.begin(), a.translation_keys.end(),
                                     b.translation_keys.begin(), b.translation_keys.end()) &&
                          a.translation_init == b.translation_init;
        if (same) continue;
        ++changed;
        EXPECT_EQ(m, 0u);
        EXPECT_NEAR(b.translation(0).x, a.translation(0).x + 0.1, b.translation_size.x / 2 + 1e-6);
        // A constant shifted stays constant; the 16-bit flag follows --hq either way (the SDK
        // sets bit 2 whenever it chose 16-bit, even without keys).
        EXPECT_EQ(b.translation_keyed(), a.translation_keyed());
        EXPECT_EQ((b.flags & xray::kFlagTKeys16) != 0, hq || (a.flags & xray::kFlagTKeys16) != 0);
      }
    EXPECT_EQ(changed, 1u) << bone;
    (void)parts;
  }
}

}  // namespace
}  // namespace boneyard::test
