// End-to-end: the `boneyard` binary on files written to a temporary folder.
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "omf_fixture.h"
#include "test_support.h"

namespace boneyard {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::quote;
using test::run_cli;
using test::slurp;

class Cli : public test::CliTest {
 protected:
  std::size_t files_in_dir() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
};

TEST_F(Cli, HelpForEveryCommand) {
  for (const char* c : {"", "info", "dump", "validate", "convert", "omf", "omf list", "omf merge", "omf extract",
                        "omf delete", "omf rename", "omf set", "omf repair", "omf retarget"}) {
    const CliRun r = run_cli(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0) << c;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << c << r.out;
  }
  for (const char* args : {"", "frobnicate"}) {
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, "A subcommand is required\nRun with --help for more information.\n") << args;
  }
  const CliRun r = run_cli("validate");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "files is required\nRun with --help for more information.\n");
}

TEST_F(Cli, ValidateExitCodes) {
  const auto clean = write("clean.omf", test::omf_bytes(test::rich_spec()));
  test::OmfSpec warn_spec = test::rich_spec();
  warn_spec.keys[0].bones[0].rot_crc_override = 0;
  const auto warn = write("warn.omf", test::omf_bytes(warn_spec));
  test::OmfSpec err_spec = test::rich_spec();
  err_spec.params.pop_back();
  const auto bad = write("bad.omf", test::omf_bytes(err_spec));

  CliRun r = run_cli("validate " + quote(clean));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("ok (omf): 0 errors, 0 warnings"), std::string::npos) << r.out;
  r = run_cli("validate " + quote(warn));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("warning at byte"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli("validate --strict " + quote(warn)).code, 1);
  r = run_cli("validate " + quote(clean) + " " + quote(bad));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("error at byte"), std::string::npos);
  EXPECT_NE(r.out.find("0xE and 0xF motion counts differ"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli("validate -q " + quote(bad)).out.find("error at byte"), std::string::npos);
}

TEST_F(Cli, BadInputGetsOneClearLine) {
  const auto empty = write("empty.omf", {});
  const auto junk = write("junk.omf", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto bytes = test::omf_bytes(test::rich_spec());
  bytes.resize(bytes.size() / 2);
  const auto cut = write("cut.omf", bytes);

  CliRun r = run_cli("info " + quote(empty));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("empty file"), std::string::npos) << r.err;
  r = run_cli("validate " + quote(junk));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("not a recognised file"), std::string::npos) << r.err;
  r = run_cli("dump " + quote(cut));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("cut.omf: error at byte"), std::string::npos) << r.err;
  r = run_cli("info " + quote(dir_));
  EXPECT_EQ(r.code, 2);  // a directory is an I/O problem, like a missing file (issue 11)
  EXPECT_NE(r.err.find("is a directory"), std::string::npos);
  r = run_cli("info " + quote(dir_ / "missing.omf"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, (dir_ / "missing.omf").string() + ": cannot open: No such file or directory\n");
}

TEST_F(Cli, DumpIsJsonFollowingTheSchema) {
  const auto f = write("a.omf", test::omf_bytes(test::rich_spec()));
  CliRun r = run_cli("dump " + quote(f));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "omf");
  EXPECT_EQ(j["motions"].size(), 2u);
  EXPECT_EQ(j["motions"][1]["name"], "shoot");
  r = run_cli("dump --raw " + quote(f));
  EXPECT_TRUE(nlohmann::json::parse(r.out)["motions"][0]["bones"][0].contains("translation_crc"));
}

TEST_F(Cli, InfoShowsMotionTable) {
  const auto f = write("a.omf", test::omf_bytes(test::rich_spec()));
  const CliRun r = run_cli("info " + quote(f) + " " + quote(f));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("walk"), std::string::npos);
  EXPECT_NE(r.out.find("fx,stop_at_end"), std::string::npos);
}

