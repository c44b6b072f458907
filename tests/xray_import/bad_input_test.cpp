// Bad glTF input: one clear error naming animation, channel and node; the CLI writes nothing.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "boneyard/xray/omf/omf.h"
#include "import_support.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

std::string error_of(const HandMade& h) {
  Diagnostics w;
  auto s = h.read(w);
  if (s) return "";
  return s.error().path + ": " + s.error().message;
}

TEST(ImportBadInput, NoAnimations) {
  HandMade h;
  h.with_animation = false;
  EXPECT_NE(error_of(h).find("no animations"), std::string::npos) << error_of(h);
}

TEST(ImportBadInput, NaNNamesAnimationChannelAndNode) {
  HandMade h;
  h.values[3] = std::numeric_limits<float>::quiet_NaN();
  const std::string e = error_of(h);
  EXPECT_NE(e.find("animation \"walk\" channel 0 (node \"bip01_spine\" translation)"), std::string::npos) << e;
  EXPECT_NE(e.find("non-finite"), std::string::npos) << e;
}

TEST(ImportBadInput, NonIncreasingTimes) {
  HandMade h;
  h.times = {0.0f, 0.5f, 0.5f};
  h.values = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  const std::string e = error_of(h);
  EXPECT_NE(e.find("do not increase"), std::string::npos) << e;
  EXPECT_NE(e.find("bip01_spine"), std::string::npos) << e;
}

TEST(ImportBadInput, AccessorOutOfRange) {
  HandMade h;
  h.output_count = 1000;  // the buffer view holds 2 elements
  const std::string e = error_of(h);
  EXPECT_NE(e.find("reads past the end of its buffer view"), std::string::npos) << e;
}

TEST(ImportBadInput, NotJsonAtAll) {
  const std::string s = "{\"asset\": garbage";
  Diagnostics w;
  auto r = gltf::read(Bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()), {}, {}, w);
  EXPECT_FALSE(r);
}

TEST(ImportBadInput, NoSkeletonSource) {
  HandMade h;
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s);
  auto out = xray::scene_to_omf(s.value(), {}, w);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("no skeleton"), std::string::npos);
}

TEST(ImportBadInput, NonMatchingJointNamesAndSkeletonMismatch) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto ogf = xray::read_ogf(load(samples_dir() / "xray/soc/zombi_1.ogf"));
  ASSERT_TRUE(ogf);
  HandMade h;
  h.nodes = {"root", "tail_bone"};
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s);
  xray::XrayImportOptions o;
  o.skeleton = &ogf.value();
  auto out = xray::scene_to_omf(s.value(), o, w);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().path.find("animation \"walk\" channel 0 (node \"tail_bone\")"), std::string::npos)
      << out.error().path;
  EXPECT_NE(out.error().message.find("joint names do not match"), std::string::npos);

  // A template whose bones are not the skeleton's.
  auto other = xray::read_omf(load(samples_dir() / "xray/soc/wpn_binoculars_hud_animations.omf"));
  ASSERT_TRUE(other);
  o.template_omf = &other.value();
  auto mismatch = xray::scene_to_omf(s.value(), o, w);
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.error().message.find("skeleton mismatch"), std::string::npos) << mismatch.error().message;
}

TEST(ImportBadInput, CliReportsAndWritesNothing) {
  TempDir tmp;
  HandMade h;
  h.values[4] = std::numeric_limits<float>::infinity();
  const fs::path in = tmp.path() / "bad.gltf", out = tmp.path() / "bad.omf";
  std::ofstream(in) << h.json();
  const CliRun r = run_cli("convert " + quote(in) + " -o " + quote(out));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_NE(r.err.find("animation \"walk\" channel 0 (node \"bip01_spine\" translation)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("non-finite"), std::string::npos) << r.err;
}

// .omf -> .gltf (external .bin) with a skeleton, back with --template byte for byte, and back
// without one to a file that validates.
void round_trip_through_cli(const fs::path& omf, const fs::path& ogf) {
  TempDir tmp;
  const fs::path gltf = tmp.path() / "motions.gltf", back = tmp.path() / "back.omf", plain = tmp.path() / "plain.omf";
  CliRun r = run_cli("convert " + quote(omf) + " --skeleton " + quote(ogf) + " -o " + quote(gltf));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "motions.bin"));
  r = run_cli("convert " + quote(gltf) + " --template " + quote(omf) + " -o " + quote(back));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(back), read_file(omf));
  r = run_cli("convert " + quote(gltf) + " -o " + quote(plain));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("validate -q " + quote(plain));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

