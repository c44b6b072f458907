// End-to-end on the SDK's real .object and .bones files: info, validate (the broken ones exit 1),
// dump, convert to glTF (textured) and back (with --template byte for byte; without, for each
// game's smoothing style), .object <-> .ogf, bone data in and out, the option table's refusals,
// `boneyard object` edits and `convert --recursive` picking objects up; embedded motions as glTF
// animations (the Khronos validator and three.js on them) and back. Skipped without
// ../shared/samples.
#include "../xray_object/object_motions_support.h"
#include "cli_harness.h"
#include "test_support.h"

namespace boneyard {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::quote;
using test::run_cli;

class ObjectCli : public test::CliTest {
 protected:
  fs::path sample(const char* rel) const { return test::samples_dir() / "xray" / rel; }
  fs::path copy(const char* rel, const std::string& name) {
    const fs::path to = dir_ / name;
    fs::create_directories(to.parent_path());
    fs::copy_file(sample(rel), to, fs::copy_options::overwrite_existing);
    fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
    return to;
  }
  static std::vector<std::uint8_t> bytes(const fs::path& p) { return test::read_file(p); }
};

TEST_F(ObjectCli, HelpForEveryObjectCommand) {
  for (const char* c : {"object", "object list", "object set", "object motion-refs", "object userdata", "object bones"}) {
    const CliRun r = run_cli(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0) << c;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << c;
  }
  const CliRun r = run_cli("convert --help");
  for (const char* flag : {"--smoothing", "--bones"}) EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST_F(ObjectCli, InfoValidateDumpOfSamples) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  CliRun r = run_cli("info " + quote(sample("sdk/mod/handflash_hud.object")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("X-Ray SDK object (.object v16)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("smoothing groups in the SoC style"), std::string::npos) << r.out;
  r = run_cli("validate " + quote(sample("sdk/blender-xray/test_fmt_invalid_face.object")));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("in 0x910/0 (Plane) 0x1006 face 1: invalid face"), std::string::npos) << r.out;
  r = run_cli("validate " + quote(sample("sdk/blender-xray/test_fmt_broken.object")));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("0x921/0 0x5 shape type: unknown bone shape type"), std::string::npos) << r.out;
  r = run_cli("info " + quote(sample("sdk/blender-xray/test_fmt_old.object")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("LZHuf-compressed body (1645 bytes unpacked)"), std::string::npos) << r.out;
  r = run_cli("dump " + quote(sample("sdk/blender-xray/test_fmt_bones.object")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"format\":\"object\""), std::string::npos);
  EXPECT_NE(r.out.find("\"bones\":[{\"name\":\"bone_root\""), std::string::npos) << r.out.substr(0, 400);
  r = run_cli("dump --raw " + quote(sample("sdk/blender-xray/test_fmt.bones")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"format\":\"bones\""), std::string::npos);
  // The browser preview of an object: its model on the page.
  const fs::path page = dir_ / "handflash.html";
  r = run_cli("view " + quote(sample("sdk/mod/handflash_hud.object")) + " -o " + quote(page));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = test::slurp(page);
  EXPECT_NE(html.find("\"format\":\"object\""), std::string::npos);
  EXPECT_NE(html.find("\"glb\":\"Z2xURg"), std::string::npos);  // "glTF", base64
}

TEST_F(ObjectCli, GlbAndBackWithAndWithoutTemplate) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const fs::path obj = copy("sdk/mod/wpn_colt1911_hud.object", "colt.object");
  const fs::path glb = dir_ / "colt.glb", back = dir_ / "back.object";
  CliRun r = run_cli("convert " + quote(obj) + " -o " + quote(glb) + " --textures " + quote(test::samples_dir() / "xray/textures"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("convert " + quote(glb) + " -o " + quote(back) + " --template " + quote(obj));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes(back), bytes(obj));
  for (const char* game : {"soc", "cop"}) {
    const fs::path made = dir_ / (std::string(game) + ".object");
    r = run_cli("convert " + quote(glb) + " -o " + quote(made) + " --game " + game);
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_cli("info " + quote(made));
    EXPECT_NE(r.out.find(std::string("smoothing groups in the ") + (game == std::string("soc") ? "SoC" : "CS/CoP")),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(game == std::string("soc") ? "motion refs (0x924)" : "motion refs (0x926)"), std::string::npos) << r.out;
  }
  // Options the conversions do not read are refused, nothing written.
  r = run_cli("convert " + quote(obj) + " -o " + quote(dir_ / "x.glb") + " --game soc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--game does not apply when converting object to .glb"), std::string::npos) << r.err;
  r = run_cli("convert " + quote(sample("cop/protein.ogf")) + " -o " + quote(dir_ / "y.glb") + " --smoothing soc");
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "x.glb") || fs::exists(dir_ / "y.glb"));
}

