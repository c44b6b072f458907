// End-to-end: the boneyard binary writing, reading and checking .cmdl files beside MGS2 models.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "cmdl_fixture.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using namespace boneyard::test::mgs2fx;
using namespace boneyard::test::cmdlfx;

class CmdlCli : public CliTest {
 protected:
  std::string put(const std::string& name, const std::vector<std::uint8_t>& bytes) { return quote(write(name, bytes)); }
  std::string path(const std::string& name) const { return quote(dir_ / name); }
  std::vector<std::uint8_t> bytes_of(const std::string& name) const {
    const std::string s = slurp(dir_ / name);
    return {s.begin(), s.end()};
  }
};

TEST_F(CmdlCli, MasterCollectionOutputsComeWithTheirCmdl) {
  const std::string ps2 = put("a.kms", kms_bytes(standard_kms(false, true)));
  fs::create_directories(dir_ / "mc");
  fs::create_directories(dir_ / "g");
  // --layout mc: the .cmdl goes to _win/ beside the output, made as the spec's fixture says.
  CliRun r = run_cli("convert " + ps2 + " --layout mc -o " + path("mc/b.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("mc/_win/b.cmdl"), cmdl_bytes(standard_kms_cmdl(true)));
  r = run_cli("validate " + path("mc/b.kms") + " --cmdl " + path("mc/_win/b.cmdl"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find((dir_ / "mc/_win/b.cmdl").string() + ": ok (cmdl with " + (dir_ / "mc/b.kms").string() + "): 0 errors, 0 warnings"),
            std::string::npos) << r.out;
  // A rewrite of an MC model, --cmdl elsewhere, --no-cmdl.
  r = run_cli("convert " + path("mc/b.kms") + " -o " + path("c.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "_win/c.cmdl"));
  r = run_cli("convert " + path("mc/b.kms") + " -o " + path("d.kms") + " --cmdl " + path("else/where/d.cmdl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("else/where/d.cmdl"), cmdl_bytes(standard_kms_cmdl(true)));
  EXPECT_FALSE(fs::exists(dir_ / "_win/d.cmdl"));
  r = run_cli("convert " + path("mc/b.kms") + " -o " + path("e.kms") + " --no-cmdl");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "_win/e.cmdl"));
  // A PS2 output has no .cmdl, and asking for one is a usage error that writes nothing.
  r = run_cli("convert " + ps2 + " -o " + path("p.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "_win/p.cmdl"));
  r = run_cli("convert " + ps2 + " -o " + path("q.kms") + " --cmdl " + path("q.cmdl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, (dir_ / "a.kms").string() + ": --cmdl does not apply: " + (dir_ / "q.kms").string() +
                       " is written in the PS2 layout; a .cmdl goes only with a Master Collection model (--layout mc)\n");
  EXPECT_FALSE(fs::exists(dir_ / "q.kms"));
  r = run_cli("convert " + ps2 + " -o " + path("q.kms") + " --cmdl " + path("q.cmdl") + " --no-cmdl --layout mc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--cmdl excludes --no-cmdl"), std::string::npos) << r.err;
  r = run_cli("convert " + ps2 + " -o " + path("q.glb") + " --no-cmdl");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--no-cmdl does not apply when converting kms to .glb"), std::string::npos) << r.err;

  // From glTF: an EVM in the MC layout gets its .cmdl too; the pair checks out.
  const std::string evm = put("e.evm", evm_bytes(standard_evm(true, false, false)));
  ASSERT_EQ(run_cli("convert " + evm + " -o " + path("e.glb")).code, 0);
  r = run_cli("convert " + path("e.glb") + " -o " + path("g/f.evm"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("g/_win/f.cmdl"), cmdl_bytes(standard_evm_cmdl(false)));
  r = run_cli("validate " + path("g/f.evm") + " --cmdl " + path("g/_win/f.cmdl"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  r = run_cli("convert " + path("e.glb") + " -o " + path("h.evm") + " --layout ps2 --no-cmdl");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--no-cmdl does not apply: " + (dir_ / "h.evm").string() + " is written in the PS2 layout"), std::string::npos) << r.err;
}

TEST_F(CmdlCli, ValidatePairSaysWhereTheyDisagree) {
  put("m.kms", kms_bytes(standard_kms(true, true)));
  CFile dropped = standard_kms_cmdl(true);
  dropped.indices.erase(dropped.indices.begin() + 3, dropped.indices.begin() + 6);
  dropped.meshes[0].index_count = 3, dropped.meshes[1].start_index = 3;
  put("_win/m.cmdl", cmdl_bytes(dropped));
  CliRun r = run_cli("validate " + path("m.kms") + " --cmdl " + path("_win/m.cmdl"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("in mesh record 0 (unit 0 packet 0) triangles: "
                       "triangles of the packet's strip that the record does not draw (expected 2 triangles, found 1 missing"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find((dir_ / "m.kms").string() + ": ok (kms)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL (cmdl with"), std::string::npos) << r.out;
  r = run_cli("validate " + path("m.kms") + " " + path("m.kms") + " --cmdl " + path("_win/m.cmdl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "--cmdl checks one model against its .cmdl: give exactly one FILE (found 2)\n");
  r = run_cli("validate " + path("_win/m.cmdl") + " --cmdl " + path("_win/m.cmdl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a pair to check is a .kms or .evm and its .cmdl (given: cmdl and cmdl)"), std::string::npos) << r.err;
}

TEST_F(CmdlCli, InfoDumpRewriteAndGltfOfACmdl) {
  put("m.evm", evm_bytes(standard_evm(true, false, false)));
  const auto cmdl = cmdl_bytes(standard_evm_cmdl(false));
  const std::string c = put("_win/m.cmdl", cmdl);
  CliRun r = run_cli("info " + c);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("vertices: 5, triangles: 2, records: 1"), std::string::npos) << r.out;
  r = run_cli("validate --info " + c);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ok (cmdl): 0 errors, 0 warnings, 0 info"), std::string::npos) << r.out;
  r = run_cli("dump --raw " + c);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["sections"][4]["values"][1], nlohmann::json({0x3800, 0x3800, 0, 0}));
  EXPECT_EQ(j["meshes"][0]["field_80"][0], 0x80);
  r = run_cli("convert " + c + " -o " + path("copy.cmdl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("copy.cmdl"), cmdl);
  // glTF of what the game draws: the model is found one folder up (the game's layout).
  r = run_cli("convert " + c + " -o " + path("drawn.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto g = nlohmann::json::parse(slurp(dir_ / "drawn.gltf"));
  EXPECT_EQ(g["scenes"][0]["extras"]["mgs2"]["source"], "cmdl");
  EXPECT_EQ(g["accessors"][g["meshes"][0]["primitives"][0]["indices"].get<int>()]["count"], 6);
  // `view` draws the same (when the three.js bundle is built: npm ci).
  r = run_cli("view " + c + " -o " + path("page.html"));
  if (r.code != 2 || r.err.find("npm ci") == std::string::npos) {
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(slurp(dir_ / "page.html").find("\"format\":\"cmdl\""), std::string::npos);
  }
  // Beside it, or named with --skeleton; none: exit 2 with where it looked.
  put("other/n.cmdl", cmdl);
  r = run_cli("convert " + path("other/n.cmdl") + " -o " + path("n.glb"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no model for " + (dir_ / "other/n.cmdl").string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "n.glb"));
  r = run_cli("convert " + path("other/n.cmdl") + " -o " + path("n.glb") + " --skeleton " + path("m.evm"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("convert " + c + " -o " + path("x.cmdl") + " --skeleton " + path("m.evm"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--skeleton does not apply when converting cmdl to .cmdl"), std::string::npos) << r.err;
}

TEST_F(CmdlCli, TemplateCmdlComesBackThroughGltf) {
  // Another tool's .cmdl (an unknown section, odd record fields) beside an MC model: after a
  // glTF round trip with --template, the new model's .cmdl is the same file, since it still
  // agrees with the model; with the model edited, its unknown section and fields stay.
  const std::string t = put("t.kms", kms_bytes(standard_kms(true, true)));
  CFile tpl = standard_kms_cmdl(true);
  tpl.sections.push_back(CSection{"XTRA", 3, 2, std::vector<std::uint8_t>(7 * 4, 0x5A)});
  tpl.meshes[1].field_80 = 0x81;
  put("_win/t.cmdl", cmdl_bytes(tpl));
  ASSERT_EQ(run_cli("convert " + t + " -o " + path("t.glb")).code, 0);
  fs::create_directories(dir_ / "out");
  CliRun r = run_cli("convert " + path("t.glb") + " -o " + path("out/u.kms") + " --template " + t);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("out/_win/u.cmdl"), cmdl_bytes(tpl));
  // A rewrite takes the input's own .cmdl as its template: here too it comes back as it was.
  r = run_cli("convert " + t + " -o " + path("out/w.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of("out/_win/w.cmdl"), cmdl_bytes(tpl));
  auto edited = standard_kms(true, true);
  edited.units[0].packets[0].verts[3] = {10, 12, 0, 2048};
  ASSERT_EQ(run_cli("convert " + put("t2.kms", kms_bytes(edited)) + " -o " + path("t2.glb")).code, 0);
  r = run_cli("convert " + path("t2.glb") + " -o " + path("out/v.kms") + " --template " + t);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(run_cli("dump --raw " + path("out/_win/v.cmdl")).out);
  EXPECT_EQ(j["sections"][5]["tag"], "XTRA");  // in the template's place, after OIDX
  EXPECT_EQ(j["meshes"][1]["field_80"][0], 0x81);
  EXPECT_EQ(run_cli("validate " + path("out/v.kms") + " --cmdl " + path("out/_win/v.cmdl")).code, 0);
}

}  // namespace
}  // namespace boneyard::test
