// End-to-end on real models: `convert` glTF -> .ogf (--template, --game, --motion-refs) and
// .ogf -> .ogf, and `boneyard ogf` (list, set, motion-refs, userdata, retarget, --recursive with
// --dry-run, --in-place with backups). Skipped without ../shared/samples.
#include "cli_harness.h"
#include "test_support.h"

namespace boneyard {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::quote;
using test::run_cli;

class OgfCli : public test::CliTest {
 protected:
  fs::path sample(const char* rel) const { return test::samples_dir() / "xray" / rel; }
  fs::path copy(const char* rel, const std::string& name) {
    const fs::path to = dir_ / name;
    fs::create_directories(to.parent_path());
    fs::copy_file(sample(rel), to, fs::copy_options::overwrite_existing);
    fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);  // samples are 0444
    return to;
  }
  static std::vector<std::uint8_t> bytes(const fs::path& p) { return test::read_file(p); }
};

TEST_F(OgfCli, HelpForEveryOgfCommand) {
  for (const char* c : {"ogf", "ogf list", "ogf set", "ogf motion-refs", "ogf userdata", "ogf retarget"}) {
    const CliRun r = run_cli(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0) << c;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << c;
  }
  const CliRun r = run_cli("convert --help");
  for (const char* flag : {"--template", "--game", "--motion-refs"}) EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST_F(OgfCli, GlbBackToOgfWithTemplateKeepsTheBytes) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path ogf = copy("soc/zombi_1.ogf", "zombi_1.ogf");
  const fs::path glb = dir_ / "zombi_1.glb", back = dir_ / "back.ogf", same = dir_ / "same.ogf";
  ASSERT_EQ(run_cli("convert " + quote(ogf) + " -o " + quote(glb)).code, 0);
  CliRun r = run_cli("convert " + quote(glb) + " -o " + quote(back) + " --template " + quote(ogf));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes(back), bytes(ogf));
  r = run_cli("convert " + quote(ogf) + " -o " + quote(same));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes(same), bytes(ogf));
  // The options a glTF -> .ogf reads, and those it does not.
  const fs::path soc = dir_ / "soc.ogf";
  r = run_cli("convert " + quote(glb) + " -o " + quote(soc) + " --game soc --motion-refs stalker_animation,zombie");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("ogf list " + quote(soc));
  EXPECT_NE(r.out.find("motion refs: stalker_animation, zombie"), std::string::npos) << r.out;
  r = run_cli("convert " + quote(glb) + " -o " + quote(dir_ / "x.ogf") + " --hq");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--hq does not apply when converting gltf to .ogf"), std::string::npos) << r.err;
  r = run_cli("convert " + quote(ogf) + " -o " + quote(dir_ / "y.ogf") + " --game cs");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.ogf") || fs::exists(dir_ / "y.ogf"));
}

TEST_F(OgfCli, TemplateOfAnotherFormatIsAUsageError) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path ogf = copy("soc/zombi_1.ogf", "zombi_1.ogf");
  const fs::path omf = copy("soc/zombi_animation.omf", "zombi_animation.omf");
  ASSERT_EQ(run_cli("convert " + quote(ogf) + " -o " + quote(dir_ / "z.glb")).code, 0);
  const CliRun r = run_cli("convert " + quote(dir_ / "z.glb") + " -o " + quote(dir_ / "z.ogf") + " --template " + quote(omf));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("holds omf data"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "z.ogf"));
}

TEST_F(OgfCli, ListSetAndInPlace) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path in = copy("soc/wpn_binoculars_hud.ogf", "bino.ogf");
  const auto original = bytes(in);
  CliRun r = run_cli("ogf list " + quote(in));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("   0  type"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("   1  type"), std::string::npos) << r.out;

  const fs::path out = dir_ / "out.ogf";
  r = run_cli("ogf set " + quote(in) + " --child 0 --texture 'wpn\\wpn_new' -o " + quote(out));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote"), std::string::npos);
  EXPECT_NE(run_cli("ogf list " + quote(out)).out.find("wpn\\wpn_new"), std::string::npos);
  EXPECT_EQ(bytes(in), original);

  // Nothing said about where it goes, nothing to set, no such child: refused, nothing written.
  EXPECT_EQ(run_cli("ogf set " + quote(in) + " --child 0 --texture a").code, 2);
  EXPECT_EQ(run_cli("ogf set " + quote(in) + " --child 0 -o " + quote(dir_ / "n.ogf")).code, 2);
  r = run_cli("ogf set " + quote(in) + " --child 7 --texture a -o " + quote(dir_ / "n.ogf"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(run_cli("ogf set " + quote(in) + " --child 0 --texture a -o " + quote(in)).code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "n.ogf"));

  r = run_cli("ogf set " + quote(in) + " --child '*' --shader models\\\\weapons --in-place");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("original kept as"), std::string::npos);
  EXPECT_EQ(bytes(dir_ / "bino.ogf.bak"), original);
  EXPECT_NE(bytes(in), original);
  EXPECT_EQ(run_cli("validate " + quote(in)).code, 0);
}

