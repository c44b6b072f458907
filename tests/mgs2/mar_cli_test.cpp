// End-to-end: the boneyard binary on .mar motion archives (info, validate against a skeleton, dump,
// rewrite, layout conversion, glTF with and without a model, --motions) and on the Master
// Collection's index files (rewrite, validation, mc-register).
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "boneyard/mgs2/mc_index/mc_index.h"
#include "boneyard/mgs2/strcode.h"
#include "cli_harness.h"
#include "cmdl_fixture.h"
#include "mar_fixture.h"
#include "mgs2_branching_fixture.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class MarCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    const std::array<std::uint32_t, 4> ids{1, 2, 3, 4};
    write("ps2.mar", marfx::mar_bytes(marfx::standard_mar(false)));
    write("mc.mar", marfx::mar_bytes(marfx::standard_mar(true)));
    write("model.kms", mgs2fx::kms_bytes(mgs2fx::branching_kms(false, ids)));
    write("model.evm", mgs2fx::evm_bytes(mgs2fx::branching_evm(false, ids)));
    const std::string names = marfx::standard_motion_names();
    write("names.txt", std::vector<std::uint8_t>(names.begin(), names.end()));
  }
  std::string path(const std::string& name) const { return quote(dir_ / name); }
  std::vector<std::uint8_t> bytes_of(const std::string& name) const {
    const std::string s = slurp(dir_ / name);
    return {s.begin(), s.end()};
  }
  // The JSON of a .glb.
  json glb_json(const std::string& name) const {
    const std::string s = slurp(dir_ / name);
    std::uint32_t length = 0;
    std::memcpy(&length, s.data() + 12, 4);
    return json::parse(s.substr(20, length));
  }
};