TEST_F(Cli, ConvertRewritesByteExactAndNeverClobbers) {
  const auto bytes = test::omf_bytes(test::rich_spec());
  const auto in = write("in.bin", bytes);  // detected from content, not the extension
  CliRun r = run_cli("convert " + quote(in) + " -o " + quote(dir_ / "out.omf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "out.omf"), std::string(bytes.begin(), bytes.end()));

  const auto omf = write("same.omf", bytes);
  r = run_cli("convert " + quote(omf) + " -o " + quote(omf));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("refusing to overwrite the input"), std::string::npos);

  r = run_cli("convert " + quote(omf) + " -o " + quote(dir_ / "x.kms"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, omf.string() + ": cannot convert omf to '.kms' (possible: .omf, .skls, .skl, .glb, .gltf)\n");
  r = run_cli("convert " + quote(omf) + " -o " + quote(dir_ / "no" / "dir.omf"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("cannot create " + (dir_ / "no").string() + "/", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(": No such file or directory"), std::string::npos) << r.err;
  const std::size_t before = files_in_dir();
  auto cut = bytes;
  cut.resize(40);
  const auto broken = write("broken.omf", cut);
  r = run_cli("convert " + quote(broken) + " -o " + quote(dir_ / "never.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(broken.string() + ": error at byte"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "never.omf"));
  EXPECT_EQ(files_in_dir(), before + 1);  // only broken.omf was added: no temporaries left behind
}

TEST_F(Cli, ExtractsEmbeddedMotionsFromOgf) {
  const test::OmfSpec spec = test::rich_spec();
  test::Buf header;
  header.u8(4).u8(3).u16(0);
  for (int i = 0; i < 10; ++i) header.f32(0.0f);
  test::Buf bones;  // 0xD: count, then name, parent and a 60-byte oriented box per bone
  bones.u32(2);
  for (const char* b : {"root", "spine"}) {
    bones.str(b).str(std::string(b) == "root" ? "" : "root");
    for (int i = 0; i < 15; ++i) bones.f32(0.0f);
  }
  test::Buf ik;  // 0x10 per bone, version 0: material, shape, joint, bind rotation/position, mass
  for (int b = 0; b < 2; ++b) {
    ik.u32(0).str("");
    for (int i = 0; i < 28; ++i) ik.f32(0.0f);  // 112-byte shape
    ik.u32(0);
    for (int i = 0; i < 12; ++i) ik.f32(0.0f);  // 3 limits
    ik.f32(0.0f).f32(0.0f).u32(0).f32(0.0f).f32(0.0f);
    for (int i = 0; i < 6; ++i) ik.f32(0.0f);  // bind rotation and position
    ik.f32(1.0f).f32(0.0f).f32(0.0f).f32(0.0f);
  }
  test::Buf ogf;
  ogf.chunk(0x1, header).chunk(0xD, bones).chunk(0x10, ik).chunk(0xE, test::motions_payload(spec)).chunk(0xF, test::params_payload(spec));
  const auto in = write("model.ogf", ogf.b);
  CliRun r = run_cli("convert " + quote(in) + " -o " + quote(dir_ / "motions.omf"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto expected = test::omf_bytes(spec);
  EXPECT_EQ(slurp(dir_ / "motions.omf"), std::string(expected.begin(), expected.end()));
  r = run_cli("convert " + quote(in) + " -o " + quote(dir_ / "copy.ogf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "copy.ogf"), std::string(ogf.b.begin(), ogf.b.end()));
  const CliRun v = run_cli("validate " + quote(in));
  EXPECT_EQ(v.code, 0) << v.out << v.err;
}

TEST_F(Cli, OmfEditingCommands) {
  const auto bytes = test::omf_bytes(test::rich_spec());
  const auto in = write("a.omf", bytes);
  CliRun r = run_cli("omf list " + quote(in));
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("walk"), std::string::npos);
  EXPECT_NE(r.out.find("shoot"), std::string::npos);

  r = run_cli("omf set " + quote(in) + " walk --speed 2 --flags stop_at_end --add-mark Left 0 0.05 -o " + quote(dir_ / "b.omf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("speed 1 -> 2"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli("validate " + quote(dir_ / "b.omf")).code, 0);
  EXPECT_EQ(slurp(in), std::string(bytes.begin(), bytes.end()));  // input untouched

  r = run_cli("omf rename " + quote(in) + " walk stroll");  // no -o nor --in-place
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, in.string() + ": say where the result goes: -o FILE or --in-place\n");
  r = run_cli("omf rename " + quote(in) + " walk stroll -o " + quote(in));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, in.string() + ": refusing to overwrite the input; use --in-place to replace it (keeps a .bak)\n");
  r = run_cli("omf rename " + quote(in) + " walk stroll --in-place");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "a.omf.bak"), std::string(bytes.begin(), bytes.end()));
  EXPECT_NE(run_cli("omf list " + quote(in)).out.find("stroll"), std::string::npos);

  r = run_cli("omf set " + quote(in) + " nothing --speed 1 -o " + quote(dir_ / "c.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no motion matches"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "c.omf"));
  r = run_cli("omf set " + quote(in) + " walk --flags bogus -o " + quote(dir_ / "c.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(in.string() + ": error: unknown motion flag ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("found bogus)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "c.omf"));

  r = run_cli("omf merge " + quote(in) + " " + quote(dir_ / "a.omf.bak") + " -o " + quote(dir_ / "m.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, in.string() +
                       ": error: motion name in more than one file (use --rename-clashes) (expected unique names, found "
                       "shoot)\n");
  r = run_cli("omf merge " + quote(in) + " " + quote(dir_ / "a.omf.bak") + " -o " + quote(dir_ / "m.omf") + " --rename-clashes");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(run_cli("omf list " + quote(dir_ / "m.omf")).out.find("shoot_2"), std::string::npos);
  r = run_cli("omf extract " + quote(dir_ / "m.omf") + " 'shoot*' -o " + quote(dir_ / "x.omf"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("omf delete " + quote(dir_ / "x.omf") + " shoot_2 --in-place");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("omf list " + quote(dir_ / "x.omf"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  r = run_cli("omf retarget " + quote(in) + " --game soc -o " + quote(dir_ / "soc.omf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("requantised"), std::string::npos) << r.out;
  r = run_cli("omf repair " + quote(dir_ / "soc.omf") + " -o " + quote(dir_ / "rep.omf"));
  EXPECT_EQ(r.code, 0) << r.err;
}

// The shipped example's arm mesh, as examples/make_examples.py lays it out: 4 sides x 5 rings x 2
// vertices (1 link; rings below the elbow at y = 0.55 on upper_arm = 1, the others on forearm = 2),
// 4 segments x 2 triangles per side.
TEST_F(Cli, DumpListsMeshesAndRawAddsEveryVertexAndIndex) {
  const fs::path arm = test::source_dir() / "examples/wave_arm.ogf";
  const CliRun plain = run_cli("dump " + quote(arm));
  ASSERT_EQ(plain.code, 0) << plain.err;
  const auto summary = nlohmann::json::parse(plain.out).at("meshes");
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0]["chunk"], "0x9/0");
  EXPECT_EQ(summary[0]["texture"], "act\\act_arm");
  EXPECT_EQ(summary[0]["links"], 1);
  EXPECT_EQ(summary[0]["vertex_count"], 40);
  EXPECT_EQ(summary[0]["stride"], 60);
  EXPECT_EQ(summary[0]["full_detail_triangles"], 32);
  EXPECT_FALSE(summary[0].contains("vertices"));

  const CliRun raw = run_cli("dump --raw " + quote(arm));
  ASSERT_EQ(raw.code, 0) << raw.err;
  const auto mesh = nlohmann::json::parse(raw.out).at("meshes").at(0);
  const auto& vertices = mesh.at("vertices");
  ASSERT_EQ(vertices.size(), 40u);
  for (const auto& v : vertices) {
    const float y = v["position"][1].get<float>();
    EXPECT_GE(y, 0.3f - 1e-6f);
    EXPECT_LE(y, 0.8f + 1e-6f);
    EXPECT_EQ(v["bones"], nlohmann::json::array({y < 0.55f ? 1 : 2})) << v.dump();
    EXPECT_EQ(v["weights"], nlohmann::json::array({1.0}));
  }
  const auto& indices = mesh.at("indices");
  ASSERT_EQ(indices.size(), 96u);
  for (const auto& i : indices) EXPECT_LT(i.get<int>(), 40);
  EXPECT_GT(mesh.at("vertices_offset").get<std::uint64_t>(), mesh.at("offset").get<std::uint64_t>());
}


}  // namespace
}  // namespace boneyard