TEST_F(OgfCli, RecursiveDryRunThenInPlace) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path a = copy("soc/wpn_binoculars_hud.ogf", "mod/meshes/a.ogf");
  const fs::path b = copy("soc/zombi_1.ogf", "mod/meshes/sub/b.OGF");
  const auto a0 = bytes(a), b0 = bytes(b);
  const fs::path root = dir_ / "mod";
  CliRun r = run_cli("ogf set --recursive --dry-run " + quote(root) + " --child 'r_pop\\*' --texture 'r_pop\\renamed'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("a.ogf: would change"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("b.OGF: no matching child"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 would change, 0 unchanged, 1 without a matching child, 0 failed"), std::string::npos) << r.out;
  EXPECT_EQ(bytes(a), a0);
  EXPECT_EQ(bytes(b), b0);
  EXPECT_EQ(run_cli("ogf set --recursive " + quote(root) + " --child 0 --texture x -o " + quote(dir_ / "o")).code, 2);
  EXPECT_EQ(run_cli("ogf set --recursive " + quote(root) + " --child 0 --texture x").code, 2);

  r = run_cli("ogf set --recursive --in-place " + quote(root) + " --child 'r_pop\\*' --texture 'r_pop\\renamed'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("a.ogf: changed, original kept as"), std::string::npos) << r.out;
  EXPECT_EQ(bytes(fs::path(a.string() + ".bak")), a0);
  EXPECT_EQ(bytes(b), b0);
  EXPECT_FALSE(fs::exists(b.string() + ".bak"));
  EXPECT_NE(run_cli("ogf list " + quote(a)).out.find("r_pop\\renamed"), std::string::npos);
}

TEST_F(OgfCli, MotionRefsUserDataRetarget) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path in = copy("cop/protein.ogf", "protein.ogf");
  const fs::path refs = dir_ / "refs.ogf", ud = dir_ / "ud.ogf", soc = dir_ / "soc.ogf";
  CliRun r = run_cli("ogf motion-refs " + quote(in) + " --ref a_anims --ref b_anims -o " + quote(refs));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(run_cli("ogf list " + quote(refs)).out.find("motion refs: a_anims, b_anims"), std::string::npos);
  EXPECT_EQ(run_cli("ogf motion-refs " + quote(in) + " -o " + quote(dir_ / "n.ogf")).code, 2);
  r = run_cli("ogf motion-refs " + quote(refs) + " --none -o " + quote(dir_ / "none.ogf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run_cli("ogf list " + quote(dir_ / "none.ogf")).out.find("motion refs"), std::string::npos);

  r = run_cli("ogf userdata " + quote(in) + " --text '[collide]\nignore_static' -o " + quote(ud));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(run_cli("ogf list " + quote(ud)).out.find("user data: "), std::string::npos);
  EXPECT_EQ(run_cli("ogf userdata " + quote(in) + " -o " + quote(dir_ / "n.ogf")).code, 2);

  r = run_cli("ogf retarget " + quote(in) + " --game soc -o " + quote(soc));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run_cli("validate " + quote(soc)).code, 0);
  EXPECT_EQ(run_cli("ogf retarget " + quote(in) + " --game xbox -o " + quote(dir_ / "n.ogf")).code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "n.ogf"));
}

TEST_F(OgfCli, NamesTheFormatCannotHoldAreRefused) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path in = copy("soc/wpn_binoculars_hud.ogf", "bino.ogf");
  const auto original = bytes(in);
  // A Japanese name has no cp1251 form (a NUL cannot be in an argument: tests/python/test_ogf.py).
  CliRun r = run_cli("ogf set " + quote(in) + " --child 0 --texture '\xe6\x97\xa5\xe6\x9c\xac' --in-place");
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(bytes(in), original);
  EXPECT_FALSE(fs::exists(dir_ / "bino.ogf.bak"));
}

}  // namespace
}  // namespace boneyard
