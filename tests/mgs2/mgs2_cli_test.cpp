// End-to-end: the boneyard binary on MGS2 fixture files written to a temporary folder.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "boneyard/core/paths.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/texture.h"
#include "cli_harness.h"
#include "mgs2_branching_fixture.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using namespace boneyard::test::mgs2fx;

// Paths come back quoted for the command line.
class Mgs2Cli : public CliTest {
 protected:
  std::string write_quoted(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    return quote(write(name, bytes));
  }
  std::string path(const std::string& name) const { return quote(dir_ / name); }
};

TEST_F(Mgs2Cli, Strcode) {
  const CliRun r = run_cli("strcode null_msk.bmp w03b1");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "0x00B7E31E  null_msk.bmp\n0x0088D878  w03b1\n");
  const CliRun usage = run_cli("strcode");
  EXPECT_EQ(usage.code, 2);
  EXPECT_EQ(usage.err, "names is required\nRun with --help for more information.\n");
}

TEST_F(Mgs2Cli, InfoDumpValidate) {
  const std::string kms = write_quoted("a.kms", kms_bytes(standard_kms(false, false)));
  CliRun r = run_cli("info " + kms);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("layout ps2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("extended"), std::string::npos) << r.out;
  r = run_cli("validate " + kms);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ok (kms)"), std::string::npos) << r.out;
  r = run_cli("dump " + kms);
  EXPECT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["units"][0]["packets"][0]["triangles"], nlohmann::json({{0, 2, 1}, {1, 2, 3}}));
  r = run_cli("dump --raw " + kms);
  EXPECT_EQ(nlohmann::json::parse(r.out)["units"][0]["packets"][0]["vertices"][3], nlohmann::json({10, 10, 0, 2048}));

  const std::string evm = write_quoted("b.evm", evm_bytes(standard_evm(true, false, false)));
  r = run_cli("info " + evm);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("layout mc"), std::string::npos) << r.out;
  r = run_cli("validate " + evm);
  EXPECT_EQ(r.code, 0) << r.out;
  r = run_cli("dump " + evm);
  EXPECT_EQ(nlohmann::json::parse(r.out)["format"], "evm");
}

TEST_F(Mgs2Cli, Names) {
  const std::string kms = write_quoted("a.kms", kms_bytes(standard_kms(true, false)));
  std::ofstream(dir_ / "names.txt") << "w03b1\nnull_msk.bmp\n";
  CliRun r = run_cli("info --names " + path("names.txt") + " " + kms);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("0x88D878 (w03b1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(null_msk.bmp)"), std::string::npos) << r.out;
  r = run_cli("dump --names " + path("names.txt") + " " + kms);
  EXPECT_EQ(nlohmann::json::parse(r.out)["texture"], "w03b1");
  r = run_cli("dump --names " + path("missing.txt") + " " + kms);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.err, (dir_ / "missing.txt").string() + ": cannot read names file: cannot open: No such file or directory\n");
}

TEST_F(Mgs2Cli, ValidateFindingsAndBadFiles) {
  auto f = standard_kms(false, false);
  f.units[0].parent = 1;
  f.units[1].parent = 0;
  const std::string cyc = write_quoted("cyc.kms", kms_bytes(f));
  CliRun r = run_cli("validate " + cyc);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("parent cycle"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error at byte"), std::string::npos) << r.out;

  auto bytes = kms_bytes(standard_kms(false, false));
  bytes.resize(0x130);
  const std::string cut = write_quoted("cut.kms", bytes);
  r = run_cli("info " + cut);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("array past the end of the file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in unit 0 packet 0 vertices"), std::string::npos) << r.err;
  r = run_cli("dump " + cut);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty());
  r = run_cli("info " + path("nonexistent.kms"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, (dir_ / "nonexistent.kms").string() + ": cannot open: No such file or directory\n");

  auto w = standard_evm(false, false, false);
  w.bones[1].bmax = {1, 1, 1, 0};
  const std::string warn = write_quoted("warn.evm", evm_bytes(w));
  r = run_cli("validate " + warn);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 warning"), std::string::npos) << r.out;
  r = run_cli("validate --strict " + warn);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find((dir_ / "warn.evm").string() + ": FAIL (evm): 0 errors, 1 warning"), std::string::npos) << r.out;
}