// The embedded motions (0x916) as animations: blender-xray's armature object and the detector HUD
// model with its .skls embedded (made here), each checked by the Khronos validator and three.js
// (when node_modules is there), back with the template byte for byte, without it with the
// motions; --motions picks them; a truncated 0x916 is a validation error (exit 1) that --force
// converts without animations.
TEST_F(ObjectCli, EmbeddedMotionsAsAnimationsAndBack) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const fs::path arm = copy("sdk/blender-xray/test_fmt_armature.object", "arm.object");
  const fs::path detector = write("detector.object", test::with_embedded_motions(
      bytes(sample("sdk/mod/dev_detector_1_hud.object")), bytes(sample("sdk/mod/dev_detector_1_hud_animation.skls"))));
  const fs::path src = test::source_dir();
  const bool node = fs::is_directory(src / "node_modules" / "gltf-validator") && test::run_shell("node --version").code == 0;
  struct Case {
    fs::path object;
    int joints, animations;
  };
  for (const Case& c : {Case{arm, 2, 1}, Case{detector, 6, 17}}) {
    const fs::path glb = dir_ / (c.object.stem().string() + ".glb");
    CliRun r = run_cli("convert " + quote(c.object) + " -o " + quote(glb));
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_cli("info " + quote(glb));
    EXPECT_NE(r.out.find(std::to_string(c.animations) + " animations"), std::string::npos) << r.out;
    if (node) {
      r = test::run_shell("node " + quote(src / "tests/gltf/check_gltf.mjs") + " " + quote(glb) + " --joints " +
                          std::to_string(c.joints) + " --animations " + std::to_string(c.animations));
      EXPECT_EQ(r.code, 0) << r.out << r.err;
    }
    const fs::path back = dir_ / (c.object.stem().string() + "_back.object");
    r = run_cli("convert " + quote(glb) + " -o " + quote(back) + " --template " + quote(c.object));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(bytes(back), bytes(c.object));
    const fs::path made = dir_ / (c.object.stem().string() + "_new.object");
    r = run_cli("convert " + quote(glb) + " -o " + quote(made));
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_cli("info " + quote(made));
    EXPECT_NE(r.out.find("embedded motions (0x916): " + std::to_string(c.animations)), std::string::npos) << r.out;
    EXPECT_EQ(run_cli("validate " + quote(made)).code, 0);
  }
  if (!node) std::cerr << "note: node_modules missing, the Khronos validator check was skipped\n";
  // The Actor Editor's Motions > Save: the embedded motions as the .skls they were made of.
  CliRun saved = run_cli("convert " + quote(detector) + " -o " + quote(dir_ / "saved.skls"));
  ASSERT_EQ(saved.code, 0) << saved.err;
  EXPECT_EQ(bytes(dir_ / "saved.skls"), bytes(sample("sdk/mod/dev_detector_1_hud_animation.skls")));
  saved = run_cli("convert " + quote(sample("sdk/mod/handflash_hud.object")) + " -o " + quote(dir_ / "none.skls"));
  EXPECT_EQ(saved.code, 1) << saved.err;
  EXPECT_NE(saved.err.find("no embedded motions"), std::string::npos) << saved.err;
  EXPECT_FALSE(fs::exists(dir_ / "none.skls"));
  CliRun r = run_cli("convert " + quote(detector) + " -o " + quote(dir_ / "draws.glb") + " --motions 'DEV_DETECTOR_1_DRAW*'");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("info " + quote(dir_ / "draws.glb"));
  EXPECT_NE(r.out.find("2 animations"), std::string::npos) << r.out;
  // The browser preview of the model plays its motions (the page's glTF holds them).
  r = run_cli("view " + quote(detector) + " -o " + quote(dir_ / "detector.html"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string html = test::slurp(dir_ / "detector.html");
  const std::size_t at = html.find("\"glb\":\"");
  ASSERT_NE(at, std::string::npos);
  std::string glb;  // the page's .glb, base64-decoded
  unsigned bits = 0, acc = 0;
  for (std::size_t i = at + 7; i < html.size() && html[i] != '"'; ++i) {
    const char ch = html[i];
    const auto pos = std::string_view("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").find(ch);
    if (pos == std::string_view::npos) continue;
    acc = (acc << 6) | unsigned(pos), bits += 6;
    if (bits >= 8) glb.push_back(char((acc >> (bits -= 8)) & 0xFF));
  }
  EXPECT_NE(glb.find("\"animations\""), std::string::npos);
  EXPECT_NE(glb.find("dev_detector_1_knife_kick_2"), std::string::npos);
  // 0x916 cut in half.
  auto cut = bytes(arm);
  const fs::path trunc = write("trunc.object", [&] {
    const xray::ObjectFile f = [&] {
      auto read = xray::read_object(FileData::from_vector(cut));
      return std::move(read).value();
    }();
    const Chunk* c = f.find(xray::kObjMotions);
    const std::vector<std::uint8_t> half(c->payload.begin(), c->payload.begin() + std::ptrdiff_t(c->payload.size() / 2));
    return test::with_embedded_motions(cut, half);
  }());
  r = run_cli("convert " + quote(trunc) + " -o " + quote(dir_ / "trunc.glb"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("0x916 motion 0"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "trunc.glb"));
  r = run_cli("convert " + quote(trunc) + " -o " + quote(dir_ / "trunc.glb") + " --force");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("embedded motions do not read: the model is exported without animations"), std::string::npos) << r.err;
  r = run_cli("info " + quote(dir_ / "trunc.glb"));
  EXPECT_NE(r.out.find("1 meshes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 animations"), std::string::npos) << r.out;
}

TEST_F(ObjectCli, OgfAndObjectBothWaysAndBoneData) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path ogf = copy("cop/handflash_hud.ogf", "handflash_hud.ogf");
  const fs::path obj = dir_ / "handflash.object", back = dir_ / "back.ogf", bones = dir_ / "handflash.bones";
  CliRun r = run_cli("convert " + quote(ogf) + " -o " + quote(obj) + " --game soc");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run_cli("validate " + quote(obj)).code, 0);
  r = run_cli("convert " + quote(obj) + " -o " + quote(back));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run_cli("validate " + quote(back)).code, 0);
  r = run_cli("convert " + quote(ogf) + " -o " + quote(bones));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("info " + quote(bones));
  EXPECT_NE(r.out.find("X-Ray bone data (.bones)"), std::string::npos) << r.out;
  // Bone data into a model: every bone is named, nothing changes.
  const fs::path same = dir_ / "same.ogf";
  r = run_cli("convert " + quote(ogf) + " -o " + quote(same) + " --bones " + quote(bones));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes(same), bytes(ogf));
  const fs::path other = dir_ / "other.object";
  r = run_cli("convert " + quote(obj) + " -o " + quote(other) + " --bones " + quote(sample("sdk/blender-xray/test_fmt.bones")));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("bones the .bones file does not name keep their data"), std::string::npos) << r.err;
}