TEST_F(MarCli, InfoValidateAndDump) {
  CliRun r = run_cli("info " + path("mc.mar") + " --names " + path("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("layout mc"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rai_walk"), std::string::npos) << r.out;
  r = run_cli("validate " + path("ps2.mar"));
  EXPECT_EQ(r.code, 0) << r.out;
  r = run_cli("validate " + path("ps2.mar") + " --skeleton " + path("model.evm"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ok (mar on "), std::string::npos) << r.out;
  // A skeleton of two units is too small for motions of six joints.
  write("small.kms", mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  r = run_cli("validate " + path("ps2.mar") + " --skeleton " + path("small.kms"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("motion 0 joints: the motion drives joints the skeleton does not have"), std::string::npos) << r.out;
  r = run_cli("dump --raw " + path("ps2.mar"));
  ASSERT_EQ(r.code, 0) << r.err;
  const json d = json::parse(r.out);
  EXPECT_EQ(d["format"], "mar");
  ASSERT_EQ(d["motions"].size(), 4u);
  EXPECT_EQ(d["motions"][0]["tail"], "01020304");
  EXPECT_EQ(d["motions"][0]["rotations"][0][1][0], 10);  // frame
  EXPECT_EQ(d["motions"][0]["rotations"][0][1][3], (json{1, -2, 3, 2047}));  // the second quaternion as stored
}

TEST_F(MarCli, RewritesAndConvertsLayouts) {
  CliRun r = run_cli("convert " + path("ps2.mar") + " -o " + path("copy.mar"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("copy.mar"), bytes_of("ps2.mar"));
  r = run_cli("convert " + path("ps2.mar") + " -o " + path("to_mc.mar") + " --layout mc");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("to_mc.mar"), bytes_of("mc.mar"));
  r = run_cli("convert " + path("mc.mar") + " -o " + path("to_ps2.mar") + " --layout ps2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("to_ps2.mar"), bytes_of("ps2.mar"));
  r = run_cli("convert " + path("ps2.mar") + " -o " + path("x.mar") + " --scale 0.01");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--scale does not apply when converting mar to .mar"), std::string::npos) << r.err;
}

TEST_F(MarCli, AModelWithItsMotionsToGltf) {
  CliRun r = run_cli("convert " + path("model.kms") + " --mar " + path("ps2.mar") + " -o " + path("m.glb") + " --names " + path("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  const json g = glb_json("m.glb");
  ASSERT_EQ(g["animations"].size(), 4u);
  EXPECT_EQ(g["animations"][0]["name"], "rai_walk");
  EXPECT_EQ(g["animations"][0]["extras"]["mgs2_motion"]["flags"], 0x10);
  EXPECT_FALSE(g["meshes"].empty());
  // --motions picks by name; without --mar it is a usage error.
  r = run_cli("convert " + path("model.kms") + " --mar " + path("ps2.mar") + " --motions '*hold' -o " + path("one.glb") + " --names " +
              path("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  const json one = glb_json("one.glb");
  ASSERT_EQ(one["animations"].size(), 1u);
  EXPECT_EQ(one["animations"][0]["name"], "rai_hold");
  r = run_cli("convert " + path("model.kms") + " --motions '*' -o " + path("none.glb"));
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "none.glb"));
  // A model too small for the motions: the conversion fails and writes nothing.
  write("small.kms", mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  r = run_cli("convert " + path("small.kms") + " --mar " + path("ps2.mar") + " -o " + path("small.glb"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("drives joints the skeleton does not have"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "small.glb"));
  // The .mar cannot be the output.
  r = run_cli("convert " + path("model.kms") + " --mar " + path("ps2.mar") + " -o " + path("ps2.mar"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(bytes_of("ps2.mar"), marfx::mar_bytes(marfx::standard_mar(false)));
}

TEST_F(MarCli, AMarAloneOnItsSkeletonOrAFlatArmature) {
  CliRun r = run_cli("convert " + path("mc.mar") + " --skeleton " + path("model.evm") + " -o " + path("s.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  const json g = json::parse(slurp(dir_ / "s.gltf"));
  EXPECT_EQ(g["animations"].size(), 4u);
  EXPECT_FALSE(g.contains("meshes"));
  EXPECT_EQ(g["skins"][0]["joints"].size(), 6u);
  r = run_cli("convert " + path("mc.mar") + " -o " + path("flat.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("flat armature"), std::string::npos) << r.err;
  r = run_cli("convert " + path("mc.mar") + " --skeleton " + path("ps2.mar") + " -o " + path("bad.glb"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is not a .kms or .evm"), std::string::npos) << r.err;
}

// ---- Master Collection index files ----------------------------------------------------------

constexpr const char* kManifest =
    "assets/tri/us/w24c1.tri,us/stage/w24c/cache/0089dc98.tri,cache/0089dc98.tri\r\r\n"
    "assets/tri/us/ric_def.tri,us/stage/w24c/cache/00615edc.tri,cache/00615edc.tri\r\r\n"
    "assets/tri/us/ric_def.tri,us/stage/w24c/cache/00615edc.tri,cache/00615edc.tri\r\r\n"
    "assets/kms/us/w24c1.kms,us/stage/w24c/cache/0089dc98.kms,cache/0089dc98.kms\r\n"
    "assets/mar/us/hostage.mar,us/stage/w24c/cache/006bac2a.mar,cache/006bac2a.mar";

class McIndexCli : public MarCli {};

TEST_F(McIndexCli, RewritesByteForByteAndValidates) {
  const std::string text = kManifest;
  write("manifest.txt", std::vector<std::uint8_t>(text.begin(), text.end()));
  CliRun r = run_cli("convert " + path("manifest.txt") + " -o " + path("copy.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "copy.txt"), text);
  r = run_cli("validate --info " + path("manifest.txt"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("lines end in 2 different ways"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 line end without a line break"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 lines repeat an earlier line"), std::string::npos) << r.out;
  r = run_cli("dump " + path("manifest.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  const json d = json::parse(r.out);
  EXPECT_EQ(d["kind"], "manifest");
  ASSERT_EQ(d["lines"].size(), 5u);
  EXPECT_EQ(d["lines"][0]["ending"], "\r\r\n");
  EXPECT_EQ(d["lines"][4]["ending"], "");
  EXPECT_EQ(d["lines"][1]["pool"], "assets/tri/us/ric_def.tri");
  const std::string broken = "textures/flatlist/a.bmp.ctxr,stage/w24c/cache/a.bmp.ctxr\r\r\n";
  write("bp_assets.txt", std::vector<std::uint8_t>(broken.begin(), broken.end()));
  r = run_cli("validate " + path("bp_assets.txt"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("three comma-separated paths"), std::string::npos) << r.out;
}

class McRegisterCli : public MarCli {
 protected:
  void SetUp() override {
    MarCli::SetUp();
    // A Master Collection model named after its texture group (w03b1 = 0x88D878) with its .cmdl;
    // its first packet names null_msk.bmp (0xB7E31E) and stripes.bmp.
    mgs2fx::KFile f = mgs2fx::standard_kms(true, true);
    f.units[0].packets[0].tex = {0xB7E31E, mgs2::strcode("stripes.bmp"), 0};
    write("mod/w03b1.kms", mgs2fx::kms_bytes(f));
    write("mod/_win/w03b1.cmdl", cmdlfx::cmdl_bytes(cmdlfx::standard_kms_cmdl(true)));
    write("tex/null_msk.bmp.ctxr", std::vector<std::uint8_t>{1});
    const std::string names = "stripes.bmp\n";
    write("tex_names.txt", std::vector<std::uint8_t>(names.begin(), names.end()));
  }
  std::string stripes() const { return mgs2::mc_index_id(mgs2::strcode("stripes.bmp")); }
};

TEST_F(McRegisterCli, WritesTheModsIndexFiles) {
  // stripes.bmp has no .ctxr: an error naming its id, nothing written.
  CliRun r = run_cli("mc-register " + path("mod/w03b1.kms") + " --stage w24c --mod fix -o " + path("out") + " --textures " + path("tex"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find(stripes()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  // A flatlist name with the md5 suffix the game's overrides carry stands for its texture.
  write("tex/sub/stripes.bmp_0123456789abcdef0123456789abcdef.ctxr", std::vector<std::uint8_t>{1});
  r = run_cli("mc-register " + path("mod/w03b1.kms") + " --stage w24c --stage r_plt0 --lang eu --mod fix -o " + path("out") +
              " --textures " + path("tex"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(slurp(dir_ / "out/eu/stage/w24c/manifest_fix.txt"),
            "assets/tri/us/w03b1.tri,us/stage/w24c/cache/0088d878.tri,cache/0088d878.tri\r\r\n"
            "assets/kms/us/w03b1.kms,us/stage/w24c/cache/0088d878.kms,cache/0088d878.kms\r\r\n");
  EXPECT_EQ(slurp(dir_ / "out/eu/stage/r_plt0/bp_assets_fix.txt"),
            "textures/flatlist/null_msk.bmp.ctxr,stage/r_plt0/resident/null_msk.bmp.ctxr,eu/stage/r_plt0/resident/0088d878/00b7e31e.ctxr\r\r\n"
            "textures/flatlist/stripes.bmp_0123456789abcdef0123456789abcdef.ctxr,stage/r_plt0/resident/"
            "stripes.bmp_0123456789abcdef0123456789abcdef.ctxr,eu/stage/r_plt0/resident/0088d878/" + stripes() + ".ctxr\r\r\n"
            "assets/kms/us/w03b1.cmdl,us/stage/r_plt0/resident/0088d878.cmdl,eu/stage/r_plt0/resident/0088d878.cmdl\r\r\n");
  EXPECT_FALSE(fs::exists(dir_ / "out/jp"));
  r = run_cli("validate " + path("out/eu/stage/r_plt0/bp_assets_fix.txt") + " " + path("out/eu/stage/w24c/manifest_fix.txt"));
  EXPECT_EQ(r.code, 0) << r.out;
  // --names names a texture no .ctxr was found for; --dry-run writes nothing.
  fs::remove_all(dir_ / "tex/sub");
  r = run_cli("mc-register " + path("mod/w03b1.kms") + " --stage w24c --mod fix -o " + path("dry") + " --textures " + path("tex") +
              " --names " + path("tex_names.txt") + " --dry-run");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("would write"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("textures/flatlist/stripes.bmp.ctxr,stage/w24c/cache/stripes.bmp.ctxr,jp/stage/w24c/cache/0088d878/" + stripes()),
            std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "dry"));
}

TEST_F(McRegisterCli, TheGamesOwnIndicesAndRefusals) {
  // The game's w24c holds the tri slot, the model's manifest line and both textures (one of them
  // another file): only the .cmdl line and the repointed texture are left.
  const std::string game_manifest =
      "assets/tri/us/w03b1.tri,us/stage/w24c/cache/0088d878.tri,cache/0088d878.tri\r\r\n"
      "assets/kms/us/w03b1.kms,us/stage/w24c/cache/0088d878.kms,cache/0088d878.kms\r\r\n";
  const std::string game_bp =
      "textures/flatlist/null_msk.bmp.ctxr,stage/w24c/cache/null_msk.bmp.ctxr,eu/stage/w24c/cache/0088d878/00b7e31e.ctxr\r\r\n"
      "textures/flatlist/old.bmp.ctxr,stage/w24c/cache/old.bmp.ctxr,eu/stage/w24c/cache/0088d878/" + stripes() + ".ctxr\r\r\n";
  write("game/eu/stage/w24c/manifest.txt", std::vector<std::uint8_t>(game_manifest.begin(), game_manifest.end()));
  write("game/eu/stage/w24c/bp_assets.txt", std::vector<std::uint8_t>(game_bp.begin(), game_bp.end()));
  write("game/textures/flatlist/null_msk.bmp.ctxr", std::vector<std::uint8_t>{1});
  CliRun r = run_cli("mc-register " + path("mod/w03b1.kms") + " --lang eu --mod fix -o " + path("out") + " --game " + path("game"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("the stages whose manifest lists assets/kms/us/w03b1.kms: w24c"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("already in the game's index"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "out/eu/stage/w24c/manifest_fix.txt"));
  EXPECT_EQ(slurp(dir_ / "out/eu/stage/w24c/bp_assets_fix.txt"),
            "assets/kms/us/w03b1.cmdl,us/stage/w24c/cache/0088d878.cmdl,eu/stage/w24c/cache/0088d878.cmdl\r\r\n");
  // With the texture's own file, its line registers the texture again after the game's (said).
  write("tex/stripes.bmp.ctxr", std::vector<std::uint8_t>{1});
  r = run_cli("mc-register " + path("mod/w03b1.kms") + " --lang eu --mod fix2 -o " + path("out") + " --game " + path("game") +
              " --textures " + path("tex"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("again, after the game's line textures/flatlist/old.bmp.ctxr"), std::string::npos) << r.out;
  // A PS2 model, a mod name with a folder in it, an output in the place of a folder: usage errors,
  // nothing written.
  write("ps2/w03b1.kms", mgs2fx::kms_bytes(mgs2fx::standard_kms(false, true)));
  r = run_cli("mc-register " + path("ps2/w03b1.kms") + " --stage w24c --mod fix -o " + path("out2"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("PS2 layout"), std::string::npos) << r.err;
  r = run_cli("mc-register " + path("mod/w03b1.kms") + " --stage w24c --mod ../x -o " + path("out2"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out2"));
  fs::create_directories(dir_ / "out3/eu/stage/w24c/bp_assets_fix.txt");
  r = run_cli("mc-register " + path("mod/w03b1.kms") + " --lang eu --stage w24c --mod fix -o " + path("out3") + " --game " + path("game"));
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("refusing to write over a folder"), std::string::npos) << r.err;
}

// The .ctxr names are read as a conversion's texture lookup reads them (one rule, docs/textures.md
// "Texture files by id"): a name of hex digits is its id, "<name>.ctxr" hashes with or without
// ".bmp", and of two files for one id the documented first is registered (said).
TEST_F(McRegisterCli, TextureFilesByEveryNameForm) {
  write("hex/00b7e31e.ctxr", std::vector<std::uint8_t>{1});
  write("hex/stripes.ctxr", std::vector<std::uint8_t>{1});
  CliRun r = run_cli("mc-register " + path("mod/w03b1.kms") + " --stage w24c --lang eu --mod fix --dry-run --textures " + path("hex"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("textures/flatlist/00b7e31e.ctxr,stage/w24c/cache/00b7e31e.ctxr,eu/stage/w24c/cache/0088d878/00b7e31e.ctxr"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("textures/flatlist/stripes.ctxr,stage/w24c/cache/stripes.ctxr,eu/stage/w24c/cache/0088d878/" + stripes()),
            std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("could be it"), std::string::npos) << r.out;
  // A second file for stripes: the name without _<md5> is registered, and the choice is said.
  write("hex/a/stripes.bmp_0123456789abcdef0123456789abcdef.ctxr", std::vector<std::uint8_t>{1});
  r = run_cli("mc-register " + path("mod/w03b1.kms") + " --stage w24c --lang eu --mod fix --dry-run --textures " + path("hex"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("textures: texture " + stripes() + ": 2 .ctxr files could be it; registered stripes.ctxr, not "
                       "stripes.bmp_0123456789abcdef0123456789abcdef.ctxr"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("textures/flatlist/stripes.ctxr,"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace boneyard::test