// The shipped example always; a real sample as well when the samples are there.
TEST(ImportCli, GltfWithExternalBinRoundTripsWithTemplate) {
  {
    SCOPED_TRACE("examples/wave.omf");
    round_trip_through_cli(source_dir() / "examples/wave.omf", source_dir() / "examples/wave_arm.ogf");
  }
  if (have_samples("xray")) {
    SCOPED_TRACE("soc/wpn_binoculars_hud_animations.omf");
    round_trip_through_cli(samples_dir() / "xray/soc/wpn_binoculars_hud_animations.omf",
                           samples_dir() / "xray/soc/wpn_binoculars_hud.ogf");
  }
}

}  // namespace
}  // namespace boneyard::test

namespace boneyard::test {
namespace {

// Truncated and randomly corrupted copies of `glb`: an error or a scene, never a crash or a hang.
void corrupted_copies_never_crash(const std::vector<std::uint8_t>& glb) {
  std::mt19937 rng(12345);
  std::size_t errors = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<std::uint8_t> bad = glb;
    if (i % 3 == 0) {
      bad.resize(rng() % bad.size());
    } else {
      for (int k = 0; k < 1 + i % 8; ++k) bad[rng() % bad.size()] = static_cast<std::uint8_t>(rng());
    }
    Diagnostics w;
    auto s = read_glb(bad, w);
    if (!s) {
      ++errors;
      continue;
    }
    auto out = xray::scene_to_omf(s.value(), {}, w);  // may fail; must not crash
    if (!out) ++errors;
  }
  EXPECT_GT(errors, 0u);
}

// The shipped example (its motions on its skeleton) always; a real sample's flat export as well
// when the samples are there.
TEST(ImportBadInput, CorruptedGlbNeverCrashes) {
  auto omf = xray::read_omf(load(source_dir() / "examples/wave.omf"));
  auto arm = xray::read_ogf(load(source_dir() / "examples/wave_arm.ogf"));
  ASSERT_TRUE(omf && arm);
  auto glb = export_glb(omf->motions, &arm.value());
  ASSERT_TRUE(glb);
  corrupted_copies_never_crash(*glb);
  if (!have_samples("xray")) return;
  auto sample = xray::read_omf(load(samples_dir() / "xray/cop/headflash_hud_anims.omf"));
  ASSERT_TRUE(sample);
  auto sample_glb = export_glb(sample->motions, nullptr);
  ASSERT_TRUE(sample_glb);
  corrupted_copies_never_crash(*sample_glb);
}

// A glTF exported for one rig, converted with another model's skeleton.
TEST(ImportBadInput, ExtrasSkeletonMismatchIsAnError) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto zombi = xray::read_ogf(load(samples_dir() / "xray/soc/zombi_1.ogf"));
  auto omf = xray::read_omf(load(samples_dir() / "xray/soc/zombi_animation.omf"));
  auto bino = xray::read_ogf(load(samples_dir() / "xray/soc/wpn_binoculars_hud.ogf"));
  ASSERT_TRUE(zombi && omf && bino);
  auto glb = export_glb(omf->motions, &zombi.value());
  ASSERT_TRUE(glb);
  Diagnostics w;
  auto s = read_glb(*glb, w);
  ASSERT_TRUE(s);
  xray::XrayImportOptions o;
  o.skeleton = &bino.value();
  auto out = xray::scene_to_omf(s.value(), o, w);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("skeleton mismatch"), std::string::npos) << out.error().message;
}