TEST_F(Mgs2Cli, ConvertLayouts) {
  const auto original = kms_bytes(standard_kms(false, true));
  const std::string kms = write_quoted("a.kms", original);
  CliRun r = run_cli("convert " + kms + " -o " + path("same.kms"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "same.kms"), original);
  r = run_cli("convert " + kms + " --layout mc -o " + path("mc.kms"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("info " + path("mc.kms"));
  EXPECT_NE(r.out.find("layout mc"), std::string::npos) << r.out;
  r = run_cli("convert " + path("mc.kms") + " --layout ps2 -o " + path("back.kms"));
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string d1 = run_cli("dump " + kms).out;
  const std::string d2 = run_cli("dump " + path("back.kms")).out;
  EXPECT_EQ(d1, d2);
  r = run_cli("convert " + kms + " -o " + path("x.evm"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, (dir_ / "a.kms").string() + ": cannot convert kms to '.evm' (possible: .kms, .glb, .gltf)\n");
  r = run_cli("convert " + kms + " --layout xbox -o " + path("y.kms"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "--layout: xbox not in {ps2,mc}\nRun with --help for more information.\n");

  const auto evm_original = evm_bytes(standard_evm(true, true, false));
  const std::string evm = write_quoted("e.evm", evm_original);
  r = run_cli("convert " + evm + " -o " + path("e2.evm"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "e2.evm"), evm_original);
  r = run_cli("convert " + evm + " --layout ps2 -o " + path("e3.evm"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("dump " + path("e3.evm"));
  EXPECT_EQ(nlohmann::json::parse(r.out)["layout"], "ps2");
  r = run_cli("dump --layout mc " + path("e3.evm"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find((dir_ / "e3.evm").string() + ": error at byte 48 (0x30) in header packet: table past the end"), std::string::npos) << r.err;
}

TEST_F(Mgs2Cli, GltfRoundTripWithTemplateIsByteExact) {
  // Fixtures with alignment filler and trailing bytes: only --template brings those back.
  const auto kms_bytes_in = kms_bytes(standard_kms(false, false));
  const std::string kms = write_quoted("a.kms", kms_bytes_in);
  CliRun r = run_cli("convert " + kms + " -o " + path("a.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("convert " + path("a.glb") + " -o " + path("b.kms") + " --template " + kms);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "b.kms"), std::string(kms_bytes_in.begin(), kms_bytes_in.end()));
  r = run_cli("info " + path("a.glb"));
  EXPECT_NE(r.out.find("2 meshes (2 primitives, 7 vertices, 3 triangles)"), std::string::npos) << r.out;

  const auto evm_bytes_in = evm_bytes(standard_evm(true, false, false));
  const std::string evm = write_quoted("a.evm", evm_bytes_in);
  r = run_cli("convert " + evm + " -o " + path("a.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "a.bin"));
  r = run_cli("convert " + path("a.gltf") + " -o " + path("b.evm") + " --template " + evm);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "b.evm"), std::string(evm_bytes_in.begin(), evm_bytes_in.end()));
  // Without a template: a valid model in the builder's layout, in the layout asked for.
  r = run_cli("convert " + path("a.gltf") + " -o " + path("c.evm") + " --layout ps2");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("info " + path("c.evm"));
  EXPECT_NE(r.out.find("layout ps2"), std::string::npos) << r.out;
}

std::vector<std::uint8_t> slurp_bytes(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

TEST_F(Mgs2Cli, GltfScaleTexturesAndErrors) {
  const std::string kms = write_quoted("a.kms", kms_bytes(standard_kms(false, false)));
  fs::create_directories(dir_ / "tex");
  // The Master Collection's texture: <name>.ctxr, found by StrCode24("<name>.bmp") == the packet's id.
  texture::Image blue{4, 2, {}};
  for (int i = 0; i < 8; ++i) blue.rgba.insert(blue.rgba.end(), {0, 0, 255, 255});
  const auto ctxr = texture::build_ctxr(blue, {});
  ASSERT_TRUE(ctxr);
  write_bytes(dir_ / "tex" / "null_msk.ctxr", ctxr.value());
  std::ofstream(dir_ / "names.txt") << "null_msk.bmp\n";
  CliRun r = run_cli("convert " + kms + " -o " + path("a.gltf") + " --scale 1 --textures " + path("tex") + " --names " +
                 path("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir_ / "a.gltf"));
  EXPECT_EQ(j["images"][0]["uri"], "null_msk.png");  // decoded and written beside the .gltf
  auto png = texture::read_png(slurp_bytes(dir_ / "null_msk.png"));
  ASSERT_TRUE(png) << png.error().message;
  EXPECT_EQ(png->image.width, 4u);
  EXPECT_EQ(png->image.rgba[2], 255);  // BGRA in the file, RGBA in the PNG
  EXPECT_EQ(j["materials"][0]["name"], "null_msk.bmp");
  EXPECT_EQ(j["scenes"][0]["extras"]["mgs2"]["scale"], 1.0);
  // Scale 1 (metres = units) is kept in the extras and used on the way back.
  r = run_cli("convert " + path("a.gltf") + " -o " + path("b.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  // A model unit of 1 km does not fit 16 bits: a clear error, no output.
  r = run_cli("convert " + path("a.gltf") + " -o " + path("c.kms") + " --scale 0.0000001");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--scale"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "c.kms"));
  // A mesh-only glTF is no motion file.
  r = run_cli("convert " + path("a.gltf") + " -o " + path("c.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no animations"), std::string::npos) << r.err;
}

texture::Image solid(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  texture::Image im{2, 2, {}};
  for (int i = 0; i < 4; ++i) im.rgba.insert(im.rgba.end(), {r, g, b, 255});
  return im;
}

// The images a converted .gltf names (uri -> the decoded top-left pixel's red channel).
std::map<std::string, int> gltf_images(const fs::path& gltf) {
  std::map<std::string, int> out;
  const auto j = nlohmann::json::parse(slurp(gltf));
  for (const auto& im : j.value("images", nlohmann::json::array())) {
    auto png = texture::read_png(slurp_bytes(gltf.parent_path() / im["uri"].get<std::string>()));
    out[im["uri"]] = png ? png->image.rgba[0] : -1;
  }
  return out;
}

// --textures finds each texture under either id its name gives, in every form the Master
// Collection and boneyard name texture files (docs/textures.md "Texture files by id"): the two
// ids bp_assets.txt gives real files, 00d220e0 = StrCode24("chair_magnet") for
// chair_magnet.bmp.ctxr and 00b7e31e = StrCode24("null_msk.bmp") for null_msk.bmp.ctxr.
TEST_F(Mgs2Cli, TexturesFolderFindsEveryNameForm) {
  const std::uint32_t chair = mgs2::strcode("chair_magnet"), mask = mgs2::strcode("null_msk.bmp");
  ASSERT_EQ(chair, 0xd220e0u);
  const std::string kms = write_quoted("m/a.kms", kms_bytes(branching_kms(false, {chair, 0x123456, 0x654321, mask})));
  const auto ctxr = [](std::uint8_t red) { return texture::build_ctxr(solid(red, 0, 0), {}).value(); };
  const auto png = [](std::uint8_t red) { return texture::encode_png(solid(red, 0, 0)).value(); };
  const auto convert = [&](const std::string& out) {
    fs::create_directories((dir_ / out).parent_path());
    const CliRun r = run_cli("convert " + kms + " -o " + path(out) + " --textures " + path("tex"));
    EXPECT_EQ(r.code, 0) << r.err;
    return r;
  };
  // The game's names: <name>.bmp.ctxr and <name>.bmp_<md5>.ctxr.
  write("tex/_win/chair_magnet.bmp.ctxr", ctxr(10));
  write("tex/_win/null_msk.bmp_0123456789abcdef0123456789abcdef.ctxr", ctxr(20));
  CliRun r = convert("g1/a.gltf");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(gltf_images(dir_ / "g1/a.gltf"),
            (std::map<std::string, int>{{"chair_magnet.bmp.png", 10}, {"null_msk.bmp_0123456789abcdef0123456789abcdef.png", 20}}));
  // boneyard's own outputs: PNGs named by the name without .bmp, or by the id's 6 or 8 hex digits.
  fs::remove_all(dir_ / "tex");
  write("tex/chair_magnet.png", png(30));
  write("tex/00b7e31e.png", png(40));
  r = convert("g2/a.gltf");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(gltf_images(dir_ / "g2/a.gltf"), (std::map<std::string, int>{{"chair_magnet.png", 30}, {"00b7e31e.png", 40}}));
  fs::remove_all(dir_ / "tex");
  write("tex/d220e0.png", png(50));
  write("tex/null_msk.png", png(60));
  r = convert("g3/a.gltf");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(gltf_images(dir_ / "g3/a.gltf"), (std::map<std::string, int>{{"d220e0.png", 50}, {"null_msk.png", 60}}));
  // Several files for one id: the .ctxr before a PNG of the same name (no other candidate), a
  // name without _<md5> before its variant (one warning saying which was used).
  write("tex/null_msk.bmp.ctxr", ctxr(70));
  write("tex/a/null_msk.bmp_ffffffffffffffffffffffffffffffff.ctxr", ctxr(80));
  r = convert("g4/a.gltf");
  EXPECT_EQ(gltf_images(dir_ / "g4/a.gltf"), (std::map<std::string, int>{{"d220e0.png", 50}, {"null_msk.bmp.png", 70}}));
  EXPECT_NE(r.err.find("texture 0x00B7E31E: 2 files could be it; used " + path_to_utf8(dir_ / "tex" / "null_msk.bmp.ctxr")),
            std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(Mgs2Cli, NMatsSeaLouseRewritesOnlyNMats) {
  const auto original = evm_bytes(branching_evm(true, {0xB7E31E, 0x123456, 0x654321, 0x88D878}));
  const std::string evm = write_quoted("b.evm", original);
  CliRun r = run_cli("convert " + evm + " -o " + path("s.evm") + " --n-mats sealouse");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rewritten = slurp_bytes(dir_ / "s.evm");
  ASSERT_EQ(rewritten.size(), original.size());
  // MC packet 1 (of 6 joints: 0x40 + 6 * 0x40 + 0x70) holds n_mats at 0x24: 6 became 4, nothing else.
  const std::size_t at = 0x40 + 6 * 0x40 + 0x70 + 0x24;
  for (std::size_t i = 0; i < original.size(); ++i) {
    if (i == at) continue;
    EXPECT_EQ(rewritten[i], original[i]) << "byte " << i;
  }
  EXPECT_EQ(original[at], 6);
  EXPECT_EQ(rewritten[at], 4);
  // And back to the spec's reading.
  r = run_cli("convert " + path("s.evm") + " -o " + path("t.evm") + " --n-mats spec");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp_bytes(dir_ / "t.evm"), original);
  // Through glTF too; and it is no option for a .kms.
  ASSERT_EQ(run_cli("convert " + evm + " -o " + path("b.glb")).code, 0);
  r = run_cli("convert " + path("b.glb") + " -o " + path("g.evm") + " --n-mats sealouse");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp_bytes(dir_ / "g.evm")[at], 4);
  r = run_cli("convert " + path("b.glb") + " -o " + path("g.kms") + " --n-mats sealouse");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--n-mats"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace boneyard::test