TEST_F(ObjectCli, EditsAndRecursiveConvert) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const fs::path in = copy("sdk/mod/handflash_hud.object", "mod/meshes/handflash_hud.object");
  copy("sdk/blender-xray/test_fmt.object", "mod/meshes/sub/test_fmt.object");
  const auto original = bytes(in);
  CliRun r = run_cli("object list " + quote(in));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("handflash_S"), std::string::npos) << r.out;
  const fs::path out = dir_ / "out.object";
  r = run_cli("object set " + quote(in) + " -s 'glow*' --shader 'models\\model' --two-sided on -o " + quote(out));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("object list " + quote(out));
  EXPECT_NE(r.out.find("glow_yellow_S  texture glow\\glow_yellow  shader models\\model"), std::string::npos) << r.out;
  EXPECT_EQ(bytes(in), original);
  EXPECT_EQ(run_cli("object set " + quote(in) + " -s nothing_like_it --shader x -o " + quote(dir_ / "n.object")).code, 1);
  r = run_cli("object set --recursive --dry-run " + quote(dir_ / "mod") + " -s 'plmat' --shader 'models\\weapons'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("handflash_hud.object: no matching surface"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("test_fmt.object: would change"), std::string::npos) << r.out;
  r = run_cli("object motion-refs " + quote(in) + " --ref a --ref b --in-place");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(run_cli("object list " + quote(in)).out.find("motion refs: a, b"), std::string::npos);
  EXPECT_EQ(bytes(fs::path(in.string() + ".bak")), original);
  // The batch picks the objects up.
  r = run_cli("convert --recursive " + quote(dir_ / "mod") + " -o " + quote(dir_ / "out"));
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "out/meshes/handflash_hud.glb"));
  EXPECT_TRUE(fs::exists(dir_ / "out/meshes/sub/test_fmt.glb"));
}

}  // namespace
}  // namespace boneyard