TEST(ImportBadInput, MatrixNodesAreDecomposed) {
  const std::string j = R"({"asset":{"version":"2.0"},"nodes":[{"name":"a","matrix":[0,0,-1,0, 0,1,0,0, 1,0,0,0, 1,2,3,1]}],)"
                        R"("buffers":[{"byteLength":16,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPw=="}],)"
                        R"("bufferViews":[{"buffer":0,"byteLength":4},{"buffer":0,"byteOffset":4,"byteLength":12}],)"
                        R"("accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"SCALAR"},)"
                        R"({"bufferView":1,"componentType":5126,"count":1,"type":"VEC3"}],)"
                        R"("animations":[{"samplers":[{"input":0,"output":1}],"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]})";
  Diagnostics w;
  auto s = gltf::read(Bytes(reinterpret_cast<const std::uint8_t*>(j.data()), j.size()), {}, {}, w);
  ASSERT_TRUE(s) << s.error().message;
  const auto& jt = s->skeleton.joints[0];
  EXPECT_EQ(jt.translation, (Vec3{1, 2, 3}));
  // 90 degrees about +Y: x axis -> -z.
  EXPECT_NEAR(jt.rotation.y, std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(jt.rotation.w, std::sqrt(0.5), 1e-6);
  EXPECT_EQ(s->animations[0].channels[0].values[2], 1.0f);
}

}  // namespace
}  // namespace boneyard::test

namespace boneyard::test {
namespace {

// Our own export with its `tracks` extras garbled (signs past the keys or not increasing, hex of
// the wrong length or not hex, records out of range, wrong types): the import ignores what does
// not fit, never reads outside the keys, and writes a valid .omf whose keys are within a step.
TEST(ImportBadInput, GarbledTracksExtrasAreIgnoredNotTrusted) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto omf = xray::read_omf(load(samples_dir() / "xray/cop/wpn_hand_knife_hud_animation.omf"));
  ASSERT_TRUE(omf);
  auto glb = export_glb(omf->motions, nullptr);
  ASSERT_TRUE(glb);
  Diagnostics w;
  auto sc = read_glb(*glb, w);
  ASSERT_TRUE(sc);
  const nlohmann::json garbage[] = {
      nlohmann::json::parse(R"({"flags":"zz"})"),
      nlohmann::json::parse(R"({"flags":"02","signs":[[0,5,3]]})"),
      nlohmann::json::parse(R"({"flags":7,"signs":[[0,4294967295,99999999999]],"keys":[[1,"rotation","abc"]]})"),
      nlohmann::json::parse(R"({"signs":[[99999,1]],"keys":[[-1,"translation","00"],[2,"rotation",12]],"crcs":[[0,"x"]]})"),
      nlohmann::json::parse(R"({"translations":[[0,null,1,1,1,1,1],[1e30,1,1,1,1,1,1]],"keys":[[0,"translation","0000"]]})"),
  };
  for (const auto& g : garbage) {
    SCOPED_TRACE(g.dump());
    auto edited = sc.value();
    for (auto& a : edited.animations) {
      auto& tracks = json_of(a.extras)["xray"]["tracks"];
      std::string flags = tracks.value("flags", std::string());
      tracks = g;
      // Keep the real flags where the garbage has none, so that the other members are read.
      if (!g.contains("flags")) tracks["flags"] = flags;
    }
    xray::XrayImportOptions o;
    Diagnostics iw;
    auto out = xray::scene_to_omf(edited, o, iw);
    ASSERT_TRUE(out) << out.error().message;
    auto back = xray::read_omf(FileData::from_vector(xray::write_omf(out.value())));
    ASSERT_TRUE(back);
    const Diagnostics found = xray::validate_omf(back.value());
    for (const auto& f : found.findings()) EXPECT_NE(f.severity, Severity::error) << f.message;
  }
}

}  // namespace
}  // namespace boneyard::test
